package translate

import (
	"fmt"
	"go/types"
	"maps"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"
)

// Kernels may call functions and methods, and use struct types, of other packages of the
// user's (not the standard library's, nor goamp's own but the kernel language's
// packages). The kernel's package was type-checked with those packages' export data,
// which has no function bodies, so a package whose functions a kernel calls is loaded
// again from source, once per ampgen run (foreignPkgs), and its functions are translated
// with its own syntax and type information: function (funcs.go) swaps the translator's
// pkgInfo to the callee's for the time of its translation. Objects of the two loads are
// matched by name (resolve); GLSL names of such functions and struct types carry their
// package's name (ampF_geom_Clamp, geom_Vec), so that two packages' Vec do not collide.

// foreignPkgs caches the packages loaded from source for translating their functions.
type foreignPkgs struct {
	dir  string // where the kernel's package is (go/packages resolves paths from there)
	pkgs map[string]*pkgInfo
	errs map[string]error
}

// newForeignPkgs returns an empty cache whose packages are found from dir.
func newForeignPkgs(dir string) *foreignPkgs {
	return &foreignPkgs{dir: dir, pkgs: map[string]*pkgInfo{}, errs: map[string]error{}}
}

// isHome says whether p is the kernel's package.
func (pi *pkgInfo) isHome(p *types.Package) bool {
	return p != nil && p.Path() == pi.home().pkg.Path()
}

// userPkg says whether p is a package whose functions and struct types kernels may use:
// the kernel's own, or one that is neither the standard library's nor goamp's.
func (pi *pkgInfo) userPkg(p *types.Package) bool {
	return pi.isHome(p) || p != nil && userPath(p.Path())
}

// userPath says whether a package path is neither the standard library's (its first
// element has no dot) nor goamp's.
func userPath(path string) bool {
	first, _, _ := strings.Cut(path, "/")
	return strings.Contains(first, ".") && path != modPath && !strings.HasPrefix(path, modPath+"/")
}

// home is the pkgInfo of the kernel's package.
func (pi *pkgInfo) home() *pkgInfo {
	if pi.homePkg != nil {
		return pi.homePkg
	}
	return pi
}

// infoOf returns the pkgInfo that holds p's syntax: the kernel's package's, or p loaded
// from source; nil with the reason where it cannot be loaded.
func (pi *pkgInfo) infoOf(p *types.Package) (*pkgInfo, error) {
	h := pi.home()
	if pi.isHome(p) {
		return h, nil
	}
	if !pi.userPkg(p) {
		return nil, fmt.Errorf("package %s is not one kernels may call into", p.Path())
	}
	f := h.foreign
	if f == nil { // a pkgInfo that translatePackage did not make: paths resolve from here
		f = newForeignPkgs("")
		h.foreign = f
	}
	if fp := f.pkgs[p.Path()]; fp != nil {
		return fp, nil
	}
	if err := f.errs[p.Path()]; err != nil {
		return nil, err
	}
	cfg := &packages.Config{Mode: loadMode, Dir: f.dir, Fset: h.fset}
	ps, err := packages.Load(cfg, p.Path())
	if err == nil && (len(ps) != 1 || len(ps[0].Errors) > 0) {
		err = fmt.Errorf("loading %s from source: %v", p.Path(), packageErrors(ps))
	}
	if err != nil {
		f.errs[p.Path()] = err
		return nil, err
	}
	fp := newPkgInfo(h.fset, ps[0].Types, ps[0].TypesInfo, ps[0].Syntax, "")
	fp.checked, fp.homePkg = h.checked, h
	f.pkgs[p.Path()] = fp
	return fp, nil
}

// packageErrors lists the errors of loaded packages.
func packageErrors(ps []*packages.Package) string {
	var errs []packages.Error
	for _, p := range ps {
		errs = append(errs, p.Errors...)
	}
	msg := errorLines(errs)
	if len(ps) != 1 {
		msg += fmt.Sprintf("\n%d packages", len(ps))
	}
	return msg
}

// errorLines writes a package load's errors a line each. Where the type checker found
// errors, go list's report of the same errors from the compiler ("# pkg" and the lines
// again, with relative paths) is left out: each error once.
func errorLines(errs []packages.Error) string {
	typeErrs := false
	for _, e := range errs {
		typeErrs = typeErrs || e.Kind == packages.TypeError
	}
	var msgs []string
	for _, e := range errs {
		if typeErrs && e.Kind == packages.ListError && strings.HasPrefix(strings.TrimSpace(e.Msg), "# ") {
			continue
		}
		msgs = append(msgs, e.Error())
	}
	return strings.Join(msgs, "\n")
}

// resolve returns fn, a function or method of another package as the kernel's package
// sees it, as that package's own load from source declares it, or nil.
func (pi *pkgInfo) resolve(fn *types.Func) (*types.Func, *pkgInfo, error) {
	fp, err := pi.infoOf(fn.Pkg())
	if err != nil {
		return nil, nil, err
	}
	if fp == pi.home() && fn.Pkg() == fp.pkg {
		return fn, fp, nil
	}
	sig := fn.Type().(*types.Signature)
	if sig.Recv() == nil {
		if g, ok := fp.pkg.Scope().Lookup(fn.Name()).(*types.Func); ok {
			return g, fp, nil
		}
		return nil, nil, fmt.Errorf("%s.%s not found in its package's source", fn.Pkg().Path(), fn.Name())
	}
	rt := sig.Recv().Type()
	if p, ok := rt.(*types.Pointer); ok {
		rt = p.Elem()
	}
	if n, ok := types.Unalias(rt).(*types.Named); ok {
		if tn, ok := fp.pkg.Scope().Lookup(n.Origin().Obj().Name()).(*types.TypeName); ok {
			if nt, ok := tn.Type().(*types.Named); ok {
				for i := range nt.NumMethods() {
					if m := nt.Method(i); m.Name() == fn.Name() {
						return m, fp, nil
					}
				}
			}
		}
	}
	return nil, nil, fmt.Errorf("method %s of %s not found in its package's source", fn.Name(), rt)
}

// pkgPrefix is the prefix of the GLSL names of another package's functions and struct
// types: its name ("geom_"), numbered where another package of the same name came first
// in this kernel ("geom2_").
func (t *tr) pkgPrefix(p *types.Package) string {
	if pre, ok := t.prefixes[p.Path()]; ok {
		return pre
	}
	if t.prefixes == nil {
		t.prefixes = map[string]string{}
	}
	base := mangle(p.Name())
	pre := base + "_"
	for n := 2; slices.Contains(slices.Collect(maps.Values(t.prefixes)), pre); n++ {
		pre = fmt.Sprintf("%s%d_", base, n)
	}
	t.prefixes[p.Path()] = pre
	return pre
}
