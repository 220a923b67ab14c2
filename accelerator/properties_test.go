package accelerator

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/goamp/goamp/internal/vk"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// randomize sets every field of the struct *p to a random non-zero value.
func randomize(t *testing.T, p any) {
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		f := v.Field(i)
		switch f.Kind() {
		case reflect.Uint32, reflect.Uint64:
			f.SetUint(1 + rand.Uint64N(1<<31))
		case reflect.Int:
			f.SetInt(1 + rand.Int64N(1<<31))
		case reflect.Float32:
			f.SetFloat(float64(1 + rand.Float32()))
		case reflect.Bool:
			f.SetBool(true)
		case reflect.Array:
			for j := range f.Len() {
				f.Index(j).SetUint(1 + rand.Uint64N(1<<31))
			}
		default:
			t.Fatalf("randomize: field %s of kind %v", v.Type().Field(i).Name, f.Kind())
		}
	}
}

// sameFields checks that got has every field of want, by name, with the same value, and
// no other field than those and the ones named in own (got's own, not from Vulkan).
func sameFields(t *testing.T, want, got any, own ...string) {
	w, g := reflect.ValueOf(want), reflect.ValueOf(got)
	require.Equal(t, w.NumField()+len(own), g.NumField(), "%T has the fields of %T and %v", got, want, own)
	for i := range w.NumField() {
		name := w.Type().Field(i).Name
		gf := g.FieldByName(name)
		require.True(t, gf.IsValid(), "%T has no field %s", got, name)
		assert.Equal(t, w.Field(i).Interface(), gf.Interface(), name)
	}
}

// TestConversions checks that the Vulkan layer's limits, heaps and memory types reach
// accelerator's own types field by field.
func TestConversions(t *testing.T) {
	var l vk.Limits
	randomize(t, &l)
	sameFields(t, l, limitsOf(l), "MaxLoopIterations")

	hs, ts := make([]vk.MemoryHeap, 1+rand.IntN(4)), make([]vk.MemoryType, 1+rand.IntN(8))
	for i := range hs {
		randomize(t, &hs[i])
	}
	for i := range ts {
		randomize(t, &ts[i])
	}
	heaps, types := memoryOf(hs, ts)
	require.Len(t, heaps, len(hs))
	require.Len(t, types, len(ts))
	for i := range hs {
		sameFields(t, hs[i], heaps[i])
	}
	for i := range ts {
		sameFields(t, ts[i], types[i])
	}
}

func TestSubgroupOps(t *testing.T) {
	for _, c := range []struct {
		ops   SubgroupOps
		names []string
	}{
		{0, nil},
		{1, []string{"basic"}},
		{1<<2 | 1<<4, []string{"arithmetic", "shuffle"}},
		{0xff, []string{"basic", "vote", "arithmetic", "ballot", "shuffle", "shuffle_relative", "clustered", "quad"}},
		{1<<7 | 1<<9, []string{"quad"}}, // bit 9 (rotate) has no name
	} {
		assert.Equal(t, c.names, c.ops.Names(), "%#x", uint32(c.ops))
		for i, n := range subgroupOpNames {
			assert.Equal(t, c.ops&(1<<i) != 0, c.ops.Has(n), "%#x has %s", uint32(c.ops), n)
		}
		assert.False(t, c.ops.Has("partitioned"), "an unknown name")
	}
	assert.Equal(t, "vote ballot", SubgroupOps(1<<1|1<<3).String())
}
