package zmachine

// DfrotzScreen makes m lose the text that dfrotz 2.54's screen loses, so a
// differential test can compare transcripts: bold and italic characters
// (dfrotz prints none of them) and what a step printed before a restart or
// a clear screen (dfrotz clears its screen before showing it); and the row
// a key was read on is printed again before the reply to the key, as
// dfrotz shows that row again when it next reads. grue itself keeps all the
// text: the Inform library prints room names in bold.
func DfrotzScreen(m *Machine) { m.out.dfrotz = true }
