// Everyday programs: an embedded interface in a struct, a generic sum
// over a constraint with a method, an io.Writer of the program's own
// passed to fmt.Fprintf, a state machine of an iota type with a String
// method, printed alone, in a slice and as map keys.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

type Logger interface{ Log(string) }

type stdLogger struct{ prefix string }

func (l stdLogger) Log(s string) { fmt.Println(l.prefix + s) }

type Service struct {
	Logger
	name string
}

type Number interface {
	~int | ~float64
	String() string
}

type Meters float64

func (m Meters) String() string { return fmt.Sprintf("%.1fm", float64(m)) }

func Total[T Number](xs []T) (T, string) {
	var t T
	for _, x := range xs {
		t += x
	}
	return t, t.String()
}

type upper struct{ w io.Writer }

func (u upper) Write(p []byte) (int, error) {
	return u.w.Write([]byte(strings.ToUpper(string(p))))
}

type state int

const (
	idle state = iota
	running
	done
)

func (s state) String() string {
	switch s {
	case idle:
		return "idle"
	case running:
		return "running"
	}
	return fmt.Sprintf("state(%d)", int(s))
}

type machine struct {
	st   state
	hist []state
}

func (m *machine) next() error {
	if m.st == done {
		return errors.New("already done")
	}
	m.hist = append(m.hist, m.st)
	m.st++
	return nil
}

func main() {
	s := Service{stdLogger{"> "}, "svc"}
	s.Log("hello " + s.name)
	var l Logger = s
	l.Log("via iface")
	t, str := Total([]Meters{1.5, 2})
	fmt.Println(t, str)
	fmt.Fprintf(upper{os.Stdout}, "shout %d\n", 3)
	m := &machine{}
	for {
		if err := m.next(); err != nil {
			fmt.Println(err, m.st, m.hist)
			break
		}
	}
	fmt.Printf("%v %d %s\n", m.st, m.st, running)
	states := map[state]string{idle: "i", done: "d"}
	fmt.Println(states)
	fmt.Println(fmt.Sprint(m.hist), len(m.hist))
}
