package algo

import (
	"slices"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// MatMulI8Options selects the kernel MatMulI8With runs.
type MatMulI8Options struct {
	// Path is the kernel: MatMulAuto (the zero value), MatMulCooperative (the tensor
	// cores' int8 x int8 -> int32 matrices) or MatMulShared (the shared-memory tiled kernel,
	// reading int8 and computing in int32).
	Path MatMulPath
	// Tile is the shared-memory kernel's tile, as MatMulOptions.Tile (zero: the default).
	Tile [2]int
	// TransA and TransB multiply by the transpose of a or b, as MatMulOptions's do: a is
	// then K x M, or b N x K. The transposed operand is copied into scratch memory first.
	TransA, TransB bool
}

// matMulI8Shape is the cooperative-matrix shape MatMulI8's tensor-core kernel is written
// for: KHR's subgroup-scope 16 x 16 x 32 int8 x int8 + int32.
var matMulI8Shape = accelerator.CoopMatrixShape{M: 16, N: 16, K: 32, A: accelerator.CoopInt8, B: accelerator.CoopInt8,
	C: accelerator.CoopInt32, D: accelerator.CoopInt32}

// matMulI8Geom is matmul_coop_k_i8's geometry: matmul_coop.comp's 2 x 2 subgroups of 64
// x 64 with K steps of 64 (BK=64, variants.txt): two buffers of the padded A (128 x 80
// bytes) and B (64 x 144 bytes) blocks and 4 subgroups' 16 x 16 int32 staging areas.
var matMulI8Geom = matMulCoopGeom{tile: [2]int{4, 32}, bm: 128, bn: 128, shared: 2*(128*5+64*9)*16 + 4*16*16*4}

// MatMulI8Cooperative returns the cooperative-matrix shape MatMulI8 uses on acc and
// whether it uses one: acc must report KHR's subgroup-scope 16 x 16 x 32 int8 x int8 +
// int32 shape (Accelerator.CooperativeMatricesKHR), 8-bit storage and arithmetic,
// subgroups of 32 and the kernel's 42 KiB of shared memory. False for the CPU, lavapipe
// and devices without cooperative matrices.
func MatMulI8Cooperative(acc *accelerator.Accelerator) (accelerator.CoopMatrixShape, bool) {
	ok := acc.SubgroupSize() == matMulCoopSubgroup && int(acc.Limits().MaxSharedMemory) >= matMulI8Geom.shared &&
		acc.Supports8BitStorage() && acc.SupportsInt8() && slices.Contains(acc.CooperativeMatricesKHR(), matMulI8Shape)
	if !ok {
		return accelerator.CoopMatrixShape{}, false
	}
	return matMulI8Shape, true
}

// MatMulI8 computes c = a x b on av for int8 a and b with int32 sums: with the tensor
// cores where the device has int8 cooperative matrices (see MatMulI8Cooperative), else
// with the shared-memory kernel. It is MatMulI8With with zero options.
func MatMulI8(av *accelerator.View, a, b *arrayview.View[int8], c *arrayview.View[int32]) error {
	return MatMulI8With(av, a, b, c, MatMulI8Options{})
}

// MatMulI8With computes c = a x b on av (nil: where the views live, else the default
// accelerator) with the kernel opt selects: a is M x K, b is K x N, c is M x N, all rank
// 2, any sizes from 1 up. Every kernel computes the exact integer sums, wrapping modulo
// 2^32 as Go's int32 arithmetic does (which needs K above 131072 with values of -128),
// so results are the same on every accelerator and path (lavapipe's limit on K, in
// MatMulWith's doc, aside).
//
// As MatMulWith: c is output-only (discarded before the dispatch), shape errors
// (*ShapeError) come before anything is discarded, and so do feature errors
// (*accelerator.FeatureError: a device without 8-bit storage, or MatMulCooperative on
// one without int8 cooperative matrices); the dispatch is asynchronous on a GPU.
func MatMulI8With(av *accelerator.View, a, b *arrayview.View[int8], c *arrayview.View[int32], opt MatMulI8Options) error {
	return matMulNarrowWith(matMulNarrow[int8, int32]{
		op:      "MatMulI8",
		storage: (*accelerator.Accelerator).Supports8BitStorage, storageFeature: "8-bit storage (MatMulI8's int8 a and b)",
		coop: func(acc *accelerator.Accelerator) (string, matMulCoopGeom, bool) {
			_, ok := MatMulI8Cooperative(acc)
			return "matmul_coop_k_i8", matMulI8Geom, ok
		},
		coopFeature: "cooperative matrices of 16x16x32 int8*int8+int32 (VK_KHR_cooperative_matrix) with 32-wide subgroups " +
			"(MatMulI8's MatMulCooperative path)",
		host: matMulI8Host,
		kernels: func(a, b *arrayview.View[int8], c *arrayview.View[int32], prog string, geom matMulCoopGeom) (coop, tiled runtime.TiledKernel) {
			m, k, n := a.Extent().Dim(0), a.Extent().Dim(1), b.Extent().Dim(1)
			args := matMulI8Args{A: a.ReadOnly(), B: b.ReadOnly(), C: c, M: int32(m), N: int32(n), K: int32(k)}
			return matMulI8Coop{args, prog, geom}, matMulI8Tiled{args}
		},
	}, av, a, b, c, matMulNarrowOptions(opt))
}

// matMulNarrowOptions are MatMulF16Options and MatMulI8Options, which have the same fields.
type matMulNarrowOptions struct {
	Path           MatMulPath
	Tile           [2]int
	TransA, TransB bool
}

// matMulNarrow is what differs between the products of narrow inputs, MatMulF16 and
// MatMulI8 (inputs T, result O), for matMulNarrowWith.
type matMulNarrow[T half.Float16 | int8, O any] struct {
	op             string
	storage        func(*accelerator.Accelerator) bool // whether the device stores T
	storageFeature string                              // the FeatureError's words when it does not
	// coop returns the cooperative program, its geometry and whether the device runs it.
	coop        func(*accelerator.Accelerator) (string, matMulCoopGeom, bool)
	coopFeature string // the FeatureError's words for MatMulCooperative on a device without
	// host computes the product where the storage is host memory (the CPU).
	host func(av *accelerator.View, a, b *arrayview.View[T], c *arrayview.View[O], tile [2]int) error
	// kernels returns the cooperative and shared-memory kernels of the product.
	kernels func(a, b *arrayview.View[T], c *arrayview.View[O], prog string, geom matMulCoopGeom) (coop, tiled runtime.TiledKernel)
}

// matMulNarrowWith is MatMulF16With and MatMulI8With: transposed operands through
// withTransposes, then shape, path and tile errors and the device's features before
// anything is discarded, then the CPU's product, the cooperative kernel or the
// shared-memory one.
func matMulNarrowWith[T half.Float16 | int8, O any](d matMulNarrow[T, O], av *accelerator.View, a, b *arrayview.View[T], c *arrayview.View[O], opt matMulNarrowOptions) error {
	if opt.TransA || opt.TransB {
		ta, tb := opt.TransA, opt.TransB
		opt.TransA, opt.TransB = false, false
		return withTransposes(d.op, av, a, b, c, ta, tb, transposeNarrow[T], func(av *accelerator.View, a, b *arrayview.View[T]) error {
			return matMulNarrowWith(d, av, a, b, c, opt)
		})
	}
	if err := matMulShapes(d.op, extentOf(a), extentOf(b), extentOf(c)); err != nil {
		return err
	}
	if err := matMulApart(d.op, a, b, c); err != nil {
		return err
	}
	if opt.Path < MatMulAuto || opt.Path > MatMulShared {
		return shapeErr(d.op, "unknown path %v", opt.Path)
	}
	av, err := chooseView("algo."+d.op, d.op, av, []string{"a", "b", "c"}, a, b, c)
	if err != nil {
		return err
	}
	acc := av.Accelerator()
	tile, err := matMulSharedTile(d.op, acc, opt.Tile)
	if err != nil {
		return err
	}
	if !d.storage(acc) {
		return &accelerator.FeatureError{Accelerator: acc.Path(), Feature: d.storageFeature}
	}
	prog, geom, coop := d.coop(acc)
	if opt.Path == MatMulCooperative && !coop {
		return &accelerator.FeatureError{Accelerator: acc.Path(), Feature: d.coopFeature}
	}
	if acc.Traits().HostMemory {
		return d.host(av, a, b, c, opt.Tile)
	}
	if chunk := matMulKChunk(acc); chunk > 0 && a.Extent().Dim(1) > chunk {
		return matMulNarrowSplitK(d.op, av, a, b, c, chunk, func(a, b *arrayview.View[T], c *arrayview.View[O]) error {
			return matMulNarrowWith(d, av, a, b, c, opt)
		})
	}
	m, n := a.Extent().Dim(0), b.Extent().Dim(1)
	coopK, tiledK := d.kernels(a, b, c, prog, geom)
	if err := c.Discard(); err != nil {
		return err
	}
	if coop && opt.Path != MatMulShared {
		return dispatchTiled(av, geom.domain(m, n), coopK)
	}
	rows, cols := ceilDiv(m, 8*tile[0])*tile[0], ceilDiv(n, 8*tile[1])*tile[1]
	return dispatchTiled(av, runtime.Ext(rows, cols).Tile(tile[0], tile[1]), tiledK)
}

// matMulSharedTile returns the tile of the shared-memory kernel for the requested one
// (zero: DefaultMatMulTile, or matMulSmallTile where its shared memory does not fit acc),
// or op's *ShapeError for a tile no device can run.
func matMulSharedTile(op string, acc *accelerator.Accelerator, tile [2]int) ([2]int, error) {
	if tile == [2]int{} {
		tile = DefaultMatMulTile
		if MatMulSharedBytes(tile[0], tile[1]) > int(acc.Limits().MaxSharedMemory) {
			tile = matMulSmallTile
		}
	}
	if tile[0] < 1 || tile[1] < 1 || tile[0]*tile[1] > 1024 {
		return tile, shapeErr(op, "tile %dx%d: each dimension must be at least 1 and the product at most 1024", tile[0], tile[1])
	}
	return tile, nil
}

// matMulI8Host is MatMulI8 where the accelerator's storage is host memory: a and b
// widened to int32 and MatMul's blocked int32 kernel, straight into c.
func matMulI8Host(av *accelerator.View, a, b *arrayview.View[int8], c *arrayview.View[int32], tile [2]int) error {
	va, vb, err := matMulWidened(a, b, matMulI8Widen)
	if err != nil {
		return err
	}
	defer func() { _, _ = va.Close(), vb.Close() }()
	return MatMulWith(av, va, vb, c, MatMulOptions{Tile: tile})
}

// matMulI8Widen sets dst[i] = int32(src[i]), for matMulWidened.
func matMulI8Widen(dst []int32, src []int8) {
	for i, x := range src {
		dst[i] = int32(x)
	}
}

// matMulWidened returns new views of a's and b's elements (row-major, the same extents),
// each converted exactly by widen(dst, src): the narrow types' operands for MatMul's
// kernels on host memory (matMulF16Host, matMulI8Host).
func matMulWidened[T half.Float16 | int8, W MatMulElem](a, b *arrayview.View[T], widen func(dst []W, src []T)) (va, vb *arrayview.View[W], err error) {
	ad, err := matMulRows(a)
	if err != nil {
		return nil, nil, err
	}
	bd, err := matMulRows(b)
	if err != nil {
		return nil, nil, err
	}
	aw, bw := make([]W, len(ad)), make([]W, len(bd))
	widen(aw, ad)
	widen(bw, bd)
	return arrayview.MustNew(a.Extent(), aw), arrayview.MustNew(b.Extent(), bw), nil
}

// matMulI8Args are the captures of the int8 kernels: the bindings A, B, C (0, 1, 2) and
// the push constants M, N, K.
type matMulI8Args struct {
	A       *arrayview.ReadView[int8]
	B       *arrayview.ReadView[int8]
	C       *arrayview.View[int32]
	M, N, K int32
}

// tiled is the definition of both int8 kernels, for a tile that computes a bm x bn block
// of C: the tile's threads share the block's elements (thread tid takes elements tid, tid
// + threads, ...), each an int32 sum over K of int8 products, stored inside C only.
func (k matMulI8Args) tiled(t runtime.TiledIndex, bm, bn int) {
	matMulBlockEach(t, bm, bn, int(k.M), int(k.N), func(m, n int) {
		var sum int32
		for p := 0; p < int(k.K); p++ {
			sum += int32(k.A.At(runtime.Idx(m, p))) * int32(k.B.At(runtime.Idx(p, n)))
		}
		k.C.Set(runtime.Idx(m, n), sum)
	})
}

// matMulI8Tiled is the shared-memory kernel over int8 data: matmul_tiled.comp with int8
// loads (variant matmul_tiled_i8), each thread computing an 8 x 8 block of C as
// matMulTiled's threads do.
type matMulI8Tiled struct{ matMulI8Args }

// Program is the GPU body, matmul_tiled_i8.
func (matMulI8Tiled) Program() *runtime.Program { return shaders.MustProgram("matmul_tiled_i8", 2) }

// SharedBytes is the GPU body's shared memory (MatMulSharedBytes: its int32 blocks are the
// size of float32 ones).
func (matMulI8Tiled) SharedBytes(tile [3]int) int { return MatMulSharedBytes(tile[0], tile[1]) }

// Tiled is the definition: the tile computes the (8 rows) x (8 columns) block of C.
func (k matMulI8Tiled) Tiled(t runtime.TiledIndex) {
	k.tiled(t, 8*t.TileExtent.Dim(0), 8*t.TileExtent.Dim(1))
}

// matMulI8Coop is the int8 cooperative-matrix kernel: matmul_coop.comp with AMP_INT8
// (matmul_coop_k_i8), a tile of 4 x 32 invocations computing a 128 x 128 block of C.
type matMulI8Coop struct {
	matMulI8Args
	prog string         `amp:"-"` // the program
	geom matMulCoopGeom `amp:"-"` // its geometry
}

// Program is the GPU body.
func (k matMulI8Coop) Program() *runtime.Program { return shaders.MustProgram(k.prog, 2) }

// SharedBytes is the GPU body's shared memory.
func (k matMulI8Coop) SharedBytes([3]int) int { return k.geom.shared }

// Tiled is the definition: the tile computes its block of C.
func (k matMulI8Coop) Tiled(t runtime.TiledIndex) { k.tiled(t, k.geom.bm, k.geom.bn) }
