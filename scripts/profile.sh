#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# scripts/profile.sh: Nsight Compute on one launch of the default kernel of
# each given metric (gpu_bench one), on a CUDA machine with ncu.
#   scripts/profile.sh SET METRIC... (e.g. movielens MANHATTAN COSINE)
# Environment: GXD_BENCH (a built gpu_bench; else scripts/device.sh's
# build-dev/bench/gpu_bench, else the CMake target is built in build-prof
# with SuiteSparse:GraphBLAS from GXD_DEPS, as device.sh unpacks it),
# GXD_NCU_KERNEL (kernel name regex, default k_intersect), GXD_KV (the
# intersection kernel variant to force, 1-3; default: by metric).
# Writes, per metric, to $OUT (or
# build-prof): the report (.ncu-rep), the details page and the per-SASS-
# instruction source page (executed instructions, stall samples) as CSV,
# and prints the headline numbers.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
set_name=$1; shift
out=${OUT:-$root/build-prof}
mkdir -p "$out"
export PATH=/usr/local/cuda/bin:$PATH
bench=${GXD_BENCH:-}
if [ -z "$bench" ] && [ -x "$root/build-dev/bench/gpu_bench" ]; then
  bench=$root/build-dev/bench/gpu_bench
fi
if [ -z "$bench" ]; then
  deps=${GXD_DEPS:-/tmp/deps}
  { cmake -S "$root" -B "$root/build-prof" -DCMAKE_BUILD_TYPE=Release \
      -DGRAPHBLAS_ROOT="$deps/usr" -DCMAKE_PREFIX_PATH="$deps/usr" \
    && cmake --build "$root/build-prof" --target gpu_bench -j "$(nproc)"; } \
    > "$out/build.log" 2>&1 || { tail -20 "$out/build.log"; exit 1; }
  bench=$root/build-prof/bench/gpu_bench
fi
kernel=${GXD_NCU_KERNEL:-k_intersect}
for metric in "$@"; do
  tag=${set_name}_${metric}_kv${GXD_KV:-d}
  rep=$out/$tag
  # skip the warm-up's launches: profile the second run's first tile
  ncu --kernel-name "regex:$kernel" --launch-skip 6 --launch-count 1 \
      --set full --import-source yes -f -o "$rep" \
      "$bench" one "$metric" "$set_name" "$root/.carry" "${GXD_KV:-0}" > "$rep.log" 2>&1 \
    || { tail -5 "$rep.log"; continue; }
  ncu -i "$rep.ncu-rep" --page details --csv > "$rep.details.csv" 2>/dev/null
  ncu -i "$rep.ncu-rep" --page source --csv --print-source sass > "$rep.sass.csv" 2>/dev/null
  echo "== $tag"
  grep -E '"(Duration|Executed Instructions|Registers Per Thread|Achieved Occupancy|Issue Slots Busy|Block Limit Registers|Block Limit Shared Mem)"' \
      "$rep.details.csv" | awk -F'","' '{print "  " $(NF-2) ": " $NF}' | tr -d '"'
done
