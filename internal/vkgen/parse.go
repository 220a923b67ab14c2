package main

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"
)

// decl is a parsed C declarator: a struct member or a function parameter.
type decl struct {
	typ   string // the base type, without const, struct or pointers
	ptr   int    // levels of indirection
	name  string
	dims  []string // array dimensions, outermost first
	field string   // the declaration as the header spells it, for comments
}

// structDef is a parsed typedef struct.
type structDef struct {
	name    string
	members []decl
	bad     error // a member vkgen cannot parse (a bit field): the struct cannot be used
}

// funcDef is a Vulkan command parsed from its PFN_ typedef.
type funcDef struct {
	name   string // e.g. vkCreateBuffer
	ret    string
	params []decl
}

// registry is what the headers declare, by name.
type registry struct {
	structs  map[string]*structDef
	funcs    map[string]*funcDef
	enumVals map[string]string // enumerant -> value as written
	enums    map[string]bool   // enum types
	defines  map[string]string // #define name -> value as written
	typedefs map[string]string // typedef base name -> aliased type
	handles  map[string]bool   // handle type -> dispatchable
}

func newRegistry() *registry {
	return &registry{structs: map[string]*structDef{}, funcs: map[string]*funcDef{},
		enumVals: map[string]string{}, enums: map[string]bool{}, defines: map[string]string{},
		typedefs: map[string]string{}, handles: map[string]bool{}}
}

var (
	reStructStart = regexp.MustCompile(`^typedef struct (\w+) \{$`)
	reStructEnd   = regexp.MustCompile(`^\} (\w+);$`)
	reEnumStart   = regexp.MustCompile(`^typedef enum (\w+) \{$`)
	reEnumVal     = regexp.MustCompile(`^\s+(\w+) = ([^,]+),?$`)
	reDefine      = regexp.MustCompile(`^#define (VK_\w+|AMP_\w+)\s+(.+)$`)
	reTypedef     = regexp.MustCompile(`^typedef (\w+) (\w+);$`)
	reHandle      = regexp.MustCompile(`^VK_DEFINE_(NON_DISPATCHABLE_)?HANDLE\((\w+)\)$`)
	rePFN         = regexp.MustCompile(`^typedef (.+?) \(VKAPI_PTR \*PFN_(vk\w+)\)\((.*)\);$`)
	reDecl        = regexp.MustCompile(`^(.*?[\s*])(\w+)((?:\[\w+\])*)$`)
)

// parse reads one header into r.
func (r *registry) parse(in io.Reader) error {
	sc := bufio.NewScanner(in)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var st *structDef
	inEnum := false
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		line = strings.TrimRight(line, " \t")
		switch {
		case st != nil:
			if m := reStructEnd.FindStringSubmatch(line); m != nil {
				r.structs[st.name] = st
				st = nil
				continue
			}
			d, err := parseDecl(strings.TrimSuffix(strings.TrimSpace(line), ";"))
			if err != nil && st.bad == nil {
				st.bad = fmt.Errorf("line %d: %v", n, err)
			}
			st.members = append(st.members, d)
		case inEnum:
			if reStructEnd.MatchString(line) {
				inEnum = false
			} else if m := reEnumVal.FindStringSubmatch(line); m != nil {
				r.enumVals[m[1]] = strings.TrimSpace(m[2])
			}
		default:
			if err := r.parseTop(line, &st, &inEnum); err != nil {
				return fmt.Errorf("line %d: %v", n, err)
			}
		}
	}
	return sc.Err()
}

// parseTop parses a line outside any struct or enum body.
func (r *registry) parseTop(line string, st **structDef, inEnum *bool) error {
	if m := reStructStart.FindStringSubmatch(line); m != nil {
		*st = &structDef{name: m[1]}
	} else if m := reEnumStart.FindStringSubmatch(line); m != nil {
		r.enums[m[1]] = true
		*inEnum = true
	} else if m := reDefine.FindStringSubmatch(line); m != nil {
		r.defines[m[1]] = strings.TrimSpace(m[2])
	} else if m := reTypedef.FindStringSubmatch(line); m != nil {
		r.typedefs[m[2]] = m[1]
	} else if m := reHandle.FindStringSubmatch(line); m != nil {
		r.handles[m[2]] = m[1] == ""
	} else if m := rePFN.FindStringSubmatch(line); m != nil {
		f := &funcDef{name: m[2], ret: strings.TrimSpace(m[1])}
		if m[3] != "void" {
			for _, p := range strings.Split(m[3], ",") {
				d, err := parseDecl(strings.TrimSpace(p))
				if err != nil {
					return fmt.Errorf("%s: %v", f.name, err)
				}
				f.params = append(f.params, d)
			}
		}
		r.funcs[f.name] = f
	}
	return nil
}

// parseDecl parses "const VkFoo* const* pName[4]" and the like.
func parseDecl(s string) (decl, error) {
	m := reDecl.FindStringSubmatch(s)
	if m == nil {
		return decl{}, fmt.Errorf("cannot parse declaration %q", s)
	}
	d := decl{name: m[2], field: strings.Join(strings.Fields(s), " ")}
	t := m[1]
	d.ptr = strings.Count(t, "*")
	var fields []string
	for _, w := range strings.Fields(strings.ReplaceAll(t, "*", " ")) {
		if w != "const" && w != "struct" {
			fields = append(fields, w)
		}
	}
	switch len(fields) {
	case 1:
		d.typ = fields[0]
	case 2:
		// Two-word C types.
		d.typ = strings.Join(fields, " ")
	default:
		return decl{}, fmt.Errorf("cannot parse type of %q", s)
	}
	if dims := m[3]; dims != "" {
		dims = strings.TrimSuffix(strings.TrimPrefix(dims, "["), "]")
		d.dims = strings.Split(dims, "][")
	}
	return d, nil
}
