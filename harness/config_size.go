package harness

import (
	"fmt"

	"github.com/goccy/go-yaml/ast"
	"github.com/goccy/go-yaml/lexer"
	"github.com/goccy/go-yaml/parser"
	"github.com/goccy/go-yaml/token"
)

// The largest experiment a config may describe. A config beyond them is
// refused before anything is allocated for it: `trials: 1000000000000`
// made a slice of a trillion seeds (an immediate fatal out-of-memory),
// and a 1 KB YAML file whose aliases refer to aliases expanded to
// gigabytes. docs/experiments.md lists them.
const (
	// MaxConfigBytes is the largest config file LoadConfig reads.
	MaxConfigBytes = 256 << 10
	// MaxConfigNodes bounds the values of a config document, each alias
	// counted as the values it stands for.
	MaxConfigNodes = 100_000
	// MaxConfigDepth bounds how deep a config's values nest: flow
	// collections ([ and {) in one another, and block sequences ("- - -"),
	// whose dashes may start no further right than column
	// 2*MaxConfigDepth. go-yaml's parser takes time and memory that grow
	// faster than the depth: 20,000 brackets took 1.4 s and 640 MB.
	MaxConfigDepth = 64
	// MaxPromptBytes is the largest system_prompt_file.
	MaxPromptBytes = 1 << 20
	// MaxVariants, MaxGames and MaxSeeds bound the lists of a config;
	// MaxSeeds bounds trials too.
	MaxVariants = 100
	MaxGames    = 1_000
	MaxSeeds    = 10_000
	// MaxEpisodes bounds variants x games x seeds.
	MaxEpisodes = 100_000
	// MaxSteps bounds max_steps.
	MaxSteps = 100_000
	// MaxParallel bounds parallel (and RunOptions.Parallel).
	MaxParallel = 256
	// MaxRetries bounds retries.
	MaxRetries = 100
)

// checkDocument refuses a YAML document that nests deeper than
// MaxConfigDepth or expands (its aliases replaced by what they stand for)
// to more than MaxConfigNodes values: go-yaml has no limit of its own,
// and decoding such a document takes memory exponential in its size. A
// document that does not parse is left for the decoder to report.
func checkDocument(data []byte, file string) (err error) {
	tokens := lexer.Tokenize(string(data))
	if tk := tooDeep(tokens); tk != nil {
		fe := &FieldError{File: file, Msg: fmt.Sprintf("values nest deeper than the limit of %d", MaxConfigDepth)}
		if tk.Position != nil {
			fe.Line, fe.Column = tk.Position.Line, tk.Position.Column
		}
		return fe
	}
	f, perr := parser.Parse(tokens, 0)
	if perr != nil {
		return nil
	}
	defer func() {
		// A node the parser left half-built: the decoder reports it.
		if recover() != nil {
			err = nil
		}
	}()
	c := &expansion{anchors: map[string]int64{}}
	for _, doc := range f.Docs {
		c.size(doc)
		if c.over != nil {
			fe := &FieldError{File: file, Msg: fmt.Sprintf("the document expands to more than %d values, aliases counted as what they stand for (an alias bomb?)", MaxConfigNodes)}
			if c.over.Position != nil {
				fe.Line, fe.Column = c.over.Position.Line, c.over.Position.Column
			}
			return fe
		}
	}
	return nil
}

// tooDeep returns the first token that nests deeper than MaxConfigDepth:
// a flow collection's opening bracket, or a block sequence's dash too far
// right; nil when there is none.
func tooDeep(tokens token.Tokens) *token.Token {
	depth := 0
	for _, tk := range tokens {
		switch tk.Type {
		case token.SequenceStartType, token.MappingStartType:
			if depth++; depth > MaxConfigDepth {
				return tk
			}
		case token.SequenceEndType, token.MappingEndType:
			depth = max(0, depth-1)
		case token.SequenceEntryType:
			if depth == 0 && tk.Position != nil && tk.Position.Column > 2*MaxConfigDepth {
				return tk
			}
		}
	}
	return nil
}

// expansion counts the values of a YAML document as the decoder would
// see them: an alias counts as the size of its anchor's value. It stops
// at the first alias that takes the count past MaxConfigNodes (over).
type expansion struct {
	anchors map[string]int64
	total   int64
	over    *token.Token
}

// size returns the number of values n expands to, adding them to the
// total; once over the limit it returns at once.
func (c *expansion) size(n ast.Node) int64 {
	if n == nil || c.over != nil {
		return 0
	}
	var s int64 = 1
	switch n := n.(type) {
	case *ast.DocumentNode:
		s = c.size(n.Body)
	case *ast.MappingNode:
		for _, v := range n.Values {
			s += c.size(v)
		}
	case *ast.MappingKeyNode:
		s = c.size(n.Value)
	case *ast.MappingValueNode:
		s = c.size(n.Key) + c.size(n.Value)
	case *ast.SequenceNode:
		for _, v := range n.Values {
			s += c.size(v)
		}
	case *ast.TagNode:
		s = c.size(n.Value)
	case *ast.AnchorNode:
		s = c.size(n.Value)
		if n.Name != nil && n.Name.GetToken() != nil {
			c.anchors[n.Name.GetToken().Value] = s
		}
	case *ast.AliasNode:
		if n.Value != nil && n.Value.GetToken() != nil {
			s = max(1, c.anchors[n.Value.GetToken().Value])
		}
		// The anchor's values were counted where it was defined; they
		// count again here.
		c.total += s
		if c.total > MaxConfigNodes && c.over == nil {
			c.over = n.GetToken()
			if c.over == nil {
				c.over = &token.Token{}
			}
		}
		return s
	default:
		c.total++
	}
	if c.total > MaxConfigNodes && c.over == nil {
		c.over = n.GetToken()
		if c.over == nil {
			c.over = &token.Token{}
		}
	}
	return min(s, MaxConfigNodes+1)
}
