package runtime_test

import (
	"context"
	"errors"
	"fmt"
	goruntime "runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	amprt "github.com/goamp/goamp/runtime"
)

// tiledFunc adapts a function to amprt.TiledKernel.
type tiledFunc func(amprt.TiledIndex)

func (f tiledFunc) Tiled(t amprt.TiledIndex) { f(t) }

// indexFunc adapts a function to amprt.IndexKernel.
type indexFunc func(amprt.Index)

func (f indexFunc) Each(i amprt.Index) { f(i) }

// runWithin runs f and fails the test if it does not return in time, which
// would mean a deadlock.
func runWithin(t *testing.T, f func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- f() }()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("run did not return within 30s: deadlock")
		return nil
	}
}

// tileAverage is the C++ AMP tile-average sample: every element becomes the
// average of its 2x2 tile, computed from tile_static memory after a barrier.
type tileAverage struct {
	in, out []float32
	cols    int
}

func (k *tileAverage) Tiled(t amprt.TiledIndex) {
	nums := amprt.TileStatic[float32](t, 4) // tile_static float nums[2][2]
	nums[t.TileExtent.Linear(t.Local)] = k.in[t.Global[0]*k.cols+t.Global[1]]
	t.Barrier.Wait()
	sum := nums[0] + nums[1] + nums[2] + nums[3]
	k.out[t.Global[0]*k.cols+t.Global[1]] = sum / 4
}

var sampleIn = []float32{
	2, 2, 9, 7, 1, 4,
	4, 4, 8, 8, 3, 4,
	1, 5, 1, 2, 5, 2,
	6, 8, 3, 2, 7, 2,
}

func TestRunTiledCPUTileAverage(t *testing.T) {
	tests := []struct {
		name string
		in   []float32
		want []float32
	}{
		{"C++ AMP sample", sampleIn, []float32{
			3, 3, 8, 8, 3, 3,
			3, 3, 8, 8, 3, 3,
			5, 5, 2, 2, 4, 4,
			5, 5, 2, 2, 4, 4,
		}},
		{"constant", []float32{
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		}, []float32{
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
			1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k := &tileAverage{in: tt.in, out: make([]float32, 24), cols: 6}
			err := runWithin(t, func() error {
				return amprt.RunTiledCPU(context.Background(), amprt.Ext(4, 6).Tile(2, 2), k)
			})
			require.NoError(t, err)
			assert.Equal(t, tt.want, k.out)
		})
	}
}

func TestRunCPU(t *testing.T) {
	tests := []struct {
		name string
		e    amprt.Extent
	}{
		{"rank1 small", amprt.Ext(1)},
		{"rank1", amprt.Ext(1000)},
		{"rank2", amprt.Ext(37, 53)},
		{"rank3", amprt.Ext(7, 11, 13)},
		{"rank3 thin", amprt.Ext(100, 1, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := make([]int, tt.e.Size())
			err := amprt.RunCPU(context.Background(), tt.e, indexFunc(func(i amprt.Index) {
				n := tt.e.Linear(i)
				if n < 0 || n >= len(seen) || !tt.e.Contains(i) {
					panic(fmt.Sprintf("index %v outside %v", i, tt.e))
				}
				seen[n]++
			}))
			require.NoError(t, err)
			for n, c := range seen {
				require.Equal(t, 1, c, "index %v", tt.e.Delinearize(n))
			}
		})
	}
}

// TestRunCPUErrors: RunCPU and RunTiledCPU reject an invalid extent or compute domain and a
// nil kernel; a nil context is treated as context.Background rather than panicking.
func TestRunCPUErrors(t *testing.T) {
	noop := indexFunc(func(amprt.Index) {})
	tnoop := tiledFunc(func(amprt.TiledIndex) {})
	run := func(e amprt.Extent, k amprt.IndexKernel) func(context.Context) error {
		return func(ctx context.Context) error { return amprt.RunCPU(ctx, e, k) }
	}
	tiled := func(te amprt.TiledExtent, k amprt.TiledKernel) func(context.Context) error {
		return func(ctx context.Context) error { return amprt.RunTiledCPU(ctx, te, k) }
	}
	tests := []struct {
		name   string
		run    func(context.Context) error
		target error
	}{
		{"rank 0", run(amprt.Ext(), noop), amprt.ErrInvalidExtent},
		{"rank 4", run(amprt.Ext(1, 1, 1, 1), noop), amprt.ErrInvalidExtent},
		{"zero dim", run(amprt.Ext(3, 0), noop), amprt.ErrInvalidExtent},
		{"nil kernel", run(amprt.Ext(3), nil), amprt.ErrNilKernel},
		{"tiled invalid extent", tiled(amprt.Ext(0).Tile(1), tnoop), amprt.ErrInvalidExtent},
		{"tiled not divisible", tiled(amprt.Ext(5).Tile(2), tnoop), amprt.ErrInvalidComputeDomain},
		{"tiled too big", tiled(amprt.Ext(2048).Tile(2048), tnoop), amprt.ErrInvalidComputeDomain},
		{"tiled nil kernel", tiled(amprt.Ext(4).Tile(2), nil), amprt.ErrNilKernel},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.ErrorIs(t, tt.run(context.Background()), tt.target)
		})
	}
	var nilCtx context.Context
	assert.NoError(t, run(amprt.Ext(3), noop)(nilCtx))
	assert.NoError(t, tiled(amprt.Ext(4).Tile(2), tnoop)(nilCtx))
}

var errBoom = errors.New("boom")

// kernelPanicCases are TestKernelPanic's kernels, each panicking at one global index.
var kernelPanicCases = []struct {
	name   string
	run    func(ctx context.Context) error
	global amprt.Index
	value  any
	msg    string
}{
	{
		name: "RunCPU rank2",
		run: func(ctx context.Context) error {
			return amprt.RunCPU(ctx, amprt.Ext(10, 10), indexFunc(func(i amprt.Index) {
				if i == amprt.Idx(2, 3) {
					panic("bad index")
				}
			}))
		},
		global: amprt.Idx(2, 3), value: "bad index", msg: "kernel panicked at global index (2, 3): bad index",
	},
	{
		name: "RunCPU runtime error",
		run: func(ctx context.Context) error {
			var s []int
			return amprt.RunCPU(ctx, amprt.Ext(50), indexFunc(func(i amprt.Index) {
				if i[0] == 42 {
					_ = s[i[0]]
				}
			}))
		},
		global: amprt.Idx(42), msg: "index out of range",
	},
	{
		name: "RunTiledCPU while the others wait",
		run: func(ctx context.Context) error {
			return amprt.RunTiledCPU(ctx, amprt.Ext(8, 8).Tile(4, 4), tiledFunc(func(ti amprt.TiledIndex) {
				if ti.Global == amprt.Idx(5, 6) {
					panic(errBoom)
				}
				ti.Barrier.Wait()
				ti.Barrier.Wait()
			}))
		},
		global: amprt.Idx(5, 6), value: errBoom, msg: "kernel panicked at global index (5, 6): boom",
	},
	{
		name: "RunTiledCPU after a barrier, 1024 threads",
		run: func(ctx context.Context) error {
			return amprt.RunTiledCPU(ctx, amprt.Ext(2048).Tile(1024), tiledFunc(func(ti amprt.TiledIndex) {
				ti.Barrier.Wait()
				if ti.Global[0] == 1500 {
					panic(1500)
				}
				ti.Barrier.Wait()
			}))
		},
		global: amprt.Idx(1500), value: 1500, msg: "(1500): 1500",
	},
	{
		name: "RunTiledCPU Goexit",
		run: func(ctx context.Context) error {
			return amprt.RunTiledCPU(ctx, amprt.Ext(4, 4, 4).Tile(2, 2, 2), tiledFunc(func(ti amprt.TiledIndex) {
				if ti.Global == amprt.Idx(1, 2, 3) {
					goruntime.Goexit()
				}
				ti.Barrier.Wait()
			}))
		},
		global: amprt.Idx(1, 2, 3), value: "kernel called runtime.Goexit", msg: "(1, 2, 3): kernel called runtime.Goexit",
	},
}

func TestKernelPanic(t *testing.T) {
	for _, tt := range kernelPanicCases {
		t.Run(tt.name, func(t *testing.T) {
			err := runWithin(t, func() error { return tt.run(context.Background()) })
			require.ErrorIs(t, err, amprt.ErrKernelPanic)
			assert.NotErrorIs(t, err, amprt.ErrBarrierDivergence)
			var kp *amprt.KernelPanicError
			require.ErrorAs(t, err, &kp)
			assert.Equal(t, tt.global, kp.Global)
			if tt.value != nil {
				assert.Equal(t, tt.value, kp.Value)
			}
			assert.Contains(t, err.Error(), tt.msg)
			if tt.value != "kernel called runtime.Goexit" {
				assert.NotEmpty(t, kp.Stack)
			}
			if e, ok := tt.value.(error); ok {
				assert.ErrorIs(t, err, e)
			}
		})
	}
}

func TestBarrierDivergence(t *testing.T) {
	tests := []struct {
		name   string
		domain amprt.TiledExtent
		kernel func(amprt.TiledIndex)
		tile   amprt.Index
		msg    string
	}{
		{
			name:   "one thread skips the barrier",
			domain: amprt.Ext(8, 8).Tile(4, 4),
			kernel: func(ti amprt.TiledIndex) {
				if ti.Global == amprt.Idx(5, 1) {
					return
				}
				ti.Barrier.Wait()
			},
			tile: amprt.Idx(1, 0), msg: "tile (1, 0) (origin (4, 0))",
		},
		{
			name:   "one thread waits once more",
			domain: amprt.Ext(64).Tile(16),
			kernel: func(ti amprt.TiledIndex) {
				ti.Barrier.Wait()
				if ti.Global[0] == 40 {
					ti.Barrier.Wait()
				}
			},
			tile: amprt.Idx(2), msg: "tile (2) (origin (32))",
		},
		{
			name:   "half the tile skips the second barrier",
			domain: amprt.Ext(1024).Tile(1024),
			kernel: func(ti amprt.TiledIndex) {
				ti.Barrier.Wait()
				if ti.Local[0]%2 == 0 {
					ti.Barrier.WaitWithTileStaticMemoryFence()
				}
			},
			tile: amprt.Idx(0), msg: "tile (0) (origin (0))",
		},
		{
			name:   "thread returns before the others arrive",
			domain: amprt.Ext(2, 4, 4).Tile(2, 2, 2),
			kernel: func(ti amprt.TiledIndex) {
				if ti.Global == amprt.Idx(0, 2, 2) {
					return
				}
				time.Sleep(time.Millisecond)
				ti.Barrier.Wait()
			},
			tile: amprt.Idx(0, 1, 1), msg: "tile (0, 1, 1) (origin (0, 2, 2))",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := runWithin(t, func() error {
				return amprt.RunTiledCPU(context.Background(), tt.domain, tiledFunc(tt.kernel))
			})
			require.ErrorIs(t, err, amprt.ErrBarrierDivergence)
			assert.NotErrorIs(t, err, amprt.ErrKernelPanic)
			var bd *amprt.BarrierDivergenceError
			require.ErrorAs(t, err, &bd)
			assert.Equal(t, tt.tile, bd.Tile)
			assert.Contains(t, err.Error(), tt.msg)
		})
	}
}

func TestContextCancel(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	expired, cancel2 := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel2()

	tests := []struct {
		name string
		ctx  context.Context
		want error
	}{
		{"cancelled", cancelled, context.Canceled},
		{"deadline exceeded", expired, context.DeadlineExceeded},
	}
	for _, tt := range tests {
		t.Run(tt.name+"/RunCPU", func(t *testing.T) {
			var ran atomic.Int64
			err := amprt.RunCPU(tt.ctx, amprt.Ext(100), indexFunc(func(amprt.Index) { ran.Add(1) }))
			assert.ErrorIs(t, err, tt.want)
			assert.Zero(t, ran.Load())
		})
		t.Run(tt.name+"/RunTiledCPU", func(t *testing.T) {
			var ran atomic.Int64
			err := amprt.RunTiledCPU(tt.ctx, amprt.Ext(100).Tile(10), tiledFunc(func(amprt.TiledIndex) { ran.Add(1) }))
			assert.ErrorIs(t, err, tt.want)
			assert.Zero(t, ran.Load())
		})
	}
}

func TestContextCancelInFlight(t *testing.T) {
	tests := []struct {
		name  string
		total int64
		run   func(ctx context.Context, cancel func(), ran *atomic.Int64) error
	}{
		{
			name:  "RunCPU",
			total: 1 << 20,
			run: func(ctx context.Context, cancel func(), ran *atomic.Int64) error {
				return amprt.RunCPU(ctx, amprt.Ext(1<<10, 1<<10), indexFunc(func(amprt.Index) {
					if ran.Add(1) == 1 {
						cancel()
					}
				}))
			},
		},
		{
			name:  "RunTiledCPU",
			total: 1 << 16,
			run: func(ctx context.Context, cancel func(), ran *atomic.Int64) error {
				return amprt.RunTiledCPU(ctx, amprt.Ext(1<<8, 1<<8).Tile(4, 4), tiledFunc(func(ti amprt.TiledIndex) {
					if ran.Add(1) == 1 {
						cancel()
					}
					ti.Barrier.Wait()
				}))
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var ran atomic.Int64
			err := runWithin(t, func() error { return tt.run(ctx, cancel, &ran) })
			require.ErrorIs(t, err, context.Canceled)
			assert.Less(t, ran.Load(), tt.total, "cancellation did not stop the run")
		})
	}
}

// TestRunTiledCPURepeated runs many small tiled kernels in a row, so that
// worker start-up and shutdown are exercised under the race detector.
func TestRunTiledCPURepeated(t *testing.T) {
	for i := range 50 {
		k := &tileAverage{in: sampleIn, out: make([]float32, 24), cols: 6}
		require.NoError(t, amprt.RunTiledCPU(context.Background(), amprt.Ext(4, 6).Tile(2, 2), k), "run %d", i)
		require.Equal(t, float32(3), k.out[0])
	}
}

func BenchmarkRunTiledCPU(b *testing.B) {
	benchmarks := []struct {
		name   string
		domain amprt.TiledExtent
	}{
		{"1D-64", amprt.Ext(1 << 16).Tile(64)},
		{"1D-256", amprt.Ext(1 << 16).Tile(256)},
		{"1D-1024", amprt.Ext(1 << 16).Tile(1024)},
		{"2D-16x16", amprt.Ext(256, 256).Tile(16, 16)},
		{"3D-64x4x4", amprt.Ext(64, 32, 32).Tile(64, 4, 4)},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			n := bm.domain.Extent.Size()
			in := make([]float32, n)
			out := make([]float32, n)
			size := bm.domain.TileSize()
			k := tiledFunc(func(t amprt.TiledIndex) {
				sh := amprt.TileStatic[float32](t, size)
				l := t.TileExtent.Linear(t.Local)
				g := bm.domain.Extent.Linear(t.Global)
				sh[l] = in[g]
				t.Barrier.Wait()
				out[g] = sh[size-1-l]
			})
			for b.Loop() {
				if err := amprt.RunTiledCPU(context.Background(), bm.domain, k); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "threads/s")
		})
	}
}

// ExampleRunTiledCPU runs the C++ AMP tile-average sample: every element of
// a 4x6 matrix becomes the average of its 2x2 tile.
func ExampleRunTiledCPU() {
	in := []float32{
		2, 2, 9, 7, 1, 4,
		4, 4, 8, 8, 3, 4,
		1, 5, 1, 2, 5, 2,
		6, 8, 3, 2, 7, 2,
	}
	k := &tileAverage{in: in, out: make([]float32, len(in)), cols: 6}
	if err := amprt.RunTiledCPU(context.Background(), amprt.Ext(4, 6).Tile(2, 2), k); err != nil {
		fmt.Println(err)
		return
	}
	for r := range 4 {
		fmt.Println(k.out[r*6 : r*6+6])
	}
	// Output:
	// [3 3 8 8 3 3]
	// [3 3 8 8 3 3]
	// [5 5 2 2 4 4]
	// [5 5 2 2 4 4]
}
