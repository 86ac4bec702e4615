package zmachine

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
)

// Save files in the Quetzal format (Quetzal 1.4), which Frotz and every
// modern interpreter share: an IFF FORM of type IFZS with the chunks IFhd
// (which story, and the program counter), CMem (dynamic memory, XORed with
// the story's and run-length encoded) and Stks (the call frames).

// saveQuetzal encodes the machine's state. pc is the address the game
// resumes at: the branch or store byte of the save instruction.
func (m *Machine) saveQuetzal(pc uint32) []byte {
	var body bytes.Buffer
	body.WriteString("IFZS")

	var hd [13]byte
	copy(hd[0:2], m.static[2:4])
	copy(hd[2:8], m.static[0x12:0x18])
	copy(hd[8:10], m.static[0x1c:0x1e])
	hd[10], hd[11], hd[12] = byte(pc>>16), byte(pc>>8), byte(pc)
	chunk(&body, "IFhd", hd[:])

	cmem := diffCode(m.dyn, m.static)
	chunk(&body, "CMem", cmem)

	var stks []byte
	for i, f := range m.frames {
		top := m.sp
		if i+1 < len(m.frames) {
			top = m.frames[i+1].base
		}
		var pcRet uint32
		flags := f.nlocals
		var store byte
		if i > 0 {
			pcRet = f.retPC
			if f.store < 0 {
				flags |= 0x10
			} else {
				store = byte(f.store)
				pcRet-- // Quetzal's return PC is the store byte itself
			}
		}
		stks = append(stks, byte(pcRet>>16), byte(pcRet>>8), byte(pcRet), flags, store, byte(1<<f.argc-1))
		n := top - f.base
		stks = append(stks, byte(n>>8), byte(n))
		for j := 0; j < int(f.nlocals); j++ {
			stks = binary.BigEndian.AppendUint16(stks, f.locals[j])
		}
		for _, w := range m.stack[f.base:top] {
			stks = binary.BigEndian.AppendUint16(stks, w)
		}
	}
	chunk(&body, "Stks", stks)

	var out bytes.Buffer
	out.WriteString("FORM")
	binary.Write(&out, binary.BigEndian, uint32(body.Len()))
	out.Write(body.Bytes())
	return out.Bytes()
}

func chunk(b *bytes.Buffer, id string, data []byte) {
	b.WriteString(id)
	binary.Write(b, binary.BigEndian, uint32(len(data)))
	b.Write(data)
	if len(data)%2 == 1 {
		b.WriteByte(0)
	}
}

// errWrongStory is returned for a save file of another story.
var errWrongStory = errors.New("the save file is of another story or release")

// loadQuetzal decodes a save file into the machine's memory, stack and
// frames and returns the saved program counter. On error the machine is
// unchanged.
func (m *Machine) loadQuetzal(data []byte) (uint32, error) {
	if len(data) < 12 || string(data[0:4]) != "FORM" || string(data[8:12]) != "IFZS" {
		return 0, errors.New("not a Quetzal save file")
	}
	size := int(binary.BigEndian.Uint32(data[4:8]))
	if size+8 > len(data) || size < 4 {
		return 0, errors.New("truncated save file")
	}
	data = data[12 : 8+size]
	var hd, cmem, umem, stks []byte
	for len(data) >= 8 {
		id := string(data[0:4])
		n := int(binary.BigEndian.Uint32(data[4:8]))
		if n > len(data)-8 {
			return 0, fmt.Errorf("truncated %s chunk in save file", id)
		}
		c := data[8 : 8+n]
		switch id {
		case "IFhd":
			hd = c
		case "CMem":
			cmem = c
		case "UMem":
			umem = c
		case "Stks":
			stks = c
		}
		n += n & 1
		if 8+n > len(data) {
			break
		}
		data = data[8+n:]
	}
	if len(hd) < 13 || stks == nil || (cmem == nil && umem == nil) {
		return 0, errors.New("save file lacks a chunk it needs (IFhd, CMem or UMem, Stks)")
	}
	if !bytes.Equal(hd[0:2], m.static[2:4]) || !bytes.Equal(hd[2:8], m.static[0x12:0x18]) || !bytes.Equal(hd[8:10], m.static[0x1c:0x1e]) {
		return 0, errWrongStory
	}
	pc := uint32(hd[10])<<16 | uint32(hd[11])<<8 | uint32(hd[12])

	mem := make([]byte, len(m.dyn))
	if umem != nil {
		if len(umem) != len(mem) {
			return 0, fmt.Errorf("save file's memory is %d bytes, the story's %d", len(umem), len(mem))
		}
		copy(mem, umem)
	} else {
		copy(mem, m.static[:len(mem)])
		switch err := diffDecode(mem, cmem); err {
		case nil:
		case errCodeCorrupt:
			return 0, errors.New("corrupt CMem chunk in save file")
		default:
			return 0, errors.New("CMem chunk in save file runs past dynamic memory")
		}
	}

	var frames []frame
	stack := make([]uint16, 0, 256)
	for len(stks) > 0 {
		if len(stks) < 8 {
			return 0, errors.New("corrupt Stks chunk in save file")
		}
		f := frame{base: len(stack)}
		ret := uint32(stks[0])<<16 | uint32(stks[1])<<8 | uint32(stks[2])
		flags, store := stks[3], stks[4]
		f.nlocals = flags & 0x0f
		args := stks[5]
		for args&1 != 0 {
			f.argc++
			args >>= 1
		}
		n := int(stks[6])<<8 | int(stks[7])
		stks = stks[8:]
		if len(frames) > 0 {
			if flags&0x10 != 0 {
				f.store = -1
				f.retPC = ret
			} else {
				f.store = int16(store)
				f.retPC = ret + 1
			}
		} else {
			f.store = -1
		}
		need := 2*int(f.nlocals) + 2*n
		if len(stks) < need || len(stack)+n > stackSize || len(frames) >= maxFrames {
			return 0, errors.New("corrupt Stks chunk in save file")
		}
		for j := 0; j < int(f.nlocals); j++ {
			f.locals[j] = binary.BigEndian.Uint16(stks[2*j:])
		}
		stks = stks[2*int(f.nlocals):]
		for j := 0; j < n; j++ {
			stack = append(stack, binary.BigEndian.Uint16(stks[2*j:]))
		}
		stks = stks[2*n:]
		frames = append(frames, f)
	}
	if len(frames) == 0 {
		return 0, errors.New("save file has no call frames")
	}

	copy(m.dyn, mem)
	m.sp = copy(m.stack, stack)
	m.frames = append(m.frames[:0], frames...)
	m.syncFrame()
	return pc, nil
}
