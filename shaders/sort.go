package shaders

import (
	"errors"
	"math/bits"
	"slices"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// sortTile is the bitonic local kernels' tile: 512 threads sort blocks of 1024 keys in
// shared memory (4 KiB).
const sortTile = 512

// Sort sorts the rank-1 view v in ascending order, in place, on accelerator view av (nil:
// the view the data lives on, else the default accelerator's). v may have any length
// (else a *ShapeError for another rank).
//
// Keys are ordered as follows: int32 and uint32 by value; float32 by IEEE 754 totalOrder,
// which is the numeric order with -0 before +0, and NaNs after +Inf (positive NaNs)
// or before -Inf (NaNs with the sign bit set; NaNs are ordered by their bits). Go's
// slices.Sort puts every NaN first and leaves -0 and +0 in input order.
//
// The GPU body is a bitonic sort of 32-bit keys whose unsigned order is the element
// order (glsl/sort_load.comp maps the elements to those keys): a shared-memory sort of
// blocks of 1024 keys, then for each further stage k one dispatch per step j >= 1024
// (glsl/sort_bitonic_step.comp) and one shared-memory dispatch for the steps j < 1024.
// A length that is not a power of two is padded, in a temporary buffer of the next power
// of two, with the largest key; a power of two is sorted in place. Sort waits for the
// device only when it frees that temporary (lengths that are not powers of two).
func Sort[T Number](av *accelerator.View, v *arrayview.View[T]) error {
	return sortOp(av, v, false)
}

func sortOp[T Number](av *accelerator.View, v *arrayview.View[T], perThread bool) (err error) {
	n, err := ewVector("Sort", "v", v)
	if err != nil {
		return err
	}
	if n < 2 {
		return nil
	}
	p := 1 << bits.Len(uint(n-1)) // the padded length, a power of two >= 2
	tc := typeCode[T]()
	work := v
	if p != n {
		// The padded keys: host memory that is never touched on a GPU (discarded, so it
		// is neither uploaded nor copied back).
		work, err = arrayview.New(runtime.Ext(p), make([]T, p))
		if err != nil {
			return err
		}
		work.DiscardData()
		defer func() {
			work.DiscardData()
			if cerr := work.Close(); err == nil {
				err = cerr
			}
		}()
	}
	load := sortLoadKernel[T]{Src: v.ReadOnly(), Dst: work, N: uint32(n), Type: tc}
	if err := ewIndex(av, runtime.Ext(p), load, perThread); err != nil {
		return err
	}
	if err := sortNetwork(av, work, p, perThread); err != nil {
		if p == n {
			// v holds keys now: map them back so that v keeps its elements.
			err = errors.Join(err, ewIndex(av, runtime.Ext(n), sortStoreKernel[T]{Src: v.ReadOnly(), Dst: v, Type: tc}, perThread))
		}
		return err
	}
	return ewIndex(av, runtime.Ext(n), sortStoreKernel[T]{Src: work.ReadOnly(), Dst: v, Type: tc}, perThread)
}

// sortNetwork runs the bitonic network over the p keys of work (p a power of two >= 2).
func sortNetwork[T Number](av *accelerator.View, work *arrayview.View[T], p int, perThread bool) error {
	tile := min(sortTile, p/2)
	block := 2 * tile
	local := runtime.Ext(p / 2).Tile(tile)
	if err := ewTiled(av, local, bitonicLocalKernel[T]{V: work}, perThread); err != nil {
		return err
	}
	for k := 2 * block; k <= p; k <<= 1 {
		for j := k / 2; j >= block; j >>= 1 {
			step := bitonicStepKernel[T]{V: work, K: uint32(k), J: uint32(j)}
			if err := ewIndex(av, runtime.Ext(p/2), step, perThread); err != nil {
				return err
			}
		}
		if err := ewTiled(av, local, bitonicLocalKernel[T]{V: work, K: uint32(k)}, perThread); err != nil {
			return err
		}
	}
	return nil
}

// ewFromBits returns the element whose raw 32-bit word is u.
func ewFromBits[T Number](u uint32) T { return *(*T)(unsafe.Pointer(&u)) }

// sortKey maps an element's bits to a key whose unsigned order is the element order
// (tc: typeCode).
func sortKey(x uint32, tc int32) uint32 {
	switch tc {
	case 0:
		return x ^ 0x80000000
	case 2:
		if x&0x80000000 != 0 {
			return ^x
		}
		return x | 0x80000000
	}
	return x
}

// sortElem is the inverse of sortKey.
func sortElem(k uint32, tc int32) uint32 {
	switch tc {
	case 0:
		return k ^ 0x80000000
	case 2:
		if k&0x80000000 != 0 {
			return k & 0x7FFFFFFF
		}
		return ^k
	}
	return k
}

// sortLoadKernel maps Src's N elements to keys in Dst and pads Dst with the largest key.
type sortLoadKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Dst  *arrayview.View[T]
	N    uint32
	Type int32
}

// Program is the GPU body: glsl/sort_load.comp.
func (sortLoadKernel[T]) Program() *runtime.Program { return MustProgram("sort_load", 1) }

// Each is the definition.
func (k sortLoadKernel[T]) Each(i runtime.Index) {
	key := ^uint32(0)
	if i[0] < int(k.N) {
		key = sortKey(ewBitsOf(k.Src.At(i)), k.Type)
	}
	k.Dst.Set(i, ewFromBits[T](key))
}

// EachRange is the fast CPU body.
func (k sortLoadKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	src, err1 := k.Src.ReadData()
	dst, err2 := k.Dst.Data()
	if err1 != nil || err2 != nil {
		for i := lo; i < hi; i++ {
			k.Each(runtime.Idx(i))
		}
		return
	}
	d := ewBits(dst)[lo:hi]
	m := max(0, min(hi, int(k.N))-lo) // keys in the range; the rest is padding
	var s []uint32
	if m > 0 {
		s = ewBits(src)[lo : lo+m]
	}
	switch k.Type {
	case 0:
		for i, x := range s {
			d[i] = x ^ 0x80000000
		}
	case 2:
		for i, x := range s {
			d[i] = x ^ (uint32(int32(x)>>31) | 0x80000000)
		}
	default:
		copy(d, s)
	}
	for i := m; i < len(d); i++ {
		d[i] = ^uint32(0)
	}
}

// sortStoreKernel maps Src's keys back to elements in Dst.
type sortStoreKernel[T Number] struct {
	Src  *arrayview.ReadView[T]
	Dst  *arrayview.View[T]
	Type int32
}

// Program is the GPU body: glsl/sort_store.comp.
func (sortStoreKernel[T]) Program() *runtime.Program { return MustProgram("sort_store", 1) }

// Each is the definition.
func (k sortStoreKernel[T]) Each(i runtime.Index) {
	k.Dst.Set(i, ewFromBits[T](sortElem(ewBitsOf(k.Src.At(i)), k.Type)))
}

// EachRange is the fast CPU body.
func (k sortStoreKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	src, err1 := k.Src.ReadData()
	dst, err2 := k.Dst.Data()
	if err1 != nil || err2 != nil {
		for i := lo; i < hi; i++ {
			k.Each(runtime.Idx(i))
		}
		return
	}
	d := ewBits(dst)[lo:hi]
	s := ewBits(src)[lo:hi]
	s = s[:len(d)]
	switch k.Type {
	case 0:
		for i, x := range s {
			d[i] = x ^ 0x80000000
		}
	case 2:
		for i, x := range s {
			d[i] = x ^ (uint32(int32(^x)>>31) | 0x80000000)
		}
	default:
		copy(d, s)
	}
}

// bitonicLocalKernel sorts blocks of 2*tile keys of V in shared memory: all stages up
// to the block size when K is 0, else the steps j < block of stage K.
type bitonicLocalKernel[T Number] struct {
	V *arrayview.View[T]
	K uint32
}

// Program is the GPU body: glsl/sort_bitonic_local.comp.
func (bitonicLocalKernel[T]) Program() *runtime.Program {
	return MustProgram("sort_bitonic_local", 1)
}

// SharedBytes is the GPU body's shared block: two keys per thread.
func (bitonicLocalKernel[T]) SharedBytes(tile [3]int) int { return 8 * tile[0] }

// Tiled is the definition.
func (k bitonicLocalKernel[T]) Tiled(t runtime.TiledIndex) {
	tn := t.TileExtent.Dim(0)
	b := 2 * tn
	s := runtime.TileStatic[uint32](t, b)
	l := t.Local[0]
	base := t.Tile[0] * b
	s[l] = ewBitsOf(k.V.At(runtime.Idx(base + l)))
	s[l+tn] = ewBitsOf(k.V.At(runtime.Idx(base + l + tn)))
	t.Barrier.WaitWithTileStaticMemoryFence()
	kFirst, kLast := 2, b
	if k.K != 0 {
		kFirst, kLast = int(k.K), int(k.K)
	}
	for st := kFirst; st <= kLast; st <<= 1 {
		for j := min(st, b) >> 1; j > 0; j >>= 1 {
			i := (l&^(j-1))<<1 | l&(j-1)
			x, y := s[i], s[i+j]
			if up := (base+i)&st == 0; (x > y) == up {
				s[i], s[i+j] = y, x
			}
			t.Barrier.WaitWithTileStaticMemoryFence()
		}
	}
	k.V.Set(runtime.Idx(base+l), ewFromBits[T](s[l]))
	k.V.Set(runtime.Idx(base+l+tn), ewFromBits[T](s[l+tn]))
}

// EachTile is the fast CPU body: a full sort of the block is slices.Sort (reversed for a
// descending block); a merge runs the remaining steps over the block in place.
func (k bitonicLocalKernel[T]) EachTile(d runtime.TiledExtent, tile runtime.Index) {
	b := 2 * d.Tile.Dim(0)
	base := tile[0] * b
	data, err := k.V.Data()
	if err != nil {
		panic(err) // Sort's keys are a contiguous view
	}
	u := ewBits(data)[base : base+b]
	if k.K == 0 {
		slices.Sort(u)
		if base&b != 0 {
			slices.Reverse(u)
		}
		return
	}
	up := base&int(k.K) == 0
	for j := b / 2; j > 0; j >>= 1 {
		bitonicPass(u, 0, b/2, j, up)
	}
}

// bitonicPass runs compare-exchanges t = lo..hi-1 of one network step j over u, pair t
// being (i, i+j) with i the t-th index whose bit j is clear; up is their direction,
// which must be the same for all of them.
func bitonicPass(u []uint32, lo, hi, j int, up bool) {
	for t := lo; t < hi; {
		end := min(hi, t|(j-1)+1) // the run of t with the same t &^ (j-1)
		i := (t&^(j-1))<<1 | t&(j-1)
		n := end - t
		a, c := u[i:i+n], u[i+j:i+j+n]
		if up {
			for x, p := range a {
				q := c[x]
				a[x], c[x] = min(p, q), max(p, q)
			}
		} else {
			for x, p := range a {
				q := c[x]
				a[x], c[x] = max(p, q), min(p, q)
			}
		}
		t = end
	}
}

// bitonicStepKernel is one global step (K, J) of the bitonic network over V's keys,
// one thread per compared pair.
type bitonicStepKernel[T Number] struct {
	V    *arrayview.View[T]
	K, J uint32
}

// Program is the GPU body: glsl/sort_bitonic_step.comp.
func (bitonicStepKernel[T]) Program() *runtime.Program { return MustProgram("sort_bitonic_step", 1) }

// Each is the definition.
func (k bitonicStepKernel[T]) Each(idx runtime.Index) {
	t, j := idx[0], int(k.J)
	i := (t&^(j-1))<<1 | t&(j-1)
	x, y := ewBitsOf(k.V.At(runtime.Idx(i))), ewBitsOf(k.V.At(runtime.Idx(i+j)))
	if up := i&int(k.K) == 0; (x > y) == up {
		k.V.Set(runtime.Idx(i), ewFromBits[T](y))
		k.V.Set(runtime.Idx(i+j), ewFromBits[T](x))
	}
}

// EachRange is the fast CPU body.
func (k bitonicStepKernel[T]) EachRange(_ runtime.Extent, lo, hi int) {
	data, err := k.V.Data()
	if err != nil {
		panic(err) // Sort's keys are a contiguous view
	}
	u := ewBits(data)
	j, kk := int(k.J), int(k.K)
	// Split the range where the direction changes: every kk/2 pairs (kk > j).
	for t := lo; t < hi; {
		end := min(hi, (t/(kk/2)+1)*(kk/2))
		i := (t&^(j-1))<<1 | t&(j-1)
		bitonicPass(u, t, end, j, i&kk == 0)
		t = end
	}
}
