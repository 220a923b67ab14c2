package translate

import (
	"go/ast"
	"go/types"
)

// Broadcast reads. A value read from tile_static memory varies between a tile's threads
// in general: another thread may write the element before or after this one reads it.
// But a read at an index the same in every thread, in a phase (between two barriers) in
// which no thread writes that array, gives every thread the same value: the C++ AMP idiom
// of one thread writing a flag or a total, a barrier, and every thread branching on it.
// broadcastReads finds such reads, conservatively: the read is in an assignment or a
// declaration that does not write the array, and scanning the statement's list backward
// and forward from it (scanPhase) meets a barrier statement before any statement that
// may write the array (an assignment into it, an atomic on it, a call it is passed to, a
// pointer method on one of its elements); a barrier under an if, or in a function called,
// does not count. Loops are scanned into (the pass the phase reaches) and past (for no
// pass). Forward, the end of the kernel's own body ends the phase too; the start of a
// list, or the end of a nested one or of a function's body, does not, so a read there
// stays varying.

// broadcastReads returns the tile_static reads of body that every thread of a tile reads
// alike (where their index is uniform, which isVarying checks); top says body is the
// kernel's own (its end is the tile's last phase).
func (t *tr) broadcastReads(body *ast.BlockStmt, top bool) map[ast.Expr]bool {
	out := map[ast.Expr]bool{}
	var walk func(list []ast.Stmt, top bool)
	walk = func(list []ast.Stmt, top bool) {
		for p, s := range list {
			switch s.(type) {
			case *ast.AssignStmt, *ast.DeclStmt:
				ast.Inspect(s, func(n ast.Node) bool {
					ix, ok := n.(*ast.IndexExpr)
					if !ok {
						return true
					}
					if a := t.sharedObj(ix.X); a != nil && !t.writesShared(s, a) &&
						t.phaseClean(list, p, a, -1, top) && t.phaseClean(list, p, a, 1, top) {
						out[ix] = true
					}
					return true
				})
			}
			for _, l := range nestedLists(s) {
				walk(l, false)
			}
		}
	}
	walk(body.List, top)
	return out
}

// nestedLists returns the statement lists s holds directly.
func nestedLists(s ast.Stmt) [][]ast.Stmt {
	switch x := s.(type) {
	case *ast.BlockStmt:
		return [][]ast.Stmt{x.List}
	case *ast.IfStmt:
		out := [][]ast.Stmt{x.Body.List}
		if x.Else != nil {
			out = append(out, []ast.Stmt{x.Else})
		}
		return out
	case *ast.ForStmt:
		return [][]ast.Stmt{x.Body.List}
	case *ast.RangeStmt:
		return [][]ast.Stmt{x.Body.List}
	case *ast.LabeledStmt:
		return [][]ast.Stmt{{x.Stmt}}
	case *ast.SwitchStmt:
		var out [][]ast.Stmt
		for _, c := range x.Body.List {
			out = append(out, c.(*ast.CaseClause).Body)
		}
		return out
	}
	return nil
}

// sharedObj returns the tile_static array e names, or nil.
func (t *tr) sharedObj(e ast.Expr) types.Object {
	id, ok := unparen(e).(*ast.Ident)
	if !ok {
		return nil
	}
	if o := t.info.Uses[id]; o != nil && (t.sharedV[o] != nil || t.statics[o]) {
		return o
	}
	return nil
}

// phaseClean says whether scanning list from p in direction dir (-1 or 1) meets the
// barrier that ends the read's phase before a statement that writes array a.
func (t *tr) phaseClean(list []ast.Stmt, p int, a types.Object, dir int, top bool) bool {
	clean, bounded := t.scanPhase(list, p+dir, a, dir)
	return clean && (bounded || (dir > 0 && top)) // forward, the kernel's end ends the phase
}

// scanPhase scans list from q in direction dir: clean is false where it met a statement
// that writes a before a barrier; bounded says it met a barrier. A loop is scanned into:
// its header must not write a, and its body is scanned from the end the scan enters it
// by (forward its start, backward its end); whether or not the body holds the barrier,
// the scan goes on past the loop, for when it runs no pass (or, forward, breaks out).
// Backward, a body with a break, continue or return is not scanned into but must not
// write a at all, since a pass may have ended early.
func (t *tr) scanPhase(list []ast.Stmt, q int, a types.Object, dir int) (clean, bounded bool) {
	for ; q >= 0 && q < len(list); q += dir {
		x := list[q]
		if t.isBarrierStmt(x) {
			return true, true
		}
		body, header := loopParts(x)
		if body == nil {
			if t.writesShared(x, a) {
				return false, false
			}
			continue
		}
		if header != nil && t.writesShared(header, a) {
			return false, false
		}
		if dir < 0 && leavesEarly(body) {
			if t.writesShared(body, a) {
				return false, false
			}
			continue
		}
		from := 0
		if dir < 0 {
			from = len(body.List) - 1
		}
		if c, _ := t.scanPhase(body.List, from, a, dir); !c {
			return false, false
		}
	}
	return true, false
}

// leavesEarly says whether a loop body holds a break, continue, return or goto.
func leavesEarly(body *ast.BlockStmt) bool {
	leaves := false
	ast.Inspect(body, func(n ast.Node) bool {
		switch n.(type) {
		case *ast.BranchStmt, *ast.ReturnStmt:
			leaves = true
		}
		return !leaves
	})
	return leaves
}

// loopParts returns a loop's body and a node holding its header (nil parts for others).
func loopParts(s ast.Stmt) (*ast.BlockStmt, ast.Node) {
	switch x := s.(type) {
	case *ast.ForStmt:
		return x.Body, &ast.ForStmt{Init: x.Init, Cond: x.Cond, Post: x.Post, Body: &ast.BlockStmt{}}
	case *ast.RangeStmt:
		return x.Body, x.X
	case *ast.LabeledStmt:
		return loopParts(x.Stmt)
	}
	return nil, nil
}

// isBarrierStmt says whether s is a barrier: t.Barrier.Wait() or one of its fenced forms.
func (t *tr) isBarrierStmt(s ast.Stmt) bool {
	es, ok := s.(*ast.ExprStmt)
	if !ok {
		return false
	}
	c, ok := unparen(es.X).(*ast.CallExpr)
	return ok && isBarrierCall(t.info, c)
}

// writesShared says whether n may write tile_static array a: an assignment into it or a
// pointer method on an element of it (writes), or an atomic on it or any other call it is
// passed to.
func (t *tr) writesShared(n ast.Node, a types.Object) bool {
	if t.writes(n, a) {
		return true
	}
	passed := false
	ast.Inspect(n, func(m ast.Node) bool {
		if c, ok := m.(*ast.CallExpr); ok {
			for _, arg := range c.Args {
				if id, ok := unparen(arg).(*ast.Ident); ok && t.info.Uses[id] == a {
					passed = true
				}
			}
		}
		return !passed
	})
	return passed
}
