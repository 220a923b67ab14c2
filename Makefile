# goamp: the README's two commands are `make run` and `make test`; each installs what is
# missing first (scripts/setup.sh, Debian packages through apt-get).

GO          ?= go
STATICCHECK := honnef.co/go/tools/cmd/staticcheck@v0.8.2
GLSLC       ?= glslc
# Variants that define AMP_COOP_KHR (GL_KHR_cooperative_matrix) need a newer glslc and
# spirv-val than Debian bookworm's: Debian trixie's, run without installing them.
GLSLC_KHR   ?= scripts/trixie-tool.sh glslc
SPIRV_VAL_KHR ?= scripts/trixie-tool.sh spirv-val
GLSLFLAGS   := -O --target-env=vulkan1.1 -Ishaders/include
SHADERS     := $(wildcard shaders/glsl/*.comp)
# GLSL variants (shaders/glsl/variants.txt, one a line: OUTPUT SOURCE [NAME[=VALUE]...]):
# programs compiled from another source with -DNAME[=VALUE] for each definition.
VARIANTLIST := shaders/glsl/variants.txt
VARIANTS    := $(shell awk '$$1 !~ /^\#/ && NF { print $$1 }' $(VARIANTLIST))
SPIRV       := $(patsubst shaders/glsl/%.comp,shaders/spv/%.spv,$(SHADERS)) $(VARIANTS:%=shaders/spv/%.spv)
# Test variants (internal/testprog/variants.txt, the same format): variants of goamp's own
# tests, compiled into internal/testprog so that production binaries do not embed them.
TESTVARLIST := internal/testprog/variants.txt
TESTVARIANTS := $(shell awk '$$1 !~ /^\#/ && NF { print $$1 }' $(TESTVARLIST))
# variant_args is glslc's arguments for variant $(1) of list $(2) (VARIANTLIST when
# empty): its definitions, then its source.
variant_args = $(shell awk '$$1 == "$(1)" { for (i = 3; i <= NF; i++) printf "-D%s ", $$i; print "shaders/glsl/" $$2 }' $(or $(2),$(VARIANTLIST)))
# src_glslc and src_val are the compiler and validator of the test program $(1): the KHR
# ones where it enables GL_KHR_cooperative_matrix.
src_glslc = $(if $(shell grep -l '^\#extension GL_KHR_cooperative_matrix' $(1)),$(GLSLC_KHR),$(GLSLC))
src_val = $(if $(shell grep -l '^\#extension GL_KHR_cooperative_matrix' $(1)),$(SPIRV_VAL_KHR),spirv-val)
# variant_glslc and variant_val are the compiler and validator of variant $(1).
variant_glslc = $(if $(findstring -DAMP_COOP_KHR,$(call variant_args,$(1))),$(GLSLC_KHR),$(GLSLC))
variant_val = $(if $(findstring -DAMP_COOP_KHR,$(call variant_args,$(1))),$(SPIRV_VAL_KHR),spirv-val)
# Test programs: runtime/testdata/*/NAME.comp and internal/testprog/NAME.comp compile to NAME.spv beside them;
# so does the window's frame pass, present/window/frame.comp.
TESTSHADERS := $(wildcard runtime/testdata/*/*.comp) $(wildcard internal/testprog/*.comp) $(wildcard present/window/*.comp)
# Tests run with the Khronos validation layer on; any message it reports fails them.
# GOAMP_REQUIRE_VULKAN=1 fails amptest's Views and EachView where no Vulkan device is
# present. An emulated device (lavapipe) is never the default accelerator, so the tests,
# examples and fuzz targets that run on the default (a nil accelerator view) are sent to
# the first Vulkan device by name: on a machine with no GPU, lavapipe.
# A test that would skip for a feature the device lacks (amptest.SkipUnsupported) fails
# instead: lavapipe has every feature the tests ask for; test-swiftshader allows the skips.
TESTENV     := GOAMP_VALIDATION=1 GOAMP_REQUIRE_VULKAN=1 AMP_DEFAULT_ACCELERATOR=vulkan:0 GOAMP_NO_FEATURE_SKIPS=1
# What scripts/setup.sh keeps outside the repository: SwiftShader's Vulkan driver and the Wine
# prefix of the Windows tests.
GOAMP_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/goamp
export GOAMP_CACHE
SWIFTSHADER_ICD := $(GOAMP_CACHE)/swiftshader/usr/lib/chromium/vk_swiftshader_icd.json
WINE        ?= /usr/lib/wine/wine64
WINEENV     := WINEPREFIX=$(GOAMP_CACHE)/wine WINEDEBUG=-all

.PHONY: all setup run test test-allocs lint fmt-check vet staticcheck vklatency-check vklayout vklayout-check nohdr-check cross-check test-wine test-swiftshader shaders shaders-check ampgen-check test-vulkan test-race-algo test-race-threads test-checked test-nocgo test-cpu test-staging test-nopush bench gpu-binaries fuzz fuzz-short soak fuzz-kernels fuzz-kernels-short fuzz-kernels-gpu

all: run

setup:
	@./scripts/setup.sh

run: setup
	$(GO) run ./cmd/ampinfo
	@if [ -d cmd/ampdemo ]; then $(GO) run ./cmd/ampdemo; fi

test: setup lint nohdr-check cross-check shaders-check ampgen-check test-allocs test-vulkan test-race-threads test-checked test-nocgo test-cpu test-staging test-nopush test-swiftshader test-wine fuzz-short fuzz-kernels-short

lint: fmt-check vet staticcheck vklatency-check vklayout-check

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

vet:
	$(GO) vet ./...
	CGO_ENABLED=0 $(GO) vet ./...
	$(GO) vet -tags goampcheck ./translate/ ./runtime/ ./cmd/ampgen/

staticcheck:
	$(GO) run $(STATICCHECK) ./...

shaders: $(SPIRV) $(TESTSHADERS:.comp=.spv) $(TESTVARIANTS:%=internal/testprog/%.spv)

runtime/testdata/%.spv: runtime/testdata/%.comp $(wildcard shaders/include/*.glsl)
	$(GLSLC) $(GLSLFLAGS) -o $@ $<
	spirv-val --target-env vulkan1.1 $@

internal/testprog/%.spv: internal/testprog/%.comp $(wildcard shaders/include/*.glsl) $(wildcard internal/testprog/*.glsl)
	$(call src_glslc,$<) $(GLSLFLAGS) -o $@ $<
	$(call src_val,$<) --target-env vulkan1.1 $@

present/window/%.spv: present/window/%.comp
	$(GLSLC) $(GLSLFLAGS) -o $@ $<
	spirv-val --target-env vulkan1.1 $@

shaders/spv/%.spv: shaders/glsl/%.comp $(wildcard shaders/include/*.glsl) $(wildcard shaders/glsl/*.glsl)
	@mkdir -p shaders/spv
	$(GLSLC) $(GLSLFLAGS) -o $@ $<
	spirv-val --target-env vulkan1.1 $@

define VARIANT_RULE
shaders/spv/$(1).spv: $(lastword $(call variant_args,$(1))) $(VARIANTLIST) $(wildcard shaders/include/*.glsl) $(wildcard shaders/glsl/*.glsl)
	@mkdir -p shaders/spv
	$(call variant_glslc,$(1)) $$(GLSLFLAGS) -fshader-stage=compute -o $$@ $(call variant_args,$(1))
	$(call variant_val,$(1)) --target-env vulkan1.1 $$@
endef
$(foreach v,$(VARIANTS),$(eval $(call VARIANT_RULE,$(v))))

define TESTVARIANT_RULE
internal/testprog/$(1).spv: $(lastword $(call variant_args,$(1),$(TESTVARLIST))) $(TESTVARLIST) $(wildcard shaders/include/*.glsl) $(wildcard shaders/glsl/*.glsl)
	$(GLSLC) $$(GLSLFLAGS) -fshader-stage=compute -o $$@ $(call variant_args,$(1),$(TESTVARLIST))
	spirv-val --target-env vulkan1.1 $$@
endef
$(foreach v,$(TESTVARIANTS),$(eval $(call TESTVARIANT_RULE,$(v))))

# CI fails when regenerating changes any committed SPIR-V (variants included), or a SPIR-V file
# has no source.
shaders-check:
	@tmp=$$(mktemp -d); fail=0; \
	for s in $(SHADERS); do \
		n=$$(basename $$s .comp); \
		$(GLSLC) $(GLSLFLAGS) -o $$tmp/$$n.spv $$s || fail=1; \
		cmp -s $$tmp/$$n.spv shaders/spv/$$n.spv || { echo "shaders/spv/$$n.spv is stale: run make shaders"; fail=1; }; \
	done; \
	$(foreach v,$(VARIANTS),$(call variant_glslc,$(v)) $(GLSLFLAGS) -fshader-stage=compute -o $$tmp/$(v).spv $(call variant_args,$(v)) || fail=1; \
		cmp -s $$tmp/$(v).spv shaders/spv/$(v).spv || { echo "shaders/spv/$(v).spv is stale: run make shaders"; fail=1; };) \
	$(foreach v,$(TESTVARIANTS),$(GLSLC) $(GLSLFLAGS) -fshader-stage=compute -o $$tmp/t.spv $(call variant_args,$(v),$(TESTVARLIST)) || fail=1; \
		cmp -s $$tmp/t.spv internal/testprog/$(v).spv || { echo "internal/testprog/$(v).spv is stale: run make shaders"; fail=1; };) \
	for f in shaders/spv/*.spv; do [ -e "$$f" ] || continue; n=$$(basename $$f .spv); \
		[ -e shaders/glsl/$$n.comp ] || case " $(VARIANTS) " in *" $$n "*) ;; *) echo "$$f has no source"; fail=1;; esac; done; \
	$(foreach s,$(TESTSHADERS),$(call src_glslc,$(s)) $(GLSLFLAGS) -o $$tmp/t.spv $(s) || fail=1; \
		cmp -s $$tmp/t.spv $(s:.comp=.spv) || { echo "$(s:.comp=.spv) is stale: run make shaders"; fail=1; };) \
	rm -rf $$tmp; exit $$fail

# CI fails when regenerating a committed amp_gen.go (ampgen's output) would change it.
ampgen-check:
	@dirs=$$(git ls-files '*/amp_gen.go' | xargs -r -n1 dirname | sed 's|^|./|'); \
	if [ -n "$$dirs" ]; then $(GO) run ./cmd/ampgen -check $$dirs; fi

# The dispatch path's allocation budget (TestDispatchAllocs), on lavapipe and the CPU, in a
# build without the race detector (whose CPU mode starts more goroutines per dispatch).
test-allocs:
	$(TESTENV) $(GO) test -count=1 -run 'Allocs' ./arrayview/
	CGO_ENABLED=0 $(TESTENV) $(GO) test -count=1 -run 'Allocs' ./arrayview/

# go test -race runs tiled kernels on the CPU per thread (runtime.EnvRaceFastBodies), so that
# the race detector sees races between a tile's threads: the whole suite keeps the fast bodies
# (algo's large CPU sorts and products would take too long per thread); test-race-threads runs
# the corpus, the examples, the demos and ampbench's kernels per thread under the detector, and
# algo's convolution, elementwise, histogram, product, reduction, scan and transpose kernels.
# algo runs with -short under the detector, beside the rest (its full sizes took 387 s of
# make test's 20 minutes there); test-staging runs its full sizes without the detector,
# test-race-algo with it (make soak runs it).
test-vulkan:
	GOAMP_RACE_FAST_BODIES=1 $(TESTENV) $(GO) test -race -short -count=1 ./algo/ & algo=$$!; \
	GOAMP_RACE_FAST_BODIES=1 $(TESTENV) $(GO) test -race -count=1 $$($(GO) list ./... | grep -v '/algo$$'); \
	rc=$$?; wait $$algo && exit $$rc

test-race-algo:
	GOAMP_RACE_FAST_BODIES=1 $(TESTENV) $(GO) test -race -count=1 ./algo/

test-race-threads:
	$(TESTENV) $(GO) test -race -count=1 ./translate/ ./examples/... ./cmd/ampview/demos/ ./cmd/ampbench/ ./runtime/ ./amptest/
	$(TESTENV) $(GO) test -race -short -count=1 -run '^Test(Convolve2D|Add|Histogram|TransposeNarrow|MatMulFloat32|ReduceInt32|ScanInt32)$$' ./algo/

# The bounds-checked GPU builds (ampgen -checked, -tags goampcheck): the corpus's kernels
# each run their checked program against the CPU, and accesses outside views are errors.
test-checked:
	$(TESTENV) $(GO) test -tags goampcheck -count=1 ./translate/ ./runtime/

# Without cgo goamp still reaches Vulkan (internal/vk loads the loader at run time): the suites
# run on lavapipe with CGO_ENABLED=0 as well. test-cpu runs them with the CPU accelerator as
# the default (AMP_DEFAULT_ACCELERATOR=cpu), where a test that takes the default accelerator
# runs on goroutines.
# The suites again, built without cgo (how most users build now): -short, since the full
# suites ran in test-vulkan and both builds call Vulkan through the same code.
test-nocgo:
	CGO_ENABLED=0 $(TESTENV) $(GO) test -count=1 -short ./...

test-cpu:
	AMP_DEFAULT_ACCELERATOR=cpu CGO_ENABLED=0 $(GO) test -count=1 -short ./...

# goamp builds for other systems without cgo: Windows (vulkan-1.dll), macOS (the Vulkan
# loader or MoltenVK) and Linux on arm64; built and vetted here, not run.
cross-check:
	GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=darwin GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) build ./...
	GOOS=linux GOARCH=arm64 CGO_ENABLED=0 $(GO) vet ./...

# Windows test binaries (GOOS=windows GOARCH=amd64 CGO_ENABLED=0) of the packages below, run
# under Wine (scripts/setup.sh makes its prefix) each in its package's folder, with a display
# from xvfb-run: Wine reaches Vulkan through its X11 driver, and its vulkan-1.dll reaches
# lavapipe. Wine's loader offers no layers, so these run without the validation layer.
WINEPKGS    := internal/vk accelerator runtime arrayview algo examples/tilesum
test-wine: setup
	@rm -rf .wine && mkdir -p .wine
	@for p in $(WINEPKGS); do \
		GOOS=windows GOARCH=amd64 CGO_ENABLED=0 $(GO) test -c -o .wine/$$(echo $$p | tr / _).test.exe ./$$p || exit 1; \
	done
	$(WINEENV) xvfb-run -a sh -c 'top=$$PWD; for p in $(WINEPKGS); do t=$$top/.wine/$$(echo $$p | tr / _).test.exe; \
		[ -f $$t ] || { echo "== $$p: no tests for windows/amd64"; continue; }; echo "== $$p (windows/amd64, Wine)"; \
		s=$$(date +%s); (cd $$p && GOAMP_REQUIRE_VULKAN=1 $(WINE) $$t -test.count=1 -test.short) || exit 1; \
		echo "== $$p: $$(($$(date +%s) - s)) s"; done'

# The Vulkan suites on SwiftShader (Debian chromium-common's software Vulkan driver, which
# scripts/setup.sh unpacks), the only driver the loader sees: no push descriptors, float64,
# int64 or 8- and 16-bit storage, subgroups of 4 and 256 invocations per workgroup. Tests of
# what it lacks skip with the *accelerator.FeatureError that names it (amptest.SkipUnsupported).
# Its driver has no window-system surfaces (VK_KHR_xlib_surface): ampview's window test runs on
# lavapipe only. fmath's TestAccuracy is left out until fmath decides what SwiftShader gets:
# its Sin and Cos err by 1.9e-4 absolute (bound 4.77e-7), Tan(-pi/2 rounded) is -Inf and
# Fract(-Inf) 0.99999994 (RESULTS.md).
# algo's test binary runs under scripts/guardmalloc.c (LD_PRELOAD, through go test -exec):
# SwiftShader's buffers of 4 to 64 KiB then end at an inaccessible page, so that one of the
# algorithms' hand-written shaders reading or writing past such a buffer (a scratch buffer,
# a dummy view) ends the run with SIGSEGV every time instead of now and then.
GUARDMALLOC := $(GOAMP_CACHE)/guardmalloc.so
$(GUARDMALLOC): scripts/guardmalloc.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Werror -shared -fPIC -o $@ $<

test-swiftshader: setup $(GUARDMALLOC)
	VK_DRIVER_FILES=$(SWIFTSHADER_ICD) $(TESTENV) GOAMP_NO_FEATURE_SKIPS=0 $(GO) test -count=1 -short \
		$$($(GO) list ./... | grep -v '/algo$$')
	VK_DRIVER_FILES=$(SWIFTSHADER_ICD) $(TESTENV) GOAMP_NO_FEATURE_SKIPS=0 $(GO) test -count=1 -short \
		-exec 'env LD_PRELOAD=$(GUARDMALLOC)' ./algo/

# The descriptor-set path of devices without VK_KHR_push_descriptor (SwiftShader), forced on
# lavapipe (GOAMP_NO_PUSH_DESCRIPTOR=1, package accelerator), which otherwise pushes.
test-nopush:
	GOAMP_NO_PUSH_DESCRIPTOR=1 $(TESTENV) $(GO) test -count=1 ./internal/vk/ ./runtime/ ./arrayview/ ./examples/...

# The staging-buffer path of discrete GPUs (device-local buffers, staging copies), forced on a
# unified-memory device such as lavapipe (GOAMP_FORCE_STAGING=1, package accelerator).
test-staging:
	GOAMP_FORCE_STAGING=1 $(TESTENV) $(GO) test -count=1 ./arrayview/ ./algo/

# Every Fuzz target of the module (go test -list, in the packages whose tests say "func Fuzz"),
# one after another, FUZZTIME each, with the validation layer on; fuzz-short (part of make test)
# runs each for 3000 inputs. A count, not a duration: Go 1.26's fuzz coordinator can fail a
# target with a bare "context deadline exceeded" as a -fuzztime duration ends (go.dev/issue/75804,
# fixed in Go 1.27), and a clean clone's make test met it on FuzzIndexSpace, no input written.
FUZZTIME    ?= 10m
FUZZFLAGS   ?= -parallel 2
fuzz:
	@pkgs=$$(git grep -l '^func Fuzz' -- '*_test.go' | xargs -r -n1 dirname | sort -u | sed 's|^|./|'); \
	list=$$($(GO) test -list '^Fuzz' $$pkgs) || { echo "$$list"; exit 1; }; \
	echo "$$list" | awk '/^Fuzz/ { f = f " " $$1 } /^ok/ { n = split(f, a, " "); \
		for (i = 1; i <= n; i++) print $$2, a[i]; f = "" }' | \
	while read -r p f; do echo "== $$f ($$p, $(FUZZTIME))"; \
		$(TESTENV) $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$p || exit 1; \
	done

fuzz-short:
	@$(MAKE) --no-print-directory fuzz FUZZTIME=3000x

# The kernel fuzzer (internal/kernelfuzz): N random kernels of the kernel language, generated
# in packages of KERNELFUZZ_BATCH (one go build each), translated as ampgen does and run
# four ways: the Go method called directly (the oracle), the CPU accelerator per thread and
# through its fast body, and lavapipe (vulkan:0) with the validation layer; any difference
# fails, and the failing kernel is minimized into internal/kernelfuzz/testdata/repro.
# KERNELFUZZ_SEED picks the first seed (by default the clock's). fuzz-kernels-short (part of
# make test) runs 300, seeds 1-300; make soak runs SOAK_KERNELS. Floats stay finite and zeros
# compare without their sign (lavapipe's infinities, NaNs and signed zeros differ from Go's:
# internal/kernelfuzz/testdata/repro); the GPU binaries keep IEEE 754 whole (-ieee).
N                ?= 1000
KERNELFUZZ_BATCH ?= 150
KERNELFUZZ_SEED  ?= 0
fuzz-kernels:
	$(TESTENV) $(GO) test -count=1 -timeout 0 -run '^TestKernels$$' ./internal/kernelfuzz/ \
		-kernels $(N) -batch $(KERNELFUZZ_BATCH) -seed $(KERNELFUZZ_SEED)

fuzz-kernels-short:
	@$(MAKE) --no-print-directory fuzz-kernels N=300 KERNELFUZZ_SEED=1

# Test binaries of N generated kernels for the GPU machine, which has no Go: make
# fuzz-kernels-gpu N=10000 KERNELFUZZ_SEED=... writes .gpu/kernelfuzz-part-1.tar.xz, -2, ...,
# KERNELFUZZ_GPU_PART kernels each (about 10 KB a kernel, so one carry each), of binaries of
# KERNELFUZZ_GPU_BATCH kernels; there scripts/kernelfuzz-gpu.sh .gpu/kernelfuzz-part-1.tar.xz
# runs a part (each kernel on its oracle and vulkan:0) and prints the counts.
KERNELFUZZ_GPU_BATCH ?= 500
KERNELFUZZ_GPU_PART  ?= 3500
fuzz-kernels-gpu:
	rm -rf .gpu/kernelfuzz .gpu/kernelfuzz-part-*.tar.xz
	$(GO) test -count=1 -timeout 0 -run '^TestBuildGPU$$' ./internal/kernelfuzz/ -kernels $(N) \
		-batch $(KERNELFUZZ_GPU_BATCH) -seed $(KERNELFUZZ_SEED) -ieee -gpu-binary $(CURDIR)/.gpu/kernelfuzz \
		-gpu-part $(KERNELFUZZ_GPU_PART)
	for p in .gpu/kernelfuzz/part-*; do n=$$(basename $$p); \
		tar -C .gpu/kernelfuzz -cf - $$n | xz -9 --lzma2=preset=9,dict=192MiB > .gpu/kernelfuzz-$$n.tar.xz || exit 1; done
	rm -rf .gpu/kernelfuzz
	ls -l .gpu/kernelfuzz-part-*.tar.xz

bench: setup
	$(GO) test -run '^$$' -bench . -benchtime 2x ./...

# make soak: goamp under sustained load on every accelerator present (cmd/ampsoak: a million
# dispatches, 10,000 array views and 10,000 accelerator views from 4 goroutines); it fails
# when the Go heap, resident memory or device memory grows by more than 64 MiB after the
# first round. Not part of make test (minutes); figures in RESULTS.md.
SOAK_KERNELS ?= 20000
soak: setup test-race-algo
	$(GO) run ./cmd/ampsoak -accelerator all
	@$(MAKE) --no-print-directory fuzz-kernels N=$(SOAK_KERNELS)

# Test binaries for the GPU machine (which has no Go): make gpu-binaries, then carry .gpu. The
# binaries are built with the tag nowindow: ampview runs headless there, with no X11 libraries.
gpu-binaries:
	@mkdir -p .gpu
	for p in $$($(GO) list ./... ); do n=$$(basename $$p); $(GO) test -tags nowindow -c -o .gpu/$$n.test $$p || exit 1; done
	$(GO) build -tags nowindow -o .gpu/ ./cmd/...
	$(CC) -O2 -Wall $(VKLATENCY_FLAGS) -o .gpu/vklatency scripts/vklatency.c -l:libvulkan.so.1
	$(CC) -O2 -Wall $(VKLATENCY_FLAGS) -o .gpu/vkcopy scripts/vkcopy.c -l:libvulkan.so.1
	$(CC) -O2 -Wall $(VKLATENCY_FLAGS) -o .gpu/vkstats scripts/vkstats.c -l:libvulkan.so.1

# scripts/vklatency.c, scripts/vkcopy.c and scripts/vkstats.c (the driver-floor probes of
# dispatch and of copies, and the compiled programs' statistics, RESULTS.md) must keep
# compiling. Like goamp, they compile against the vendored headers and link the loader by its
# soname (no libvulkan-dev).
VKLATENCY_FLAGS := -Iinternal/vk/third_party/vulkan-headers
vklatency-check:
	$(CC) -O2 -Wall -Werror $(VKLATENCY_FLAGS) -o /dev/null scripts/vklatency.c -l:libvulkan.so.1
	$(CC) -O2 -Wall -Werror $(VKLATENCY_FLAGS) -o /dev/null scripts/vkcopy.c -l:libvulkan.so.1
	$(CC) -O2 -Wall -Werror $(VKLATENCY_FLAGS) -o /dev/null scripts/vkstats.c -l:libvulkan.so.1

# internal/vk declares in Go the Vulkan structs it passes to C (vkgen, go generate): make vklayout
# prints their C layout (size, alignment, member offsets) as the C compiler lays them out on this
# machine into the table that internal/vk's TestLayout compares Go's with; vklayout-check fails
# when the committed table differs from the compiler's.
VKLAYOUT_FLAGS := -std=c11 -Wall -Werror -Iinternal/vk/third_party/vulkan-headers/vulkan -Iinternal/vk/third_party/vulkan-headers -Iinternal/vk
vklayout:
	$(CC) $(VKLAYOUT_FLAGS) -o internal/vk/testdata/vklayout internal/vk/testdata/vklayout.c
	internal/vk/testdata/vklayout >internal/vk/testdata/vklayout.txt
	rm internal/vk/testdata/vklayout

vklayout-check:
	@tmp=$$(mktemp -d); $(CC) $(VKLAYOUT_FLAGS) -o $$tmp/vklayout internal/vk/testdata/vklayout.c && \
	$$tmp/vklayout >$$tmp/vklayout.txt && cmp -s $$tmp/vklayout.txt internal/vk/testdata/vklayout.txt || \
	{ echo "internal/vk/testdata/vklayout.txt is stale: run make vklayout"; rm -rf $$tmp; exit 1; }; rm -rf $$tmp

# goamp must build without the system's Vulkan headers (libvulkan-dev), from the ones vendored in
# internal/vk/third_party/vulkan-headers alone, and link no libvulkan: go build, go vet,
# vklatency.c and a vendored user program compile with the compiler's default include path
# mirrored minus vulkan/ and vk_video/ (no root or namespace needed; the script says how and
# proves the headers are hidden).
nohdr-check:
	GO="$(GO)" CC="$(CC)" ./scripts/nohdr-check.sh
