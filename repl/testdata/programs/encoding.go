// Encoding a program's own types: exported fields and their tags, the
// unexported ones left out, both ways.
package main

import (
	"encoding/json"
	"fmt"
)

type Episode struct {
	Game   string  `json:"game"`
	Score  int     `json:"score"`
	Reward float64 `json:"reward,omitempty"`
	seed   int
	notes  []string `json:"notes"`
}

func main() {
	e := Episode{Game: "zork", Score: 35, seed: 7, notes: []string{"x"}}
	b, err := json.Marshal(e)
	fmt.Println(string(b), err)
	var back Episode
	err = json.Unmarshal([]byte(`{"game":"lantern","score":9,"seed":3,"Xseed":4,"notes":["y"]}`), &back)
	fmt.Println(back.Game, back.Score, back.seed, len(back.notes), err)
}
