package zmachine

// DropEmphasis makes m leave bold and italic text out of the lower window,
// as dfrotz 2.54 does (it prints nothing for them), so that a differential
// test can compare transcripts. grue itself always keeps that text: the
// Inform library prints room names in bold.
func DropEmphasis(m *Machine) { m.out.dropEmphasis = true }
