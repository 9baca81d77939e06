package effect

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func sample() *Fact {
	var s Set
	s.Add(Effect{Kind: SQLWrite, State: Protected, Detail: "upsert", Chain: []Hop{{Func: "(*pgxpool.Pool).Exec", Pos: "store.go:10"}}})
	s.Add(Effect{Kind: Payment, State: Unprotected, Detail: "payment without an idempotency key", Chain: []Hop{{Func: "billing.Payout", Pos: "a.go:3"}, {Func: "payout.New", Pos: "billing.go:7"}}})
	s.Add(Effect{Kind: SQLWrite, State: Unprotected, Detail: "INSERT", Chain: []Hop{{Func: "store.Add", Pos: "a.go:9"}, {Func: "(*sql.DB).Exec", Pos: "store.go:20"}}})
	s.Add(Effect{Kind: EmailSend, State: Unprotected, Detail: "email", Chain: []Hop{{Func: "smtp.SendMail", Pos: "a.go:1"}}})
	return &Fact{Effects: s}
}

// Facts are written by one process and read by another (go vet, golangci-lint caches): the
// encoding must be byte-for-byte stable.
func TestFactEncodingDeterministic(t *testing.T) {
	enc := func() []byte {
		var buf bytes.Buffer
		if err := gob.NewEncoder(&buf).Encode(sample()); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	a, b := enc(), enc()
	if !bytes.Equal(a, b) {
		t.Fatalf("two encodings of the same fact differ:\n%x\n%x", a, b)
	}
	var back Fact
	if err := gob.NewDecoder(bytes.NewReader(a)).Decode(&back); err != nil {
		t.Fatal(err)
	}
	if !back.Effects.Equal(sample().Effects) {
		t.Fatalf("round trip changed the fact: %v", back.String())
	}
	// The first fact of a gob stream carries gob's description of the fact's types (Effect,
	// Hop, Claim, ParamReg, Request), once per package's stream: most of these bytes.
	// (653 since Request and OptsParam: gob describes both fields; 682 since ArgsParam and Step;
	// 714 since ParamReg.Once, Method and Factory; 747 since ReadsParam and ReadsBy; 794
	// since KeyArg, KeyArgFields and KeyArgFresh; 812 since ElemsParam; 833 since
	// PayloadParam; 850 since Claim.On and Table; 932 since TopicParam and TopicSink; 954 since ParamReg.Topic and Library; 964 since Detached.)
	if len(a) > 964 {
		t.Errorf("fact of four effects takes %d bytes; budget 964", len(a))
	}
}

func TestSetKeepsWorstAndShortest(t *testing.T) {
	f := sample()
	if got := len(f.Effects); got != 3 {
		t.Fatalf("one effect per kind: got %d effects", got)
	}
	for i := 1; i < len(f.Effects); i++ {
		if f.Effects[i-1].Kind >= f.Effects[i].Kind {
			t.Fatalf("effects not sorted by kind: %v", f)
		}
	}
	sql, _ := f.Effects.Get(SQLWrite)
	if sql.State != Unprotected {
		t.Errorf("merge kept %v, want the worse state unprotected", sql.State)
	}
	var s Set
	long := Effect{Kind: Payment, Chain: []Hop{{Func: "a"}, {Func: "b"}}}
	short := Effect{Kind: Payment, Chain: []Hop{{Func: "c"}}}
	s.Add(long)
	if !s.Add(short) || len(s[0].Chain) != 1 {
		t.Errorf("a shorter chain of the same state must replace a longer one: %v", s)
	}
	if s.Add(long) {
		t.Errorf("a longer chain must not replace a shorter one")
	}
	// Of the same state, an effect outside a recovery point (Step) is kept over one inside:
	// it is the one that leaves the partial decision open.
	var st Set
	inStep := Effect{Kind: Payment, Step: InStep, Chain: []Hop{{Func: "c"}}}
	st.Add(inStep)
	if !st.Add(long) || st[0].Step != NoStep {
		t.Errorf("an effect outside a step must replace one inside: %v", st)
	}
	if st.Add(inStep) {
		t.Errorf("an effect inside a step must not replace one outside, even with a shorter chain")
	}
}

func TestPrependBoundsChain(t *testing.T) {
	e := Effect{Kind: Payment, Chain: []Hop{{Func: "sink"}}}
	for i := range 10 {
		e = e.Prepend(fmt.Sprint("f", i), "")
		if want := min(i+2, MaxChain); e.Depth() != want {
			t.Fatalf("after %d hops: depth %d, want %d: %v", i+1, e.Depth(), want, e.Chain)
		}
	}
	var funcs []string
	for _, h := range e.Chain {
		funcs = append(funcs, h.Func)
	}
	// The first hops (the last prepended) stay, then the mark of the calls left out, then
	// the sink.
	if got, want := strings.Join(funcs, " "), "f9 f8 f7 f6 f5 ... sink"; got != want {
		t.Fatalf("cut chain %q, want %q", got, want)
	}
	short := Effect{Kind: Payment, Chain: []Hop{{Func: "sink"}}}.Prepend("a", "").Prepend("b", "")
	if len(short.Chain) != 3 || short.Depth() != 3 {
		t.Fatalf("a chain under MaxChain is not cut: %v", short.Chain)
	}
	if !short.Worse(e) || e.Worse(short) {
		t.Fatal("the shorter chain must win, the mark not counted")
	}
}

// The compact encoding round-trips every field, and every truncation of it is an error,
// not a panic or a silently shorter fact.
func TestFactBinaryEncoding(t *testing.T) {
	f := sample()
	f.CompletesInTx = true
	f.Calls = 1<<0 | 1<<5
	f.Effects[0].KeyParams = 1<<0 | 1<<3
	f.Effects[0].Tx = TxOutside
	f.Effects[1].MethodParam = 2
	f.Effects[1].TextParam = 3
	f.Effects[1].RequestParam = 4
	f.Effects[1].ReadsParam, f.Effects[1].ReadsBy = 2, RPCMethod
	f.Effects[1].PayloadParam = 3
	f.Effects[2].Step = InTxStep
	f.Effects[2].ElemsParam = 2
	f.Effects[1].Detached = Unprotected + 1
	f.Effects[2].TopicParam, f.Effects[2].Topic = 1, &TopicSink{Library: "asynq", Pkg: "github.com/hibiken/asynq", What: "asynq task enqueued"}
	f.Request = &Request{Method: "POST", MethodParam: 2, Reads: true, Header: UnstableHeader}
	f.Claim = &Claim{Result: 1, Read: ReadErr, What: "DELETE"}
	f.Registers = []ParamReg{{Param: 0, Framework: "temporal", Methods: true}, {Param: 2, Framework: "asynq", Once: "acks first", Method: "Handle", Factory: true, Topic: 1, Library: "watermill"}}
	f.Checks = "github.com/stripe/stripe-go/v82"
	f.Receives = "github.com/twmb/franz-go"
	data, err := f.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Fact
	if err := back.UnmarshalBinary(data); err != nil {
		t.Fatal(err)
	}
	if !back.Effects.Equal(f.Effects) || !back.CompletesInTx || back.Calls != f.Calls || back.Effects[1].MethodParam != 2 || back.Effects[1].TextParam != 3 || back.Effects[1].RequestParam != 4 || back.Effects[2].Step != InTxStep || back.Effects[1].Step != NoStep ||
		back.Request == nil || *back.Request != *f.Request || back.Effects[0].Tx != TxOutside ||
		back.Claim == nil || *back.Claim != *f.Claim || !slices.Equal(back.Registers, f.Registers) || back.Checks != f.Checks || back.Receives != f.Receives {
		t.Fatalf("round trip changed the fact:\n got %+v\nwant %+v", back, *f)
	}
	for i := 0; i < len(data); i++ {
		var g Fact
		if err := g.UnmarshalBinary(data[:i]); err == nil {
			t.Errorf("a fact cut to %d of %d bytes decoded without an error", i, len(data))
		}
	}
	if err := new(Fact).UnmarshalBinary(append(data, 0)); err == nil {
		t.Error("trailing bytes decoded without an error")
	}
}

// A locked row's claim carries what the read is made on and the table it locks; other
// claims do not spend the bytes.
func TestLockedClaimEncoding(t *testing.T) {
	for _, c := range []Claim{
		{Result: 0, Read: ReadLocked, What: "SELECT ... FOR UPDATE at repo.go:3", On: OnRecv, Table: "TASKS"},
		{Result: 1, Read: ReadLocked, What: "SELECT ... FOR UPDATE at repo.go:9", On: 2, Table: "OUTBOX"},
	} {
		f := &Fact{Claim: &c}
		data, err := f.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Fact
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatal(err)
		}
		if back.Claim == nil || *back.Claim != c || !back.Claim.Same(&c) {
			t.Errorf("round trip changed the claim: got %+v, want %+v", back.Claim, c)
		}
		other := c
		other.On = 1
		if other.Same(&c) {
			t.Errorf("claims locking through different parameters are the same: %+v", c)
		}
	}
}

func FuzzFactDecode(f *testing.F) {
	data, _ := sample().MarshalBinary()
	f.Add(data)
	f.Add([]byte{factEncoding, 0, 0, 0})
	f.Add([]byte{factEncoding, 0, 0x21, 0, 0})
	f.Add([]byte{factEncoding, 0, 0, 0, 1, 3, 1, 1, 'x'})
	f.Fuzz(func(t *testing.T, data []byte) {
		var fact Fact
		if fact.UnmarshalBinary(data) != nil {
			return
		}
		again, err := fact.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		var back Fact
		if err := back.UnmarshalBinary(again); err != nil || !back.Effects.Equal(fact.Effects) || back.Calls != fact.Calls ||
			!slices.Equal(back.Registers, fact.Registers) || back.Checks != fact.Checks || back.Receives != fact.Receives {
			t.Fatalf("a decoded fact does not survive a second round trip: %v", err)
		}
	})
}
