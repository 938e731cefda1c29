#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# mpi/run_bench_gpus.sh: GxB_kNN_MPI on 1..P GPUs of one machine, one rank
# each (docs/mpi.md, "Measured on two GPUs").  Builds bench_knn_mpi with
# CUDA and MPI (Debian's GraphBLAS .debs in .debs/ and Open MPI's in
# .debs-mpi/, unpacked into a prefix as scripts/device.sh does), makes the
# paper's shapes at full size with seed_shapes.py (SEED_SHAPES, default
# ../shared/datasets/seed_shapes.py) as .csr files, and runs
#   mpiexec -np P mpi/gpu_per_rank.sh build/mpi/bench_knn_mpi SHAPE.csr 10 METRIC
# for P = 1 .. the GPUs present.  Output: bench_knn_mpi's lines, then a
# table of each shape's time on P GPUs and its speedup over one.
#   usage: mpi/run_bench_gpus.sh [SHAPE ...]   (default: movielens nytimes)
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
deps=${GXD_DEPS:-/tmp/deps}
build=${GXD_BUILD:-build-mpi}
data=${GXD_DATA:-/tmp/gxd_shapes}
shapes=${SEED_SHAPES:-../shared/datasets/seed_shapes.py}
metric=${METRIC:-manhattan}
mkdir -p "$deps" "$data"
export PATH=/usr/local/cuda/bin:$PATH
for f in .debs/*.deb .debs-mpi/*.deb; do dpkg -x "$f" "$deps"; done
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-} OPAL_PREFIX=$deps/usr
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GXBDIST_BACKEND=gpu
py=""
for p in $(which -a python3 2>/dev/null); do
  if "$p" -c "import numpy, scipy" 2>/dev/null; then py=$p; break; fi
done
[ -n "$py" ] || { echo "no python3 with numpy and scipy"; exit 1; }
set -- ${@:-movielens nytimes}
# the shapes meanwhile
( for s in "$@"; do
    [ -f "$data/$s.csr" ] || { "$py" "$shapes" "$s" "$data/$s.npz" && "$py" bench/seed_to_csr.py "$data/$s.npz" "$data/$s.csr"; rm -f "$data/$s.npz"; }
  done ) > "$data/make.log" 2>&1 &
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release -DGXBDIST_TESTS=OFF \
    -DGRAPHBLAS_ROOT="$deps/usr" -DCMAKE_PREFIX_PATH="$deps/usr" \
    -DMPI_C_COMPILER="$deps/usr/bin/mpicc.openmpi" \
    -DMPIEXEC_EXECUTABLE="$deps/usr/bin/mpiexec.openmpi" > "$data/cmake.log" 2>&1 \
  && cmake --build "$build" -j "$(nproc)" --target bench_knn_mpi > "$data/build.log" 2>&1 \
  || { echo "build failed"; tail -20 "$data/build.log"; exit 1; }
wait
cat "$data/make.log"
gpus=$(nvidia-smi -L | wc -l)
nvidia-smi -L
declare -A t
for s in "$@"; do
  for ((np = 1; np <= gpus; np++)); do
    line=$(timeout 300 "$deps/usr/bin/mpiexec.openmpi" --oversubscribe -np $np \
        mpi/gpu_per_rank.sh "$build/mpi/bench_knn_mpi" "$data/$s.csr" 10 "$metric" 2>&1 \
        | grep "ranks, ")
    echo "$s: $line"
    t[$s,$np]=$(echo "$line" | sed -n 's/.*GxB_kNN_MPI \([0-9.]*\) s.*/\1/p')
  done
done
echo
echo "| shape | GPUs | GxB_kNN_MPI s | speedup over 1 GPU |"
echo "|---|---|---|---|"
for s in "$@"; do
  for ((np = 1; np <= gpus; np++)); do
    echo "| $s | $np | ${t[$s,$np]} | $(awk -v a="${t[$s,1]}" -v b="${t[$s,$np]}" 'BEGIN { if (b > 0) printf "%.2f", a / b }') |"
  done
done
