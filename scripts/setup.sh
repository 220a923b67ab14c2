#!/usr/bin/env bash
# Installs what goamp needs from Debian's packages, only those that are absent: the Vulkan
# loader, Mesa's lavapipe (software Vulkan), the Khronos validation layer, glslc and the SPIR-V
# tools. No Vulkan headers (libvulkan-dev): goamp and scripts/vklatency.c compile against the
# copy in internal/vk/third_party/vulkan-headers. For cmd/ampview's window (present/window links
# GLFW, github.com/go-gl/glfw, whose cgo build compiles GLFW's X11 backend): the X11 development
# headers and libGL.so (go-gl/glfw links -lGL on Linux; GLFW opens no OpenGL context, the
# window presents through Vulkan); for its test: Xvfb and xwd (x11-apps). For the Windows test
# binaries (make test-wine): Wine (wine64; Wine reaches Vulkan through its X11 driver, so the
# tests run under xvfb-run) and MinGW-w64's C compiler for the bcryptprimitives.dll shim
# (scripts/wine/bcryptprimitives.c says why). Needs root or sudo; says so plainly otherwise.
#
# Then, under $GOAMP_CACHE (the Makefile's; ~/.cache/goamp by default), once each:
#   swiftshader/  SwiftShader's Vulkan driver, taken from Debian's chromium-common package
#                 (apt-get download and unpacked, nothing installed; only the driver's two
#                 files are kept and nothing of Chromium runs): make test-swiftshader points
#                 VK_DRIVER_FILES at swiftshader/usr/lib/chromium/vk_swiftshader_icd.json.
#   wine/         the Wine prefix (WINEPREFIX) of make test-wine, with the shim in system32.
set -euo pipefail
pkgs=(libvulkan1 mesa-vulkan-drivers vulkan-validationlayers glslc spirv-tools
	libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev xvfb x11-apps
	wine64 gcc-mingw-w64-x86-64)
cache=${GOAMP_CACHE:-${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/goamp}
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go is not on PATH; install Go 1.26 or newer from go.dev/dl" >&2
	exit 1
fi

# swiftshader installs SwiftShader's ICD into $cache/swiftshader unless it is there.
swiftshader() {
	local dir=$cache/swiftshader
	[ -f "$dir/usr/lib/chromium/vk_swiftshader_icd.json" ] && return
	local tmp
	tmp=$(mktemp -d)
	echo "setup: fetching SwiftShader's Vulkan driver (Debian's chromium-common) into $dir"
	(cd "$tmp" && apt-get -o APT::Sandbox::User="$(id -un)" download -qq chromium-common)
	rm -rf "$dir.new"
	mkdir -p "$dir.new"
	dpkg-deb --fsys-tarfile "$tmp"/chromium-common_*.deb |
		tar -x -C "$dir.new" ./usr/lib/chromium/libvk_swiftshader.so ./usr/lib/chromium/vk_swiftshader_icd.json
	dpkg-deb -f "$tmp"/chromium-common_*.deb Version >"$dir.new/VERSION"
	rm -rf "$tmp" "$dir"
	mv "$dir.new" "$dir"
}

# wineprefix makes the Wine prefix $cache/wine (wineboot, the first time) and puts the
# bcryptprimitives.dll shim in its system32 when the shim is absent or older than its source.
wineprefix() {
	local src prefix dll
	src=$(dirname "$0")/wine/bcryptprimitives.c
	prefix=$cache/wine
	dll=$prefix/drive_c/windows/system32/bcryptprimitives.dll
	[ -f "$dll" ] && [ "$dll" -nt "$src" ] && return
	if [ ! -f "$prefix/system.reg" ]; then
		echo "setup: making the Wine prefix $prefix"
		mkdir -p "$prefix"
		# No Mono or Gecko: nothing here needs .NET or a browser engine.
		WINEPREFIX=$prefix WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" /usr/lib/wine/wine64 wineboot --init >/dev/null 2>&1
		WINEPREFIX=$prefix /usr/lib/wine/wineserver -w
	fi
	x86_64-w64-mingw32-gcc -O2 -Wall -Werror -shared -o "$dll" "$src" -ladvapi32
}

if [ ${#missing[@]} -eq 0 ]; then
	swiftshader
	wineprefix
	exit 0
fi
if [ "$(id -u)" -eq 0 ]; then
	sudo=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
	sudo=(sudo)
else
	echo "setup: these Debian packages are missing: ${missing[*]}" >&2
	echo "setup: installing them needs root; run: sudo apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
swiftshader
wineprefix
