#!/bin/bash
# usage: ttd.sh RUNS "variant depth"... -- binaries...
runs=$1; shift; games=(); while [ "$1" != "--" ]; do games+=("$1"); shift; done; shift
for g in "${games[@]}"; do set -- $g "${@}"; v=$1; d=$2; shift 2; echo "== $v d$d: $*"
 for r in $(seq $runs); do for b in "$@"; do s=$(date +%s.%N); python3 /work/main/tools/results/session28/drive.py $v $b $d; e=$(date +%s.%N); printf "%.2f " $(echo "$e - $s" | bc); done; echo; done; done
