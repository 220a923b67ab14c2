package algo

import (
	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
	"slices"
)

// MatMulF16Out is an element type of MatMulF16's result: float32, or half.Float16
// (the float32 sums rounded once, as they are stored).
type MatMulF16Out interface {
	~float32 | half.Float16
}

// MatMulPath chooses how MatMulF16With computes.
type MatMulPath int

const (
	// MatMulAuto uses the tensor cores (MatMulCooperative) where the device has a
	// cooperative-matrix shape goamp has a kernel for, else MatMulShared.
	MatMulAuto MatMulPath = iota
	// MatMulCooperative uses cooperative matrices (VK_KHR_cooperative_matrix, or
	// VK_NV_cooperative_matrix where the device has only that), and fails
	// with an *accelerator.FeatureError, before anything is discarded, where the device
	// has none that fits (see MatMulF16Cooperative).
	MatMulCooperative
	// MatMulShared uses the shared-memory tiled kernel of MatMul, reading float16 and
	// computing in float32: every Vulkan device with 16-bit storage (lavapipe included);
	// on the CPU, MatMul's blocked float32 kernel over converted copies of a and b.
	MatMulShared
)

// String names the path.
func (p MatMulPath) String() string {
	return enumName(p, "MatMulPath", "auto", "cooperative", "shared")
}

// MatMulF16Options selects the kernel MatMulF16With runs.
type MatMulF16Options struct {
	// Path is the kernel: MatMulAuto (the zero value), MatMulCooperative or MatMulShared.
	Path MatMulPath
	// Tile is the shared-memory kernel's tile, as MatMulOptions.Tile (zero: the default).
	Tile [2]int
	// TransA and TransB multiply by the transpose of a or b, as MatMulOptions's do: a is
	// then K x M, or b N x K. The transposed operand is copied, bit for bit, into scratch
	// memory first.
	TransA, TransB bool
}

// matMulCoopKernels are the cooperative-matrix shapes goamp has a kernel for, in order of
// preference: the program's name (its float16-output variant adds "_h").
var matMulCoopKernels = []struct {
	shape accelerator.CoopMatrixShape
	prog  string
}{
	{accelerator.CoopMatrixShape{M: 16, N: 16, K: 16, A: accelerator.CoopFloat16, B: accelerator.CoopFloat16,
		C: accelerator.CoopFloat32, D: accelerator.CoopFloat32}, "matmul_coop"},
}

// matMulCoopGeom is a cooperative kernel's geometry (matmul_coop.comp's WGM, WGN, TM, TN
// and BK): its tile, subgroups x 32 invocations, computes a bm x bn block of C with
// shared bytes of shared memory.
type matMulCoopGeom struct {
	tile   [2]int
	bm, bn int
	shared int
}

// matMulCoopSubgroup is the subgroup size the cooperative kernels are written for.
const matMulCoopSubgroup = 32

// matMulCoopDefault is matmul_coop.comp's default geometry: 2 x 2 subgroups, each
// computing 64 x 64 of a 128 x 128 block, with two buffers of the padded A (128 x 40
// halves) and B (32 x 136 halves) blocks and 4 subgroups' 16 x 16 float staging areas.
var matMulCoopDefault = matMulCoopGeom{tile: [2]int{4, 32}, bm: 128, bn: 128,
	shared: 2*(128*5+32*17)*16 + 4*16*16*4}

// MatMulF16Cooperative returns the cooperative-matrix shape MatMulF16 uses on acc, and
// whether it uses one at all: acc must report a subgroup-scope 16 x 16 x 16 float16 x
// float16 + float32 shape (Accelerator.CooperativeMatricesKHR, or CooperativeMatrices for
// VK_NV_cooperative_matrix; a shape goamp has a kernel for), subgroups of 32 and 41 KiB of
// shared memory. False for the CPU, lavapipe and devices without cooperative matrices.
func MatMulF16Cooperative(acc *accelerator.Accelerator) (accelerator.CoopMatrixShape, bool) {
	_, s, ok := matMulCoopFor(acc)
	return s, ok
}

// matMulCoopFor returns the cooperative program for acc, its shape, and whether there is
// one: the KHR program (the kernel's name with "_k") where the device reports the shape
// through VK_KHR_cooperative_matrix, else the NV one.
func matMulCoopFor(acc *accelerator.Accelerator) (string, accelerator.CoopMatrixShape, bool) {
	if acc.SubgroupSize() != matMulCoopSubgroup || int(acc.Limits().MaxSharedMemory) < matMulCoopDefault.shared ||
		!acc.Supports16BitStorage() || !acc.SupportsFloat16() {
		return "", accelerator.CoopMatrixShape{}, false
	}
	for _, k := range matMulCoopKernels {
		if slices.Contains(acc.CooperativeMatricesKHR(), k.shape) {
			return k.prog + "_k", k.shape, true
		}
		if slices.Contains(acc.CooperativeMatrices(), k.shape) {
			return k.prog, k.shape, true
		}
	}
	return "", accelerator.CoopMatrixShape{}, false
}

// MatMulF16 computes c = a x b on av for float16 a and b, accumulating in float32: with
// the tensor cores where the device has cooperative matrices (see
// MatMulF16Cooperative), else with the shared-memory kernel. It is MatMulF16With with
// zero options.
func MatMulF16[O MatMulF16Out](av *accelerator.View, a, b *arrayview.View[half.Float16], c *arrayview.View[O]) error {
	return MatMulF16With(av, a, b, c, MatMulF16Options{})
}

// MatMulF16With computes c = a x b on av (nil: where the views live, else the default
// accelerator) with the kernel opt selects: a is M x K, b is K x N, c is M x N, all rank
// 2, any sizes from 1 up. Products of float16 values are exact in float32; the sums are
// float32, in an order that depends on the kernel (tensor cores sum in blocks), so
// results agree with a float64 reference to about K * 2^-24 relative to the sum of
// |a||b|, and a float16 c adds its own rounding (2^-11 relative).
//
// As MatMulWith: c is output-only (discarded before the dispatch), shape errors
// (*ShapeError) come before anything is discarded, and so do feature errors
// (*accelerator.FeatureError: a device without 16-bit storage, or MatMulCooperative on
// one without cooperative matrices); the dispatch is asynchronous on a GPU.
func MatMulF16With[O MatMulF16Out](av *accelerator.View, a, b *arrayview.View[half.Float16], c *arrayview.View[O], opt MatMulF16Options) error {
	return matMulNarrowWith(matMulNarrow[half.Float16, O]{
		op:      "MatMulF16",
		storage: (*accelerator.Accelerator).Supports16BitStorage, storageFeature: "16-bit storage (MatMulF16's float16 a and b)",
		coop: func(acc *accelerator.Accelerator) (string, matMulCoopGeom, bool) {
			prog, _, ok := matMulCoopFor(acc)
			return prog, matMulCoopDefault, ok
		},
		coopFeature: "cooperative matrices of 16x16x16 float16*float16+float32 with 32-wide subgroups (MatMulF16's MatMulCooperative path)",
		host:        matMulF16Host[O],
		kernels: func(a, b *arrayview.View[half.Float16], c *arrayview.View[O], prog string, geom matMulCoopGeom) (coop, tiled runtime.TiledKernel) {
			m, k, n := a.Extent().Dim(0), a.Extent().Dim(1), b.Extent().Dim(1)
			args := matMulF16Args[O]{A: a.ReadOnly(), B: b.ReadOnly(), C: c, M: int32(m), N: int32(n), K: int32(k)}
			return matMulCoop[O]{args, prog, geom}, matMulF16Tiled[O]{args}
		},
	}, av, a, b, c, matMulNarrowOptions(opt))
}

// matMulF16Host is MatMulF16 where the accelerator's storage is host memory: a and b
// converted to float32 (exactly), MatMul's blocked float32 kernel, and c written from its
// float32 result (rounded when c is float16).
func matMulF16Host[O MatMulF16Out](av *accelerator.View, a, b *arrayview.View[half.Float16], c *arrayview.View[O], tile [2]int) error {
	va, vb, err := matMulWidened(a, b, func(dst []float32, src []half.Float16) { half.ToFloat32s(dst, src) })
	if err != nil {
		return err
	}
	m, n := a.Extent().Dim(0), b.Extent().Dim(1)
	cf := make([]float32, m*n)
	vc := arrayview.MustNew(runtime.Ext(m, n), cf)
	defer func() { _, _, _ = va.Close(), vb.Close(), vc.Close() }()
	if err := MatMulWith(av, va, vb, vc, MatMulOptions{Tile: tile}); err != nil {
		return err
	}
	if err := vc.Synchronize(); err != nil {
		return err
	}
	if err := c.Discard(); err != nil {
		return err
	}
	if d, err := c.Data(); err == nil {
		for i, x := range cf {
			d[i] = matMulF16Round[O](x)
		}
		return nil
	}
	for i, x := range cf {
		c.Set(runtime.Idx(i/n, i%n), matMulF16Round[O](x))
	}
	return nil
}

// matMulF16Round converts a float32 sum to O: rounded to nearest even for half.Float16.
func matMulF16Round[O MatMulF16Out](x float32) O {
	var o O
	if p, ok := any(&o).(*half.Float16); ok {
		*p = half.FromFloat32(x)
		return o
	}
	return O(x)
}

// matMulF16Args are the captures of the float16 kernels: the bindings A, B, C (0, 1, 2)
// and the push constants M, N, K.
type matMulF16Args[O MatMulF16Out] struct {
	A       *arrayview.ReadView[half.Float16]
	B       *arrayview.ReadView[half.Float16]
	C       *arrayview.View[O]
	M, N, K int32
}

// tiled is the definition of both float16 kernels, for a tile that computes a bm x bn
// block of C: the tile's threads share the block's elements (thread tid takes elements
// tid, tid + threads, ...), each a float32 sum over K of exact float16 products, stored
// inside C only. The GPU bodies compute the same sums in blocks of K.
func (k matMulF16Args[O]) tiled(t runtime.TiledIndex, bm, bn int) {
	matMulBlockEach(t, bm, bn, int(k.M), int(k.N), func(m, n int) {
		var sum float32
		for p := 0; p < int(k.K); p++ {
			sum += k.A.At(runtime.Idx(m, p)).Float32() * k.B.At(runtime.Idx(p, n)).Float32()
		}
		k.C.Set(runtime.Idx(m, n), matMulF16Round[O](sum))
	})
}

// matMulF16Tiled is the shared-memory kernel over float16 data: matmul_tiled.comp with
// float16 loads (variant matmul_tiled_h, or matmul_tiled_hh for a float16 C), each thread
// computing an 8 x 8 block of C as matMulTiled's threads do.
type matMulF16Tiled[O MatMulF16Out] struct{ matMulF16Args[O] }

// Program is the GPU body: matmul_tiled_h, or matmul_tiled_hh for a float16 C.
func (matMulF16Tiled[O]) Program() *runtime.Program {
	if matMulF16HalfOut[O]() {
		return shaders.MustProgram("matmul_tiled_hh", 2)
	}
	return shaders.MustProgram("matmul_tiled_h", 2)
}

// SharedBytes is the GPU body's shared memory (MatMulSharedBytes).
func (matMulF16Tiled[O]) SharedBytes(tile [3]int) int { return MatMulSharedBytes(tile[0], tile[1]) }

// Tiled is the definition: the tile computes the (8 rows) x (8 columns) block of C.
func (k matMulF16Tiled[O]) Tiled(t runtime.TiledIndex) {
	k.tiled(t, 8*t.TileExtent.Dim(0), 8*t.TileExtent.Dim(1))
}

// matMulCoop is the cooperative-matrix (tensor core) kernel: shaders/glsl/matmul_coop.comp,
// a tile of 8 x 32 invocations computing a 128 x 128 block of C.
type matMulCoop[O MatMulF16Out] struct {
	matMulF16Args[O]
	prog string         `amp:"-"` // the program for the device's shape (matMulCoopKernels)
	geom matMulCoopGeom `amp:"-"` // its geometry
}

// domain is the domain of a kernel of geometry g computing an m x n C.
func (g matMulCoopGeom) domain(m, n int) runtime.TiledExtent {
	rows, cols := ceilDiv(m, g.bm)*g.tile[0], ceilDiv(n, g.bn)*g.tile[1]
	return runtime.Ext(rows, cols).Tile(g.tile[0], g.tile[1])
}

// Program is the GPU body: the shape's program, with "_h" for a float16 C.
func (k matMulCoop[O]) Program() *runtime.Program {
	if matMulF16HalfOut[O]() {
		return shaders.MustProgram(k.prog+"_h", 2)
	}
	return shaders.MustProgram(k.prog, 2)
}

// SharedBytes is the GPU body's shared memory.
func (k matMulCoop[O]) SharedBytes([3]int) int { return k.geom.shared }

// Tiled is the definition: the tile computes its block of C.
func (k matMulCoop[O]) Tiled(t runtime.TiledIndex) { k.tiled(t, k.geom.bm, k.geom.bn) }

// matMulF16HalfOut reports whether O is half.Float16 (else its underlying type is float32).
func matMulF16HalfOut[O MatMulF16Out]() bool {
	var o O
	_, ok := any(o).(half.Float16)
	return ok
}
