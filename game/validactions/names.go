package validactions

import (
	"sort"
	"strings"
)

// How valid actions name objects. The words a player may type for an
// object are in its properties, not only in its printed name: the Inform
// library's `name` property lists every word that names the object (a
// Phoenix game's printed names are "(KEYS)", its name property "keys",
// "bunch"), and Infocom's SYNONYM property lists its nouns. Any property
// that holds only dictionary words, on most objects that have it, is such a
// property (wordProps); an object's words are those of its word
// properties and the dictionary words of its printed name.
//
// Each object is then named as the parser will understand it without
// asking "Which do you mean?": by one word that no other object in scope
// answers to (the last noun of its printed name first), else by two of its
// words that no other object has both of (how the Inform parser matches:
// every word typed must name the object), else by the two last words of
// its printed name.

// propRef is one property of an object: its number, the address of its
// data and the data's length in bytes.
type propRef struct {
	num, addr, size uint32
}

// props lists the properties of object o (Standard §12.4).
func (g *Search) props(o uint16) []propRef {
	if o == 0 || int(o) > g.Objects {
		return nil
	}
	table, _ := g.Machine.PeekWord(0x0a)
	entry := uint32(table) + 31*2 + uint32(o-1)*9 + 7
	if g.Story.z.Version() > 3 {
		entry = uint32(table) + 63*2 + uint32(o-1)*14 + 12
	}
	p, ok := g.Machine.PeekWord(entry)
	if !ok {
		return nil
	}
	a := uint32(p)
	n, _ := g.Machine.PeekByte(a)
	a += 1 + 2*uint32(n)
	var out []propRef
	for steps := 0; steps < 64; steps++ {
		b, ok := g.Machine.PeekByte(a)
		if !ok || b == 0 {
			break
		}
		var num, size uint32
		switch {
		case g.Story.z.Version() <= 3:
			num, size = uint32(b&31), uint32(b>>5)+1
			a++
		case b&0x80 != 0:
			b2, _ := g.Machine.PeekByte(a + 1)
			num, size = uint32(b&63), uint32(b2&63)
			if size == 0 {
				size = 64
			}
			a += 2
		default:
			num, size = uint32(b&63), uint32(b>>6&1)+1
			a++
		}
		out = append(out, propRef{num: num, addr: a, size: size})
		a += size
	}
	return out
}

// propWords returns the words of property p when it holds only
// dictionary words (byAddr: entry address -> word), else nil.
func (g *Search) propWords(p propRef, byAddr map[uint32]string) []string {
	if p.size%2 != 0 {
		return nil
	}
	var out []string
	for i := uint32(0); i < p.size; i += 2 {
		w, _ := g.Machine.PeekWord(p.addr + i)
		word, ok := byAddr[uint32(w)]
		if !ok {
			return nil
		}
		out = append(out, word)
	}
	return out
}

// findWordProps returns the numbers of the properties that name objects:
// those that hold only dictionary words on at least four of every five
// objects having them, and on at least three objects.
func (g *Search) findWordProps(byAddr map[uint32]string) map[uint32]bool {
	has, words := map[uint32]int{}, map[uint32]int{}
	for o := 1; o <= g.Objects; o++ {
		for _, p := range g.props(uint16(o)) {
			has[p.num]++
			if g.propWords(p, byAddr) != nil {
				words[p.num]++
			}
		}
	}
	out := map[uint32]bool{}
	for n, w := range words {
		if w >= 3 && 5*w >= 4*has[n] {
			out[n] = true
		}
	}
	return out
}

// objectWords returns the dictionary words that name object o: those of
// its word properties and the last noun of its printed name; and that noun of its
// printed name (with the word before it, when the dictionary has it) as
// the preferred name.
func (g *Search) objectWords(v *vocabulary, o uint16) (words map[string]bool, adj, noun string) {
	words = map[string]bool{}
	for _, p := range g.props(o) {
		if v.wordProps[p.num] {
			for _, w := range g.propWords(p, v.byAddr) {
				words[w] = true
			}
		}
	}
	adj, noun = g.nameWords(v, o)
	if noun != "" {
		// Not the adjective: "gold" of "gold coffin" does not name the
		// coffin alone in a ZIL game.
		words[v.cut(noun)] = true
	}
	return words, adj, noun
}

// scopeObject is an object in scope with every word that names it.
type scopeObject struct {
	id        uint16
	words     map[string]bool // as the dictionary holds them (cut)
	adj, noun string          // from its printed name ("" when none)
	held      bool
}

// references picks, for each object of objs, how a command names it (""
// for an object nothing names). See the comment at the top of the file.
func references(v *vocabulary, objs []scopeObject) []string {
	// answers counts the objects in scope that answer to all of words
	// (with another word, an adjective of the printed name answers for
	// its object).
	answers := func(words ...string) int {
		n := 0
		for _, o := range objs {
			all := true
			for _, w := range words {
				all = all && (o.words[v.cut(w)] || len(words) > 1 && w == o.adj)
			}
			if all {
				n++
			}
		}
		return n
	}
	out := make([]string, len(objs))
	for i, o := range objs {
		var own []string // the object's words, nouns first, then sorted
		for w := range o.words {
			own = append(own, w)
		}
		sort.Slice(own, func(a, b int) bool {
			na, nb := v.isNoun(own[a]), v.isNoun(own[b])
			if na != nb {
				return na
			}
			return own[a] < own[b]
		})
		switch {
		case o.noun != "" && answers(o.noun) == 1:
			out[i] = o.noun
		case o.noun != "" && o.adj != "" && !v.isPrep(o.adj) && answers(o.adj, o.noun) == 1:
			out[i] = o.adj + " " + o.noun
		}
		if out[i] != "" {
			continue
		}
		for _, w := range own {
			if wordOK(w) && answers(w) == 1 {
				out[i] = w
				break
			}
		}
		for a := 0; out[i] == "" && a < len(own); a++ {
			for b := 0; b < len(own); b++ {
				if a != b && wordOK(own[a]) && wordOK(own[b]) && answers(own[a], own[b]) == 1 {
					out[i] = own[b] + " " + own[a]
					break
				}
			}
		}
		if out[i] == "" && o.noun != "" {
			out[i] = strings.TrimSpace(o.adj + " " + o.noun)
		}
	}
	return out
}

// wordOK reports whether a dictionary word can be typed as it is: a
// word cut to the dictionary's length is still understood, but one with
// spaces, commas or other punctuation the parser splits is not.
func wordOK(w string) bool {
	if w == "" {
		return false
	}
	for _, r := range w {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' && r != '\'' {
			return false
		}
	}
	return true
}
