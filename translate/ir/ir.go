// Package ir is the kernel translator's intermediate representation: a kernel
// as typed values and statements with structured control flow (if, loops with
// a continue block, break, continue, return) and explicit loads and stores of
// its local variables and views, between the checked Go syntax and the
// writers of SPIR-V, GLSL and the CPU bodies. Values are trees without
// sharing: each value has one use, so a writer may emit each where it meets
// it.
//
// It covers elementwise (Each) kernels over views of 32-bit scalars for now;
// what it does not cover the lowering refuses by name.
package ir

import (
	"fmt"
	"strings"
)

// Type is the type of a value: one of the scalar types.
type Type uint8

// The scalar types. Go's int is Int32 on the GPU (the runtime refuses a field
// whose value does not fit).
const (
	Invalid Type = iota
	Bool
	Int32
	Uint32
	Float32
)

var typeNames = [...]string{"invalid", "bool", "int32", "uint32", "float32"}

// String returns the Go name of the type.
func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// IsInt reports whether t is Int32 or Uint32.
func (t Type) IsInt() bool { return t == Int32 || t == Uint32 }

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
	// Body is the Each body, run once per point of the domain.
	Body []Stmt
	// Extents is how many views the ampExtents push-constant array (after
	// the scalars) covers, 2 words each: up to the last view whose
	// dimensions past 0 the body reads (Shape), or 0 for no array.
	Extents int
}

// View is a data field: a buffer of Elem values.
type View struct {
	Name string
	Elem Type
	// Written says the body stores into the view somewhere.
	Written bool
}

// Scalar is a push-constant scalar field: one 32-bit word. A Bool is
// pushed as a uint32 0 or 1.
type Scalar struct {
	Name string
	Type Type
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
	// Bool: 0 or 1).
	Const struct {
		T    Type
		Bits uint32
	}
	// Load reads a local variable.
	Load struct{ Var *Var }
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

// ShapeOp is what a Shape reads.
type ShapeOp uint8

// The extent's methods.
const (
	Dim ShapeOp = iota + 1
	Rank
	Size
	Contains
)

func (c *Const) Type() Type      { return c.T }
func (l *Load) Type() Type       { return l.Var.Type }
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
func (*Shape) value()       {}
func (*Bits) value()        {}
func (*Const) value()       {}
func (*Load) value()        {}
func (*LoadScalar) value()  {}
func (*ViewLoad) value()    {}
func (*ThreadIndex) value() {}
func (*Unary) value()       {}
func (*Binary) value()      {}
func (*Convert) value()     {}

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
	// Store writes Value into a local variable.
	Store struct {
		Var   *Var
		Value Value
	}
	// ViewStore writes Value into element Index of view View.
	ViewStore struct {
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
)

func (*Store) stmt()     {}
func (*ViewStore) stmt() {}
func (*If) stmt()        {}
func (*Loop) stmt()      {}
func (*Break) stmt()     {}
func (*Continue) stmt()  {}
func (*Return) stmt()    {}

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
	for _, v := range k.Locals {
		fmt.Fprintf(&b, "  var %s %s\n", v.Name, v.Type)
	}
	k.printStmts(&b, k.Body, 1)
	return b.String()
}

func (k *Kernel) printStmts(b *strings.Builder, list []Stmt, depth int) {
	ind := strings.Repeat("\t", depth)
	for _, s := range list {
		switch s := s.(type) {
		case *Store:
			fmt.Fprintf(b, "%s%s = %s\n", ind, s.Var.Name, k.expr(s.Value))
		case *ViewStore:
			fmt.Fprintf(b, "%s%s[%s] = %s\n", ind, k.Views[s.View].Name, k.index(s.Index), k.expr(s.Value))
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
		}
	}
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
		if v.T == Int32 {
			return fmt.Sprint(int32(v.Bits))
		}
		return fmt.Sprintf("%s(%d)", v.T, v.Bits)
	case *Load:
		return v.Var.Name
	case *LoadScalar:
		return "k." + k.Scalars[v.Index].Name
	case *ViewLoad:
		return fmt.Sprintf("%s[%s]", k.Views[v.View].Name, k.index(v.Index))
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
		c := *v
		return &c
	case *LoadScalar:
		c := *v
		return &c
	case *ViewLoad:
		return &ViewLoad{View: v.View, Index: CloneIndex(v.Index), T: v.T}
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
	}
	panic(fmt.Sprintf("ir.Clone: %T", v))
}

// CloneIndex clones the three components of an index.
func CloneIndex(ix [3]Value) [3]Value {
	return [3]Value{Clone(ix[0]), Clone(ix[1]), Clone(ix[2])}
}
