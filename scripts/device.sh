#!/bin/bash
# scripts/device.sh: the whole GPU proof in one run on a CUDA machine
# (issue 8).  Needs the Debian .debs of SuiteSparse:GraphBLAS and cmocka in
# .debs/ (mkdir -p .debs && cd .debs && apt-get download libgraphblas7
# libgraphblas-dev libcmocka0 libcmocka-dev) and the datasets in .carry/
# (fortunes, wordnet_lemma_3grams, debian_depends .mtx.gz from
# ../shared/datasets).  Steps:
#   1. unpack the .debs into a prefix (no root, no network needed)
#   2. build the library with CUDA (CMake) and, in parallel, the standalone
#      GPU check/benchmark (scripts/gpu_build.sh)
#   3. ctest with GXBDIST_BACKEND=gpu
#   4. every metric x FP32/FP64 x strategy against a double union loop,
#      and bitwise determinism over repeated runs (gpu_bench check)
#   5. compute-sanitizer (memcheck, racecheck) on a small case
#   6. the benchmark (peers, kernel variants, SPSV walks); a short summary
#      table is printed last
# Logs go to $OUT (if set) or build-dev/logs.
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

step "build: library (CMake, CUDA) and standalone GPU bench, in parallel"
GXD_NVCC_INC="-I$deps/usr/include" scripts/gpu_build.sh "$build/gpu" \
    > "$logs/gpu_build.log" 2>&1 &
gpu_build_pid=$!
if cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release \
      -DGRAPHBLAS_ROOT="$deps/usr" -DCMAKE_PREFIX_PATH="$deps/usr" \
      > "$logs/cmake.log" 2>&1 \
   && cmake --build "$build" -j "$jobs" > "$logs/build.log" 2>&1; then
  result[build]="ok"
else
  result[build]="FAILED"; tail -n 5 "$logs/cmake.log"; grep -B2 -A4 -E "error|fatal" "$logs/build.log" | head -30
fi
grep -i "CUDA backend" "$logs/cmake.log"
if wait $gpu_build_pid; then result[gpu_build]="ok"
else result[gpu_build]="FAILED"; tail -n 30 "$logs/gpu_build.log"; fi
bench=$build/gpu/gpu_bench

step "ctest with GXBDIST_BACKEND=gpu"
if [ "${result[build]}" = ok ]; then
  # the whole step is capped so the script fits one 10-minute device call
  (cd "$build" && GXBDIST_BACKEND=gpu timeout ${GXD_CTEST_LIMIT:-170} \
      ctest --output-on-failure -j 4 --timeout 150) > "$logs/ctest.log" 2>&1
  rc=$?
  tail -25 "$logs/ctest.log"
  result[ctest]="$(grep -E 'tests passed|tests failed' "$logs/ctest.log" | tail -1) (rc $rc)"
else
  result[ctest]="not run (build failed)"
fi

step "GPU check: every metric x type x strategy vs double union loop; determinism"
if [ -x "$bench" ]; then
  "$bench" check > "$logs/check.log" 2>&1
  rc=$?
  grep -E "^FAIL" "$logs/check.log" | head -20
  grep -E "^checks:|^determinism" "$logs/check.log"
  result[check]="$(grep '^checks:' "$logs/check.log") (rc $rc)"
  result[determinism]="$(grep -c 'bitwise identical' "$logs/check.log") of $(grep -c '^determinism' "$logs/check.log") metrics bitwise identical over 3 runs"
else
  result[check]="not run"; result[determinism]="not run"
fi

step "more than 2^31 intermediate products and more than 2^31 outputs"
if [ -x "$bench" ]; then
  "$bench" big .carry > "$logs/big.log" 2>&1
  rc=$?
  grep "^big" "$logs/big.log"
  result[big]="$(grep -c 'sampled pairs: 0 wrong' "$logs/big.log") of 2 cases right (rc $rc)"
else
  result[big]="not run"
fi

step "compute-sanitizer on a small case"
if [ -x "$bench" ] && command -v compute-sanitizer > /dev/null; then
  san=""
  for tool in memcheck racecheck; do
    arg=""; [ $tool = memcheck ] && arg=full
    timeout 100 compute-sanitizer --tool $tool --error-exitcode 9 "$bench" small $arg \
        > "$logs/sanitizer_$tool.log" 2>&1
    rc=$?
    tail -3 "$logs/sanitizer_$tool.log"
    san="$san $tool: $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$logs/sanitizer_$tool.log" | tail -1 | sed 's/=* *//') (rc $rc);"
  done
  result[sanitizer]="$san"
else
  result[sanitizer]="not run"
fi

step "benchmark"
if [ -x "$bench" ]; then
  timeout 170 "$bench" bench .carry > "$logs/bench.log" 2>&1
  "$bench" e2e >> "$logs/bench.log" 2>&1
  cat "$logs/bench.log" | grep -v "^  "
  # the intersection kernel's variants and the SPSV's two walks
  timeout 150 "$bench" variants .carry > "$logs/variants.log" 2>&1
  timeout 60 "$bench" spsv .carry > "$logs/spsv.log" 2>&1
  sed -n '/^kernel variants/,$p' "$logs/variants.log"
  sed -n '/^SPSV walks/,$p' "$logs/spsv.log"
fi

step "summary"
for k in build gpu_build ctest check determinism big sanitizer; do
  printf '%-12s %s\n' "$k" "${result[$k]:-}"
done
echo
sed -n '/^ms per 10^6/,$p' "$logs/bench.log" 2>/dev/null
