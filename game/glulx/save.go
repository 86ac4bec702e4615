package glulx

import (
	"encoding/binary"
	"io"
)

// save and restore: the Quetzal-based Glulx save format (glulxe's
// serial.c): a FORM of type IFZS with IFhd (the first 128 bytes of
// memory), CMem (RAM as differences from the game file), MAll (the heap
// summary) and Stks (the stack, big-endian, frame by frame), written to
// and read from a Glk stream.

// Streams is what save and restore need of the Glk library: a stream's
// bytes by id.
type Streams interface {
	StreamWrite(id uint32, p []byte) error
	StreamReader(id uint32) (io.Reader, error)
}

// saveBound bounds what restore reads of a save file.
const saveBound = 1 << 30

func (vm *VM) save(stream uint32) uint32 {
	if vm.iosysMode != iosysGlk {
		vm.fatal("Streams are only available in Glk I/O system.")
	}
	st, ok := vm.glk.(Streams)
	if stream == 0 || !ok {
		return 1
	}
	data, ok := vm.saveData()
	if !ok {
		return 1
	}
	if err := st.StreamWrite(stream, data); err != nil {
		return 1
	}
	return 0
}

func appendChunk(out []byte, id string, body []byte) []byte {
	out = append(out, id...)
	out = binary.BigEndian.AppendUint32(out, uint32(len(body)))
	out = append(out, body...)
	if len(body)&1 != 0 {
		out = append(out, 0)
	}
	return out
}

// saveData is the save file of the current state (the caller has pushed
// the call stub).
func (vm *VM) saveData() ([]byte, bool) {
	body := []byte("IFZS")
	body = appendChunk(body, "IFhd", vm.mem[:128])
	mem := binary.BigEndian.AppendUint32(nil, vm.endmem)
	body = appendChunk(body, "CMem", append(mem, vm.diffRAM()...))
	var heap []byte
	for _, v := range vm.heap.summary() {
		heap = binary.BigEndian.AppendUint32(heap, v)
	}
	body = appendChunk(body, "MAll", heap)
	stk := append([]byte(nil), vm.stack[:vm.stackptr]...)
	if !swapStack(stk, false) {
		return nil, false
	}
	body = appendChunk(body, "Stks", stk)
	out := []byte("FORM")
	out = binary.BigEndian.AppendUint32(out, uint32(len(body)))
	return append(out, body...), true
}

// swapStack turns a stack image between native (little-endian) and
// portable (big-endian) order in place, frame by frame; fromBE says which
// order buf is in now. False for an inconsistent stack.
func swapStack(buf []byte, fromBE bool) bool {
	rd4 := func(p uint32) (uint32, bool) {
		if uint64(p)+4 > uint64(len(buf)) {
			return 0, false
		}
		if fromBE {
			return binary.BigEndian.Uint32(buf[p:]), true
		}
		return binary.LittleEndian.Uint32(buf[p:]), true
	}
	sw4 := func(p uint32) {
		buf[p], buf[p+1], buf[p+2], buf[p+3] = buf[p+3], buf[p+2], buf[p+1], buf[p]
	}
	end := uint32(len(buf))
	if end%4 != 0 {
		return false
	}
	for end != 0 {
		frm, ok := rd4(end - 4)
		if !ok || frm >= end || frm%4 != 0 {
			return false
		}
		frlen, ok1 := rd4(frm)
		locpos, ok2 := rd4(frm + 4)
		if !ok1 || !ok2 || uint64(frm)+uint64(frlen) > uint64(end) || locpos > frlen || locpos < 8 {
			return false
		}
		sw4(frm)
		sw4(frm + 4)
		f := frm + 8
		pos := frm + locpos
		for {
			if f+2 > frm+locpos {
				return false
			}
			typ, cnt := buf[f], uint32(buf[f+1])
			f += 2
			if typ == 0 && cnt == 0 {
				break
			}
			switch typ {
			case 1:
				pos += cnt
			case 2:
				pos = (pos + 1) &^ 1
				for range cnt {
					if pos+2 > frm+frlen {
						return false
					}
					buf[pos], buf[pos+1] = buf[pos+1], buf[pos]
					pos += 2
				}
			case 4:
				pos = (pos + 3) &^ 3
				for range cnt {
					if pos+4 > frm+frlen {
						return false
					}
					sw4(pos)
					pos += 4
				}
			default:
				return false
			}
		}
		for p := frm + frlen; p < end; p += 4 {
			sw4(p)
		}
		end = frm
	}
	return true
}

// restore reads a save file from a stream; false (the opcode's failure)
// for a file that is not one of this game's saves.
func (vm *VM) restore(stream uint32) bool {
	if vm.iosysMode != iosysGlk {
		vm.fatal("Streams are only available in Glk I/O system.")
	}
	st, ok := vm.glk.(Streams)
	if stream == 0 || !ok {
		return false
	}
	r, err := st.StreamReader(stream)
	if err != nil {
		return false
	}
	var hdr [12]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil || string(hdr[:4]) != "FORM" || string(hdr[8:]) != "IFZS" {
		return false
	}
	n := binary.BigEndian.Uint32(hdr[4:])
	if n < 4 || n > saveBound {
		return false
	}
	body := make([]byte, n-4)
	if _, err := io.ReadFull(r, body); err != nil {
		return false
	}
	var mem, stk []byte
	var heapSum []uint32
	haveMem, haveStk := false, false
	for off := 0; off < len(body); {
		if len(body)-off < 8 {
			return false
		}
		id := string(body[off : off+4])
		l := int(binary.BigEndian.Uint32(body[off+4:]))
		off += 8
		if l > len(body)-off {
			return false
		}
		c := body[off : off+l]
		off += l + l&1
		switch id {
		case "IFhd":
			if l != 128 {
				return false
			}
			for i := range 128 {
				if c[i] != vm.mem[i] {
					return false
				}
			}
		case "CMem":
			mem, haveMem = c, true
		case "MAll":
			if l%4 != 0 {
				return false
			}
			for i := 0; i < l; i += 4 {
				heapSum = append(heapSum, binary.BigEndian.Uint32(c[i:]))
			}
		case "Stks":
			stk, haveStk = append([]byte(nil), c...), true
		}
	}
	if !haveMem || !haveStk || len(mem) < 4 {
		return false
	}
	if !swapStack(stk, true) {
		return false
	}
	if len(heapSum) > 2 {
		sortPairs(heapSum[2:])
	}
	return vm.applyState(binary.BigEndian.Uint32(mem), mem[4:], stk, heapSum)
}

// sortPairs sorts (address, length) pairs by address, as glulxe sorts a
// heap summary that may come from another interpreter.
func sortPairs(s []uint32) {
	for i := 2; i+1 < len(s); i += 2 {
		for j := i; j >= 2 && s[j-2] > s[j]; j -= 2 {
			s[j-2], s[j] = s[j], s[j-2]
			s[j-1], s[j+1] = s[j+1], s[j-1]
		}
	}
}
