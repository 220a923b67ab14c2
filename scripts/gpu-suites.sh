#!/bin/bash
# gpu-suites.sh: the GPU machine's runs (it has no Go) that issues 34, 35 and 36 still need:
#   scripts/gpu-suites.sh suites  issue 34's dispatch comparison with f7cbe8a, ampinfo without
#                                 cgo, the package suites without cgo under Debian trixie's
#                                 validation layer (1.4.309, which knows the cooperative-matrix
#                                 extensions goamp enables), fmath's accuracy table, the kernel
#                                 fuzzer's GPU binaries; carry .gl, .gl2 and .gpuz
#   scripts/gpu-suites.sh cgo     issue 35's comparison of the last cgo build (525b885) with the
#                                 build without cgo: dispatch, Synchronize of 256 MiB, ampbench;
#                                 carry .gl and .gpuz2
# Each is one call (64 MiB of carry, tree included). Build them here, from the repository root:
#   g=$(mktemp -d); mkdir -p $g/s/f7 $g/kf
#   for p in accelerator runtime arrayview internal/vk fmath; do
#     CGO_ENABLED=0 go test -tags nowindow -c -o $g/s/$(basename $p).test ./$p; done
#   CGO_ENABLED=0 go build -tags nowindow -o $g/s/ ./cmd/ampinfo
#   scripts/benchcmp.sh -b /tmp/f7 f7cbe8a arrayview && cp /tmp/f7/base.test $g/s/f7/
#   ln -s ../arrayview.test $g/s/f7/new.test
#   make fuzz-kernels-gpu N=1000 KERNELFUZZ_SEED=... && cp .gpu/kernelfuzz-part-1.tar.xz $g/kf/
#   cp scripts/kernelfuzz-gpu.sh $g/; strip $g/s/*.test $g/s/ampinfo
#   mkdir -p .gpuz && tar czf .gpuz/gpuz.tgz -C $g .
#   c=$(mktemp -d)/cg; mkdir -p $c; git worktree add /tmp/w525 525b885
#   (cd /tmp/w525 && go test -tags nowindow -c -o $c/base.test ./arrayview &&
#     go build -tags nowindow -o $c/ampbench-cgo ./cmd/ampbench)
#   CGO_ENABLED=0 go build -tags nowindow -o $c/ampbench-new ./cmd/ampbench
#   cp $g/s/arrayview.test $c/new.test; strip $c/*; mkdir -p .gpuz2 && tar czf .gpuz2/cg.tgz -C $c/.. cg
# .gl holds DEVELOPERS' loader packages, .gl2 trixie's libvulkan1 and vulkan-validationlayers
# (scripts/trixie-tool.sh's apt configuration). Run this script from the repository root there.
set +e
mode=${1:-suites}
for f in .gl/*.deb; do dpkg -x $f /; done
ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
nvidia-smi --query-gpu=name --format=csv,noheader
: "${OUT:=/tmp/out}"
mkdir -p "$OUT"
case $mode in
cgo)
	C=/tmp/c; mkdir -p $C; tar xzf .gpuz2/cg.tgz -C $C
	echo "== 525b885 (cgo) against the build without cgo: dispatch"
	BENCHCMP_OUT=/tmp/bd scripts/benchcmp.sh -r $C/cg -n 5 arrayview 'DispatchView/vulkan' -test.benchtime 20000x | grep -v B/op
	echo "== Synchronize"
	BENCHCMP_OUT=/tmp/bs scripts/benchcmp.sh -r $C/cg -n 3 arrayview 'Synchronize' -test.benchtime 5x | grep -v "B/op\|allocs"
	echo "== ampbench"
	for r in 1 2; do for b in cgo new; do
		echo "-- $b round $r"
		$C/cg/ampbench-$b -accelerator vulkan:0 -warm 200ms -reps 5 -n 67108864 -mat 4096 -img 8192 2>&1 | tail -14
	done; done
	mkdir -p $OUT/bd $OUT/bs; cp /tmp/bd/*.txt $OUT/bd/; cp /tmp/bs/*.txt $OUT/bs/
	;;
suites)
	mkdir -p /opt/gl2; for f in .gl2/*.deb; do dpkg -x $f /opt/gl2; done
	G=/tmp/g; mkdir -p $G; tar xzf .gpuz/gpuz.tgz -C $G
	echo "== f7cbe8a against this build: dispatch"
	BENCHCMP_OUT=/tmp/bc scripts/benchcmp.sh -r $G/s/f7 -n 5 arrayview 'DispatchView/vulkan' -test.benchtime 20000x | grep -v B/op
	$G/s/ampinfo > $OUT/ampinfo.txt 2>&1; echo "ampinfo rc=$?"; grep -i -m3 "nvidia\|vulkan:0" $OUT/ampinfo.txt
	export LD_LIBRARY_PATH=/opt/gl2/usr/lib/x86_64-linux-gnu VK_LAYER_PATH=/opt/gl2/usr/share/vulkan/explicit_layer.d
	E="GOAMP_VALIDATION=1 GOAMP_REQUIRE_VULKAN=1 AMP_DEFAULT_ACCELERATOR=vulkan:0"
	for p in internal/vk accelerator runtime arrayview fmath; do n=$(basename $p)
		(cd $p && env $E timeout 100 $G/s/$n.test -test.short > $OUT/suite-$n.txt 2>&1
		echo "suite $n rc=$?"; grep -E "^(ok|PASS|FAIL|--- FAIL)" $OUT/suite-$n.txt | head -5)
	done
	(cd internal/vk && env $E GOAMP_NO_PUSH_DESCRIPTOR=1 timeout 100 $G/s/vk.test -test.short > $OUT/nopush-vk.txt 2>&1
	echo "nopush vk rc=$?"; grep -E "^(ok|PASS|FAIL|--- FAIL)" $OUT/nopush-vk.txt | head -5)
	(cd fmath && env $E timeout 100 $G/s/fmath.test -test.run TestAccuracy -test.v > $OUT/fmath-acc.txt 2>&1
	echo "fmath accuracy rc=$?"; grep "vulkan:0 " $OUT/fmath-acc.txt)
	echo "== fuzzer"
	GOAMP_VALIDATION=1 timeout 200 sh $G/kernelfuzz-gpu.sh $G/kf/kernelfuzz-part-1.tar.xz > $OUT/kf.txt 2>&1; echo "kf rc=$?"; tail -25 $OUT/kf.txt
	cp /tmp/bc/*.txt $OUT/
	;;
*)
	echo "usage: $0 suites|cgo" >&2
	exit 2
	;;
esac
