package main

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
)

// maxArgs is how many arguments internal/vk's call passes: every command's, padded with 0.
const maxArgs = 10

// The function tables: where a command's pointer comes from.
const (
	tableGlobal   = "globalFuncs"   // vkGetInstanceProcAddr(NULL, name)
	tableInstance = "instanceFuncs" // vkGetInstanceProcAddr(instance, name)
	tableDevice   = "deviceFuncs"   // vkGetDeviceProcAddr(device, name)
)

var globalCommands = map[string]bool{"vkCreateInstance": true, "vkEnumerateInstanceVersion": true,
	"vkEnumerateInstanceExtensionProperties": true, "vkEnumerateInstanceLayerProperties": true}

// table says which function table holds f.
func table(f *funcDef) string {
	switch {
	case globalCommands[f.name]:
		return tableGlobal
	case f.name == "vkGetDeviceProcAddr" || len(f.params) == 0:
		return tableInstance
	}
	switch f.params[0].typ {
	case "VkDevice", "VkQueue", "VkCommandBuffer":
		return tableDevice
	}
	return tableInstance
}

// paramType is the Go type of a parameter and the expression that passes it as a uintptr.
func (g *generator) paramType(d decl) (typ, arg string, err error) {
	name := fieldName(d.name)
	ptr := d.ptr + len(d.dims)
	if ptr > 0 {
		elem := ""
		switch {
		case ptr > 1:
		case g.structs[d.typ] || g.handles[d.typ]:
			elem = goName(d.typ)
		case d.typ == "char":
			elem = "byte"
		default:
			elem = g.scalar(d.typ)
		}
		if elem == "" || elem == "uintptr" && d.typ != "size_t" {
			return "unsafe.Pointer", "uintptr(" + name + ")", nil
		}
		return "*" + elem, "uintptr(unsafe.Pointer(" + name + "))", nil
	}
	t := ""
	switch {
	case g.handles[d.typ]:
		t = goName(d.typ)
	case g.structs[d.typ]:
		return "", "", fmt.Errorf("%s: a struct passed by value", d.field)
	default:
		t = g.scalar(d.typ)
	}
	if t == "" || t == "float32" || t == "float64" {
		return "", "", fmt.Errorf("no Go parameter type for %q", d.field)
	}
	return t, "uintptr(" + name + ")", nil
}

func (g *generator) emitFuncs(b *bytes.Buffer) error {
	slices.Sort(g.funcs)
	g.funcs = slices.Compact(g.funcs)
	for _, tab := range []string{tableGlobal, tableInstance, tableDevice} {
		var fs []*funcDef
		for _, n := range g.funcs {
			if f := g.r.funcs[n]; table(f) == tab {
				fs = append(fs, f)
			}
		}
		fmt.Fprintf(b, "// %s holds the entry points of the commands goamp calls.\ntype %s struct {\n", tab, tab)
		for _, f := range fs {
			fmt.Fprintf(b, "\t%s uintptr\n", goName(strings.TrimPrefix(f.name, "vk")))
		}
		b.WriteString("}\n\n")
		fmt.Fprintf(b, "// load looks up each entry point with get, which is given its name NUL-terminated; a\n"+
			"// missing one is 0.\nfunc (f *%s) load(get func(name string) uintptr) {\n", tab)
		for _, f := range fs {
			fmt.Fprintf(b, "\tf.%s = get(%q)\n", goName(strings.TrimPrefix(f.name, "vk")), f.name+"\x00")
		}
		b.WriteString("}\n\n")
		for _, f := range fs {
			if err := g.emitFunc(b, tab, f); err != nil {
				return err
			}
		}
	}
	return nil
}

// retType is the Go result type of a command and the conversion of the raw uintptr result.
func (g *generator) retType(c string) (typ, conv string, err error) {
	switch c {
	case "void":
		return "", "", nil
	case "PFN_vkVoidFunction":
		return "uintptr", "", nil
	}
	t := g.scalar(c)
	if t == "" || t == "float32" || t == "float64" {
		return "", "", fmt.Errorf("no Go result type for %q", c)
	}
	return t, t, nil
}

func (g *generator) emitFunc(b *bytes.Buffer, tab string, f *funcDef) error {
	var params, args []string
	for _, p := range f.params {
		t, a, err := g.paramType(p)
		if err != nil {
			return fmt.Errorf("%s: %v", f.name, err)
		}
		params = append(params, fieldName(p.name)+" "+t)
		args = append(args, a)
	}
	rt, conv, err := g.retType(f.ret)
	if err != nil {
		return fmt.Errorf("%s: %v", f.name, err)
	}
	name := strings.TrimPrefix(f.name, "vk")
	fmt.Fprintf(b, "// %s calls %s.\nfunc (f *%s) %s(%s) %s {\n", name, f.name, tab, name, strings.Join(params, ", "), rt)
	if len(args) > maxArgs {
		return fmt.Errorf("%s has %d parameters; call passes at most %d", f.name, len(args), maxArgs)
	}
	for len(args) < maxArgs {
		args = append(args, "0")
	}
	call := fmt.Sprintf("call(f.%s, %s)", goName(name), strings.Join(args, ", "))
	switch {
	case rt == "":
		fmt.Fprintf(b, "\t%s\n", call)
	case conv == "":
		fmt.Fprintf(b, "\treturn %s\n", call)
	default:
		fmt.Fprintf(b, "\treturn %s(%s)\n", conv, call)
	}
	b.WriteString("}\n\n")
	if tab == tableDevice {
		// A device's commands can also be queued (callQueue), to be made with others in
		// one call to C; q.result reads the result of one that returns a VkResult.
		fmt.Fprintf(b, "// queue%s queues a call of %s in q; what its arguments point to must stay\n"+
			"// alive and in place until q runs it.\nfunc (f *%s) queue%s(q *callQueue, %s) {\n\tq.add(f.%s, %s)\n}\n\n",
			name, f.name, tab, name, strings.Join(params, ", "), goName(name), strings.Join(args, ", "))
	}
	return nil
}
