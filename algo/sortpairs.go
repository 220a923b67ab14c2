package algo

import (
	"errors"
	"math/bits"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// SortOptions selects the order of SortWith, SortPairs and Argsort; the zero value sorts
// in ascending order.
type SortOptions struct {
	// Descending sorts from the largest key to the smallest: the reverse of Sort's
	// order (float32: +NaNs first, then +Inf ... +0, -0 ... -Inf, -NaNs last). SortPairs
	// and Argsort stay stable: equal keys keep their input order in both orders.
	Descending bool
}

// SortWith sorts v in place, in the order of Sort (or its reverse: opt.Descending), on av
// (nil: the view the data lives on, else the default accelerator's). v has rank 1, or rank
// 2 to sort each row independently (torch.sort(dim=-1) of a 2-D tensor); else a
// *ShapeError.
func SortWith[T Number](av *accelerator.View, v *arrayview.View[T], opt SortOptions) error {
	rows, cols, err := sortShape("SortWith", "v", v)
	if err != nil || rows*cols < 2 || cols < 2 {
		return err
	}
	if av, err = chooseView("algo.Sort", "SortWith", av, []string{"v"}, v); err != nil {
		return err
	}
	tc := sortCode[T](opt)
	if v.Rank() == 1 {
		return sortVector(av, v, cols, tc)
	}
	return segSort[T, T](av, segJob[T, T]{keys: v, rows: rows, cols: cols, tc: tc})
}

// SortPairs sorts keys in place, in the order of Sort (or its reverse: opt.Descending),
// and moves each value of values with its key: after it, values[i] is the value that came
// with keys[i]. The sort is stable: keys that are equal (the same bits) keep their input
// order. keys and values have the same extent: rank 1, or rank 2 to sort each row
// independently, and do not share memory (else a *ShapeError). av: as for SortWith. It is
// a radix sort of any length (SortWith's, moving the values with the keys), its
// temporaries in av's scratch memory: on GPUs with subgroup operations two of n keys
// interleaved with their values
// (16 bytes a pair; a scattered store per pair instead of two, 12% faster on the H100),
// where they take at most an eighth of the device's memory; else n keys and n values.
// Where the keys' high bits spread them evenly (a sampled count says so), GPUs with
// subgroups of 32 take the hybrid sort (sort_hybrid.go): two passes for the high 16 bits,
// then each bucket sorted in one workgroup, 11.0 ms for 2^28 pairs on the H200 against
// 13.7 for the four passes; that path waits for the device twice before it returns (to
// read the sampled count and whether a bucket overflowed), where the others only record
// their work.
func SortPairs[K, V Number](av *accelerator.View, keys *arrayview.View[K], values *arrayview.View[V],
	opt SortOptions) error {
	rows, cols, err := sortShape("SortPairs", "keys", keys)
	if err == nil {
		err = sortSameExtent("SortPairs", "values", keys, values)
	}
	if err != nil || rows*cols < 2 || cols < 2 {
		return err
	}
	av, err = chooseView("algo.SortPairs", "SortPairs", av, []string{"keys", "values"}, keys, values)
	if err != nil {
		return err
	}
	tc := sortCode[K](opt)
	if keys.Rank() == 1 {
		return radixRun(av, radixJob[K, V]{in: keys, out: keys, vIn: values, vOut: values, vals: radixPairs,
			n: cols, tc: tc, passes: 4, algo: hooks.sort})
	}
	return segSort(av, segJob[K, V]{keys: keys, values: values, rows: rows, cols: cols, tc: tc})
}

// Argsort writes into idx the permutation that sorts keys (in the order of Sort, or its
// reverse: opt.Descending), as torch.sort's indices: keys[idx[0]], keys[idx[1]], ... are
// in order, and equal keys keep their input order (a stable sort). keys is not changed.
// keys and idx have the same extent: rank 1, or rank 2 for each row's permutation of
// indices 0..cols-1, and do not share memory (else a *ShapeError). av: as for SortWith. It is SortPairs' radix
// sort, with the indices made as the first pass reads the keys.
func Argsort[T Number](av *accelerator.View, keys *arrayview.View[T], idx *arrayview.View[int32],
	opt SortOptions) error {
	rows, cols, err := sortShape("Argsort", "keys", keys)
	if err == nil {
		err = sortSameExtent("Argsort", "idx", keys, idx)
	}
	if err != nil || rows*cols == 0 {
		return err
	}
	if av, err = chooseView("algo.Argsort", "Argsort", av, []string{"keys", "idx"}, keys, idx); err != nil {
		return err
	}
	if cols == 1 {
		return sortFillIdx(av, idx)
	}
	tc := sortCode[T](opt)
	if keys.Rank() == 2 {
		return segSort[T, int32](av, segJob[T, int32]{keys: keys, idx: idx, rows: rows, cols: cols, tc: tc})
	}
	return argsortVector(av, keys, idx, cols, tc)
}

// argsortVector is Argsort of the cols >= 2 keys of a rank-1 view: the sorted keys go to
// a temporary.
func argsortVector[T Number](av *accelerator.View, keys *arrayview.View[T], idx *arrayview.View[int32], n int,
	tc int32) (err error) {
	sorted, free, err := scratchSection[T](av, n)
	if err != nil {
		return err
	}
	defer free(&err)
	return radixRun(av, radixJob[T, int32]{in: keys, out: sorted, vOut: idx, vals: radixIota, n: n, tc: tc,
		passes: 4, algo: hooks.sort})
}

// sortFillIdx sets idx, a rank-1 or rank-2 view of one column, to zeros.
func sortFillIdx(av *accelerator.View, idx *arrayview.View[int32]) error {
	return dispatch(av, idx.Extent(), sortZeroKernel{Dst: idx})
}

// sortCode is the type code of T's keys (typeCode) in the order opt asks for.
func sortCode[T Number](opt SortOptions) int32 {
	tc := typeCode[T]()
	if opt.Descending {
		tc |= sortDescending
	}
	return tc
}

// sortShape checks a sort's view: rank 1 (one row) or 2; it returns the rows and columns.
func sortShape[T any](op, name string, v *arrayview.View[T]) (rows, cols int, err error) {
	if v == nil {
		return 0, 0, shapeErr(op, "%s is nil", name)
	}
	switch e := v.Extent(); v.Rank() {
	case 1:
		return 1, e.Dim(0), nil
	case 2:
		return e.Dim(0), e.Dim(1), nil
	}
	return 0, 0, shapeErr(op, "%s has rank %d (extent %s); %s sorts rank-1 views or the rows of rank-2 views",
		name, v.Rank(), v.Extent(), op)
}

// sortSameExtent checks that the view named name, other, has the keys' extent.
func sortSameExtent[T, U any](op, name string, keys *arrayview.View[T], other *arrayview.View[U]) error {
	if other == nil {
		return shapeErr(op, "%s is nil", name)
	}
	if e := other.Extent(); e != keys.Extent() {
		return shapeErr(op, "%s has extent %s, keys %s; they must be the same", name, e, keys.Extent())
	}
	return apart(op, name, other, "keys", keys)
}

// radixJob is one LSD radix sort of n keys: the keys read from in (elements of type code
// tc, a typeCode with sortDescending) go sorted to out; values (vals: radixKeysOnly,
// radixPairs from vIn or radixIota, the input indices) go with them to vOut. passes digits
// of 8 bits are sorted, from the lowest. in may be out when passes is even (the first
// pass writes a temporary), and likewise vIn and vOut. algo is hooks.sort's choice.
type radixJob[T, V Number] struct {
	in, out   *arrayview.View[T]
	vIn, vOut *arrayview.View[V]
	vals      uint32
	n         int
	tc        int32
	passes    int
	algo      int
}

// radixRun runs job (n >= 2): the hybrid sort where hybridBits says so and the keys suit
// it (sort_hybrid.go), else job.passes passes of histogram, scan and scatter.
func radixRun[T, V Number](av *accelerator.View, job radixJob[T, V]) (err error) {
	e, freeEnv, err := newRadixEnv(av, job.n, job.algo)
	if err != nil {
		return err
	}
	defer freeEnv(&err)
	if bits := hybridBits(av, &job, e.sg); bits > 0 {
		done, err := hybridRun(av, job, e, bits)
		if done || err != nil {
			return err
		}
	}
	passes, freePasses, err := radixPlan(av, &job, e.sg)
	if err != nil {
		return err
	}
	defer freePasses(&err)
	outKeys := false // out holds keys, not elements
	for pass, p := range passes {
		in, out := int32(1), int32(1) // typeCode of uint32: keys stay keys
		if pass == 0 {
			in = job.tc
		}
		if pass == job.passes-1 {
			out = job.tc
		}
		vals := job.vals
		if vals == radixIota && pass > 0 {
			vals = radixPairs
		}
		if err = radixPassRun(av, e, p, uint32(8*pass), in, out, vals); err != nil {
			return radixRestore(av, job, outKeys, err)
		}
		if p.dst == job.out {
			outKeys = out == 1 && job.tc != 1
		}
	}
	return nil
}

// radixEnv is what the passes of one multi-pass radix sort share: the histogram
// temporary, the blocks and the launch grids, and the scatter the device runs.
type radixEnv struct {
	hist                      *arrayview.View[uint32]
	grid, rows, wideGrid      runtime.TiledExtent
	n, blockLen, blocks, team int
	sg, oneRound, wide        bool // the ballot scatter; with pairs, in one round; in wide tiles
}

// newRadixEnv makes the environment of a radix sort of n keys on av with hooks.sort algo,
// and the function that frees its histogram (err: as scratchSection's free).
func newRadixEnv(av *accelerator.View, n, algo int) (*radixEnv, func(*error), error) {
	maxBlocks := radixMaxBlocks
	if acc := av.Accelerator(); !acc.Traits().Wide && !hooks.perThread {
		// Fewer, longer blocks scatter to fewer places at once: better for caches.
		maxBlocks = min(maxBlocks, radixCPUBlocks*acc.Workers())
	}
	e := &radixEnv{n: n}
	e.blockLen, e.blocks = radixBlocks(n, maxBlocks)
	// The histogram: radixBins rows of blocks counts, then the rows' totals.
	hist, free, err := scratchSection[uint32](av, radixBins*e.blocks+radixBins)
	if err != nil {
		return nil, nil, err
	}
	e.hist = hist
	e.sg = algo != sortRadixFallback && radixScatterSG(av)
	e.oneRound = e.sg && radixOneRound(av)
	e.wide = e.oneRound && radixWide(av)
	e.grid = runtime.Ext(e.blocks * radixTile).Tile(radixTile)
	e.wideGrid = runtime.Ext(e.blocks * radixWideTile).Tile(radixWideTile)
	e.team = radixScanTeam(e.blocks)
	e.rows = runtime.Ext(e.team * radixTile).Tile(radixTile) // radixBins/(radixTile/team) tiles
	return e, free, nil
}

// radixPassRun runs one pass p of a radix sort in e: the histogram of the digits
// (key >> shift) & 255, its scan and the scatter, the keys read as elements of type code
// in and written as type code out (1: keys stay keys), with values vals.
func radixPassRun[T, V Number](av *accelerator.View, e *radixEnv, p radixPass[T, V], shift uint32, in, out int32,
	vals uint32) error {
	n, blockLen := uint32(e.n), uint32(e.blockLen)
	h := radixHistKernel[T]{Src: p.src.ReadOnly(), Hist: e.hist, N: n, Shift: shift, BlockLen: blockLen,
		Type: in, Stride: uint32(1 + p.interleave&radixSrcPairs)}
	if err := dispatchTiled(av, e.grid, h); err != nil {
		return err
	}
	if err := dispatchTiled(av, e.rows, radixScanKernel{Hist: e.hist, Blocks: uint32(e.blocks), Team: uint32(e.team)}); err != nil {
		return err
	}
	sc := radixScatterKernel[T, V]{Src: p.src.ReadOnly(), Dst: p.dst, Hist: e.hist.ReadOnly(), SrcVal: p.srcV.ReadOnly(),
		DstVal: p.dstV, N: n, Shift: shift, BlockLen: blockLen, InType: in, OutType: out,
		Vals: vals, Interleave: p.interleave, blocks: e.blocks}
	var k runtime.TiledKernel = sc
	grid := e.grid
	if e.sg {
		wide := e.wide && vals != radixKeysOnly
		k = radixScatterSGKernel[T, V]{sc, e.oneRound, wide}
		if wide {
			grid = e.wideGrid
		}
	}
	return dispatchTiled(av, grid, k)
}

// radixPass is one pass of a radix sort: keys (and values) from src (srcV) to dst (dstV),
// interleaved as radixScatterKernel.Interleave says.
type radixPass[T, V Number] struct {
	src, dst   *arrayview.View[T]
	srcV, dstV *arrayview.View[V]
	interleave uint32
}

// radixPlan returns the passes of job and the function that frees their temporaries (err:
// as scratchSection's free). A sort of pairs on a device with the ballot scatter (sg)
// keeps its keys and values interleaved between the passes, in two temporaries of 2n
// elements, where they fit in one binding (and hooks.separatePairs is not set): the
// scatter then stores one stream of key-value pairs instead of two. Otherwise the keys
// and values move separately, ping-ponging between one temporary of each and job's
// outputs.
func radixPlan[T, V Number](av *accelerator.View, job *radixJob[T, V], sg bool) ([]radixPass[T, V], func(*error), error) {
	return radixPlanWith(av, job, radixInterleaved(av, job, sg))
}

// radixPlanWith is radixPlan with the keys and values interleaved or not (inter).
func radixPlanWith[T, V Number](av *accelerator.View, job *radixJob[T, V], inter bool) ([]radixPass[T, V], func(*error), error) {
	var frees []func(*error)
	free := func(err *error) {
		for i := len(frees) - 1; i >= 0; i-- {
			frees[i](err)
		}
	}
	n := job.n
	vt, err := radixValTemps(av, job, inter)
	if err != nil {
		return nil, nil, err
	}
	frees = append(frees, vt.free)
	var plan []radixPass[T, V]
	if inter {
		var tmp [2]*arrayview.View[T]
		for i := range min(2, job.passes-1) {
			t, f, err := scratchSection[T](av, 2*n)
			if err != nil {
				free(&err)
				return nil, nil, err
			}
			tmp[i], frees = t, append(frees, f)
		}
		for pass := range job.passes {
			p := radixPass[T, V]{src: job.in, srcV: vt.in, dst: job.out, dstV: job.vOut, interleave: radixSrcPairs | radixDstPairs}
			if pass > 0 {
				p.src, p.srcV = tmp[(pass-1)%2], vt.tmp
			} else {
				p.interleave &^= radixSrcPairs
			}
			if pass < job.passes-1 {
				p.dst, p.dstV = tmp[pass%2], vt.tmp
			} else {
				p.interleave &^= radixDstPairs
			}
			plan = append(plan, p)
		}
		return plan, free, nil
	}
	tmp, f, err := scratchSection[T](av, n)
	if err != nil {
		free(&err)
		return nil, nil, err
	}
	frees = append(frees, f)
	src, srcV := job.in, vt.in
	for pass := range job.passes {
		dst, dstV := tmp, vt.tmp
		if (job.passes-1-pass)%2 == 0 {
			dst, dstV = job.out, vt.out
		}
		plan = append(plan, radixPass[T, V]{src: src, srcV: srcV, dst: dst, dstV: dstV})
		src, srcV = dst, dstV
	}
	return plan, free, nil
}

// radixInterleaved reports whether job's passes keep keys and values interleaved (see
// radixPlan): where each temporary fits one binding and both take at most an eighth of the
// device's memory, as the interleaved temporaries take twice the memory of the separate
// ones (16 bytes a pair against 8; device memory is allocated when the kernels first bind
// it, so a failed allocation could not fall back to the separate layout).
func radixInterleaved[T, V Number](av *accelerator.View, job *radixJob[T, V], sg bool) bool {
	acc := av.Accelerator()
	bytes := uint64(2*job.n) * 4 // one temporary
	return (sg || hooks.interleavePairs) && job.vals != radixKeysOnly && job.passes >= 2 && !hooks.separatePairs &&
		bytes <= uint64(acc.Limits().MaxStorageBufferRange) && (acc.Traits().HostMemory || 2*bytes <= acc.DedicatedMemory()/8)
}

// radixRestore returns err, after mapping job.out's keys back to elements when outKeys
// says it holds keys, so that an in-place sort that failed leaves elements.
func radixRestore[T, V Number](av *accelerator.View, job radixJob[T, V], outKeys bool, err error) error {
	if !outKeys {
		return err
	}
	return errors.Join(err, dispatch(av, runtime.Ext(job.n), sortStoreKernel[T]{Src: job.out.ReadOnly(), Dst: job.out, Type: job.tc}))
}

// radixVals are a radix sort's value views: the first pass's source, the last pass's
// destination and the temporary, each a view of 1 element (never read or written) when
// the job has no such values.
type radixVals[V Number] struct {
	in, out, tmp *arrayview.View[V]
	frees        []func(*error)
}

// radixValTemps makes the value views of job: with values, a temporary of n values (and
// a dummy source for radixIota); without, or where the passes interleave keys and values
// (inter: the temporary is never used), dummies, sections of one scratch buffer.
func radixValTemps[T, V Number](av *accelerator.View, job *radixJob[T, V], inter bool) (*radixVals[V], error) {
	vt := &radixVals[V]{in: job.vIn, out: job.vOut}
	if job.vals == radixKeysOnly || inter {
		d, free, err := scratchSection[V](av, 3)
		if err != nil {
			return nil, err
		}
		vt.frees = append(vt.frees, free)
		secs := [3]*arrayview.View[V]{}
		for i := range secs {
			if secs[i], err = d.Section(runtime.Idx(i), runtime.Ext(1)); err != nil {
				vt.free(&err)
				return nil, err
			}
		}
		vt.tmp = secs[2]
		if job.vals == radixKeysOnly {
			vt.in, vt.out = secs[0], secs[1]
		} else if vt.in == nil {
			vt.in = secs[0] // radixIota: not read
		}
		return vt, nil
	}
	n := job.n
	if vt.in == nil {
		n++ // the last element is the dummy source
	}
	t, free, err := scratchSection[V](av, n)
	if err != nil {
		return nil, err
	}
	vt.frees = append(vt.frees, free)
	vt.tmp = t
	if vt.in == nil {
		whole := t
		vt.tmp, err = whole.Section(runtime.Idx(0), runtime.Ext(job.n))
		if err == nil {
			vt.in, err = whole.Section(runtime.Idx(job.n), runtime.Ext(1))
		}
		if err != nil {
			vt.free(&err)
			return nil, err
		}
	}
	return vt, nil
}

// free gives the temporaries back (err: as scratchSection's free).
func (vt *radixVals[V]) free(err *error) {
	for i := len(vt.frees) - 1; i >= 0; i-- {
		vt.frees[i](err)
	}
}

// segJob is a segmented sort: the rows x cols rank-2 view keys (type code tc), sorted row
// by row in place, values moved with them (nil: none); or, with idx, keys left as they are
// and each row's permutation written to idx.
type segJob[K, V Number] struct {
	keys       *arrayview.View[K]
	values     *arrayview.View[V]
	idx        *arrayview.View[int32]
	rows, cols int
	tc         int32
}

// segSort runs job (cols >= 2): the keys, flattened, are argsorted as one vector (flat
// indices p); a stable sort of the indices by their row p / cols then groups them by row,
// each row's in key order, with only the digits of the row numbers; the keys (and values)
// are then gathered by it, or the permutation written as indices within the rows.
func segSort[K, V Number](av *accelerator.View, job segJob[K, V]) (err error) {
	n := job.rows * job.cols
	var frees []func(*error)
	defer func() {
		for i := len(frees) - 1; i >= 0; i-- {
			frees[i](&err)
		}
	}()
	flat, free, err := scratchSection[K](av, n)
	if err != nil {
		return err
	}
	frees = append(frees, free)
	sorted, free, err := scratchSection[K](av, n)
	if err != nil {
		return err
	}
	frees = append(frees, free)
	perm, err := segPerm(av, &frees, n, job.cols)
	if err != nil {
		return err
	}
	if err = dispatch(av, job.keys.Extent(), sortFlattenKernel[K]{Src: job.keys.ReadOnly(), Dst: flat, Cols: int32(job.cols)}); err != nil {
		return err
	}
	err = radixRun(av, radixJob[K, int32]{in: flat, out: sorted, vOut: perm[0], vals: radixIota, n: n, tc: job.tc,
		passes: 4, algo: hooks.sort})
	if err == nil {
		err = segByRow(av, perm, n, job.rows, job.cols)
	}
	if err != nil {
		return err
	}
	return segGather(av, &frees, job, flat, perm[1])
}

// segPerm takes the segmented sort's index temporaries: the flat permutation and its
// regrouped copy (int32), then the row numbers and their sorted copy (the same words, as
// int32).
func segPerm(av *accelerator.View, frees *[]func(*error), n, cols int) ([4]*arrayview.View[int32], error) {
	var p [4]*arrayview.View[int32]
	for i := range p {
		v, free, err := scratchSection[int32](av, n)
		if err != nil {
			return p, err
		}
		*frees = append(*frees, free)
		p[i] = v
	}
	return p, nil
}

// segByRow sorts the flat permutation perm[0] stably by row into perm[1], with the rows in
// perm[2] and perm[3] as keys.
func segByRow(av *accelerator.View, perm [4]*arrayview.View[int32], n, rows, cols int) error {
	passes := (bits.Len(uint(rows-1)) + 7) / 8
	if passes == 0 {
		return dispatch(av, runtime.Ext(n), sortCopyKernel[int32]{Src: perm[0].ReadOnly(), Dst: perm[1]})
	}
	rk := sortRowKeyKernel{Perm: perm[0].ReadOnly(), Dst: perm[2], Cols: int32(cols)}
	if err := dispatch(av, runtime.Ext(n), rk); err != nil {
		return err
	}
	return radixRun(av, radixJob[int32, int32]{in: perm[2], out: perm[3], vIn: perm[0], vOut: perm[1],
		vals: radixPairs, n: n, tc: 1, passes: passes, algo: hooks.sort})
}

// segGather writes the segmented sort's result by the grouped permutation perm: the keys
// (from their flat copy) and values, or the indices within the rows.
func segGather[K, V Number](av *accelerator.View, frees *[]func(*error), job segJob[K, V], flat *arrayview.View[K],
	perm *arrayview.View[int32]) error {
	ext := job.keys.Extent()
	if job.idx != nil {
		return dispatch(av, ext, sortRowIndexKernel{Perm: perm.ReadOnly(), Dst: job.idx, Cols: int32(job.cols)})
	}
	if err := dispatch(av, ext, sortGatherKernel[K]{Src: flat.ReadOnly(), Perm: perm.ReadOnly(), Dst: job.keys, Cols: int32(job.cols)}); err != nil {
		return err
	}
	if job.values == nil {
		return nil
	}
	vflat, free, err := scratchSection[V](av, job.rows*job.cols)
	if err != nil {
		return err
	}
	*frees = append(*frees, free)
	if err := dispatch(av, ext, sortFlattenKernel[V]{Src: job.values.ReadOnly(), Dst: vflat, Cols: int32(job.cols)}); err != nil {
		return err
	}
	return dispatch(av, ext, sortGatherKernel[V]{Src: vflat.ReadOnly(), Perm: perm.ReadOnly(), Dst: job.values, Cols: int32(job.cols)})
}
