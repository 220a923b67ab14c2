package runtime_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/arrayview"
	amprt "github.com/goamp/goamp/runtime"
)

// extents7K matches testdata/contract/extents7.comp: seven data arguments whose extents
// the GPU body reads (a 192-byte push-constant block with ampExtents).
type extents7K struct {
	A, B, C, D, E, F *arrayview.ReadView[int32]
	Out              *arrayview.View[int32]
	prog             *amprt.Program `amp:"-"`
}

// weight is extents7.comp's sum of one argument's dimensions.
func weight(e amprt.Extent) int32 { return int32(e.Dim(0) + 3*e.Dim(1) + 7*e.Dim(2)) }

func (k extents7K) Each(i amprt.Index) {
	s := int32(0)
	for j, v := range []*arrayview.ReadView[int32]{k.A, k.B, k.C, k.D, k.E, k.F, k.Out.ReadOnly()} {
		s += int32(j+1) * weight(v.Extent())
	}
	k.Out.Set(i, s+int32(i[0]))
}

func (k extents7K) Program() *amprt.Program { return k.prog }

// extentsLongK has two data arguments; extents_long.comp's ampExtents covers three.
type extentsLongK struct {
	A    *arrayview.ReadView[int32]
	Out  *arrayview.View[int32]
	prog *amprt.Program `amp:"-"`
}

func (k extentsLongK) Each(i amprt.Index)      { k.Out.Set(i, k.A.At(i)) }
func (k extentsLongK) Program() *amprt.Program { return k.prog }

// roView makes a read-only view of fresh random data of extent dims, closed when t ends.
func roView(t *testing.T, rng *rand.Rand, dims ...int) *arrayview.ReadView[int32] {
	e := amprt.Ext(dims...)
	data := make([]int32, e.Size())
	for i := range data {
		data[i] = rng.Int32()
	}
	v, err := arrayview.New(e, data)
	require.NoError(t, err)
	t.Cleanup(func() { _ = v.Close() })
	return v.ReadOnly()
}

// TestExtentsInPushConstants: a GPU body that reads its views' extents gets each view's
// dimension 0 in its AmpView and dimensions 1 and 2 in ampExtents, a section's own extent
// and not its array's; where the 192-byte block passes the device's maxPushConstantsSize
// (lavapipe's 128) the dispatch is a KernelError that says so, wrapping the device's
// FeatureError, and the output is untouched.
func TestExtentsInPushConstants(t *testing.T) {
	prog := contractProg(t, "extents7", 1)
	rng := rand.New(rand.NewPCG(rand.Uint64(), 7))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		big := roView(t, rng, 9, 11)
		sec, err := big.View().Section(amprt.Idx(2, 3), amprt.Ext(5, 6))
		require.NoError(t, err)
		const n = 50
		before := make([]int32, n)
		for i := range before {
			before[i] = rng.Int32()
		}
		out, err := arrayview.New(amprt.Ext(n), append([]int32(nil), before...))
		require.NoError(t, err)
		defer out.Close()
		k := extents7K{A: roView(t, rng, 5), B: roView(t, rng, 3, 4), C: roView(t, rng, 2, 3, 4), D: sec.ReadOnly(),
			E: roView(t, rng, 1), F: roView(t, rng, 7, 1), Out: out, prog: prog}
		err = amprt.ParallelForEach(av, amprt.Ext(n), k)
		got := make([]int32, n)
		require.NoError(t, out.CopyTo(got))
		if lim := av.Accelerator().Limits().MaxPushConstantsSize; !av.Accelerator().Traits().HostMemory && lim < 192 {
			ke := requireErrorAs[*amprt.KernelError](t, err, amprt.ErrInvalidKernel)
			assert.Contains(t, ke.Reason, "192 bytes of push constants (56 of them the extents of 7 data fields")
			assert.Contains(t, ke.Reason, "maxPushConstantsSize 128")
			assert.ErrorIs(t, err, accelerator.ErrUnsupportedFeature, "the device's limit")
			assert.Equal(t, before, got, "the output is untouched")
			return
		}
		require.NoError(t, err)
		// 5; 3+3*4; 2+3*3+7*4; the section's 5+3*6; 1; 7+3*1; the output's 50.
		s := int32(5 + 2*15 + 3*39 + 4*23 + 5*1 + 6*10 + 7*50)
		for i := range got {
			require.Equal(t, s+int32(i), got[i], "element %d", i)
		}
	})
}

// TestExtentsContract: an ampExtents array longer than two words per data field is a
// ContractError on every accelerator, before anything runs.
func TestExtentsContract(t *testing.T) {
	prog := contractProg(t, "extents_long", 1)
	rng := rand.New(rand.NewPCG(rand.Uint64(), 8))
	eachView(t, func(t *testing.T, av *accelerator.View) {
		const n = 40
		out, err := arrayview.New(amprt.Ext(n), make([]int32, n))
		require.NoError(t, err)
		defer out.Close()
		err = amprt.ParallelForEach(av, amprt.Ext(n), extentsLongK{A: roView(t, rng, n), Out: out, prog: prog})
		requireContract(t, err, "runtime_test.extentsLongK", "contract_extents_long", "push constants",
			"the extents of at most 2 data fields", "uint[6] at offset 48")
	})
}
