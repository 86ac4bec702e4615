package lazyregexp

import (
	"sync"
	"testing"
)

func TestLazyMatchesLikeRegexp(t *testing.T) {
	re := New(`(\d+)-of-(\d+)`)
	if !re.MatchString("shard 2-of-5") || re.MatchString("none") {
		t.Fatalf("MatchString wrong for %s", re)
	}
	if got := re.FindStringSubmatch("2-of-5"); len(got) != 3 || got[1] != "2" || got[2] != "5" {
		t.Fatalf("FindStringSubmatch = %q", got)
	}
	if got := re.ReplaceAllString("a 1-of-2 b", "x"); got != "a x b" {
		t.Fatalf("ReplaceAllString = %q", got)
	}
	first := re.Regexp()
	if again := re.Regexp(); first != again {
		t.Fatal("compiled twice")
	}
}

func TestConcurrentFirstUse(t *testing.T) {
	re := New(`^a+$`)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if !re.MatchString("aaa") {
				t.Error("no match")
			}
		}()
	}
	wg.Wait()
}

func TestInvalidPanicsOnFirstUse(t *testing.T) {
	re := New(`(`) // no panic yet
	defer func() {
		if recover() == nil {
			t.Fatal("an invalid expression did not panic on its first use")
		}
	}()
	re.MatchString("x")
}
