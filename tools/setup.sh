#!/usr/bin/env bash
# tools/setup.sh — install what is missing (Debian 12), configure and build thunder-wb.
#
#   tools/setup.sh [--deps-only] [--sample] [--builddir DIR] [-- MESON_SETUP_OPTIONS...]
#
#   (no option)     install missing packages, then `meson setup` + `ninja` in build/ (GUI included)
#   --deps-only     only install the missing packages (.ci/run uses this, then builds its own dirs)
#   --sample        after building, run the main job on the bundled sample data/samples/mlp_small:
#                   `check`, then `profile` (prints the report)
#   --builddir DIR  build in DIR instead of build/
#   -- OPTIONS      passed to `meson setup` (e.g. -- -Dgui=false)
#
# cuDNN's attention (executors/cuda/wb-cudnn-sdpa.cc) is built with NVIDIA's header-only cudnn-frontend, which
# Debian does not package: when the CUDA toolkit has cuDNN's headers, its wheel from PyPI (pinned below) is
# downloaded once and its include/ unpacked into third_party/cudnn-frontend (git-ignored). Without it the
# build goes on without cuDNN (attention then runs on the workbench's own kernels).
#
# Packages are installed with apt-get (after apt-get update) only when missing: as root directly,
# otherwise through sudo. Exit status: 0 ok, 3 when packages are missing and cannot be installed,
# or the status of the failing build step.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

packages=(
  meson ninja-build pkg-config gcc g++ unzip python3-pip
  libglib2.0-dev libjson-glib-dev libsqlite3-dev libgraphviz-dev
  libgtk-4-dev libadwaita-1-dev libgtksourceview-5-dev libopenblas-dev
  xvfb xauth libxtst-dev gettext appstream desktop-file-utils
  clang libclang-rt-14-dev python3
  chromium
)

deps_only=0
sample=0
builddir=build
meson_options=()

while [ $# -gt 0 ]; do
  case "$1" in
    --deps-only) deps_only=1 ;;
    --sample) sample=1 ;;
    --builddir) builddir=${2:?--builddir needs a directory}; shift ;;
    --) shift; meson_options+=("$@"); break ;;
    -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "tools/setup.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done

install_missing() {
  local missing=() pkg
  for pkg in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
      missing+=("$pkg")
    fi
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: all ${#packages[@]} packages are installed"
    return 0
  fi

  local sudo=()
  if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
      sudo=(sudo)
    else
      echo "setup: missing packages: ${missing[*]}" >&2
      echo "setup: not root and no sudo: install them as root (apt-get install ${missing[*]})" >&2
      exit 3
    fi
  fi
  if ! command -v apt-get >/dev/null 2>&1; then
    echo "setup: missing packages: ${missing[*]}; no apt-get here (this script knows Debian 12)" >&2
    exit 3
  fi

  echo "setup: installing ${missing[*]}"
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -q
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

# configure DIR OPTIONS...: a new build directory, the existing one reconfigured with OPTIONS, or
# one whose last configuration failed set up again from scratch.
configure() {
  local dir=$1; shift
  if [ -f "$dir/build.ninja" ]; then
    meson setup --reconfigure "$dir" "$@"
  elif [ -d "$dir/meson-private" ]; then
    meson setup --wipe "$dir" "$@"
  else
    meson setup "$dir" "$@"
  fi
}

cudnn_frontend_version=1.32.0
fetch_cudnn_frontend() {
  local dest=third_party/cudnn-frontend cuda=${CUDA_HOME:-/usr/local/cuda} tmp
  [ -f "$dest/include/cudnn_frontend.h" ] && return 0
  [ -f "$cuda/include/cudnn.h" ] || [ -f /usr/include/cudnn.h ] || return 0
  tmp=$(mktemp -d)
  if python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux_2_28_x86_64 --python-version 3.11 \
       --implementation cp -d "$tmp" "nvidia-cudnn-frontend==$cudnn_frontend_version" &&
     mkdir -p "$dest" && unzip -q -o "$tmp"/nvidia_cudnn_frontend-*.whl 'include/*' -d "$dest"; then
    echo "setup: cudnn-frontend $cudnn_frontend_version headers in $dest/include"
  else
    echo "setup: could not fetch cudnn-frontend $cudnn_frontend_version from PyPI: building without cuDNN attention" >&2
    rm -rf "$dest"
  fi
  rm -rf "$tmp"
}

# NCCL's header (nccl.h) from NVIDIA's wheel on PyPI: the runner opens libnccl.so.2 with dlopen at run time (the
# machine's PyTorch ships one), so only the header is needed to build the collectives (executors/cuda/wb-cuda-nccl.c).
nccl_version=2.27.7
fetch_nccl_header() {
  local dest=third_party/nccl cuda=${CUDA_HOME:-/usr/local/cuda} tmp
  [ -f "$dest/include/nccl.h" ] && return 0
  [ -f "$cuda/include/cuda.h" ] || return 0
  tmp=$(mktemp -d)
  if python3 -m pip download -q --no-deps --only-binary=:all: --platform manylinux2014_x86_64 \
       -d "$tmp" "nvidia-nccl-cu13==$nccl_version" &&
     unzip -q -o "$tmp"/nvidia_nccl_cu13-*.whl 'nvidia/nccl/include/nccl.h' -d "$tmp/x" &&
     mkdir -p "$dest/include" && cp "$tmp/x/nvidia/nccl/include/nccl.h" "$dest/include/"; then
    echo "setup: NCCL $nccl_version header in $dest/include"
  else
    echo "setup: could not fetch NCCL $nccl_version's header from PyPI: building without collectives on the GPU" >&2
    rm -rf "$dest"
  fi
  rm -rf "$tmp"
}

install_missing
fetch_cudnn_frontend
fetch_nccl_header
[ "$deps_only" -eq 1 ] && exit 0

configure "$builddir" "${meson_options[@]}"
ninja -C "$builddir"

if [ "$sample" -eq 1 ]; then
  # The main job on the bundled sample: verify its traces, then profile it (on the cpu executor when
  # there is no GPU) and print the Markdown report.
  wb="$builddir/app/thunder-wb"
  set -x
  "$wb" --headless check data/samples/mlp_small
  "$wb" --headless profile data/samples/mlp_small
fi
