package ir_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/goamp/goamp/translate/ir"
)

func TestString(t *testing.T) {
	x := &ir.Var{Name: "x", Type: ir.Int32}
	k := &ir.Kernel{Name: "k", Views: []ir.View{{Name: "In", Elem: ir.Int32}, {Name: "Out", Elem: ir.Float32, Written: true}},
		Scalars: []ir.Scalar{{Name: "N", Type: ir.Int32}}, Locals: []*ir.Var{x}}
	i := [3]ir.Value{&ir.ThreadIndex{Comp: 0}, &ir.Const{T: ir.Int32}, &ir.Const{T: ir.Int32}}
	k.Body = []ir.Stmt{
		&ir.Store{Var: x, Value: &ir.ViewLoad{View: 0, Index: i, T: ir.Int32}},
		&ir.Loop{Cond: &ir.Binary{Op: ir.Lt, X: &ir.Load{Var: x}, Y: &ir.LoadScalar{Index: 0, T: ir.Int32}},
			Body: []ir.Stmt{&ir.If{Cond: &ir.Binary{Op: ir.Eq, X: &ir.Load{Var: x}, Y: &ir.Const{T: ir.Int32, Bits: 3}},
				Then: []ir.Stmt{&ir.Break{}}}},
			Post: []ir.Stmt{&ir.Store{Var: x, Value: &ir.Binary{Op: ir.Add, X: &ir.Load{Var: x},
				Y: &ir.Const{T: ir.Int32, Bits: 1}}}}},
		&ir.ViewStore{View: 1, Index: ir.CloneIndex(i), Value: &ir.Convert{To: ir.Float32, X: &ir.Load{Var: x}}},
		&ir.Return{},
	}
	want := `kernel k
  view 0 In []int32 written=false
  view 1 Out []float32 written=true
  scalar 0 N int32
  var x int32
	x = In[i[0], 0, 0]
	loop (x < k.N) {
		if (x == 3) {
			break
		}
	} continue {
		x = (x + 1)
	}
	Out[i[0], 0, 0] = float32(x)
	return
`
	assert.Equal(t, want, k.String())
}

// TestClone checks that a clone shares no node with its original.
func TestClone(t *testing.T) {
	for _, v := range []ir.Value{
		&ir.Const{T: ir.Float32, Bits: math.Float32bits(1.5)},
		&ir.Binary{Op: ir.Add, X: &ir.ThreadIndex{Comp: 1}, Y: &ir.LoadScalar{Index: 2, T: ir.Int32}},
		&ir.Unary{Op: ir.Neg, X: &ir.Bits{To: ir.Float32, X: &ir.Load{Var: &ir.Var{Name: "u", Type: ir.Uint32}}}},
		&ir.ViewLoad{View: 1, T: ir.Uint32, Index: [3]ir.Value{&ir.Const{T: ir.Int32}, &ir.Const{T: ir.Int32},
			&ir.Const{T: ir.Int32}}},
	} {
		c := ir.Clone(v)
		assert.Equal(t, v, c)
		assert.NotSame(t, v, c)
		if b, ok := v.(*ir.Binary); ok {
			assert.NotSame(t, b.X, c.(*ir.Binary).X)
		}
	}
}

// TestStructurize rewrites a break of the outer loop and a continue of it
// from inside the inner loop into the inner loop's own break, a flag, and
// tests after the inner loop.
func TestStructurize(t *testing.T) {
	x := &ir.Var{Name: "x", Type: ir.Int32}
	outer, inner := &ir.Loop{}, &ir.Loop{}
	c := func(n uint32) ir.Value { return &ir.Const{T: ir.Int32, Bits: n} }
	inner.Body = []ir.Stmt{
		&ir.If{Cond: &ir.Binary{Op: ir.Eq, X: &ir.Load{Var: x}, Y: c(1)}, Then: []ir.Stmt{&ir.Break{Loop: outer}}},
		&ir.If{Cond: &ir.Binary{Op: ir.Eq, X: &ir.Load{Var: x}, Y: c(2)}, Then: []ir.Stmt{&ir.Continue{Loop: outer}}},
		&ir.Break{Loop: inner},
	}
	outer.Body = []ir.Stmt{inner, &ir.Store{Var: x, Value: c(3)}}
	k := &ir.Kernel{Name: "k", Locals: []*ir.Var{x}, Body: []ir.Stmt{outer}}
	ir.Structurize(k)
	want := `kernel k
  var x int32
  var exitFlag_1 int32
	exitFlag_1 = 0
	loop true {
		loop true {
			if (x == 1) {
				exitFlag_1 = 1
				break
			}
			if (x == 2) {
				exitFlag_1 = 2
				break
			}
			break
		} continue {
		}
		if (exitFlag_1 == 1) {
			exitFlag_1 = 0
			break
		}
		if (exitFlag_1 == 2) {
			exitFlag_1 = 0
			continue
		}
		x = 3
	} continue {
	}
`
	assert.Equal(t, want, k.String())
}
