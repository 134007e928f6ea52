#!/usr/bin/env python3
"""Nodes to reach a fixed depth: qipan against Fairy-Stockfish on a committed position set.

Not run by `cargo test`. Unlike nodes per second or match results, the node count of a
single-threaded search to a fixed depth from a fresh table does not depend on the
machine's load, so it measures search efficiency (move ordering, pruning, reductions)
repeatably on a shared machine.

    python3 tools/depth.py                       # qipan vs FSF, default depths
    python3 tools/depth.py --no-fsf --qipan <other build> --label baseline
    python3 tools/depth.py --generate            # rewrite tools/data/depth-positions.txt

The positions (`tools/data/depth-positions.txt`, one `variant<TAB>fen<TAB>moves` per
line) are middlegames reached by Fairy-Stockfish self-play at 3000 nodes a move from
seeded 4-ply random openings, 20 to 40 plies from the start; `--generate` rebuilds them
(needs pyffish). Each search starts with `ucinewgame` (an empty table), `Threads 1`.

Per game, the script prints each position's node count, the total and the geometric
mean of the per-position ratio qipan / FSF.
"""

import argparse
import math
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from match import Engine, opening  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
POSITIONS = os.path.join(HERE, "data", "depth-positions.txt")
DEFAULT_DEPTHS = {"xiangqi": 11, "janggi": 10, "shogi": 9}


def generate(fsf_path, variants, count, seed):
    import pyffish

    lines = []
    for variant in variants:
        rng = random.Random(f"{seed}-{variant}")
        fsf = Engine([fsf_path], "fairy-stockfish")
        fsf.start(variant, [("Threads", 1), ("Hash", 16)])
        made = 0
        while made < count:
            plies = rng.randrange(20, 41)
            moves = opening(variant, rng, 4)
            fsf.new_game()
            ended = False
            while len(moves) < plies:
                move, _ = fsf.best_move(moves, "go nodes 3000")
                if move in ("(none)", "0000"):
                    ended = True
                    break
                moves.append(move)
            start = pyffish.start_fen(variant)
            if ended or not pyffish.legal_moves(variant, start, moves):
                continue
            if pyffish.gives_check(variant, start, moves):
                continue  # a quiet middlegame, not a position in check
            fen = pyffish.get_fen(variant, start, moves)
            lines.append(f"{variant}\t{fen}\t{' '.join(moves)}")
            made += 1
        fsf.quit()
    with open(POSITIONS, "w", encoding="utf-8") as out:
        out.write("# variant<TAB>fen<TAB>moves from the start; made by tools/depth.py --generate\n")
        for line in lines:
            out.write(line + "\n")
    print(f"wrote {len(lines)} positions to {POSITIONS}")


def read_positions():
    positions = []
    with open(POSITIONS, encoding="utf-8") as text:
        for line in text:
            if line.startswith("#") or not line.strip():
                continue
            variant, fen, moves = line.rstrip("\n").split("\t")
            positions.append((variant, fen, moves.split()))
    return positions


def nodes_to_depth(engine, fen, depth):
    """Nodes reported with the last `info depth` line of `go depth` (0 if none)."""
    engine.new_game()
    engine.send(f"position fen {fen}")
    engine.send(f"go depth {depth}")
    _, lines = engine.read_until("bestmove", timeout=900)
    nodes = reached = 0
    for line in lines:
        words = line.split()
        if words[:2] == ["info", "depth"] and "nodes" in words:
            if "multipv" in words and words[words.index("multipv") + 1] != "1":
                continue
            reached = int(words[2])
            nodes = int(words[words.index("nodes") + 1])
    return nodes, reached


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variants", nargs="+", default=["xiangqi", "janggi", "shogi"])
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    parser.add_argument("--no-fsf", action="store_true", help="only qipan (FSF's counts are fixed; run once)")
    parser.add_argument("--depth", type=int, help="one depth for every game (defaults: xiangqi 11, janggi 10, shogi 9)")
    parser.add_argument("--positions", type=int, default=0, help="only the first N positions per game")
    parser.add_argument("--generate", action="store_true", help="rebuild the position set")
    parser.add_argument("--count", type=int, default=12, help="positions per game when generating")
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--label", default="qipan")
    args = parser.parse_args()
    if args.generate:
        generate(args.fsf, args.variants, args.count, args.seed)
        return
    positions = read_positions()
    began = time.time()
    summary = []
    for variant in args.variants:
        depth = args.depth or DEFAULT_DEPTHS[variant]
        chosen = [p for p in positions if p[0] == variant]
        if args.positions:
            chosen = chosen[: args.positions]
        qipan = Engine([args.qipan, "uci"], "qipan")
        qipan.start(variant, [("Hash", 64)])
        fsf = None
        if not args.no_fsf:
            fsf = Engine([args.fsf], "fairy-stockfish")
            fsf.start(variant, [("Threads", 1), ("Hash", 64)])
        total_q = total_f = 0
        log_ratios = []
        for index, (_, fen, _) in enumerate(chosen):
            q_nodes, q_depth = nodes_to_depth(qipan, fen, depth)
            total_q += q_nodes
            line = f"{variant} {index + 1:2}: depth {q_depth} {args.label} {q_nodes:>10,}"
            if fsf is not None:
                f_nodes, f_depth = nodes_to_depth(fsf, fen, depth)
                total_f += f_nodes
                ratio = q_nodes / max(f_nodes, 1)
                log_ratios.append(math.log(max(ratio, 1e-9)))
                line += f"  fsf {f_nodes:>10,} (depth {f_depth})  ratio {ratio:5.2f}"
            print(line, flush=True)
        text = f"{variant} depth {depth}, {len(chosen)} positions: {args.label} total {total_q:,}"
        if fsf is not None:
            geo = math.exp(sum(log_ratios) / len(log_ratios)) if log_ratios else 0
            text += f", fsf total {total_f:,}, total ratio {total_q / max(total_f, 1):.2f}, geometric mean ratio {geo:.2f}"
        summary.append(text)
        print(text, flush=True)
        qipan.quit()
        if fsf is not None:
            fsf.quit()
    print()
    for text in summary:
        print(text)
    print(f"({time.time() - began:.0f} s wall; the counts do not depend on it)")


if __name__ == "__main__":
    main()
