#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/test_exports.sh: libgxbdist.so exports the public API and nothing else
# (cmake/gxbdist.map): its functions are exactly those declared in
# include/gxbdist.h, and every other symbol it defines is a GxB_* object (the
# predefined semirings and descriptor).  Internal names (GXD_*, GXO_*, the
# test hooks of graphblas_ext/gxd_test_hooks.h) must not leak out.
# usage: test_exports.sh libgxbdist.so include/gxbdist.h
set -eu
lib=$1
header=$2
command -v nm >/dev/null 2>&1 || { echo "nm not found (binutils): skipped"; exit 77; }

exported=$(nm -D --defined-only "$lib" | awk '$2 == "T" { print $3 }' | sort)
declared=$(sed -n 's/^GrB_Info \(GxB_[A-Za-z0-9_]*\).*/\1/p' "$header" | sort)
if [ "$exported" != "$declared" ]; then
  echo "exported functions (<) differ from the header's (>):"
  tmp=$(mktemp)
  printf '%s\n' "$exported" > "$tmp"
  printf '%s\n' "$declared" | diff "$tmp" - || true
  rm -f "$tmp"
  exit 1
fi
others=$(nm -D --defined-only "$lib" | awk '$2 != "T" && $3 !~ /^GxB_/ { print $3 }')
if [ -n "$others" ]; then
  echo "symbols that are not the public API: $others"
  exit 1
fi
echo "libgxbdist.so exports the $(printf '%s\n' "$declared" | wc -l) functions of gxbdist.h and GxB_* objects only"
