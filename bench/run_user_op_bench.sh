#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/run_user_op_bench.sh: a user's operator against the built-in metric
# it equals (bench/user_op_bench.c), on the CPU backend and, where a GPU is
# present, on the GPU backend, in one command.
#
# usage: bench/run_user_op_bench.sh [FILE.mtx[.gz] ...]
#   with no file: the bundled data/fortunes.mtx.gz.  A synthetic
#   MovieLens-like matrix (20K x 20K, d = 60: bench/cpu_bench.c gen) is
#   always added; SYNTH=0 leaves it out.
# env: ROWS_CPU (rows of A on the CPU, default 2000), ROWS_GPU (default 0:
#   all), REPS (best of, default 3), GXBDIST_BUILD (build folder, default
#   build-bench), OUT (results folder, default $GXBDIST_BUILD/user_op_results).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${GXBDIST_BUILD:-$ROOT/build-bench}
OUT=${OUT:-$BUILD/user_op_results}
ROWS_CPU=${ROWS_CPU:-2000}
ROWS_GPU=${ROWS_GPU:-0}
REPS=${REPS:-3}
mkdir -p "$OUT"
if [ -x /usr/local/cuda/bin/nvcc ]; then PATH=/usr/local/cuda/bin:$PATH; export PATH; fi
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGXBDIST_TESTS=OFF \
  ${CMAKE_ARGS:-} >/dev/null
cmake --build "$BUILD" -j "$(nproc)" --target user_op_bench cpu_bench >/dev/null
# compiled operators of the benchmark: a cache of its own
GXBDIST_CACHE_DIR=$OUT/jit-cache
export GXBDIST_CACHE_DIR
files="$*"
if [ -z "$files" ]; then files="$ROOT/data/fortunes.mtx.gz"; fi
if [ "${SYNTH:-1}" != 0 ]; then
  synth="$OUT/movielens_like.mtx"
  [ -f "$synth" ] || "$BUILD/bench/cpu_bench" gen "$synth" 20000 20000 60 1 >/dev/null
  files="$files $synth"
fi
echo "== CPU backend ($(nproc) cores)"
"$BUILD/bench/user_op_bench" --backend cpu --rows "$ROWS_CPU" --reps "$REPS" \
  $files | tee "$OUT/cpu.txt"
if nvidia-smi -L >/dev/null 2>&1; then
  echo "== GPU backend"
  "$BUILD/bench/user_op_bench" --backend gpu --rows "$ROWS_GPU" --reps "$REPS" \
    --pointer-budget 10 $files | tee "$OUT/gpu.txt"
fi
