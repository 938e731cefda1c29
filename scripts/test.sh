#!/usr/bin/env bash
# The README's test command: installs what the build and tests need (Debian),
# builds gxbdist (with the CUDA backend when nvcc is present) and runs ctest.
# Exit status: non-zero when anything fails.
set -euo pipefail
cd "$(dirname "$0")/.."

SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
if ! dpkg -s libgraphblas-dev libcmocka-dev cmake valgrind >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    build-essential cmake pkg-config libgraphblas-dev libcmocka-dev valgrind >/dev/null
fi
# the Python package's tests (ctest test_python) run when these are present
if ! dpkg -s python3-numpy python3-scipy python3-sklearn python3-pytest >/dev/null 2>&1; then
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq \
    python3-numpy python3-scipy python3-sklearn python3-pytest >/dev/null
fi

# CUDA 13 lives in /usr/local/cuda when installed: compile the CUDA backend then
if [ -x /usr/local/cuda/bin/nvcc ]; then export PATH=/usr/local/cuda/bin:$PATH; fi

BUILD=${GXBDIST_BUILD:-build-test}
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j"$(nproc)"
cd "$BUILD"
ctest --output-on-failure -j"$(nproc)"
