package kernelfuzz

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
)

// Kernel is one generated kernel: its struct's fields, its body as a tree of statements
// (so that a minimizer can drop statements), the helper functions it calls, and how
// the harness runs it (domain, tile, inputs).
type Kernel struct {
	Name   string
	Seed   uint64
	Tiled  bool
	Rank   int
	Dims   [3]int // the domain's extent (rank components)
	Tile   [3]int // the tile's extent, where Tiled
	Views  []View
	Caps   []Capture
	Funcs  []*Func
	Pre    []string // the body's first lines: the index, locals (never dropped)
	Body   []*Node
	Post   []string // the body's last lines: the locals written to Out
	Slots  string   // one letter per element of Out a thread writes: u exact, f float32 bits, h a half's bits
	NOutD  int      // float64 elements of OutD a thread writes
	Finite bool     // generated under Options.Finite
}

// View is a view field of a kernel.
type View struct {
	Name string
	Elem Type
	Kind string // "in" (ReadView), "rw" (View, own index), "acc" (atomics), "out", "outd"
	Size int    // elements, for acc, out and outd (1-D); the domain's extent otherwise
}

// Capture is a scalar field of a kernel: a push constant.
type Capture struct {
	Name  string
	GoT   string // its Go type
	Small bool   // an int32 in 0..3 (a loop count)
	T     Type   // its type where it is one of Type's; else an array [3]int32 (T = -1)
}

// Func is a helper function of the kernel's package.
type Func struct {
	Name   string
	Params []Var
	Result []Type
	Pre    []string
	Body   []*Node
	Ret    string
}

// Var is a variable in scope.
type Var struct {
	Name string
	T    Type
	RO   bool // a loop variable or parameter that the generator does not assign
}

// Node is one statement; a compound one has blocks (if/else, the cases of a switch, a
// loop's body), each a head line and statements, then "}".
type Node struct {
	ID     int
	Keep   bool // a tile_static write or a barrier of a phase: dropping it alone races
	Line   string
	Blocks []Block
}

// Block is one block of a compound statement.
type Block struct {
	Head string
	Kids []*Node
}

// gen holds the state of one kernel's generation.
type gen struct {
	r        *rand.Rand
	k        *Kernel
	vars     []Var
	ids      int
	loops    int  // depth of loops around the statement (break/continue allowed when > 0)
	depth    int  // nesting of compound statements
	shared   bool // tile_static arrays readable here (a read phase)
	inFunc   bool // generating a helper function's body (no views, no atomics)
	statics  []Var
	labels   []string // the labeled loops around the statement
	tileN    int
	loopVar  int
	funcs    []*Func
	consts   map[string]bool // the constants the generator wrote
	topPhase bool            // generating a phase that every thread runs
	ret      string          // a helper's early return
	accOps   []string        // the atomics on the Acc view: one class, whose updates commute
	written  map[string]bool // the tile_static arrays every thread has written
}

// Options shape the generated kernels.
type Options struct {
	// Finite keeps every float finite and compares zeros without their sign: no infinity
	// or NaN in the inputs or constants, products clamped to 1e30, values made float16
	// clamped to its range. For devices that do not keep Go's infinities, NaNs and signed
	// zeros although they say so (lavapipe: testdata/repro/README.md).
	Finite bool
}

// Generate returns the kernel that seed gives, named name, with Go's IEEE 754 semantics
// throughout (infinities, NaNs and signed zeros compared).
func Generate(seed uint64, name string) *Kernel { return GenerateWith(seed, name, Options{}) }

// GenerateWith returns the kernel that seed gives under o, named name.
func GenerateWith(seed uint64, name string, o Options) *Kernel {
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x6b65726e656c)), k: &Kernel{Name: name, Seed: seed, Finite: o.Finite},
		consts: map[string]bool{}, written: map[string]bool{}}
	g.kernel()
	return g.k
}

func (g *gen) chance(p float64) bool { return g.r.Float64() < p }

func (g *gen) pick(n int) int { return g.r.IntN(n) }

// domain chooses the rank, the extent and, for a tiled kernel, the tile.
func (g *gen) domain() {
	k := g.k
	k.Tiled = g.chance(0.4)
	k.Rank = 1 + g.pick(3)
	k.Dims = [3]int{1, 1, 1}
	k.Tile = [3]int{1, 1, 1}
	if k.Tiled {
		tiles := [][]int{{4, 8, 16, 32, 64}, {2, 4, 8}, {2, 4}}[k.Rank-1]
		for d := range k.Rank {
			k.Tile[d] = tiles[g.pick(len(tiles))]
			k.Dims[d] = k.Tile[d] * (1 + g.pick(3))
		}
		return
	}
	max := []int{300, 20, 7}[k.Rank-1]
	for d := range k.Rank {
		k.Dims[d] = 1 + g.pick(max)
	}
}

func (k *Kernel) threads() int { return k.Dims[0] * k.Dims[1] * k.Dims[2] }

func (k *Kernel) tileSize() int { return k.Tile[0] * k.Tile[1] * k.Tile[2] }

// viewElems are the element types of input and read-write views.
var viewElems = []Type{I32, U32, F32, I8, U8, Half, F64, VF4}

// kernel generates the whole kernel.
func (g *gen) kernel() {
	g.domain()
	locals := g.views()
	g.captures(128 - 16 - 16*len(g.k.Views))
	// Helper functions, before the body so that it can call them.
	for f := range g.pick(3) {
		g.helper(f)
	}
	g.body(locals)
	g.outputs(locals)
	g.k.Funcs = g.funcs
}

// views chooses the kernel's views and locals: push constants hold 16 bytes for the
// domain and 16 per view, within 128.
func (g *gen) views() []Var {
	k := g.k
	for v := range 1 + g.pick(2) {
		k.Views = append(k.Views, View{Name: fmt.Sprintf("In%d", v), Elem: viewElems[g.pick(len(viewElems))], Kind: "in"})
	}
	if g.chance(0.4) {
		k.Views = append(k.Views, View{Name: "W", Elem: viewElems[g.pick(len(viewElems))], Kind: "rw"})
	}
	if g.chance(0.4) && len(k.Views) < 3 {
		k.Views = append(k.Views, View{Name: "Acc", Elem: []Type{I32, U32, F32}[g.pick(3)], Kind: "acc", Size: 1 + g.pick(8)})
	}
	var locals []Var
	need := []Type{I32, F32}
	for j := range 3 + g.pick(6) {
		t := Type(g.pick(int(nTypes)))
		if j < len(need) {
			t = need[j]
		}
		locals = append(locals, Var{Name: fmt.Sprintf("v%d", j), T: t})
	}
	k.Views = append(k.Views, View{Name: "Out", Elem: U32, Kind: "out"})
	if slices.ContainsFunc(locals, func(v Var) bool { return v.T == F64 }) {
		k.Views = append(k.Views, View{Name: "OutD", Elem: F64, Kind: "outd"})
	}
	return locals
}

// body generates the index, the tile_static arrays, the locals and the statements.
func (g *gen) body(locals []Var) {
	k := g.k
	if k.Tiled {
		k.Pre = append(k.Pre, "i := t.Global")
	}
	k.Pre = append(k.Pre, fmt.Sprintf("lin := (i[0]*%d+i[1])*%d + i[2]", k.Dims[1], k.Dims[2]))
	g.vars = append(g.vars, Var{Name: "lin", T: Int, RO: true})
	if k.Tiled {
		k.Pre = append(k.Pre, fmt.Sprintf("l := (t.Local[0]*%d+t.Local[1])*%d + t.Local[2]", k.Tile[1], k.Tile[2]))
		g.vars = append(g.vars, Var{Name: "l", T: Int, RO: true})
		g.tileN = k.tileSize()
		for s := range 1 + g.pick(2) {
			t := []Type{I32, U32, F32, I8, U16, F64}[g.pick(6)]
			name := fmt.Sprintf("s%d", s)
			size := "t.TileExtent.Size()"
			if g.chance(0.5) {
				size = fmt.Sprint(g.tileN)
			}
			k.Pre = append(k.Pre, fmt.Sprintf("%s := runtime.TileStatic[%s](t, %s)", name, t, size))
			g.statics = append(g.statics, Var{Name: name, T: t})
		}
	}
	for _, v := range locals {
		k.Pre = append(k.Pre, fmt.Sprintf("var %s %s = %s", v.Name, v.T, g.expr(v.T, 2)))
		g.vars = append(g.vars, v)
	}
	for range 3 + g.pick(8) {
		if k.Tiled && g.chance(0.3) {
			k.Body = append(k.Body, g.phase(true)...)
			continue
		}
		k.Body = append(k.Body, g.stmt())
	}
	g.topPhase = true
	if k.Tiled { // every tile_static array is written and read
		var b strings.Builder
		writeNodes(&b, k.Body, nil)
		for _, s := range g.statics {
			if !mentions(b.String(), s.Name) {
				k.Body = append(k.Body, g.phaseOf(s)...)
			}
		}
	}
}

// outputs writes every local to the output views at the thread's place, so that no
// result goes unseen: Out (32-bit words) and OutD (float64).
func (g *gen) outputs(locals []Var) {
	k := g.k
	slot, dslot := 0, 0
	var slots strings.Builder
	set := func(val string, kind byte) {
		k.Post = append(k.Post, fmt.Sprintf("k.Out.Set(runtime.Idx(lin*NOUT+%d), %s)", slot, val))
		slot++
		slots.WriteByte(kind)
	}
	for _, v := range locals {
		switch {
		case v.T == F64:
			k.Post = append(k.Post, fmt.Sprintf("k.OutD.Set(runtime.Idx(lin*NOUTD+%d), %s)", dslot, v.Name))
			dslot++
		case v.T == F32:
			set("math.Float32bits("+v.Name+")", 'f')
		case v.T == Bool:
			set("b2u("+v.Name+")", 'u')
		case v.T == Half:
			set("hbits("+v.Name+")", 'h')
		case v.T.isVec():
			for c := range typeInfo[v.T].comps {
				x := v.Name + "." + comps[c]
				if typeInfo[v.T].comp == F32 {
					set("math.Float32bits("+x+")", 'f')
				} else {
					set("uint32("+x+")", 'u')
				}
			}
		case v.T == Int:
			set("uint32(int32("+v.Name+"))", 'u')
		default:
			set("uint32("+v.Name+")", 'u')
		}
	}
	for j := range k.Views {
		switch k.Views[j].Kind {
		case "out":
			k.Views[j].Size = slot * k.threads()
		case "outd":
			k.Views[j].Size = dslot * k.threads()
		}
	}
	for j := range k.Post {
		k.Post[j] = strings.ReplaceAll(k.Post[j], "NOUTD", fmt.Sprint(dslot))
		k.Post[j] = strings.ReplaceAll(k.Post[j], "NOUT", fmt.Sprint(slot))
	}
	k.Slots = slots.String()
	k.NOutD = dslot
}

// captureKinds are the scalar fields' types, with their push-constant size and alignment.
var captureKinds = []struct {
	goT         string
	t           Type
	size, align int
}{
	{"int32", I32, 4, 4}, {"uint32", U32, 4, 4}, {"float32", F32, 4, 4}, {"int", Int, 4, 4},
	{"uint", -1, 4, 4}, {"bool", Bool, 4, 4}, {"int8", I8, 4, 4}, {"int16", I16, 4, 4},
	{"uint8", U8, 4, 4}, {"uint16", U16, 4, 4}, {"float64", F64, 8, 8},
	{"vec.Float2", VF2, 8, 8}, {"vec.Float4", VF4, 16, 16}, {"vec.Int3", VI3, 16, 16},
	{"vec.Uint4", VU4, 16, 16}, {"[3]int32", -1, 12, 4}, {"Trio", -1, 12, 4},
}

// captures chooses scalar fields that fit budget bytes of push constants.
func (g *gen) captures(budget int) {
	off := 0
	add := func(name, goT string, t Type, size, align int, small bool) bool {
		o := (off + align - 1) / align * align
		if o+size > budget {
			return false
		}
		off = o + size
		g.k.Caps = append(g.k.Caps, Capture{Name: name, GoT: goT, T: t, Small: small})
		return true
	}
	if g.k.Tiled || g.chance(0.5) {
		add("R", "int32", I32, 4, 4, true)
	}
	for j := range g.pick(6) {
		c := captureKinds[g.pick(len(captureKinds))]
		add(fmt.Sprintf("C%d", j), c.goT, c.t, c.size, c.align, false)
	}
}

// newID numbers a statement.
func (g *gen) newID() int { g.ids++; return g.ids }

func (g *gen) line(s string) *Node { return &Node{ID: g.newID(), Line: s} }

// scoped runs f with the variables in scope restored afterwards.
func (g *gen) scoped(f func()) {
	n := len(g.vars)
	f()
	g.vars = g.vars[:n]
}

// block generates n statements.
func (g *gen) block(n int) []*Node {
	var s []*Node
	g.scoped(func() {
		for range n {
			s = append(s, g.stmt())
		}
	})
	return s
}

// writable returns the assignable variables of type t (any type where t < 0).
func (g *gen) writable(t Type) []Var {
	var vs []Var
	for _, v := range g.vars {
		if !v.RO && (t < 0 || v.T == t) {
			vs = append(vs, v)
		}
	}
	return vs
}

// stmt generates one statement.
func (g *gen) stmt() *Node {
	g.depth++
	defer func() { g.depth-- }()
	deep := g.depth > 3
	switch c := g.pick(20); {
	case c < 6 || deep:
		return g.assign()
	case c < 8:
		cond := g.expr(Bool, 2)
		n := &Node{ID: g.newID(), Blocks: []Block{{Head: "if " + cond + " {", Kids: g.block(1 + g.pick(3))}}}
		if g.chance(0.5) {
			n.Blocks = append(n.Blocks, Block{Head: "} else {", Kids: g.block(1 + g.pick(2))})
		}
		return n
	case c < 11:
		return g.loop()
	case c < 13:
		return g.switchStmt()
	case c < 14 && g.loops > 0:
		kw := []string{"break", "continue"}[g.pick(2)]
		if len(g.labels) > 0 && g.chance(0.5) {
			kw += " " + g.labels[g.pick(len(g.labels))]
		}
		return &Node{ID: g.newID(), Blocks: []Block{{Head: "if " + g.expr(Bool, 1) + " {", Kids: []*Node{g.line(kw)}}}}
	case c < 15 && g.inFunc:
		return &Node{ID: g.newID(), Blocks: []Block{{Head: "if " + g.expr(Bool, 1) + " {", Kids: []*Node{g.line(g.ret)}}}}
	case c < 16 && !g.inFunc:
		if n := g.viewStmt(); n != nil {
			return n
		}
	case c < 17 && len(g.funcs) > 0:
		if n := g.callStmt(); n != nil {
			return n
		}
	}
	return g.assign()
}

// assign generates an assignment to a local.
func (g *gen) assign() *Node {
	vs := g.writable(-1)
	if len(vs) == 0 {
		return g.line("_ = " + g.expr(I32, 1))
	}
	v := vs[g.pick(len(vs))]
	t := v.T
	switch {
	case t.isInt() && g.chance(0.4):
		switch op := []string{"+=", "-=", "*=", "^=", "|=", "&=", "&^=", "<<=", ">>=", "/=", "%=", "++", "--"}[g.pick(13)]; op {
		case "++", "--":
			return g.line(v.Name + op)
		case "<<=", ">>=":
			return g.line(v.Name + " " + op + " " + g.shiftCount())
		case "/=", "%=":
			return g.line(fmt.Sprintf("%s %s nz_%s(%s)", v.Name, op, t.ident(), g.expr(t, 2)))
		default:
			return g.line(v.Name + " " + op + " " + g.expr(t, 2))
		}
	case t.isFloat() && g.chance(0.3):
		return g.line(v.Name + []string{" += ", " -= "}[g.pick(2)] + g.expr(t, 2))
	case t == Int && g.chance(0.3):
		return g.line(v.Name + []string{" += ", " -= "}[g.pick(2)] + g.expr(t, 2))
	case t.isVec() && g.chance(0.3):
		c := comps[g.pick(typeInfo[t].comps)]
		return g.line(v.Name + "." + c + " = " + g.expr(typeInfo[t].comp, 2))
	}
	return g.line(v.Name + " = " + g.expr(t, 3))
}

// loop generates a for loop of a few iterations.
func (g *gen) loop() (n *Node) {
	j := fmt.Sprintf("j%d", g.loopVar)
	g.loopVar++
	var head, count string
	switch g.pick(4) {
	case 0:
		head = fmt.Sprintf("for %s := 0; %s < %d; %s++ {", j, j, 1+g.pick(4), j)
	case 1:
		count = fmt.Sprint(1 + g.pick(4))
	case 2:
		head = fmt.Sprintf("for %s := %d; %s >= 0; %s-- {", j, g.pick(4), j, j)
	default:
		if g.cap("R") {
			count = "int(k.R)"
		} else {
			head = fmt.Sprintf("for %s := 0; %s < 3; %s += 2 {", j, j, j)
		}
	}
	var kids []*Node
	label := ""
	if g.chance(0.3) {
		label = "L" + j
		g.labels = append(g.labels, label)
	}
	g.scoped(func() {
		g.vars = append(g.vars, Var{Name: j, T: Int, RO: true})
		g.loops++
		kids = g.block(1 + g.pick(3))
		g.loops--
	})
	if label != "" {
		g.labels = g.labels[:len(g.labels)-1]
		var b strings.Builder
		writeNodes(&b, kids, nil)
		if mentions(b.String(), label) { // a label must be used
			defer func() { n.Blocks[0].Head = label + ":\n" + n.Blocks[0].Head }()
		}
	}
	if count != "" { // a range loop names its variable only where the body uses it
		var b strings.Builder
		writeNodes(&b, kids, nil)
		head = "for range " + count + " {"
		if mentions(b.String(), j) {
			head = fmt.Sprintf("for %s := range %s {", j, count)
		}
	}
	n = &Node{ID: g.newID(), Blocks: []Block{{Head: head, Kids: kids}}}
	return n
}

// cap reports whether the kernel has the capture name (and is not a helper's body).
func (g *gen) cap(name string) bool {
	return !g.inFunc && slices.ContainsFunc(g.k.Caps, func(c Capture) bool { return c.Name == name })
}

// switchStmt generates a switch with a tag or without.
func (g *gen) switchStmt() *Node {
	n := &Node{ID: g.newID()}
	ncase := 1 + g.pick(3)
	if g.chance(0.6) {
		t := []Type{I32, U8, I8, U32}[g.pick(4)]
		n.Blocks = append(n.Blocks, Block{Head: fmt.Sprintf("switch %s & 3 {", g.expr(t, 2))})
		vals := g.r.Perm(4)
		for c := range ncase {
			head := fmt.Sprintf("case %d:", vals[c])
			if c == 0 && g.chance(0.3) {
				head = fmt.Sprintf("case %d, %d:", vals[c], vals[3])
			}
			n.Blocks = append(n.Blocks, Block{Head: head})
		}
	} else {
		n.Blocks = append(n.Blocks, Block{Head: "switch {"})
		for range ncase {
			n.Blocks = append(n.Blocks, Block{Head: "case " + g.expr(Bool, 2) + ":"})
		}
	}
	if g.chance(0.5) {
		n.Blocks = append(n.Blocks, Block{Head: "default:"})
	}
	for b := 1; b < len(n.Blocks); b++ {
		n.Blocks[b].Kids = g.block(1 + g.pick(2))
		if b < len(n.Blocks)-1 && g.chance(0.2) {
			n.Blocks[b].Kids = append(n.Blocks[b].Kids, g.line("fallthrough"))
		} else if g.chance(0.15) {
			n.Blocks[b].Kids = append([]*Node{{ID: g.newID(), Blocks: []Block{{Head: "if " + g.expr(Bool, 1) + " {", Kids: []*Node{g.line("break")}}}}}, n.Blocks[b].Kids...)
		}
	}
	// The first block is the head alone: move the first case's head into it.
	n.Blocks[0].Head += "\n" + n.Blocks[1].Head
	n.Blocks[0].Kids = n.Blocks[1].Kids
	n.Blocks = append(n.Blocks[:1], n.Blocks[2:]...)
	return n
}

// viewStmt writes the read-write view at the thread's own index, or makes an atomic
// update of the atomics view.
func (g *gen) viewStmt() *Node {
	for _, v := range g.k.Views {
		switch {
		case v.Kind == "rw" && g.chance(0.6):
			return g.line(fmt.Sprintf("k.%s.Set(i, %s)", v.Name, g.expr(v.Elem, 2)))
		case v.Kind == "acc":
			at := fmt.Sprintf("runtime.Idx(int(uint32(%s) %% %d))", g.expr(U32, 1), v.Size)
			if v.Elem == F32 { // small integers: every order of the additions gives one sum
				op := []string{"AtomicAdd", "AtomicSub"}[g.pick(2)]
				return g.line(fmt.Sprintf("k.%s.%s(%s, float32(%s & 15))", v.Name, op, at, g.expr(I32, 1)))
			}
			if g.accOps == nil {
				g.accOps = g.atomicClass()
			}
			op := g.accOps[g.pick(len(g.accOps))]
			return g.line(fmt.Sprintf("k.%s.%s(%s, %s)", v.Name, op, at, g.expr(v.Elem, 2)))
		}
	}
	return nil
}

// atomicClass returns atomic operations that commute with each other, so that every
// order of a kernel's updates leaves one value: add and subtract, or one of the others.
func (g *gen) atomicClass() []string {
	return [][]string{{"AtomicAdd", "AtomicSub"}, {"AtomicMin"}, {"AtomicMax"}, {"AtomicAnd"}, {"AtomicOr"},
		{"AtomicXor"}}[g.pick(6)]
}

// callStmt calls a helper with several results.
func (g *gen) callStmt() *Node {
	f := g.funcs[g.pick(len(g.funcs))]
	if len(f.Result) < 2 {
		return nil
	}
	var lhs []string
	for _, t := range f.Result {
		vs := g.writable(t)
		if len(vs) == 0 {
			lhs = append(lhs, "_")
			continue
		}
		lhs = append(lhs, vs[g.pick(len(vs))].Name)
	}
	if slices.Index(lhs, lhs[0]) != slices.IndexFunc(lhs, func(s string) bool { return s == lhs[0] }) {
		return nil
	}
	if lhs[0] == lhs[1] && lhs[0] != "_" {
		lhs[1] = "_"
	}
	return g.line(strings.Join(lhs, ", ") + " = " + g.call(f))
}

// call writes a call of f with generated arguments.
func (g *gen) call(f *Func) string {
	var args []string
	for _, p := range f.Params {
		args = append(args, g.expr(p.T, 1))
	}
	return f.Name + "(" + strings.Join(args, ", ") + ")"
}

// helper generates a package function of one or two results.
func (g *gen) helper(n int) {
	f := &Func{Name: fmt.Sprintf("%s_h%d", strings.ToLower(g.k.Name), n)}
	types := []Type{I32, U32, F32, I8, I16, U16, F64, Bool, VF4, VI3, Half}
	for p := range 1 + g.pick(3) {
		f.Params = append(f.Params, Var{Name: fmt.Sprintf("p%d", p), T: types[g.pick(len(types))]})
	}
	f.Result = []Type{types[g.pick(len(types))]}
	if g.chance(0.3) {
		f.Result = append(f.Result, types[g.pick(len(types))])
	}
	saved := g.vars
	g.vars = slices.Clone(f.Params)
	g.inFunc = true
	loc := Var{Name: "x", T: f.Result[0]}
	f.Pre = append(f.Pre, fmt.Sprintf("var x %s = %s", loc.T, g.expr(loc.T, 2)))
	g.vars = append(g.vars, loc)
	early := []string{"x"}
	for _, t := range f.Result[1:] {
		early = append(early, g.expr(t, 1))
	}
	g.ret = "return " + strings.Join(early, ", ")
	f.Body = g.block(1 + g.pick(4))
	rets := []string{fmt.Sprintf("pick_%s(%s, x, %s)", loc.T.ident(), g.expr(Bool, 1), g.expr(loc.T, 2))}
	for _, t := range f.Result[1:] {
		rets = append(rets, g.expr(t, 2))
	}
	f.Ret = "return " + strings.Join(rets, ", ")
	g.inFunc = false
	g.vars = saved
	g.funcs = append(g.funcs, f)
}

// phase generates a write to tile_static memory, a barrier, statements that read it and
// a barrier, at the top level of a Tiled body (or in a loop or if of uniform control,
// when top).
func (g *gen) phase(top bool) []*Node {
	g.topPhase = top
	if top && g.chance(0.4) {
		// A phase under uniform control may not run: the arrays it writes stay unwritten.
		g.topPhase = false
		var inner []*Node
		for range 1 + g.pick(2) {
			inner = append(inner, g.phase(false)...)
		}
		if g.chance(0.5) && g.cap("R") {
			j := fmt.Sprintf("r%d", g.loopVar)
			g.loopVar++
			return []*Node{{ID: g.newID(), Keep: true, Blocks: []Block{{Head: fmt.Sprintf("for %s := 0; %s < int(k.R); %s++ {", j, j, j), Kids: inner}}}}
		}
		conds := []string{"true", fmt.Sprintf("t.TileExtent.Size() > %d", g.pick(64)), fmt.Sprintf("%d < 3", g.pick(5))}
		for _, c := range g.k.Caps {
			if c.T == Bool {
				conds = append(conds, "k."+c.Name)
			}
			if c.T == I32 || c.T == U8 {
				conds = append(conds, fmt.Sprintf("k.%s > %d", c.Name, g.pick(3)))
			}
		}
		return []*Node{{ID: g.newID(), Keep: true, Blocks: []Block{{Head: "if " + conds[g.pick(len(conds))] + " {", Kids: inner}}}}
	}
	return g.phaseOf(g.statics[g.pick(len(g.statics))])
}

// phaseOf is a phase that writes tile_static array s.
func (g *gen) phaseOf(s Var) []*Node {
	barrier := []string{"t.Barrier.Wait()", "t.Barrier.WaitWithAllMemoryFence()", "t.Barrier.WaitWithTileStaticMemoryFence()"}
	bar := func() *Node { return &Node{ID: g.newID(), Keep: true, Line: barrier[g.pick(3)]} }
	var atomics []*Node
	if (s.T == I32 || s.T == U32) && g.chance(0.4) {
		// A phase of atomic updates between the write and the reads: every order of the
		// updates leaves the same values (their results are not used).
		ops := g.atomicClass()
		for range 1 + g.pick(3) {
			op := ops[g.pick(len(ops))]
			a := g.line(fmt.Sprintf("runtime.%s(%s, int(%s)%%%d, %s)", op, s.Name, g.expr(U8, 1), g.tileN, g.expr(s.T, 2)))
			if g.chance(0.4) {
				a = &Node{ID: g.newID(), Blocks: []Block{{Head: "if " + g.expr(Bool, 1) + " {", Kids: []*Node{a}}}}
			}
			atomics = append(atomics, a)
		}
		atomics = append(atomics, bar())
	}
	write := g.line(fmt.Sprintf("%s[l] = %s", s.Name, g.expr(s.T, 2)))
	write.Keep = true
	g.shared = true
	saved := g.written
	g.written = maps.Clone(saved)
	g.written[s.Name] = true
	reads := g.block(1 + g.pick(3))
	g.shared = false
	g.written = saved
	if g.topPhase {
		g.written[s.Name] = true
	}
	out := append([]*Node{write, bar()}, atomics...)
	out = append(out, reads...)
	return append(out, bar())
}

// mentions reports whether the Go source src names the identifier name.
func mentions(src, name string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], name)
		if j < 0 {
			return false
		}
		j += i
		end := j + len(name)
		if (j == 0 || !isIdent(src[j-1])) && (end == len(src) || !isIdent(src[end]) || src[end] == '.') {
			return true
		}
		i = end
	}
}

// PushBytes returns the kernel's push constants in bytes: 16 for the domain, 16 a view,
// then the captures aligned as std430 aligns them.
func (k *Kernel) PushBytes() int {
	off := 16 + 16*len(k.Views)
	for _, c := range k.Caps {
		for _, ck := range captureKinds {
			if ck.goT == c.GoT {
				off = (off+ck.align-1)/ck.align*ck.align + ck.size
			}
		}
	}
	return off
}
