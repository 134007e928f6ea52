#!/usr/bin/env python3
"""Measure qipan's search speed (nodes per second) at `go movetime` on middlegame positions.

Not run by `cargo test`. The positions are reached by Fairy-Stockfish playing both sides
at a few thousand nodes a move from seeded random openings (so they are ordinary
middlegames, not random piles of pieces); qipan then searches each one `--runs` times
with `go movetime`, and the nodes of its last `info depth` line over the time are reported.

    nice python3 tools/nps.py --variants xiangqi janggi shogi --positions 4 --runs 3
"""

import argparse
import random
import statistics
import subprocess
import sys
import time

sys.path.insert(0, __file__.rsplit("/", 1)[0])
from match import Engine, opening  # noqa: E402


def middlegame(fsf, variant, rng, plies):
    """Moves from the start to a middlegame position: 4 random plies, then FSF at 3000 nodes."""
    moves = opening(variant, rng, 4)
    fsf.new_game()
    while len(moves) < plies:
        move, _ = fsf.best_move(moves, "go nodes 3000")
        if move in ("(none)", "0000"):
            break
        moves.append(move)
    return moves


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=["xiangqi", "janggi", "shogi"])
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--movetime", type=int, default=1000)
    parser.add_argument("--plies", type=int, default=30, help="plies from the start to the measured position")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--fixed-nodes", type=int, default=500_000,
                        help="also time one `go nodes` search of this size per position")
    args = parser.parse_args()
    for variant in args.variants:
        rng = random.Random(args.seed)
        fsf = Engine([args.fsf], "fairy-stockfish")
        fsf.start(variant, [("Threads", 1), ("Hash", 16)])
        qipan = Engine([args.qipan, "uci"], "qipan")
        qipan.start(variant, [("Skill Level", 10), ("Hash", 64)])
        speeds = []
        node_counts = []
        fixed_speeds = []
        for index in range(args.positions):
            moves = middlegame(fsf, variant, rng, args.plies)
            for _ in range(args.runs):
                qipan.new_game()
                began = time.time()
                _, info = qipan.best_move(moves, f"go movetime {args.movetime}")
                elapsed = time.time() - began
                words = info[-1].split()
                nodes = int(words[words.index("nodes") + 1])
                depth = int(words[words.index("depth") + 1])
                # Nodes are reported at the last completed depth; the aborted one adds more,
                # so nodes/elapsed slightly undercounts the true speed.
                speeds.append(nodes / elapsed)
                node_counts.append(nodes)
                print(f"{variant} position {index + 1} ({len(moves)} plies): depth {depth} "
                      f"nodes {nodes} in {elapsed:.2f}s -> {nodes / elapsed:,.0f} nps", flush=True)
            # A fixed node budget stops exactly at that count: nodes over wall time is the
            # true speed (including the aborted last iteration and the protocol's overhead).
            qipan.new_game()
            began = time.time()
            qipan.best_move(moves, f"go nodes {args.fixed_nodes}")
            elapsed = time.time() - began
            fixed_speeds.append(args.fixed_nodes / elapsed)
            print(f"{variant} position {index + 1}: go nodes {args.fixed_nodes} took {elapsed:.2f}s "
                  f"-> {args.fixed_nodes / elapsed:,.0f} nps", flush=True)
        print(f"{variant}: median {statistics.median(speeds):,.0f} nps, min {min(speeds):,.0f}, "
              f"max {max(speeds):,.0f}; nodes at last completed depth per {args.movetime} ms: "
              f"median {statistics.median(node_counts):,.0f}, min {min(node_counts):,}", flush=True)
        print(f"{variant}: go nodes {args.fixed_nodes}: median {statistics.median(fixed_speeds):,.0f} nps, "
              f"min {min(fixed_speeds):,.0f}, max {max(fixed_speeds):,.0f}", flush=True)
        fsf.quit()
        qipan.quit()


if __name__ == "__main__":
    main()
