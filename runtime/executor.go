package runtime

import (
	"encoding/binary"
	"errors"
	"fmt"
	"reflect"
	"unsafe"

	"github.com/goamp/goamp/accelerator"
	"github.com/goamp/goamp/internal/ampabi"
	"github.com/goamp/goamp/internal/device"
)

// executor runs the dispatches of one kind of accelerator: run binds a kernel to its view
// and the view's executor, checks what every accelerator checks, then calls validate,
// encode and submit, so that no step of a dispatch asks which accelerator it is on. There
// are three: hostExecutor (the goroutine accelerator: Go bodies over host memory),
// strictExecutor (the strict goroutine accelerator: Go definitions per thread over device
// copies) and vulkanExecutor (SPIR-V on a Vulkan device's command stream).
//
// It lives in runtime, not in accelerator, because what it executes is runtime's: kernels
// with their Go bodies and Programs, whose data arguments are Args (BindHost, BindDevice),
// dispatched over an Extent. The accelerator package knows only buffers, pipelines and
// queues, and cannot import runtime (imports point down: runtime -> accelerator ->
// internal/vk), so the executors are built here on a view's hardware (internal/device:
// Dispatch and Pipeline). It is unexported: the three executors are the whole set, chosen by the
// accelerator's traits (executorFor), and a kernel's author never picks one.
type executor interface {
	// validate checks what this executor needs beyond the checks every dispatch passes
	// (the program's contract, the device's limits): a GPU body, device features, a grid
	// the device can launch.
	validate(d *dispatch) error
	// encode binds every data argument where the kernel reads it (host memory, or a buffer
	// on the view) and prepares what submit sends: push constants and the pipeline.
	encode(d *dispatch) error
	// submit runs the dispatch: on goroutines at once, or recorded on the view's command
	// stream, which submits it when the host needs a result.
	submit(d *dispatch) error
	// prepare builds what a validated dispatch needs before it can run, without binding
	// its arguments (Prepare): the Vulkan pipeline.
	prepare(d *dispatch) error
}

// executorFor returns the executor of acc's dispatches: the goroutine executor where the
// accelerator keeps data in host memory (the kernels' Go bodies run over the host slices),
// the strict one where it keeps device copies for Go bodies, the Vulkan executor elsewhere.
func executorFor(acc *accelerator.Accelerator) executor {
	switch t := acc.Traits(); {
	case t.HostMemory:
		return hostExecutor{}
	case t.Strict:
		return strictExecutor{}
	}
	return vulkanExecutor{}
}

// hostExecutor runs a kernel's Go body on goroutines (RunCPU, RunTiledCPU) over its
// arguments' host memory. It needs no GPU body.
type hostExecutor struct{}

// validate has nothing to add: the CPU's limits were checked with every device's.
func (hostExecutor) validate(*dispatch) error { return nil }

// encode counts the dispatch on the view and binds every argument on the host.
func (hostExecutor) encode(d *dispatch) error {
	device.Of(d.view).CountDispatch()
	for i, a := range d.args {
		if err := a.BindHost(d.infos[i].Access); err != nil {
			return fmt.Errorf("goamp/runtime: kernel %s: field %s: %w", d.l.name, d.l.args[i].name, err)
		}
	}
	return nil
}

// prepare has nothing to build: Go bodies need no compiling.
func (hostExecutor) prepare(*dispatch) error { return nil }

// submit runs the Go body of the kernel as passed (a perThreadKernel runs per thread).
func (hostExecutor) submit(d *dispatch) error { return d.runGo(false, d.infos) }

// runGo runs d.exec, the kernel's Go body, on the CPU, with tile_static memory poisoned
// where poisoned is set, and names the kernel, and the field of an access outside a view
// (the argument whose ArgInfo().Key in infos is the *BoundsError's Key), in its error.
func (d *dispatch) runGo(poisoned bool, infos []ArgInfo) error {
	var err error
	if d.tile.rank == 0 {
		err = RunCPU(d.ctx, d.ext, d.exec.(IndexKernel))
	} else {
		err = runTiledCPU(d.ctx, TiledExtent{Extent: d.ext, Tile: d.tile}, d.exec.(TiledKernel), poisoned)
	}
	if err == nil { // before pe, which escapes: a run without error allocates nothing here
		return nil
	}
	var pe *KernelPanicError
	if errors.As(err, &pe) && pe.Kernel == "" {
		pe.Kernel = d.l.name // RunCPU does not know it: the message names the kernel
	}
	var be *BoundsError
	if errors.As(err, &be) && be.Kernel == "" {
		be.Kernel = d.l.name
		for i, info := range infos {
			if info.Key != nil && info.Key == be.Key {
				be.Field = d.l.args[i].name
				break
			}
		}
	}
	return err
}

// strictExecutor runs a kernel's Go definition on goroutines, one per thread (Each, Tiled:
// never a fast CPU body), over device copies of its arguments that a strict CPU view keeps
// in buffers of its own (accelerator.StrictCPU), as a discrete GPU runs it over its
// memory: every argument is bound with BindDevice, and the kernel runs on a copy of its
// struct whose data fields are their DeviceCopy. tile_static memory starts as poison.
type strictExecutor struct{}

// validate has nothing to add: the CPU's limits were checked with every device's.
func (strictExecutor) validate(*dispatch) error { return nil }

// prepare has nothing to build: Go bodies need no compiling.
func (strictExecutor) prepare(*dispatch) error { return nil }

// encode binds every argument on the view and makes d.exec the kernel struct's copy over
// the device copies, run per thread.
func (strictExecutor) encode(d *dispatch) error {
	done, err := device.Of(d.view).StartHostWork()
	if err != nil {
		return fmt.Errorf("goamp/runtime: kernel %s: %w", d.l.name, err)
	}
	d.hostDone = done
	device.Of(d.view).CountDispatch()
	st := d.l.typ
	cp := reflect.New(st)
	cp.Elem().Set(reflect.NewAt(st, d.base).Elem())
	devInfos := make([]ArgInfo, len(d.args))
	for i, a := range d.args {
		f := &d.l.args[i]
		dc, ok := a.(DeviceCopier)
		if !ok {
			return &KernelError{Kernel: d.l.name, Field: f.name, FieldType: f.typ.String(),
				Reason: "its type does not implement runtime.DeviceCopier, which the strict CPU accelerator binds"}
		}
		b, err := a.BindDevice(d.view, d.infos[i].Access)
		if err != nil {
			return fmt.Errorf("goamp/runtime: kernel %s: field %s: %w", d.l.name, f.name, err)
		}
		dv := reflect.ValueOf(dc.DeviceCopy(b))
		if f.addr { // the field holds the value whose pointer is the Arg
			dv = dv.Elem()
		}
		if !dv.IsValid() || !dv.Type().AssignableTo(f.typ) {
			return &KernelError{Kernel: d.l.name, Field: f.name, FieldType: f.typ.String(),
				Reason: fmt.Sprintf("DeviceCopy returned a %v, which the field cannot hold", dv.Type())}
		}
		reflect.NewAt(f.typ, unsafe.Add(cp.UnsafePointer(), f.offset)).Elem().Set(dv)
		if da, ok := dv.Interface().(Arg); ok {
			devInfos[i].Key = da.ArgInfo().Key
		}
	}
	d.exec, d.devInfos = perThreadKernel{Kernel: cp.Interface()}, devInfos
	return nil
}

// submit runs the kernel's copy per thread, with tile_static memory poisoned.
func (strictExecutor) submit(d *dispatch) error { return d.runGo(true, d.devInfos) }

// vulkanExecutor records a kernel's GPU body on the view's command stream, without
// waiting (the view submits when the host needs data, on Flush or Wait, or at once in
// Immediate mode).
type vulkanExecutor struct{}

// validate checks that the kernel has a GPU body, that its push constants and float64 data
// fit the device, and that the device can launch its grid, which it keeps in d.groups.
func (vulkanExecutor) validate(d *dispatch) error {
	if d.progErr != nil {
		return d.progErr
	}
	acc := d.view.Accelerator()
	l, lim := d.l, acc.Limits()
	if size := d.pushSize(); uint32(size) > lim.MaxPushConstantsSize {
		why := ""
		if d.c.extents > 0 {
			why = fmt.Sprintf(" (%d of them the extents of %d data fields, which the program reads)", 8*d.c.extents, d.c.extents)
		}
		reason := fmt.Sprintf("%d bytes of push constants%s exceed maxPushConstantsSize %d of %s", size, why, lim.MaxPushConstantsSize, acc.Path())
		return &KernelError{Kernel: l.name, Reason: reason,
			Err: &accelerator.FeatureError{Accelerator: acc.Path(), Feature: reason}}
	}
	for i, info := range d.infos {
		if info.Float64 && !acc.SupportsDoublePrecision() {
			return &accelerator.FeatureError{Accelerator: acc.Path(),
				Feature: fmt.Sprintf("double precision (float64 data in field %s of kernel %s)", l.args[i].name, l.name)}
		}
		if info.Float16 && !acc.Supports16BitStorage() {
			return &accelerator.FeatureError{Accelerator: acc.Path(),
				Feature: fmt.Sprintf("16-bit storage (half.Float16 data in field %s of kernel %s)", l.args[i].name, l.name)}
		}
		if info.Int8 && !acc.Supports8BitStorage() {
			return &accelerator.FeatureError{Accelerator: acc.Path(),
				Feature: fmt.Sprintf("8-bit storage (int8 or uint8 data in field %s of kernel %s)", l.args[i].name, l.name)}
		}
	}
	var err error
	maxGroups := uint64(0)
	if d.c != nil && d.c.gridLoop {
		maxGroups = MaxLoopGroups
	}
	_, d.groups, err = grid(lim, d.ext, d.tile, d.spec[0], maxGroups)
	return err
}

// encode fills the push constants (the domain, one AmpView per argument, then the
// scalars), binds every argument on the view (bindDevice) and takes the pipeline.
func (vulkanExecutor) encode(d *dispatch) error {
	l, ext := d.l, d.ext
	if size := d.pushSize(); size > len(d.push) {
		d.push = make([]byte, size)
	}
	push := d.push[:d.pushSize()]
	clear(push)
	dims := [3]int{1, 1, 1}
	copy(dims[:], ext.d[:ext.rank])
	le := binary.LittleEndian
	le.PutUint32(push[0:], uint32(dims[0]))
	le.PutUint32(push[4:], uint32(dims[1]))
	le.PutUint32(push[8:], uint32(dims[2]))
	le.PutUint32(push[12:], uint32(ext.Size()))
	if err := d.bindDevice(push); err != nil {
		return err
	}
	for i := range l.scalarFields {
		f := &l.scalarFields[i]
		switch {
		case f.kind == reflect.Float64:
			le.PutUint64(push[f.push:], *(*uint64)(unsafe.Add(d.base, f.off)))
		case f.vec > 0 || f.composite(): // 32-bit values with no gap, as std430 lays them out
			for k := 0; k < f.size(); k += 4 {
				le.PutUint32(push[f.push+k:], *(*uint32)(unsafe.Add(d.base, f.off+uintptr(k))))
			}
		default:
			w, err := f.word(d.base, l.name)
			if err != nil {
				return err
			}
			le.PutUint32(push[f.push:], w)
		}
	}
	o := l.scalarEnd
	for i := range d.c.extents { // ampExtents: dimensions 1 and 2 (0 past the rank)
		le.PutUint32(push[o+8*i:], uint32(d.infos[i].Extent.Dim(1)))
		le.PutUint32(push[o+8*i+4:], uint32(d.infos[i].Extent.Dim(2)))
	}
	if d.checked {
		if err := d.bindCheck(); err != nil {
			return err
		}
	}
	return d.pipeline()
}

// prepare builds (or finds) the dispatch's pipeline.
func (vulkanExecutor) prepare(d *dispatch) error { return d.pipeline() }

// submit records the dispatch on the view's command stream.
func (vulkanExecutor) submit(d *dispatch) error {
	if err := device.Of(d.view).Dispatch(d.pipe, d.vargs, d.push[:d.pushSize()], d.groups); err != nil {
		if d.check != nil {
			_ = d.check.Free()
		}
		return fmt.Errorf("goamp/runtime: kernel %s: %w", d.l.name, err)
	}
	if d.check != nil {
		return d.readCheck()
	}
	return nil
}

// bindCheck allocates the check buffer of a bounds-checked dispatch on its view, writes
// the data fields' extents into it, 1 past their ranks (an index's components there must
// be 0), then the device's loop cap (0: none), and binds it after them.
func (d *dispatch) bindCheck() error {
	n := len(d.infos)
	words := make([]byte, 4*ampabi.CheckWords(n))
	for i, info := range d.infos {
		for c := range 3 {
			binary.LittleEndian.PutUint32(words[4*ampabi.CheckExtent(i, c):], uint32(max(info.Extent.Dim(c), 1)))
		}
	}
	binary.LittleEndian.PutUint32(words[4*ampabi.CheckLoopCap(n):], d.view.Accelerator().Limits().MaxLoopIterations)
	b, err := device.Of(d.view).Alloc(uint64(len(words)))
	if err != nil {
		return fmt.Errorf("goamp/runtime: kernel %s: the bounds check's buffer: %w", d.l.name, err)
	}
	if err := b.Upload(0, words); err != nil {
		_ = b.Free()
		return fmt.Errorf("goamp/runtime: kernel %s: the bounds check's buffer: %w", d.l.name, err)
	}
	d.check = b
	d.vargs = append(d.vargs, device.Arg{Buffer: b, Range: uint64(len(words)), Access: device.ReadWrite})
	return nil
}

// readCheck waits for a bounds-checked dispatch, frees its check buffer and returns the
// access outside a view it recorded as a *KernelPanicError, or nil.
func (d *dispatch) readCheck() error {
	b := d.check
	d.check = nil
	defer func() { _ = b.Free() }()
	words := make([]byte, 4*ampabi.CheckHeaderWords)
	if err := b.Download(0, words); err != nil {
		return fmt.Errorf("goamp/runtime: kernel %s: the bounds check's buffer: %w", d.l.name, err)
	}
	u := func(i int) int { return int(int32(binary.LittleEndian.Uint32(words[4*i:]))) }
	f := u(ampabi.CheckFault) - 1
	if f < 0 {
		return nil // no fault
	}
	e := &BoundsError{Kernel: d.l.name, Index: Index{u(ampabi.CheckIndex), u(ampabi.CheckIndex + 1), u(ampabi.CheckIndex + 2)}}
	global := Index{u(ampabi.CheckThread), u(ampabi.CheckThread + 1), u(ampabi.CheckThread + 2)}
	switch {
	case f < len(d.infos):
		e.Field, e.Extent = d.l.args[f].name, d.infos[f].Extent
	case f >= ampabi.FaultLoop:
		return &KernelPanicError{Kernel: d.l.name, Value: &LoopLimitError{Kernel: d.l.name, Limit: u(ampabi.CheckIndex)}, Global: global, rank: d.ext.rank}
	case f >= ampabi.FaultShift:
		return &KernelPanicError{Kernel: d.l.name, Value: &ShiftError{Kernel: d.l.name, Count: u(ampabi.CheckIndex)}, Global: global, rank: d.ext.rank}
	case f >= ampabi.FaultDiv:
		return &KernelPanicError{Kernel: d.l.name, Value: &DivideError{Kernel: d.l.name}, Global: global, rank: d.ext.rank}
	case f >= ampabi.FaultArray:
		e.Field, e.Extent = "an array or Index", Ext(u(ampabi.CheckLength))
	case f >= ampabi.FaultShared:
		e.Field, e.Extent = fmt.Sprintf("tile_static array %d", f-ampabi.FaultShared), Ext(u(ampabi.CheckLength))
	default:
		return nil
	}
	return &KernelPanicError{Kernel: d.l.name, Value: e, Global: global, rank: d.ext.rank}
}

// pipeline sets d.pipe to the program's pipeline for d.spec on the view's accelerator: the
// kernel's last one when it matches, else the accelerator's cached or new one.
func (d *dispatch) pipeline() error {
	acc, l := d.view.Accelerator(), d.l
	key := device.PipelineKey{Module: d.prog.hash, Spec: d.spec}
	if p := l.pipe.Load(); p != nil && p.acc == acc && p.key == key {
		d.pipe = p.pipe
		return nil
	}
	bindings := len(l.args)
	if d.checked {
		bindings++ // the check buffer
	}
	pipe, err := device.Of(d.view).Pipeline(key, d.prog.Name, d.prog.SPIRV, bindings, d.pushSize())
	if err != nil {
		return fmt.Errorf("goamp/runtime: kernel %s: %w", l.name, err)
	}
	l.pipe.Store(&lastPipeline{acc: acc, key: key, pipe: pipe})
	d.pipe = pipe
	return nil
}

// bindDevice binds every argument on the view and writes its AmpView into push. A
// writable argument whose buffer the program never writes is bound for reading only.
func (d *dispatch) bindDevice(push []byte) error {
	acc, l := d.view.Accelerator(), d.l
	maxRange := uint64(acc.Limits().MaxStorageBufferRange)
	le := binary.LittleEndian
	for i, a := range d.args {
		access := d.infos[i].Access
		if d.c.readOnly[i] {
			access = Read
		}
		b, err := a.BindDevice(d.view, access)
		if err != nil {
			return fmt.Errorf("goamp/runtime: kernel %s: field %s: %w", l.name, l.args[i].name, err)
		}
		if b.Buffer == nil {
			return &KernelError{Kernel: l.name, Field: l.args[i].name, FieldType: l.args[i].typ.String(),
				Reason: "BindDevice returned no buffer"}
		}
		if b.Range > maxRange {
			return &accelerator.FeatureError{Accelerator: acc.Path(), Feature: fmt.Sprintf(
				"a storage buffer range of %d bytes (field %s of kernel %s; maxStorageBufferRange is %d)",
				b.Range, l.args[i].name, l.name, maxRange)}
		}
		o := ampabi.ViewOffset(i)
		le.PutUint32(push[o+4*ampabi.ViewBase:], b.Base)
		le.PutUint32(push[o+4*ampabi.ViewS0:], b.Strides[0])
		le.PutUint32(push[o+4*ampabi.ViewS1:], b.Strides[1])
		le.PutUint32(push[o+4*ampabi.ViewE0:], uint32(d.infos[i].Extent.Dim(0))) // e0: k.V.Extent().Dim(0)
		d.vargs = append(d.vargs, device.Arg{Buffer: b.Buffer, Offset: b.Offset, Range: b.Range, Access: device.Access(access)})
	}
	return nil
}
