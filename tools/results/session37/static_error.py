#!/usr/bin/env python3
"""How far qipan's static evaluation lies from labelled scores (session 37).

    python3 tools/results/session37/static_error.py target/release/qipan LABELS.tsv

Reads `fen<TAB>cp` lines, shuffles them (seed 1), takes 6,000 and prints the rms of
(static evaluation − label), the labels' and evaluations' rms, and the rms after the
best single scale factor (the evaluation's `eval` command of `qipan uci`).
"""

import random
import subprocess
import sys

import numpy as np


def main():
    binary, path = sys.argv[1], sys.argv[2]
    with open(path) as source:
        lines = source.read().splitlines()
    random.Random(1).shuffle(lines)
    lines = lines[:6000]
    engine = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    engine.stdin.write("uci\nsetoption name UCI_Variant value shogi\n")
    static, labels = [], []
    for line in lines:
        fen, score = line.split("\t")[:2]
        engine.stdin.write(f"position fen {fen}\neval\n")
        engine.stdin.flush()
        while True:
            answer = engine.stdout.readline()
            if not answer:
                sys.exit(f"qipan closed its output at {fen}")
            if answer.startswith("info string static evaluation"):
                static.append(int(answer.split()[4]))
                break
        labels.append(int(score))
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    static, labels = np.array(static, dtype=float), np.array(labels, dtype=float)
    print(f"{len(labels)} positions: rms error {np.sqrt(np.mean((static - labels) ** 2)):.0f}, "
          f"rms label {np.sqrt(np.mean(labels ** 2)):.0f}, rms static {np.sqrt(np.mean(static ** 2)):.0f}")
    scale = (static @ labels) / (static @ static)
    print(f"best scale {scale:.3f}: rms error {np.sqrt(np.mean((scale * static - labels) ** 2)):.0f}")


if __name__ == "__main__":
    main()
