package agent

import (
	"context"
	"fmt"
)

// RandomPolicy plays a valid action chosen uniformly at random: at each
// step it asks the valid_actions tool for the commands that change the
// world and picks one with its own random source, so the same seed (and
// the same game seed) plays the same trajectory. When there are none (or
// the server has no valid_actions) it plays a random compass direction.
type RandomPolicy struct {
	seed int64
	rng  policyRand
}

// NewRandom returns a RandomPolicy seeded with seed.
func NewRandom(seed int64) *RandomPolicy {
	return &RandomPolicy{seed: seed, rng: newRand(seed)}
}

// Name is "random".
func (p *RandomPolicy) Name() string { return "random" }

// Reset starts the random source again from the seed, for a new episode
// that should play as the first one did.
func (p *RandomPolicy) Reset() { p.rng = newRand(p.seed) }

// Clone returns a copy of the policy at the same point of its random
// sequence: the copy and p draw the same numbers from here on, each from
// its own source.
func (p *RandomPolicy) Clone() Policy {
	c := *p
	c.rng = p.rng.clone()
	return &c
}

// Next asks for the valid actions and plays one at random.
func (p *RandomPolicy) Next(ctx context.Context, v View) (Action, error) {
	acts, _, err := askValidActions(ctx, v.Tools)
	if err != nil {
		return Action{}, fmt.Errorf("random policy: %w", err)
	}
	if len(acts) == 0 {
		d := randomDirection(p.rng)
		return playAction(fmt.Sprintf("random: no valid actions known here, so a random direction: %s", d), d), nil
	}
	a := acts[p.rng.IntN(len(acts))]
	return playAction(fmt.Sprintf("random: %q, one of %d valid actions", a, len(acts)), a), nil
}
