package zmachine

// rng is Frotz's random number generator in its seeded mode: a linear
// congruential generator A = 0x015a4e35*A + 1 over a signed 64-bit value,
// each draw taking (A >> 16) & 0x7fff. A game can switch it to a counting
// sequence (random -S with S < 1000) or reseed it (S >= 1000); random 0
// returns to the start-up seed.
type rng struct {
	seed     int64 // the start-up seed, restored by random 0 and restart
	a        int64
	interval int64 // counting mode: 0 off, else the sequence length
	counter  int64
}

func (r *rng) init(seed int64) {
	r.seed = seed
	r.a = seed
	r.interval = 0
	r.counter = 0
}

// reseed implements random with a zero or negative range.
func (r *rng) reseed(s int64) {
	switch {
	case s == 0:
		r.a = r.seed
		r.interval = 0
	case s < 1000:
		r.counter = 0
		r.interval = s
	default:
		r.a = s
		r.interval = 0
	}
}

// draw returns a number from 1 to n (n > 0).
func (r *rng) draw(n int64) uint16 {
	if r.interval != 0 {
		v := r.counter % r.interval
		r.counter++
		return uint16(v%n + 1)
	}
	r.a = 0x015a4e35*r.a + 1
	v := (r.a >> 16) & 0x7fff
	return uint16(v%n + 1)
}
