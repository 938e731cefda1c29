#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# bench/run_cpu_bench.sh: the CPU backend vs scikit-learn vs the SuiteSparse
# reference, on the same data and the same number of cores, in one command.
#
# usage: bench/run_cpu_bench.sh [DIR | FILE.mtx[.gz] | NAME=FILE] ...
#   DIR: a dataset folder such as ../shared/datasets (its fortunes,
#   wordnet_lemma_3grams, debian_depends, wordnet_glosses_tfidf and
#   fashion_mnist_test .mtx.gz are used when present).  With no argument, the
#   bundled data/fortunes.mtx.gz.  A synthetic MovieLens-like matrix (20K x
#   20K, d = 60; bench/cpu_bench.c) is always added; SYNTH=0 leaves it out.
# env: THREADS (default: nproc), PAIRS (output pairs per slice, default 2e7;
#   A = the first PAIRS/n rows of each matrix, or fewer where their
#   intersection products pass PRODUCTS, default 3e8; B = all rows), METRICS
#   (cpu_bench list), REF_BUDGET (seconds per reference slice, default 2),
#   ROUNDS (repeat everything, keep the fastest of each measurement; 1),
#   KEEP=1 (add rounds to the results of an earlier run in OUT),
#   GXBDIST_BUILD (build folder, default build-bench), OUT (results folder,
#   default $GXBDIST_BUILD/bench_results).
# Needs: cmake, gcc, libgraphblas-dev, and /usr/bin/python3 with Debian's
# python3-sklearn (apt-get install python3-sklearn).
set -eu
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${GXBDIST_BUILD:-$ROOT/build-bench}
OUT=${OUT:-$BUILD/bench_results}
THREADS=${THREADS:-$(nproc)}
PAIRS=${PAIRS:-2e7}
PRODUCTS=${PRODUCTS:-3e8}
ROUNDS=${ROUNDS:-1}
REF_BUDGET=${REF_BUDGET:-2}
METRICS=${METRICS:-MANHATTAN,COSINE,EUCLIDEAN,CANBERRA,CHEBYSHEV,JENSEN_SHANNON}
PY=/usr/bin/python3

echo "== building ($BUILD)"
# the CPU backend is what is measured: no CUDA build needed
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGXBDIST_TESTS=OFF \
  -DGXBDIST_CUDA=OFF >/dev/null
cmake --build "$BUILD" -j "$THREADS" --target cpu_bench >/dev/null
mkdir -p "$OUT"

# the datasets
FILES=""
if [ $# -eq 0 ]; then
  FILES="fortunes=$ROOT/data/fortunes.mtx.gz"
fi
for a in "$@"; do
  if [ -d "$a" ]; then
    for d in fortunes wordnet_lemma_3grams debian_depends wordnet_glosses_tfidf fashion_mnist_test; do
      [ -f "$a/$d.mtx.gz" ] && FILES="$FILES $d=$a/$d.mtx.gz"
    done
  else
    FILES="$FILES $a"
  fi
done
if [ "${SYNTH:-1}" != 0 ]; then
  SYN="$OUT/movielens_like.mtx"
  [ -f "$SYN" ] || "$BUILD/bench/cpu_bench" gen "$SYN" 20000 20000 60 1
  FILES="$FILES movielens_like=$SYN"
fi

# the machine
MODEL=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
CORES=$(nproc)
MEM=$(free -g | awk '/^Mem:/ {print $2 " GiB"}')
OS=$(. /etc/os-release && echo "$PRETTY_NAME")
GRB=$(dpkg-query -W -f='${Version}' libgraphblas-dev 2>/dev/null || echo "?")
SKL=$(dpkg-query -W -f='${Version}' python3-sklearn 2>/dev/null || echo "?")
CC=$(gcc --version | head -1)
[ "${KEEP:-0}" = 1 ] || : > "$OUT/machine.txt"
{
  echo "machine: $MODEL, $CORES cores, $MEM, $OS"
  echo "threads: $THREADS (gxbdist OpenMP, GraphBLAS, scikit-learn n_jobs)"
  echo "software: SuiteSparse:GraphBLAS $GRB, scikit-learn $SKL, $CC"
  echo "slices: A = first min(m, PAIRS/n) rows (fewer where their intersection products pass PRODUCTS), B = all rows, PAIRS=$PAIRS, PRODUCTS=$PRODUCTS; gxbdist FP32"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg) (other work on the machine slows every column alike)"
} | tee -a "$OUT/machine.txt"

# per dataset, gxbdist + SuiteSparse then scikit-learn on the same slice, so
# that both see the same machine; ROUNDS > 1 repeats it all and the table
# keeps the fastest of each measurement
# KEEP=1 adds rounds to the results already in $OUT (without the reference)
if [ "${KEEP:-0}" != 1 ]; then
  : > "$OUT/cpu_bench.tsv"
  : > "$OUT/sklearn.tsv"
fi
round=1
while [ "$round" -le "$ROUNDS" ]; do
  REF="--ref-budget $REF_BUDGET"
  # the reference: first round only
  if [ "$round" -gt 1 ] || [ "${KEEP:-0}" = 1 ]; then REF="--no-ref"; fi
  for f in $FILES; do
    echo "== round $round/$ROUNDS: $f"
    # shellcheck disable=SC2086
    OMP_NUM_THREADS=$THREADS "$BUILD/bench/cpu_bench" run --threads "$THREADS" \
      --pairs "$PAIRS" --products "$PRODUCTS" --metrics "$METRICS" $REF \
      "$f" | tee "$OUT/last.tsv"
    cat "$OUT/last.tsv" >> "$OUT/cpu_bench.tsv"
    $PY "$ROOT/bench/sklearn_bench.py" --threads "$THREADS" \
      --rows-from "$OUT/last.tsv" "$f" | tee -a "$OUT/sklearn.tsv"
  done
  round=$((round + 1))
done

echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/machine.txt"
echo
echo "== results (ms per 10^6 output pairs)"
cat "$OUT/machine.txt"
echo
$PY "$ROOT/bench/bench_table.py" "$OUT/cpu_bench.tsv" "$OUT/sklearn.tsv" \
  | tee "$OUT/table.md"
