package accelerator_test

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
)

// ExampleGet looks an accelerator up by its device path; "cpu" is always there.
func ExampleGet() {
	cpu, err := accelerator.Get("cpu")
	if err != nil {
		panic(err)
	}
	fmt.Println(cpu.Path(), cpu.IsEmulated(), cpu.SupportsCPUSharedMemory())
	_, err = accelerator.Get("vulkan:99")
	fmt.Println(err != nil)
	// Output:
	// cpu true true
	// true
}

// ExampleAccelerator_CreateView makes an immediate-mode view, which submits every command
// as soon as it is recorded, and waits for it.
func ExampleAccelerator_CreateView() {
	v, err := accelerator.CPU().CreateView(accelerator.Immediate)
	if err != nil {
		panic(err)
	}
	defer v.Close()
	fmt.Println(v.Mode(), v.Wait())
	// Output:
	// immediate <nil>
}
