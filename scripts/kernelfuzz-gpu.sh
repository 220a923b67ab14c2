#!/bin/sh
# Runs the kernel fuzzer's test binaries (make fuzz-kernels-gpu) on a machine without Go:
# each binary runs its kernels on their oracle (the Go method, on the CPU) and on each
# accelerator of KERNELFUZZ_TARGETS (vulkan:0 by default), prints one KERNELFUZZ line a run,
# and this script sums them: ok, nofast, diff, error, validation, oracle-error.
# Usage: scripts/kernelfuzz-gpu.sh DIR [binaries' flags]
set -u
dir=${1:-.gpu/kernelfuzz}
[ $# -gt 0 ] && shift
: "${KERNELFUZZ_TARGETS:=vulkan:0}"
export KERNELFUZZ_TARGETS
log=$(mktemp)
status=0
for b in "$dir"/kernelfuzz-*.test; do
	"$b" -test.run '^TestGenerated$' -test.v "$@" >>"$log" 2>&1 || status=1
done
grep '^KERNELFUZZ ' "$log" | awk '{ n[$5 " " $2]++ } END { for (k in n) print k ": " n[k] }' | sort
grep '^KERNELFUZZ ' "$log" | grep -v '^KERNELFUZZ \(ok\|nofast\) ' | head -50
echo "log: $log"
exit $status
