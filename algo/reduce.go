package algo

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// The reduction family: Reduce (reduce.go), InclusiveScan and ExclusiveScan (scan.go) and
// Histogram (histogram.go) over rank-1 views (sections included), on any accelerator.
//
// Each is built from tiled kernels with three bodies: a per-thread Go body (Tiled) that is
// the kernel's definition and, translated by ampgen, its shared-memory GPU body; a second,
// hand-written GPU program (package shaders: reduce_sg, scan_sg) that does the workgroup
// step with subgroup arithmetic, used where the device has it; and a fast CPU body
// (EachTile) that does a whole tile in plain loops over the host slices. The conformance
// tests check all of them against a plain Go reference.
//
// The GPU passes read their input with 16-byte vector loads where the view's first element
// is 16-byte aligned in its buffer (whole views always are; a section at an odd offset is
// read one element at a time, as fast on most devices but not all), and keep their
// temporary data (partial results, block sums) in scratch memory of the accelerator view
// (scratch.go). Reduce and Histogram return their result, so they wait for the device; the
// scans leave theirs in out, where reading it waits for the device.

// Op is the operator of a reduction.
type Op int

// The operators of Reduce.
const (
	// Sum adds the elements. Integer sums wrap around (modulo 2^32) like Go's int32 and
	// uint32 arithmetic, so they are exact and the same on every accelerator. Float32
	// sums are accumulated in float32 in a tree whose shape depends on the accelerator
	// and on the length, not left to right: they differ from a sequential sum by rounding
	// (for data of one sign, typically by a relative 1e-6 or less) and are NaN if any
	// element is.
	Sum Op = iota
	// Min is the smallest element. For float32, -0 and +0 compare equal and the result
	// of a view holding a NaN is unspecified (GLSL's min leaves it open).
	Min
	// Max is the largest element, with Min's caveats for float32.
	Max
)

// String returns "Sum", "Min", "Max" or "Op(n)".
func (o Op) String() string { return enumName(o, "Op", "Sum", "Min", "Max") }

// ErrUnknownOp reports an Op other than Sum, Min and Max.
var ErrUnknownOp = errors.New("goamp/algo: unknown reduction operator")

// The tiling of Reduce's passes (variables so that the benchmarks can tune them).
var (
	// reduceTile is the workgroup size of a pass, a power of two.
	reduceTile = 256
	// reducePerThread is the number of elements per thread a GPU pass aims at; it sets
	// the number of workgroups, ceil(n / (reduceTile*reducePerThread)), so that every
	// thread has several vector loads to overlap and the partial results are few.
	reducePerThread = 64
	// reduceMaxGroups caps the workgroups of a GPU pass (the longer the input, the more
	// elements per thread).
	reduceMaxGroups = 16384
	// cpuGroupsPerProc and cpuMinChunk set the tiles of a pass on the CPU accelerator:
	// cpuGroupsPerProc per GOMAXPROCS, each of at least cpuMinChunk elements, so that the
	// workers balance and small inputs take one tile.
	cpuGroupsPerProc = 4
	cpuMinChunk      = 1 << 15
)

// maxLen is the longest view the family accepts: element indices, and the GPU bodies'
// index arithmetic (i + 4*4*tile), stay within uint32.
const maxLen = 1 << 31

// Reduce returns the Sum, Min or Max of the elements of the rank-1 view in (a section
// too), computed on accelerator view av (nil: the view in lives on, else the default
// accelerator's). It waits for the result.
//
// On a GPU, Reduce is a tree of passes: each workgroup of the first pass combines a
// contiguous slice of in with several 16-byte loads in flight per thread, then combines
// its threads' values with subgroup operations (or in shared memory where the device has
// none) and writes one partial result to a scratch view; the next pass reduces the partial
// results the same way, until one workgroup is left, whose value Reduce reads back (4
// bytes). On the CPU the passes are the same kernels, each tile summed by a plain loop.
//
// in must be a non-nil rank-1 view (else a *ShapeError); op must be Sum, Min or Max
// (else an error matching ErrUnknownOp). in is only read.
func Reduce[T Number](av *accelerator.View, in *arrayview.View[T], op Op) (T, error) {
	var zero T
	if op != Sum && op != Min && op != Max {
		return zero, fmt.Errorf("%w: %v (want Sum, Min or Max)", ErrUnknownOp, op)
	}
	n, err := famVector("Reduce", "in", in)
	if err != nil {
		return zero, err
	}
	av, err = chooseView("algo.Reduce", "Reduce", av, []string{"in"}, in)
	if err != nil {
		return zero, err
	}
	if w := splitLen(av, n, in); w > 0 {
		return reduceWindows(av, in, op, n, w)
	}
	plan := reducePlan(av.Accelerator(), n)
	s, err := takeScratch[T](av, runtime.Ext(planScratch(plan)), "")
	if err != nil {
		return zero, err
	}
	defer s.release()
	at, err := reducePasses(av, in.ReadOnly(), 0, n, op, plan, s, 0)
	if err != nil {
		return zero, err
	}
	return readOne(s.v, at)
}

// reduceGrid is one pass of a reduction: groups workgroups of tile threads, workgroup g
// combining the elements [g*chunk, (g+1)*chunk).
type reduceGrid struct {
	groups, chunk, tile int
}

// reducePlan returns the passes that reduce n elements on acc to one value: each pass's
// groups are the next one's elements, and the last pass has one group.
func reducePlan(acc *accelerator.Accelerator, n int) []reduceGrid {
	var plan []reduceGrid
	for {
		g := reduceGridFor(acc, n, reduceTile, reducePerThread, reduceMaxGroups)
		plan = append(plan, g)
		if g.groups == 1 {
			return plan
		}
		n = g.groups
	}
}

// planScratch is the scratch length plan needs: one element per workgroup of each pass.
func planScratch(plan []reduceGrid) int {
	n := 0
	for _, g := range plan {
		n += g.groups
	}
	return n
}

// reduceGridFor spreads n elements over workgroups of tile threads: on a wide accelerator
// (a GPU) about per elements per thread and at most maxGroups workgroups, on one that is not
// (the CPU) cpuGroupsPerProc tiles per worker (Accelerator.Workers: GOMAXPROCS) of at least
// cpuMinChunk elements. Each chunk is a multiple of 4*tile, so that every thread has the
// same number of vec4s.
func reduceGridFor(acc *accelerator.Accelerator, n, tile, per, maxGroups int) reduceGrid {
	groups := min(ceilDiv(n, tile*per), maxGroups)
	if !acc.Traits().Wide {
		groups = min(ceilDiv(n, cpuMinChunk), cpuGroupsPerProc*acc.Workers())
	}
	groups = max(groups, 1)
	chunk := ceilDiv(ceilDiv(n, groups), 4*tile) * 4 * tile
	return reduceGrid{groups: ceilDiv(n, chunk), chunk: chunk, tile: tile}
}

// reducePasses runs plan over the n elements of in starting at element inOff, writing
// each pass's partial results to s after position at, and returns the index in s of the
// result.
func reducePasses[T Number](av *accelerator.View, in *arrayview.ReadView[T], inOff, n int, op Op, plan []reduceGrid,
	s *scratchBuf[T], at int) (int, error) {
	return reducePassesTo(av, in, inOff, n, op, plan, s, at, -1)
}

// reducePassesTo is reducePasses with the last pass's one value written to s's element
// final instead (when final >= 0).
func reducePassesTo[T Number](av *accelerator.View, in *arrayview.ReadView[T], inOff, n int, op Op, plan []reduceGrid,
	s *scratchBuf[T], at, final int) (int, error) {
	sg := useSubgroups(av)
	for _, g := range plan {
		out := at
		if g.groups == 1 && final >= 0 {
			out = final
		}
		k := reduceKernel[T]{In: in, Out: s.v, N: uint32(n), Chunk: uint32(g.chunk), InOff: uint32(inOff),
			OutOff: uint32(out), Op: int32(op), Type: typeCode[T]()}
		var kern runtime.TiledKernel = k
		if sg {
			kern = reduceSG[T]{k}
		}
		dom := runtime.Ext(g.groups * g.tile).Tile(g.tile)
		if err := dispatchTiled(av, dom, kern); err != nil {
			return 0, err
		}
		in, inOff, n = s.v.ReadOnly(), out, g.groups
		at += g.groups
	}
	return inOff, nil
}

// reduceKernel is one pass of Reduce, tiled 1-D: workgroup g writes to Out[OutOff+g] the
// combination by Op of the elements [g*Chunk, min((g+1)*Chunk, N)) of In, whose element i
// is In[InOff+i]; every group has at least one element. Its GPU body, generated from
// Tiled by ampgen, combines in shared memory; reduceSG runs the same kernel with the
// subgroup program instead.
type reduceKernel[T Number] struct {
	In     *arrayview.ReadView[T]
	Out    *arrayview.View[T]
	N      uint32
	Chunk  uint32
	InOff  uint32
	OutOff uint32
	Op     int32
	Type   int32 // typeCode[T], for shaders/glsl/reduce_sg.comp (raw words); the generated bodies are one per type
}

// reduceSG is reduceKernel with the GPU body shaders/glsl/reduce_sg.comp, which combines a
// workgroup's values with subgroup arithmetic (for devices that have it).
type reduceSG[T Number] struct{ reduceKernel[T] }

// Program is the GPU body: shaders/glsl/reduce_sg.comp.
func (reduceSG[T]) Program() *runtime.Program { return shaders.MustProgram("reduce_sg", 1) }

// SharedBytes is the GPU body's shared memory: a word per thread.
func (reduceKernel[T]) SharedBytes(tile [3]int) int { return 4 * tile[0] }

// bounds returns the elements [lo, hi) of the workgroup's slice.
func (k reduceKernel[T]) bounds(group int) (lo, hi int) {
	lo = group * int(k.Chunk)
	return lo, min(lo+int(k.Chunk), int(k.N))
}

// Tiled is the definition and the GPU body: thread l combines the quads of elements
// 4l..4l+3, 4(l+size).., ... of its group's slice (each quad one At4, a 16-byte load on a
// GPU where the slice is 16-byte aligned; two quads in flight per thread, a loop per
// operator so that none branches per element) and the last partial quad, then the group
// combines its threads' values in a shared-memory tree and thread 0 writes the result.
// Only the first cnt threads have elements (cnt < size in a slice shorter than 4 elements
// per thread); the tree combines only theirs, so that no identity element is needed.
//
// Reading quads with At4 in place of single elements made the scan's first pass (this
// kernel over 2^26 float32) 10% faster on the H100 (RESULTS.md).
func (k reduceKernel[T]) Tiled(t runtime.TiledIndex) {
	op, size, l := Op(k.Op), t.TileExtent.Dim(0), t.Local[0]
	lo := t.Tile[0] * int(k.Chunk)
	hi := min(lo+int(k.Chunk), int(k.N))
	cnt := min(size, (hi-lo+3)/4)
	part := runtime.TileStatic[T](t, t.TileExtent.Size())
	if l < cnt {
		i, end := int(k.InOff)+lo+4*l, int(k.InOff)+hi
		acc := k.In.At(runtime.Idx(i))
		for j := i + 1; j < min(i+4, end); j++ {
			acc = combine(op, acc, k.In.At(runtime.Idx(j)))
		}
		i += 4 * size
		q := 4 * size // the stride between a thread's quads
		switch op {
		case Min:
			for ; i+q+3 < end; i += 2 * q {
				acc = min(acc, reduceMin8(reduceQuads(k.In.At4(runtime.Idx(i)), k.In.At4(runtime.Idx(i+q)))))
			}
		case Max:
			for ; i+q+3 < end; i += 2 * q {
				acc = max(acc, reduceMax8(reduceQuads(k.In.At4(runtime.Idx(i)), k.In.At4(runtime.Idx(i+q)))))
			}
		default:
			for ; i+q+3 < end; i += 2 * q {
				acc += reduceSum8(reduceQuads(k.In.At4(runtime.Idx(i)), k.In.At4(runtime.Idx(i+q))))
			}
		}
		for ; i < end; i += q { // the last one or two quads, the last maybe partial
			for j := i; j < min(i+4, end); j++ {
				acc = combine(op, acc, k.In.At(runtime.Idx(j)))
			}
		}
		part[l] = acc
	}
	t.Barrier.WaitWithTileStaticMemoryFence()
	for s := size / 2; s > 0; s /= 2 {
		if l+s < cnt && l < s {
			part[l] = combine(op, part[l], part[l+s])
		}
		t.Barrier.WaitWithTileStaticMemoryFence()
	}
	if l == 0 {
		k.Out.Set(runtime.Idx(int(k.OutOff)+t.Tile[0]), part[0])
	}
}

// reduceQuads is the eight elements of two quads.
func reduceQuads[T Number](a, b [4]T) [8]T {
	return [8]T{a[0], a[1], a[2], a[3], b[0], b[1], b[2], b[3]}
}

// reduceSum8, reduceMin8 and reduceMax8 combine eight values in a tree.
func reduceSum8[T Number](x [8]T) T {
	return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]))
}

func reduceMin8[T Number](x [8]T) T {
	return min(min(min(x[0], x[1]), min(x[2], x[3])), min(min(x[4], x[5]), min(x[6], x[7])))
}

func reduceMax8[T Number](x [8]T) T {
	return max(max(max(x[0], x[1]), max(x[2], x[3])), max(max(x[4], x[5]), max(x[6], x[7])))
}

// EachTile is the fast CPU body: the group's slice combined by one loop over In's host
// slice. ampgen generates no body for this kernel: size is assigned in one :=
// with the thread's index (op, size, l := ...), so the fission takes it for a per-thread
// value and cannot run the loop of barriers (for s := size / 2; ...) once per tile.
func (k reduceKernel[T]) EachTile(_ runtime.TiledExtent, tile runtime.Index) {
	op := Op(k.Op)
	lo, hi := k.bounds(tile[0])
	off := int(k.InOff)
	var r T
	if in, err := k.In.ReadData(); err == nil {
		r = reduceSlice(op, in[off+lo:off+hi])
	} else {
		r = identity[T](op)
		for i := lo; i < hi; i++ {
			r = combine(op, r, k.In.At(runtime.Idx(off+i)))
		}
	}
	k.Out.Set(runtime.Idx(int(k.OutOff)+tile[0]), r)
}

// combine applies op to a and b.
func combine[T Number](op Op, a, b T) T {
	switch op {
	case Min:
		return min(a, b)
	case Max:
		return max(a, b)
	}
	return a + b
}

// identity is op's identity element: 0, T's largest value (+Inf) or its smallest (-Inf).
func identity[T Number](op Op) T {
	var bits uint32
	switch k := reflect.TypeFor[T]().Kind(); {
	case op == Min && k == reflect.Int32:
		bits = math.MaxInt32
	case op == Min && k == reflect.Uint32:
		bits = math.MaxUint32
	case op == Min:
		bits = math.Float32bits(float32(math.Inf(1)))
	case op == Max && k == reflect.Int32:
		bits = 1 << 31
	case op == Max && k == reflect.Float32:
		bits = math.Float32bits(float32(math.Inf(-1)))
	}
	return *(*T)(unsafe.Pointer(&bits))
}

// reduceSlice combines the elements of s by op, with several accumulators so that the
// loop is not one long chain of dependent operations.
func reduceSlice[T Number](op Op, s []T) T {
	if op == Min || op == Max {
		return extremum(s, identity[T](op), op == Max)
	}
	var a0, a1, a2, a3, a4, a5, a6, a7 T
	for ; len(s) >= 8; s = s[8:] {
		a0 += s[0]
		a1 += s[1]
		a2 += s[2]
		a3 += s[3]
		a4 += s[4]
		a5 += s[5]
		a6 += s[6]
		a7 += s[7]
	}
	for _, x := range s {
		a0 += x
	}
	return ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7))
}

// extremum is the least of id and the elements of s (with greatest, the largest), with
// four accumulators.
func extremum[T Number](s []T, id T, greatest bool) T {
	pick := func(a, b T) T {
		if greatest {
			return max(a, b)
		}
		return min(a, b)
	}
	a0, a1, a2, a3 := id, id, id, id
	for ; len(s) >= 4; s = s[4:] {
		a0, a1, a2, a3 = pick(a0, s[0]), pick(a1, s[1]), pick(a2, s[2]), pick(a3, s[3])
	}
	for _, x := range s {
		a0 = pick(a0, x)
	}
	return pick(pick(a0, a1), pick(a2, a3))
}

// What the family's kernels share.

// famVector checks that v, the argument called name of op, is a non-nil rank-1 view of at
// most maxLen elements and returns its length.
func famVector[T any](op, name string, v *arrayview.View[T]) (int, error) {
	if v == nil {
		return 0, shapeErr(op, "%s is nil", name)
	}
	if r := v.Rank(); r != 1 {
		return 0, shapeErr(op, "%s has rank %d (extent %s); %s needs a rank-1 view", name, r, v.Extent(), op)
	}
	n := v.Extent().Dim(0)
	if n > maxLen {
		return 0, shapeErr(op, "%s has %d elements; %s handles at most %d", name, n, op, maxLen)
	}
	return n, nil
}

// readOne reads element i of the rank-1 view v: a one-element section's copy, so that
// only 4 bytes come back from a device.
func readOne[T any](v *arrayview.View[T], i int) (T, error) {
	var out [1]T
	sec, err := v.Section(runtime.Idx(i), runtime.Ext(1))
	if err != nil {
		return out[0], err
	}
	err = sec.CopyTo(out[:])
	if cerr := sec.Close(); err == nil {
		err = cerr
	}
	return out[0], err
}
