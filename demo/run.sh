#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# demo/run.sh: the README's main job on a fresh Debian machine, in one command:
# installs the build dependencies (apt-get), configures and builds gxbdist and
# the demo and the gxbdist command, runs the demo on the bundled
# data/fortunes.mtx.gz (nearest quotes by cosine, Jaccard and Manhattan
# distance; a sampled product; verify mode against the SuiteSparse
# reference), then the end-to-end job: the 3 nearest quotes of every quote
# (gxbdist knn, all 15,217 rows, the first ones shown).  GPU if present,
# else CPU.  Extra arguments go to the demo: [matrix.mtx.gz [row ...]].
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${GXBDIST_BUILD:-$ROOT/build-demo}
PKGS="build-essential cmake libgraphblas-dev libcmocka-dev pkg-config"

# dependencies: only when something is missing (so it also works offline)
missing=""
for p in $PKGS; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
if [ -n "$missing" ]; then
  SUDO=""
  [ "$(id -u)" -ne 0 ] && SUDO=sudo
  echo "== installing:$missing"
  $SUDO apt-get update
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y $PKGS
fi

# the CUDA backend only where a GPU answers (nvcc alone, with no GPU, would
# just make the build slower)
CUDA=OFF
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; then
  CUDA=ON
fi
echo "== building gxbdist ($BUILD, CUDA backend $CUDA)"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGXBDIST_TESTS=OFF \
  -DGXBDIST_CUDA=$CUDA >/dev/null
if ! cmake --build "$BUILD" -j "$(nproc)" --target gxbdist_demo gxbdist_cli \
    > "$BUILD/build.log" 2>&1; then
  cat "$BUILD/build.log"
  exit 1
fi

echo "== running the demo"
"$BUILD/demo/gxbdist_demo" "$@"

echo
echo "== gxbdist knn: the 3 nearest quotes of every quote (first 4 shown)"
OUTFILE="$BUILD/fortunes_knn.txt"
"$BUILD/cli/gxbdist" knn --metric cosine -k 3 --exclude-self --no-progress \
  --stats --format labels --labels "$ROOT/data/fortunes.rows.txt.gz" \
  -o "$OUTFILE" "$ROOT/data/fortunes.mtx.gz"
awk 'BEGIN { rows = 0 } /^$/ { rows++ ; if (rows == 4) exit } { print }' "$OUTFILE"
echo "(all rows: $OUTFILE)"
