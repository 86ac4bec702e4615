package glulx

// rng is glulxe's random-number generator (osdepend.c): xoshiro128**
// seeded through SplitMix32. glulxe's setrandom 0 ("true randomness")
// seeds it from the clock; grue seeds it from the generator's own next
// value instead, so that a run stays reproducible from its --seed.
type rng struct{ s [4]uint32 }

func (r *rng) seed(seed uint32) {
	for i := range 4 {
		seed += 0x9E3779B9
		s := seed
		s ^= s >> 15
		s *= 0x85EBCA6B
		s ^= s >> 13
		s *= 0xC2B2AE35
		s ^= s >> 16
		r.s[i] = s
	}
}

func (r *rng) setrandom(seed uint32) {
	if seed == 0 {
		seed = r.next()
	}
	r.seed(seed)
}

func (r *rng) next() uint32 {
	t := &r.s
	t1x5 := t[1] * 5
	result := (t1x5<<7 | t1x5>>25) * 9
	t1s9 := t[1] << 9
	t[2] ^= t[0]
	t[3] ^= t[1]
	t[1] ^= t[2]
	t[0] ^= t[3]
	t[2] ^= t1s9
	t[3] = t[3]<<11 | t[3]>>21
	return result
}
