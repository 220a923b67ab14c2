#!/bin/bash
# h100-oldnew.sh: issue 9's old-against-new comparison on a device machine (RESULTS.md,
# "Single-source built-ins: old vs new"). Build the binaries here first:
#   git worktree add --detach /tmp/goamp-base 0fa8704
#   (cd /tmp/goamp-base && go build -o $PWD/.gpu/ampbench-old ./cmd/ampbench &&
#     go test -c -o $PWD/.gpu/shaders-old.test ./shaders)
#   go build -o .gpu/ampbench-new ./cmd/ampbench && go test -c -o .gpu/algo-new.test ./algo
#   go test -c -o .gpu/ampdemo.test ./cmd/ampdemo && go build -o .gpu/ ./cmd/ampdemo ./cmd/ampinfo
# then run it from the repository root with .gl (the Vulkan loader) and .gpu carried; it
# writes one archive, $OUT/all.tgz.
set -u
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
R=$(mktemp -d)
.gpu/ampinfo >"$R/ampinfo.txt" 2>&1
.gpu/ampdemo >"$R/ampdemo.txt" 2>&1
(cd cmd/ampdemo && GOAMP_VALIDATION=1 GOAMP_REQUIRE_VULKAN=1 ../../.gpu/ampdemo.test -test.v >"$R/ampdemo-test.txt" 2>&1; echo "rc=$?" >>"$R/ampdemo-test.txt")
K=vadd-f32,saxpy-f32,fill-f32,transpose-f32,matmul-simple-f32,conv2d-f32,histogram-f32
F="-test.run ^$ -test.bench Reduce|InclusiveScan/MultiPass|Histogram -test.benchtime 3x -reduce.bytes 268435456 -reduce.accel vulkan -reduce.nosubgroups -reduce.profiled 3"
for i in 1 2 3; do
	for b in old new; do
		.gpu/ampbench-$b -accelerator vulkan:0 -profile -reps 5 -n 67108864 -mat 4096 -img 8192 -kernels $K -json "$R/bench-$b-$i.json" >"$R/bench-$b-$i.txt" 2>&1
	done
	.gpu/shaders-old.test $F >>"$R/benchtest-old.txt" 2>&1
	.gpu/algo-new.test $F >>"$R/benchtest-new.txt" 2>&1
done
GOAMP_VALIDATION=1 GOAMP_REQUIRE_VULKAN=1 timeout 200 .gpu/algo-new.test -test.run 'Scan|Reduce|Sort|Histogram' >"$R/algo-test.txt" 2>&1
echo "rc=$?" >>"$R/algo-test.txt"
tar czf "$OUT/all.tgz" -C "$R" .
