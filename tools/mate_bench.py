#!/usr/bin/env python3
"""Time qipan's USI `go mate` on the tsume test set (tests/data/tsume.txt).

Drives `qipan usi` (default target/release/qipan) one problem at a time and prints, per
mate length, how many were solved, the median and largest time and node counts, and how
many lines had cshogi's length (problems marked `;slow`, which tests/mate.rs leaves out, are
timed too). Positions qipan's rules refuse are left out (named on
stderr). An optional third argument names another problem file of the same form.

    cargo build --release && python3 tools/mate_bench.py [binary] [limit-ms] [file]
"""
import statistics
import subprocess
import sys

binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/qipan"
limit = sys.argv[2] if len(sys.argv) > 2 else "10000"
engine = subprocess.Popen([binary, "usi"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    engine.stdin.write(line + "\n")
    engine.stdin.flush()


def until(prefix):
    lines = []
    while True:
        line = engine.stdout.readline().strip()
        lines.append(line)
        if line.startswith(prefix):
            return line, lines


send("usi")
until("usiok")
rows = {}
problems = sys.argv[3] if len(sys.argv) > 3 else "tests/data/tsume.txt"
for text in open(problems):
    if text.startswith("#") or not text.strip():
        continue
    sfen, plies = text.strip().split(";")[:2]
    send(f"position sfen {sfen}")
    send(f"go mate {limit}")
    answer, lines = until("checkmate")
    if any(l.startswith("info string error") for l in lines):
        # A position qipan's rules refuse (tests/mate.rs leaves it out too): not timed.
        print(f"left out (refused): {sfen}", file=sys.stderr)
        continue
    info = [l for l in lines if l.startswith("info time")][-1].split()
    millis, nodes = int(info[2]), int(info[4])
    words = answer.split()[1:]
    solved = words not in (["timeout"], ["nomate"]) if plies != "0" else words == ["nomate"]
    row = rows.setdefault(int(plies), [])
    row.append((solved, millis, nodes, len(words) == int(plies)))
send("quit")
print("plies  count  solved  exact  median_ms  max_ms  median_nodes  max_nodes")
for plies in sorted(rows):
    row = rows[plies]
    times = [r[1] for r in row]
    nodes = [r[2] for r in row]
    print(f"{plies:5}  {len(row):5}  {sum(r[0] for r in row):6}  {sum(r[3] for r in row):5}  "
          f"{statistics.median(times):9.0f}  {max(times):6}  {statistics.median(nodes):12.0f}  {max(nodes):9}")
