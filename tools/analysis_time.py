#!/usr/bin/env python3
"""Time `qipan analyse` on a 100-ply game of each game at the default budget.

Not run by `cargo test`; needs nothing but a release build (`cargo build --release`).
The games are played by qipan itself (`qipan uci`, level 7, 3000 nodes a move, so they
are ordinary games with ordinary mistakes), written as `position … moves …` files, and
each is analysed once; the wall-clock and CPU time of the analysis are printed. On a
shared machine the CPU (user) time is the number to compare.

    nice python3 tools/analysis_time.py [--plies 100] [--nodes N] [--variants xiangqi janggi shogi]
"""

import argparse
import os
import resource
import subprocess
import tempfile
import time


def self_play(qipan, variant, plies):
    """The moves of a game qipan plays against itself, at most `plies` long."""
    engine = subprocess.Popen([qipan, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(line):
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    send(f"setoption name UCI_Variant value {variant}")
    send("setoption name Skill Level value 7")
    moves = []
    while len(moves) < plies:
        send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        send("go nodes 3000")
        while True:
            line = engine.stdout.readline()
            if not line:
                raise SystemExit("qipan uci stopped answering")
            if line.startswith("bestmove"):
                move = line.split()[1]
                break
        if move in ("(none)", "0000", "resign"):
            break
        moves.append(move)
    send("quit")
    engine.wait()
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("--variants", nargs="+", default=["xiangqi", "janggi", "shogi"])
    parser.add_argument("--plies", type=int, default=100)
    parser.add_argument("--nodes", type=int, help="nodes per position (default: qipan's default budget)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="qipan-analysis-time-")
    for variant in args.variants:
        moves = self_play(args.qipan, variant, args.plies)
        path = os.path.join(folder, f"{variant}.uci")
        with open(path, "w") as out:
            out.write(f"setoption name UCI_Variant value {variant}\n")
            out.write("position startpos moves " + " ".join(moves) + "\n")
        command = [args.qipan, "analyse", path]
        if args.nodes:
            command += ["--nodes", str(args.nodes)]
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
        started = time.perf_counter()
        report = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        wall = time.perf_counter() - started
        cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - before
        header = report.splitlines()[0]
        summary = " | ".join(report.strip().splitlines()[-2:])
        print(f"{variant:8} {len(moves):4} plies  {wall:6.1f} s wall  {cpu:6.1f} s CPU  ({header}; {summary})",
              flush=True)


if __name__ == "__main__":
    main()
