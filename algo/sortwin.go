package algo

import (
	"math"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/runtime"
)

// sortWindows sorts the n elements of v, more than one binding covers, in windows of w
// elements (cut short where a chunk of v's copy ends, inWindows): each window is sorted by
// Sort's usual algorithms, then the sorted runs are merged (mergeAll). A merge of two runs is cut into output windows of at most w elements: the
// host finds where each output window starts in each run (mergeCoRank, a binary search
// reading single elements) so that each window's share of each run is at most w elements
// and binds as a section; mergeKernel then merges the shares. Keys compare as Sort orders
// them (sortKey with tc, so descending too), and the merge takes the first run's element
// first on a tie.
func sortWindows[T Number](av *accelerator.View, v *arrayview.View[T], n, w int, tc int32) (err error) {
	bounds := []int{0} // the sorted runs are [bounds[i], bounds[i+1])
	err = inWindows(av, n, w, []*arrayview.View[T]{v}, func(lo, hi int, s []*arrayview.View[T]) error {
		bounds = append(bounds, hi)
		if hi-lo < 2 {
			return nil
		}
		return sortVector(av, s[0], hi-lo, tc)
	})
	if err != nil {
		return err
	}
	return mergeAll(av, v, bounds, w, tc)
}

// mergeAll merges the sorted runs [bounds[i], bounds[i+1]) of v (bounds[0] = 0, the last
// the length n) on av into one: neighbouring runs pairwise (mergeRuns, output windows of
// at most w elements), round by round, ping-ponging between v and a temporary view of n
// elements, and copies the result back to v if it ends in the temporary.
func mergeAll[T Number](av *accelerator.View, v *arrayview.View[T], bounds []int, w int, tc int32) (err error) {
	if len(bounds) <= 2 {
		return nil
	}
	n := bounds[len(bounds)-1]
	tmp, err := arrayview.New(runtime.Ext(n), make([]T, n))
	if err != nil {
		return err
	}
	tmp.DiscardData()
	defer func() {
		tmp.DiscardData() // nothing of it is copied back
		err = joinErr(err, tmp.Close())
	}()
	src, dst := v, tmp
	for len(bounds) > 2 {
		next := []int{0}
		for i := 0; i+1 < len(bounds); i += 2 {
			lo, mid, hi := bounds[i], bounds[i+1], bounds[min(i+2, len(bounds)-1)]
			if err := mergeRuns(av, src, dst, lo, mid, hi, w, tc); err != nil {
				return err
			}
			next = append(next, hi)
		}
		bounds = next
		src, dst = dst, src
	}
	if src == v {
		return nil
	}
	return copyWindows(av, src, v, 0, 0, n, w)
}

// copyWindows copies the n elements of src from element so to dst from element do, in
// windows of at most w elements that bind on av (sortStoreKernel with the identity mapping of uint32).
func copyWindows[T Number](av *accelerator.View, src, dst *arrayview.View[T], so, do, n, w int) error {
	for k := 0; k < n; {
		m := min(w, n-k, bindable(av, src, so+k), bindable(av, dst, do+k))
		s, err := src.Section(runtime.Idx(so+k), runtime.Ext(m))
		if err != nil {
			return err
		}
		d, err := dst.Section(runtime.Idx(do+k), runtime.Ext(m))
		if err == nil {
			err = dispatch(av, runtime.Ext(m), sortStoreKernel[T]{Src: s.ReadOnly(), Dst: d, Type: 1})
			err = joinErr(err, d.Release())
		}
		if err = joinErr(err, s.Release()); err != nil {
			return err
		}
		k += m
	}
	return nil
}

// mergeRuns merges the sorted runs src[lo:mid] and src[mid:hi] into dst[lo:hi], in output
// windows of at most w elements.
func mergeRuns[T Number](av *accelerator.View, src, dst *arrayview.View[T], lo, mid, hi, w int, tc int32) error {
	na, nb := mid-lo, hi-mid
	if nb == 0 {
		return copyWindows(av, src, dst, lo, lo, na, w)
	}
	i0 := 0
	for p0 := 0; p0 < na+nb; {
		// Each run's share is at most the window, so each binds in one chunk of its copy.
		m := min(w, na+nb-p0, bindable(av, dst, lo+p0))
		if i0 < na {
			m = min(m, bindable(av, src, lo+i0))
		}
		if p0-i0 < nb {
			m = min(m, bindable(av, src, mid+p0-i0))
		}
		p1 := p0 + m
		i1, err := mergeCoRank(src, lo, mid, na, nb, p1, tc)
		if err != nil {
			return err
		}
		if err := mergeWindow(av, src, dst, lo+i0, mid+(p0-i0), i1-i0, (p1-i1)-(p0-i0), lo+p0, tc); err != nil {
			return err
		}
		i0, p0 = i1, p1
	}
	return nil
}

// bindable returns how many elements of v from element i bind as one section on av
// (arrayview.View.BindEnd), at least 1.
func bindable[T Number](av *accelerator.View, v *arrayview.View[T], i int) int {
	return max(v.BindEnd(av, i)-i, 1)
}

// mergeWindow merges the ma elements of src from a and the mb from b into dst from o.
func mergeWindow[T Number](av *accelerator.View, src, dst *arrayview.View[T], a, b, ma, mb, o int, tc int32) error {
	if ma == 0 || mb == 0 {
		from, m := a, ma
		if ma == 0 {
			from, m = b, mb
		}
		return copyWindows(av, src, dst, from, o, m, m)
	}
	sa, err := src.Section(runtime.Idx(a), runtime.Ext(ma))
	if err != nil {
		return err
	}
	sb, err := src.Section(runtime.Idx(b), runtime.Ext(mb))
	if err != nil {
		return joinErr(err, sa.Release())
	}
	so, err := dst.Section(runtime.Idx(o), runtime.Ext(ma+mb))
	if err == nil {
		k := mergeKernel[T]{A: sa.ReadOnly(), B: sb.ReadOnly(), Out: so, NA: int32(ma), NB: int32(mb), Type: tc}
		err = joinErr(dispatch(av, runtime.Ext(ceilDiv(ma+mb, mergePer)), k), so.Release())
	}
	return joinErr(joinErr(err, sa.Release()), sb.Release())
}

// mergeCoRank returns how many of the first p elements of the merge of the sorted runs
// src[lo:lo+na] and src[mid:mid+nb] come from the first run: the merge path's crossing of
// the diagonal p, found by a binary search that reads single elements (readOne).
func mergeCoRank[T Number](src *arrayview.View[T], lo, mid, na, nb, p int, tc int32) (int, error) {
	l, h := max(0, p-nb), min(p, na)
	for l < h {
		m := (l + h) / 2
		x, err := readOne(src, lo+m)
		if err != nil {
			return 0, err
		}
		y, err := readOne(src, mid+p-m-1)
		if err != nil {
			return 0, err
		}
		if sortKey(ewBitsOf(x), tc) <= sortKey(ewBitsOf(y), tc) {
			l = m + 1
		} else {
			h = m
		}
	}
	return l, nil
}

// mergePer is the number of consecutive output elements a thread of mergeKernel writes.
const mergePer = 16

// mergeKernel merges the sorted runs A (NA elements) and B (NB elements) into Out. Thread
// g writes the outputs [g*mergePer, (g+1)*mergePer): it finds by a binary search how many
// of A's elements come before its first output (the merge path), then merges sequentially,
// taking A's element first on a tie. Keys compare as Sort orders them (mergeKey). Its GPU
// body is generated from Each by ampgen.
type mergeKernel[T Number] struct {
	A, B   *arrayview.ReadView[T]
	Out    *arrayview.View[T]
	NA, NB int32
	Type   int32 // typeCode[T], with sortDescending for the reverse order
}

// Each is the definition and the GPU body.
func (k mergeKernel[T]) Each(g runtime.Index) {
	na, nb, tc := int(k.NA), int(k.NB), k.Type
	p := g[0] * mergePer
	l, h := max(0, p-nb), min(p, na)
	for l < h {
		m := (l + h) / 2
		if mergeKey(k.A.At(runtime.Idx(m)), tc) <= mergeKey(k.B.At(runtime.Idx(p-m-1)), tc) {
			l = m + 1
		} else {
			h = m
		}
	}
	i, j := l, p-l
	for q := p; q < min(p+mergePer, na+nb); q++ {
		takeA := j >= nb
		if !takeA && i < na {
			takeA = mergeKey(k.A.At(runtime.Idx(i)), tc) <= mergeKey(k.B.At(runtime.Idx(j)), tc)
		}
		if takeA {
			k.Out.Set(runtime.Idx(q), k.A.At(runtime.Idx(i)))
			i++
		} else {
			k.Out.Set(runtime.Idx(q), k.B.At(runtime.Idx(j)))
			j++
		}
	}
}

// mergeKey is sortKey of x's bits (tc: typeCode[T], with sortDescending for the reverse
// order).
func mergeKey[T Number](x T, tc int32) uint32 {
	if tc&^sortDescending == 2 {
		return sortKey(math.Float32bits(float32(x)), tc)
	}
	return sortKey(uint32(x), tc)
}
