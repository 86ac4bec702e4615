package zmachine

// Opcode names as the Standard gives them (§14, §15), for readers of the
// code ([Machine.Instruction]); exec works with the numbers alone.

// Names of the opcodes of each operand count, by number; "" where the
// number is no opcode of the versions grue runs.
var (
	names2OP = [32]string{
		"", "je", "jl", "jg", "dec_chk", "inc_chk", "jin", "test",
		"or", "and", "test_attr", "set_attr", "clear_attr", "store", "insert_obj", "loadw",
		"loadb", "get_prop", "get_prop_addr", "get_next_prop", "add", "sub", "mul", "div",
		"mod", "call_2s", "call_2n", "set_colour", "throw", "", "", "",
	}
	names1OP = [16]string{
		"jz", "get_sibling", "get_child", "get_parent", "get_prop_len", "inc", "dec", "print_addr",
		"call_1s", "remove_obj", "print_obj", "ret", "jump", "print_paddr", "load", "not",
	}
	names0OP = [16]string{
		"rtrue", "rfalse", "print", "print_ret", "nop", "save", "restore", "restart",
		"ret_popped", "pop", "quit", "new_line", "show_status", "verify", "", "piracy",
	}
	namesVAR = [32]string{
		"call", "storew", "storeb", "put_prop", "sread", "print_char", "print_num", "random",
		"push", "pull", "split_window", "set_window", "call_vs2", "erase_window", "erase_line", "set_cursor",
		"get_cursor", "set_text_style", "buffer_mode", "output_stream", "input_stream", "sound_effect", "read_char", "scan_table",
		"not", "call_vn", "call_vn2", "tokenise", "encode_text", "copy_table", "print_table", "check_arg_count",
	}
	// EXT:5 to EXT:8 and those after EXT:13 belong to version 6, which
	// grue does not run.
	namesEXT = [14]string{
		"save", "restore", "log_shift", "art_shift", "set_font", "", "", "",
		"", "save_undo", "restore_undo", "print_unicode", "check_unicode", "set_true_colour",
	}
)

// opcodeName returns the Standard's name of opcode code (numbered as exec
// numbers them) in version v, or "" where v has no such opcode: where
// dispatch fails it as an illegal opcode or one of another version.
func opcodeName(code uint16, v int) string {
	switch code {
	case op1 + 0xf:
		if v >= 5 {
			return "call_1n"
		}
	case op0 + 0x5, op0 + 0x6: // save, restore: EXT opcodes from version 5
		if v >= 5 {
			return ""
		}
	case op0 + 0x9:
		if v >= 5 {
			return "catch"
		}
	case opV + 0x0:
		if v >= 4 {
			return "call_vs"
		}
	case opV + 0x4:
		if v >= 5 {
			return "aread"
		}
	}
	if v < opcodeSince(code) {
		return ""
	}
	switch {
	case code < 0x20:
		return names2OP[code]
	case code < op0:
		return names1OP[(code-op1)&0xf]
	case code < opV:
		return names0OP[(code-op0)&0xf]
	case code < opEX:
		return namesVAR[(code-opV)&0x1f]
	case int(code-opEX) < len(namesEXT):
		return namesEXT[code-opEX]
	}
	return ""
}

// opcodeSince returns the first version that has opcode code, as
// dispatch checks it (1 for those of every version).
func opcodeSince(code uint16) int {
	switch {
	case code == 0x19, code == op1+0x8, // call_2s call_1s
		code >= opV+0x0c && code <= opV+0x12, // call_vs2 ... buffer_mode
		code == opV+0x16, code == opV+0x17:   // read_char scan_table
		return 4
	case code >= 0x1a && code <= 0x1c, // call_2n set_colour throw
		code == op0+0xf,                      // piracy
		code >= opV+0x18 && code <= opV+0x1f, // not ... check_arg_count
		code >= opEX:
		return 5
	}
	return 1
}

// lateStoreBranch says which of fStore and fBranch opcode code has in
// version v among those storeBranch leaves out, whose handlers read their
// store byte or branch data themselves when input or a file comes.
func lateStoreBranch(code uint16, v int) uint8 {
	switch code {
	case opV + 0x04: // aread stores the terminator from version 5
		if v >= 5 {
			return fStore
		}
	case opV + 0x16, // read_char
		opEX + 0x00, opEX + 0x01, opEX + 0x09, opEX + 0x0a: // save restore save_undo restore_undo
		return fStore
	case op0 + 0x5, op0 + 0x6: // save, restore: version 3 branches, 4 stores
		if v <= 3 {
			return fBranch
		}
		return fStore
	}
	return 0
}
