#!/bin/sh
# Runs the kernel fuzzer's test binaries (make fuzz-kernels-gpu) on a machine without Go:
# each binary runs its kernels on their oracle (the Go method, on the CPU) and on each
# accelerator of KERNELFUZZ_TARGETS (vulkan:0 by default), prints one KERNELFUZZ line a run,
# and this script sums them by mode and status (ok, nofast, diff, error, validation,
# oracle-error) and prints the lines of every run that was not ok.
# Usage: scripts/kernelfuzz-gpu.sh PART [binaries' flags], where PART is a part that make
# fuzz-kernels-gpu wrote (.gpu/kernelfuzz-part-1.tar.xz) or a directory of binaries. A part
# is unpacked with xz, else with python3's lzma.
set -u
part=${1:-.gpu/kernelfuzz-part-1.tar.xz}
[ $# -gt 0 ] && shift
: "${KERNELFUZZ_TARGETS:=vulkan:0}"
export KERNELFUZZ_TARGETS
dir=$part
case $part in
*.tar.xz)
	dir=$(mktemp -d)
	if command -v xz >/dev/null; then
		xz -dc "$part" | tar -C "$dir" -xf - || exit 1
	else
		python3 -c 'import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())' "$part" |
			tar -C "$dir" -xf - || exit 1
	fi
	;;
esac
# Each binary writes its own log, under $OUT where the GPU machine's tool collects it (else a
# new folder), and the binaries run at once: a driver that crashes ends one binary, not the
# part, and what ran is kept when a time limit ends the run.
logs=${OUT:-$(mktemp -d)}
mkdir -p "$logs"
status=0
pids=
for b in $(find "$dir" -name 'kernelfuzz-*.test' | sort); do
	"$b" -test.run '^TestGenerated$' -test.v "$@" >"$logs/$(basename "$b").log" 2>&1 &
	pids="$pids $!"
done
for p in $pids; do wait "$p" || status=1; done
log=$(mktemp)
cat "$logs"/kernelfuzz-*.log >"$log"
grep -l 'SIGSEGV\|SIGFPE\|signal arrived' "$logs"/kernelfuzz-*.log | sed 's/^/crashed: /'
echo "kernels: $(grep '^KERNELFUZZ ' "$log" | awk '$5 != "oracle" { print $3 }' | sort -u | wc -l)"
grep '^KERNELFUZZ ' "$log" | awk '{ n[$5 " " $2]++ } END { for (k in n) print k ": " n[k] }' | sort
grep '^KERNELFUZZ ' "$log" | grep -v '^KERNELFUZZ \(ok\|nofast\) ' | head -50
echo "logs: $logs"
[ "$dir" != "$part" ] && rm -rf "$dir"
exit $status
