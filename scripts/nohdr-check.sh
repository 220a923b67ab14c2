#!/usr/bin/env bash
# nohdr-check (make nohdr-check, part of make test): goamp builds without the system's Vulkan
# development headers (Debian's libvulkan-dev), and no binary links the Vulkan loader
# (internal/vk loads it at run time and has no C; its Go declarations are generated from
# the headers vendored in internal/vk/third_party/vulkan-headers, which only the C probes
# under scripts/ compile against).
#
# It needs no root, namespace or package removal: each directory of the C compiler's default
# include path is mirrored as a farm of symlinks that leaves out vulkan/ and vk_video/, and every
# compile runs with -nostdinc -isystem <farms> (CGO_CPPFLAGS for go). The check first proves that
# <vulkan/vulkan.h> is then out of reach, so it cannot pass by not hiding anything; then
#  1. go build ./... and go vet ./... with cgo on (the GLFW window's C code);
#  2. scripts/vklatency.c, against the vendored headers, linked with -l:libvulkan.so.1;
#  3. a program outside goamp that imports it, built from a `go mod vendor` copy, whose ELF
#     must not need libvulkan.
# A fresh temporary path per run changes go's cache keys, so the cgo packages are compiled each
# time, never taken from the cache.
set -euo pipefail
GO=${GO:-go}
CC=${CC:-cc}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

dirs=$($CC -E -Wp,-v -x c /dev/null 2>&1 >/dev/null | sed -n '/^#include <\.\.\.>/,/^End of search/s/^ //p')
[ -n "$dirs" ] || { echo "nohdr-check: cannot read $CC's include path" >&2; exit 1; }
flags=-nostdinc
i=0
for d in $dirs; do
	i=$((i + 1))
	mkdir "$tmp/inc$i"
	flags="$flags -isystem $tmp/inc$i"
	for e in "$d"/*; do
		case "${e##*/}" in vulkan | vk_video) ;; *) ln -s "$e" "$tmp/inc$i/" ;; esac
	done
done
if printf '#include <vulkan/vulkan.h>\n' | $CC $flags -E -x c - >/dev/null 2>&1; then
	echo "nohdr-check: <vulkan/vulkan.h> is still reachable with $flags" >&2
	exit 1
fi
export CGO_ENABLED=1 CGO_CPPFLAGS="$flags"

cd "$root"
$GO build ./...
$GO vet ./...
$CC $flags -O2 -Wall -Werror -Iinternal/vk/third_party/vulkan-headers -o "$tmp/vklatency" \
	scripts/vklatency.c -l:libvulkan.so.1
gover=$($GO list -m -f '{{.GoVersion}}')

mkdir "$tmp/user"
cd "$tmp/user"
export GOWORK=off
cp "$root/go.sum" .
cat >go.mod <<EOF
module example.com/nohdr

go $gover

require github.com/goamp/goamp v0.0.0

replace github.com/goamp/goamp => $root
EOF
cat >main.go <<'EOF'
// Command nohdr imports goamp as a user's program does.
package main

import (
	"fmt"

	"github.com/goamp/goamp/accelerator"
)

func main() { fmt.Println(accelerator.NoVulkanReason()) }
EOF
$GO mod tidy
$GO mod vendor
$GO build -mod=vendor -o nohdr .
if readelf -d nohdr | grep -q 'NEEDED.*libvulkan'; then
	echo "nohdr-check: a goamp program links libvulkan; internal/vk must dlopen it" >&2
	exit 1
fi
echo "nohdr-check: goamp builds, vendored too, without the system's Vulkan headers"
