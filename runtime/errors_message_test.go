package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestPanicMessages checks the texts users read: an index written to the view's rank, a
// fast CPU body's panic named as the range or tile it ran, a negative shift's count.
func TestPanicMessages(t *testing.T) {
	cases := []struct {
		name string
		err  error
		want string
	}{
		{"bounds rank 2", &BoundsError{Kernel: "Blur", Field: "In", Index: Index{-1, -1, 0}, Extent: Ext(32, 32)},
			"goamp/runtime: kernel Blur: index [-1 -1] of field In is outside its extent (32, 32) (a bounds-checked GPU dispatch)"},
		{"bounds array", &BoundsError{Kernel: "K", Field: "an array or Index", Index: Index{9}, Extent: Ext(4)},
			"goamp/runtime: kernel K: index [9] of field an array or Index is outside its extent (4) (a bounds-checked GPU dispatch)"},
		{"one thread", &KernelPanicError{Value: "boom", Global: Index{3, 4}, rank: 2},
			"goamp/runtime: kernel panicked at global index (3, 4): boom"},
		{"named", &KernelPanicError{Kernel: "oob.Shift", Value: "boom", Global: Index{3}, rank: 1},
			"goamp/runtime: kernel oob.Shift panicked at global index (3): boom"},
		{"fast range", panicError("integer divide by zero", Index{768}, 1, "range"),
			"goamp/runtime: kernel panicked in the range of threads from global index (768) (a fast CPU body): integer divide by zero"},
		{"nil kernel", nilKernel((*perThreadKernel)(nil)), "goamp/runtime: nil kernel (a nil *runtime.perThreadKernel)"},
		{"shift", &ShiftError{Kernel: "S", Count: -3},
			"goamp/runtime: kernel S: negative shift amount -3 (a bounds-checked GPU dispatch)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assert.Equal(t, c.want, c.err.Error()) })
	}
}
