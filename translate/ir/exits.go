package ir

import "fmt"

// Structurize rewrites every Break and Continue of k's body that leaves
// other than the innermost loop (Go's labeled break and continue, and a
// continue from inside a switch lowered to a one-pass loop) into jumps out
// of the innermost loop only, which structured control flow (SPIR-V's
// OpLoopMerge, GLSL) can express: the jump sets a flag variable of its
// target loop and breaks; after each loop, the loop around it tests the
// flags of the loops further out and breaks again, until the target tests
// its own flag and breaks (1) or continues (2). Afterwards every Break and
// Continue has a nil Loop.
func Structurize(k *Kernel) { k.Body = StructurizeList(k, k.Body) }

// StructurizeList is Structurize of a statement list of k whose jumps
// target only loops inside it (an inlined function's body): it returns the
// rewritten list, which sets its flags to 0 first; the flags are k's locals.
func StructurizeList(k *Kernel, list []Stmt) []Stmt {
	s := &structurizer{k: k, flags: map[*Loop]*Var{}}
	list = s.list(list, nil)
	var init []Stmt
	for _, l := range s.order {
		init = append(init, &Store{Var: s.flags[l], Value: &Const{T: Int32}})
	}
	return append(init, list...)
}

type structurizer struct {
	k     *Kernel
	flags map[*Loop]*Var
	order []*Loop // loops with flags, in the order their flags were made
	// exits collects, per loop being rewritten, the loops further out that a
	// jump inside it targets.
	exits []map[*Loop]bool
}

// flag returns the flag variable of loop l.
func (s *structurizer) flag(l *Loop) *Var {
	if v := s.flags[l]; v != nil {
		return v
	}
	v := &Var{Name: fmt.Sprintf("exitFlag_%d", len(s.k.Locals)), Type: Int32}
	s.k.Locals = append(s.k.Locals, v)
	s.flags[l] = v
	s.order = append(s.order, l)
	return v
}

// list rewrites a statement list inside the loops stack (innermost last).
func (s *structurizer) list(list []Stmt, stack []*Loop) []Stmt {
	var out []Stmt
	for _, st := range list {
		switch st := st.(type) {
		case *Break:
			out = append(out, s.jump(st.Loop, 1, stack)...)
		case *Continue:
			out = append(out, s.jump(st.Loop, 2, stack)...)
		case *If:
			st.Then = s.list(st.Then, stack)
			st.Else = s.list(st.Else, stack)
			out = append(out, st)
		case *Loop:
			s.exits = append(s.exits, map[*Loop]bool{})
			inner := append(append([]*Loop(nil), stack...), st)
			st.Body = s.list(st.Body, inner)
			st.Post = s.list(st.Post, inner)
			exits := s.exits[len(s.exits)-1]
			s.exits = s.exits[:len(s.exits)-1]
			out = append(out, st)
			out = append(out, s.after(exits, stack)...)
		default:
			out = append(out, st)
		}
	}
	return out
}

// jump rewrites a break (code 1) or continue (code 2) of target.
func (s *structurizer) jump(target *Loop, code uint32, stack []*Loop) []Stmt {
	if len(stack) == 0 || target == nil || target == stack[len(stack)-1] {
		if code == 1 {
			return []Stmt{&Break{}}
		}
		return []Stmt{&Continue{}}
	}
	s.exits[len(s.exits)-1][target] = true
	return []Stmt{&Store{Var: s.flag(target), Value: &Const{T: Int32, Bits: code}}, &Break{}}
}

// after returns the tests that follow a loop from which jumps to the loops
// in exits leave: in the loop around it (stack's last), its own flag breaks
// or continues it; another loop's flag breaks it and is passed outwards.
func (s *structurizer) after(exits map[*Loop]bool, stack []*Loop) []Stmt {
	var out []Stmt
	if len(stack) == 0 {
		return nil
	}
	here := stack[len(stack)-1]
	for i := len(stack) - 1; i >= 0; i-- { // outermost targets last, for a stable order
		l := stack[i]
		if !exits[l] {
			continue
		}
		f := s.flags[l]
		is := func(code uint32) Value {
			return &Binary{Op: Eq, X: &Load{Var: f}, Y: &Const{T: Int32, Bits: code}}
		}
		if l == here {
			reset := &Store{Var: f, Value: &Const{T: Int32}}
			out = append(out, &If{Cond: is(1), Then: []Stmt{reset, &Break{}}},
				&If{Cond: is(2), Then: []Stmt{&Store{Var: f, Value: &Const{T: Int32}}, &Continue{}}})
			continue
		}
		out = append(out, &If{Cond: &Binary{Op: Ne, X: &Load{Var: f}, Y: &Const{T: Int32}}, Then: []Stmt{&Break{}}})
		s.exits[len(s.exits)-1][l] = true
	}
	return out
}
