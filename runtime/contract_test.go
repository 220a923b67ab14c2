package runtime_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/amptest"
	"github.com/goamp/goamp/arrayview"
	amprt "github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// contractSPIRV reads runtime/testdata/contract/NAME.spv (make shaders compiles it).
func contractSPIRV(t testing.TB, name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", "contract", name+".spv"))
	require.NoError(t, err)
	return b
}

// contractProg makes the test program NAME (registered as "contract_NAME").
func contractProg(t testing.TB, name string, rank int) *amprt.Program {
	p, err := amprt.NewProgram("contract_"+name, contractSPIRV(t, name), rank)
	require.NoError(t, err)
	return p
}

// hostData returns a view's elements on the host (after Synchronize).
func hostData[T any](t *testing.T, v *arrayview.View[T]) []T {
	t.Helper()
	d, err := v.ReadData()
	require.NoError(t, err)
	return d
}

func randFloats(rng *rand.Rand, n int) []float32 {
	s := make([]float32, n)
	for i := range s {
		s[i] = float32(rng.IntN(2000)-1000) / 8
	}
	return s
}

// scaledAdd matches scaled_add.comp: Y = Alpha*X + Y + Offset (scaled_sub.comp: Y =
// Alpha*X - Y + Offset).
type scaledAdd struct {
	X      *arrayview.ReadView[float32]
	Y      *arrayview.View[float32]
	Alpha  float32
	Offset int32
	prog   *amprt.Program `amp:"-"`
	sub    bool           `amp:"-"`
}

func (k scaledAdd) Each(i amprt.Index) {
	y := k.Y.At(i)
	if k.sub {
		y = -y
	}
	k.Y.Set(i, k.Alpha*k.X.At(i)+y+float32(k.Offset))
}
func (k scaledAdd) Program() *amprt.Program { return k.prog }

// The kernels that get scaled_add.comp's contract wrong, as the user did.
type (
	swappedK struct { // the scalar fields in the wrong order
		X      *arrayview.ReadView[float32]
		Y      *arrayview.View[float32]
		Offset int32
		Alpha  float32
		prog   *amprt.Program `amp:"-"`
	}
	wrongTypeK struct { // an int32 where the GLSL has a float
		X      *arrayview.ReadView[float32]
		Y      *arrayview.View[float32]
		Alpha  int32
		Offset int32
		prog   *amprt.Program `amp:"-"`
	}
	missingK struct { // no Offset
		X     *arrayview.ReadView[float32]
		Y     *arrayview.View[float32]
		Alpha float32
		prog  *amprt.Program `amp:"-"`
	}
	extraK struct { // a scalar the GLSL lacks
		X      *arrayview.ReadView[float32]
		Y      *arrayview.View[float32]
		Alpha  float32
		Offset int32
		Extra  uint32
		prog   *amprt.Program `amp:"-"`
	}
	wrongOrderK struct { // the views in the wrong order: the read-only one on a written binding
		Y      *arrayview.View[float32]
		X      *arrayview.ReadView[float32]
		Alpha  float32
		Offset int32
		prog   *amprt.Program `amp:"-"`
	}
)

func (k swappedK) Each(i amprt.Index) {
	k.Y.Set(i, k.Alpha*k.X.At(i)+k.Y.At(i)+float32(k.Offset))
}
func (k swappedK) Program() *amprt.Program { return k.prog }
func (k wrongTypeK) Each(i amprt.Index) {
	k.Y.Set(i, float32(k.Alpha)*k.X.At(i)+k.Y.At(i)+float32(k.Offset))
}
func (k wrongTypeK) Program() *amprt.Program { return k.prog }
func (k missingK) Each(i amprt.Index)        { k.Y.Set(i, k.Alpha*k.X.At(i)+k.Y.At(i)) }
func (k missingK) Program() *amprt.Program   { return k.prog }
func (k extraK) Each(i amprt.Index) {
	k.Y.Set(i, k.Alpha*k.X.At(i)+k.Y.At(i)+float32(k.Offset)+float32(k.Extra))
}
func (k extraK) Program() *amprt.Program { return k.prog }
func (k wrongOrderK) Each(i amprt.Index) {
	k.Y.Set(i, k.Alpha*k.X.At(i)+k.Y.At(i)+float32(k.Offset))
}
func (k wrongOrderK) Program() *amprt.Program { return k.prog }

// requireErrorAs requires err to match sentinel (errors.Is) and to be an E (errors.As),
// and returns it as one.
func requireErrorAs[E error](t *testing.T, err, sentinel error) E {
	t.Helper()
	require.ErrorIs(t, err, sentinel)
	var e E
	require.ErrorAs(t, err, &e)
	return e
}

// requireContract checks a *ContractError and the sides it describes.
func requireContract(t *testing.T, err error, kernel, program, field, goSide, gpuSide string) {
	t.Helper()
	ce := requireErrorAs[*amprt.ContractError](t, err, amprt.ErrContract)
	assert.Equal(t, kernel, ce.Kernel)
	assert.Equal(t, program, ce.Program)
	assert.Equal(t, field, ce.Field)
	assert.Contains(t, ce.Go, goSide)
	assert.Contains(t, ce.GPU, gpuSide)
	assert.Contains(t, err.Error(), field)
}

// scaledAddViews returns n fresh random floats for x and y and views of copies of them,
// closed when t ends.
func scaledAddViews(t *testing.T, rng *rand.Rand, n int) (xs, ys []float32, x, y *arrayview.View[float32]) {
	xs, ys = randFloats(rng, n), randFloats(rng, n)
	x = arrayview.MustNew(amprt.Ext(n), slices.Clone(xs))
	y = arrayview.MustNew(amprt.Ext(n), slices.Clone(ys))
	t.Cleanup(func() {
		y.Close()
		x.Close()
	})
	return xs, ys, x, y
}

// checkScaledAdd runs the matching kernel on x and y and checks the result against the
// original data: a failed dispatch before it left both intact, host and device.
func checkScaledAdd(t *testing.T, av *accelerator.View, x *arrayview.View[float32], y *arrayview.View[float32],
	xs, ys []float32, prog *amprt.Program, sub bool) {
	t.Helper()
	require.Equal(t, xs, hostData(t, x))
	require.Equal(t, ys, hostData(t, y))
	k := scaledAdd{X: x.ReadOnly(), Y: y, Alpha: 1.5, Offset: -3, prog: prog, sub: sub}
	require.NoError(t, amprt.ParallelForEach(av, x.Extent(), k))
	require.NoError(t, y.Synchronize())
	for i := range ys {
		want := 1.5*xs[i] + ys[i] - 3
		if sub {
			want = 1.5*xs[i] - ys[i] - 3
		}
		require.Equal(t, want, hostData(t, y)[i], "element %d", i)
	}
	require.Equal(t, xs, hostData(t, x), "x is never written")
}

// TestContractScalarsAndViews: the mismatches of scalar fields and view order
// are *ContractError before anything runs, on every accelerator, and the data is intact.
func TestContractScalarsAndViews(t *testing.T) {
	prog := contractProg(t, "scaled_add", 1)
	type views = struct {
		x *arrayview.ReadView[float32]
		y *arrayview.View[float32]
	}
	tests := []struct {
		name                 string
		kernel               func(v views) amprt.IndexKernel
		kernelName, field    string
		goSide, gpuSide      string
		checkScaledAddAfter  bool
		readOnlyNeverWritten bool
	}{
		{"fields swapped", func(v views) amprt.IndexKernel { return swappedK{X: v.x, Y: v.y, Offset: 3, Alpha: 2, prog: prog} },
			"runtime_test.swappedK", "Offset", "int32 at push offset 48", "float at offset 48", true, false},
		{"wrong scalar type", func(v views) amprt.IndexKernel { return wrongTypeK{X: v.x, Y: v.y, Alpha: 2, Offset: 3, prog: prog} },
			"runtime_test.wrongTypeK", "Alpha", "int32 at push offset 48", "float at offset 48", true, false},
		{"missing scalar", func(v views) amprt.IndexKernel { return missingK{X: v.x, Y: v.y, Alpha: 2, prog: prog} },
			"runtime_test.missingK", "push member 4", "2 data fields and 1 scalar fields", "int at offset 52", true, false},
		{"extra scalar", func(v views) amprt.IndexKernel {
			return extraK{X: v.x, Y: v.y, Alpha: 2, Offset: 3, Extra: 1, prog: prog}
		},
			"runtime_test.extraK", "Extra", "uint32 at push offset 56", "no member 5: the block has 5", true, false},
		{"views in the wrong order", func(v views) amprt.IndexKernel { return wrongOrderK{Y: v.y, X: v.x, Alpha: 2, Offset: 3, prog: prog} },
			"runtime_test.wrongOrderK", "X", "a read-only argument", "binding 1 is writable", true, true},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				const n = 300
				xs, ys, x, y := scaledAddViews(t, rng, n)
				require.NoError(t, x.SynchronizeTo(av)) // device copies to keep intact
				require.NoError(t, y.SynchronizeTo(av))
				err := amprt.ParallelForEach(av, amprt.Ext(n), tt.kernel(views{x.ReadOnly(), y}))
				requireContract(t, err, tt.kernelName, "contract_scaled_add", tt.field, tt.goSide, tt.gpuSide)
				checkScaledAdd(t, av, x, y, xs, ys, prog, false)
			})
		}
	})
}

// argsK is scaled_add's kernel with data fields of interface type, so that one kernel type
// can be dispatched with its views in either order.
type argsK struct {
	X, Y   amprt.Arg
	Alpha  float32
	Offset int32
	prog   *amprt.Program `amp:"-"`
}

func (k argsK) Each(i amprt.Index) {
	x, y := k.X.(*arrayview.ReadView[float32]), k.Y.(*arrayview.View[float32])
	y.Set(i, k.Alpha*x.At(i)+y.At(i)+float32(k.Offset))
}
func (k argsK) Program() *amprt.Program { return k.prog }

// TestContractAfterPass: a kernel type that passed its checks once is checked again when
// its arguments change: the same type, program and domain with the views swapped is the
// ContractError of a read-only view on a writable binding, not a dispatch, and the data
// is intact; the right order then runs.
func TestContractAfterPass(t *testing.T) {
	prog := contractProg(t, "scaled_add", 1)
	rng := rand.New(rand.NewPCG(3, 4))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		const n = 300
		xs, ys, x, y := scaledAddViews(t, rng, n)
		require.NoError(t, amprt.ParallelForEach(av, amprt.Ext(n), argsK{X: x.ReadOnly(), Y: y, Alpha: 2, prog: prog}))
		require.NoError(t, y.Synchronize())
		for i := range ys {
			ys[i] = 2*xs[i] + ys[i]
		}
		require.Equal(t, ys, hostData(t, y))
		err := amprt.ParallelForEach(av, amprt.Ext(n), argsK{X: y, Y: x.ReadOnly(), Alpha: 2, prog: prog})
		requireContract(t, err, "runtime_test.argsK", "contract_scaled_add", "Y", "a read-only argument", "binding 1 is writable")
		checkScaledAdd(t, av, x, y, xs, ys, prog, false)
	})
}

// TestContractProgramNames: NewProgram refuses a second module under one name; two
// Program literals with one name and different code each run their own code.
func TestContractProgramNames(t *testing.T) {
	add, sub := contractSPIRV(t, "scaled_add"), contractSPIRV(t, "scaled_sub")
	p1, err := amprt.NewProgram("contract_dup", add, 1)
	require.NoError(t, err)
	p2, err := amprt.NewProgram("contract_dup", slices.Clone(add), 1)
	require.NoError(t, err)
	assert.Same(t, p1, p2, "the same name and module give the first program")
	_, err = amprt.NewProgram("contract_dup", sub, 1)
	pe := requireErrorAs[*amprt.ProgramError](t, err, amprt.ErrDuplicateProgram)
	assert.Equal(t, "contract_dup", pe.Name)
	assert.Contains(t, pe.Registered, fmt.Sprintf("%d bytes, sha256", len(add)))
	assert.Contains(t, pe.New, fmt.Sprintf("%d bytes, sha256", len(sub)))
	assert.NotEqual(t, pe.Registered, pe.New)
	_, err = amprt.NewProgram("", add, 1)
	require.ErrorAs(t, err, &pe)
	assert.NotErrorIs(t, err, amprt.ErrDuplicateProgram)

	la := &amprt.Program{Name: "contract_literal", SPIRV: add, Rank: 1}
	lb := &amprt.Program{Name: "contract_literal", SPIRV: sub, Rank: 1}
	rng := rand.New(rand.NewPCG(3, 4))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		for _, sub := range []bool{false, true, false} {
			const n = 200
			xs, ys, x, y := scaledAddViews(t, rng, n)
			prog := la
			if sub {
				prog = lb
			}
			checkScaledAdd(t, av, x, y, xs, ys, prog, sub)
			require.NoError(t, x.Close())
			require.NoError(t, y.Close())
		}
	})
}

// vec3K is a [3]float32 view against vec3.comp's vec3 buffer (array stride 16).
type vec3K struct{ P *arrayview.View[[3]float32] }

func (k vec3K) Each(i amprt.Index) {
	p := k.P.At(i)
	k.P.Set(i, [3]float32{2 * p[0], 2 * p[1], 2 * p[2]})
}

var vec3Prog = func() *amprt.Program {
	b, err := os.ReadFile(filepath.Join("testdata", "contract", "vec3.spv"))
	if err != nil {
		panic(err)
	}
	return amprt.MustProgram("contract_vec3", b, 1)
}()

func (vec3K) Program() *amprt.Program { return vec3Prog }

// fixed16K mirrors fixed16.comp, written for 16x16 tiles only.
type fixed16K struct{ Out *arrayview.View[int32] }

func (k fixed16K) Tiled(t amprt.TiledIndex) { k.Out.Set(t.Global, int32(t.Local[0]*16+t.Local[1])) }

// TestContractLayoutAndTile: a [3]float32 element against a vec3 buffer, and a body with
// a fixed 16x16 local size dispatched with 8x8 tiles.
func TestContractLayoutAndTile(t *testing.T) {
	fixed := contractProg(t, "fixed16", 2)
	rng := rand.New(rand.NewPCG(5, 6))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		pts := make([][3]float32, 40)
		for i := range pts {
			pts[i] = [3]float32{rng.Float32(), rng.Float32(), rng.Float32()}
		}
		orig := slices.Clone(pts)
		p := arrayview.MustNew(amprt.Ext(len(pts)), pts)
		defer p.Close()
		err := amprt.ParallelForEach(av, p.Extent(), vec3K{P: p})
		requireContract(t, err, "runtime_test.vec3K", "contract_vec3", "P", "[3]float32 elements (12 bytes)", "vec3[] with ArrayStride 16")
		require.NoError(t, p.Synchronize())
		assert.Equal(t, orig, hostData(t, p))

		vals := make([]int32, 32*32)
		for i := range vals {
			vals[i] = rng.Int32()
		}
		want := slices.Clone(vals)
		out := arrayview.MustNew(amprt.Ext(32, 32), vals)
		defer out.Close()
		k := fixed16Kernel{fixed16K{out}, fixed}
		err = amprt.ParallelForEachTiled(av, out.Extent().Tile(8, 8), k)
		requireContract(t, err, "runtime_test.fixed16Kernel", "contract_fixed16", "local size", "Vulkan local size 8x8x1", "local_size 16x16x1 (fixed)")
		require.NoError(t, out.Synchronize())
		assert.Equal(t, want, hostData(t, out))

		require.NoError(t, amprt.ParallelForEachTiled(av, out.Extent().Tile(16, 16), k))
		require.NoError(t, out.Synchronize())
		for i, v := range hostData(t, out) {
			require.Equal(t, int32((i/32%16)*16+i%16), v, "element %d", i)
		}
	})
}

// fixed64K mirrors fixed64.comp, a non-tiled body written with a literal local size of 64.
type fixed64K struct {
	Out  *arrayview.View[int32]
	prog *amprt.Program `amp:"-"`
}

func (k fixed64K) Each(i amprt.Index) { k.Out.Set(i, int32(i[0]*1000+i[0]%64)) }

func (k fixed64K) Program() *amprt.Program { return k.prog }

// TestContractFixedGroupSize: a non-tiled program with a fixed local size of 64 runs with
// workgroups of 64 (the dispatcher's own size, GroupSize, is 256), over a domain that is
// not a multiple of either.
func TestContractFixedGroupSize(t *testing.T) {
	prog := contractProg(t, "fixed64", 1)
	eachView(t, func(t *testing.T, av *accelerator.View) {
		const n = 1000
		out := arrayview.MustNew(amprt.Ext(n), make([]int32, n))
		defer out.Close()
		require.NoError(t, amprt.ParallelForEach(av, out.Extent(), fixed64K{out, prog}))
		require.NoError(t, out.Synchronize())
		for i, v := range hostData(t, out) {
			require.Equal(t, int32(i*1000+i%64), v, "element %d", i)
		}
	})
}

// fixed16Kernel gives fixed16K its program.
type fixed16Kernel struct {
	fixed16K
	prog *amprt.Program `amp:"-"`
}

func (k fixed16Kernel) Program() *amprt.Program { return k.prog }

// shared40kK mirrors shared40k.comp: 40,000 bytes of shared memory.
type shared40kK struct {
	Out  *arrayview.View[int32]
	prog *amprt.Program `amp:"-"`
}

func (k shared40kK) Program() *amprt.Program { return k.prog }
func (k shared40kK) Tiled(t amprt.TiledIndex) {
	big := amprt.TileStatic[int32](t, 10000)
	n, l := t.TileExtent.Dim(0), t.Local[0]
	big[l*10] = int32(t.Global[0])
	t.Barrier.Wait()
	k.Out.Set(t.Global, big[(n-1-l)*10])
}

// ranksSharedK mirrors ranks_shared.comp: shared memory sized by the tile through
// AMP_RANKS (specialization constant 3).
type ranksSharedK struct {
	Out  *arrayview.View[float32]
	prog *amprt.Program `amp:"-"`
}

func (k ranksSharedK) Program() *amprt.Program { return k.prog }
func (k ranksSharedK) Tiled(t amprt.TiledIndex) {
	d0, d1 := t.TileExtent.Dim(0), t.TileExtent.Dim(1)
	k.Out.Set(t.Global, float32(d0*1000+d1+t.Local[0]*d1+t.Local[1]+7))
}

// sharedRun dispatches a shared-memory test kernel and returns the data after it, the
// data before it, the results expected if it runs, and its error.
type sharedRun func(t *testing.T, av *accelerator.View, rng *rand.Rand) (got, orig, want []float32, err error)

// shared40kRun runs shared40kK over 64 elements in tiles of 16.
func shared40kRun(prog *amprt.Program) sharedRun {
	return func(t *testing.T, av *accelerator.View, rng *rand.Rand) ([]float32, []float32, []float32, error) {
		vals := make([]int32, 64)
		for j := range vals {
			vals[j] = rng.Int32()
		}
		orig := int32sAsFloats(vals)
		out := arrayview.MustNew(amprt.Ext(64), vals)
		defer out.Close()
		err := amprt.ParallelForEachTiled(av, out.Extent().Tile(16), shared40kK{Out: out, prog: prog})
		require.NoError(t, out.Synchronize())
		want := make([]float32, 64)
		for j := range want {
			want[j] = float32(j/16*16 + 15 - j%16)
		}
		return int32sAsFloats(hostData(t, out)), orig, want, err
	}
}

// ranksRun runs ranksSharedK over 32x32 elements in tiles of d0 x d1.
func ranksRun(prog *amprt.Program, d0, d1 int) sharedRun {
	return func(t *testing.T, av *accelerator.View, rng *rand.Rand) ([]float32, []float32, []float32, error) {
		vals := randFloats(rng, 32*32)
		orig := slices.Clone(vals)
		out := arrayview.MustNew(amprt.Ext(32, 32), vals)
		defer out.Close()
		err := amprt.ParallelForEachTiled(av, out.Extent().Tile(d0, d1), ranksSharedK{Out: out, prog: prog})
		require.NoError(t, out.Synchronize())
		want := make([]float32, len(vals))
		for j := range want {
			r, c := j/32, j%32
			want[j] = float32(d0*1000 + d1 + (r%d0)*d1 + c%d1 + 7)
		}
		return slices.Clone(hostData(t, out)), orig, want, err
	}
}

// TestContractSharedMemory: the shared memory a program declares, fixed or sized by
// specialization constants (through AMP_RANKS, constant 3), against the device's
// maxComputeSharedMemorySize: a *ComputeDomainError naming both numbers where it does
// not fit, with the data intact; the right results where it does. A tile of more threads
// than the device's workgroups have is its *accelerator.FeatureError, and skipped.
func TestContractSharedMemory(t *testing.T) {
	s40 := contractProg(t, "shared40k", 1)
	ranks := contractProg(t, "ranks_shared", 2)
	tests := []struct {
		name    string
		run     sharedRun
		bytes   int
		threads int
	}{
		{"fixed 40000 bytes", shared40kRun(s40), 40000, 1},
		{"spec-sized 8x16", ranksRun(ranks, 8, 16), (8*16*40 + 2) * 4, 8 * 16},
		{"spec-sized 16x16", ranksRun(ranks, 16, 16), (16*16*40 + 2) * 4, 16 * 16},
		{"spec-sized 32x32", ranksRun(ranks, 32, 32), (32*32*40 + 2) * 4, 32 * 32},
	}
	rng := rand.New(rand.NewPCG(7, 8))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		limit := int(av.Accelerator().Limits().MaxSharedMemory)
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				got, orig, want, err := tt.run(t, av, rng)
				if tt.threads > int(av.Accelerator().Limits().MaxWorkgroupInvocations) {
					require.ErrorIs(t, err, accelerator.ErrUnsupportedFeature)
					assert.Equal(t, orig, got, "the data is intact")
					amptest.SkipUnsupported(t, err)
				}
				if tt.bytes <= limit {
					require.NoError(t, err)
					assert.Equal(t, want, got)
					return
				}
				ce := requireErrorAs[*amprt.ComputeDomainError](t, err, amprt.ErrInvalidComputeDomain)
				assert.Equal(t, tt.bytes, ce.Value)
				assert.Equal(t, limit, ce.Limit)
				assert.Contains(t, err.Error(), "maxComputeSharedMemorySize")
				assert.Equal(t, orig, got, "the data is intact")
			})
		}
	})
}

func int32sAsFloats(s []int32) []float32 {
	f := make([]float32, len(s))
	for i, v := range s {
		f[i] = float32(v)
	}
	return f
}

// capProgK runs a contract test program that computes v[i] = v[i] * 3 in a type some
// devices lack (float64.comp, int64.comp); each is its Go body.
type capProgK struct {
	V    *arrayview.View[float32]
	prog *amprt.Program        `amp:"-"`
	each func(float32) float32 `amp:"-"`
}

func (k capProgK) Program() *amprt.Program { return k.prog }
func (k capProgK) Each(i amprt.Index)      { k.V.Set(i, k.each(k.V.At(i))) }

// TestContractCapabilities: a program that declares Float64 or Int64 runs where the device
// has double precision or 64-bit integers and is a *FeatureError naming the capability
// elsewhere, before anything runs.
func TestContractCapabilities(t *testing.T) {
	tests := []struct {
		prog string
		cap  amprt.Capability
		name string
		has  func(*accelerator.Accelerator) bool
		each func(float32) float32 `amp:"-"`
	}{
		{"float64", amprt.CapabilityFloat64, "Float64", (*accelerator.Accelerator).SupportsDoublePrecision,
			func(x float32) float32 { return float32(float64(x) * 3) }},
		{"int64", amprt.CapabilityInt64, "Int64", (*accelerator.Accelerator).SupportsInt64,
			func(x float32) float32 { return float32(int64(x*8)*3) / 8 }},
	}
	rng := rand.New(rand.NewPCG(11, 12))
	for _, tt := range tests {
		t.Run(tt.prog, func(t *testing.T) {
			prog := contractProg(t, tt.prog, 1)
			in, err := prog.Interface()
			require.NoError(t, err)
			require.True(t, in.HasCapability(tt.cap))
			eachView(t, func(t *testing.T, av *accelerator.View) {
				vals := randFloats(rng, 100)
				orig := slices.Clone(vals)
				v := arrayview.MustNew(amprt.Ext(100), vals)
				defer v.Close()
				err := amprt.ParallelForEach(av, v.Extent(), capProgK{V: v, prog: prog, each: tt.each})
				require.NoError(t, v.Synchronize())
				if !tt.has(av.Accelerator()) {
					var fe *accelerator.FeatureError
					require.ErrorAs(t, err, &fe)
					assert.Equal(t, av.Accelerator().Path(), fe.Accelerator)
					assert.ErrorContains(t, err, tt.name+" capability")
					assert.Equal(t, orig, hostData(t, v))
					return
				}
				require.NoError(t, err)
				for i := range orig {
					require.Equal(t, tt.each(orig[i]), hostData(t, v)[i])
				}
			})
		})
	}
}

// TestContractMalformedSPIRV: truncated and random modules are *SPIRVError from
// NewProgram, and from a dispatch of a Program literal on every accelerator, with the
// data intact.
func TestContractMalformedSPIRV(t *testing.T) {
	good := contractSPIRV(t, "scaled_add")
	rng := rand.New(rand.NewPCG(13, 14))
	random := make([]byte, 512)
	for i := range random {
		random[i] = byte(rng.Uint32())
	}
	headed := slices.Concat(good[:20], random)
	tests := []struct {
		name  string
		spirv []byte
	}{
		{"truncated mid-word", good[:len(good)/2+1]},
		{"truncated mid-instruction", good[:len(good)/2&^3]},
		{"truncated after the header", good[:24]},
		{"random bytes", random},
		{"a header and random words", headed},
	}
	eachView(t, func(t *testing.T, av *accelerator.View) {
		for _, tt := range tests {
			t.Run(tt.name, func(t *testing.T) {
				_, err := amprt.NewProgram("contract_bad_"+tt.name, tt.spirv, 1)
				se := requireErrorAs[*amprt.SPIRVError](t, err, amprt.ErrInvalidSPIRV)
				var pe *amprt.ProgramError
				require.ErrorAs(t, err, &pe)

				const n = 100
				xs, ys, x, y := scaledAddViews(t, rng, n)
				bad := &amprt.Program{Name: "contract_bad", SPIRV: tt.spirv, Rank: 1}
				err = amprt.ParallelForEach(av, x.Extent(), scaledAdd{X: x.ReadOnly(), Y: y, Alpha: 2, prog: bad})
				require.ErrorIs(t, err, amprt.ErrInvalidSPIRV)
				require.ErrorIs(t, err, amprt.ErrInvalidKernel)
				require.ErrorAs(t, err, &se)
				assert.Contains(t, err.Error(), "program contract_bad")
				checkScaledAdd(t, av, x, y, xs, ys, contractProg(t, "scaled_add", 1), false)
			})
		}
	})
}

// TestEmbeddedProgramsParse reads the interface of every hand-written program of package
// shaders (the programs of package algo that ampgen cannot generate): each parses,
// follows amp.glsl's conventions, and its shared memory and workgroup size evaluate for a
// 16x16 tile.
func TestEmbeddedProgramsParse(t *testing.T) {
	names := shaders.Names()
	require.NotEmpty(t, names)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p, err := shaders.Program(name, 0)
			require.NoError(t, err)
			in, err := p.Interface()
			require.NoError(t, err)
			require.NotNil(t, in)
			assert.Empty(t, in.OtherBindings)
			for _, b := range in.Buffers {
				for _, v := range b.Vars {
					require.NotNil(t, v.Elem, "binding %d", b.Binding)
					assert.Positive(t, v.ArrayStride, "binding %d", b.Binding)
				}
			}
			if in.Push != nil {
				ms := in.Push.Block.Members
				require.NotEmpty(t, ms)
				assert.Equal(t, "uvec4", ms[0].Type.String())
				assert.LessOrEqual(t, in.Push.Size, amprt.MaxPushConstantBytes)
			}
			spec := []uint32{16, 16, 1, 2}
			ws, err := in.WorkgroupSize(spec)
			require.NoError(t, err)
			if !in.FixedLocalSize() {
				assert.Equal(t, [3]uint32{16, 16, 1}, ws)
			}
			n, err := in.SharedBytes(spec)
			require.NoError(t, err)
			assert.GreaterOrEqual(t, n, 0)
			assert.Less(t, n, 1<<20)
		})
	}
}

// TestReadInterfaceTestPrograms checks the interfaces of the contract test programs.
func TestReadInterfaceTestPrograms(t *testing.T) {
	in, err := amprt.ReadInterface(contractSPIRV(t, "scaled_add"))
	require.NoError(t, err)
	require.Len(t, in.Buffers, 2)
	assert.True(t, in.Buffers[0].ReadOnly())
	assert.False(t, in.Buffers[1].ReadOnly())
	assert.Equal(t, "float", in.Buffers[1].Vars[0].Elem.String())
	require.NotNil(t, in.Push)
	assert.Equal(t, 56, in.Push.Size)
	assert.Equal(t, "struct{uvec4@0, struct{uint@0, uint@4, uint@8, uint@12}@16, struct{uint@0, uint@4, uint@8, uint@12}@32, float@48, int@52}",
		in.Push.Block.String())
	assert.Equal(t, []int{0, 1, 2}, in.SpecIDs)

	in, err = amprt.ReadInterface(contractSPIRV(t, "fixed16"))
	require.NoError(t, err)
	assert.True(t, in.FixedLocalSize())
	assert.Equal(t, [3]uint32{16, 16, 1}, in.LocalSize)
	assert.Equal(t, [3]int{-1, -1, -1}, in.LocalSizeSpecIDs)
	assert.True(t, in.Buffers[0].Vars[0].NonReadable)

	in, err = amprt.ReadInterface(contractSPIRV(t, "ranks_shared"))
	require.NoError(t, err)
	assert.Equal(t, []int{0, 1, 2, 3}, in.SpecIDs)
	assert.Equal(t, [3]int{0, 1, 2}, in.LocalSizeSpecIDs)
	for _, tt := range []struct {
		spec []uint32
		want int
	}{
		{[]uint32{16, 8, 1, 2}, (8*16*40 + 2) * 4},      // rank 2: d0 = y, d1 = x
		{[]uint32{64, 1, 1, 1}, (64*1*40 + 2) * 4},      // rank 1: d0 = x, d1 = y
		{[]uint32{4, 2, 8, 3}, (8*2*40 + 2) * 4},        // rank 3: d0 = z, d1 = y
		{[]uint32{4, 2, 8, 2 | 3<<2}, (2*4*40 + 2) * 4}, // the argument ranks do not matter
	} {
		n, err := in.SharedBytes(tt.spec)
		require.NoError(t, err)
		assert.Equal(t, tt.want, n, "spec %v", tt.spec)
	}
	in, err = amprt.ReadInterface(contractSPIRV(t, "shared40k"))
	require.NoError(t, err)
	n, err := in.SharedBytes(nil)
	require.NoError(t, err)
	assert.Equal(t, 40000, n)
	assert.Equal(t, "int[10000]", in.Shared[0].Type.String())
	_, err = amprt.ReadInterface(contractSPIRV(t, "scaled_add")[:100])
	assert.True(t, errors.Is(err, amprt.ErrInvalidSPIRV))
}

// TestContractGenerated: a mismatch with a program ampgen generated (EmbeddedProgram)
// says that the kernel changed since go generate; one with a hand-made program does not.
func TestContractGenerated(t *testing.T) {
	fsys := fstest.MapFS{"amp_gen_K.spv": {Data: contractSPIRV(t, "scaled_add")}}
	gen := amprt.EmbeddedProgram(fsys, "amp_gen_K.spv", "example.com/p.K")
	hand, err := amprt.NewProgram("contract_scaled_add_hand", contractSPIRV(t, "scaled_add"), 1)
	require.NoError(t, err)
	for _, c := range []struct {
		prog *amprt.Program
		want bool
	}{{gen, true}, {hand, false}} {
		eachView(t, func(t *testing.T, av *accelerator.View) {
			_, _, x, y := scaledAddViews(t, rand.New(rand.NewPCG(1, 2)), 8)
			err := amprt.ParallelForEach(av, amprt.Ext(8), swappedK{X: x.ReadOnly(), Y: y, prog: c.prog})
			ce := requireErrorAs[*amprt.ContractError](t, err, amprt.ErrContract)
			assert.Equal(t, c.want, ce.Generated)
			assert.Equal(t, c.want, strings.Contains(err.Error(), "run go generate"), "%v", err)
		})
	}
}
