#!/usr/bin/env python3
"""Scores shogi positions with qipan's own search (session 37's self-label experiment).

For each line of the input files (`fen<TAB>score...`, the tune_eval.py format, .gz or
plain), qipan searches `go nodes N` (one thread, 16 MB, the table kept between the
positions of one part, as they come in game order) and the line `fen<TAB>cp` is written
with its last reported score for the side to move; mate scores and scores of 3,000 cp or
more are left out. The inputs are cut into `parts` equal parts so that two processes can
share them (`part` counts from 0).

    python3 tools/results/session37/label_with_qipan.py target/release/qipan 20000 \
        /tmp/part0.tsv 0 2 tools/data/tune-shogi.tsv.gz tools/data/tune-shogi-2.tsv.gz \
        tools/data/tune-shogi-3.tsv.gz

Session 37 labelled the 63,608 positions of those three files with main at 3c5a68b
(30,591 + 30,584 kept: tune-shogi-qipan-20k.tsv.gz here, part 0 then part 1).
"""

import gzip
import subprocess
import sys


def main():
    binary, nodes, out_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    part, parts = int(sys.argv[4]), int(sys.argv[5])
    fens = []
    for path in sys.argv[6:]:
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt") as source:
            fens.extend(line.split("\t")[0] for line in source)
    chunk = (len(fens) + parts - 1) // parts
    fens = fens[part * chunk:(part + 1) * chunk]
    engine = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)

    def send(command):
        engine.stdin.write(command + "\n")
        engine.stdin.flush()

    for command in ["uci", "setoption name UCI_Variant value shogi",
                    "setoption name Threads value 1", "setoption name Hash value 16",
                    "ucinewgame", "isready"]:
        send(command)
    while engine.stdout.readline().strip() != "readyok":
        pass
    with open(out_path, "w") as out:
        for fen in fens:
            send("position fen " + fen)
            send(f"go nodes {nodes}")
            score = None
            while True:
                line = engine.stdout.readline()
                if not line:
                    sys.exit(f"qipan closed its output at {fen}")
                if line.startswith("info") and " score " in line:
                    words = line.split()
                    at = words.index("score")
                    score = (words[at + 1], int(words[at + 2]))
                if line.startswith("bestmove"):
                    break
            if score and score[0] == "cp" and abs(score[1]) < 3000:
                out.write(f"{fen}\t{score[1]}\n")
    send("quit")


if __name__ == "__main__":
    main()
