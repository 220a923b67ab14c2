package kernelfuzz

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// expr returns an expression of type t, of at most d levels of operators.
func (g *gen) expr(t Type, d int) string {
	if d <= 0 || g.chance(0.25) {
		return g.leaf(t, d)
	}
	switch {
	case t.isInt():
		return g.intExpr(t, d)
	case t.isFloat():
		return g.floatExpr(t, d)
	case t == Int:
		return g.intIndexExpr(d)
	case t == Bool:
		return g.boolExpr(d)
	case t == Half:
		switch g.pick(3) {
		case 0:
			if g.k.Finite {
				return "half.FromFloat32(hcl(" + g.expr(F32, d-1) + "))"
			}
			return "half.FromFloat32(" + g.expr(F32, d-1) + ")"
		case 1:
			return fmt.Sprintf("pick_half(%s, %s, %s)", g.expr(Bool, d-1), g.expr(Half, d-1), g.expr(Half, d-1))
		}
		return g.leaf(t, d)
	case t.isVec():
		return g.vecExpr(t, d)
	}
	panic("kernelfuzz: no expression of " + t.String())
}

// intExpr is an expression of a fixed-width integer type: every operation wraps as Go's
// does, divisors are never 0 and shift counts never negative.
func (g *gen) intExpr(t Type, d int) string {
	a := func() string { return g.expr(t, d-1) }
	switch g.pick(16) {
	case 0, 1, 2, 3:
		op := []string{"+", "-", "*", "&", "|", "^", "&^"}[g.pick(7)]
		return "(" + g.sub(t, d-1) + " " + op + " " + a() + ")"
	case 4:
		op := []string{"/", "%"}[g.pick(2)]
		return fmt.Sprintf("(%s %s nz_%s(%s))", a(), op, t.ident(), a())
	case 5:
		op := []string{"<<", ">>"}[g.pick(2)]
		return "(" + a() + " " + op + " " + g.shiftCount() + ")"
	case 6:
		op := []string{"-", "^"}[g.pick(2)]
		if !typeInfo[t].signed && op == "-" {
			return "(0 - " + g.sub(t, d-1) + ")"
		}
		return op + "(" + g.sub(t, d-1) + ")"
	case 7:
		from := Type(g.pick(int(U32) + 1))
		return t.String() + "(" + g.sub(from, d-1) + ")"
	case 8:
		from := []Type{F32, F64}[g.pick(2)]
		return fmt.Sprintf("%s(f2i_%s_%s(%s))", t, from, t.ident(), g.expr(from, d-1))
	case 9:
		return []string{"min", "max"}[g.pick(2)] + "(" + g.sub(t, d-1) + ", " + a() + ")"
	case 10:
		return fmt.Sprintf("pick_%s(%s, %s, %s)", t.ident(), g.expr(Bool, d-1), a(), a())
	case 11:
		if f := g.funcOf(t); f != nil {
			return g.call(f)
		}
	case 12:
		if t == I32 {
			v := []Type{VI3}[0]
			return g.expr(v, d-1) + ".Dot(" + g.expr(v, d-1) + ")"
		}
		if t == U32 && g.chance(0.5) {
			fn := []string{"OnesCount32", "LeadingZeros32", "TrailingZeros32", "Len32"}[g.pick(4)]
			return "uint32(bits." + fn + "(" + a() + "))"
		}
		if t == U32 {
			fn := []string{"Reverse32", "ReverseBytes32"}[g.pick(2)]
			return "bits." + fn + "(" + a() + ")"
		}
	}
	return g.leaf(t, d)
}

// sub is an operand of type t that is not a constant, so that the operation it is an
// operand of is not a constant expression (whose overflow Go rejects): a constant goes
// through nc_T, the identity.
func (g *gen) sub(t Type, d int) string {
	s := g.expr(t, d)
	if g.consts[s] {
		if s == t.String()+"(0)" && t.isFloat() {
			// A zero that reaches a float operation through a function is folded by
			// lavapipe regardless of SignedZeroInfNanPreserve (x*0 = 0 for an infinite
			// x): known, see testdata/repro; ampgen writes out only constant zeros.
			s = t.String() + "(1)"
		}
		return "nc_" + t.ident() + "(" + s + ")"
	}
	return s
}

// shiftCount is a non-negative shift count, 63 at most (past every width).
func (g *gen) shiftCount() string {
	t := []Type{U8, U32, I32, Int, I8}[g.pick(5)]
	mask := []int{7, 15, 31, 63}[g.pick(4)]
	return fmt.Sprintf("(%s(%s) & %d)", t, g.sub(U32, 1), mask)
}

// floatExpr is a float32 or float64 expression. Products are written as an explicit
// conversion, float32(a*b), which keeps them rounded (no fused multiply-add), and pass
// through ftz, which makes a result below 1e-30 (1e-290) zero: a device may flush
// denormals, and no value that ftz passes makes one in an addition.
func (g *gen) floatExpr(t Type, d int) string {
	a := func() string { return g.expr(t, d-1) }
	pkg := map[Type]string{F32: "fmath", F64: "math"}[t]
	switch g.pick(14) {
	case 0, 1, 2:
		return "(" + g.sub(t, d-1) + []string{" + ", " - "}[g.pick(2)] + a() + ")"
	case 3, 4:
		if g.k.Finite {
			return fmt.Sprintf("fin_%s(%s(%s * %s))", t, t, g.sub(t, d-1), a())
		}
		return fmt.Sprintf("ftz_%s(%s(%s * %s))", t, t, g.sub(t, d-1), a())
	case 5:
		return fmt.Sprintf("ftz_%s(%s / %d)", t, a(), []int{2, 4, 8, 1024}[g.pick(4)])
	case 6:
		return "-(" + g.sub(t, d-1) + ")"
	case 7:
		return pkg + "." + []string{"Abs", "Floor", "Ceil", "Trunc"}[g.pick(4)] + "(" + a() + ")"
	case 8:
		return []string{"min", "max"}[g.pick(2)] + "(" + g.sub(t, d-1) + ", " + a() + ")"
	case 9:
		return fmt.Sprintf("pick_%s(%s, %s, %s)", t, g.expr(Bool, d-1), a(), a())
	case 10:
		from := []Type{I8, I16, I32, U8, U16, U32, Int}[g.pick(7)]
		return t.String() + "(" + g.sub(from, d-1) + ")"
	case 11:
		if t == F32 {
			return "ftz_float32(float32(" + g.sub(F64, d-1) + "))"
		}
		return "float64(" + g.sub(F32, d-1) + ")"
	case 12:
		if f := g.funcOf(t); f != nil {
			return g.call(f)
		}
	case 13:
		if t == F32 {
			switch g.pick(3) {
			case 0:
				return g.expr(Half, d-1) + ".Float32()"
			case 1:
				if !g.k.Finite {
					return "ftz_float32(math.Float32frombits(" + g.expr(U32, d-1) + "))"
				}
			}
			return g.expr(VF4, d-1) + "." + comps[g.pick(4)]
		}
		return "math." + []string{"Max", "Min"}[g.pick(2)] + "(" + a() + ", " + a() + ")"
	}
	return g.leaf(t, d)
}

// intIndexExpr is an int expression whose value stays far inside 32 bits (int is 64 bits
// on the CPU and 32 on GPUs): sums and differences of 16-bit values and small indices.
func (g *gen) intIndexExpr(d int) string {
	term := func() string {
		switch g.pick(3) {
		case 0:
			return "int(" + g.expr(I16, d-1) + ")"
		case 1:
			return "int(" + g.expr(I8, d-1) + ")*int(" + g.expr(U8, d-1) + ")"
		}
		return g.leaf(Int, d)
	}
	return "(" + term() + []string{" + ", " - "}[g.pick(2)] + term() + ")"
}

// boolExpr is a comparison or a logical operation.
func (g *gen) boolExpr(d int) string {
	switch g.pick(7) {
	case 0, 1, 2:
		t := []Type{I8, I16, I32, U8, U16, U32, Int, F32, F64}[g.pick(9)]
		op := []string{"<", "<=", ">", ">=", "==", "!="}[g.pick(6)]
		return "(" + g.expr(t, d-1) + " " + op + " " + g.expr(t, d-1) + ")"
	case 3:
		return "(" + g.expr(Bool, d-1) + []string{" && ", " || ", " != ", " == "}[g.pick(4)] + g.expr(Bool, d-1) + ")"
	case 4:
		return "!" + g.expr(Bool, d-1)
	case 5:
		switch g.pick(4) {
		case 0:
			return "fmath.IsNaN(" + g.expr(F32, d-1) + ")"
		case 1:
			return "math.IsInf(" + g.expr(F64, d-1) + ", " + []string{"0", "1", "-1"}[g.pick(3)] + ")"
		case 2:
			return g.expr(Half, d-1) + ".IsNaN()"
		}
		return "fmath.IsInf(" + g.expr(F32, d-1) + ")"
	}
	if f := g.funcOf(Bool); f != nil {
		return g.call(f)
	}
	return g.leaf(Bool, d)
}

// vecExpr is a vector expression; float vectors have no products (a product that feeds
// an addition may fuse) and no Min or Max (GLSL's, either operand with a NaN).
func (g *gen) vecExpr(t Type, d int) string {
	a := func() string { return g.expr(t, d-1) }
	c := typeInfo[t].comp
	switch g.pick(6) {
	case 0:
		var args []string
		for range typeInfo[t].comps {
			args = append(args, g.expr(c, d-1))
		}
		return vecCtor[t] + "(" + strings.Join(args, ", ") + ")"
	case 1, 2:
		return a() + "." + []string{"Add", "Sub"}[g.pick(2)] + "(" + a() + ")"
	case 3:
		if c == F32 {
			return a() + ".Neg()"
		}
		return a() + "." + []string{"Mul", "Min", "Max"}[g.pick(3)] + "(" + a() + ")"
	case 4:
		if c != F32 {
			return a() + ".Scale(" + g.expr(c, d-1) + ")"
		}
	}
	return g.leaf(t, d)
}

// vecCtor is each vector type's constructor.
var vecCtor = map[Type]string{VF2: "vec.F2", VF4: "vec.F4", VI3: "vec.I3", VU4: "vec.U4"}

// funcOf returns a helper function of one result of type t, or nil.
func (g *gen) funcOf(t Type) *Func {
	var fs []*Func
	for _, f := range g.funcs {
		if len(f.Result) == 1 && f.Result[0] == t {
			fs = append(fs, f)
		}
	}
	if len(fs) == 0 || g.inFunc {
		return nil
	}
	return fs[g.pick(len(fs))]
}

// leaf is a variable, a constant, a capture, a view or tile_static element of type t.
func (g *gen) leaf(t Type, d int) string {
	var cands []string
	for _, v := range g.vars {
		if v.T == t {
			cands = append(cands, v.Name, v.Name)
		}
	}
	if !g.inFunc {
		for _, c := range g.k.Caps {
			if c.T == t {
				cands = append(cands, "k."+c.Name)
			}
			if c.T == -1 && c.GoT == "[3]int32" && t == I32 {
				cands = append(cands, fmt.Sprintf("k.%s[%d]", c.Name, g.pick(3)))
			}
			if c.T >= 0 && c.T.isVec() && typeInfo[c.T].comp == t {
				cands = append(cands, "k."+c.Name+"."+comps[g.pick(typeInfo[c.T].comps)])
			}
			if c.GoT == "Trio" && (t == I32 || t == F32 || t == U32) {
				cands = append(cands, "k."+c.Name+"."+map[Type]string{I32: "A", F32: "B", U32: "C"}[t])
			}
			if c.GoT == "uint" && t == U32 {
				cands = append(cands, "uint32(k."+c.Name+")")
			}
		}
		for _, v := range g.k.Views {
			if (v.Kind == "in" || v.Kind == "rw") && v.Elem == t {
				cands = append(cands, g.viewRead(v))
			}
		}
		if g.shared {
			for _, s := range g.statics {
				if s.T == t && g.written[s.Name] {
					cands = append(cands, g.staticRead(s), g.staticRead(s))
				}
			}
		}
		if t == Int {
			cands = append(cands, fmt.Sprintf("i[%d]", g.pick(g.k.Rank)), "k.In0.Extent().Dim(0)")
			if g.k.Tiled {
				cands = append(cands, fmt.Sprintf("t.Local[%d]", g.pick(g.k.Rank)), fmt.Sprintf("t.Tile[%d]", g.pick(g.k.Rank)),
					"t.TileExtent.Size()", fmt.Sprintf("t.TileOrigin[%d]", g.pick(g.k.Rank)))
			}
		}
	}
	if len(cands) == 0 || g.chance(0.3) {
		return g.constant(t, d)
	}
	return cands[g.pick(len(cands))]
}

// viewRead reads view v at the thread's index or a neighbour's, clamped into the view
// (a read-write view only at the thread's own index: other threads write theirs).
func (g *gen) viewRead(v View) string {
	if v.Kind == "rw" || g.chance(0.5) {
		return "k." + v.Name + ".At(i)"
	}
	var idx []string
	for d := range g.k.Rank {
		idx = append(idx, fmt.Sprintf("cl(i[%d]%+d, %d)", d, g.pick(5)-2, g.k.Dims[d]))
	}
	return "k." + v.Name + ".At(runtime.Idx(" + strings.Join(idx, ", ") + "))"
}

// staticRead reads a tile_static element of a read phase, at an index in range.
func (g *gen) staticRead(s Var) string {
	if g.chance(0.5) {
		return fmt.Sprintf("%s[(l+%d)%%%d]", s.Name, g.pick(g.tileN), g.tileN)
	}
	return fmt.Sprintf("%s[int(%s)%%%d]", s.Name, g.expr(U8, 1), g.tileN)
}

// constant is a constant of type t (a composite of constants for vectors).
func (g *gen) constant(t Type, d int) string {
	switch {
	case t.isInt():
		bits, signed := typeInfo[t].bits, typeInfo[t].signed
		var v int64
		switch g.pick(4) {
		case 0:
			v = int64(g.pick(8))
		case 1:
			v = -int64(g.pick(8))
		case 2: // an edge: the type's smallest or largest
			if signed {
				v = []int64{-1 << (bits - 1), 1<<(bits-1) - 1}[g.pick(2)]
			} else {
				v = []int64{0, 1<<bits - 1}[g.pick(2)]
			}
		default:
			v = g.r.Int64N(1<<bits) - 1<<(bits-1)
		}
		if !signed {
			v &= 1<<bits - 1
		}
		c := t.String() + "(" + strconv.FormatInt(v, 10) + ")"
		g.consts[c] = true
		return c
	case t == Int:
		c := strconv.Itoa(g.pick(200) - 100)
		g.consts[c] = true
		return c
	case t.isFloat():
		f := []float64{0, 1, -1, 0.5, 2.5, -3.75, 1e6, 1e-3, 16777217, 100.125, 3e38}[g.pick(11)]
		if t == F64 && g.chance(0.3) {
			f = []float64{1e300, 1.0000000001, math.Pi}[g.pick(3)]
		}
		if g.k.Finite && (math.Abs(f) > 1e30) {
			f = 1e30
		}
		if !g.k.Finite && g.chance(0.2) {
			if t == F32 {
				return []string{"float32(math.Inf(1))", "float32(math.Inf(-1))", "float32(math.NaN())"}[g.pick(3)]
			}
			return []string{"math.Inf(1)", "math.Inf(-1)", "math.NaN()"}[g.pick(3)]
		}
		c := t.String() + "(" + strconv.FormatFloat(f, 'g', -1, 64) + ")"
		g.consts[c] = true
		return c
	case t == Bool:
		return []string{"true", "false"}[g.pick(2)]
	case t == Half:
		return "half.FromFloat32(" + g.constant(F32, d) + ")"
	case t.isVec():
		var args []string
		for range typeInfo[t].comps {
			args = append(args, g.constant(typeInfo[t].comp, d))
		}
		return vecCtor[t] + "(" + strings.Join(args, ", ") + ")"
	}
	panic("kernelfuzz: no constant of " + t.String())
}
