package runtime

import (
	"context"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/internal/device"
	"github.com/goamp/goamp/internal/hooks"
)

// Dispatch conventions shared with shaders/include/amp.glsl.
const (
	// MaxPushConstantBytes is the largest push-constant block a kernel may use: the 128
	// bytes every Vulkan device supports. The block holds a 16-byte domain, 16 bytes per
	// data argument and 4 bytes per scalar, rounded up to 16, so a kernel has at most 7
	// data arguments. A program that reads its views' extents (k.V.Extent() in a kernel)
	// adds 8 bytes per data argument up to the last whose extent it reads; the block must
	// then fit the device's maxPushConstantsSize (128 on lavapipe, 256 on NVIDIA's
	// drivers), or the dispatch returns a *KernelError.
	MaxPushConstantBytes = 128
	// GroupSize is the workgroup size (local_size_x) of non-tiled GPU dispatches, or the
	// device's maxComputeWorkGroupSize[0] or maxComputeWorkGroupInvocations where smaller
	// (Vulkan guarantees 128); a program written with a fixed local size (x, 1, 1) is
	// dispatched with x. The workgroup grid is linearized and folded into x and y (see
	// ParallelForEach). It was 64 until workgroups of 64 threads, one element each, were
	// found to limit a bandwidth-bound kernel on the H100 by their launch rate (RESULTS.md).
	GroupSize = 256
	// MaxLoopGroups is the most workgroups of a non-tiled dispatch whose GPU body loops over
	// the domain with a grid stride (it declares SpecId 4, AMP_GRID_LOOP, as every body
	// ampgen writes does): enough to fill a large GPU, few enough that their launches do
	// not limit a bandwidth-bound kernel (RESULTS.md).
	MaxLoopGroups = 4096
)

// More sentinel errors, matched by the error types of ParallelForEach.
var (
	// ErrInvalidKernel reports a kernel that ParallelForEach cannot run: not a struct (or
	// pointer to one), a field of an unsupported type, a nil data argument, no GPU body
	// where one is needed. It is matched by *KernelError.
	ErrInvalidKernel = errors.New("goamp/runtime: invalid kernel")

	// ErrAcceleratorMismatch reports a kernel whose data arguments live on different
	// accelerator views, or on a view other than the one passed to ParallelForEach (C++
	// AMP raises a runtime_exception for mismatched accelerators). It is matched by
	// *AcceleratorMismatchError.
	ErrAcceleratorMismatch = errors.New("goamp/runtime: accelerator mismatch")
)

// GPUKernel is a kernel with a GPU body. ParallelForEach needs it on Vulkan
// accelerators; the CPU runs the Go body (IndexKernel or TiledKernel) instead, after
// checking the kernel against the program all the same. Program should return the same
// *Program on every call (the checks are cached per program).
type GPUKernel interface {
	Program() *Program
}

// SharedMemoryKernel is implemented by tiled kernels that declare how many bytes of
// shared (tile_static) memory their GPU body uses for a tile of the given dimensions
// (C++ order, dimension 0 first, missing dimensions 1). ParallelForEachTiled checks the
// larger of this number and what the program's SPIR-V declares against the device's
// maxComputeSharedMemorySize.
type SharedMemoryKernel interface {
	SharedBytes(tile [3]int) int
}

// KernelError reports a kernel that cannot be run, naming its type and, where the
// problem is a field, the field and its type. It matches ErrInvalidKernel and unwraps to
// Err.
type KernelError struct {
	// Kernel is the kernel's Go type, e.g. "main.TileAverage".
	Kernel string
	// Field and FieldType name the offending field, or are empty.
	Field, FieldType string
	// Reason says what is wrong.
	Reason string
	// Err is the underlying cause, if any.
	Err error
}

// Error implements error.
func (e *KernelError) Error() string {
	var b strings.Builder
	b.WriteString("goamp/runtime: invalid kernel ")
	b.WriteString(e.Kernel)
	if e.Field != "" {
		fmt.Fprintf(&b, ": field %s (%s)", e.Field, e.FieldType)
	}
	b.WriteString(": ")
	b.WriteString(e.Reason)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Is reports whether target is ErrInvalidKernel.
func (e *KernelError) Is(target error) bool { return target == ErrInvalidKernel }

// Unwrap returns the underlying cause, if any.
func (e *KernelError) Unwrap() error { return e.Err }

// AcceleratorMismatchError reports a data argument whose home view differs from the view
// the kernel must run on. It matches ErrAcceleratorMismatch.
type AcceleratorMismatchError struct {
	// Kernel is the kernel's Go type.
	Kernel string
	// Want is the view chosen first, and WantFrom where it came from: "the view passed
	// to ParallelForEach" or "field NAME".
	Want     *accelerator.View
	WantFrom string
	// Field is the field whose data lives on Got.
	Field string
	// Got is the view Field's data lives on.
	Got *accelerator.View
}

// Error implements error.
func (e *AcceleratorMismatchError) Error() string {
	return fmt.Sprintf("goamp/runtime: accelerator mismatch in kernel %s: %s is on %s, but field %s lives on %s",
		e.Kernel, e.WantFrom, e.Want, e.Field, e.Got)
}

// Is reports whether target is ErrAcceleratorMismatch.
func (e *AcceleratorMismatchError) Is(target error) bool { return target == ErrAcceleratorMismatch }

// ParallelForEach runs kernel once for every index of domain, like C++ AMP's
// parallel_for_each(view, extent, kernel). It is ParallelForEachContext with
// context.Background().
func ParallelForEach(view *accelerator.View, domain Extent, kernel IndexKernel) error {
	return ParallelForEachContext(context.Background(), view, domain, kernel)
}

// ParallelForEachTiled runs kernel once for every thread of every tile of domain, like
// C++ AMP's parallel_for_each(view, tiled_extent, kernel). It is
// ParallelForEachTiledContext with context.Background().
func ParallelForEachTiled(view *accelerator.View, domain TiledExtent, kernel TiledKernel) error {
	return ParallelForEachTiledContext(context.Background(), view, domain, kernel)
}

// ParallelForEachContext runs a non-tiled kernel over domain.
//
// A kernel is a Go struct (or a non-nil pointer to one) whose fields are its captures:
//   - fields whose type implements Arg are its data arguments: the n-th such field is
//     storage-buffer binding n of the GPU body, and its ArgInfo().Access is how the
//     kernel uses it;
//   - fields of kind int32, uint32 or float32 (exported or not) are scalars, passed to
//     the GPU body in push constants after the views, 4 bytes each, in field order;
//   - fields tagged `amp:"-"` are ignored, and the fields of an embedded struct (that is
//     not itself an Arg) count as the kernel's own, in place;
//   - any other field is an error (*KernelError). The reflected layout is cached per type.
//
// The accelerator view is view when it is not nil, else the view the data arguments
// live on (ArgInfo().Home; all must agree), else the default view of
// accelerator.Default(). A data argument that lives on another view is an
// *AcceleratorMismatchError.
//
// On the CPU accelerator every argument is bound with BindHost and RunCPU runs the Go
// body. On a Vulkan accelerator the kernel must also implement GPUKernel: every argument
// is bound with BindDevice and the dispatch is recorded on the view's command stream,
// without waiting (the view submits when the host needs data, on Flush or Wait, or at
// once in Immediate mode). The domain is linearized: workgroups of GroupSize threads,
// the workgroup grid folded into x (up to maxComputeWorkGroupCount[0]) and y, and the
// GPU body recomputes and bounds-checks the linear index (ampIndex1/2/3 in amp.glsl).
//
// Before anything is bound, on every accelerator, a kernel with a Program is checked
// against the program's interface (see "The contract" in the package documentation).
//
// Errors are typed and name the values involved: *ComputeDomainError (an invalid extent,
// a rank other than the Program's, a device limit, too much shared memory),
// *KernelError (a malformed program unwraps to its *SPIRVError), *ContractError,
// *AcceleratorMismatchError, *accelerator.FeatureError (float64 data or the Float64
// capability on a device without it), and on the CPU the executor's errors and ctx.Err().
//
// ctx is checked before the dispatch is recorded; a GPU dispatch once recorded runs to its
// end (Vulkan cannot stop a kernel). On the CPU a cancellation stops the workers between
// chunks of indices (tiles): the outputs then hold the chunks that ran, as after a
// kernel's panic, and are undefined in general. A *StaleError (run go generate) comes
// before anything in a test binary.
func ParallelForEachContext(ctx context.Context, view *accelerator.View, domain Extent, kernel IndexKernel) error {
	if isNil(kernel) {
		return nilKernel(kernel)
	}
	if err := validateDomain(domain); err != nil {
		return err
	}
	return run(ctx, view, domain, Extent{}, kernel)
}

// validateDomain checks a non-tiled domain: an invalid extent is a *ComputeDomainError
// wrapping its *ExtentError.
func validateDomain(domain Extent) error {
	if err := domain.Validate(); err != nil {
		reason := err.Error()
		if ee, ok := err.(*ExtentError); ok {
			reason = fmt.Sprintf("extent %s: %s", domain, ee.Reason)
		}
		return &ComputeDomainError{Extent: domain, Reason: reason, Dim: -1, Err: err}
	}
	return nil
}

// ParallelForEachTiledContext runs a tiled kernel over domain. Kernels, views and
// errors are as for ParallelForEachContext; the CPU runs RunTiledCPU. On a Vulkan
// accelerator a tile is a workgroup: for a domain of rank r, Vulkan's x axis is
// dimension r-1 (the fastest), y is r-2 and z is r-3, and the tile dimensions are the
// specialization constants 0, 1, 2 (local_size_x_id, _y_id, _z_id). Besides C++ AMP's
// rules (TiledExtent.Validate) the tile must fit the device's maxComputeWorkGroupSize
// and maxComputeWorkGroupInvocations, the tile counts its maxComputeWorkGroupCount, and
// the shared memory its maxComputeSharedMemorySize: the larger of what the program
// declares for the tile and a SharedMemoryKernel's SharedBytes.
func ParallelForEachTiledContext(ctx context.Context, view *accelerator.View, domain TiledExtent, kernel TiledKernel) error {
	if isNil(kernel) {
		return nilKernel(kernel)
	}
	if err := domain.Validate(); err != nil {
		return err
	}
	return run(ctx, view, domain.Extent, domain.Tile, kernel)
}

// isNil reports whether k is nil or a nil pointer, map, func, ... in an interface.
func isNil(k any) bool {
	if k == nil {
		return true
	}
	v := reflect.ValueOf(k)
	switch v.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Func, reflect.Slice, reflect.Chan, reflect.Interface:
		return v.IsNil()
	}
	return false
}

var argType = reflect.TypeFor[Arg]()

// argField is a data argument field of a kernel type.
type argField struct {
	name    string
	typ     reflect.Type
	offset  uintptr
	addr    bool // the field's pointer implements Arg, its value does not
	nilable bool // the field's kind can be nil (pointer, interface, ...)
	// ptr is, for a pointer field, an Arg holding a nil pointer of the field's type (nil
	// for other kinds): collect makes the field's Arg by copying it and setting its data
	// word, which for a pointer is the pointer itself, sparing reflect's conversion and
	// the type assertion's table lookup on every dispatch.
	ptr Arg
}

// kernelLayout is the reflected layout of a kernel type.
type kernelLayout struct {
	name  string
	rtype reflect.Type // the kernel's dynamic type
	typ   reflect.Type // the kernel's struct type (the pointer's element for a pointer kernel)
	args  []argField
	// scalarFields are the fields pushed as push constants, in field order, each at its
	// std430 offset (placeScalars).
	scalarFields []scalarField
	pushSize     int   // bytes of push constants, rounded up to 16
	scalarEnd    int   // where the scalar fields end in the push constants
	err          error // why the type is not a valid kernel
	// copies recycles addressable copies of value kernels, so that a dispatch does not
	// allocate one.
	copies sync.Pool
	// pipe remembers the pipeline of the kernel's last GPU dispatch, which the next one
	// most often reuses, sparing the accelerator's locked cache.
	pipe atomic.Pointer[lastPipeline]
	// contract remembers the contract of the kernel's last program.
	contract atomic.Pointer[contract]
	// valid remembers the kernel's last dispatch that validate passed.
	valid atomic.Pointer[validated]
}

// validated is what validate found of a dispatch: a dispatch of the same program on the
// same accelerator, over the same domain, with arguments of the same kinds, passes again
// with the same results, so that back-to-back dispatches of a kernel only compare. A
// SharedMemoryKernel is checked every time.
type validated struct {
	prog      *Program
	checked   bool
	acc       *accelerator.Accelerator
	ext, tile Extent
	args      []argKind
	c         *contract
	spec      [4]uint32
	groups    [3]uint32
}

// argKind is what validate reads of an argument's ArgInfo (not its extent's sizes, its
// home or its key).
type argKind struct {
	rank, elemSize         int
	elem                   reflect.Type
	access                 Access
	float64, float16, int8 bool
}

func kindOf(i *ArgInfo) argKind {
	return argKind{rank: i.Rank, elemSize: i.ElemSize, elem: i.Elem, access: i.Access,
		float64: i.Float64, float16: i.Float16, int8: i.Int8}
}

// same reports whether d, on acc, is a dispatch that v's passed for.
func (v *validated) same(d *dispatch, acc *accelerator.Accelerator) bool {
	if v.prog != d.prog || v.checked != d.checked || v.acc != acc || v.ext != d.ext || v.tile != d.tile ||
		len(v.args) != len(d.infos) {
		return false
	}
	for i := range d.infos {
		if v.args[i] != kindOf(&d.infos[i]) {
			return false
		}
	}
	return true
}

// scalarField is a push-constant field of a kernel type: a scalar, a vec vector, or an
// array or struct of 32-bit scalars (composite).
type scalarField struct {
	name string
	kind reflect.Kind
	off  uintptr      // in the kernel struct
	rt   reflect.Type // the field's type
	vec  int          // the components of a vec vector (vec.Float3: 3), or 0
	push int          // its offset in the push constants (buildLayout)
}

// place is the field's size and alignment in the push constants, as std430 lays out the
// GLSL type ampgen declares for it: a word for a 32-bit scalar, 8 bytes for a float64, a
// vector's components (aligned to 8 bytes for 2, 16 for 3 and 4), and the Go value's
// bytes for an array or struct of 32-bit scalars, which std430 lays out as Go does.
func (f *scalarField) place() (size, align int) {
	switch {
	case f.vec == 2:
		return 8, 8
	case f.vec > 0:
		return 4 * f.vec, 16
	case f.kind == reflect.Float64:
		return 8, 8
	case f.composite():
		return int(f.rt.Size()), 4
	}
	return 4, 4
}

// size is the field's bytes of push constants.
func (f *scalarField) size() int {
	n, _ := f.place()
	return n
}

// vecComponents is the number of components of a vec vector type (vec.Float3: 3), or 0.
func vecComponents(t reflect.Type) int {
	n := t.Name()
	if t.PkgPath() != vecPath || len(n) < 2 || n[len(n)-1] < '2' || n[len(n)-1] > '4' {
		return 0
	}
	if k := n[:len(n)-1]; k != "Float" && k != "Int" && k != "Uint" {
		return 0
	}
	return int(n[len(n)-1] - '0')
}

// composite says whether the field is an array or struct of 32-bit scalars (pushed as
// its words).
func (f *scalarField) composite() bool {
	return f.vec == 0 && (f.kind == reflect.Array || f.kind == reflect.Struct)
}

// pushWords says whether Go type t is made of 32-bit integers and floats only, one after
// another with no gap (blank fields count as values), as std430 lays out a push constant
// of the GLSL type ampgen declares for it. Such an array or struct is a kernel field that
// is pushed as it is.
func pushWords(t reflect.Type) bool {
	if t.Size() == 0 || t.Size()%4 != 0 {
		return false
	}
	ls := goLeaves(t, 0, nil, true)
	for i, l := range ls {
		if l.off != 4*i || l.width != 32 || l.kind == TypeOther {
			return false
		}
	}
	return len(ls)*4 == int(t.Size())
}

// word is the scalar field's value in the kernel struct at base as the GPU's 32-bit push
// constant: int32, uint32 and float32 as they are, narrower integers extended, a bool 0
// or 1, and an int or uint that fits in 32 bits (the GPU's int and uint); a larger one
// is an error naming it, not a silently wrapped value.
func (f *scalarField) word(base unsafe.Pointer, kernel string) (uint32, error) {
	p := unsafe.Add(base, f.off)
	switch f.kind {
	case reflect.Int8:
		return uint32(int32(*(*int8)(p))), nil
	case reflect.Int16:
		return uint32(int32(*(*int16)(p))), nil
	case reflect.Uint8:
		return uint32(*(*uint8)(p)), nil
	case reflect.Uint16:
		return uint32(*(*uint16)(p)), nil
	case reflect.Bool:
		if *(*bool)(p) {
			return 1, nil
		}
		return 0, nil
	case reflect.Int:
		v := *(*int)(p)
		if v != int(int32(v)) {
			return 0, &KernelError{Kernel: kernel, Field: f.name, FieldType: f.rt.String(), Reason: fmt.Sprintf(
				"its value %d does not fit in 32 bits, the size of int on GPUs (the CPU accelerator takes it)", v)}
		}
		return uint32(int32(v)), nil
	case reflect.Uint:
		v := *(*uint)(p)
		if v != uint(uint32(v)) {
			return 0, &KernelError{Kernel: kernel, Field: f.name, FieldType: f.rt.String(), Reason: fmt.Sprintf(
				"its value %d does not fit in 32 bits, the size of uint on GPUs (the CPU accelerator takes it)", v)}
		}
		return uint32(v), nil
	}
	return *(*uint32)(p), nil
}

// placeScalars gives each scalar field its offset in the push constants, after the
// domain and the views, each aligned as std430 aligns it, and sets scalarEnd.
func (l *kernelLayout) placeScalars() {
	off := ampabi.ScalarOffset(len(l.args))
	for i := range l.scalarFields {
		size, align := l.scalarFields[i].place()
		off = (off + align - 1) &^ (align - 1)
		l.scalarFields[i].push = off
		off += size
	}
	l.scalarEnd = off
}

// scalarBytes is the bytes of push constants the kernel's scalar fields take, padding
// included.
func (l *kernelLayout) scalarBytes() int { return l.scalarEnd - ampabi.ScalarOffset(len(l.args)) }

// lastPipeline is a kernelLayout's remembered pipeline.
type lastPipeline struct {
	acc  *accelerator.Accelerator
	key  device.PipelineKey
	pipe device.Pipeline
}

var layouts sync.Map // reflect.Type -> *kernelLayout

// recentLayouts is a direct-mapped cache in front of layouts, indexed by the type
// descriptor's address: a hit is a pointer comparison, where the map hashes the
// interface (a tenth of a microsecond of a GPU dispatch's host time).
var recentLayouts [16]atomic.Pointer[kernelLayout]

// layoutOf returns the cached layout of kernel type t (the kernel's dynamic type).
func layoutOf(t reflect.Type) *kernelLayout {
	slot := &recentLayouts[(reflect.ValueOf(t).Pointer()>>4)%uintptr(len(recentLayouts))]
	if l := slot.Load(); l != nil && l.rtype == t {
		return l
	}
	v, ok := layouts.Load(t)
	if !ok {
		v, _ = layouts.LoadOrStore(t, buildLayout(t))
	}
	l := v.(*kernelLayout)
	slot.Store(l)
	return l
}

func buildLayout(t reflect.Type) *kernelLayout {
	l := &kernelLayout{name: t.String(), rtype: t}
	st := t
	if st.Kind() == reflect.Pointer {
		st = st.Elem()
	}
	l.typ = st
	if st.Kind() != reflect.Struct {
		l.err = &KernelError{Kernel: l.name,
			Reason: fmt.Sprintf("a kernel must be a struct or a pointer to one (its fields are its captures), not a %s", t.Kind())}
		return l
	}
	if err := l.addFields(st, 0, ""); err != nil {
		l.err = err
		return l
	}
	l.placeScalars()
	size := l.scalarEnd
	l.pushSize = (size + 15) &^ 15
	return l
}

// addFields adds the fields of struct type st, at offset base in the kernel, to the
// layout; embedded structs that are not Args contribute their fields in place.
func (l *kernelLayout) addFields(st reflect.Type, base uintptr, prefix string) error {
	for i := range st.NumField() {
		f := st.Field(i)
		if f.Tag.Get("amp") == "-" {
			continue
		}
		name, off := prefix+f.Name, base+f.Offset
		switch {
		case f.Type.Implements(argType):
			k := f.Type.Kind()
			nilable := k == reflect.Pointer || k == reflect.Interface || k == reflect.Map || k == reflect.Slice ||
				k == reflect.Func || k == reflect.Chan
			a := argField{name: name, typ: f.Type, offset: off, nilable: nilable}
			if k == reflect.Pointer {
				a.ptr = reflect.Zero(f.Type).Interface().(Arg)
			}
			l.args = append(l.args, a)
		case reflect.PointerTo(f.Type).Implements(argType):
			l.args = append(l.args, argField{name: name, typ: f.Type, offset: off, addr: true})
		case f.Anonymous && f.Type.Kind() == reflect.Struct:
			if err := l.addFields(f.Type, off, name+"."); err != nil {
				return err
			}
		default:
			sf := scalarField{name: name, kind: f.Type.Kind(), off: off, rt: f.Type}
			switch f.Type.Kind() {
			case reflect.Int32, reflect.Uint32, reflect.Float32, reflect.Int, reflect.Uint, reflect.Bool,
				reflect.Int8, reflect.Int16, reflect.Uint8, reflect.Uint16, reflect.Float64:
				l.scalarFields = append(l.scalarFields, sf)
			case reflect.Array, reflect.Struct:
				if sf.vec = vecComponents(f.Type); sf.vec > 0 {
					l.scalarFields = append(l.scalarFields, sf)
					break
				}
				if !pushWords(f.Type) {
					return &KernelError{Kernel: l.name, Field: name, FieldType: f.Type.String(),
						Reason: "an array or struct field must hold only int32, uint32 and float32 values (and arrays " +
							"and structs of them), since it is pushed to the GPU as it lies in memory; tag it `amp:\"-\"` " +
							"if the body does not use it"}
				}
				l.scalarFields = append(l.scalarFields, sf)
			default:
				return &KernelError{Kernel: l.name, Field: name, FieldType: f.Type.String(),
					Reason: "a kernel field must implement runtime.Arg, be a scalar (int32, uint32, float32, float64, int, " +
						"uint, bool, or an 8- or 16-bit integer), a vec vector, or an array or struct of int32, uint32 and float32, " +
						"be an embedded struct of such fields, or be tagged `amp:\"-\"`"}
			}
		}
	}
	return nil
}

// dispatch is one ParallelForEach call on its way through run and an executor: the kernel,
// its arguments and program, the view and executor chosen, and what the executor prepares.
// It is pooled, so that a dispatch allocates no state of its own. push holds the push
// constants, grown where a program's are larger; the command path copies them when it
// records the dispatch, so the pooled dispatch may be reused at once.
type dispatch struct {
	ctx       context.Context
	ext, tile Extent // tile has rank 0 for a non-tiled domain
	kernel    any    // the kernel whose fields are bound (a perThreadKernel's own kernel)
	exec      any    // what the goroutine executor runs: the kernel as passed
	l         *kernelLayout
	base      unsafe.Pointer // the kernel struct: the pointer passed, or copy
	copy      reflect.Value  // an addressable copy of a value kernel, or the zero Value
	prog      *Program       // the GPU body, or nil
	progErr   error          // why there is no GPU body, for an executor that needs one
	checked   bool           // prog is a Program.Checked: binding n is the check buffer
	view      *accelerator.View
	x         executor
	c         *contract // the program's contract, when there is a program
	spec      [4]uint32 // specialization constants (specFor, then AMP_RANKS)

	args  []Arg
	infos []ArgInfo
	// devInfos are the ArgInfo of the device copies the strict executor binds, and
	// hostDone ends its registration of the dispatch with the view (StartHostWork).
	devInfos []ArgInfo
	hostDone func()

	// What the Vulkan executor prepares.
	groups [3]uint32
	vargs  []device.Arg
	push   []byte
	pipe   device.Pipeline
	check  device.Buffer // a bounds-checked dispatch's check buffer (bindCheck)

	// spare is the zeroed copy of the last value kernel the pooled dispatch bound, of
	// layout spareL: the next dispatch of the same kernel type reuses it.
	spare  reflect.Value
	spareL *kernelLayout
}

var dispatchPool = sync.Pool{New: func() any {
	return &dispatch{push: make([]byte, MaxPushConstantBytes)}
}}

// release gives back the kernel copy and the dispatch, dropping every reference they hold.
func (d *dispatch) release() {
	if d.check != nil { // a bounds-checked dispatch that failed before it was submitted
		_ = d.check.Free()
	}
	if d.hostDone != nil {
		d.hostDone()
	}
	if d.copy.IsValid() {
		d.copy.Elem().SetZero() // drop the references the kernel holds
		if d.spare.IsValid() && d.spareL != d.l {
			d.spareL.copies.Put(d.spare.Interface()) // a pointer: no allocation
		}
		d.spare, d.spareL = d.copy, d.l
	}
	clear(d.args)
	clear(d.infos)
	clear(d.vargs)
	d.devInfos = nil
	*d = dispatch{args: d.args[:0], infos: d.infos[:0], vargs: d.vargs[:0], push: d.push,
		spare: d.spare, spareL: d.spareL}
	dispatchPool.Put(d)
}

// run is the common body of the ParallelForEach functions; tile has rank 0 for a
// non-tiled domain. The domain is already valid by C++ AMP's rules. It reads the same on
// every accelerator: bind the kernel (its fields, program, view and executor), validate it
// (the program's contract and the device's limits, then what the executor needs), encode
// it (bind the data arguments; on a GPU also the push constants and the pipeline) and
// submit it (record it on the view's command stream, or run the Go body on goroutines).
func run(ctx context.Context, view *accelerator.View, ext, tile Extent, kernel any) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	d := dispatchPool.Get().(*dispatch)
	defer d.release()
	if err := d.bind(ctx, view, ext, tile, kernel); err != nil {
		return err
	}
	if err := d.validate(); err != nil {
		return err
	}
	if err := d.x.encode(d); err != nil {
		return err
	}
	return d.x.submit(d)
}

// bind binds the dispatch to its kernel (the layout, the data arguments and their
// ArgInfo, the program, whose rank and push constants must fit), to its view (C++ AMP's
// rule: chooseView), which must be open, and to the view's executor.
func (d *dispatch) bind(ctx context.Context, view *accelerator.View, ext, tile Extent, kernel any) error {
	d.ctx, d.ext, d.tile, d.exec = ctx, ext, tile, kernel
	if p, ok := kernel.(perThreadKernel); ok {
		if kernel = p.Kernel; isNil(kernel) {
			return nilKernel(kernel)
		}
	}
	d.kernel = kernel
	kv := reflect.ValueOf(kernel)
	if d.l = layoutOf(kv.Type()); d.l.err != nil {
		return d.l.err
	}
	d.address(kv)
	if err := d.collect(); err != nil {
		return err
	}
	d.prog, d.progErr = program(kernel, d.l)
	if d.prog != nil && d.prog.sources != nil {
		if err := d.prog.sources.Check(d.l.name); err != nil {
			return err
		}
	}
	if d.prog != nil && d.prog.Checked != nil {
		d.prog, d.checked = d.prog.Checked, true
	}
	if err := checkProgram(d.prog, d.l, ext, tile); err != nil {
		return err
	}
	view, err := chooseView(view, d.l, d.infos)
	if err != nil {
		return err
	}
	if err := device.Of(view).CheckOpen(); err != nil {
		return fmt.Errorf("goamp/runtime: kernel %s: %w", d.l.name, err)
	}
	d.view, d.x = view, executorFor(view.Accelerator())
	return nil
}

// address sets d.base to the kernel struct kv: the pointer passed, or an addressable copy
// of a value kernel (recycled by the layout, given back by release).
func (d *dispatch) address(kv reflect.Value) {
	if kv.Kind() == reflect.Pointer {
		d.base = kv.UnsafePointer()
		return
	}
	if d.spareL == d.l {
		d.copy, d.spare, d.spareL = d.spare, reflect.Value{}, nil
	} else if p := d.l.copies.Get(); p != nil {
		d.copy = reflect.ValueOf(p)
	} else {
		d.copy = reflect.New(kv.Type())
	}
	d.copy.Elem().Set(kv)
	d.base = d.copy.UnsafePointer()
}

// validate checks the kernel against its program's contract (a kernel with a program, on
// every accelerator) and the domain against the device's limits, then what the executor
// needs.
func (d *dispatch) validate() error {
	acc := d.view.Accelerator()
	if v := d.l.valid.Load(); v != nil && v.same(d, acc) {
		d.c, d.spec, d.groups = v.c, v.spec, v.groups
		return nil
	}
	if err := d.checkAll(acc); err != nil {
		return err
	}
	if _, ok := d.kernel.(SharedMemoryKernel); ok {
		return nil // its shared memory is its method's answer, which may change
	}
	v := &validated{prog: d.prog, checked: d.checked, acc: acc, ext: d.ext, tile: d.tile,
		args: make([]argKind, len(d.infos)), c: d.c, spec: d.spec, groups: d.groups}
	for i := range d.infos {
		v.args[i] = kindOf(&d.infos[i])
	}
	d.l.valid.Store(v)
	return nil
}

// checkAll is validate's checks.
func (d *dispatch) checkAll(acc *accelerator.Accelerator) error {
	d.spec = specFor(d.ext, d.tile, groupSize(acc.Limits()))
	shared := 0
	if d.prog != nil {
		var err error
		if d.c, shared, err = checkContract(d.l, d.prog, acc, d, &d.spec, d.ext.rank, d.tile.rank != 0); err != nil {
			return err
		}
	}
	if err := checkLimits(acc.Limits(), d.ext, d.tile, d.kernel, d.l.name, shared); err != nil {
		// A domain within C++ AMP's rules that this device cannot run: what it lacks.
		if ce, ok := err.(*ComputeDomainError); ok && ce.Err == nil {
			ce.Err = &accelerator.FeatureError{Accelerator: acc.Path(), Feature: "this compute domain (" + ce.Reason + ")"}
		}
		return err
	}
	return d.x.validate(d)
}

// pushSize is the size of the dispatch's push constants: the kernel's, and the ampExtents
// array where the program declares one.
func (d *dispatch) pushSize() int {
	if d.c != nil {
		return d.c.pushSize
	}
	return d.l.pushSize
}

// nilArg is the error for a data argument that is nil.
func (f *argField) nilArg(l *kernelLayout) error {
	return &KernelError{Kernel: l.name, Field: f.name, FieldType: f.typ.String(), Reason: "data argument is nil"}
}

// collect gathers the kernel's data arguments and their ArgInfo.
func (d *dispatch) collect() error {
	l := d.l
	for i := range l.args {
		f := &l.args[i]
		var a Arg
		switch {
		case f.ptr != nil:
			q := *(*unsafe.Pointer)(unsafe.Add(d.base, f.offset))
			if q == nil {
				return f.nilArg(l)
			}
			a = f.ptr
			(*[2]unsafe.Pointer)(unsafe.Pointer(&a))[1] = q
		case f.addr:
			a = reflect.NewAt(f.typ, unsafe.Add(d.base, f.offset)).Interface().(Arg)
		default:
			p := reflect.NewAt(f.typ, unsafe.Add(d.base, f.offset))
			e := p.Elem()
			if f.nilable && e.IsNil() {
				return f.nilArg(l)
			}
			a = e.Interface().(Arg)
			if isNil(a) {
				return f.nilArg(l)
			}
		}
		info := a.ArgInfo()
		if info.Access&ReadWrite == 0 || info.Access&^ReadWrite != 0 {
			return &KernelError{Kernel: l.name, Field: f.name, FieldType: f.typ.String(),
				Reason: fmt.Sprintf("ArgInfo().Access is %d; it must be Read, Write or ReadWrite", info.Access)}
		}
		d.args = append(d.args, a)
		d.infos = append(d.infos, info)
	}
	return nil
}

// checkProgram checks the program's rank against the domain's and the kernel's push
// constants against the portable limit.
func checkProgram(prog *Program, l *kernelLayout, ext, tile Extent) error {
	if prog == nil {
		return nil
	}
	if prog.Rank != 0 && prog.Rank != ext.rank {
		return &ComputeDomainError{Extent: ext, Tile: tile, Dim: -1, Limit: prog.Rank, Value: ext.rank,
			Reason: fmt.Sprintf("kernel %s: program %s is written for rank %d, the domain %s has rank %d",
				l.name, prog.Name, prog.Rank, ext, ext.rank)}
	}
	if l.pushSize > MaxPushConstantBytes {
		return &KernelError{Kernel: l.name, Reason: fmt.Sprintf(
			"%d data arguments and %d bytes of scalar fields need %d bytes of push constants; the portable limit is %d",
			len(l.args), l.scalarBytes(), l.pushSize, MaxPushConstantBytes)}
	}
	return nil
}

// checkContract checks the kernel and its arguments (d.infos) against the program's
// interface (see "The contract" in the package documentation), sets the AMP_RANKS
// specialization constant when the program declares it, and returns the bytes of shared
// memory the program declares for spec.
func checkContract(l *kernelLayout, prog *Program, acc *accelerator.Accelerator, d *dispatch,
	spec *[4]uint32, rank int, tiled bool) (*contract, int, error) {
	prog.load()
	if prog.err != nil {
		return nil, 0, &KernelError{Kernel: l.name, Reason: fmt.Sprintf("program %s: its SPIR-V cannot be read", prog.Name),
			Err: prog.err}
	}
	c := contractFor(l, prog, d.infos, d.checked)
	if err := c.checkArgs(l, d.infos); err != nil {
		return nil, 0, err
	}
	if err := c.checkRanks(l, rank, d.infos); err != nil {
		return nil, 0, err
	}
	if err := c.checkDevice(l, acc); err != nil {
		return nil, 0, err
	}
	if c.ranks {
		spec[ampabi.SpecRanks] = rankSpec(rank, d.infos)
	}
	if !tiled && c.iface.FixedLocalSize() {
		// A body written for a fixed local size (x, 1, 1) runs with it; forSpec refuses
		// any other fixed shape.
		if ws, err := c.iface.WorkgroupSize(spec[:]); err == nil && ws[1] == 1 && ws[2] == 1 && ws[0] > 0 {
			spec[0] = ws[0]
		}
	}
	shared, err := c.forSpec(l, *spec, tiled)
	return c, shared, err
}

// program returns the kernel's GPU body, or nil and the error to report if a GPU
// needs it.
func program(kernel any, l *kernelLayout) (*Program, error) {
	g, ok := kernel.(GPUKernel)
	if !ok {
		return nil, &KernelError{Kernel: l.name, Reason: "it has no GPU body (it does not implement runtime.GPUKernel), " +
			"so it runs only on the CPU accelerator: put //go:generate go run github.com/goamp/goamp/cmd/ampgen in its " +
			"package and run go generate", Err: accelerator.ErrUnsupportedFeature}
	}
	p := g.Program()
	if p != nil {
		// An embedded program reads its module now; one that cannot is checkContract's
		// error on every accelerator.
		p.load()
	}
	if p == nil || len(p.SPIRV) == 0 && p.err == nil || p.Name == "" {
		return nil, &KernelError{Kernel: l.name, Reason: "Program() returned no program (nil, no name or no SPIR-V)"}
	}
	if m := hooks.ProgramSPIRV.Load(); m != nil {
		if spv, ok := (*m)[p.Name]; ok {
			return substitute(p, spv), nil
		}
	}
	return p, nil
}

// substituted holds the programs that hooks.ProgramSPIRV substituted, by name
// and module, so that each keeps its interface and pipelines across dispatches.
var substituted sync.Map // substKey -> *Program

type substKey struct {
	name  string
	first *byte
	n     int
}

// substitute returns program orig with module spv.
func substitute(orig *Program, spv []byte) *Program {
	k := substKey{orig.Name, &spv[0], len(spv)}
	if p, ok := substituted.Load(k); ok {
		return p.(*Program)
	}
	p, _ := substituted.LoadOrStore(k, &Program{Name: orig.Name, SPIRV: spv, Rank: orig.Rank, indexed: orig.indexed})
	return p.(*Program)
}

// checkLimits checks the domain against the device's limits that apply before the GPU
// path: checkTileLimits for a tiled domain, the shared memory for a non-tiled one.
func checkLimits(lim accelerator.Limits, ext, tile Extent, kernel any, name string, shared int) error {
	if tile.rank != 0 {
		return checkTileLimits(lim, ext, tile, kernel, name, shared)
	}
	if uint64(shared) > uint64(lim.MaxSharedMemory) {
		return &ComputeDomainError{Extent: ext, Dim: -1, Limit: int(lim.MaxSharedMemory), Value: shared,
			Reason: fmt.Sprintf("kernel %s uses %d bytes of shared memory; the device's maxComputeSharedMemorySize is %d",
				name, shared, lim.MaxSharedMemory)}
	}
	return nil
}

// checkTileLimits checks a valid tiled domain against the device's limits, on every
// accelerator (the CPU's limits are C++ AMP's own, so only shared memory can fail there).
// The shared memory is the larger of progShared (what the program declares) and, for a
// SharedMemoryKernel, its SharedBytes.
func checkTileLimits(lim accelerator.Limits, ext, tile Extent, kernel any, name string, progShared int) error {
	bad := func(dim, limit, value int, format string, args ...any) error {
		return &ComputeDomainError{Extent: ext, Tile: tile, Dim: dim, Limit: limit, Value: value,
			Reason: fmt.Sprintf(format, args...)}
	}
	r := ext.rank
	td := func() string { return formatTimes(tile.Dims()) } // formatted for an error only
	for axis := range r {
		d := r - 1 - axis
		if t := tile.d[d]; uint64(t) > uint64(lim.MaxWorkgroupSize[axis]) {
			return bad(d, int(lim.MaxWorkgroupSize[axis]), t,
				"tile %s has dimension %d = %d; the device's maxComputeWorkGroupSize[%d] is %d",
				td(), d, t, axis, lim.MaxWorkgroupSize[axis])
		}
	}
	if n := tile.Size(); uint64(n) > uint64(lim.MaxWorkgroupInvocations) {
		return bad(-1, int(lim.MaxWorkgroupInvocations), n,
			"tile %s has %d threads; the device's maxComputeWorkGroupInvocations is %d", td(), n, lim.MaxWorkgroupInvocations)
	}
	for axis := range r {
		d := r - 1 - axis
		if c := ext.d[d] / tile.d[d]; uint64(c) > uint64(lim.MaxWorkgroupCount[axis]) {
			return bad(d, int(lim.MaxWorkgroupCount[axis]), c,
				"domain %s tiled %s has %d tiles in dimension %d; the device's maxComputeWorkGroupCount[%d] is %d",
				ext, td(), c, d, axis, lim.MaxWorkgroupCount[axis])
		}
	}
	n := progShared
	if sk, ok := kernel.(SharedMemoryKernel); ok {
		t3 := [3]int{1, 1, 1}
		copy(t3[:], tile.d[:r])
		if m := sk.SharedBytes(t3); m < 0 || m > n {
			n = m
		}
	}
	if n < 0 || uint64(n) > uint64(lim.MaxSharedMemory) {
		return bad(-1, int(lim.MaxSharedMemory), n,
			"kernel %s uses %d bytes of shared memory for tile %s; the device's maxComputeSharedMemorySize is %d",
			name, n, td(), lim.MaxSharedMemory)
	}
	return nil
}

// groupSize is the workgroup size of a non-tiled dispatch on a device with limits lim:
// GroupSize, or the device's largest x size or invocations where smaller.
func groupSize(lim accelerator.Limits) uint32 {
	g := uint32(GroupSize)
	for _, l := range []uint32{lim.MaxWorkgroupSize[0], lim.MaxWorkgroupInvocations} {
		if l > 0 {
			g = min(g, l)
		}
	}
	return g
}

// specFor returns the specialization constants 0-2 of a dispatch: the workgroup size x,
// y, z (the tile, x its last dimension; group, 1, 1 when not tiled). Constant 3 is 0.
func specFor(ext, tile Extent, group uint32) [4]uint32 {
	if tile.rank == 0 {
		return [4]uint32{group, 1, 1, 0}
	}
	spec := [4]uint32{1, 1, 1, 0}
	r := ext.rank
	for axis := range r {
		spec[axis] = uint32(tile.d[r-1-axis])
	}
	return spec
}

// MaxGPUPoints is the most points a GPU dispatch's domain may have: the GPU bodies, generated
// and hand-written alike, index with 32-bit signed ints (ampIndex1/2/3, ampGlobal1 in
// amp.glsl), so a larger domain would give threads past 2^31-1 negative indices. A larger
// domain is refused on Vulkan with a *ComputeDomainError; the CPU runs it.
const MaxGPUPoints = math.MaxInt32

// grid returns the specialization constants (specFor) and the workgroup counts of a GPU
// dispatch whose non-tiled workgroups have group threads, at most maxGroups of them when
// maxGroups is not 0 (a body that loops over the domain).
func grid(lim accelerator.Limits, ext, tile Extent, group uint32, maxGroups uint64) (spec [4]uint32, groups [3]uint32, err error) {
	spec = specFor(ext, tile, group)
	if n := uint64(ext.Size()); n > MaxGPUPoints {
		return spec, groups, &ComputeDomainError{Extent: ext, Tile: tile, Dim: -1, Limit: MaxGPUPoints, Value: int(n),
			Reason: fmt.Sprintf("extent %s has %d points; a GPU dispatch handles at most %d (GPU indices are 32-bit signed ints)",
				ext, n, MaxGPUPoints)}
	}
	if tile.rank != 0 {
		groups = [3]uint32{1, 1, 1}
		r := ext.rank
		for axis := range r {
			d := r - 1 - axis
			groups[axis] = uint32(ext.d[d] / tile.d[d])
		}
		return spec, groups, nil
	}
	n := uint64(ext.Size())
	total := (n + uint64(group) - 1) / uint64(group)
	if maxGroups > 0 {
		total = min(total, maxGroups)
	}
	gx := min(total, uint64(lim.MaxWorkgroupCount[0]))
	gy := (total + gx - 1) / gx
	if gy > uint64(lim.MaxWorkgroupCount[1]) {
		return spec, groups, &ComputeDomainError{Extent: ext, Dim: -1, Limit: int(lim.MaxWorkgroupCount[1]), Value: int(gy),
			Reason: fmt.Sprintf("extent %s needs %d workgroups of %d; folded into %d x %d, which exceeds maxComputeWorkGroupCount[1] %d",
				ext, total, group, gx, gy, lim.MaxWorkgroupCount[1])}
	}
	return spec, [3]uint32{uint32(gx), uint32(gy), 1}, nil
}
