#!/usr/bin/env bash
# trixie-tool.sh TOOL ARGS... runs Debian trixie's glslc (shaderc 2025.2) or spirv-val
# (TOOL: glslc or spirv-val) on a Debian bookworm machine: they know
# GL_KHR_cooperative_matrix and SPV_KHR_cooperative_matrix, which bookworm's glslc 2023.2
# and spirv-tools 2023.1 do not. The first call downloads trixie's packages of them, their
# libraries and their C library (apt-get download into a private cache, with apt's
# signature checks; nothing is installed) under ${XDG_CACHE_HOME:-~/.cache}/goamp/
# glslc-trixie; every call runs the tool through trixie's own dynamic loader, so the
# system's libraries are untouched. The Makefile compiles and validates the shader
# variants that define AMP_COOP_KHR with it (GLSLC_KHR, SPIRV_VAL_KHR); `make
# shaders-check` checks them like the others.
set -euo pipefail
tool=${1:?usage: trixie-tool.sh glslc|spirv-val ARGS...}
shift
case $tool in glslc | spirv-val) ;; *) echo "trixie-tool.sh: unknown tool $tool" >&2; exit 2;; esac
want=2025.2-1 # the glslc (shaderc) version the committed SPIR-V was compiled with
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/goamp/glslc-trixie
root=$cache/root
if [ ! -x "$root/usr/bin/glslc" ]; then
	rm -rf "$cache"
	mkdir -p "$cache/lists/partial" "$cache/archives/partial" "$cache/debs"
	echo "deb http://deb.debian.org/debian trixie main" >"$cache/sources.list"
	: >"$cache/status"
	o=(-o APT::Architecture=amd64 -o APT::Architectures=amd64 -o Dir::State="$cache" -o Dir::State::Lists="$cache/lists"
		-o Dir::State::status="$cache/status" -o Dir::Cache="$cache" -o Dir::Cache::archives="$cache/archives"
		-o Dir::Etc::SourceList="$cache/sources.list" -o Dir::Etc::SourceParts=/nonexistent -o Debug::NoLocking=1
		-o APT::Sandbox::User="$(id -un)")
	echo "trixie-tool: fetching Debian trixie's glslc $want into $cache" >&2
	apt-get "${o[@]}" -qq update >&2
	(cd "$cache/debs" && apt-get "${o[@]}" -qq download glslc="$want" libshaderc1="$want" spirv-tools libc6 libstdc++6 libgcc-s1 >&2)
	for d in "$cache"/debs/*.deb; do dpkg-deb -x "$d" "$root"; done
	rm -rf "$cache/lists" "$cache/archives" "$cache/debs" "$cache"/*.bin
	got=$("$root/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" --library-path "$root/usr/lib/x86_64-linux-gnu" \
		"$root/usr/bin/glslc" --version | awk '/^shaderc/ { print $2 }')
	[ "$got" = "$want" ] || { echo "trixie-tool: got glslc $got, want $want" >&2; exit 1; }
fi
lib=$root/usr/lib/x86_64-linux-gnu
exec "$lib/ld-linux-x86-64.so.2" --library-path "$lib:$root/lib/x86_64-linux-gnu" "$root/usr/bin/$tool" "$@"
