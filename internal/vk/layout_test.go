//go:build (amd64 || arm64) && !windows

package vk

import (
	"bufio"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestLayout checks that every generated struct is laid out as C lays it out on a 64-bit
// Unix system: the same size, alignment and member offsets as testdata/vklayout.txt,
// which the C compiler's build of testdata/vklayout.c printed (make vklayout).
func TestLayout(t *testing.T) {
	f, err := os.Open("testdata/vklayout.txt")
	require.NoError(t, err)
	defer f.Close()
	want := map[string][]uint64{} // "Name": size, align; "Name.member": offset
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		require.GreaterOrEqual(t, len(fields), 2, sc.Text())
		for _, v := range fields[1:] {
			n, err := strconv.ParseUint(v, 10, 64)
			require.NoError(t, err, sc.Text())
			want[fields[0]] = append(want[fields[0]], n)
		}
	}
	require.NoError(t, sc.Err())
	seen := 0
	for name, v := range generatedStructs {
		typ := reflect.TypeOf(v)
		sa, ok := want[name]
		if !assert.True(t, ok, "%s is not in testdata/vklayout.txt: run make vklayout", name) {
			continue
		}
		seen++
		assert.Equal(t, []uint64{uint64(typ.Size()), uint64(typ.Align())}, sa, "%s: size and alignment", name)
		for i := range typ.NumField() {
			fd := typ.Field(i)
			if fd.Name == "_" {
				continue
			}
			key := name + "." + strings.TrimSuffix(fd.Name, "_")
			seen++
			assert.Equal(t, want[key], []uint64{uint64(fd.Offset)}, "%s: offset", key)
		}
	}
	assert.Equal(t, len(want), seen, "testdata/vklayout.txt lists structs or members vkgen did not generate")
}
