package repl

import (
	"go/scanner"
	"go/token"
	"strings"
)

// Complete reports whether src is a whole cell, ready to evaluate, rather
// than the start of one that goes on over more lines. The REPL reads lines
// until it is. Go's own rule decides, applied with go/scanner: a line ends a
// statement when Go would insert a semicolon there, that is after an
// identifier, a literal, one of the keywords break, continue, fallthrough
// and return, or one of ++ -- ) ] }. So src is incomplete while a brace,
// parenthesis or bracket is open, a raw string or a block comment is
// unterminated, or its last token is an operator, a comma or another keyword
// ("x +", "f(a,", "if x {", "s := `two").
//
// An interpreted string or rune literal cut by the end of a line ("abc) is
// complete: Go forbids the newline there, so no later line could mend it,
// and evaluating the cell shows the error at once.
//
// A magic (":time f(") is complete when its argument is, for the magics
// whose argument is Go code; other magics take one line.
func Complete(src string) bool {
	return scan(src).complete
}

// unit is one top-level statement or declaration of a cell: the cell is
// evaluated a unit at a time, so that declarations and statements mix
// freely ("func f() int { return 1 }; f()").
type unit struct {
	text  string      // the source from its first token to the end of its last
	line  int         // its first line in the cell, from 1
	col   int         // the column of its first token, from 1
	first token.Token // its first token
	next  token.Token // the token after the first, to tell a func declaration from a func literal
}

// scanResult is what one pass of the scanner learns about a cell.
type scanResult struct {
	complete bool
	units    []unit
}

// scan tokenizes src once, tracking the nesting of brackets, and splits it
// into top-level units at the semicolons (written or inserted at line ends)
// outside any bracket.
func scan(src string) scanResult {
	fset := token.NewFileSet()
	file := fset.AddFile("", fset.Base(), len(src))
	var s scanner.Scanner
	var unterminated bool // a raw string or block comment runs to the end
	s.Init(file, []byte(src), func(pos token.Position, msg string) {
		if msg == "raw string literal not terminated" || msg == "comment not terminated" {
			unterminated = true
		}
	}, 0)

	var (
		r         scanResult
		depth     int
		last      = token.SEMICOLON // the last token other than an inserted semicolon
		cur       *unit
		start     int // offset of cur's first token
		end       int // offset just after cur's last token
		sawSecond bool
		// header is set between for, if or switch and the brace that
		// opens its block, where semicolons separate the clauses
		// ("for i := 0; i < n; i++ {") rather than statements.
		header bool
	)
	flush := func() {
		if cur != nil {
			cur.text = src[start:end]
			r.units = append(r.units, *cur)
			cur = nil
		}
	}
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			// Inserted at a line end (or at the end of src).
			if depth <= 0 {
				flush()
			}
			continue
		}
		last = tok
		switch tok {
		case token.LBRACE:
			if depth <= 0 {
				header = false
			}
			depth++
		case token.LPAREN, token.LBRACK:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		case token.FOR, token.IF, token.SWITCH:
			if depth <= 0 {
				header = true
			}
		}
		if tok == token.SEMICOLON && depth <= 0 && !header {
			flush()
			continue
		}
		off := file.Offset(pos)
		if cur == nil {
			p := file.Position(pos)
			cur = &unit{line: p.Line, col: p.Column, first: tok}
			start = off
			sawSecond = false
		} else if !sawSecond {
			cur.next = tok
			sawSecond = true
		}
		end = off + tokenLen(tok, lit)
	}
	flush()
	r.complete = !unterminated && depth <= 0 && endsStatement(last)
	return r
}

// tokenLen is the length in the source of a token the scanner returned.
func tokenLen(tok token.Token, lit string) int {
	if lit != "" {
		return len(lit)
	}
	return len(tok.String())
}

// endsStatement reports whether Go inserts a semicolon after tok at the end
// of a line (or tok is one): whether a line ending in tok may end a
// statement.
func endsStatement(tok token.Token) bool {
	switch tok {
	case token.IDENT, token.INT, token.FLOAT, token.IMAG, token.CHAR, token.STRING,
		token.BREAK, token.CONTINUE, token.FALLTHROUGH, token.RETURN,
		token.INC, token.DEC, token.RPAREN, token.RBRACK, token.RBRACE,
		token.SEMICOLON:
		return true
	}
	return false
}

// isMagic reports whether src is a magic command: its first non-blank
// character is a colon. Go code never starts with one.
func isMagic(src string) bool {
	return strings.HasPrefix(strings.TrimSpace(src), ":")
}
