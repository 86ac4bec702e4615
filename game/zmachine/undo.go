package zmachine

// saveUndo implements save_undo: the state is kept with the program
// counter on the store byte, so that restore_undo can store 2 there. An
// Inform game saves one every turn; Frotz keeps 500, and so does the
// machine unless Options.UndoSlots says otherwise, in a History, where
// all but the newest cost only what the turn changed.
func (m *Machine) saveUndo() {
	if m.opts.UndoSlots < 0 {
		m.store(0xffff)
		return
	}
	m.undo.Keep(m.opts.UndoSlots - 1)
	m.undo.Push(m)
	m.store(1)
}

// restoreUndo implements restore_undo: back to the latest save_undo, which
// is then forgotten, so that repeated undos go further back. The random
// number generator is not rolled back, as in Frotz.
func (m *Machine) restoreUndo() {
	if m.opts.UndoSlots < 0 {
		m.store(0xffff)
		return
	}
	if m.undo.Len() == 0 {
		m.store(0)
		return
	}
	keep := m.dyn[0x11] & 0x03
	// Frotz's undo restores memory, stack and program counter only: the
	// random number generator runs on, so random events after an undo
	// differ from those the undone turn drew.
	rng := m.rng
	if err := m.undo.Pop(m); err != nil {
		fail("restore_undo: %v", err)
	}
	m.rng = rng
	m.dyn[0x11] = m.dyn[0x11]&^0x03 | keep
	m.state = running
	m.store(2)
}
