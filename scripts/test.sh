#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The README's test command: installs what the build and tests need (Debian),
# builds gxbdist (with the CUDA backend when nvcc is present) and runs ctest;
# then builds a second tree with AddressSanitizer and UBSan (build-asan, CPU
# only) and runs every suite there but the valgrind ones (memcheck_*), with
# every sanitizer report fatal.  The library and the Matrix Market reader
# (tools/, on tests/mtx_corpus) are checked there for what valgrind
# does not see: stack and global overflows, undefined behaviour.  About two
# and a half minutes more on 2 cores; GXBDIST_ASAN=0 skips it.
# Exit status: non-zero when anything fails (both trees are run either way).
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
# MPI (Open MPI) builds libgxbdist_mpi and runs its tests (ctest mpi_*)
if ! dpkg -s libgraphblas-dev libcmocka-dev cmake valgrind libopenmpi-dev \
    openmpi-bin >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    build-essential cmake pkg-config libgraphblas-dev libcmocka-dev valgrind \
    libopenmpi-dev openmpi-bin >/dev/null
fi
# the Python package's tests (ctest test_python) run when these are present
if ! dpkg -s python3-numpy python3-scipy python3-sklearn python3-pytest >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    python3-numpy python3-scipy python3-sklearn python3-pytest >/dev/null
fi

# CUDA 13 lives in /usr/local/cuda when installed: compile the CUDA backend then
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi

# which backend the suites ran on: each prints "[ BACKEND  ] ..." at start
backends() {
  echo "== backends the suites of $1 ran on:"
  grep -h '^\[ BACKEND  \]' "$1/Testing/Temporary/LastTest.log" | sort | uniq -c | \
    sed 's/\[ BACKEND  \] //; s/^ *\([0-9]*\) /   \1 suites: /' || true
}

status=0
BUILD=${GXBDIST_BUILD:-build-test}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
(cd "$BUILD" && ctest --output-on-failure -j"$(nproc)") || status=1
backends "$BUILD"

# the sanitizer tree: RelWithDebInfo, as -O0 would double its time.  Leaks
# are errors (LeakSanitizer: libgomp and GraphBLAS leave nothing it reports,
# so no suppressions); halt_on_error makes the first report end the test.
if [ "${GXBDIST_ASAN:-1}" != 0 ]; then
  ASAN_BUILD=${GXBDIST_ASAN_BUILD:-build-asan}
  cmake -S . -B "$ASAN_BUILD" -DGXBDIST_CUDA=OFF -DGXBDIST_SANITIZE=ON \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  cmake --build "$ASAN_BUILD" -j"$(nproc)"
  (cd "$ASAN_BUILD" &&
   ASAN_OPTIONS=halt_on_error=1:detect_leaks=1:abort_on_error=0:check_initialization_order=1 \
   UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
   ctest --output-on-failure -j"$(nproc)" -E '^memcheck_') || status=1
  backends "$ASAN_BUILD"
fi
exit $status
