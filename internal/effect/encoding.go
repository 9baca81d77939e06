package effect

import (
	"encoding/binary"
	"errors"
	"fmt"
)

// Facts are written once per package and read by every importer (go vet and golangci-lint
// store them), so a Fact encodes itself compactly instead of through gob's reflection:
// gob would send a descriptor of Effect and Hop with every package's facts, field names
// and all, which is most of the bytes of a small fact. The encoding is deterministic (the
// set is sorted, no maps) and versioned by its first byte.
//
//	fact   = version(24) flags uvarint(calls) [claim] [str(checks)] [str(receives)] [request] nEffects effect* nRegs reg*
//	         (flags: 1 completes in tx, 2 claim, 4 checks, 8 receives, 16 request, 32 guards)
//	claim  = result read str(what) [on str(table)]   (the last two when read is ReadLocked)
//	request = str(method) methodParam reads(0|1) header
//	reg    = param flags(1 methods, 2 factory, 4 topic) str(framework) str(once) str(method) [topic str(library)]
//	effect = str(kind) state str(detail) uvarint(keyParams) tx methodParam requestParam textParam optsParam argsParam readsParam readsBy payloadParam step(0|1|2, +stepTopic, +stepDetached) elemsParam keyArg [str(keyArgFields) str(keyArgFresh)] [topicParam str(library) str(pkg) str(what)] [detached] nHops hop*
//	hop    = str(func) str(pos)
//	str    = uvarint(len) bytes
const factEncoding = 24

// stepTopic, added to an effect's step byte, says that its TopicParam and Topic follow:
// most effects have none, and a byte each would grow every fact.
const stepTopic = 0x10

// stepDetached, added to an effect's step byte, says that its Detached state follows.
const stepDetached = 0x20

// MarshalBinary encodes f; gob uses it for facts.
func (f *Fact) MarshalBinary() ([]byte, error) {
	b := make([]byte, 0, 64)
	b = append(b, factEncoding)
	var flags byte
	if f.CompletesInTx {
		flags |= 1
	}
	if f.Claim != nil {
		flags |= 2
	}
	if f.Checks != "" {
		flags |= 4
	}
	if f.Receives != "" {
		flags |= 8
	}
	if f.Request != nil {
		flags |= 16
	}
	if f.Guards {
		flags |= 32
	}
	b = append(b, flags)
	b = binary.AppendUvarint(b, f.Calls)
	if f.Claim != nil {
		b = append(b, f.Claim.Result, byte(f.Claim.Read))
		b = appendString(b, f.Claim.What)
		if f.Claim.Read == ReadLocked {
			b = append(b, f.Claim.On)
			b = appendString(b, f.Claim.Table)
		}
	}
	if f.Checks != "" {
		b = appendString(b, f.Checks)
	}
	if f.Receives != "" {
		b = appendString(b, f.Receives)
	}
	if r := f.Request; r != nil {
		var reads byte
		if r.Reads {
			reads = 1
		}
		b = appendString(b, r.Method)
		b = append(b, r.MethodParam, reads, byte(r.Header))
	}
	b = binary.AppendUvarint(b, uint64(len(f.Effects)))
	for _, e := range f.Effects {
		b = appendString(b, string(e.Kind))
		b = append(b, byte(e.State))
		b = appendString(b, e.Detail)
		b = binary.AppendUvarint(b, e.KeyParams)
		step := byte(e.Step)
		if e.TopicParam != 0 {
			step |= stepTopic
		}
		if e.Detached != 0 {
			step |= stepDetached
		}
		b = append(b, byte(e.Tx), e.MethodParam, e.RequestParam, e.TextParam, e.OptsParam, e.ArgsParam, e.ReadsParam, byte(e.ReadsBy), e.PayloadParam, step, e.ElemsParam)
		b = append(b, e.KeyArg)
		if e.KeyArg != 0 {
			b = appendString(b, e.KeyArgFields)
			b = appendString(b, e.KeyArgFresh)
		}
		if e.TopicParam != 0 {
			b = append(b, e.TopicParam)
			b = appendString(b, e.Topic.Library)
			b = appendString(b, e.Topic.Pkg)
			b = appendString(b, e.Topic.What)
		}
		if e.Detached != 0 {
			b = append(b, byte(e.Detached))
		}
		b = binary.AppendUvarint(b, uint64(len(e.Chain)))
		for _, h := range e.Chain {
			b = appendString(b, h.Func)
			b = appendString(b, h.Pos)
		}
	}
	b = binary.AppendUvarint(b, uint64(len(f.Registers)))
	for _, r := range f.Registers {
		var flags byte
		if r.Methods {
			flags |= 1
		}
		if r.Factory {
			flags |= 2
		}
		if r.Topic != 0 {
			flags |= 4
		}
		b = append(b, r.Param, flags)
		b = appendString(b, r.Framework)
		b = appendString(b, r.Once)
		b = appendString(b, r.Method)
		if r.Topic != 0 {
			b = append(b, r.Topic)
			b = appendString(b, r.Library)
		}
	}
	return b, nil
}

// UnmarshalBinary decodes what MarshalBinary wrote; malformed input is an error, never a
// panic: facts come from files another process wrote.
func (f *Fact) UnmarshalBinary(data []byte) error {
	r := reader{data: data}
	if v := r.byte(); v != factEncoding {
		return fmt.Errorf("effect fact: encoding version %d, want %d", v, factEncoding)
	}
	flags := r.byte()
	calls := r.uvarint()
	if flags&2 != 0 {
		f.Claim = &Claim{Result: r.byte(), Read: ClaimRead(r.byte()), What: r.string()}
		if f.Claim.Read == ReadLocked {
			f.Claim.On, f.Claim.Table = r.byte(), r.string()
		}
	}
	checks := ""
	if flags&4 != 0 {
		checks = r.string()
	}
	if flags&8 != 0 {
		f.Receives = r.string()
	}
	if flags&16 != 0 {
		req := &Request{Method: r.string(), MethodParam: r.byte()}
		switch r.byte() {
		case 0:
		case 1:
			req.Reads = true
		default:
			r.fail("request")
		}
		req.Header = Header(r.byte())
		f.Request = req
	}
	n := r.count()
	effects := make(Set, 0, n)
	for i := 0; i < n && r.err == nil; i++ {
		var e Effect
		e.Kind = Kind(r.string())
		if e.State = State(r.byte()); e.State > Protected && r.err == nil {
			r.err = fmt.Errorf("effect fact: state %d", e.State)
		}
		e.Detail = r.string()
		e.KeyParams = r.uvarint()
		e.Tx = TxMode(r.byte())
		e.MethodParam = r.byte()
		e.RequestParam = r.byte()
		e.TextParam = r.byte()
		e.OptsParam = r.byte()
		e.ArgsParam = r.byte()
		e.ReadsParam = r.byte()
		if e.ReadsBy = BodyRead(r.byte()); e.ReadsBy > BodyText {
			r.fail("reads by")
		}
		e.PayloadParam = r.byte()
		step := r.byte()
		if e.Step = StepMode(step &^ (stepTopic | stepDetached)); e.Step > InTxStep {
			r.fail("step")
		}
		e.ElemsParam = r.byte()
		if e.KeyArg = r.byte(); e.KeyArg != 0 {
			e.KeyArgFields = r.string()
			e.KeyArgFresh = r.string()
		}
		if step&stepTopic != 0 {
			if e.TopicParam = r.byte(); e.TopicParam == 0 {
				r.fail("topic param")
			}
			e.Topic = &TopicSink{Library: r.string(), Pkg: r.string(), What: r.string()}
		}
		if step&stepDetached != 0 {
			if e.Detached = State(r.byte()); e.Detached == 0 || e.Detached > Claimed {
				r.fail("detached")
			}
		}
		hops := r.count()
		for j := 0; j < hops && r.err == nil; j++ {
			e.Chain = append(e.Chain, Hop{Func: r.string(), Pos: r.string()})
		}
		effects = append(effects, e)
	}
	var regs []ParamReg
	nRegs := r.count()
	for i := 0; i < nRegs && r.err == nil; i++ {
		reg := ParamReg{Param: r.byte()}
		flags := r.byte()
		if flags&^7 != 0 {
			r.fail("registration")
		}
		reg.Methods, reg.Factory = flags&1 != 0, flags&2 != 0
		reg.Framework = r.string()
		reg.Once = r.string()
		reg.Method = r.string()
		if flags&4 != 0 {
			if reg.Topic = r.byte(); reg.Topic == 0 {
				r.fail("registration topic")
			}
			reg.Library = r.string()
		}
		regs = append(regs, reg)
	}
	if r.err == nil && len(r.data) > 0 {
		r.err = errors.New("trailing bytes")
	}
	if r.err != nil {
		return fmt.Errorf("effect fact: %w", r.err)
	}
	f.Effects, f.CompletesInTx, f.Calls, f.Registers, f.Checks = effects, flags&1 != 0, calls, regs, checks
	f.Guards = flags&32 != 0
	return nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// reader reads the encoding, remembering the first error.
type reader struct {
	data []byte
	err  error
}

func (r *reader) fail(what string) {
	if r.err == nil {
		r.err = errors.New("truncated or malformed " + what)
	}
	r.data = nil
}

func (r *reader) byte() byte {
	if len(r.data) < 1 {
		r.fail("byte")
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

func (r *reader) uvarint() uint64 {
	v, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail("number")
		return 0
	}
	r.data = r.data[n:]
	return v
}

// count reads a length that must fit in what is left (each item takes a byte at least).
func (r *reader) count() int {
	v := r.uvarint()
	if v > uint64(len(r.data)) {
		r.fail("count")
		return 0
	}
	return int(v)
}

func (r *reader) string() string {
	n := r.count()
	if r.err != nil {
		return ""
	}
	s := string(r.data[:n])
	r.data = r.data[n:]
	return s
}
