package arrayview

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/half"
	"github.com/goamp/goamp/runtime"
)

// halfPair is a struct of two float16 values and a float32: std430 puts them at 0, 2, 4.
type halfPair struct {
	A, B half.Float16
	C    float32
}

// TestFloat16Elements: half.Float16 (2 bytes) and structs of it are accepted element
// types whose argument description says they need 16-bit storage; other 2-byte types
// are not.
func TestFloat16Elements(t *testing.T) {
	tests := []struct {
		name    string
		size    int
		float16 bool
		make    func() (runtime.ArgInfo, error)
	}{
		{"Float16", 2, true, newOf[half.Float16]},
		{"[3]Float16", 6, true, newOf[[3]half.Float16]},
		{"halfPair", 8, true, newOf[halfPair]},
		{"float32", 4, false, newOf[float32]},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			info, err := tt.make()
			require.NoError(t, err)
			assert.Equal(t, tt.size, info.ElemSize)
			assert.Equal(t, tt.float16, info.Float16)
		})
	}
	_, err := newOf[uint16]()
	var te *TypeError
	require.ErrorAs(t, err, &te)
	assert.Equal(t, reflect.TypeFor[uint16](), te.Type)
	assert.Contains(t, te.Reason, "half.Float16")
}

// TestFloat16ViewData: a view of half.Float16 reads and writes its slice element by
// element, bits intact.
func TestFloat16ViewData(t *testing.T) {
	data := make([]half.Float16, 12)
	for i := range data {
		data[i] = half.FromFloat32(rand.Float32()*200 - 100)
	}
	v, err := New(runtime.Ext(3, 4), data)
	require.NoError(t, err)
	defer v.Close()
	want := half.FromFloat32(rand.Float32() + 1)
	v.Set(runtime.Idx(2, 1), want)
	assert.Equal(t, want, v.At(runtime.Idx(2, 1)))
	assert.Equal(t, want, data[9])
	assert.Equal(t, data[3], v.At(runtime.Idx(0, 3)))
}
