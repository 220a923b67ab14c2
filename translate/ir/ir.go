// Package ir is the kernel translator's intermediate representation: a kernel
// as typed values and statements with structured control flow (if, loops with
// a continue block, break, continue, return) and explicit loads and stores of
// its local variables and views, between the checked Go syntax and the
// writers of SPIR-V, GLSL and the CPU bodies. Values are trees without
// sharing: each value has one use, so a writer may emit each where it meets
// it.
//
// It covers elementwise (Each) and tiled kernels over 32-bit scalars and
// structs and arrays of them, with tile_static arrays, barriers and atomics;
// what it does not cover (8-, 16- and 64-bit values, most math functions)
// the lowering refuses by name.
package ir

import (
	"fmt"
	"slices"
	"strings"
)

// Type is the type of a value: one of the scalar types, or from
// FirstComposite on a struct or array type of the kernel (Kernel.Types).
type Type uint8

// The scalar types. Go's int is Int32 on the GPU (the runtime refuses a field
// whose value does not fit).
const (
	Invalid Type = iota
	Bool
	Int32
	Uint32
	Float32
	// The 8- and 16-bit integers: in registers 32-bit integers holding the
	// value sign- or zero-extended, wrapped after every operation that can
	// leave the type's range; in views 8- and 16-bit storage.
	Int8
	Uint8
	Int16
	Uint16
	Float64
)

var typeNames = [...]string{"invalid", "bool", "int32", "uint32", "float32", "int8", "uint8", "int16", "uint16",
	"float64"}

// IsFloat reports whether t is Float32 or Float64.
func (t Type) IsFloat() bool { return t == Float32 || t == Float64 }

// String returns the Go name of the type.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// IsInt reports whether t is an integer type.
func (t Type) IsInt() bool { return t == Int32 || t == Uint32 || t.Narrow() > 0 }

// Signed reports whether t is a signed integer type.
func (t Type) Signed() bool { return t == Int32 || t == Int8 || t == Int16 }

// Narrow returns the width of an 8- or 16-bit integer type, else 0.
func (t Type) Narrow() int {
	switch t {
	case Int8, Uint8:
		return 8
	case Int16, Uint16:
		return 16
	}
	return 0
}

// FirstComposite is the first composite type: Type FirstComposite+i is
// Kernel.Types[i].
const FirstComposite Type = 16

// IsComposite reports whether t is a struct or array type.
func (t Type) IsComposite() bool { return t >= FirstComposite }

// Composite is a struct type (Fields) or an array type (Len elements of
// Elem). Its layout in a view's buffer is Go's: fields of 4-byte scalars
// at 4-byte offsets in order, elements at Size(Elem) apart.
type Composite struct {
	Name   string
	Fields []Field
	Elem   Type
	Len    int
}

// Field is a struct's field. A blank field is padding that is copied.
type Field struct {
	Name string
	Type Type
}

// Composite returns composite type t.
func (k *Kernel) Composite(t Type) *Composite { return &k.Types[t-FirstComposite] }

// AddType returns the type of composite c, adding it unless a composite of
// the same structure (its fields' types, and which are blank padding) is
// there: Go types of one underlying type share it.
func (k *Kernel) AddType(c Composite) (Type, bool) {
	for i, d := range k.Types {
		if d.Elem == c.Elem && d.Len == c.Len && slices.EqualFunc(d.Fields, c.Fields,
			func(a, b Field) bool { return a.Type == b.Type && (a.Name == "_") == (b.Name == "_") }) {
			return FirstComposite + Type(i), true
		}
	}
	if len(k.Types) >= 255-int(FirstComposite) {
		return Invalid, false
	}
	k.Types = append(k.Types, c)
	return FirstComposite + Type(len(k.Types)-1), true
}

// Size returns the bytes of a value of type t in a view's buffer.
func (k *Kernel) Size(t Type) int {
	if n := t.Narrow(); n > 0 {
		return n / 8
	}
	if t == Float64 {
		return 8
	}
	if !t.IsComposite() {
		return 4
	}
	c := k.Composite(t)
	if c.Fields == nil {
		return c.Len * k.Size(c.Elem)
	}
	n := 0
	for _, f := range c.Fields {
		n += k.Size(f.Type)
	}
	return n
}

// Part returns the type of part i of composite t (a field, or an element).
func (k *Kernel) Part(t Type, i int) Type {
	c := k.Composite(t)
	if c.Fields == nil {
		return c.Elem
	}
	return c.Fields[i].Type
}

// TypeName returns t's name: a scalar's, or its composite's.
func (k *Kernel) TypeName(t Type) string {
	if t.IsComposite() && int(t-FirstComposite) < len(k.Types) {
		return k.Composite(t).Name
	}
	return t.String()
}

// Kernel is one kernel instance.
type Kernel struct {
	// Name is the program's name (translate.Kernel.Program).
	Name string
	// Views are the data fields, in field order: view k is bound at
	// ampabi.DataBinding(k) and addressed by the k-th AmpView.
	Views []View
	// Scalars are the push-constant scalar fields, in field order.
	Scalars []Scalar
	// Locals are the body's local variables.
	Locals []*Var
	// Body is the Each body, run once per point of the domain, or with
	// Tiled the Tiled body, run once per thread of each tile.
	Body []Stmt
	// Tiled says the body is a Tiled body: it reads TileIndex and
	// TileShape, and may hold Barriers and tile_static arrays (Shared).
	Tiled bool
	// Shared are the tile_static arrays, one per tile.
	Shared []Shared
	// Types are the struct and array types the kernel uses.
	Types []Composite
	// Extents is how many views the ampExtents push-constant array (after
	// the scalars) covers, 2 words each: up to the last view whose
	// dimensions past 0 the body reads (Shape), or 0 for no array.
	Extents int
}

// View is a data field: a buffer of Elem values.
type View struct {
	Name string
	Elem Type
	// Written says the body stores into the view somewhere (Set or an
	// atomic); Read that it reads it (At or an atomic).
	Written, Read bool
	// Bits says a float32 view is updated by atomics: its buffer holds the
	// elements' bits as uint32 (atomics on floats are a compare-exchange
	// loop on the bits).
	Bits bool
}

// Shared is a tile_static array: Size elements of Elem, one array per tile.
type Shared struct {
	Name string
	Elem Type
	// Size is a constant expression of Consts, TileShape Dim (of a Const
	// component) and Size, and Binary Add, Sub, Mul and Div of those: the
	// writers make it a specialization-constant expression of the tile's
	// shape.
	Size Value
	// Bits: float32 elements that atomics update, held as their uint32 bits.
	Bits bool
}

// Scalar is a push-constant field: one 32-bit word (a Bool is pushed as a
// uint32 0 or 1; an 8- or 16-bit integer extended), or a struct or array of
// words, or with Vec a vec vector, placed as the runtime places them (Go's
// size at a 4-byte alignment; a vector std430's).
type Scalar struct {
	Name string
	Type Type
	Vec  bool
}

// Var is a function-local variable.
type Var struct {
	Name string
	Type Type
}

// Value is a typed expression without side effects.
type Value interface {
	Type() Type
	value()
}

// Op is a unary or binary operator.
type Op uint8

// The operators. And and Or of Bools short-circuit (the right operand is
// evaluated only where it decides the result).
const (
	Add Op = iota + 1
	Sub
	Mul
	Div // Go's: an integer quotient truncates, and x / -1 is -x (no overflow trap)
	Rem // Go's: the remainder has the dividend's sign, and x % -1 is 0
	Min // Go's min: a NaN operand gives NaN, and -0 is less than +0
	Max // Go's max: a NaN operand gives NaN, and +0 is more than -0
	Shl // Go's: the count (any integer type, read as unsigned) of 32 or more gives 0
	Shr // Go's: a count of 32 or more gives 0, or the sign for an Int32
	BitAnd
	BitOr
	BitXor
	AndNot
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	And
	Or
	Neg // unary
	Not // unary: ! of a Bool
	Com // unary: ^ of an integer
)

var opNames = [...]string{"", "+", "-", "*", "/", "%", " min ", " max ", "<<", ">>", "&", "|", "^", "&^", "==", "!=",
	"<", "<=", ">", ">=", "&&", "||", "-", "!", "^"}

// String returns the Go spelling of the operator.
func (o Op) String() string {
	if int(o) < len(opNames) {
		return opNames[o]
	}
	return fmt.Sprintf("Op(%d)", o)
}

// IsCompare reports whether o compares its operands (its result is a Bool).
func (o Op) IsCompare() bool { return o >= Eq && o <= Ge }

type (
	// Const is a constant; Bits holds its 32 bits (Float32: IEEE bits;
	// Bool: 0 or 1), or a Float64's low word and Hi its high word.
	Const struct {
		T        Type
		Bits, Hi uint32
	}
	// Load reads a local variable, or with a Path the part of it that Path
	// selects: a field's index (a Const) or an element's index per level
	// of a composite, of type T.
	Load struct {
		Var  *Var
		Path []Value
		T    Type
	}
	// Make builds a value of composite type T from its parts in order.
	Make struct {
		T     Type
		Parts []Value
	}
	// Extract is part Index (a field or an element) of composite X.
	Extract struct {
		X     Value
		Index int
		T     Type
	}
	// Zero is the zero value of composite type T.
	Zero struct{ T Type }
	// Builtin applies a math function of the GPU's to Args: the float32
	// functions exact for the roundings and Abs, within the function's
	// documented error for Sqrt and InverseSqrt; the bit functions of a
	// uint32 exact.
	Builtin struct {
		Fn   BuiltinFn
		Args []Value
	}
	// LoadScalar reads push-constant scalar field Index.
	LoadScalar struct {
		Index int
		T     Type
	}
	// ViewLoad reads element Index (three int components, C++ order) of view
	// View.
	ViewLoad struct {
		View  int
		Index [3]Value
		T     Type
	}
	// ViewLoad4 reads element Index of view View and the three after it in
	// the buffer (At4's): an array of four, of type T.
	ViewLoad4 struct {
		View  int
		Index [3]Value
		T     Type
	}
	// ThreadIndex is component Comp of the thread's index in the domain.
	ThreadIndex struct{ Comp int }
	// Unary applies Neg, Not or Com.
	Unary struct {
		Op Op
		X  Value
	}
	// Binary applies a binary operator. Fuse, on an Add or Sub of Float32,
	// marks the Mul operand that it may contract with (Go allows a*b+c in one
	// rounding where the product has no other use and no explicit
	// conversion); every other float operation is exact.
	Binary struct {
		Op   Op
		X, Y Value
		Fuse bool
	}
	// Convert converts X to type To: Go's conversion (between integers of the
	// same width: the same bits).
	Convert struct {
		To Type
		X  Value
	}
	// Bits reinterprets X's 32 bits as type To (math.Float32bits and
	// Float32frombits).
	Bits struct {
		To Type
		X  Value
	}
	// Select is X where Cond holds, else Y; both are evaluated.
	Select struct {
		Cond, X, Y Value
	}
	// TileIndex is component Comp of one of a Tiled body's indices (the
	// runtime.TiledIndex fields Global, Local, Tile, TileOrigin).
	TileIndex struct {
		What TileWhat
		Comp int
	}
	// TileShape reads the tile's extent (TiledIndex.TileExtent): its
	// dimension Comp (0 past the rank), its Rank or its Size.
	TileShape struct {
		What ShapeOp
		Comp Value
	}
	// SharedLoad reads element Index of tile_static array Array, or the
	// part of it that Path selects (as Load's).
	SharedLoad struct {
		Array int
		Index Value
		Path  []Value
		T     Type
	}
	// SharedLen is the length of tile_static array Array (Go's len).
	SharedLen struct{ Array int }
	// Atomic applies an atomic operation to element Index of view Target,
	// or with Shared to element Index[0] of tile_static array Target, and
	// is the element's old value. Args are the operand (none for Load; the
	// expected and the new value for CompareExchange). It is the one value
	// with an effect: a writer writes it exactly where it meets it, and the
	// lowering never clones it.
	Atomic struct {
		Op     AtomicOp
		Shared bool
		Target int
		Index  [3]Value
		Args   []Value
		T      Type
	}
	// Seq runs Body, then is X: an inlined call in an expression. Body's
	// jumps stay inside it (Structurize has run on it).
	Seq struct {
		Body []Stmt
		X    Value
	}
	// Shape reads view View's extent (runtime.Extent's methods): its
	// dimension Comp (0 past its rank), its Rank, its Size, or whether it
	// Contains Index. Dimensions past 0 come from the ampExtents push array
	// (Kernel.Extents).
	Shape struct {
		View  int
		What  ShapeOp
		Comp  Value
		Index [3]Value
	}
)

// BuiltinFn is a math function of the GPU's.
type BuiltinFn uint8

// The math functions (package fmath's of the same names; InverseSqrt is
// fmath.Rsqrt, FAbs fmath.Abs).
const (
	Sqrt BuiltinFn = iota + 1
	InverseSqrt
	Floor
	Ceil
	Trunc
	RoundEven
	FAbs
	BitCount   // the set bits of a uint32, an Int32
	BitReverse // a uint32's bits reversed
	FindLSB    // the lowest set bit's index of a uint32, -1 for 0: an Int32
	FindMSB    // the highest set bit's index of a uint32, -1 for 0: an Int32
	MulHi      // the high 32 bits of the 64-bit product of two uint32s
	LowWord    // a Float64's low 32 bits, a Uint32
	HighWord   // a Float64's high 32 bits, a Uint32
	Pack64     // the Float64 of low and high words
	IsNaN      // whether a float is a NaN: a Bool
	IsInf      // whether a float is an infinity: a Bool
)

var builtinNames = [...]string{"", "sqrt", "inversesqrt", "floor", "ceil", "trunc", "roundEven", "abs",
	"bitCount", "bitfieldReverse", "findLSB", "findMSB", "mulHi", "lowWord", "highWord", "pack64", "isnan", "isinf"}

// String returns the GLSL name of the function.
func (f BuiltinFn) String() string {
	if int(f) < len(builtinNames) {
		return builtinNames[f]
	}
	return fmt.Sprintf("BuiltinFn(%d)", f)
}

// TileWhat names an index of a Tiled body.
type TileWhat uint8

// The indices of a thread of a tile (runtime.TiledIndex's fields).
const (
	Global TileWhat = iota + 1
	Local
	Tile
	TileOrigin
)

var tileNames = [...]string{"", "Global", "Local", "Tile", "TileOrigin"}

// String returns the TiledIndex field's name.
func (w TileWhat) String() string {
	if int(w) < len(tileNames) {
		return tileNames[w]
	}
	return fmt.Sprintf("TileWhat(%d)", w)
}

// AtomicOp is an atomic read-modify-write operation.
type AtomicOp uint8

// The atomic operations (runtime.Atomic* and the views' Atomic methods).
// Floats have AtomicAdd, AtomicSub and AtomicExchange only.
const (
	AtomicAdd AtomicOp = iota + 1
	AtomicSub
	AtomicExchange
	AtomicMin
	AtomicMax
	AtomicAnd
	AtomicOr
	AtomicXor
	AtomicCompareExchange
	AtomicLoad
)

var atomicNames = [...]string{"", "Add", "Sub", "Exchange", "Min", "Max", "And", "Or", "Xor",
	"CompareExchange", "Load"}

// String returns the operation's name without "Atomic".
func (o AtomicOp) String() string {
	if int(o) < len(atomicNames) {
		return atomicNames[o]
	}
	return fmt.Sprintf("AtomicOp(%d)", o)
}

// Fence names the memory a barrier or fence orders (C++ AMP's fences).
type Fence uint8

// The fences: all memory (tile_barrier::wait and
// wait_with_all_memory_fence), global memory (the views) and tile_static
// memory.
const (
	FenceAll Fence = iota + 1
	FenceGlobal
	FenceTileStatic
)

// ShapeOp is what a Shape reads.
type ShapeOp uint8

// The extent's methods.
const (
	Dim ShapeOp = iota + 1
	Rank
	Size
	Contains
)

func (c *Const) Type() Type { return c.T }
func (l *Load) Type() Type {
	if len(l.Path) > 0 {
		return l.T
	}
	return l.Var.Type
}
func (m *Make) Type() Type    { return m.T }
func (e *Extract) Type() Type { return e.T }
func (z *Zero) Type() Type    { return z.T }
func (*Make) value()          {}
func (b *Builtin) Type() Type {
	switch b.Fn {
	case BitCount, FindLSB, FindMSB:
		return Int32
	case BitReverse, MulHi, LowWord, HighWord:
		return Uint32
	case Pack64:
		return Float64
	case IsNaN, IsInf:
		return Bool
	}
	return Float32
}
func (*Builtin) value()          {}
func (*Extract) value()          {}
func (*Zero) value()             {}
func (l *LoadScalar) Type() Type { return l.T }
func (l *ViewLoad) Type() Type   { return l.T }
func (*ThreadIndex) Type() Type  { return Int32 }
func (u *Unary) Type() Type      { return u.X.Type() }
func (c *Convert) Type() Type    { return c.To }
func (b *Bits) Type() Type       { return b.To }
func (s *Select) Type() Type     { return s.X.Type() }
func (*Select) value()           {}
func (s *Shape) Type() Type {
	if s.What == Contains {
		return Bool
	}
	return Int32
}
func (*Shape) value()            {}
func (*TileIndex) Type() Type    { return Int32 }
func (*TileShape) Type() Type    { return Int32 }
func (l *SharedLoad) Type() Type { return l.T }
func (*SharedLen) Type() Type    { return Int32 }
func (a *Atomic) Type() Type     { return a.T }
func (s *Seq) Type() Type        { return s.X.Type() }
func (*TileIndex) value()        {}
func (*TileShape) value()        {}
func (*SharedLoad) value()       {}
func (*SharedLen) value()        {}
func (*Atomic) value()           {}
func (*Seq) value()              {}
func (*Bits) value()             {}
func (*Const) value()            {}
func (*Load) value()             {}
func (*LoadScalar) value()       {}
func (*ViewLoad) value()         {}
func (*ViewLoad4) value()        {}
func (l *ViewLoad4) Type() Type  { return l.T }
func (*ThreadIndex) value()      {}
func (*Unary) value()            {}
func (*Binary) value()           {}
func (*Convert) value()          {}

// Type implements Value: Bool for comparisons and && ||, else the operands'.
func (b *Binary) Type() Type {
	if b.Op.IsCompare() || b.Op == And || b.Op == Or {
		return Bool
	}
	return b.X.Type()
}

// Stmt is a statement.
type Stmt interface{ stmt() }

type (
	// Store writes Value into a local variable, or the part of it that
	// Path selects (as Load's).
	Store struct {
		Var   *Var
		Path  []Value
		Value Value
	}
	// ViewStore writes Value into element Index of view View.
	ViewStore struct {
		View  int
		Index [3]Value
		Value Value
	}
	// ViewStore4 writes the array of four Value into element Index of view
	// View and the three after it (Set4's).
	ViewStore4 struct {
		View  int
		Index [3]Value
		Value Value
	}
	// If runs Then where Cond holds, else Else.
	If struct {
		Cond       Value
		Then, Else []Stmt
	}
	// Loop runs Body while Cond holds (nil: forever), then Post, Go's for
	// loop: a Continue runs Post next, a Break leaves the loop.
	Loop struct {
		Cond       Value
		Body, Post []Stmt
	}
	// Break leaves loop Loop, an enclosing one (nil: the innermost). The
	// writers take only the innermost: Structurize rewrites the others.
	Break struct{ Loop *Loop }
	// Continue ends the iteration of loop Loop, an enclosing one (nil: the
	// innermost).
	Continue struct{ Loop *Loop }
	// Return ends the body for this point.
	Return struct{}
	// SharedStore writes Value into element Index of tile_static array
	// Array, or the part of it that Path selects.
	SharedStore struct {
		Array        int
		Index, Value Value
		Path         []Value
	}
	// Barrier waits for every thread of the tile, ordering the memory
	// Fence names around it (tile_barrier's waits); with NoWait it is that
	// fence alone (runtime.AllMemoryFence and the others).
	Barrier struct {
		Fence  Fence
		NoWait bool
	}
	// Eval evaluates X for its effect (an atomic whose result is dropped).
	Eval struct{ X Value }
)

func (*Store) stmt()       {}
func (*ViewStore) stmt()   {}
func (*ViewStore4) stmt()  {}
func (*If) stmt()          {}
func (*Loop) stmt()        {}
func (*Break) stmt()       {}
func (*Continue) stmt()    {}
func (*Return) stmt()      {}
func (*SharedStore) stmt() {}
func (*Barrier) stmt()     {}
func (*Eval) stmt()        {}

// String prints the kernel as Go-like text, for tests and for reading.
func (k *Kernel) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "kernel %s\n", k.Name)
	for i, v := range k.Views {
		fmt.Fprintf(&b, "  view %d %s []%s written=%v\n", i, v.Name, v.Elem, v.Written)
	}
	for i, s := range k.Scalars {
		fmt.Fprintf(&b, "  scalar %d %s %s\n", i, s.Name, s.Type)
	}
	for i, s := range k.Shared {
		fmt.Fprintf(&b, "  shared %d []%s [%s] bits=%v\n", i, s.Elem, k.expr(s.Size), s.Bits)
	}
	for _, v := range k.Locals {
		fmt.Fprintf(&b, "  var %s %s\n", v.Name, k.TypeName(v.Type))
	}
	k.printStmts(&b, k.Body, 1)
	return b.String()
}

func (k *Kernel) printStmts(b *strings.Builder, list []Stmt, depth int) {
	ind := strings.Repeat("\t", depth)
	for _, s := range list {
		switch s := s.(type) {
		case *Store:
			fmt.Fprintf(b, "%s%s%s = %s\n", ind, s.Var.Name, k.path(s.Path), k.expr(s.Value))
		case *ViewStore:
			fmt.Fprintf(b, "%s%s[%s] = %s\n", ind, k.Views[s.View].Name, k.index(s.Index), k.expr(s.Value))
		case *ViewStore4:
			fmt.Fprintf(b, "%s%s.Set4(%s, %s)\n", ind, k.Views[s.View].Name, k.index(s.Index), k.expr(s.Value))
		case *If:
			fmt.Fprintf(b, "%sif %s {\n", ind, k.expr(s.Cond))
			k.printStmts(b, s.Then, depth+1)
			if len(s.Else) > 0 {
				fmt.Fprintf(b, "%s} else {\n", ind)
				k.printStmts(b, s.Else, depth+1)
			}
			fmt.Fprintf(b, "%s}\n", ind)
		case *Loop:
			cond := "true"
			if s.Cond != nil {
				cond = k.expr(s.Cond)
			}
			fmt.Fprintf(b, "%sloop %s {\n", ind, cond)
			k.printStmts(b, s.Body, depth+1)
			fmt.Fprintf(b, "%s} continue {\n", ind)
			k.printStmts(b, s.Post, depth+1)
			fmt.Fprintf(b, "%s}\n", ind)
		case *Break:
			fmt.Fprintf(b, "%sbreak\n", ind)
		case *Continue:
			fmt.Fprintf(b, "%scontinue\n", ind)
		case *Return:
			fmt.Fprintf(b, "%sreturn\n", ind)
		case *SharedStore:
			fmt.Fprintf(b, "%s%s[%s]%s = %s\n", ind, k.Shared[s.Array].Name, k.expr(s.Index), k.path(s.Path),
				k.expr(s.Value))
		case *Barrier:
			w := "wait"
			if s.NoWait {
				w = "fence"
			}
			fmt.Fprintf(b, "%s%s %s\n", ind, w, [...]string{"", "all", "global", "tile_static"}[s.Fence])
		case *Eval:
			fmt.Fprintf(b, "%s%s\n", ind, k.expr(s.X))
		}
	}
}

func (k *Kernel) path(p []Value) string {
	s := ""
	for _, x := range p {
		s += "[" + k.expr(x) + "]"
	}
	return s
}

func (k *Kernel) index(ix [3]Value) string {
	return k.expr(ix[0]) + ", " + k.expr(ix[1]) + ", " + k.expr(ix[2])
}

func (k *Kernel) expr(v Value) string {
	switch v := v.(type) {
	case *Const:
		if v.T == Float32 {
			return fmt.Sprintf("f32(%#08x)", v.Bits)
		}
		if v.T == Float64 {
			return fmt.Sprintf("f64(%#08x%08x)", v.Hi, v.Bits)
		}
		if v.T == Int32 {
			return fmt.Sprint(int32(v.Bits))
		}
		return fmt.Sprintf("%s(%d)", v.T, v.Bits)
	case *Load:
		return v.Var.Name + k.path(v.Path)
	case *Make:
		return k.TypeName(v.T) + "{" + k.list(v.Parts) + "}"
	case *Extract:
		return fmt.Sprintf("%s.%d", k.expr(v.X), v.Index)
	case *Zero:
		return k.TypeName(v.T) + "{}"
	case *Builtin:
		return v.Fn.String() + "(" + k.list(v.Args) + ")"
	case *LoadScalar:
		return "k." + k.Scalars[v.Index].Name
	case *ViewLoad:
		return fmt.Sprintf("%s[%s]", k.Views[v.View].Name, k.index(v.Index))
	case *ViewLoad4:
		return fmt.Sprintf("%s.At4(%s)", k.Views[v.View].Name, k.index(v.Index))
	case *ThreadIndex:
		return fmt.Sprintf("i[%d]", v.Comp)
	case *Unary:
		return v.Op.String() + k.expr(v.X)
	case *Binary:
		f := ""
		if v.Fuse {
			f = "fused"
		}
		return "(" + k.expr(v.X) + " " + v.Op.String() + f + " " + k.expr(v.Y) + ")"
	case *Convert:
		return fmt.Sprintf("%s(%s)", v.To, k.expr(v.X))
	case *Bits:
		return fmt.Sprintf("bits_%s(%s)", v.To, k.expr(v.X))
	case *Select:
		return fmt.Sprintf("(%s ? %s : %s)", k.expr(v.Cond), k.expr(v.X), k.expr(v.Y))
	case *Shape:
		n := k.Views[v.View].Name
		switch v.What {
		case Dim:
			return fmt.Sprintf("%s.Dim(%s)", n, k.expr(v.Comp))
		case Rank:
			return n + ".Rank()"
		case Size:
			return n + ".Size()"
		}
		return fmt.Sprintf("%s.Contains(%s)", n, k.index(v.Index))
	}
	return k.tiledExpr(v)
}

// list prints values separated by commas.
func (k *Kernel) list(vs []Value) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = k.expr(v)
	}
	return strings.Join(s, ", ")
}

// tiledExpr prints the values of tiled kernels.
func (k *Kernel) tiledExpr(v Value) string {
	switch v := v.(type) {
	case *TileIndex:
		return fmt.Sprintf("t.%s[%d]", v.What, v.Comp)
	case *TileShape:
		switch v.What {
		case Dim:
			return fmt.Sprintf("t.TileExtent.Dim(%s)", k.expr(v.Comp))
		case Rank:
			return "t.TileExtent.Rank()"
		}
		return "t.TileExtent.Size()"
	case *SharedLoad:
		return fmt.Sprintf("%s[%s]%s", k.Shared[v.Array].Name, k.expr(v.Index), k.path(v.Path))
	case *SharedLen:
		return fmt.Sprintf("len(%s)", k.Shared[v.Array].Name)
	case *Atomic:
		target := k.Views[v.Target].Name + "[" + k.index(v.Index) + "]"
		if v.Shared {
			target = k.Shared[v.Target].Name + "[" + k.expr(v.Index[0]) + "]"
		}
		return fmt.Sprintf("atomic%s(%s, %s)", v.Op, target, k.list(v.Args))
	case *Seq:
		var b strings.Builder
		k.printStmts(&b, v.Body, 2)
		return fmt.Sprintf("seq {\n%s\t} %s", b.String(), k.expr(v.X))
	}
	return fmt.Sprintf("?%T", v)
}

// Clone returns a deep copy of v: a value used twice (an inlined function's
// parameter) is written twice, as values have one use each.
func Clone(v Value) Value {
	switch v := v.(type) {
	case *Const:
		c := *v
		return &c
	case *Load:
		c := &Load{Var: v.Var, T: v.T}
		for _, x := range v.Path {
			c.Path = append(c.Path, Clone(x))
		}
		return c
	case *Make:
		c := &Make{T: v.T}
		for _, x := range v.Parts {
			c.Parts = append(c.Parts, Clone(x))
		}
		return c
	case *Extract:
		return &Extract{X: Clone(v.X), Index: v.Index, T: v.T}
	case *Zero:
		c := *v
		return &c
	case *Builtin:
		c := &Builtin{Fn: v.Fn}
		for _, x := range v.Args {
			c.Args = append(c.Args, Clone(x))
		}
		return c
	case *LoadScalar:
		c := *v
		return &c
	case *ViewLoad:
		return &ViewLoad{View: v.View, Index: CloneIndex(v.Index), T: v.T}
	case *ViewLoad4:
		return &ViewLoad4{View: v.View, Index: CloneIndex(v.Index), T: v.T}
	case *ThreadIndex:
		c := *v
		return &c
	case *Unary:
		return &Unary{Op: v.Op, X: Clone(v.X)}
	case *Binary:
		return &Binary{Op: v.Op, X: Clone(v.X), Y: Clone(v.Y), Fuse: v.Fuse}
	case *Convert:
		return &Convert{To: v.To, X: Clone(v.X)}
	case *Bits:
		return &Bits{To: v.To, X: Clone(v.X)}
	case *Select:
		return &Select{Cond: Clone(v.Cond), X: Clone(v.X), Y: Clone(v.Y)}
	case *Shape:
		c := &Shape{View: v.View, What: v.What}
		if v.Comp != nil {
			c.Comp = Clone(v.Comp)
		}
		if v.Index[0] != nil {
			c.Index = CloneIndex(v.Index)
		}
		return c
	case *TileIndex:
		c := *v
		return &c
	case *TileShape:
		c := &TileShape{What: v.What}
		if v.Comp != nil {
			c.Comp = Clone(v.Comp)
		}
		return c
	case *SharedLoad:
		c := &SharedLoad{Array: v.Array, Index: Clone(v.Index), T: v.T}
		for _, x := range v.Path {
			c.Path = append(c.Path, Clone(x))
		}
		return c
	case *SharedLen:
		c := *v
		return &c
	}
	// Atomic and Seq have effects: cloning them would repeat the effect.
	panic(fmt.Sprintf("ir.Clone: %T", v))
}

// HasEffects reports whether evaluating v has an effect (it holds an Atomic
// or a Seq), so that it must be evaluated exactly once: Clone refuses it.
func HasEffects(v Value) bool {
	switch v := v.(type) {
	case *Atomic, *Seq:
		return true
	case *Load:
		return anyEffects(v.Path...)
	case *Make:
		return anyEffects(v.Parts...)
	case *Builtin:
		return anyEffects(v.Args...)
	case *Extract:
		return HasEffects(v.X)
	case *ViewLoad:
		return anyEffects(v.Index[:]...)
	case *ViewLoad4:
		return anyEffects(v.Index[:]...)
	case *Unary:
		return HasEffects(v.X)
	case *Binary:
		return anyEffects(v.X, v.Y)
	case *Convert:
		return HasEffects(v.X)
	case *Bits:
		return HasEffects(v.X)
	case *Select:
		return anyEffects(v.Cond, v.X, v.Y)
	case *Shape:
		return anyEffects(append([]Value{v.Comp}, v.Index[:]...)...)
	case *TileShape:
		return anyEffects(v.Comp)
	case *SharedLoad:
		return anyEffects(append([]Value{v.Index}, v.Path...)...)
	}
	return false
}

func anyEffects(vs ...Value) bool {
	for _, v := range vs {
		if v != nil && HasEffects(v) {
			return true
		}
	}
	return false
}

// CloneIndex clones the three components of an index.
func CloneIndex(ix [3]Value) [3]Value {
	return [3]Value{Clone(ix[0]), Clone(ix[1]), Clone(ix[2])}
}
