#!/usr/bin/env bash
# Installs what goamp needs from Debian's packages, only those that are absent: the Vulkan
# loader, Mesa's lavapipe (software Vulkan), the Khronos validation layer, glslc and the SPIR-V
# tools. No Vulkan headers (libvulkan-dev): goamp and scripts/vklatency.c compile against the
# copy in internal/vk/third_party/vulkan-headers. For cmd/ampview's window (present/window links
# GLFW, github.com/go-gl/glfw, whose cgo build compiles GLFW's X11 backend): the X11 development
# headers and libGL.so (go-gl/glfw links -lGL on Linux; GLFW opens no OpenGL context, the
# window presents through Vulkan); for its test: Xvfb and xwd (x11-apps). Needs root or sudo;
# says so plainly otherwise.
set -euo pipefail
pkgs=(libvulkan1 mesa-vulkan-drivers vulkan-validationlayers glslc spirv-tools
	libx11-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev libgl-dev xvfb x11-apps)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ! command -v go >/dev/null 2>&1; then
	echo "setup: Go is not on PATH; install Go 1.26 or newer from go.dev/dl" >&2
	exit 1
fi
[ ${#missing[@]} -eq 0 ] && exit 0
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
