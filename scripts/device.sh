#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# scripts/device.sh: the whole GPU proof in one run on a CUDA machine
# (issue 8).  Needs the Debian .debs of SuiteSparse:GraphBLAS and cmocka in
# .debs/ (mkdir -p .debs && cd .debs && apt-get download libgraphblas7
# libgraphblas-dev libcmocka0 libcmocka-dev) and the datasets in .carry/
# (fortunes, wordnet_lemma_3grams, debian_depends .mtx.gz from
# ../shared/datasets).  Steps:
#   1. unpack the .debs into a prefix (no root, no network needed)
#   2. build the library, its tests and the GPU check/benchmark
#      (bench/gpu_bench.cu) with CUDA, one CMake build
#   3. ctest with GXBDIST_BACKEND=gpu, gpu_check (gpu_bench check) included
#   4. every metric x FP32/FP64 x strategy against a double union loop,
#      and bitwise determinism over repeated runs: gpu_check's results
#      (run by itself when ctest did not get to it)
#   5. all pairs into host memory against the pinned link's own rate, and
#      user operators (compiled by NVRTC) against the built-in metrics
#   6. GxB_kNN_MPI with 2 ranks sharing the GPU (Open MPI's .debs in
#      .debs-mpi/: apt-get download openmpi-bin openmpi-common libopenmpi3
#      libopenmpi-dev and the libraries they need, docs/mpi.md)
#   7. the Python package's tests with the GPU backend, and its
#      kneighbors_graph (GPU) against scikit-learn on the machine's cores,
#      with a python3 that has numpy, scipy, scikit-learn and pytest
# and prints a short summary last.  The benchmarks take calls of their own
# (bench/run_knn_bench.sh; gpu_bench bench .carry).
# Logs go to build-dev/logs, or to $OUT (if set) as one logs.tgz.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
deps=${GXD_DEPS:-/tmp/deps}
build=${GXD_BUILD:-build-dev}
logs=${OUT:-$build/logs}
mkdir -p "$deps" "$build" "$logs"
export PATH=/usr/local/cuda/bin:$PATH
jobs=$(nproc)
declare -A result

step () { echo; echo "=== $* ($(date +%T))"; }

step "unpack .debs into $deps"
for f in .debs/*.deb; do dpkg -x "$f" "$deps"; done
export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
ls "$deps/usr/include/GraphBLAS.h" "$deps/usr/include/cmocka.h" || exit 1
# Open MPI from Debian's .debs in .debs-mpi/ (when carried), relocated by
# OPAL_PREFIX: libgxbdist_mpi and its tests are built and run too
mpi_args=()
if ls .debs-mpi/*.deb > /dev/null 2>&1; then
  for f in .debs-mpi/*.deb; do dpkg -x "$f" "$deps"; done
  export OPAL_PREFIX=$deps/usr
  mpi_args=(-DMPI_C_COMPILER="$deps/usr/bin/mpicc.openmpi"
            -DMPIEXEC_EXECUTABLE="$deps/usr/bin/mpiexec.openmpi")
fi
# user operators compiled by the tests and benchmarks: a fresh cache
export GXBDIST_CACHE_DIR=$build/jit-cache

step "build: library, tests and gpu_bench (CMake, CUDA)"
if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DGRAPHBLAS_ROOT="$deps/usr" -DCMAKE_PREFIX_PATH="$deps/usr" "${mpi_args[@]}" \
      > "$logs/cmake.log" 2>&1 \
   && cmake --build "$build" -j "$jobs" > "$logs/build.log" 2>&1; then
  result[build]="ok"
else
  result[build]="FAILED"; tail -n 5 "$logs/cmake.log"; grep -B2 -A4 -E "error|fatal" "$logs/build.log" | head -30
fi
grep -i "CUDA backend" "$logs/cmake.log"
bench=$build/bench/gpu_bench
if [ -x "$bench" ]; then result[gpu_bench]="built ($bench)"
else result[gpu_bench]="not built (CUDA backend off?)"; fi

step "ctest with GXBDIST_BACKEND=gpu"
rm -f "$build/Testing/Temporary/LastTest.log"    # step 4 reads this run's
if [ "${result[build]}" = ok ]; then
  # the whole step is capped so the script fits one 10-minute device call
  (cd "$build" && GXBDIST_BACKEND=gpu timeout ${GXD_CTEST_LIMIT:-240} \
      ctest --output-on-failure -j 6 --timeout 200 -E memcheck) > "$logs/ctest.log" 2>&1
  rc=$?
  tail -25 "$logs/ctest.log"
  result[ctest]="$(grep -E 'tests passed|tests failed' "$logs/ctest.log" | tail -1) (rc $rc)"
  if [ $rc -eq 124 ]; then
    # the cap stopped ctest: the suites it had started and not finished
    # (each suite's own TIMEOUT is longer than the cap, so ctest names none)
    unfinished=$(comm -23 \
      <(grep -oE 'Start +[0-9]+: [A-Za-z0-9_]+' "$logs/ctest.log" | awk '{print $3}' | sort) \
      <(grep -oE 'Test +#[0-9]+: [A-Za-z0-9_]+' "$logs/ctest.log" | awk '{print $3}' | sort) | tr '\n' ' ')
    result[ctest]="${result[ctest]} stopped at ${GXD_CTEST_LIMIT:-240} s; unfinished: $unfinished"
  fi
else
  result[ctest]="not run (build failed)"
fi

step "GPU check: every metric x type x strategy vs double union loop; determinism"
# gpu_check's block of ctest's full log from the step above (its output,
# then ctest's verdict); run by itself when ctest did not get to it
awk '/ Test: gpu_check$/ { on = 1 } on { print } on && /^Test (Passed|Failed)/ { exit }' \
    "$build/Testing/Temporary/LastTest.log" > "$logs/check.log" 2>/dev/null
if grep -q '^checks:' "$logs/check.log"; then
  rc="ctest: $(grep -E '^Test (Passed|Failed)' "$logs/check.log" | tail -1)"
elif [ -x "$bench" ]; then
  "$bench" check > "$logs/check.log" 2>&1
  rc="rc $?"
fi
if grep -q '^checks:' "$logs/check.log"; then
  grep -E "^FAIL" "$logs/check.log" | head -20
  grep -E "^checks:|^determinism" "$logs/check.log"
  result[check]="$(grep '^checks:' "$logs/check.log") ($rc)"
  result[determinism]="$(grep -c 'bitwise identical' "$logs/check.log") of $(grep -c '^determinism' "$logs/check.log") metrics bitwise identical over 3 runs"
else
  result[check]="not run"; result[determinism]="not run"
fi

step "more than 2^31 intermediate products and more than 2^31 outputs"
if [ -x "$bench" ]; then
  "$bench" big .carry > "$logs/big.log" 2>&1
  rc=$?
  grep "^big" "$logs/big.log"
  result[big]="$(grep -c 'sampled pairs: 0 wrong' "$logs/big.log") of 3 cases right (rc $rc)"
else
  result[big]="not run"
fi

step "end to end: all pairs into host memory vs the pinned link"
if [ -x "$bench" ]; then
  timeout 120 "$bench" e2e > "$logs/e2e.log" 2>&1
  cat "$logs/e2e.log"
  result[e2e]="$(grep '^e2e summary' "$logs/e2e.log" | sed 's/^e2e summary: //')"
else
  result[e2e]="not run"
fi

step "user operators on the GPU against the built-in metrics they equal"
if [ -x "$build/bench/user_op_bench" ]; then
  sets="data/fortunes.mtx.gz"
  [ -f .carry/wordnet_lemma_3grams.mtx.gz ] && sets="$sets .carry/wordnet_lemma_3grams.mtx.gz"
  timeout 180 "$build/bench/user_op_bench" --backend gpu --rows 0 --reps 3 \
    --pointer-budget 2 $sets > "$logs/user_ops.log" 2>&1
  rc=$?
  grep -E "^\| |^LATENCY" "$logs/user_ops.log"
  # the all-pairs table's rows (ten fields), then the kNN table's (eight)
  result[user_ops]="compiled / built-in: $(grep -E '^\| [^d-]' "$logs/user_ops.log" \
    | awk -F'|' 'NF == 10 { printf "%s%s %s", sep, $3, $6 ; sep = "," }') (rc $rc)"
  result[user_knn]="kNN compiled / built-in (first call, ms): $(grep -E '^\| [^d-]' \
    "$logs/user_ops.log" | awk -F'|' 'NF == 8 { printf "%s%s%s %s (%s)", sep, $2, $3, $6, $7 ; sep = "," }' \
    | tr -s ' ')"
else
  result[user_ops]="not built"
fi

step "MPI: 2 ranks sharing the GPU against GxB_kNN (docs/mpi.md)"
if [ -x "$build/mpi/test_knn_mpi" ]; then
  OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 GXBDIST_BACKEND=gpu \
    timeout 120 "$deps/usr/bin/mpiexec.openmpi" --oversubscribe -np 2 \
    "$build/mpi/test_knn_mpi" .carry/fortunes.mtx.gz > "$logs/mpi.log" 2>&1
  rc=$?
  tail -5 "$logs/mpi.log"
  result[mpi]="2 ranks on one GPU: rc $rc"
else
  result[mpi]="not built (no .debs-mpi)"
fi

step "Python: the package's tests on the GPU, kneighbors_graph against scikit-learn"
# ctest's test_python runs /usr/bin/python3, which may lack numpy here: the
# first python3 on PATH with numpy, scipy, scikit-learn and pytest runs it
py=""
for p in $(which -a python3 2>/dev/null); do
  if "$p" -c "import numpy, scipy, sklearn, pytest" 2>/dev/null; then py=$p; break; fi
done
if [ -n "$py" ] && [ "${result[build]}" = ok ]; then
  export GXBDIST_LIBRARY="$(cd "$build" && pwd)/libgxbdist.so" PYTHONPATH=$root/python PYTHONDONTWRITEBYTECODE=1
  GXBDIST_BACKEND=gpu timeout 200 "$py" python/tests/run_pytest.py > "$logs/python.log" 2>&1
  rc=$?
  tail -3 "$logs/python.log"
  result[python]="$(grep -E '[0-9]+ passed' "$logs/python.log" | tail -1) ($py, rc $rc)"
  timeout 120 "$py" python/bench_knn.py --backend gpu --metrics cosine,manhattan --reps 1 \
    data/fortunes.mtx.gz > "$logs/python_bench.log" 2>&1
  grep "^RESULT" "$logs/python_bench.log"
  unset GXBDIST_LIBRARY PYTHONPATH
else
  result[python]="not run (no python3 with numpy, scipy, scikit-learn and pytest)"
fi

step "summary"
for k in build gpu_bench ctest check determinism big e2e user_ops user_knn mpi python; do
  printf '%-12s %s\n' "$k" "${result[$k]:-}"
done
echo
# the logs as one file where $OUT takes them (the device tool brings back
# a few files at most)
if [ -n "${OUT:-}" ] && ls "$logs"/*.log > /dev/null 2>&1; then
  (cd "$logs" && tar czf logs.tgz ./*.log && rm -f ./*.log)
  echo "logs: $logs/logs.tgz"
fi
# the benchmarks: bench/run_knn_bench.sh (kNN, issue 17) and
# "$bench" bench .carry (all pairs, docs/benchmarks.md), each one call
