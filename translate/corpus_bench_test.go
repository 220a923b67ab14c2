package translate_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	"github.com/goamp/goamp/cmd/ampview/demos"
	"github.com/goamp/goamp/fmath"
	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/internal/rtlink"
	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/translate/testdata/corpus"
	"github.com/goamp/goamp/vec"
)

// benchKernel makes one corpus kernel's inputs and returns a run on a view: a dispatch,
// per thread or not, and the outputs brought to the host.
type benchKernel struct {
	name  string
	setup func(b *testing.B, r *rand.Rand) func(av *accelerator.View, perThread bool) error
}

// syncRun returns a run that dispatches (per thread where pt is set) and synchronizes outs.
func syncRun[T any](dispatch func(av *accelerator.View, pt bool) error, outs ...*arrayview.View[T]) func(*accelerator.View, bool) error {
	return func(av *accelerator.View, pt bool) error {
		err := dispatch(av, pt)
		for _, o := range outs {
			if err == nil {
				err = o.Synchronize()
			}
		}
		return err
	}
}

// tiledRun returns a run of a tiled kernel over dom that synchronizes outs.
func tiledRun[T any](dom runtime.TiledExtent, k runtime.TiledKernel, outs ...*arrayview.View[T]) func(*accelerator.View, bool) error {
	return syncRun(func(av *accelerator.View, pt bool) error {
		return runtime.ParallelForEachTiled(av, dom, perThreadIf(pt, k))
	}, outs...)
}

// rangeRun returns a run of a kernel without tiles over ext that synchronizes outs.
func rangeRun[T any](ext runtime.Extent, k runtime.IndexKernel, outs ...*arrayview.View[T]) func(*accelerator.View, bool) error {
	return syncRun(func(av *accelerator.View, pt bool) error {
		return runtime.ParallelForEach(av, ext, perThreadIf(pt, k))
	}, outs...)
}

// perThreadIf returns kernel k, or where pt is set k wrapped by rtlink's PerThread, which
// hides its fast CPU body so that the CPU runs it thread by thread.
func perThreadIf[K any](pt bool, k K) K {
	if pt {
		return rtlink.Get[runtime.Block]().PerThread(k).(K)
	}
	return k
}

// newView makes a view of data.
func newView[T any](b *testing.B, data []T, dims ...int) *arrayview.View[T] {
	v, err := arrayview.New(runtime.Ext(dims...), data)
	if err != nil {
		b.Fatal(err)
	}
	return v
}

var benchKernels = []benchKernel{
	{"TileSum/65536/256", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 16
		sums, total := newView(b, make([]int32, 2*n/256), 2*n/256), newView(b, make([]int32, 1), 1)
		k := corpus.TileSum{In: newView(b, randInts(r, n, -1000, 1000), n).ReadOnly(), Sums: sums, Total: total}
		return tiledRun(runtime.Ext(n).Tile(256), k, sums, total)
	}},
	{"Stencil/512x512/16x16", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 512
		o := newView(b, make([]float32, n*n), n, n)
		k := corpus.Stencil{In: newView(b, randFloats(r, n*n, -1, 1), n, n).ReadOnly(), Out: o, Rows: n, Cols: n}
		return tiledRun(runtime.Ext(n, n).Tile(16, 16), k, o)
	}},
	{"FloatAdd/65536/256", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 16
		sum, maxi := newView(b, make([]float32, 1), 1), newView(b, make([]uint32, 1), 1)
		k := corpus.FloatAdd{In: newView(b, randFloats(r, n, -1, 1), n).ReadOnly(), Sum: sum, Maxi: maxi}
		return tiledRun(runtime.Ext(n).Tile(256), k, sum)
	}},
	{"GroupMax/65536/256", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 16
		o := newView(b, make([]int32, n), n)
		k := corpus.GroupMax{In: newView(b, randInts(r, n, -1e6, 1e6), n).ReadOnly(), Out: o}
		return tiledRun(runtime.Ext(n).Tile(256), k, o)
	}},
	{"Phases/65536/256", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 16
		o := newView(b, make([]int32, n), n)
		k := corpus.Phases{In: newView(b, randInts(r, n, -1e6, 1e6), n).ReadOnly(), Out: o, Rounds: 4, Mode: 1}
		return tiledRun(runtime.Ext(n).Tile(256), k, o)
	}},
	{"MatMul/256x256x256/16x16", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 256
		o := newView(b, make([]float32, n*n), n, n)
		k := corpus.MatMul{A: newView(b, randFloats(r, n*n, -1, 1), n, n).ReadOnly(),
			B: newView(b, randFloats(r, n*n, -1, 1), n, n).ReadOnly(), C: o, K: n}
		return tiledRun(runtime.Ext(n, n).Tile(corpus.MatMulTS, corpus.MatMulTS), k, o)
	}},
	{"Heat/512x512/16x16/10steps", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n, steps = 512, 10
		u, w := newView(b, randFloats(r, n*n, -1, 1), n, n), newView(b, make([]float32, n*n), n, n)
		ks := [2]corpus.Stencil{{In: u.ReadOnly(), Out: w, Rows: n, Cols: n}, {In: w.ReadOnly(), Out: u, Rows: n, Cols: n}}
		runs := [2]func(*accelerator.View, bool) error{}
		for i, k := range ks {
			runs[i] = tiledRun[float32](runtime.Ext(n, n).Tile(16, 16), k)
		}
		return func(av *accelerator.View, pt bool) error {
			for i := range steps {
				if err := runs[i%2](av, pt); err != nil {
					return err
				}
			}
			return u.Synchronize()
		}
	}},
	{"Bitonic/64x1024", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const tiles, tile = 64, 1024
		keys := randInts(r, tiles*tile, -1e6, 1e6)
		v := newView(b, append([]int32(nil), keys...), tiles*tile)
		run := tiledRun(runtime.Ext(tiles*tile).Tile(tile), corpus.Bitonic{Keys: v}, v)
		return func(av *accelerator.View, pt bool) error {
			if err := v.CopyFrom(keys); err != nil { // unsorted again
				return err
			}
			return run(av, pt)
		}
	}},
	{"Axpy[float32]/1048576", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 20
		y := newView(b, randFloats(r, n, -1, 1), n)
		k := corpus.Axpy[float32]{X: newView(b, randFloats(r, n, -1, 1), n).ReadOnly(), Y: y, Alpha: 0.5}
		return rangeRun(runtime.Ext(n), k, y)
	}},
	{"HalfOps/1048576", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 1 << 20
		x := make([]half.Float16, n)
		for i := range x {
			x[i] = half.FromBits(uint16(r.Uint32()))
		}
		wide, o := newView(b, make([]float32, n), n), newView(b, make([]half.Float16, n), n)
		k := corpus.HalfOps{X: newView(b, x, n).ReadOnly(), F: newView(b, randFloats(r, n, -100, 100), n).ReadOnly(),
			Wide: wide, Out: o, Flags: newView(b, make([]int32, n), n)}
		return rangeRun(runtime.Ext(n), k, o)
	}},
	{"NBody/4096/256", func(b *testing.B, r *rand.Rand) func(*accelerator.View, bool) error {
		const n = 4096
		pos := randVec4s(r, n, -4, 4)
		vel, np := newView(b, randVec4s(r, n, -1, 1), n), newView(b, make([]vec.Float4, n), n)
		k := demos.NBodyKernel{Pos: newView(b, pos, n).ReadOnly(), Vel: vel, NewPos: np, Dt: 0.01, Eps2: 0.05, Bodies: n}
		return tiledRun(runtime.Ext(n).Tile(256), k, vel, np)
	}},
}

// BenchmarkCorpusCPUBodies times corpus kernels three ways in one run: the CPU
// accelerator with the generated fast body (EachTile, or EachRange for the kernels without
// tiles), the CPU accelerator's
// per-thread executor (rtlink's PerThread), and the GPU body on the first Vulkan
// device (lavapipe here), each dispatch followed by the outputs' Synchronize. It reports
// each in wall ms and process CPU ms (all threads, lavapipe's too) per dispatch, and the
// wall-time ratios perthread/fast and vulkan/fast:
//
//	go test ./translate -run '^$' -bench CorpusCPUBodies -benchtime 5x
func BenchmarkCorpusCPUBodies(b *testing.B) {
	cpu, err := accelerator.CPU().CreateView(accelerator.Automatic)
	if err != nil {
		b.Fatal(err)
	}
	defer cpu.Close()
	var gpu *accelerator.View
	for _, a := range accelerator.All() {
		if !a.Traits().HostMemory {
			if gpu, err = a.CreateView(accelerator.Automatic); err != nil {
				b.Fatal(err)
			}
			defer gpu.Close()
			break
		}
	}
	for _, bk := range benchKernels {
		b.Run(bk.name, func(b *testing.B) {
			fast := bk.setup(b, rand.New(rand.NewPCG(1, 2)))
			slow := bk.setup(b, rand.New(rand.NewPCG(1, 2)))
			var dev func(*accelerator.View, bool) error
			if gpu != nil {
				dev = bk.setup(b, rand.New(rand.NewPCG(1, 2)))
				if err := dev(gpu, false); err != nil { // warm up: upload, pipeline
					b.Fatal(err)
				}
			}
			var wall, cpuT [3]time.Duration // fast, per thread, Vulkan
			timed := func(i int, f func() error) {
				start, startCPU := time.Now(), cpuTime()
				if err := f(); err != nil {
					b.Fatal(err)
				}
				wall[i] += time.Since(start)
				cpuT[i] += cpuTime() - startCPU
			}
			for range b.N {
				timed(0, func() error { return fast(cpu, false) })
				timed(1, func() error { return slow(cpu, true) })
				if dev != nil {
					timed(2, func() error { return dev(gpu, false) })
				}
			}
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
			for i, name := range []string{"fast", "perthread", "vulkan"} {
				if i < 2 || dev != nil {
					b.ReportMetric(ms(wall[i]), name+"-ms")
					b.ReportMetric(ms(cpuT[i]), name+"-cpums")
				}
				if i > 0 && (i < 2 || dev != nil) {
					b.ReportMetric(float64(wall[i])/float64(wall[0]), name+"/fast")
				}
			}
		})
	}
}

// nbodySink keeps BenchmarkNBodyScalarFloor's result alive.
var nbodySink vec.Float4

// BenchmarkNBodyScalarFloor is the floor under NBody's fast CPU body on one core: the
// kernel's inner loop (demos.NBodyKernel's interact, with fmath.Rsqrt's float64 square root and
// division) over 256 staged bodies, with nothing around it. It reports ns per body-body
// interaction and GFLOP/s at the customary 20 floating-point operations per interaction;
// NBody/4096/256 has 4096*4096 interactions per step, so a step takes at least
// 16.8M x ns-per-interaction / cores:
//
//	go test ./translate -run '^$' -bench NBodyScalarFloor -count 3
func BenchmarkNBodyScalarFloor(b *testing.B) {
	q := randVec4s(rand.New(rand.NewPCG(1, 2)), 256, -4, 4)
	p, eps2 := q[7], float32(0.05)
	for range b.N {
		a := vec.F4(0, 0, 0, 0)
		for j := range q {
			dx, dy, dz := q[j].X-p.X, q[j].Y-p.Y, q[j].Z-p.Z
			inv := fmath.Rsqrt(eps2 + dx*dx + dy*dy + dz*dz)
			s := (q[j].W * inv) * (inv * inv)
			a = vec.F4(a.X+dx*s, a.Y+dy*s, a.Z+dz*s, 0)
		}
		nbodySink = a
	}
	ns := float64(b.Elapsed().Nanoseconds()) / float64(b.N*len(q))
	b.ReportMetric(ns, "ns/interaction")
	b.ReportMetric(20/ns, "GFLOP/s")
}
