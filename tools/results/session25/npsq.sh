#!/bin/bash
# usage: npsq.sh BIN HASH VARIANT NODES
BIN=$1; H=$2; V=$3; N=$4
FEN_shogi="position startpos moves 7g7f 3c3d 2g2f 8c8d 2f2e 8d8e 6i7h 4a3b 2e2d 2c2d 2h2d 8e8f 8g8f 8b8f 2d3d 2b8h+ 7i8h"
FEN_janggi="position startpos"
FEN_xiangqi="position startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7"
eval P=\$FEN_$V
printf "setoption name UCI_Variant value $V\nsetoption name Hash value $H\nisready\n$P\ngo nodes $N\n" | (cat; sleep 30) | timeout 40 $BIN uci | grep -m1 "^bestmove" -B3 | grep -o "nodes [0-9]* nps [0-9]*" | tail -1
