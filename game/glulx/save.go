package glulx

// save and restore to Glk streams are not implemented yet: save answers
// failure (1) and restore answers failure, as glulxe does when the stream
// cannot be written or read.

func (vm *VM) save(stream uint32) uint32 { return 1 }

func (vm *VM) restore(stream uint32) bool { return false }
