//go:build !((linux || darwin) && amd64)

package vk

// runCalls makes the calls of recs, in order, one by one.
func runCalls(recs []callRec) {
	for i := range recs {
		r := &recs[i]
		r.r = call(r.fn, r.a[0], r.a[1], r.a[2], r.a[3], r.a[4], r.a[5], r.a[6], r.a[7], r.a[8], r.a[9])
	}
}
