package spvgen_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/internal/spirv"
	"github.com/goamp/goamp/internal/spvwords"
	"github.com/goamp/goamp/translate/ir"
	"github.com/goamp/goamp/translate/spvgen"
)

// tiled is a Tiled kernel over int32 view In (read) and Out (written), with
// a tile_static array s of the tile's size, whose body is body.
func tiled(body ...ir.Stmt) *ir.Kernel {
	return &ir.Kernel{Name: "tiled", Tiled: true,
		Views: []ir.View{{Name: "In", Elem: ir.Int32, Read: true},
			{Name: "Out", Elem: ir.Int32, Written: true, Read: true}},
		Shared: []ir.Shared{{Name: "s", Elem: ir.Int32, Size: &ir.TileShape{What: ir.Size}}},
		Body:   body}
}

// global is the thread's global index.
func global() [3]ir.Value {
	return [3]ir.Value{&ir.TileIndex{What: ir.Global, Comp: 0}, &ir.TileIndex{What: ir.Global, Comp: 1},
		&ir.TileIndex{What: ir.Global, Comp: 2}}
}

// constants maps the module's integer constants' ids to their values.
func constants(insts []spvwords.Inst) map[uint32]uint32 {
	c := map[uint32]uint32{}
	for _, in := range insts {
		if in.Op == spirv.OpConstant && len(in.Args) == 3 {
			c[in.Args[1]] = in.Args[2]
		}
	}
	return c
}

// TestBarriers checks each C++ AMP wait and fence: a workgroup barrier (or
// a memory barrier alone) at Workgroup scope, acquire-release on the memory
// the fence names: the views (Uniform), tile_static memory (Workgroup) or
// both.
func TestBarriers(t *testing.T) {
	const acqRel, uniform, workgroup = 0x8, 0x40, 0x100
	for _, tc := range []struct {
		name string
		b    ir.Barrier
		op   spirv.Op
		sem  uint32
	}{
		{"Wait", ir.Barrier{Fence: ir.FenceAll}, spirv.OpControlBarrier, acqRel | uniform | workgroup},
		{"WaitWithGlobalMemoryFence", ir.Barrier{Fence: ir.FenceGlobal}, spirv.OpControlBarrier, acqRel | uniform},
		{"WaitWithTileStaticMemoryFence", ir.Barrier{Fence: ir.FenceTileStatic}, spirv.OpControlBarrier,
			acqRel | workgroup},
		{"AllMemoryFence", ir.Barrier{Fence: ir.FenceAll, NoWait: true}, spirv.OpMemoryBarrier,
			acqRel | uniform | workgroup},
		{"GlobalMemoryFence", ir.Barrier{Fence: ir.FenceGlobal, NoWait: true}, spirv.OpMemoryBarrier, acqRel | uniform},
		{"TileStaticMemoryFence", ir.Barrier{Fence: ir.FenceTileStatic, NoWait: true}, spirv.OpMemoryBarrier,
			acqRel | workgroup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.b
			k := tiled(&ir.SharedStore{Array: 0, Index: &ir.TileIndex{What: ir.Local}, Value: &ir.ViewLoad{View: 0,
				Index: global(), T: ir.Int32}}, &b,
				&ir.ViewStore{View: 1, Index: global(), Value: &ir.SharedLoad{Array: 0, T: ir.Int32,
					Index: &ir.Const{T: ir.Int32}}})
			spv, err := spvgen.Write(k)
			require.NoError(t, err)
			_, insts, err := spvwords.Parse(spv)
			require.NoError(t, err)
			c := constants(insts)
			var got [][]uint32
			coherent := false
			for _, in := range insts {
				switch in.Op {
				case spirv.OpControlBarrier, spirv.OpMemoryBarrier:
					vals := []uint32{uint32(in.Op)}
					for _, id := range in.Args {
						vals = append(vals, c[id])
					}
					got = append(got, vals)
				case spirv.OpMemberDecorate:
					coherent = coherent || spirv.Decoration(in.Args[2]) == spirv.DecorationCoherent
				}
			}
			wg := uint32(spirv.ScopeWorkgroup)
			want := []uint32{uint32(tc.op), wg, wg, tc.sem}
			if tc.op == spirv.OpMemoryBarrier {
				want = []uint32{uint32(tc.op), wg, tc.sem}
			}
			assert.Equal(t, [][]uint32{want}, got)
			assert.Equal(t, tc.op == spirv.OpControlBarrier, coherent,
				"Out, read and written, is Coherent where the tile waits")
			validate(t, spv)
		})
	}
}

// TestTiledModule checks a tiled module's interface: no grid loop
// (AMP_GRID_LOOP absent), the global invocation id read, and a Workgroup
// array whose length is a specialization-constant expression of the
// workgroup size.
func TestTiledModule(t *testing.T) {
	k := tiled(&ir.SharedStore{Array: 0, Index: &ir.TileIndex{What: ir.Local}, Value: &ir.Const{T: ir.Int32, Bits: 7}},
		&ir.Barrier{Fence: ir.FenceTileStatic},
		&ir.ViewStore{View: 1, Index: global(), Value: &ir.Binary{Op: ir.Add,
			X: &ir.SharedLen{Array: 0}, Y: &ir.TileShape{What: ir.Dim, Comp: &ir.Const{T: ir.Int32, Bits: 1}}}})
	spv, err := spvgen.Write(k)
	require.NoError(t, err)
	_, insts, err := spvwords.Parse(spv)
	require.NoError(t, err)
	specIDs, builtins := map[uint32]bool{}, map[spirv.BuiltIn]bool{}
	specOps := map[uint32]bool{}
	var arrayLen uint32
	for _, in := range insts {
		switch {
		case in.Op == spirv.OpDecorate && spirv.Decoration(in.Args[1]) == spirv.DecorationSpecId:
			specIDs[in.Args[2]] = true
		case in.Op == spirv.OpDecorate && spirv.Decoration(in.Args[1]) == spirv.DecorationBuiltIn:
			builtins[spirv.BuiltIn(in.Args[2])] = true
		case in.Op == spirv.OpSpecConstantOp:
			specOps[in.Args[1]] = true
		case in.Op == spirv.OpTypeArray:
			arrayLen = in.Args[2]
		}
	}
	assert.Equal(t, map[uint32]bool{0: true, 1: true, 2: true, 3: true}, specIDs, "no AMP_GRID_LOOP")
	assert.True(t, builtins[spirv.BuiltInGlobalInvocationId])
	assert.False(t, builtins[spirv.BuiltInNumWorkgroups])
	assert.True(t, specOps[arrayLen], "the tile_static array's length is the tile's size")
	validate(t, spv)
}

// TestAtomics checks the opcode of each atomic by element type and where
// it applies: Device scope on a view, Workgroup scope on a tile_static
// array; floats held as bits, Add a compare-exchange loop.
func TestAtomics(t *testing.T) {
	for _, tc := range []struct {
		name   string
		op     ir.AtomicOp
		elem   ir.Type
		shared bool
		want   spirv.Op
		scope  spirv.Scope
	}{
		{"view int32 Max", ir.AtomicMax, ir.Int32, false, spirv.OpAtomicSMax, spirv.ScopeDevice},
		{"view uint32 Max", ir.AtomicMax, ir.Uint32, false, spirv.OpAtomicUMax, spirv.ScopeDevice},
		{"view uint32 Min", ir.AtomicMin, ir.Uint32, false, spirv.OpAtomicUMin, spirv.ScopeDevice},
		{"view int32 Sub", ir.AtomicSub, ir.Int32, false, spirv.OpAtomicISub, spirv.ScopeDevice},
		{"shared int32 Add", ir.AtomicAdd, ir.Int32, true, spirv.OpAtomicIAdd, spirv.ScopeWorkgroup},
		{"shared uint32 Xor", ir.AtomicXor, ir.Uint32, true, spirv.OpAtomicXor, spirv.ScopeWorkgroup},
		{"view float32 Add", ir.AtomicAdd, ir.Float32, false, spirv.OpAtomicCompareExchange, spirv.ScopeDevice},
		{"shared float32 Exchange", ir.AtomicExchange, ir.Float32, true, spirv.OpAtomicExchange, spirv.ScopeWorkgroup},
	} {
		t.Run(tc.name, func(t *testing.T) {
			one := &ir.Const{T: tc.elem, Bits: 1}
			a := &ir.Atomic{Op: tc.op, Shared: tc.shared, Target: 1, Index: global(), Args: []ir.Value{one}, T: tc.elem}
			k := tiled(&ir.Eval{X: a})
			k.Views[1].Elem = tc.elem
			k.Views[1].Bits = tc.elem == ir.Float32 && !tc.shared
			k.Shared = append(k.Shared, ir.Shared{Name: "t", Elem: tc.elem, Size: &ir.Const{T: ir.Int32, Bits: 4},
				Bits: tc.elem == ir.Float32})
			if tc.shared {
				a.Index = [3]ir.Value{&ir.Const{T: ir.Int32, Bits: 3}}
			}
			spv, err := spvgen.Write(k)
			require.NoError(t, err)
			_, insts, err := spvwords.Parse(spv)
			require.NoError(t, err)
			c := constants(insts)
			found := false
			for _, in := range insts {
				if in.Op == tc.want {
					found = true
					assert.Equal(t, uint32(tc.scope), c[in.Args[3]], "scope")
				}
			}
			assert.True(t, found, "no %s", tc.want)
			validate(t, spv)
		})
	}
}
