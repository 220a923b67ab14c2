package translate

import (
	"go/ast"
	"go/constant"
	"go/token"
	"go/types"
)

// Indexed is how a kernel's body indexes one of its views with indices whose rank the
// translator can tell. The runtime refuses, at dispatch, a kernel that indexes a view
// of rank r with an index of higher rank: its components past r would have to be 0
// for every thread, and an index of the domain's rank is not.
type Indexed struct {
	// Field is the view's field.
	Field string
	// Thread says that the body indexes the view with the thread's index: the Each
	// body's index parameter, or its TiledIndex's Global, Local, Tile or TileOrigin,
	// whose rank is the domain's.
	Thread bool
	// Rank is the largest rank, 2 or 3, of the other indices of known rank the body
	// indexes the view with, or 0: runtime.Idx(a, b) and runtime.Index{a, b} are of
	// rank 2, runtime.Idx(a, 0) of rank 1 (trailing constant zeros do not count).
	Rank int
}

// indexed returns the Indexed of each view of the kernel that has one, in field order.
func (t *tr) indexed() []Indexed {
	var out []Indexed
	for _, v := range t.views {
		if v.thread || v.idxRank > 1 {
			r := v.idxRank
			if r < 2 {
				r = 0
			}
			out = append(out, Indexed{Field: v.field.Name(), Thread: v.thread, Rank: r})
		}
	}
	return out
}

// noteIndex records the rank of index e of an access to view v, where it is known.
func (t *tr) noteIndex(v *viewArg, e ast.Expr) {
	if thread, rank, ok := t.indexRank(e, 0); ok {
		v.thread = v.thread || thread
		v.idxRank = max(v.idxRank, rank)
	}
}

// indexRank tells the rank of Index expression e: the thread's index (thread: the
// domain's rank), or a literal's rank (runtime.Idx, an Index literal), or the larger of
// both for a sum or difference of such indices, or a local defined once as one of these
// and never changed. ok is false where the rank is not known so.
func (t *tr) indexRank(e ast.Expr, depth int) (thread bool, rank int, ok bool) {
	if depth > 8 {
		return false, 0, false
	}
	fs, changed := t.fn, t.changed()
	switch x := unparen(e).(type) {
	case *ast.Ident:
		o := t.info.Uses[x]
		if o == nil || changed[o] {
			return false, 0, false
		}
		if fs.main && o == fs.idx {
			return true, 0, true
		}
		if d := fs.defs[o]; d != nil {
			return t.indexRank(d, depth+1)
		}
	case *ast.SelectorExpr:
		if fs.main && t.isTiledIndex(x.X) && !changed[fs.tidx] {
			switch x.Sel.Name {
			case "Global", "Local", "Tile", "TileOrigin":
				return true, 0, true
			}
		}
	case *ast.CallExpr:
		if t.isRuntimeFunc(x.Fun, "Idx") && !x.Ellipsis.IsValid() && len(x.Args) >= 1 && len(x.Args) <= 3 {
			return false, t.literalRank(x.Args), true
		}
		f, isSel := unparen(x.Fun).(*ast.SelectorExpr)
		if isSel && (f.Sel.Name == "Add" || f.Sel.Name == "Sub") && len(x.Args) == 1 &&
			isRuntime(t.typeOf(f.X), "Index") {
			a, ra, oka := t.indexRank(f.X, depth+1)
			b, rb, okb := t.indexRank(x.Args[0], depth+1)
			return a || b, max(ra, rb), oka && okb
		}
	case *ast.CompositeLit:
		if !isRuntime(t.typeOf(x), "Index") || len(x.Elts) > 3 {
			return false, 0, false
		}
		for _, el := range x.Elts {
			if _, kv := el.(*ast.KeyValueExpr); kv {
				return false, 0, false
			}
		}
		return false, t.literalRank(x.Elts), true
	}
	return false, 0, false
}

// literalRank is the rank of an index of components args: the place of the last one
// that is not the constant 0, at least 1.
func (t *tr) literalRank(args []ast.Expr) int {
	r := 1
	for i, a := range args {
		if tv := t.info.Types[a]; tv.Value != nil && constant.Sign(tv.Value) == 0 {
			continue
		}
		r = i + 1
	}
	return r
}

// changed returns the objects that the function assigns to (other than by their
// definition), increments, ranges over with = or takes the address of, found once;
// it fills defs with the locals defined once with a value.
func (t *tr) changed() map[types.Object]bool {
	fs := t.fn
	if fs.changes != nil {
		return fs.changes
	}
	fs.changes, fs.defs = map[types.Object]bool{}, map[types.Object]ast.Expr{}
	if fs.decl == nil || fs.decl.Body == nil {
		return fs.changes
	}
	info := t.info
	mark := func(e ast.Expr) {
		if o := rootObj(info, e); o != nil {
			fs.changes[o] = true
		}
	}
	ast.Inspect(fs.decl.Body, func(n ast.Node) bool {
		switch s := n.(type) {
		case *ast.AssignStmt:
			for i, l := range s.Lhs {
				id, isID := unparen(l).(*ast.Ident)
				if s.Tok == token.DEFINE && isID && info.Defs[id] != nil {
					if len(s.Lhs) == len(s.Rhs) {
						fs.defs[info.Defs[id]] = s.Rhs[i]
					}
					continue
				}
				mark(l)
			}
		case *ast.ValueSpec:
			for i, id := range s.Names {
				if len(s.Values) == len(s.Names) {
					fs.defs[info.Defs[id]] = s.Values[i]
				}
			}
		case *ast.IncDecStmt:
			mark(s.X)
		case *ast.RangeStmt:
			if s.Tok == token.ASSIGN {
				if s.Key != nil {
					mark(s.Key)
				}
				if s.Value != nil {
					mark(s.Value)
				}
			}
		case *ast.UnaryExpr:
			if s.Op == token.AND {
				mark(s.X)
			}
		}
		return true
	})
	return fs.changes
}

// rootObj is the variable whose value e (x, x[i], x.f, *x, ...) is part of, or nil.
func rootObj(info *types.Info, e ast.Expr) types.Object {
	for {
		switch x := unparen(e).(type) {
		case *ast.Ident:
			return info.Uses[x]
		case *ast.IndexExpr:
			e = x.X
		case *ast.SelectorExpr:
			e = x.X
		case *ast.StarExpr:
			e = x.X
		default:
			return nil
		}
	}
}
