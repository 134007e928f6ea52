#!/bin/bash
# Wall seconds for engines to search tools/data/depth-positions.txt to a fixed depth,
# the engines interleaved run by run (session 40).
# usage: time-to-depth.sh RUNS "variant depth"... -- ENGINE...
#   e.g. time-to-depth.sh 5 "janggi 10" "shogi 11" -- target/release/qipan /usr/games/fairy-stockfish
drive="$(dirname "$0")/../session28/drive.py"
runs=$1; shift; games=(); while [ "$1" != "--" ]; do games+=("$1"); shift; done; shift
for g in "${games[@]}"; do
  set -- $g "$@"; v=$1; d=$2; shift 2; echo "== $v d$d: $*"
  for r in $(seq "$runs"); do
    for b in "$@"; do
      s=$(date +%s.%N); python3 "$drive" "$v" "$b" "$d"; e=$(date +%s.%N)
      awk -v s="$s" -v e="$e" 'BEGIN { printf "%.2f ", e - s }'
    done
    echo
  done
done
