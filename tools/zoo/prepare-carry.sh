#!/bin/sh
# prepare-carry.sh — what tools/zoo/device-record.sh needs on the GPU machine, made here (see README.md)
# SPDX-License-Identifier: GPL-3.0-or-later
#
#   sh tools/zoo/prepare-carry.sh BUILD_DIR CARRY
#
# CARRY/whl: lightning-thunder (the PyPI release) and what the machine's Python lacks of its needs
# (looseversion, optree, dill) and cuDNN's Python frontend (Thunder's cudnn executor), for CPython 3.12;
# CARRY/thunder-main: Thunder's main branch as a package folder, from a clone given as THUNDER_MAIN_REPO;
# CARRY/bundle.tgz: BUILD_DIR/app/thunder-wb and the shared libraries it needs that are not glibc's or gcc's.
# BUNDLE_ONLY=1: only bundle.tgz again (a rebuilt thunder-wb, e.g. the recorder's C side), nothing downloaded.
set -eu
build=$(cd "$1" && pwd)
carry=$2
mkdir -p "$carry/whl"
if [ -z "${BUNDLE_ONLY:-}" ]; then
plat="--platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64"
for p in lightning-thunder==0.2.6 looseversion==1.3.0 optree==0.20.0 dill==0.4.1 nvidia-cudnn-frontend==1.32.0; do
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp $plat -d "$carry/whl" "$p"
done
if [ -n "${THUNDER_MAIN_REPO:-}" ]; then
  rm -rf "$carry/thunder-main" && mkdir -p "$carry/thunder-main"
  git -C "$THUNDER_MAIN_REPO" archive HEAD thunder | tar -x -C "$carry/thunder-main"
  git -C "$THUNDER_MAIN_REPO" log -1 --format='%H %cd' > "$carry/thunder-main/COMMIT"
fi
fi
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/app" "$stage/lib"
cp "$build/app/thunder-wb" "$stage/app/"
ldd "$build/app/thunder-wb" | awk '/=> \// { print $3 }' | while read -r lib; do
  case $(basename "$lib") in
    libc.so*|libm.so*|libdl.so*|librt.so*|libpthread.so*|ld-linux*|libgcc_s.so*|libstdc++.so*|libcuda*) ;;
    *) cp -L "$lib" "$stage/lib/" ;;
  esac
done
strip --strip-unneeded "$stage"/lib/*.so* 2>/dev/null || true
tar -C "$stage" -czf "$carry/bundle.tgz" .
du -sh "$carry"/*
