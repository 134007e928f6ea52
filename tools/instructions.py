#!/usr/bin/env python3
"""Instructions qipan executes to search the depth positions to a fixed depth (callgrind).

Not run by `cargo test`. Needs valgrind (`apt-get install valgrind`). A speed-up that
keeps the tree (nodes to depth unchanged, `tools/depth.py --no-fsf`) shows here as fewer
instructions, a count that does not depend on the machine's load (it repeats to about one
part in ten million), where a timing on a shared two-core machine varies by ±10%. It is
no timing: cache misses and branch mispredictions are not in it, so confirm a gain in
time with the matches paused before calling it one.

    python3 tools/instructions.py --qipan /tmp/qipan-before target/release/qipan
    python3 tools/instructions.py --variants shogi --depth 9

Each binary searches the 12 positions of each game in tools/data/depth-positions.txt with
`ucinewgame` (an empty table) before each, `Threads 1`, as tools/depth.py does; under
callgrind a search runs about 20 times slower than natively.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
POSITIONS = os.path.join(HERE, "data", "depth-positions.txt")
# Depths that take a few seconds natively (a minute or so under callgrind).
DEFAULT_DEPTHS = {"xiangqi": 9, "janggi": 8, "shogi": 8}


def count_instructions(binary, variant, depth):
    """Runs `binary uci` under callgrind over the variant's positions; returns the total."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "callgrind.out")
        engine = subprocess.Popen(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", binary, "uci"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )

        def send(line):
            engine.stdin.write(line + "\n")
            engine.stdin.flush()

        def wait_for(prefix):
            while True:
                line = engine.stdout.readline()
                if not line:
                    sys.exit(f"{binary} closed its output")
                if line.startswith(prefix):
                    return line

        send("uci")
        wait_for("uciok")
        send(f"setoption name UCI_Variant value {variant}")
        send("setoption name Threads value 1")
        with open(POSITIONS, encoding="utf-8") as positions:
            for line in positions:
                fields = line.rstrip("\n").split("\t")
                if len(fields) < 2 or fields[0] != variant:
                    continue
                send("ucinewgame")
                send(f"position fen {fields[1]}")
                send(f"go depth {depth}")
                wait_for("bestmove")
        send("quit")
        engine.wait()
        with open(out, encoding="utf-8") as report:
            for line in report:
                if line.startswith(("summary:", "totals:")):
                    return int(line.split()[1])
    sys.exit("callgrind wrote no total")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variants", nargs="+", default=list(DEFAULT_DEPTHS))
    parser.add_argument(
        "--qipan",
        nargs="+",
        default=[os.path.join(HERE, "..", "target", "release", "qipan")],
        help="one or more builds to compare",
    )
    parser.add_argument("--depth", type=int, help="the depth for every game")
    args = parser.parse_args()
    for variant in args.variants:
        depth = args.depth or DEFAULT_DEPTHS.get(variant, 8)
        first = None
        for binary in args.qipan:
            total = count_instructions(binary, variant, depth)
            change = "" if first is None else f" ({(total - first) / first:+.1%})"
            first = first or total
            print(f"{variant} depth {depth}: {binary} {total:,} instructions{change}", flush=True)


if __name__ == "__main__":
    main()
