#!/usr/bin/env python3
"""Session 36: wall time of qipan builds over 30 later shogi positions (move 35 or more).

The depth positions of tools/depth.py are early middlegames (plies 20-40), where shogi's
hands are small and mates in one rare; this samples 30 positions at move 35 or later from
tools/data/tune-shogi-results-test.tsv.gz (random.Random(7)) and times each build over
them, twice, one after the other, each search from `ucinewgame`, one thread, 16 MB:

    python3 late_positions_time.py "depth 8" OLD NEW     # time to a depth
    python3 late_positions_time.py "nodes 100000" OLD NEW  # time per node

Wall time: run it on a quiet machine, the builds side by side in one run.
"""
import gzip
import os
import random
import sys
import time

TOOLS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, TOOLS)
from match import Engine  # noqa: E402

lines = gzip.open(os.path.join(TOOLS, "data", "tune-shogi-results-test.tsv.gz"), "rt").read().splitlines()
positions = [line.split("\t")[0] for line in lines]
late = [fen for fen in positions if int(fen.split()[-1]) >= 35]
sample = random.Random(7).sample(late, 30)
go = sys.argv[1]
for _ in range(2):
    for binary in sys.argv[2:]:
        engine = Engine([binary, "uci"], "qipan")
        engine.start("shogi", [("Threads", 1), ("Hash", 16)])
        start = time.time()
        for fen in sample:
            engine.new_game()
            engine.send("position fen " + fen)
            engine.send("go " + go)
            engine.read_until("bestmove")
        print(binary, f"{time.time() - start:.2f}s", flush=True)
        engine.quit()
