#!/usr/bin/env bash
# benchcmp.sh: a benchmark of two versions of goamp, run alternately in one run.
#
#   scripts/benchcmp.sh [-n ROUNDS] BASE PKG BENCH [ARGS...]
#       builds PKG's test binary at commit BASE (a git worktree) and at the work tree, runs
#       them in turn, base then work tree, ROUNDS times (default 3), each with
#       -test.run '^$' -test.bench BENCH ARGS... from PKG's directory, and prints each
#       figure's median for both and the ratio work/base.
#   scripts/benchcmp.sh -b DIR BASE PKG
#       builds the two binaries only, as DIR/base.test and DIR/new.test (for a machine
#       without Go: carry DIR and the script there and run it with -r).
#   scripts/benchcmp.sh -r DIR [-n ROUNDS] PKG BENCH [ARGS...]
#       runs DIR/base.test and DIR/new.test as above, without building.
#
# ARGS are test-binary flags (-test.benchtime 5000x, -test.count ...). Every run's output
# is kept in the output folder (BENCHCMP_OUT, default a new temporary folder), whose name the
# script prints. Performance claims that compare code versions in RESULTS.md come from
# this script's ratios: same machine, same run, alternated, never runs of different days.
# A commit older than internal/vk's vendored Vulkan headers needs libvulkan-dev to build.
set -euo pipefail

usage() {
	sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//' >&2
	exit 2
}

rounds=3 build_only= run_only=
while getopts "n:b:r:h" o; do
	case $o in
	n) rounds=$OPTARG ;;
	b) build_only=$OPTARG ;;
	r) run_only=$OPTARG ;;
	*) usage ;;
	esac
done
shift $((OPTIND - 1))

root=$(git rev-parse --show-toplevel 2>/dev/null || pwd)
cd "$root"

build() { # build DIR BASE PKG
	local dir=$1 base=$2 pkg=$3 wt
	mkdir -p "$dir"
	dir=$(cd "$dir" && pwd)
	wt=$(mktemp -d)
	git worktree add --detach -q "$wt" "$base"
	if [ ! -d "$wt/internal/vk/third_party" ] && [ ! -e /usr/include/vulkan/vulkan.h ]; then
		echo "benchcmp: $base predates the vendored Vulkan headers: install libvulkan-dev to build it" >&2
		git worktree remove --force "$wt"
		exit 1
	fi
	(cd "$wt" && go test -c -o "$dir/base.test" "./$pkg") || { git worktree remove --force "$wt"; exit 1; }
	git worktree remove --force "$wt"
	go test -c -o "$dir/new.test" "./$pkg"
	echo "benchcmp: built $dir/base.test ($(git rev-parse --short "$base")) and $dir/new.test (work tree)"
}

if [ -n "$build_only" ]; then
	[ $# -eq 2 ] || usage
	build "$build_only" "$1" "$2"
	exit 0
fi

if [ -n "$run_only" ]; then
	[ $# -ge 2 ] || usage
	bins=$(cd "$run_only" && pwd)
	pkg=$1 bench=$2
	shift 2
else
	[ $# -ge 3 ] || usage
	bins=$(mktemp -d)
	build "$bins" "$1" "$2"
	pkg=$2 bench=$3
	shift 3
fi

out=${BENCHCMP_OUT:-$(mktemp -d)}
mkdir -p "$out"
echo "benchcmp: $rounds rounds of $bench in $pkg, base then new; output in $out"
for r in $(seq 1 "$rounds"); do
	for side in base new; do
		(cd "$root/$pkg" && "$bins/$side.test" -test.run '^$' -test.bench "$bench" "$@") \
			>"$out/$side-$r.txt" 2>&1 || { cat "$out/$side-$r.txt"; exit 1; }
	done
done

# Every "value unit" pair of every Benchmark line, per side: the medians and new/base.
for side in base new; do
	cat "$out/$side"-*.txt | awk -v side="$side" '/^Benchmark/ {
		for (i = 3; i < NF; i += 2) print side, $1, $(i + 1), $i }'
done | awk '
function median(list,    a, n, i, j, t) {
	n = split(list, a, " ")
	for (i = 2; i <= n; i++) for (j = i; j > 1 && a[j - 1] + 0 > a[j] + 0; j--) { t = a[j]; a[j] = a[j - 1]; a[j - 1] = t }
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
{
	key = $2 "\t" $3
	if (!(key in seen)) { seen[key] = 1; order[++nk] = key }
	v[$1, key] = v[$1, key] " " $4
}
END {
	printf "%-70s %-12s %12s %12s %8s\n", "benchmark", "unit", "base", "new", "new/base"
	for (i = 1; i <= nk; i++) {
		k = order[i]
		if (!(("base", k) in v) || !(("new", k) in v)) continue
		b = median(v["base", k]); n = median(v["new", k])
		split(k, kk, "\t")
		printf "%-70s %-12s %12.4g %12.4g %8s\n", kk[1], kk[2], b, n, b == 0 ? "-" : sprintf("%.3f", n / b)
	}
}'
