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

// TestEffects checks which values have an effect (an atomic, an inlined
// call's statements), which Clone refuses and the lowering evaluates once.
func TestEffects(t *testing.T) {
	i := func() ir.Value { return &ir.Const{T: ir.Int32, Bits: 1} }
	atomic := &ir.Atomic{Op: ir.AtomicAdd, Shared: true, Index: [3]ir.Value{i()}, Args: []ir.Value{i()}, T: ir.Int32}
	seq := &ir.Seq{Body: []ir.Stmt{&ir.Barrier{Fence: ir.FenceAll}}, X: i()}
	for _, tc := range []struct {
		name    string
		v       ir.Value
		effects bool
	}{
		{"atomic", atomic, true},
		{"seq", seq, true},
		{"an atomic's sum", &ir.Binary{Op: ir.Add, X: i(), Y: atomic}, true},
		{"an element at a seq", &ir.SharedLoad{Index: seq, T: ir.Int32}, true},
		{"a part at an atomic", &ir.Load{Var: &ir.Var{Type: ir.FirstComposite}, Path: []ir.Value{atomic}, T: ir.Int32},
			true},
		{"a tile index", &ir.Binary{Op: ir.Add, X: &ir.TileIndex{What: ir.Local}, Y: &ir.TileShape{What: ir.Size}},
			false},
		{"a vector", &ir.Make{T: ir.FirstComposite, Parts: []ir.Value{i(), &ir.Builtin{Fn: ir.Sqrt,
			Args: []ir.Value{&ir.SharedLen{}}}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.effects, ir.HasEffects(tc.v))
			if tc.effects {
				assert.Panics(t, func() { ir.Clone(tc.v) })
				return
			}
			c := ir.Clone(tc.v)
			assert.Equal(t, tc.v, c)
			assert.NotSame(t, tc.v, c)
		})
	}
}

// TestTiledString prints a tiled kernel's nodes.
func TestTiledString(t *testing.T) {
	k := &ir.Kernel{Name: "t", Tiled: true, Views: []ir.View{{Name: "Out", Elem: ir.Int32, Written: true}},
		Shared: []ir.Shared{{Name: "s", Elem: ir.Int32, Size: &ir.TileShape{What: ir.Size}}}}
	l := &ir.TileIndex{What: ir.Local}
	k.Body = []ir.Stmt{
		&ir.SharedStore{Array: 0, Index: l, Value: &ir.TileShape{What: ir.Dim, Comp: &ir.Const{T: ir.Int32, Bits: 1}}},
		&ir.Barrier{Fence: ir.FenceTileStatic},
		&ir.Eval{X: &ir.Atomic{Op: ir.AtomicMax, Target: 0, Index: [3]ir.Value{&ir.TileIndex{What: ir.Tile},
			&ir.Const{T: ir.Int32}, &ir.Const{T: ir.Int32}}, Args: []ir.Value{&ir.SharedLoad{Array: 0,
			Index: &ir.SharedLen{Array: 0}, T: ir.Int32}}, T: ir.Int32}},
		&ir.Barrier{Fence: ir.FenceGlobal, NoWait: true},
	}
	want := `kernel t
  view 0 Out []int32 written=true
  shared 0 []int32 [t.TileExtent.Size()] bits=false
	s[t.Local[0]] = t.TileExtent.Dim(1)
	wait tile_static
	atomicMax(Out[t.Tile[0], 0, 0], s[len(s)])
	fence global
`
	assert.Equal(t, want, k.String())
}
