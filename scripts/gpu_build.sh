#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# Build the standalone GPU check/benchmark (bench/gpu_bench.cu + cuda/) with
# nvcc alone, no CMake or GraphBLAS library needed (GraphBLAS.h only):
#   scripts/gpu_build.sh OUTDIR [extra nvcc flags]
# Compiles the CUDA files in parallel; sm_90 + PTX like the CMake build.
set -euo pipefail
out=${1:-build-gpu}; shift || true
root=$(cd "$(dirname "$0")/.." && pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
mkdir -p "$out"
flags="-std=c++17 -O3 -lineinfo -gencode arch=compute_90,code=sm_90 -gencode arch=compute_90,code=compute_90 -I$root/cuda -I$root/metrics ${GXD_NVCC_INC:-} $*"
pids=()
# (gpu_user.cu, the user operators' NVRTC path, needs the library's JIT
# cache: the CMake build has it, this check does not time it)
for f in "$root"/cuda/*.cu "$root"/bench/gpu_bench.cu; do
  [ "$(basename "$f")" = gpu_user.cu ] && continue
  "$NVCC" $flags -c "$f" -o "$out/$(basename "$f").o" &
  pids+=($!)
done
gcc -O2 -c -I"$root/metrics" ${GXD_NVCC_INC:-} "$root/metrics/gxd_metric_table.c" -o "$out/table.o"
for p in "${pids[@]}"; do wait "$p"; done
"$NVCC" -gencode arch=compute_90,code=sm_90 -o "$out/gpu_bench" "$out"/*.o -lcusparse
echo "built $out/gpu_bench"
