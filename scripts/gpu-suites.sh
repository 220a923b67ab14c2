#!/bin/bash
# gpu-suites.sh: one run on the GPU machine (no Go there) of what this repository's last
# session could not run for want of device time: issue 34's dispatch comparison with f7cbe8a,
# ampinfo without cgo, the package suites without cgo under Debian trixie's validation layer
# (1.4.309, which knows the cooperative-matrix extensions goamp enables), and the kernel
# fuzzer's GPU binaries. Build here, from the repository root:
#   g=$(mktemp -d); mkdir -p $g/s/f7 $g/kf
#   for p in accelerator runtime arrayview internal/vk; do
#     CGO_ENABLED=0 go test -tags nowindow -c -o $g/s/$(basename $p).test ./$p; done
#   CGO_ENABLED=0 go build -tags nowindow -o $g/s/ ./cmd/ampinfo
#   scripts/benchcmp.sh -b /tmp/f7 f7cbe8a arrayview && cp /tmp/f7/base.test $g/s/f7/
#   ln -s ../arrayview.test $g/s/f7/new.test
#   make fuzz-kernels-gpu N=1000 KERNELFUZZ_BATCH=500 && cp .gpu/kernelfuzz/*.test $g/kf/
#   cp scripts/kernelfuzz-gpu.sh $g/; strip $g/s/*.test $g/s/ampinfo $g/kf/*.test
#   mkdir -p .gpuz && tar czf .gpuz/gpuz.tgz -C $g .
# and download .gl (DEVELOPERS' loader packages) and .gl2 (trixie's libvulkan1 and
# vulkan-validationlayers); carry .gl, .gl2 and .gpuz (64 MiB in all) and run this script
# from the repository root there.
set +e
for f in .gl/*.deb; do dpkg -x $f /; done; mkdir -p /opt/gl2; for f in .gl2/*.deb; do dpkg -x $f /opt/gl2; done; ldconfig
export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
G=/tmp/g; mkdir -p $G; tar xzf .gpuz/gpuz.tgz -C $G
nvidia-smi --query-gpu=name --format=csv,noheader
echo "== 34: f7cbe8a vs main"
BENCHCMP_OUT=/tmp/bc scripts/benchcmp.sh -r $G/s/f7 -n 3 arrayview 'DispatchView/vulkan' -test.benchtime 20000x | grep -v B/op
$G/s/ampinfo > $OUT/ampinfo.txt 2>&1; echo "ampinfo rc=$?"; grep -i -m3 "nvidia\|vulkan:0" $OUT/ampinfo.txt
export LD_LIBRARY_PATH=/opt/gl2/usr/lib/x86_64-linux-gnu VK_LAYER_PATH=/opt/gl2/usr/share/vulkan/explicit_layer.d
E="GOAMP_VALIDATION=1 GOAMP_REQUIRE_VULKAN=1 AMP_DEFAULT_ACCELERATOR=vulkan:0"
for p in internal/vk accelerator arrayview runtime; do n=$(basename $p)
	(cd $p && env $E timeout 22 $G/s/$n.test -test.short > $OUT/suite-$n.txt 2>&1; echo "suite $n rc=$?"; grep -E "^(ok|PASS|FAIL|--- FAIL)" $OUT/suite-$n.txt | head -5)
done
echo "== fuzzer"
GOAMP_VALIDATION=1 timeout 30 sh $G/kernelfuzz-gpu.sh $G/kf > $OUT/kf.txt 2>&1; echo "kf rc=$?"; tail -25 $OUT/kf.txt
cp /tmp/bc/*.txt $OUT/ 2>/dev/null
