#!/usr/bin/env python3
"""Do two qipan builds play the same moves at levels 1-9? Tells whether the ladder stands.

Not run by `cargo test`; needs `pip install pyffish` (it drives the engines with
`tools/match.py`'s `Engine`). A level below 10 searches a fixed node budget on one thread with
seeded noise and blind spots, so its move in a position is a function of the build: when
two builds choose the same move at every level in every position of the committed set
(`tools/data/depth-positions.txt`, 12 middlegames a game), that is evidence (from a sample
of 36 middlegames, not a proof) that the levels measured on the older build
(`tools/results/ladder-now.txt`) still describe the newer one, and `tools/ladder.py` need
not be run again. A difference names the game, level and position.

    python3 tools/levels_unchanged.py <old qipan> <new qipan> [--variants shogi ...]

Exit status 0 when every move is the same, 1 otherwise (also when a build reports an error
or a game has no positions).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine  # noqa: E402

POSITIONS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "depth-positions.txt")


def positions(variants):
    """(variant, FEN) of each position of the committed set, for the chosen games."""
    found = []
    with open(POSITIONS, encoding="utf-8") as lines:
        for line in lines:
            if line.startswith("#") or not line.strip():
                continue
            variant, fen = line.rstrip("\n").split("\t")[:2]
            if variant in variants:
                found.append((variant, fen))
    return found


def best_moves(binary, jobs):
    """The move `binary` chooses for each (variant, FEN, level) of `jobs`, from a fresh
    game each time (`ucinewgame`); the generous movetime only caps a level's nodes. An
    option or position the build refuses (`info string error`) stops the comparison
    instead of comparing full-strength moves."""
    engine = Engine([binary, "uci"], binary)
    engine.send("uci")
    engine.read_until("uciok")
    moves = []
    for variant, fen, level in jobs:
        engine.send(f"setoption name UCI_Variant value {variant}")
        engine.send(f"setoption name Skill Level value {level}")
        engine.new_game()
        engine.send(f"position fen {fen}")
        engine.send("go movetime 60000")
        line, _ = engine.read_until("bestmove", timeout=120.0)
        if engine.errors:
            raise RuntimeError(f"{binary}: {engine.errors[0]}")
        moves.append(line.split()[1])
    engine.quit()
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("old", help="the build the ladder was measured on")
    parser.add_argument("new", help="the build to compare")
    parser.add_argument("--variants", nargs="+", default=["xiangqi", "janggi", "shogi"])
    args = parser.parse_args()
    found = positions(args.variants)
    for variant in args.variants:
        if not any(found_variant == variant for found_variant, _ in found):
            print(f"no positions of {variant!r} in {POSITIONS}")
            return 1
    jobs = [(variant, fen, level) for variant, fen in found for level in range(1, 10)]
    old, new = best_moves(args.old, jobs), best_moves(args.new, jobs)
    same = {variant: 0 for variant in args.variants}
    total = {variant: 0 for variant in args.variants}
    for (variant, fen, level), before, after in zip(jobs, old, new):
        total[variant] += 1
        if before == after:
            same[variant] += 1
        else:
            print(f"differs: {variant} level {level}: {before} -> {after} in {fen}")
    for variant in args.variants:
        print(f"{variant}: the same move in {same[variant]} of {total[variant]} searches "
              "(levels 1-9)")
    return 0 if same == total else 1


if __name__ == "__main__":
    sys.exit(main())
