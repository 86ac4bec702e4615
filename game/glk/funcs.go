package glk

import (
	"errors"
	"fmt"
	"strings"
)

var errNilState = errors.New("glk: restore of a nil state")

// Gestalt selectors.
const (
	gestaltVersion        = 0
	gestaltCharInput      = 1
	gestaltLineInput      = 2
	gestaltCharOutput     = 3
	gestaltUnicode        = 15
	gestaltUnicodeNorm    = 16
	gestaltDateTime       = 20
	gestaltResourceStream = 22

	keycodeReturn = 0xFFFFFFFA

	evtypeNone      = 0
	evtypeCharInput = 2
	evtypeLineInput = 3
)

// Data a fileref's usage says.
const (
	fileusageData        = 0x00
	fileusageSavedGame   = 0x01
	fileusageTranscript  = 0x02
	fileusageInputRecord = 0x03
	fileusageTypeMask    = 0x0f
	fileusageTextMode    = 0x100
)

type implFunc = func(g *Glk, a []garg) (uint32, error)

var impls map[string]implFunc

func noop(*Glk, []garg) (uint32, error) { return 0, nil }

func (g *Glk) win(a garg) *window   { return g.st.windows[a.u] }
func (g *Glk) str(a garg) *stream   { return g.st.streams[a.u] }
func (g *Glk) fref(a garg) *fileref { return g.st.frefs[a.u] }
func boolU(b bool) uint32 {
	if b {
		return 1
	}
	return 0
}

func init() {
	impls = map[string]implFunc{
		"exit": func(g *Glk, a []garg) (uint32, error) {
			g.flushFiles()
			g.st.exited = true
			return 0, ErrExit
		},
		"tick":    noop,
		"gestalt": func(g *Glk, a []garg) (uint32, error) { return g.gestalt(a[0].u, a[1].u, nil), nil },
		"gestalt_ext": func(g *Glk, a []garg) (uint32, error) {
			var first *uint32
			var v uint32
			if !a[2].null && a[2].n >= 1 {
				x, err := g.mem.Load32(a[2].addr)
				if err != nil {
					return 0, err
				}
				v = x
				first = &v
			}
			r := g.gestalt(a[0].u, a[1].u, first)
			if first != nil {
				if err := g.mem.Store32(a[2].addr, *first); err != nil {
					return 0, err
				}
			}
			return r, nil
		},

		// windows
		"window_iterate":  iterFn('a'),
		"window_get_rock": winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return w.rock, nil }),
		"window_get_root": func(g *Glk, a []garg) (uint32, error) { return g.st.root, nil },
		"window_open": func(g *Glk, a []garg) (uint32, error) {
			return g.windowOpen(a[0].u, a[1].u, a[2].u, a[3].u, a[4].u)
		},
		"window_close": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			if s := g.st.streams[w.stream]; s != nil && !a[1].null {
				a[1].fields[0], a[1].fields[1] = s.readcount, s.writecnt
			}
			g.windowClose(w)
			return 0, nil
		}),
		"window_get_size": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			a[1].u, a[2].u = g.windowSize(w)
			return 0, nil
		}),
		"window_set_arrangement": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			if w.typ != wintypePair {
				return 0, g.warn("window_set_arrangement: not a Pair window.")
			}
			key := a[3].u
			if key != 0 {
				if k := g.st.windows[key]; k == nil || k.typ == wintypePair {
					return 0, nil
				}
			} else {
				key = w.key
			}
			w.method, w.size, w.key = a[1].u, a[2].u, key
			if c := g.st.windows[w.key]; c != nil && c.typ == wintypeTextGrid {
				c.gridResize(g.splitSize(w.method, w.size))
			}
			return 0, nil
		}),
		"window_get_arrangement": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			if w.typ == wintypePair {
				a[1].u, a[2].u, a[3].u = w.method, w.size, w.key
				return 0, nil
			}
			return 0, g.warn("window_get_arrangement: not a Pair window.")
		}),
		"window_get_type":    winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return w.typ, nil }),
		"window_get_parent":  winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return w.parent, nil }),
		"window_get_sibling": winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return g.sibling(w), nil }),
		"window_clear":       winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return 0, g.windowClear(w) }),
		"window_move_cursor": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			if w.typ == wintypeTextGrid {
				w.curX, w.curY = int(min(a[1].u, maxGrid+1)), int(min(a[2].u, maxGrid+1))
				return 0, nil
			}
			return 0, g.warn("window_move_cursor: cannot move cursor in a TextBuffer window.")
		}),
		"window_get_stream": winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return w.stream, nil }),
		"window_set_echo_stream": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			w.echo = a[1].u
			return 0, nil
		}),
		"window_get_echo_stream": winFn(func(g *Glk, w *window, a []garg) (uint32, error) { return w.echo, nil }),
		"set_window": func(g *Glk, a []garg) (uint32, error) {
			if a[0].u == 0 {
				g.st.current = nil
				return 0, nil
			}
			g.st.current = g.st.streams[g.win(a[0]).stream]
			return 0, nil
		},

		// streams
		"stream_iterate":  iterFn('b'),
		"stream_get_rock": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return s.rock, nil }),
		"stream_open_file": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) {
			return g.openFile(f, a[1].u, a[2].u, false)
		}),
		"stream_open_file_uni": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) {
			return g.openFile(f, a[1].u, a[2].u, true)
		}),
		"stream_open_memory":     func(g *Glk, a []garg) (uint32, error) { return g.openMemory(a[0], a[1].u, a[2].u, false) },
		"stream_open_memory_uni": func(g *Glk, a []garg) (uint32, error) { return g.openMemory(a[0], a[1].u, a[2].u, true) },
		"stream_open_resource":   func(g *Glk, a []garg) (uint32, error) { return g.openResource(a[0].u, a[1].u, false) },
		"stream_open_resource_uni": func(g *Glk, a []garg) (uint32, error) {
			return g.openResource(a[0].u, a[1].u, true)
		},
		"stream_close": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			if s.typ == strWindow {
				return 0, g.warn("stream_close: cannot close window stream")
			}
			if !a[1].null {
				a[1].fields[0], a[1].fields[1] = s.readcount, s.writecnt
			}
			return 0, g.deleteStream(s)
		}),
		"stream_set_position": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			g.setPosition(s, int32(a[1].u), a[2].u)
			return 0, nil
		}),
		"stream_get_position": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return g.getPosition(s), nil }),
		"stream_set_current": func(g *Glk, a []garg) (uint32, error) {
			g.st.current = g.str(a[0])
			return 0, nil
		},
		"stream_get_current": func(g *Glk, a []garg) (uint32, error) { return g.CurrentStream(), nil },

		// file refs
		"fileref_create_temp": func(g *Glk, a []garg) (uint32, error) {
			g.st.tempCount++
			return g.newFref(fmt.Sprintf("glktempfref-%d", g.st.tempCount), a[0].u, a[1].u)
		},
		"fileref_create_by_name": func(g *Glk, a []garg) (uint32, error) {
			return g.newFref(cleanName(a[1].s)+suffixFor(a[0].u), a[0].u, a[2].u)
		},
		"fileref_create_by_prompt": (*Glk).createByPrompt,
		"fileref_destroy": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) {
			delete(g.st.frefs, f.id)
			g.st.frefOrder = removeID(g.st.frefOrder, f.id)
			return 0, nil
		}),
		"fileref_iterate":  iterFn('c'),
		"fileref_get_rock": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) { return f.rock, nil }),
		"fileref_delete_file": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) {
			if !f.unusable {
				g.opts.Files.Remove(f.name) // cheapglk ignores unlink's failure
			}
			return 0, nil
		}),
		"fileref_does_file_exist": frefFn(func(g *Glk, f *fileref, a []garg) (uint32, error) {
			if f.unusable {
				return 0, nil
			}
			_, err := g.opts.Files.ReadFile(f.name)
			return boolU(err == nil), nil
		}),
		"fileref_create_from_fileref": func(g *Glk, a []garg) (uint32, error) {
			f := g.fref(a[1])
			if f == nil {
				return 0, g.warn("fileref_create_from_fileref: invalid ref")
			}
			if f.unusable {
				return g.newUnusableFref(f.name, a[0].u, a[2].u)
			}
			return g.newFref(f.name, a[0].u, a[2].u)
		},

		// output
		"put_char":        func(g *Glk, a []garg) (uint32, error) { return 0, g.putChar(g.st.current, a[0].u, false) },
		"put_char_stream": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return 0, g.putChar(s, a[1].u, false) }),
		"put_string":      func(g *Glk, a []garg) (uint32, error) { return 0, g.putBytes(g.st.current, a[0].s) },
		"put_string_stream": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			return 0, g.putBytes(s, a[1].s)
		}),
		"put_buffer": func(g *Glk, a []garg) (uint32, error) { return 0, g.putArray(g.st.current, a[0], false) },
		"put_buffer_stream": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			return 0, g.putArray(s, a[1], false)
		}),
		"set_style":             noop,
		"set_style_stream":      strFn(func(*Glk, *stream, []garg) (uint32, error) { return 0, nil }),
		"put_char_uni":          func(g *Glk, a []garg) (uint32, error) { return 0, g.putChar(g.st.current, a[0].u, true) },
		"put_string_uni":        func(g *Glk, a []garg) (uint32, error) { return 0, g.putUni(g.st.current, a[0].us) },
		"put_buffer_uni":        func(g *Glk, a []garg) (uint32, error) { return 0, g.putArray(g.st.current, a[0], true) },
		"put_char_stream_uni":   strFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return 0, g.putChar(s, a[1].u, true) }),
		"put_string_stream_uni": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return 0, g.putUni(s, a[1].us) }),
		"put_buffer_stream_uni": strFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			return 0, g.putArray(s, a[1], true)
		}),

		// input from streams
		"get_char_stream": getFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			c, ok, err := g.getChar(s, false)
			if !ok {
				return 0xFFFFFFFF, err
			}
			return c, err
		}),
		"get_char_stream_uni": getFn(func(g *Glk, s *stream, a []garg) (uint32, error) {
			c, ok, err := g.getChar(s, true)
			if !ok {
				return 0xFFFFFFFF, err
			}
			return c, err
		}),
		"get_line_stream":       getFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return g.getLine(s, a[1].addr, a[1].n, false) }),
		"get_line_stream_uni":   getFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return g.getLine(s, a[1].addr, a[1].n, true) }),
		"get_buffer_stream":     getFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return g.getBuffer(s, a[1].addr, a[1].n, false) }),
		"get_buffer_stream_uni": getFn(func(g *Glk, s *stream, a []garg) (uint32, error) { return g.getBuffer(s, a[1].addr, a[1].n, true) }),

		"char_to_lower": func(g *Glk, a []garg) (uint32, error) { return uint32(latin1Lower(byte(a[0].u))), nil },
		"char_to_upper": func(g *Glk, a []garg) (uint32, error) { return uint32(latin1Upper(byte(a[0].u))), nil },

		"stylehint_set":     noop,
		"stylehint_clear":   noop,
		"style_distinguish": winFn(func(*Glk, *window, []garg) (uint32, error) { return 0, nil }),
		"style_measure":     winFn(func(*Glk, *window, []garg) (uint32, error) { return 0, nil }),

		// events
		"select":      (*Glk).selectEvent,
		"select_poll": func(g *Glk, a []garg) (uint32, error) { clear(a[0].fields); return 0, nil },
		"request_line_event": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			return 0, g.requestLine(w, a[1], false)
		}),
		"request_line_event_uni": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			return 0, g.requestLine(w, a[1], true)
		}),
		"cancel_line_event": func(g *Glk, a []garg) (uint32, error) {
			if !a[1].null {
				clear(a[1].fields)
			}
			w := g.win(a[0])
			if w == nil {
				return 0, g.warnNull(a)
			}
			if !w.lineReq {
				return 0, nil
			}
			if err := g.finishLine(w); err != nil {
				return 0, err
			}
			if !a[1].null {
				a[1].fields[0], a[1].fields[1] = evtypeLineInput, w.id
			}
			return 0, nil
		},
		"request_char_event":     requestChar(false),
		"request_char_event_uni": requestChar(true),
		"cancel_char_event": winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
			w.charReq = false
			return 0, nil
		}),
		"request_mouse_event":  winFn(func(*Glk, *window, []garg) (uint32, error) { return 0, nil }),
		"cancel_mouse_event":   winFn(func(*Glk, *window, []garg) (uint32, error) { return 0, nil }),
		"request_timer_events": noop,

		// graphics, hyperlinks and sound: see alwaysWarn; no channel is made
		"schannel_iterate":    iterFn('d'),
		"schannel_create":     func(g *Glk, a []garg) (uint32, error) { return 0, nil },
		"schannel_create_ext": func(g *Glk, a []garg) (uint32, error) { return 0, nil },
		"schannel_destroy": func(g *Glk, a []garg) (uint32, error) {
			delete(g.st.schans, a[0].u)
			g.st.schanOrder = removeID(g.st.schanOrder, a[0].u)
			return 0, nil
		},

		// Unicode
		"buffer_to_lower_case_uni": func(g *Glk, a []garg) (uint32, error) {
			return g.changeCase(a[0], a[1].u, caseLower, true)
		},
		"buffer_to_upper_case_uni": func(g *Glk, a []garg) (uint32, error) {
			return g.changeCase(a[0], a[1].u, caseUpper, true)
		},
		"buffer_to_title_case_uni": func(g *Glk, a []garg) (uint32, error) {
			return g.changeCase(a[0], a[1].u, caseTitle, a[2].u != 0)
		},
		"buffer_canon_decompose_uni": func(g *Glk, a []garg) (uint32, error) { return g.normalize(a[0], a[1].u, false) },
		"buffer_canon_normalize_uni": func(g *Glk, a []garg) (uint32, error) { return g.normalize(a[0], a[1].u, true) },

		// date and time
		"current_time":              (*Glk).currentTime,
		"current_simple_time":       (*Glk).currentSimpleTime,
		"time_to_date_utc":          func(g *Glk, a []garg) (uint32, error) { return g.timeToDate(a, false) },
		"time_to_date_local":        func(g *Glk, a []garg) (uint32, error) { return g.timeToDate(a, true) },
		"simple_time_to_date_utc":   func(g *Glk, a []garg) (uint32, error) { return g.simpleToDate(a, false) },
		"simple_time_to_date_local": func(g *Glk, a []garg) (uint32, error) { return g.simpleToDate(a, true) },
		"date_to_time_utc":          func(g *Glk, a []garg) (uint32, error) { return g.dateToTime(a, false) },
		"date_to_time_local":        func(g *Glk, a []garg) (uint32, error) { return g.dateToTime(a, true) },
		"date_to_simple_time_utc":   func(g *Glk, a []garg) (uint32, error) { return g.dateToSimple(a, false) },
		"date_to_simple_time_local": func(g *Glk, a []garg) (uint32, error) { return g.dateToSimple(a, true) },
	}
	for name, msg := range alwaysWarn {
		impls[name] = func(g *Glk, a []garg) (uint32, error) { return 0, g.warn(msg) }
	}
	impls["schannel_play_multi"] = func(g *Glk, a []garg) (uint32, error) {
		if a[0].n != a[1].n {
			return 0, g.warn("schannel_play_multi: channel count does not match sound count.")
		}
		return 0, nil
	}
	// dispatch.go's init, which runs first, parsed the prototypes
	for _, f := range funcBySel {
		f.impl = impls[f.name]
	}
}

// alwaysWarn are the functions cheapglk answers with a warning whatever
// the arguments: graphics, hyperlinks, line echo and terminators, and
// sound channels (there are none).
var alwaysWarn = map[string]string{
	"image_draw":                  "image_draw: graphics not supported.",
	"image_draw_scaled":           "image_draw_scaled: graphics not supported.",
	"image_draw_scaled_ext":       "image_draw_scaled_ext: graphics not supported.",
	"image_get_info":              "image_get_info: graphics not supported.",
	"window_flow_break":           "window_flow_break: graphics not supported.",
	"window_erase_rect":           "window_erase_rect: graphics not supported.",
	"window_fill_rect":            "window_fill_rect: graphics not supported.",
	"window_set_background_color": "window_set_background_color: graphics not supported.",
	"set_hyperlink":               "set_hyperlink: hyperlinks not supported.",
	"set_hyperlink_stream":        "set_hyperlink_stream: hyperlinks not supported.",
	"request_hyperlink_event":     "request_hyperlink_event: hyperlinks not supported.",
	"cancel_hyperlink_event":      "cancel_hyperlink_event: hyperlinks not supported.",
	"set_echo_line_event":         "set_echo_line_event: not supported.",
	"set_terminators_line_event":  "set_terminators_line_event: not supported.",
	"schannel_get_rock":           "schannel_get_rock: invalid id.",
	"schannel_play":               "schannel_play: invalid id.",
	"schannel_play_ext":           "schannel_play_ext: invalid id.",
	"schannel_stop":               "schannel_stop: invalid id.",
	"schannel_set_volume":         "schannel_set_volume: invalid id.",
	"sound_load_hint":             "schannel_sound_load_hint: invalid id.",
	"schannel_pause":              "schannel_pause: invalid id.",
	"schannel_unpause":            "schannel_unpause: invalid id.",
	"schannel_set_volume_ext":     "schannel_set_volume_ext: invalid id.",
}

// winFn, strFn and frefFn wrap a function of a window, stream or file
// ref given as the first argument: a null one does nothing but print
// cheapglk's warning.
func winFn(f func(g *Glk, w *window, a []garg) (uint32, error)) implFunc {
	return objFn((*Glk).win, f)
}

func strFn(f func(g *Glk, s *stream, a []garg) (uint32, error)) implFunc {
	return objFn((*Glk).str, f)
}

// getFn is strFn for the get functions: for a null stream cheapglk
// answers -1.
func getFn(f func(g *Glk, s *stream, a []garg) (uint32, error)) implFunc {
	return func(g *Glk, a []garg) (uint32, error) {
		if g.str(a[0]) == nil {
			return 0xFFFFFFFF, g.warnNull(a)
		}
		return strFn(f)(g, a)
	}
}

func frefFn(f func(g *Glk, r *fileref, a []garg) (uint32, error)) implFunc {
	return objFn((*Glk).fref, f)
}

// iterFn is the iterate function of a class ('a' windows, 'b' streams,
// 'c' file refs, 'd' sound channels): the object after the one given (the
// first for 0), and its rock. cheapglk lists streams and file refs
// newest first.
func iterFn(class byte) implFunc {
	return func(g *Glk, a []garg) (uint32, error) {
		st := g.st
		var id, rock uint32
		switch class {
		case 'a':
			if id = iterate(st.winOrder, a[0].u, false); id != 0 {
				rock = st.windows[id].rock
			}
		case 'b':
			if id = iterate(st.strOrder, a[0].u, true); id != 0 {
				rock = st.streams[id].rock
			}
		case 'c':
			if id = iterate(st.frefOrder, a[0].u, true); id != 0 {
				rock = st.frefs[id].rock
			}
		case 'd':
			if id = iterate(st.schanOrder, a[0].u, false); id != 0 {
				rock = st.schans[id].rock
			}
		}
		a[1].u = rock
		return id, nil
	}
}

// requestChar is request_char_event, or its Unicode form.
func requestChar(uni bool) implFunc {
	return winFn(func(g *Glk, w *window, a []garg) (uint32, error) {
		if w.lineReq || w.charReq {
			return 0, g.warn("request_char_event: window already has keyboard request")
		}
		if w.typ != wintypePair {
			w.charReq, w.charUni = true, uni
		}
		return 0, nil
	})
}

func objFn[T any](get func(*Glk, garg) *T, f func(*Glk, *T, []garg) (uint32, error)) implFunc {
	return func(g *Glk, a []garg) (uint32, error) {
		o := get(g, a[0])
		if o == nil {
			return 0, g.warnNull(a)
		}
		return f(g, o, a)
	}
}

// warn prints what cheapglk prints when the story does what it should
// not: "Glk library error: " and the message, in the main text.
func (g *Glk) warn(msg string) error {
	for _, c := range "Glk library error: " + msg + "\n" {
		if err := g.outputRune(uint32(c)); err != nil {
			return err
		}
	}
	return nil
}

// nullWarnings are cheapglk's messages for a null object argument.
var nullWarnings = map[string]string{
	"put_char_stream": "put_char_stream: invalid ref", "put_char_stream_uni": "put_char_stream: invalid ref",
	"put_string_stream": "put_string_stream: invalid ref", "put_buffer_stream": "put_string_stream: invalid ref",
	"put_string_stream_uni": "put_string_stream: invalid ref", "put_buffer_stream_uni": "put_string_stream: invalid ref",
	"request_char_event_uni": "request_char_event: invalid id", "request_line_event_uni": "request_line_event: invalid id",
	"stream_open_file_uni": "stream_open_file: invalid fileref id.", "stream_open_file": "stream_open_file: invalid fileref id.",
	"window_set_echo_stream": "window_set_echo_stream: invalid window id.",
	"fileref_get_rock":       "fileref_get_rock: invalid ref.", "stream_close": "stream_close: invalid ref.",
	"stream_get_rock": "stream_get_rock: invalid ref.", "set_window": "set_window: invalid id.",
}

// nullWarning is cheapglk's message for a null object argument of the
// function called.
func nullWarning(name string) string {
	if m, ok := nullWarnings[name]; ok {
		return m
	}
	switch {
	case strings.HasPrefix(name, "window_"):
		return name + ": invalid id."
	case strings.HasPrefix(name, "schannel_"):
		return name + ": invalid id."
	case strings.HasPrefix(name, "request_"), strings.HasPrefix(name, "cancel_"):
		return name + ": invalid id"
	}
	return name + ": invalid ref"
}

func (g *Glk) warnNull(a []garg) error {
	if g.calling == "" || strings.HasPrefix(g.calling, "style_") {
		return nil // cheapglk's style functions do not look at the window
	}
	return g.warn(nullWarning(g.calling))
}

func (g *Glk) gestalt(id, val uint32, first *uint32) uint32 {
	switch id {
	case gestaltVersion:
		return 0x00000706
	case gestaltLineInput:
		return boolU(val >= 32 && val < 127)
	case gestaltCharInput:
		return boolU(val >= 32 && val < 127 || val == keycodeReturn)
	case gestaltCharOutput:
		if first != nil {
			*first = 1
		}
		if val >= 32 && val < 127 {
			return 2 // ExactPrint
		}
		return 0 // CannotPrint, as cheapglk answers on a Latin-1 terminal
	case gestaltUnicode, gestaltUnicodeNorm, gestaltDateTime, gestaltResourceStream:
		return 1
	}
	return 0
}

// busyWindow reports whether s is the stream of a window awaiting a
// line, to which cheapglk prints nothing; a buffer it refuses with one
// warning (put_buffer), not one a character.
func (g *Glk) busyWindow(s *stream) bool {
	if s == nil || !s.writable || s.typ != strWindow {
		return false
	}
	w := g.st.windows[s.win]
	return w != nil && w.lineReq
}

func (g *Glk) putBytes(s *stream, b []byte) error {
	if g.busyWindow(s) {
		s.writecnt += uint32(len(b))
		return g.warn("put_buffer: window has pending line request")
	}
	for _, c := range b {
		if err := g.putChar(s, uint32(c), false); err != nil {
			return err
		}
	}
	return nil
}

func (g *Glk) putUni(s *stream, us []uint32) error {
	for _, c := range us {
		if err := g.putChar(s, c, true); err != nil {
			return err
		}
	}
	return nil
}

func (g *Glk) putArray(s *stream, a garg, uni bool) error {
	if s == nil || !s.writable {
		return nil
	}
	if !uni && g.busyWindow(s) {
		s.writecnt += a.n
		return g.warn("put_buffer: window has pending line request")
	}
	for i := uint32(0); i < a.n; i++ {
		var c uint32
		if uni {
			x, err := g.mem.Load32(a.addr + i*4)
			if err != nil {
				return err
			}
			c = x
		} else {
			b, err := g.mem.Load8(a.addr + i)
			if err != nil {
				return err
			}
			c = uint32(b)
		}
		if err := g.putChar(s, c, uni); err != nil {
			return err
		}
	}
	return nil
}

// maxUniArray bounds a Unicode array copied out of memory (64 MiB).
const maxUniArray = 16 << 20

func (g *Glk) loadWords(addr, n uint32) ([]uint32, error) {
	if n > maxUniArray {
		return nil, fmt.Errorf("array of %d words is over the %d-word limit", n, maxUniArray)
	}
	// grown as it is read, so that a length beyond memory costs no more
	// than memory holds
	out := make([]uint32, 0, min(n, 1024))
	for i := uint32(0); i < n; i++ {
		v, err := g.mem.Load32(addr + i*4)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (g *Glk) storeWords(addr uint32, w []uint32) error {
	for i, v := range w {
		if err := g.mem.Store32(addr+uint32(i)*4, v); err != nil {
			return err
		}
	}
	return nil
}

func (g *Glk) openMemory(buf garg, fmode, rock uint32, uni bool) (uint32, error) {
	if fmode != filemodeRead && fmode != filemodeWrite && fmode != filemodeReadWrite {
		return 0, nil
	}
	var ubuf []uint32
	if uni && !buf.null && buf.n > 0 {
		var err error
		if ubuf, err = g.loadWords(buf.addr, buf.n); err != nil {
			return 0, err
		}
	} else if !uni && !buf.null && buf.n > 0 {
		// the bytes are used in place; check them now
		if _, err := g.mem.Load8(buf.addr + buf.n - 1); err != nil {
			return 0, err
		}
	}
	s, err := g.newStream(strMemory, fmode != filemodeWrite, fmode != filemodeRead, rock)
	if err != nil {
		return 0, err
	}
	s.unicode = uni
	if !buf.null && buf.n > 0 {
		s.bufAddr, s.bufLen, s.ubuf = buf.addr, buf.n, ubuf
		if fmode != filemodeWrite {
			s.eof = buf.n
		}
	}
	return s.id, nil
}

func (g *Glk) openResource(num, rock uint32, uni bool) (uint32, error) {
	if g.opts.Resources == nil {
		return 0, nil
	}
	typ, data, ok := g.opts.Resources.DataResource(num)
	if !ok {
		return 0, nil
	}
	var binary bool
	switch typ {
	case "TEXT":
	case "BINA", "FORM":
		binary = true
	default:
		return 0, nil
	}
	s, err := g.newStream(strResource, true, false, rock)
	if err != nil {
		return 0, err
	}
	s.unicode, s.binary, s.data = uni, binary, data
	return s.id, nil
}

func suffixFor(usage uint32) string {
	switch usage & fileusageTypeMask {
	case fileusageData:
		return ".glkdata"
	case fileusageSavedGame:
		return ".glksave"
	case fileusageTranscript, fileusageInputRecord:
		return ".txt"
	}
	return ""
}

// cleanName cleans a story's file name as cheapglk does: drop the
// characters "\/<>:|?* and quotes, cut at the first period, "null" for
// nothing left.
func cleanName(name []byte) string {
	var b strings.Builder
	for _, c := range name {
		if c == '.' || b.Len() >= 255 {
			break
		}
		switch c {
		case '"', '\\', '/', '>', '<', ':', '|', '?', '*':
			continue
		}
		b.WriteByte(c)
	}
	if b.Len() == 0 {
		return "null"
	}
	return b.String()
}

func (g *Glk) newFref(name string, usage, rock uint32) (uint32, error) {
	if name != "" && checkName(name) != nil {
		return 0, nil
	}
	id, err := g.newID(classFileref)
	if err != nil {
		return 0, err
	}
	g.st.frefs[id] = &fileref{id: id, rock: rock, name: name, usage: usage, textmode: usage&fileusageTextMode != 0}
	g.st.frefOrder = append(g.st.frefOrder, id)
	return id, nil
}

// newUnusableFref makes a file ref of a host path, which names no file
// of the store.
func (g *Glk) newUnusableFref(path string, usage, rock uint32) (uint32, error) {
	id, err := g.newFref("", usage, rock)
	if err == nil && id != 0 {
		g.st.frefs[id].name, g.st.frefs[id].unusable = path, true
	}
	return id, err
}

func (g *Glk) createByPrompt(a []garg) (uint32, error) {
	usage, fmode, rock := a[0].u, a[1].u, a[2].u
	p := g.st.pending
	if g.st.waiting != InputFileName || p == nil {
		if g.st.waiting != InputFileName {
			prompt := "Enter data file"
			switch usage & fileusageTypeMask {
			case fileusageSavedGame:
				prompt = "Enter saved game"
			case fileusageTranscript:
				prompt = "Enter transcript file"
			case fileusageInputRecord:
				prompt = "Enter command record file"
			}
			prompt2 := "to store"
			if fmode == filemodeRead {
				prompt2 = "to load"
			}
			for _, c := range prompt + " " + prompt2 + ": " {
				if err := g.outputRune(uint32(c)); err != nil {
					return 0, err
				}
			}
			g.st.waiting = InputFileName
		}
		g.flushFiles()
		return 0, ErrWait
	}
	g.st.pending, g.st.waiting = nil, InputNone
	if p.eof {
		return 0, g.endOfInput()
	}
	line := p.line
	if i := strings.IndexByte(line, '\n'); i >= 0 {
		line = line[:i]
	}
	line = strings.TrimRight(line, "\r ")
	line = strings.TrimLeft(line, " ")
	if line == "" {
		return 0, nil
	}
	if !strings.Contains(line[strings.LastIndexByte(line, '/')+1:], ".") {
		line += suffixFor(usage)
	}
	if checkName(line) != nil {
		// A path (cheapglk would open it on the host) names no file of
		// the store: as a file that cannot be opened, it is not there to
		// read, and writing it fails with cheapglk's warning.
		if fmode == filemodeRead {
			return 0, nil
		}
		return g.newUnusableFref(line, usage, rock)
	}
	if fmode == filemodeRead {
		if _, err := g.opts.Files.ReadFile(line); err != nil {
			return 0, nil
		}
	}
	return g.newFref(line, usage, rock)
}

func (g *Glk) endOfInput() error {
	for _, c := range "\n<end of input>\n" {
		g.outputRune(uint32(c))
	}
	g.flushFiles()
	g.st.exited = true
	return ErrExit
}

func (g *Glk) requestLine(w *window, buf garg, uni bool) error {
	if w.lineReq || w.charReq {
		return g.warn("request_line_event: window already has keyboard request")
	}
	if w.typ == wintypePair {
		return nil
	}
	if uni {
		ub, err := g.loadWords(buf.addr, buf.n)
		if err != nil {
			return err
		}
		w.lineUbuf = ub
	} else if buf.n > 0 {
		if _, err := g.mem.Load8(buf.addr + buf.n - 1); err != nil {
			return err
		}
	}
	w.lineReq, w.lineUni, w.lineBuf, w.lineLen = true, uni, buf.addr, buf.n
	return nil
}

// finishLine ends w's line request: a Unicode buffer goes back to memory.
func (g *Glk) finishLine(w *window) error {
	var err error
	if w.lineUni && w.lineUbuf != nil {
		err = g.storeWords(w.lineBuf, w.lineUbuf)
	}
	w.lineReq, w.lineUni, w.lineBuf, w.lineLen, w.lineUbuf = false, false, 0, 0, nil
	return err
}

// inputWindow is the window whose request glk_select answers: the main
// window's, else the first window's that has one.
func (g *Glk) inputWindow() *window {
	if w := g.st.windows[g.st.mainWin]; w != nil && (w.lineReq || w.charReq) {
		return w
	}
	for _, id := range g.st.winOrder {
		if w := g.st.windows[id]; w.lineReq || w.charReq {
			return w
		}
	}
	return nil
}

// maxLine is the most of a line cheapglk reads (fgets into 255 bytes).
const maxLine = 254

// fgetsLine splits what the host sent as fgets(buf, 255) reads it: the
// line (its newline cut), and what is left for the next read ("" for
// nothing). Each character counts as one byte, as Latin-1 input does.
func fgetsLine(s string) (line, rest string) {
	if !strings.HasSuffix(s, "\n") {
		s += "\n"
	}
	runes := []rune(s)
	n := 0
	for n < len(runes) && n < maxLine {
		n++
		if runes[n-1] == '\n' {
			break
		}
	}
	line, rest = string(runes[:n]), string(runes[n:])
	line = strings.TrimSuffix(line, "\n")
	line = strings.TrimSuffix(line, "\r")
	return line, rest
}

func (g *Glk) selectEvent(a []garg) (uint32, error) {
	ev := a[0].fields
	w := g.inputWindow()
	if w == nil {
		return 0, errors.New("the story waits for an event but asked for no input: it would wait forever")
	}
	p := g.st.pending
	if p == nil {
		if w.charReq {
			g.st.waiting = InputChar
		} else {
			g.st.waiting = InputLine
		}
		g.flushFiles()
		return 0, ErrWait
	}
	g.st.pending, g.st.waiting = nil, InputNone
	if p.eof {
		return 0, g.endOfInput()
	}
	if !p.isKey {
		// cheapglk reads a line with fgets into 255 bytes: a longer line
		// comes in pieces of 254, the rest read by the next request
		var rest string
		p.line, rest = fgetsLine(p.line)
		if rest != "" {
			g.st.pending = &pendingInput{line: rest}
		}
	}
	clear(ev)
	if w.charReq {
		var k uint32
		switch {
		case p.isKey && p.key < 0:
			k = uint32(p.key)
		case p.isKey:
			k = uint32(p.key)
		default:
			// a line for a key: cheapglk reads a line and takes its first character
			k = '\n'
			for _, r := range p.line {
				k = uint32(r)
				break
			}
		}
		if k == '\r' || k == '\n' {
			k = keycodeReturn
		} else if !w.charUni && k >= 0x100 && k < 0xFFFFFFE0 {
			k = '?'
		}
		w.charReq = false
		ev[0], ev[1], ev[2] = evtypeCharInput, w.id, k
		return 0, nil
	}
	line := p.line
	if p.isKey {
		line = string(p.key)
	}
	runes := []rune(line)
	n := min(uint32(len(runes)), w.lineLen)
	for i := uint32(0); i < n; i++ {
		c := uint32(runes[i])
		if w.lineUni {
			w.lineUbuf[i] = c
			continue
		}
		if c >= 0x100 {
			c = '?'
		}
		if err := g.mem.Store8(w.lineBuf+i, byte(c)); err != nil {
			return 0, err
		}
	}
	if w.echo != 0 {
		if e := g.st.streams[w.echo]; e != nil {
			for i := uint32(0); i < n; i++ {
				c := uint32(runes[i])
				if !w.lineUni && c >= 0x100 {
					c = '?'
				}
				if err := g.putChar(e, c, w.lineUni); err != nil {
					return 0, err
				}
			}
			if err := g.putChar(e, '\n', false); err != nil {
				return 0, err
			}
		}
	}
	if err := g.finishLine(w); err != nil {
		return 0, err
	}
	ev[0], ev[1], ev[2] = evtypeLineInput, w.id, n
	return 0, nil
}
