// Package jsonms writes and reads the durations in grue's JSON, all in
// one way.
//
// Every duration grue writes (results, trajectories, eval reports, tool
// records, cached model replies, REPL cells, web replies) is a number
// of milliseconds, to the microsecond, in a field whose name ends in
// _ms: a step of 150µs is "wall_ms":0.15, not 0 (docs/design.md,
// docs/agent.md). Files written before that, with the duration in
// nanoseconds under the name without _ms ("wall":150000), still read.
//
// A type with [time.Duration] fields tags them `json:"-"` and gives its
// MarshalJSON and UnmarshalJSON to [Marshal] and [Unmarshal], naming
// each duration with a [Field]:
//
//	func (v Verdict) MarshalJSON() ([]byte, error) {
//		type plain Verdict
//		return jsonms.Marshal(plain(v), jsonms.Field{Name: "duration", D: &v.Duration})
//	}
//
//	func (v *Verdict) UnmarshalJSON(b []byte) error {
//		type plain Verdict
//		return jsonms.Unmarshal(b, (*plain)(v), jsonms.Field{Name: "duration", D: &v.Duration})
//	}
//
// The type without its methods (plain) keeps [Marshal] and [Unmarshal]
// from calling them again.
package jsonms

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// Millis returns d in milliseconds, rounded to the microsecond: what a
// *_ms field holds.
func Millis(d time.Duration) float64 {
	return float64(d.Round(time.Microsecond).Microseconds()) / 1000
}

// FromMillis is the inverse of [Millis]: ms milliseconds as a duration,
// rounded to the microsecond. A value beyond what a Duration holds is
// clamped; NaN is 0.
func FromMillis(ms float64) time.Duration {
	us := math.Round(ms * 1000)
	switch {
	case math.IsNaN(us):
		return 0
	case us >= math.MaxInt64/1000:
		return math.MaxInt64
	case us <= math.MinInt64/1000:
		return math.MinInt64
	}
	return time.Duration(us) * time.Microsecond
}

// MillisOrNanos is a duration as read from JSON: ms milliseconds when
// the *_ms field was there (not null), else ns nanoseconds (the field
// written before durations were in milliseconds), else 0.
func MillisOrNanos(ms *float64, ns *int64) time.Duration {
	switch {
	case ms != nil:
		return FromMillis(*ms)
	case ns != nil:
		return time.Duration(*ns)
	}
	return 0
}

// Field is one duration of a struct as its JSON holds it.
type Field struct {
	// Name is the field's JSON name without _ms (letters, digits and
	// underscores): the duration is written as Name_ms in milliseconds
	// ([Millis]), and read from Name_ms or, when that is absent or null,
	// from Name in nanoseconds.
	Name string
	// D is the duration: read by [Marshal], set by [Unmarshal].
	D *time.Duration
	// OmitZero leaves Name_ms out of what [Marshal] writes when the
	// duration is 0 milliseconds to the microsecond (what omitempty does
	// to a float).
	OmitZero bool
}

// key is the field's name in JSON now.
func (f Field) key() string { return f.Name + "_ms" }

// Marshal returns the JSON of v, a struct, with the durations of fields
// after v's own fields, in their order: "name_ms":1.5. It is the JSON of
// a struct that embeds v and has a float64 field for each duration, so
// that encoding/json writes every byte as it would for such a struct
// written out by hand. v's type must have no methods: pass the type
// without them.
func Marshal[T any](v T, fields ...Field) ([]byte, error) {
	st, err := shape(reflect.TypeFor[T](), fields, false)
	if err != nil {
		return nil, err
	}
	p := reflect.New(st)
	p.Elem().Field(0).Set(reflect.ValueOf(v))
	for i, f := range fields {
		p.Elem().Field(1 + i).SetFloat(Millis(*f.D))
	}
	return json.Marshal(p.Interface())
}

// Unmarshal reads the JSON object b into v, a struct whose duration
// fields are tagged `json:"-"`, and the durations of fields, whose D
// point into v, as [Field.Name] says. It decodes b once, into a struct
// that embeds v's type and has a *float64 for each Name_ms and an *int64
// for each Name, so that names match as encoding/json matches them. v is
// replaced as a whole, not merged into; on an error it is left as it
// was, and a malformed duration's error names its field. v's type must
// have no methods: pass the type without them.
func Unmarshal[T any](b []byte, v *T, fields ...Field) error {
	st, err := shape(reflect.TypeFor[T](), fields, true)
	if err != nil {
		return err
	}
	p := reflect.New(st)
	if err := json.Unmarshal(b, p.Interface()); err != nil {
		return fieldError(err, fields)
	}
	*v = p.Elem().Field(0).Interface().(T)
	for i, f := range fields {
		ms := p.Elem().Field(1 + 2*i).Interface().(*float64)
		ns := p.Elem().Field(2 + 2*i).Interface().(*int64)
		*f.D = MillisOrNanos(ms, ns)
	}
	return nil
}

// shapeKey names a shape: the type, the durations' names and whether
// each is omitted when zero, and which way.
type shapeKey struct {
	t      reflect.Type
	fields string
	toRead bool
}

// shapes caches shape's answers, as encoding/json caches what it learns
// of a type: building the struct type anew cost more than the JSON of a
// small step. It only grows by the types grue's code names, a few dozen.
var shapes sync.Map // shapeKey -> reflect.Type

// shape returns the struct type Marshal writes (toRead false) or
// Unmarshal reads (toRead true) for a t with fields: t embedded first,
// then a field for each duration (and, to read, one for its old form).
// The type is made once for each key (shapes), so encoding/json's cache
// of what it learned of it serves every call.
func shape(t reflect.Type, fields []Field, toRead bool) (reflect.Type, error) {
	var sig strings.Builder
	for _, f := range fields {
		sig.WriteString(f.Name)
		if f.OmitZero {
			sig.WriteByte('?')
		}
		sig.WriteByte(',')
	}
	key := shapeKey{t, sig.String(), toRead}
	if st, ok := shapes.Load(key); ok {
		for _, f := range fields {
			if f.D == nil {
				return nil, fmt.Errorf("jsonms: field %q of %v has no duration", f.Name, t)
			}
		}
		return st.(reflect.Type), nil
	}
	st, err := makeShape(t, fields, toRead)
	if err == nil {
		shapes.Store(key, st)
	}
	return st, err
}

// makeShape builds the type shape returns.
func makeShape(t reflect.Type, fields []Field, toRead bool) (reflect.Type, error) {
	if t.Kind() != reflect.Struct || reflect.PointerTo(t).NumMethod() > 0 {
		return nil, fmt.Errorf("jsonms: %v is not a struct without methods", t)
	}
	members := make([]reflect.StructField, 1, 1+2*len(fields))
	members[0] = reflect.StructField{Name: "Plain", Type: t, Anonymous: true}
	for i, f := range fields {
		if !validName(f.Name) || f.D == nil {
			return nil, fmt.Errorf("jsonms: field %d of %v: name %q, duration %p", i, t, f.Name, f.D)
		}
		n := strconv.Itoa(i)
		if !toRead {
			tag := `json:"` + f.key() + `"`
			if f.OmitZero {
				tag = `json:"` + f.key() + `,omitempty"`
			}
			members = append(members, reflect.StructField{Name: "MS" + n, Type: reflect.TypeFor[float64](), Tag: reflect.StructTag(tag)})
			continue
		}
		members = append(members,
			reflect.StructField{Name: "MS" + n, Type: reflect.TypeFor[*float64](), Tag: reflect.StructTag(`json:"` + f.key() + `"`)},
			reflect.StructField{Name: "NS" + n, Type: reflect.TypeFor[*int64](), Tag: reflect.StructTag(`json:"` + f.Name + `"`)})
	}
	return reflect.StructOf(members), nil
}

// validName reports whether name is a duration's name as [Field] wants
// it: a tag can hold it as it is.
func validName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			return false
		}
	}
	return true
}

// fieldError is err from reading a JSON object with fields, saying which
// duration was malformed and what it should have been when one was.
func fieldError(err error, fields []Field) error {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return err
	}
	for _, f := range fields {
		switch te.Field {
		case f.key():
			return fmt.Errorf("%s: want milliseconds (a number): %w", te.Field, err)
		case f.Name:
			return fmt.Errorf("%s: want nanoseconds (a whole number a Duration holds): %w", te.Field, err)
		}
	}
	return err
}
