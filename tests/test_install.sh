#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/test_install.sh: an installed gxbdist works where it is moved to.
# Installs the build tree into a fresh prefix, moves the prefix, and builds
# examples/quickstart.c against it twice, as a user would: with pkg-config
# (the .pc file names its prefix relative to itself) and with CMake's
# find_package (gxbdistConfig.cmake); each program must run and pass.
# usage: test_install.sh BUILD_DIR SOURCE_DIR C_COMPILER GRAPHBLAS_ROOT
# (GRAPHBLAS_ROOT: the prefix GraphBLAS was found under, for find_package)
set -eu
build=$1
src=$2
cc=$3
grb_root=$4
command -v pkg-config >/dev/null 2>&1 || { echo "pkg-config not found: skipped"; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/first" > "$tmp/install.log"
mv "$tmp/first" "$tmp/moved"
prefix=$tmp/moved
pc=$(dirname "$(find "$prefix" -name gxbdist.pc | head -1)")
libdir=$(PKG_CONFIG_PATH=$pc pkg-config --variable=libdir gxbdist)

# pkg-config
# shellcheck disable=SC2046
"$cc" -o "$tmp/quick_pc" "$src/examples/quickstart.c" \
  $(PKG_CONFIG_PATH=$pc pkg-config --cflags --libs gxbdist) -lm -Wl,-rpath,"$libdir"
"$tmp/quick_pc" > "$tmp/pc.out"
echo "pkg-config build of quickstart.c against the moved prefix: ran"

# CMake
mkdir -p "$tmp/proj"
cat > "$tmp/proj/CMakeLists.txt" <<CM
cmake_minimum_required(VERSION 3.18)
project(user C)
find_package(gxbdist REQUIRED)
add_executable(quick $src/examples/quickstart.c)
target_link_libraries(quick PRIVATE gxbdist::gxbdist m)
CM
cmake -S "$tmp/proj" -B "$tmp/proj/build" -DCMAKE_C_COMPILER="$cc" \
  -DCMAKE_PREFIX_PATH="$prefix;$grb_root" -DCMAKE_BUILD_RPATH="$libdir" > "$tmp/cmake.log" 2>&1 \
  || { cat "$tmp/cmake.log"; exit 1; }
cmake --build "$tmp/proj/build" > "$tmp/build.log" 2>&1 || { cat "$tmp/build.log"; exit 1; }
"$tmp/proj/build/quick" > "$tmp/cmake.out"
echo "find_package build of quickstart.c against the moved prefix: ran"
