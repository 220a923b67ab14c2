package algo

import (
	"fmt"
	"reflect"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/internal/asm/gemm"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// MatMulElem is an element type MatMul accepts.
type MatMulElem interface {
	~int32 | ~float32
}

// MatMulMicroTile is the side of the block of C that one thread of the tiled matrix
// multiply computes in registers: a tile of R x C threads computes an
// (8R) x (8C) block of C.
const MatMulMicroTile = 8

// matMulBK is the tiled kernel's step along K (BK in matmul_tiled.comp).
const matMulBK = 16

// DefaultMatMulTile is the tiled kernel's default tile (rows, columns of threads): 128
// threads computing a 64 x 128 block of C with 24 KiB of shared memory (see
// MatMulSharedBytes), so that several workgroups share an SM; the fastest of the tiles
// and kernel variants measured at 4096 x 4096 x 4096 on an H100. On a device whose
// shared memory is too small for it, the default is 8 x 8 (16 KiB, Vulkan's minimum
// limit) instead.
var DefaultMatMulTile = [2]int{8, 16}

// matMulSmallTile is the default tile on devices with too little shared memory for
// DefaultMatMulTile.
var matMulSmallTile = [2]int{8, 8}

// MatMulOptions selects the kernel MatMulWith runs.
type MatMulOptions struct {
	// Simple selects the one-thread-per-element kernel (matMulSimple, generated from its
	// Go body) instead of the tiled one.
	Simple bool
	// Tile is the tiled kernel's tile (rows, columns of threads); each thread computes an
	// 8 x 8 block of C. The zero value means DefaultMatMulTile. Its product must be at
	// most 1024 and the shared memory it needs (see MatMulSharedBytes) must fit the
	// device.
	Tile [2]int
	// TransA and TransB multiply by the transpose of a (then K x M) or of b (then N x K),
	// as BLAS's transa and transb do: c = op(a) x op(b). The transposed operand is
	// transposed into av's scratch memory first (Transpose; see matMulTransposed).
	TransA, TransB bool
}

// MatMulSharedBytes is the shared (tile_static) memory the tiled matrix multiply uses for
// a tile of rows x cols threads: double-buffered BK x (8 rows) and BK x (8 cols) blocks
// of 4-byte elements, BK = 16 (24 KiB for 8 x 16 threads, 32 KiB for 16 x 16, 48 KiB for
// 32 x 16).
func MatMulSharedBytes(rows, cols int) int {
	return 2 * matMulBK * (8*rows + 8*cols) * 4
}

// MatMul computes c = a x b on av with the tiled kernel and DefaultMatMulTile. It is
// MatMulWith with zero options.
func MatMul[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T]) error {
	return MatMulWith(av, a, b, c, MatMulOptions{})
}

// MatMulSimple computes c = a x b on av with the one-thread-per-element kernel.
func MatMulSimple[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T]) error {
	return MatMulWith(av, a, b, c, MatMulOptions{Simple: true})
}

// MatMulWith computes c = a x b on av (nil: where the views live, else the default
// accelerator; see runtime.ParallelForEach): a is M x K, b is K x N and c is M x N, all
// rank 2, any sizes from 1 up; int32 arithmetic wraps like Go's, float32 sums run in k
// order (rounding may differ between accelerators: the GPU fuses multiply-adds). On a
// device that ends a thread's loops early (accelerator.Limits.MaxLoopIterations: lavapipe)
// a K longer than half that cap is split into slices, each a product added to c, so the
// float32 sums are rounded once more per slice. MatMulI8With and MatMulF16With split the
// same way; MatMulF16With with a float16 c returns an *accelerator.FeatureError there
// instead.
//
// c is output-only: following C++ AMP's guideline A, MatMulWith calls c.DiscardData()
// before the dispatch, so c's old contents are never uploaded; the result reaches the Go
// slice on c.Synchronize, c.Data or element access. c must therefore not share memory with
// a or b (arrayview.Overlap; a *ShapeError otherwise). Shape errors (*ShapeError naming
// the extents, matching ErrShape) are reported
// before anything is discarded, so that user data stays intact. The dispatch is
// asynchronous on a GPU, like runtime.ParallelForEach.
func MatMulWith[T MatMulElem](av *accelerator.View, a, b, c *arrayview.View[T], opt MatMulOptions) error {
	const op = "MatMul"
	if opt.TransA || opt.TransB {
		return matMulTransposed(av, a, b, c, opt)
	}
	if err := matMulCheck(a, b, c); err != nil {
		return err
	}
	m, k, n := a.Extent().Dim(0), a.Extent().Dim(1), b.Extent().Dim(1)
	av, err := chooseView("algo."+op, op, av, []string{"a", "b", "c"}, a, b, c)
	if err != nil {
		return err
	}
	tile := opt.Tile
	if tile == [2]int{} {
		tile = DefaultMatMulTile
		if !opt.Simple && MatMulSharedBytes(tile[0], tile[1]) > int(av.Accelerator().Limits().MaxSharedMemory) {
			tile = matMulSmallTile
		}
	}
	if !opt.Simple && (tile[0] < 1 || tile[1] < 1 || tile[0]*tile[1] > 1024) {
		return shapeErr(op, "tile %dx%d: each dimension must be at least 1 and the product at most 1024", tile[0], tile[1])
	}
	if chunk := matMulKChunk(av.Accelerator()); chunk > 0 && k > chunk {
		return matMulSplitK(av, a, b, c, chunk, func(a, b, c *arrayview.View[T]) error {
			return MatMulWith(av, a, b, c, opt)
		})
	}

	// Where the accelerator's storage is host memory (the CPU) the fast bodies read a and b
	// as row-major slices (the views' own data when contiguous, else copies: O(MK + KN)
	// copying for O(MNK) arithmetic) and write c's slice when it is contiguous.
	var host *matMulHost[T]
	if av.Accelerator().Traits().HostMemory {
		host = &matMulHost[T]{m: m, n: n, k: k}
		if host.a, err = matMulRows(a); err != nil {
			return err
		}
		if host.b, err = matMulRows(b); err != nil {
			return err
		}
	}
	if err := c.Discard(); err != nil { // guideline A: c is output-only
		return err
	}
	if host != nil {
		if d, err := c.Data(); err == nil {
			host.c = d
		}
	}
	args := matMulArgs[T]{A: a.ReadOnly(), B: b.ReadOnly(), C: c, M: int32(m), N: int32(n), K: int32(k), host: host}
	if opt.Simple {
		return dispatch(av, c.Extent(), matMulSimple[T]{args})
	}
	rows, cols := ceilDiv(m, 8*tile[0])*tile[0], ceilDiv(n, 8*tile[1])*tile[1]
	return dispatchTiled(av, runtime.Ext(rows, cols).Tile(tile[0], tile[1]), matMulTiled[T]{args})
}

// matMulCheck returns MatMul's *ShapeError for a, b and c, if any.
func matMulCheck[T MatMulElem](a, b, c *arrayview.View[T]) error {
	if err := matMulShapes("MatMul", extentOf(a), extentOf(b), extentOf(c)); err != nil {
		return err
	}
	return matMulApart("MatMul", a, b, c)
}

// matMulApart returns op's *ShapeError where c shares memory with a or b.
func matMulApart[T, O any](op string, a, b *arrayview.View[T], c *arrayview.View[O]) error {
	if err := apart(op, "c", c, "a", a); err != nil {
		return err
	}
	return apart(op, "c", c, "b", b)
}

// extentOf is v's extent, or nil for a nil view.
func extentOf[T any](v *arrayview.View[T]) *runtime.Extent {
	if v == nil {
		return nil
	}
	e := v.Extent()
	return &e
}

// matMulShapes returns op's *ShapeError for operands a (M x K), b (K x N) and c (M x N) of
// these extents (nil: the view is nil), if any.
func matMulShapes(op string, a, b, c *runtime.Extent) error {
	if err := nilNames(op, []string{"a", "b", "c"}, a == nil, b == nil, c == nil); err != nil {
		return err
	}
	ae, be, ce := *a, *b, *c
	if ae.Rank() != 2 || be.Rank() != 2 || ce.Rank() != 2 {
		return shapeErr(op, "a %v, b %v and c %v must all be rank 2", ae, be, ce)
	}
	m, k, n := ae.Dim(0), ae.Dim(1), be.Dim(1)
	if be.Dim(0) != k || ce.Dim(0) != m || ce.Dim(1) != n {
		return shapeErr(op, "a %v x b %v does not give c %v (want a M x K, b K x N, c M x N)", ae, be, ce)
	}
	return nil
}

// matMulRows returns v's elements, row-major, for reading: its data when contiguous,
// else a copy.
func matMulRows[T any](v *arrayview.View[T]) ([]T, error) {
	if d, err := v.ReadData(); err == nil {
		return d, nil
	}
	d := make([]T, v.Extent().Size())
	return d, v.CopyTo(d)
}

// matMulBlockEach calls f(m, n) for each element of the tile's bm x bn block of C that
// thread t takes and that lies inside C's rows x cols: the tile's threads share the
// block's elements, thread tid taking elements tid, tid + threads, ... (the definitions
// of the float16 and int8 kernels, matMulF16Args.tiled and matMulI8Args.tiled).
func matMulBlockEach(t runtime.TiledIndex, bm, bn, rows, cols int, f func(m, n int)) {
	nt := t.TileExtent.Size()
	tid := t.Local[0]*t.TileExtent.Dim(1) + t.Local[1]
	m0, n0 := t.Tile[0]*bm, t.Tile[1]*bn
	for e := tid; e < bm*bn; e += nt {
		if m, n := m0+e/bn, n0+e%bn; m < rows && n < cols {
			f(m, n)
		}
	}
}

// matMulArgs are the captures of both matrix-multiply kernels: the bindings A, B, C (0,
// 1, 2) and the push constants M, N, K.
type matMulArgs[T MatMulElem] struct {
	A       *arrayview.ReadView[T]
	B       *arrayview.ReadView[T]
	C       *arrayview.View[T]
	M, N, K int32
	host    *matMulHost[T] `amp:"-"` // host data for the fast CPU bodies
}

// matMulHost holds row-major host copies of A (m x k) and B (k x n) and, when C is
// contiguous, C's slice (else nil: results go through C.Set).
type matMulHost[T MatMulElem] struct {
	m, n, k int
	a, b, c []T
}

// matMulProgram returns the program for T: name, or name_i32 for T of underlying type
// int32.
func matMulProgram[T MatMulElem](name string) *runtime.Program {
	if matMulIsInt[T]() {
		return shaders.MustProgram(name+"_i32", 2)
	}
	return shaders.MustProgram(name, 2)
}

// matMulSimple is the one-thread-per-element kernel over the M x N domain of C. Its GPU
// body is generated from Each by ampgen.
type matMulSimple[T MatMulElem] struct{ matMulArgs[T] }

// Each is the definition and the GPU body: C(i, j) = sum over p of A(i, p) * B(p, j).
func (k matMulSimple[T]) Each(idx runtime.Index) {
	var sum T
	for p := 0; p < int(k.K); p++ {
		sum += k.A.At(runtime.Idx(idx[0], p)) * k.B.At(runtime.Idx(p, idx[1]))
	}
	k.C.Set(idx, sum)
}

// EachRange is the fast CPU body: the row-major offsets lo..hi-1 of C, as full-width
// row blocks and partial first and last rows, through the blocked kernel. It stays beside
// ampgen's generated body, which made MatMulSimple 256^3 51-357x slower
// (BenchmarkHandVsGenerated, CPU accelerator, this 2-core machine): the generated body computes one dot product per element through
// checked view reads, where this one is the cache-blocked kernel.
func (k matMulSimple[T]) EachRange(domain runtime.Extent, lo, hi int) {
	n := domain.Dim(1)
	for lo < hi {
		i, j := lo/n, lo%n
		if j == 0 && hi-lo >= n {
			rows := (hi - lo) / n
			k.host.block(k.C, i, i+rows, 0, n)
			lo += rows * n
			continue
		}
		end := min(n, j+hi-lo)
		k.host.block(k.C, i, i+1, j, end)
		lo += end - j
	}
}

// matMulTiled is the tiled kernel: its domain is padded to whole tiles of WY x WX
// threads, each thread computes an 8 x 8 block of C (rows ty*4+r and BM/2+ty*4+r,
// columns tx*4+c and BN/2+tx*4+c of its tile's BM x BN block, r, c < 4).
type matMulTiled[T MatMulElem] struct{ matMulArgs[T] }

// Program is the GPU body: shaders/glsl/matmul_tiled.comp (its variant matmul_tiled_i32 for
// int32).
func (matMulTiled[T]) Program() *runtime.Program { return matMulProgram[T]("matmul_tiled") }

// SharedBytes is the GPU body's shared memory for a tile (runtime.SharedMemoryKernel).
func (matMulTiled[T]) SharedBytes(tile [3]int) int { return MatMulSharedBytes(tile[0], tile[1]) }

// loadA is A(m, p), zero outside A (the GPU body's loadA, one element).
func (k matMulTiled[T]) loadA(m, p int) T {
	if m < int(k.M) && p < int(k.K) {
		return k.A.At(runtime.Idx(m, p))
	}
	return 0
}

// loadB is B(p, n), zero outside B.
func (k matMulTiled[T]) loadB(p, n int) T {
	if p < int(k.K) && n < int(k.N) {
		return k.B.At(runtime.Idx(p, n))
	}
	return 0
}

// Tiled is the definition, step for step the GPU body (shared memory in floats rather
// than vec4s: the A block transposed with rows of BM, not swizzled, the B block with rows
// of BN).
func (k matMulTiled[T]) Tiled(t runtime.TiledIndex) {
	wy, wx := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	nt := wy * wx
	bm, bn := 8*wy, 8*wx
	arow, asize, bsize := bm, matMulBK*bm, matMulBK*bn
	as := runtime.TileStatic[T](t, 2*asize)
	bs := runtime.TileStatic[T](t, 2*bsize)
	tid := t.Local[0]*wx + t.Local[1]
	// The thread's place (ty, tx) in the micro-tile layout: warps of 32 threads cover 4 x
	// 8 places when the tile allows (see matmul_tiled.comp), else the local index.
	ty, tx := t.Local[0], t.Local[1]
	if wx%8 == 0 && wy%4 == 0 {
		w, lane := tid/32, tid%32
		ty, tx = (w/(wx/8))*4+lane/8, (w%(wx/8))*8+lane%8
	}
	m0, n0 := t.Tile[0]*bm, t.Tile[1]*bn
	aq, bq := bm*matMulBK/4, matMulBK*bn/4 // vec4s per block
	aloads, bloads := (aq+nt-1)/nt, (bq+nt-1)/nt

	// The registers: the next step's A and B vec4s, and the 8 x 8 accumulators.
	ra := make([]T, 4*aloads)
	rb := make([]T, 4*bloads)
	load := func(k0 int) {
		for i := 0; i < aloads; i++ {
			l := tid + i*nt
			for j := 0; j < 4; j++ {
				ra[4*i+j] = 0
				if l < aq {
					ra[4*i+j] = k.loadA(m0+l/(matMulBK/4), k0+(l%(matMulBK/4))*4+j)
				}
			}
		}
		for i := 0; i < bloads; i++ {
			l := tid + i*nt
			for j := 0; j < 4; j++ {
				rb[4*i+j] = 0
				if l < bq {
					rb[4*i+j] = k.loadB(k0+l/(bn/4), n0+(l%(bn/4))*4+j)
				}
			}
		}
	}
	var acc [8][8]T
	load(0)
	steps := (int(k.K) + matMulBK - 1) / matMulBK
	for s := 0; s < steps; s++ {
		cur := s & 1
		for i := 0; i < aloads; i++ {
			if l := tid + i*nt; l < aq {
				m, kq := l/(matMulBK/4), (l%(matMulBK/4))*4
				for j := 0; j < 4; j++ {
					as[cur*asize+(kq+j)*arow+m] = ra[4*i+j]
				}
			}
		}
		for i := 0; i < bloads; i++ {
			if l := tid + i*nt; l < bq {
				copy(bs[cur*bsize+4*l:cur*bsize+4*l+4], rb[4*i:4*i+4])
			}
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
		if s+1 < steps {
			load((s + 1) * matMulBK)
		}
		for p := 0; p < matMulBK; p++ {
			matMulMicroTile(&acc, as[cur*asize+p*arow:], bs[cur*bsize+p*bn:], bm, bn, ty, tx)
		}
	}
	k.store(&acc, m0, n0, bm, bn, ty, tx)
}

// matMulMicroTile adds to the thread's 8 x 8 accumulators acc the products of one step p:
// a is row p of the shared A block (BM wide), b row p of the B block (BN wide); the
// thread's rows are ty*4+r and BM/2+ty*4+r, its columns tx*4+c and BN/2+tx*4+c (r, c < 4).
func matMulMicroTile[T MatMulElem](acc *[8][8]T, a, b []T, bm, bn, ty, tx int) {
	for r := 0; r < 4; r++ {
		for c := 0; c < 4; c++ {
			acc[r][c] += a[ty*4+r] * b[tx*4+c]
			acc[r][c+4] += a[ty*4+r] * b[bn/2+tx*4+c]
			acc[r+4][c] += a[bm/2+ty*4+r] * b[tx*4+c]
			acc[r+4][c+4] += a[bm/2+ty*4+r] * b[bn/2+tx*4+c]
		}
	}
}

// store writes the thread's accumulators to its elements of C, in the block at (m0, n0),
// those inside C.
func (k matMulTiled[T]) store(acc *[8][8]T, m0, n0, bm, bn, ty, tx int) {
	for r := 0; r < 8; r++ {
		m := m0 + ty*4 + r
		if r >= 4 {
			m = m0 + bm/2 + ty*4 + r - 4
		}
		for c := 0; c < 8; c++ {
			n := n0 + tx*4 + c
			if c >= 4 {
				n = n0 + bn/2 + tx*4 + c - 4
			}
			if m < int(k.M) && n < int(k.N) {
				k.C.Set(runtime.Idx(m, n), acc[r][c])
			}
		}
	}
}

// EachTile is the fast CPU body: the tile's BM x BN block of C through the blocked
// kernel.
func (k matMulTiled[T]) EachTile(domain runtime.TiledExtent, tile runtime.Index) {
	bm, bn := 8*domain.Tile.Dim(0), 8*domain.Tile.Dim(1)
	m0, n0 := tile[0]*bm, tile[1]*bn
	h := k.host
	if m0 >= h.m || n0 >= h.n {
		return
	}
	h.block(k.C, m0, min(m0+bm, h.m), n0, min(n0+bn, h.n))
}

// matMulKC is the depth of the blocked CPU kernel's panels.
const matMulKC = 256

// block computes C(i, j) for i in [i0, i1), j in [j0, j1) on the host: for each panel of
// K (matMulKC deep), it packs 4 rows of A and nr columns of B per micro-panel, zero-padded
// (to an even depth for the portable kernel), and runs a 4 x nr register micro-kernel,
// accumulating in a local block that is stored once at the end: into h.c, or through
// c.Set when C is not contiguous. nr is 16 with the AVX2 kernels (matMulWide), else 2.
func (h *matMulHost[T]) block(c *arrayview.View[T], i0, i1, j0, j1 int) {
	rows, cols := i1-i0, j1-j0
	if rows <= 0 || cols <= 0 {
		return
	}
	nr, micro := 2, matMulMicro4x2[T]
	if matMulWide {
		nr, micro = 16, matMulMicro4x16[T]
	}
	rows4, colsR := (rows+3)&^3, (cols+nr-1)/nr*nr
	acc := make([]T, rows4*colsR)
	kc := min(matMulKC, h.k)
	depth := (kc + 1) &^ 1
	ap := make([]T, 4*depth)
	bp := make([]T, depth*colsR)
	for p0 := 0; p0 < h.k; p0 += kc {
		pc := min(kc, h.k-p0)
		pe := pc
		if nr == 2 {
			pe = (pc + 1) &^ 1 // even depth; the padding stays zero
		}
		clear(ap)
		clear(bp)
		// B panel: group g holds columns j0+nr*g .. j0+nr*g+nr-1, nr per row p.
		for g := 0; g < colsR/nr; g++ {
			dst := bp[g*nr*pe : (g+1)*nr*pe]
			jg := j0 + nr*g
			w := min(nr, j1-jg)
			for p := 0; p < pc; p++ {
				row := h.b[(p0+p)*h.n+jg:]
				copy(dst[nr*p:nr*p+w], row[:w])
			}
		}
		for i := 0; i < rows4; i += 4 {
			for r := 0; r < 4; r++ {
				if i0+i+r < i1 {
					row := h.a[(i0+i+r)*h.k+p0 : (i0+i+r)*h.k+p0+pc]
					for p, v := range row {
						ap[4*p+r] = v
					}
				} else {
					for p := 0; p < pc; p++ {
						ap[4*p+r] = 0
					}
				}
			}
			for g := 0; g < colsR/nr; g++ {
				micro(ap[:4*pe], bp[g*nr*pe:(g+1)*nr*pe], acc[i*colsR+nr*g:], colsR)
			}
		}
	}
	for r := 0; r < rows; r++ {
		src := acc[r*colsR : r*colsR+cols]
		if h.c != nil {
			copy(h.c[(i0+r)*h.n+j0:], src)
			continue
		}
		for j, v := range src {
			c.Set(runtime.Idx(i0+r, j0+j), v)
		}
	}
}

// matMulMicro4x16 adds the product of a 4 x d panel of A (packed by column: a[4p+r]) and
// a d x 16 panel of B (packed by row: b[16p+j]) to the 4 x 16 block at c (row stride
// ldc) with the micro-kernels of internal/asm/gemm (AVX2 assembly: matMulWide only).
func matMulMicro4x16[T MatMulElem](a, b, c []T, ldc int) {
	if matMulIsInt[T]() {
		gemm.MulAddI32(matMulAs[int32](a), matMulAs[int32](b), matMulAs[int32](c), ldc)
		return
	}
	gemm.MulAddF32(matMulAs[float32](a), matMulAs[float32](b), matMulAs[float32](c), ldc)
}

// matMulAs reinterprets s, of a type whose underlying type is E's, as a []E.
func matMulAs[E, T MatMulElem](s []T) []E {
	return unsafe.Slice((*E)(unsafe.Pointer(unsafe.SliceData(s))), len(s))
}

// matMulWide reports whether the CPU's blocked matrix multiply uses the 4 x 16 micro-kernels
// of internal/asm/gemm, when they are AVX2 assembly, else its portable 4 x 2 register
// kernel (faster than gemm's portable one). Tests turn it off to check the portable kernel
// too.
var matMulWide = gemm.Wide()

// matMulIsInt reports whether T's underlying type is int32 (else it is float32).
func matMulIsInt[T MatMulElem]() bool { return reflect.TypeFor[T]().Kind() == reflect.Int32 }

// matMulMicro4x2 adds the product of a 4 x d panel of A (packed by column: a[4p+r]) and a
// d x 2 panel of B (packed by row: b[2p+c]), d even, to the 4 x 2 block at c (row stride
// ldc). Eight accumulators and six operands fit amd64's registers; two steps of p per
// iteration and slices advanced in place keep bounds checks out of the loop.
func matMulMicro4x2[T MatMulElem](a, b, c []T, ldc int) {
	s00, s01 := c[0], c[1]
	s10, s11 := c[ldc], c[ldc+1]
	s20, s21 := c[2*ldc], c[2*ldc+1]
	s30, s31 := c[3*ldc], c[3*ldc+1]
	for len(a) >= 8 && len(b) >= 4 {
		b0, b1 := b[0], b[1]
		a0, a1, a2, a3 := a[0], a[1], a[2], a[3]
		s00 += a0 * b0
		s01 += a0 * b1
		s10 += a1 * b0
		s11 += a1 * b1
		s20 += a2 * b0
		s21 += a2 * b1
		s30 += a3 * b0
		s31 += a3 * b1
		b0, b1 = b[2], b[3]
		a0, a1, a2, a3 = a[4], a[5], a[6], a[7]
		s00 += a0 * b0
		s01 += a0 * b1
		s10 += a1 * b0
		s11 += a1 * b1
		s20 += a2 * b0
		s21 += a2 * b1
		s30 += a3 * b0
		s31 += a3 * b1
		a, b = a[8:], b[4:]
	}
	c[0], c[1] = s00, s01
	c[ldc], c[ldc+1] = s10, s11
	c[2*ldc], c[2*ldc+1] = s20, s21
	c[3*ldc], c[3*ldc+1] = s30, s31
}

// String names the kernel's shape in errors and benchmarks.
func (o MatMulOptions) String() string {
	if o.Simple {
		return "simple"
	}
	t := o.Tile
	if t == [2]int{} {
		return "tiled" // the default: DefaultMatMulTile, or 8 x 8 where it does not fit
	}
	return fmt.Sprintf("tiled%dx%d", t[0], t[1])
}
