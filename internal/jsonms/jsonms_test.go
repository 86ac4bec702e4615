package jsonms

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"
)

// timed is a type as grue's are: durations tagged json:"-", its JSON
// codec given to Marshal and Unmarshal.
type timed struct {
	Name  string        `json:"name"`
	Wall  time.Duration `json:"-"`
	Spare time.Duration `json:"-"`
}

func (t *timed) fields() []Field {
	return []Field{{Name: "wall", D: &t.Wall}, {Name: "spare", D: &t.Spare, OmitZero: true}}
}

func (t timed) MarshalJSON() ([]byte, error) {
	type plain timed
	return Marshal(plain(t), t.fields()...)
}

func (t *timed) UnmarshalJSON(b []byte) error {
	type plain timed
	return Unmarshal(b, (*plain)(t), t.fields()...)
}

// Durations are written as *_ms in milliseconds to the microsecond, after
// the other fields, and read back as written.
func TestWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		in   timed
		want string
	}{
		{"zero, the omitted one left out", timed{Name: "a"}, `{"name":"a","wall_ms":0}`},
		{"whole milliseconds", timed{Wall: 3 * time.Millisecond, Spare: time.Second}, `{"name":"","wall_ms":3,"spare_ms":1000}`},
		{"fractional", timed{Wall: 1500 * time.Microsecond, Spare: 153 * time.Microsecond}, `{"name":"","wall_ms":1.5,"spare_ms":0.153}`},
		{"rounded to the microsecond", timed{Wall: 1234567 * time.Nanosecond, Spare: 499}, `{"name":"","wall_ms":1.235}`},
		{"half a microsecond rounds up", timed{Wall: 500, Spare: 500}, `{"name":"","wall_ms":0.001,"spare_ms":0.001}`},
		{"negative", timed{Wall: -2500 * time.Microsecond, Spare: -1}, `{"name":"","wall_ms":-2.5}`},
		{"largest", timed{Wall: math.MaxInt64, Spare: math.MinInt64}, `{"name":"","wall_ms":9223372036854.775,"spare_ms":-9223372036854.775}`},
	} {
		t.Run(c.name, func(t *testing.T) {
			b, err := json.Marshal(c.in)
			if err != nil || string(b) != c.want {
				t.Fatalf("wrote %s, %v; want %s", b, err, c.want)
			}
			var back timed
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if want := (timed{Name: c.in.Name, Wall: roundTrip(c.in.Wall), Spare: roundTrip(c.in.Spare)}); back != want {
				t.Errorf("read back %+v, want %+v", back, want)
			}
		})
	}
}

// roundTrip is d as it reads back from its JSON: to the microsecond,
// clamped.
func roundTrip(d time.Duration) time.Duration {
	switch r := d.Round(time.Microsecond); {
	case d > math.MaxInt64-time.Microsecond:
		return math.MaxInt64
	case d < math.MinInt64+time.Microsecond:
		return math.MinInt64
	default:
		return r
	}
}

// Every form a duration was ever written in reads: milliseconds under
// *_ms, nanoseconds under the name without _ms, neither (0); and a
// malformed one is an error that names its field.
func TestRead(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		wall      time.Duration
		spare     time.Duration
		wantError string // a part of the error; "" for none
	}{
		{"milliseconds", `{"wall_ms":1.5,"spare_ms":2}`, 1500 * time.Microsecond, 2 * time.Millisecond, ""},
		{"fractional, rounded to the microsecond", `{"wall_ms":1.2345,"spare_ms":0.0004}`, 1235 * time.Microsecond, 0, ""},
		{"negative", `{"wall_ms":-2.5}`, -2500 * time.Microsecond, 0, ""},
		{"absent", `{"name":"x"}`, 0, 0, ""},
		{"null is absent", `{"wall_ms":null,"wall":7}`, 7, 0, ""},
		{"nanoseconds, as written before", `{"wall":2500000,"spare":-3}`, 2500 * time.Microsecond, -3, ""},
		{"milliseconds win over nanoseconds", `{"wall_ms":3,"wall":5}`, 3 * time.Millisecond, 0, ""},
		{"beyond a Duration, clamped", `{"wall_ms":1e300,"spare_ms":-1e300}`, math.MaxInt64, math.MinInt64, ""},
		{"names matched as encoding/json does", `{"WALL_MS":4}`, 4 * time.Millisecond, 0, ""},
		{"the whole of it null", `null`, 0, 0, ""},
		{"milliseconds a string", `{"wall_ms":"1.5"}`, 0, 0, "wall_ms: want milliseconds"},
		{"milliseconds an object", `{"spare_ms":{}}`, 0, 0, "spare_ms: want milliseconds"},
		{"nanoseconds not whole", `{"wall":1.5}`, 0, 0, "wall: want nanoseconds"},
		{"nanoseconds beyond a Duration", `{"spare":9223372036854775808}`, 0, 0, "spare: want nanoseconds (a whole number a Duration holds)"},
		{"milliseconds beyond a float", `{"wall_ms":1e400}`, 0, 0, "wall_ms: want milliseconds"},
		{"a malformed unused form", `{"wall_ms":1,"wall":"x"}`, 0, 0, "wall: want nanoseconds"},
		{"not an object", `[1]`, 0, 0, "cannot unmarshal array"},
		{"not JSON", `{"wall_ms":`, 0, 0, "unexpected end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := timed{Name: "before", Wall: 9, Spare: 9}
			err := json.Unmarshal([]byte(c.in), &got)
			if c.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantError) {
					t.Fatalf("error %v, want one saying %q", err, c.wantError)
				}
				if got != (timed{Name: "before", Wall: 9, Spare: 9}) {
					t.Errorf("a failed read changed the value: %+v", got)
				}
				return
			}
			if err != nil || got.Wall != c.wall || got.Spare != c.spare {
				t.Errorf("read %+v, %v; want wall %v, spare %v", got, err, c.wall, c.spare)
			}
			if c.in != `null` && !strings.Contains(c.in, `"name"`) && got.Name != "" {
				t.Errorf("name %q: a read replaces the value, it does not merge into it", got.Name)
			}
		})
	}
}

// Marshal and Unmarshal want a struct without methods, and a name and
// a duration for each field, and say so rather than panic.
func TestMisuse(t *testing.T) {
	var d time.Duration
	for _, c := range []struct {
		name   string
		err    error
		saying string
	}{
		{"a slice", func() error { _, err := Marshal([]int{1}, Field{Name: "wall", D: &d}); return err }(), "not a struct"},
		{"a type with methods", func() error { _, err := Marshal(timed{}, Field{Name: "wall", D: &d}); return err }(), "without methods"},
		{"reading a type with methods", Unmarshal([]byte(`{}`), &timed{}, Field{Name: "wall", D: &d}), "without methods"},
		{"no name", func() error { _, err := Marshal(struct{}{}, Field{D: &d}); return err }(), `name ""`},
		{"a name a tag cannot hold", Unmarshal([]byte(`{}`), &struct{}{}, Field{Name: `a"b`, D: &d}), "name"},
		{"no duration", func() error { _, err := Marshal(struct{}{}, Field{Name: "wall"}); return err }(), "duration"},
	} {
		if c.err == nil || !strings.Contains(c.err.Error(), c.saying) {
			t.Errorf("%s: %v, want an error saying %q", c.name, c.err, c.saying)
		}
	}
	b, err := Marshal(struct{}{}, Field{Name: "wall", D: &d})
	if err != nil || string(b) != `{"wall_ms":0}` {
		t.Errorf("an empty struct: %s, %v", b, err)
	}
}

// The conversions of single values, which llm exports.
func TestConversions(t *testing.T) {
	for _, c := range []struct {
		d  time.Duration
		ms float64
	}{{0, 0}, {1500 * time.Microsecond, 1.5}, {-153 * time.Microsecond, -0.153}, {499, 0}, {time.Hour, 3.6e6}} {
		if got := Millis(c.d); got != c.ms {
			t.Errorf("Millis(%v) = %v, want %v", c.d, got, c.ms)
		}
		if got := FromMillis(c.ms); got != c.d.Round(time.Microsecond) {
			t.Errorf("FromMillis(%v) = %v, want %v", c.ms, got, c.d.Round(time.Microsecond))
		}
	}
	if FromMillis(math.NaN()) != 0 || FromMillis(math.Inf(1)) != math.MaxInt64 || FromMillis(math.Inf(-1)) != math.MinInt64 {
		t.Error("NaN and infinities are not 0 and clamped")
	}
	ms, ns := 2.0, int64(7)
	if MillisOrNanos(&ms, &ns) != 2*time.Millisecond || MillisOrNanos(nil, &ns) != 7 || MillisOrNanos(nil, nil) != 0 {
		t.Error("MillisOrNanos does not prefer milliseconds, then nanoseconds, then 0")
	}
}

// BenchmarkMarshal writes and reads back a small record with two
// durations: the codec's cost beside encoding/json's own.
func BenchmarkMarshal(b *testing.B) {
	type plain struct {
		Action string `json:"action"`
		Score  int    `json:"score"`
	}
	v := plain{Action: "open mailbox", Score: 5}
	wall, model := 1500*time.Microsecond, 250*time.Millisecond
	b.ReportAllocs()
	for b.Loop() {
		out, err := Marshal(v, Field{Name: "wall", D: &wall}, Field{Name: "model", D: &model, OmitZero: true})
		if err != nil {
			b.Fatal(err)
		}
		var back plain
		var w, m time.Duration
		if err := Unmarshal(out, &back, Field{Name: "wall", D: &w}, Field{Name: "model", D: &m}); err != nil {
			b.Fatal(err)
		}
	}
}
