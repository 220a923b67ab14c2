package algo

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/goamp/goamp/runtime"
	"github.com/goamp/goamp/shaders"
)

// namePiece is a piece of a program's name and where production code writes it: a
// string literal in a function, a method (Type.Method) or a package-level variable of
// the package's non-test files.
type namePiece struct{ in, lit string }

// programCallers lists every program of package shaders and the production code that
// selects it: the pieces of its name, in order. A program that only tests run belongs in
// internal/testprog, not here.
var programCallers = map[string][]namePiece{
	"matmul_coop":             {{"matMulCoopKernels", "matmul_coop"}},
	"matmul_coop_h":           {{"matMulCoopKernels", "matmul_coop"}, {"matMulCoop.Program", "_h"}},
	"matmul_coop_k":           {{"matMulCoopKernels", "matmul_coop"}, {"matMulCoopFor", "_k"}},
	"matmul_coop_k_h":         {{"matMulCoopKernels", "matmul_coop"}, {"matMulCoopFor", "_k"}, {"matMulCoop.Program", "_h"}},
	"matmul_coop_k_i8":        {{"MatMulI8With", "matmul_coop_k_i8"}},
	"matmul_tiled":            {{"matMulTiled.Program", "matmul_tiled"}},
	"matmul_tiled_i32":        {{"matMulTiled.Program", "matmul_tiled"}, {"matMulProgram", "_i32"}},
	"matmul_tiled_h":          {{"matMulF16Tiled.Program", "matmul_tiled_h"}},
	"matmul_tiled_hh":         {{"matMulF16Tiled.Program", "matmul_tiled_hh"}},
	"matmul_tiled_i8":         {{"matMulI8Tiled.Program", "matmul_tiled_i8"}},
	"reduce_sg":               {{"reduceSG.Program", "reduce_sg"}},
	"scan_sg":                 {{"scanSG.Program", "scan_sg"}},
	"scan_lookback_f":         {{"scanLBKernel.Program", "scan_lookback_"}, {"scanLBKernel.Program", "f"}},
	"scan_lookback_u":         {{"scanLBKernel.Program", "scan_lookback_"}, {"scanLBKernel.Program", "u"}},
	"scan_lookback_sg_f":      {{"scanLBKernel.Program", "scan_lookback_"}, {"scanLBKernel.Program", "sg_"}, {"scanLBKernel.Program", "f"}},
	"scan_lookback_sg_u":      {{"scanLBKernel.Program", "scan_lookback_"}, {"scanLBKernel.Program", "sg_"}, {"scanLBKernel.Program", "u"}},
	"sort_bitonic_local":      {{"bitonicLocalKernel.Program", "sort_bitonic_local"}},
	"sort_bitonic_step":       {{"bitonicStepKernel.Program", "sort_bitonic_step"}},
	"sort_bounds":             {{"sortBoundsKernel.Program", "sort_bounds"}},
	"sort_coarse":             {{"sortCoarseKernel.Program", "sort_coarse"}},
	"sort_load":               {{"sortLoadKernel.Program", "sort_load"}},
	"sort_store":              {{"sortStoreKernel.Program", "sort_store"}},
	"sort_local":              {{"hybridLarge", "sort_local"}},
	"sort_local_p":            {{"hybridLarge", "sort_local_p"}},
	"sort_radix_hist":         {{"radixHistKernel.Program", "sort_radix_hist"}},
	"sort_radix_scan":         {{"radixScanKernel.Program", "sort_radix_scan"}},
	"sort_radix_scatter":      {{"radixScatterKernel.Program", "sort_radix_scatter"}},
	"sort_radix_scatter_k":    {{"radixScatterSGKernel.Program", "sort_radix_scatter_k"}},
	"sort_radix_scatter_p":    {{"radixScatterSGKernel.Program", "sort_radix_scatter_p"}},
	"sort_radix_scatter_p512": {{"radixScatterSGKernel.Program", "sort_radix_scatter_p512"}},
	"sort_radix_scatter_sg":   {{"radixScatterSGKernel.Program", "sort_radix_scatter_sg"}},
	"transpose_8":             {{"transposeNarrowKernel.Program", "transpose_8"}},
	"transpose_16":            {{"transposeNarrowKernel.Program", "transpose_16"}},
}

// productionSource is what the package's non-test files declare: the string literals
// of each function, method (Type.Method) and package-level variable, and the types of
// the composite literals outside amp_gen.go (the kernels production code dispatches).
type productionSource struct {
	lits      map[string][]string
	kernelsIn map[string]bool
}

// readProductionSource parses the package's non-test files.
func readProductionSource(t *testing.T) productionSource {
	src := productionSource{lits: map[string][]string{}, kernelsIn: map[string]bool{}}
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	if len(files) == 0 {
		t.Skip("the package's sources are not here (a test binary run elsewhere)")
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		require.NoError(t, err)
		for _, d := range f.Decls {
			var key string
			switch d := d.(type) {
			case *ast.FuncDecl:
				key = d.Name.Name
				if d.Recv != nil {
					key = recvName(d.Recv.List[0].Type) + "." + key
				}
			case *ast.GenDecl:
				if d.Tok != token.VAR || len(d.Specs) != 1 || len(d.Specs[0].(*ast.ValueSpec).Names) != 1 {
					key = "" // only single variables are named
				} else {
					key = d.Specs[0].(*ast.ValueSpec).Names[0].Name
				}
			}
			ast.Inspect(d, func(n ast.Node) bool {
				switch n := n.(type) {
				case *ast.BasicLit:
					if s, err := strconv.Unquote(n.Value); err == nil && n.Kind == token.STRING && key != "" {
						src.lits[key] = append(src.lits[key], s)
					}
				case *ast.CompositeLit:
					if name != "amp_gen.go" && n.Type != nil {
						src.kernelsIn[recvName(n.Type)] = true
					}
				}
				return true
			})
		}
	}
	return src
}

// recvName is the name of a (generic, pointer) type expression.
func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return recvName(e.X)
	case *ast.IndexExpr:
		return recvName(e.X)
	case *ast.IndexListExpr:
		return recvName(e.X)
	case *ast.Ident:
		return e.Name
	}
	return ""
}

// TestEmbeddedProgramsHaveCallers: every program that production binaries embed has a
// production caller. Each of package shaders' programs is in programCallers, whose
// pieces production code writes; each module ampgen embedded for this package is a
// kernel type that production code makes (a composite literal outside amp_gen.go). Each
// module is read, as its first dispatch would.
func TestEmbeddedProgramsHaveCallers(t *testing.T) {
	src := readProductionSource(t)
	names := shaders.Names()
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			pieces, ok := programCallers[name]
			require.True(t, ok, "%s is embedded but has no production caller: delete it, "+
				"or move it to internal/testprog if only tests run it", name)
			var got strings.Builder
			for _, p := range pieces {
				lits, ok := src.lits[p.in]
				require.True(t, ok, "no function, method or variable %s in production code", p.in)
				assert.Contains(t, lits, p.lit, "%s writes no %q", p.in, p.lit)
				got.WriteString(p.lit)
			}
			assert.Equal(t, name, got.String(), "the pieces make another name")
			_, err := shaders.MustProgram(name, 0).Interface()
			require.NoError(t, err)
		})
	}
	for name := range programCallers {
		assert.True(t, slices.Contains(names, name), "programCallers lists %s, which is not embedded", name)
	}
	mods, err := filepath.Glob("amp_gen_*.spv")
	require.NoError(t, err)
	require.NotEmpty(t, mods)
	module := regexp.MustCompile(`^amp_gen_([A-Za-z0-9]+?)(_(int32|uint32|float32))*\.spv$`)
	for _, m := range mods {
		sub := module.FindStringSubmatch(m)
		require.NotNil(t, sub, "module %s", m)
		assert.True(t, src.kernelsIn[sub[1]], "%s: production code makes no %s", m, sub[1])
		code, err := os.ReadFile(m)
		require.NoError(t, err)
		_, err = runtime.ReadInterface(code)
		require.NoError(t, err, "module %s", m)
	}
}
