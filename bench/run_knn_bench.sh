#!/bin/bash
# SPDX-License-Identifier: Apache-2.0
# bench/run_knn_bench.sh: the kNN benchmark of issue 17 in one command, for
# one 10-minute call on a CUDA machine (or, with --backend cpu, anywhere).
#
# The k = 10 nearest rows of every row among all rows, self excluded, FP32:
# gxbdist's GxB_kNN and all pairs into host memory (bench/knn_bench), the
# peers scikit-learn and CuPy/cuSPARSE (bench/knn_peers.py), on the seed
# paper's four shapes (made here by seed_shapes.py) and on the real sets in
# .carry/; the Markdown table (bench/knn_table.py) is printed last.
#
# usage: bench/run_knn_bench.sh [options]
#   --steps LIST     build,gen,gx,peers,table (default: all of them, in order)
#   --scale NAME=S   make seed shape NAME at scale S (rows and nonzeros x S;
#                    file NAME-xS.csr); repeatable.  Default: all four at 1
#   --sets LIST      datasets, in order (default: sec_edgar,movielens,
#                    nytimes,scrna,wordnet_glosses_tfidf,debian_depends,
#                    fortunes); a real set is CARRY/NAME.mtx.gz
#   --metrics LIST   (manhattan,cosine,jensenshannon,chebyshev) run in two
#                    passes over the sets: manhattan,cosine first (the V100
#                    anchors of every set), then the others
#   --backend B      gpu (default), cpu or auto
#   --budget S       knn_bench --budget: an all-rows kNN predicted (from its
#                    sample) to take more than S s is reported as the
#                    prediction instead (default 60)
#   --peer-budget S  knn_peers.py --budget (default 4 s of sample a case)
#   --total S        the whole run's deadline in seconds (default 480).  gx
#                    ends PEER_RESERVE s (default 200) before it, its first
#                    pass at 65 % of its time; each knn_bench gets a fair
#                    share of what is left of its pass (--deadline, a case
#                    --budget of 70 % of its share per metric, `timeout` +20
#                    s as a safety net) and reports a sampled estimate for
#                    an all-rows run that would not fit; each peer call gets
#                    at most 90 s; what does not fit is skipped and said so
#   --rows R         sample rows of knn_bench and the peers (default 2000)
#   --no-check       skip knn_bench --check (50 rows against a brute force)
# env: CARRY (.carry: seed_shapes.py and the real sets), KNN_BUILD (build
#   folder, default build-knn; kept between calls on a warm machine, with the
#   generated data in KNN_BUILD/data and every log in KNN_BUILD/logs), OUT
#   (the logs are copied there too), GXD_DEPS (/tmp/deps: where .debs/ is
#   unpacked when GraphBLAS.h is not installed), CMAKE_EXTRA (more cmake
#   arguments, e.g. -DGXBDIST_CUDA=OFF), PEER_RESERVE.
# Logs: knn_bench.log, peers.log (and per-step logs), table.md.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT" || exit 1
T0=$(date +%s)
STEPS=build,gen,gx,peers,table
SETS=sec_edgar,movielens,nytimes,scrna,wordnet_glosses_tfidf,debian_depends,fortunes
METRICS=manhattan,cosine,jensenshannon,chebyshev
BACKEND=gpu
BUDGET=60
PEER_BUDGET=4
TOTAL=480
ROWS=2000
CHECK=--check
declare -A SCALE=([sec_edgar]=1 [movielens]=1 [nytimes]=1 [scrna]=1)
while [ $# -gt 0 ]; do
  case "$1" in
    --steps) STEPS=$2; shift 2 ;;
    --scale) SCALE[${2%%=*}]=${2#*=}; shift 2 ;;
    --sets) SETS=$2; shift 2 ;;
    --metrics) METRICS=$2; shift 2 ;;
    --backend) BACKEND=$2; shift 2 ;;
    --budget) BUDGET=$2; shift 2 ;;
    --peer-budget) PEER_BUDGET=$2; shift 2 ;;
    --total) TOTAL=$2; shift 2 ;;
    --rows) ROWS=$2; shift 2 ;;
    --no-check) CHECK=""; shift ;;
    -h|--help) sed -n '2,/^set -uo/p' "$0" | sed '$d'; exit 0 ;;
    *) echo "run_knn_bench.sh: unknown option $1 (see --help)"; exit 2 ;;
  esac
done
CARRY=${CARRY:-$ROOT/.carry}
BUILD=${KNN_BUILD:-$ROOT/build-knn}
case "$BUILD" in /*) ;; *) BUILD=$ROOT/$BUILD ;; esac
DATA=$BUILD/data
LOGS=$BUILD/logs
OUTDIR=${OUT:-}
PEER_RESERVE=${PEER_RESERVE:-200}
DEADLINE=$((T0 + TOTAL))
GX_END=$((DEADLINE - PEER_RESERVE))
mkdir -p "$DATA" "$LOGS"
has () { case ",$STEPS," in *",$1,"*) return 0 ;; *) return 1 ;; esac; }
step () { echo; echo "=== $* ($(date +%T), $(( $(date +%s) - T0 )) s in)"; }
# seconds left before $1, at most $2
left () { local l=$(( $1 - $(date +%s) )); [ "$l" -gt "$2" ] && l=$2; echo "$l"; }
save () { [ -n "$OUTDIR" ] && mkdir -p "$OUTDIR" && cp -f "$@" "$OUTDIR"/ 2>/dev/null; true; }

# the file of each set (seed shapes: NAME.csr at scale 1, NAME-xS.csr else)
file_of () {
  local s=${SCALE[$1]:-}
  if [ -n "$s" ]; then
    if [ "$s" = 1 ] || [ "$s" = 1.0 ]; then echo "$DATA/$1.csr"
    else echo "$DATA/$1-x$s.csr"; fi
  else
    echo "$DATA/$1.csr"
  fi
}
# run "$@" under timeout $2 s (killed 5 s later), its output in last.log;
# the lines that start with the pattern $3 (and a timeout's) go to LOGS/$1
boxed () {
  local log=$1 secs=$2 keep=$3
  shift 3
  timeout -k 5 "$secs" "$@" > "$LOGS/last.log" 2>&1
  [ $? -eq 124 ] && echo "TIMEOUT after $secs s: $(basename "${!#}") ($1)" >> "$LOGS/last.log"
  grep -E "^(TIMEOUT|$keep)" "$LOGS/last.log" | tee -a "$LOGS/$log"
}
# a python3 that imports all of $1 (python3 on PATH first, then Debian's)
python_with () {
  local py
  for py in python3 /usr/bin/python3 /usr/local/bin/python3; do
    command -v "$py" > /dev/null 2>&1 || continue
    "$py" -c "import $1" > /dev/null 2>&1 && { echo "$py"; return 0; }
  done
  return 1
}

step "machine"
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo "commit: $(git -C "$ROOT" log -1 --format='%h %s' 2>/dev/null | cut -c1-100)"
  echo "cpu: $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores, $(free -g | awk '/^Mem:/ {print $2 " GiB"}')"
  command -v nvidia-smi > /dev/null && nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | sed 's/^/gpu: /'
  echo "settings: steps $STEPS; sets $SETS; metrics $METRICS; backend $BACKEND; budget $BUDGET s; peer budget $PEER_BUDGET s; rows $ROWS; total $TOTAL s"
  for n in sec_edgar movielens nytimes scrna; do echo "scale $n ${SCALE[$n]}"; done
} | tee "$LOGS/machine.txt"

#------------------------------------------------------------------------------
# gen (in the background, while the library builds)
#------------------------------------------------------------------------------
GEN_PIDS=""
if has gen; then
  step "gen: seed shapes and real sets into $DATA (background)"
  PYG=$(python_with "numpy, scipy") || { echo "no python3 with numpy and scipy"; PYG=""; }
  for n in ${SETS//,/ }; do
    f=$(file_of "$n")
    if [ -s "$f" ]; then echo "$n: $f already there"; continue; fi
    [ -n "$PYG" ] || continue
    if [ -n "${SCALE[$n]:-}" ]; then
      if [ ! -f "$CARRY/seed_shapes.py" ]; then echo "$n: no $CARRY/seed_shapes.py"; continue; fi
      ( "$PYG" "$CARRY/seed_shapes.py" "$n" "$f.npz" --scale "${SCALE[$n]}" \
        && "$PYG" bench/seed_to_csr.py "$f.npz" "$f"; rm -f "$f.npz" ) \
        > "$LOGS/gen_$n.log" 2>&1 &
      GEN_PIDS="$GEN_PIDS $!"
    elif [ -f "$CARRY/$n.mtx.gz" ]; then
      "$PYG" bench/seed_to_csr.py "$CARRY/$n.mtx.gz" "$f" > "$LOGS/gen_$n.log" 2>&1 &
      GEN_PIDS="$GEN_PIDS $!"
    else
      echo "$n: neither a seed shape nor $CARRY/$n.mtx.gz: left out"
    fi
  done
fi

#------------------------------------------------------------------------------
# build: the library (CUDA when the backend is gpu) and knn_bench
#------------------------------------------------------------------------------
BIN=$BUILD/bench/knn_bench
# SuiteSparse:GraphBLAS: installed, or the .debs unpacked (no root needed)
GRB_ARGS=""
if [ ! -f /usr/include/GraphBLAS.h ] && [ ! -f /usr/include/suitesparse/GraphBLAS.h ]; then
  deps=${GXD_DEPS:-/tmp/deps}
  mkdir -p "$deps"
  [ -f "$deps/usr/include/GraphBLAS.h" ] || for f in .debs/libgraphblas*.deb; do dpkg -x "$f" "$deps"; done
  GRB_ARGS="-DGRAPHBLAS_ROOT=$deps/usr -DCMAKE_PREFIX_PATH=$deps/usr"
  export LD_LIBRARY_PATH=$deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
fi
if has build; then
  step "build: knn_bench in $BUILD"
  export PATH=/usr/local/cuda/bin:$PATH
  # shellcheck disable=SC2086
  if cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DGXBDIST_TESTS=OFF \
        $GRB_ARGS ${CMAKE_EXTRA:-} > "$LOGS/cmake.log" 2>&1 \
     && cmake --build "$BUILD" -j "$(nproc)" --target knn_bench > "$LOGS/build.log" 2>&1; then
    grep -i "CUDA backend" "$LOGS/cmake.log"
    echo "built: $BIN"
  else
    echo "BUILD FAILED"; tail -5 "$LOGS/cmake.log"; grep -B2 -A4 -E "error|fatal" "$LOGS/build.log" | head -30
  fi
  if [ "$BACKEND" = gpu ] && ! grep -q "CUDA backend ON" "$LOGS/cmake.log"; then
    echo "WARNING: the library was built without CUDA: knn_bench --backend gpu will refuse"
  fi
fi
if [ -n "$GEN_PIDS" ]; then
  step "gen: waiting for the datasets"
  # shellcheck disable=SC2086
  wait $GEN_PIDS
  for n in ${SETS//,/ }; do [ -f "$LOGS/gen_$n.log" ] && tail -2 "$LOGS/gen_$n.log"; done
fi
FILES=""
for n in ${SETS//,/ }; do
  f=$(file_of "$n")
  if [ -s "$f" ]; then FILES="$FILES $f"; else echo "$n: no $f: left out"; fi
done

#------------------------------------------------------------------------------
# gx: knn_bench, manhattan and cosine over every set first, then the rest
#------------------------------------------------------------------------------
if has gx; then
  step "gx: knn_bench --backend $BACKEND (log: knn_bench.log)"
  : > "$LOGS/knn_bench.log"
  first=$(echo "$METRICS" | tr ',' '\n' | grep -E '^(manhattan|cosine)$' | paste -sd, -)
  rest=$(echo "$METRICS" | tr ',' '\n' | grep -vE '^(manhattan|cosine)$' | paste -sd, -)
  nfiles=$(echo "$FILES" | wc -w)
  # the first pass may use 65 % of the time left when there is a second
  now=$(date +%s)
  P1_END=$GX_END
  [ -n "$first" ] && [ -n "$rest" ] && P1_END=$(( now + (GX_END - now) * 65 / 100 ))
  for pass in "$first" "$rest"; do
    [ -n "$pass" ] || continue
    end=$GX_END
    [ "$pass" = "$first" ] && end=$P1_END
    nm=$(echo "$pass" | tr ',' '\n' | wc -l)
    todo=$nfiles
    for f in $FILES; do
      # a fair share of what is left of the pass (what a set leaves unused
      # goes to the next); knn_bench reports a sampled estimate for what
      # would not fit (--deadline, --budget), timeout is the safety net
      lp=$(left "$end" 100000)
      t=$(( lp / todo ))
      todo=$((todo - 1))
      # at least 15 s while the pass has them
      [ "$t" -lt 15 ] && t=$(( lp < 15 ? lp : 15 ))
      if [ "$t" -lt 10 ]; then
        echo "SKIPPED (no time left): $(basename "$f") $pass" | tee -a "$LOGS/knn_bench.log"
        continue
      fi
      b=$(( t * 7 / (10 * nm) ))
      [ "$b" -gt "$BUDGET" ] && b=$BUDGET
      [ "$b" -lt 1 ] && b=1
      # shellcheck disable=SC2086
      boxed knn_bench.log $((t + 20)) "KNN|DATA|FAIL|CHECK|INFO|knn_bench" \
        "$BIN" --backend "$BACKEND" --k 10 --metrics "$pass" --rows "$ROWS" \
        --budget "$b" --deadline "$t" $CHECK "$f"
    done
  done
  save "$LOGS/knn_bench.log"
fi

#------------------------------------------------------------------------------
# peers: scikit-learn (manhattan, cosine) and CuPy/cuSPARSE (cosine)
#------------------------------------------------------------------------------
if has peers; then
  step "peers (log: peers.log)"
  : > "$LOGS/peers.log"
  PYS=$(python_with "numpy, scipy, sklearn") || PYS=""
  PYC=$(python_with "numpy, scipy, cupy") || PYC=""
  echo "scikit-learn: ${PYS:-not importable}; CuPy: ${PYC:-not importable}" | tee -a "$LOGS/peers.log"
  sk_metrics=$(echo "$METRICS" | tr ',' '\n' | grep -E '^(manhattan|cosine|euclidean)$' | paste -sd, -)
  for f in $FILES; do
    for peer in cusparse sklearn; do
      py=$PYS; ms=$sk_metrics
      [ "$peer" = cusparse ] && { py=$PYC; ms=cosine; }
      case ",$METRICS," in *,cosine,*) ;; *) [ "$peer" = cusparse ] && continue ;; esac
      [ -n "$ms" ] || continue
      if [ -z "$py" ]; then
        echo "PEER	$(basename "$f" .csr)	0	$ms	$peer	-	-	skipped: no python3 here imports it" | tee -a "$LOGS/peers.log"
        continue
      fi
      t=$(left "$((DEADLINE - 10))" 90)
      if [ "$t" -lt 10 ]; then
        echo "SKIPPED (no time left): $peer $(basename "$f")" | tee -a "$LOGS/peers.log"
        continue
      fi
      boxed peers.log "$t" "PEER|.*Error|.*error" "$py" bench/knn_peers.py \
        --peers "$peer" --metrics "$ms" --k 10 --rows "$ROWS" \
        --budget "$PEER_BUDGET" "$f"
    done
  done
  save "$LOGS/peers.log"
fi

#------------------------------------------------------------------------------
# table
#------------------------------------------------------------------------------
if has table; then
  step "table"
  PYT=$(python_with "re") || PYT=python3
  cat "$LOGS/machine.txt"
  echo
  logs=""
  for f in "$LOGS/knn_bench.log" "$LOGS/peers.log"; do [ -f "$f" ] && logs="$logs $f"; done
  # shellcheck disable=SC2086
  [ -n "$logs" ] && "$PYT" bench/knn_table.py $logs | tee "$LOGS/table.md"
fi
save "$LOGS"/*.log "$LOGS"/*.txt "$LOGS"/table.md
echo
echo "done in $(( $(date +%s) - T0 )) s"
