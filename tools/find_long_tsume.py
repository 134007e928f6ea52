#!/usr/bin/env python3
"""Find long tsume (13 plies and more) for the solver's test set: qipan proposes, cshogi confirms.

cshogi's exhaustive `mate_move(ply)` is too slow to *search* for long mates among random
positions, but quick to *confirm* one: a random position (tools/gen_tsume.py's generator)
is given to `qipan usi`'s `go mate`; when qipan answers a mate of --min-plies or more,
the length L is kept only if cshogi finds a mate within L plies and none within L - 2.

    cargo build --release && python3 tools/find_long_tsume.py [count] [seed] >> problems.txt

Output as tests/data/tsume.txt has it: `sfen;plies`.
"""
import argparse
import subprocess
import sys
import time

import gen_tsume

parser = argparse.ArgumentParser()
parser.add_argument("count", type=int, nargs="?", default=5)
parser.add_argument("seed", type=int, nargs="?", default=13)
parser.add_argument("--binary", default="target/release/qipan")
parser.add_argument("--min-plies", type=int, default=13)
parser.add_argument("--mate-ms", type=int, default=3000)
parser.add_argument("--minutes", type=float, default=20)
args = parser.parse_args()
gen_tsume.rng.seed(args.seed)

engine = subprocess.Popen([args.binary, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(prefix):
    while True:
        line = engine.stdout.readline().strip()
        if line.startswith(prefix):
            return line


send("usi")
until("usiok")
found, tries, started = 0, 0, time.time()
while found < args.count and time.time() - started < args.minutes * 60:
    tries += 1
    sfen = gen_tsume.position()
    board = gen_tsume.usable_board(sfen)
    if board is None:
        continue
    send(f"position sfen {sfen}")
    send(f"go mate {args.mate_ms}")
    answer = until("checkmate").split()[1:]
    if not answer or answer[0] in ("nomate", "timeout", "notimplemented"):
        continue
    plies = len(answer)
    if plies < args.min_plies:
        continue
    if board.mate_move(plies) and not board.mate_move(plies - 2):
        found += 1
        print(f"{sfen};{plies}", flush=True)
    else:
        print(f"# qipan said {plies} plies, cshogi disagrees: {sfen}", file=sys.stderr, flush=True)
print(f"# {tries} tries, {found} found, {time.time() - started:.0f} s", file=sys.stderr)
send("quit")
