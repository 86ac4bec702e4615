package zmachine

// DfrotzScreen makes m lose the text that dfrotz 2.54's screen loses, so a
// differential test can compare transcripts: bold and italic characters
// (dfrotz prints none of them) and what a step printed before a restart or
// a clear screen (dfrotz clears its screen before showing it). grue itself keeps all the
// text: the Inform library prints room names in bold.
func DfrotzScreen(m *Machine) { m.out.dfrotz = true }
