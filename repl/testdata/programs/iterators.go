// Iterators of the standard library of Go 1.23-1.26 (strings.SplitSeq,
// strings.Lines, maps.Keys) collected and sorted by slices' generic
// functions, and ranged over.
package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

func main() {
	fields := slices.Collect(strings.SplitSeq("b,c,a", ","))
	fmt.Println(fields, len(fields))
	fmt.Println(slices.Sorted(strings.FieldsSeq(" z  x y ")))
	for line := range strings.Lines("one\ntwo\n") {
		fmt.Printf("%q\n", line)
	}
	scores := map[string]int{"zork1": 3, "lantern": 1}
	for _, k := range slices.Sorted(maps.Keys(scores)) {
		fmt.Println(k, scores[k])
	}
	fmt.Println(slices.Sorted(maps.Values(scores)))
}
