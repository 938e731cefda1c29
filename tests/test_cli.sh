#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# tests/test_cli.sh: the gxbdist command (cli/, docs/cli.md)
#
#   sh tests/test_cli.sh GXBDIST SOURCE_DIR            the command's own rules
#   sh tests/test_cli.sh GXBDIST SOURCE_DIR compare    results against
#       scikit-learn and scipy (tests/test_cli_compare.py); exit 77 (skipped)
#       when no python3 can import them (apt-get install python3-sklearn)
#
# The rules: --help and --version; a bad command line is exit 2 and a bad
# file exit 1, each with exactly one line "gxbdist: ..." on stderr and never
# a crash (every file of tests/mtx_corpus/ when it exists, else a handful
# made here); blocks of rows (--block-rows) give the bytes one call gives;
# -o - appends to what standard output already holds; the labels listing
# has a line per row and one per neighbor.
set -u
BIN=$1
SRC=$2
MODE=${3:-basic}
DATA=$SRC/data/fortunes.mtx.gz
LABELS=$SRC/data/fortunes.rows.txt.gz

if [ "$MODE" = compare ]; then
  for py in python3 /usr/bin/python3; do
    if command -v "$py" >/dev/null 2>&1 &&
       "$py" -c "import numpy, scipy, sklearn" >/dev/null 2>&1; then
      exec "$py" "$SRC/tests/test_cli_compare.py" "$BIN" "$SRC"
    fi
  done
  echo "test_cli compare: skipped: no python3 with numpy, scipy and sklearn" \
       "(apt-get install python3-sklearn)"
  exit 77
fi

T=$(mktemp -d "${TMPDIR:-/tmp}/test_cli.XXXXXX")
trap 'rm -rf "$T"' EXIT
FAILS=0
fail () { echo "FAIL: $*" ; FAILS=$((FAILS + 1)) ; }

# expect STATUS NAME ARGS...: the exit status (0, 1, 2, or "0|1"), and for
# a failure exactly one stderr line that starts with "gxbdist: "; a signal
# (status > 125) always fails
expect () {
  want=$1 ; name=$2 ; shift 2
  "$BIN" "$@" > "$T/out" 2> "$T/err"
  got=$?
  lines=$(grep -c '' "$T/err")
  case "|$want|" in *"|$got|"*) want=$got ;; esac
  if [ "$got" != "$want" ]; then
    fail "$name: exit $got, want $want: $(head -c 300 "$T/err")"
  elif [ "$got" -ne 0 ] && { [ "$lines" -ne 1 ] ||
       ! grep -q '^gxbdist: ' "$T/err" ; }; then
    fail "$name: want one line 'gxbdist: ...' on stderr, got $lines:" \
         "$(head -c 300 "$T/err")"
  fi
}

#-------------------------------------------------------------------------------
# --help, --version, usage errors (exit 2)
#-------------------------------------------------------------------------------

expect 0 help --help
grep -q '^usage: gxbdist knn' "$T/out" || fail "--help: no usage line"
expect 0 "knn --help" knn --help
expect 0 version --version
H=$SRC/include/gxbdist.h
V=$(awk '/define GXBDIST_VERSION_MAJOR/{a=$3} /define GXBDIST_VERSION_MINOR/{b=$3}
         /define GXBDIST_VERSION_SUB/{c=$3} END{print a"."b"."c}' "$H")
grep -q "^gxbdist $V " "$T/out" || fail "--version: want $V, got $(cat "$T/out")"

expect 2 "no command"
expect 2 "unknown command" frobnicate "$DATA"
expect 2 "unknown option" knn --frob "$DATA"
expect 2 "unknown metric" knn --metric nosuch "$DATA"
grep -q 'cosine' "$T/err" || fail "unknown metric: the known names are not listed"
expect 2 "-k 0" knn -k 0 "$DATA"
expect 2 "-k not a number" knn -k 3x "$DATA"
expect 2 "-k without value" knn "$DATA" -k
expect 2 "radius without --eps" radius "$DATA"
expect 2 "--eps NaN" radius --eps nan "$DATA"
expect 2 "--eps on knn" knn --eps 1 "$DATA"
expect 2 "--eps negative for a distance" radius --eps -1 "$DATA"
expect 2 "--eps negative for minkowski" radius --metric minkowski --p 3 --eps -0.5 "$DATA"
expect 2 "-k on pairwise" pairwise -k 3 "$DATA"
expect 2 "--p without minkowski" knn --p 3 "$DATA"
expect 2 "--p 0" knn --metric minkowski --p 0 "$DATA"
expect 2 "--type fp16" knn --type fp16 "$DATA"
expect 2 "--backend tpu" knn --backend tpu "$DATA"
expect 2 "--format labels on pairwise" pairwise --format labels "$DATA"
expect 2 "--labels-b without B" knn --format labels --labels-b "$LABELS" "$DATA"
expect 2 "--labels without --format labels" knn --labels "$LABELS" "$DATA"
expect 2 "--labels-b without --format labels" knn --labels-b "$LABELS" "$DATA" "$DATA"
expect 2 "no file" knn
expect 2 "three files" knn "$DATA" "$DATA" "$DATA"

#-------------------------------------------------------------------------------
# bad files (exit 1, one line, no crash)
#-------------------------------------------------------------------------------

# a small valid matrix: the first 300 quotes of fortunes (every column kept)
gzip -dc "$DATA" | awk '
  /^%/ { next }
  !size { split ($0, s, " ") ; size = 1 ; next }
  $1 <= 300 { e [++n] = $0 }
  END { print "%%MatrixMarket matrix coordinate integer general"
        print 300, s [2], n ; for (q = 1 ; q <= n ; q++) print e [q] }' \
  > "$T/f300.mtx"
gzip -dc "$LABELS" | head -n 300 > "$T/f300.rows.txt"
S=$T/f300.mtx

CORPUS=$SRC/tests/mtx_corpus
if [ -d "$CORPUS" ]; then
  ncorpus=0
  for f in "$CORPUS"/*; do
    b=$(basename "$f")
    ncorpus=$((ncorpus + 1))
    case $b in
      labels_valid*) ;;
      labels_*) expect 1 "corpus $b" knn -k 2 --format labels --labels "$f" "$S" ;;
      # a valid file may still be too large to compute (or hold a NaN,
      # which the command refuses): exit 0, or 1 with its one line
      valid.*|valid_*) expect "0|1" "corpus $b" knn -k 2 "$f" ;;
      *)        expect 1 "corpus $b" knn -k 2 "$f" ;;
    esac
  done
  echo "test_cli: ran over the $ncorpus files of tests/mtx_corpus"
else
  H='%%MatrixMarket matrix coordinate real general'
  printf '%s\n' "$H" "3 3 4" "1 1 1" "2 2 2" > "$T/truncated.mtx"
  printf '%s\n' "%%MatrixMarket matrix array real general" "2 2" "1" "2" "3" "4" > "$T/array.mtx"
  printf '%s\n' "%%MatrixMarket tensor coordinate real general" "2 2 1" "1 1 1" > "$T/header.mtx"
  printf '%s\n' "$H" "2 2 1" "3 1 1" > "$T/range.mtx"
  printf '%s\n' "$H" "2 2 1" "1 1 nan" > "$T/nan.mtx"
  printf '%s\n' "$H" "2 2 1" "1 1 x" > "$T/value.mtx"
  printf '%s\n' "$H" "2 2 2305843009213693952" "1 1 1" > "$T/huge.mtx"
  printf 'not gzip\n' > "$T/notgzip.mtx.gz"
  : > "$T/empty.mtx"
  for f in truncated array header range nan value huge notgzip.mtx empty; do
    case $f in *.mtx) p=$T/$f.gz ;; *) p=$T/$f.mtx ;; esac
    expect 1 "bad file $f" knn -k 2 "$p"
  done
fi
expect 1 "missing file" knn "$T/does-not-exist.mtx"
expect 1 "labels of the wrong length" knn --format labels --labels "$LABELS" "$S"
printf '%s\n' '%%MatrixMarket matrix coordinate real general' "2 5 1" "1 1 1" > "$T/narrow.mtx"
expect 1 "B with other columns" knn "$S" "$T/narrow.mtx"
printf '%s\n' '%%MatrixMarket matrix coordinate real general' "2 2 2" "1 1 1" "2 2 -1" > "$T/negative.mtx"
expect 1 "hellinger of a negative value" pairwise --metric hellinger "$T/negative.mtx"

#-------------------------------------------------------------------------------
# blocks of rows give the bytes of one call
#-------------------------------------------------------------------------------

# (manhattan and jaccard on word counts: many ties; dot: largest first)
for job in "knn --metric cosine -k 7 --exclude-self" "knn --metric jaccard -k 5" \
           "knn --metric manhattan -k 4 --exclude-self" \
           "knn --metric dot -k 3 --type fp64 --exclude-self" \
           "radius --metric jaccard --eps 0.8 --exclude-self" \
           "pairwise --metric canberra --type fp64"; do
  # shellcheck disable=SC2086
  "$BIN" $job "$S" -o "$T/one.mtx" 2> "$T/err" || fail "$job: $(cat "$T/err")"
  for b in 1 7 64 299; do
    # shellcheck disable=SC2086
    "$BIN" $job --block-rows $b "$S" -o "$T/blocks.mtx" 2> "$T/err" ||
      fail "$job --block-rows $b: $(cat "$T/err")"
    cmp -s "$T/one.mtx" "$T/blocks.mtx" || fail "$job: --block-rows $b differs from one call"
  done
done
# B given, exclude-self in blocks: the pairs (i, i) of the file's numbering
"$BIN" knn -k 3 --exclude-self "$S" "$S" -o "$T/one.mtx" 2>/dev/null
"$BIN" knn -k 3 --exclude-self --block-rows 13 "$S" "$S" -o "$T/blocks.mtx" 2>/dev/null
cmp -s "$T/one.mtx" "$T/blocks.mtx" || fail "knn A B --exclude-self: blocks differ"
awk '!/^%/ && n++ && $1 == $2 { bad = 1 } END { exit bad }' "$T/one.mtx" ||
  fail "--exclude-self: a pair (i, i) is in the result"

#-------------------------------------------------------------------------------
# output: -o - appends to standard output, the labels listing
#-------------------------------------------------------------------------------

echo "before" > "$T/append.txt"
"$BIN" knn -k 2 "$S" -o - >> "$T/append.txt" 2>/dev/null
head -n 1 "$T/append.txt" | grep -q '^before$' || fail "-o - >> file: lost what was there"
sed -n 2p "$T/append.txt" | grep -q '^%%MatrixMarket' || fail "-o - >> file: no header"
"$BIN" knn -k 2 "$S" 2>/dev/null | sed -n 1p | grep -q '^%%MatrixMarket' ||
  fail "-o - to a pipe"

"$BIN" knn --metric cosine -k 3 --exclude-self --format labels \
  --labels "$T/f300.rows.txt" "$S" -o "$T/list.txt" 2> "$T/err" || fail "listing: $(cat "$T/err")"
awk -F '\t' -v k=3 '
  /^[0-9]/ { rows++ ; if (nb != "" && nb != k) bad = 1 ; nb = 0 ; next }
  /^\t/    { nb++ ; if (NF != 4 || $3 < 1 || $3 > 300) bad = 1 ; next }
  /^$/     { next }
           { bad = 1 }
  END      { if (nb != k || rows != 300) bad = 1 ; exit bad }' "$T/list.txt" ||
  fail "listing: want 300 rows of 3 neighbors (distance, row, label)"

#-------------------------------------------------------------------------------

if [ "$FAILS" -ne 0 ]; then
  echo "test_cli: $FAILS failures"
  exit 1
fi
echo "test_cli: all passed"
