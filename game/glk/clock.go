package glk

import (
	"time"
)

// The Glk date functions: glktimeval_t is {high_sec, low_sec, microsec},
// glkdate_t {year, month, day, weekday, hour, minute, second, microsec}.

func (g *Glk) now() time.Time {
	if g.opts.Now != nil {
		return g.opts.Now()
	}
	return time.Now()
}

func (g *Glk) loc(local bool) *time.Location {
	if local {
		return time.Local
	}
	return time.UTC
}

func timeFields(t time.Time) []uint32 {
	s := t.Unix()
	return []uint32{uint32(uint64(s) >> 32), uint32(s), uint32(t.Nanosecond() / 1000)}
}

func fieldsTime(f []uint32) time.Time {
	s := int64(uint64(f[0])<<32 | uint64(f[1]))
	return time.Unix(s, int64(int32(f[2]))*1000)
}

func dateFields(t time.Time) []uint32 {
	return []uint32{uint32(int32(t.Year())), uint32(t.Month()), uint32(t.Day()), uint32(t.Weekday()),
		uint32(t.Hour()), uint32(t.Minute()), uint32(t.Second()), uint32(t.Nanosecond() / 1000)}
}

func (g *Glk) fieldsDate(f []uint32, local bool) time.Time {
	i := func(k int) int { return int(int32(f[k])) }
	return time.Date(i(0), time.Month(i(1)), i(2), i(4), i(5), i(6), i(7)*1000, g.loc(local))
}

func simpleTime(t time.Time, factor uint32) uint32 {
	s := t.Unix()
	d := int64(factor)
	q := s / d
	if s%d != 0 && s < 0 {
		q-- // floor, as the Glk spec says
	}
	return uint32(int32(q))
}

func (g *Glk) currentTime(a []garg) (uint32, error) {
	if !a[0].null {
		copy(a[0].fields, timeFields(g.now()))
	}
	return 0, nil
}

func (g *Glk) currentSimpleTime(a []garg) (uint32, error) {
	if a[0].u == 0 {
		return 0, nil
	}
	return simpleTime(g.now(), a[0].u), nil
}

func (g *Glk) timeToDate(a []garg, local bool) (uint32, error) {
	copy(a[1].fields, dateFields(fieldsTime(a[0].fields).In(g.loc(local))))
	return 0, nil
}

func (g *Glk) simpleToDate(a []garg, local bool) (uint32, error) {
	t := time.Unix(int64(int32(a[0].u))*int64(a[1].u), 0)
	copy(a[2].fields, dateFields(t.In(g.loc(local))))
	return 0, nil
}

func (g *Glk) dateToTime(a []garg, local bool) (uint32, error) {
	copy(a[1].fields, timeFields(g.fieldsDate(a[0].fields, local)))
	return 0, nil
}

func (g *Glk) dateToSimple(a []garg, local bool) (uint32, error) {
	if a[1].u == 0 {
		return 0, nil
	}
	return simpleTime(g.fieldsDate(a[0].fields, local), a[1].u), nil
}
