#!/usr/bin/env python3
"""Tune the xiangqi and janggi evaluations on positions scored by Fairy-Stockfish.

Not run by `cargo test`. Needs `pip install pyffish numpy` and the Debian
`fairy-stockfish` package. Two steps, both repeatable (seeded, node-limited, one thread):

    # 1. positions: Fairy-Stockfish plays itself at --nodes a move from seeded random
    #    openings; every position it searched (not in check, its best move not a
    #    capture, |score| below --max-score) is kept with its score for the side to move
    python3 tools/tune_eval.py generate --variant janggi --games 600 --output /tmp/janggi.tsv
    # 2. the fit: a linear evaluation (material + piece-square deltas + a few terms)
    #    fitted by ridge regression to those scores, rescaled to qipan's material scale,
    #    written as the Rust tables of src/engine/tuned.rs (both games at once)
    python3 tools/tune_eval.py fit --xiangqi /tmp/xiangqi.tsv --janggi /tmp/janggi.tsv \
        --output src/engine/tuned.rs

The positions the shipped tables were fitted to are committed (tools/data/tune-xiangqi.tsv.gz,
tune-janggi.tsv.gz: 8,144 and 8,016 positions, `generate --games 300 --opening-plies 4`,
stopped after about 110 games), so `fit --xiangqi tools/data/tune-xiangqi.tsv.gz --janggi
tools/data/tune-janggi.tsv.gz --output src/engine/tuned.rs` rewrites src/engine/tuned.rs
exactly, without Fairy-Stockfish.

`fit --shogi` fits corrections to qipan's own shogi evaluation the same way (square and
hand deltas). They are not used: fitted to 5,532 positions they lost 15-41 in self-play at
20,000 nodes (tools/results/session8), the hand deltas being noise. More positions and a
stronger ridge are the next thing to try.

The model is the one `src/engine/eval.rs` computes for these two games, term for term:

- a value for each piece kind on each square, counted from its owner's side (rank 0 is
  the owner's back rank) with the board folded left-right (files 0-4), as material
  plus a square delta; the deltas are pulled toward zero (ridge) so rare squares stay
  near the material value;
- chariot mobility (squares its four rays reach) and horse mobility (destinations with
  the leg free and not holding an own piece), per piece;
- king safety: missing defenders (xiangqi: advisors and elephants, at most 4; janggi:
  advisors next to the general, at most 2) times the opponent's attackers (chariot 2,
  horse and cannon 1);
- janggi only: each cannon's fade as the board empties (max(0, 32 - pieces));
- the side to move's tempo.

The fitted centipawns are rescaled so the mean chariot keeps qipan's chariot value
(xiangqi 900, janggi 1300), so the search's margins keep their meaning.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

KINDS = "kabnrcp"  # FEN letters: king, advisor, elephant (b), horse (n), chariot (r), cannon, pawn
# qipan's kind codes (src/rules/xiangqi.rs `kind`): king 1, advisor 2, elephant 3, horse 4,
# chariot 5, cannon 6, soldier 7.
KIND_CODE = {"k": 1, "a": 2, "b": 3, "n": 4, "r": 5, "c": 6, "p": 7}
CHARIOT_VALUE = {"xiangqi": 900, "janggi": 1300}
SQUARES = 50  # 10 ranks x 5 folded files


def generate(args):
    import pyffish
    from match import Engine, opening

    rng = random.Random(f"{args.seed}-{args.variant}")
    fsf = Engine([args.fsf], "fairy-stockfish")
    fsf.start(args.variant, [("Threads", 1), ("Hash", 16)])
    start = pyffish.start_fen(args.variant)
    kept = 0
    began = time.time()
    with open(args.output, "w", encoding="utf-8") as out:
        for game in range(args.games):
            moves = opening(args.variant, rng, args.opening_plies)
            fsf.new_game()
            # pyffish is asked about the current FEN alone (replaying the whole game at
            # every ply would cost more than the engine's search).
            fen = pyffish.get_fen(args.variant, start, moves)
            for _ in range(args.max_plies):
                legal = pyffish.legal_moves(args.variant, fen, [])
                if not legal:
                    break
                move, info = fsf.best_move(moves, f"go nodes {args.nodes}")
                if move in ("(none)", "0000"):
                    break
                score = last_cp(info)
                if (
                    score is not None
                    and abs(score) < args.max_score
                    and len(moves) >= args.opening_plies + 2
                    and not pyffish.gives_check(args.variant, fen, [])
                    and not pyffish.is_capture(args.variant, fen, [], move)
                ):
                    out.write(f"{fen}\t{score}\n")
                    kept += 1
                # A little variety: now and then a random legal move instead.
                if rng.random() < args.random_moves:
                    move = rng.choice(legal)
                moves.append(move)
                fen = pyffish.get_fen(args.variant, fen, [move])
                if pyffish.is_immediate_game_end(args.variant, fen, [])[0]:
                    break
            if (game + 1) % 20 == 0:
                print(f"{game + 1} games, {kept} positions, {time.time() - began:.0f} s", flush=True)
    fsf.quit()
    print(f"{kept} positions in {args.output}")


def last_cp(info):
    for line in reversed(info):
        words = line.split()
        if "score" in words:
            at = words.index("score")
            if words[at + 1] == "cp":
                return int(words[at + 2])
            return None
    return None


def board_of(fen):
    """{(file, rank): piece} with rank 0 at the bottom (the first player's back rank), for
    any board height; a promoted shogi piece keeps its "+" (`+P`). Hands are left out."""
    rows = fen.split()[0].split("[")[0].split("/")
    board = {}
    for row_index, row in enumerate(rows):
        rank = len(rows) - 1 - row_index
        file = 0
        number = ""
        promoted = False
        for char in row:
            if char.isdigit():
                number += char
                continue
            if number:
                file += int(number)
                number = ""
            if char == "+":
                promoted = True
                continue
            board[(file, rank)] = ("+" if promoted else "") + char
            promoted = False
            file += 1
    return board


def rays(board, file, rank):
    count = 0
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r = file + df, rank + dr
        while 0 <= f < 9 and 0 <= r < 10:
            count += 1
            if (f, r) in board:
                break
            f += df
            r += dr
    return count


def horse_moves(board, file, rank, upper):
    count = 0
    for lf, lr, steps in ((1, 0, ((2, 1), (2, -1))), (-1, 0, ((-2, 1), (-2, -1))),
                          (0, 1, ((1, 2), (-1, 2))), (0, -1, ((1, -2), (-1, -2)))):
        if (file + lf, rank + lr) in board:
            continue
        for df, dr in steps:
            f, r = file + df, rank + dr
            if 0 <= f < 9 and 0 <= r < 10:
                other = board.get((f, r))
                if other is None or other.isupper() != upper:
                    count += 1
    return count


def features(variant, fen):
    """The model's feature vector for `fen`, from the side to move's point of view."""
    board = board_of(fen)
    second_to_move = fen.split()[1] == "b"
    size = 7 + 7 * SQUARES + 5
    vector = [0.0] * size
    extra = 7 + 7 * SQUARES
    defenders = [0, 0]
    attackers = [0, 0]
    cannons = [0, 0]
    kings = {}
    for (file, rank), letter in board.items():
        if letter.lower() == "k":
            kings[0 if letter.isupper() else 1] = (file, rank)
    for (file, rank), letter in board.items():
        side = 0 if letter.isupper() else 1
        sign = 1.0 if side == 0 else -1.0
        kind = KINDS.index(letter.lower())
        forward = rank if side == 0 else 9 - rank
        folded = min(file, 8 - file)
        vector[kind] += sign
        vector[7 + kind * SQUARES + forward * 5 + folded] += sign
        code = letter.lower()
        if code == "r":
            vector[extra] += sign * rays(board, file, rank)
            attackers[side] += 2
        elif code == "n":
            vector[extra + 1] += sign * horse_moves(board, file, rank, letter.isupper())
            attackers[side] += 1
        elif code == "c":
            attackers[side] += 1
            cannons[side] += 1
        if variant == "xiangqi" and code in "ab":
            defenders[side] += 1
        if variant == "janggi" and code == "a" and side in kings:
            kf, kr = kings[side]
            if abs(file - kf) <= 1 and abs(rank - kr) <= 1:
                defenders[side] += 1
    full = 4 if variant == "xiangqi" else 2
    for side in (0, 1):
        sign = 1.0 if side == 0 else -1.0
        missing = full - min(defenders[side], full)
        vector[extra + 2] -= sign * missing * attackers[1 - side]
    if variant == "janggi":
        fade = max(0, 32 - len(board))
        vector[extra + 3] -= (cannons[0] - cannons[1]) * fade
    if second_to_move:
        vector = [-value for value in vector]
    vector[extra + 4] = 1.0  # tempo
    return vector


def open_positions(path):
    """A positions file, plain or gzip-compressed (tools/data/tune-*.tsv.gz)."""
    import gzip

    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def fit_one(variant, path, ridge, limit):
    import numpy as np

    rows, targets = [], []
    with open_positions(path) as source:
        for line in source:
            fen, score = line.rstrip("\n").split("\t")
            rows.append(features(variant, fen))
            targets.append(float(score))
            if limit and len(rows) >= limit:
                break
    x = np.array(rows)
    y = np.array(targets)
    size = x.shape[1]
    # A trace of ridge on every term keeps the system solvable (a term a game lacks is 0).
    penalty = np.full(size, 1e-6)
    penalty[7:7 + 7 * SQUARES] = ridge
    # The king's material is not defined (one each side): pin it at zero.
    penalty[0] = 1e9
    weights = np.linalg.solve(x.T @ x + np.diag(penalty) * len(y) / 1000.0, x.T @ y)
    predicted = x @ weights
    residual = y - predicted
    print(f"{variant}: {len(y)} positions, rms score {np.sqrt(np.mean(y ** 2)):.0f}, "
          f"rms error {np.sqrt(np.mean(residual ** 2)):.0f} cp")
    scale = CHARIOT_VALUE[variant] / weights[KINDS.index("r")]
    print(f"{variant}: fitted chariot {weights[KINDS.index('r')]:.0f} cp, scaled by {scale:.3f}")
    weights = weights * scale
    names = ["king", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"]
    for index, name in enumerate(names):
        print(f"  {name:9} {weights[index]:7.1f}")
    extra = 7 + 7 * SQUARES
    for offset, name in enumerate(["chariot mobility", "horse mobility", "king safety",
                                   "cannon fade", "tempo"]):
        print(f"  {name:17} {weights[extra + offset]:7.2f}")
    return weights


def rust_tables(variant, weights):
    upper = variant.upper()
    lines = [f"/// {variant.capitalize()}: the value of each kind (by qipan's kind code, 0 unused) on each",
             "/// square counted from its owner's side (`forward * 9 + file`), material included.",
             "#[rustfmt::skip]",
             f"pub const {upper}_SQUARE_VALUES: [[i16; 90]; 8] = ["]
    lines.append("    [0; 90],")
    for letter in "kabnrcp":
        kind = KINDS.index(letter)
        values = []
        for square in range(90):
            forward, file = divmod(square, 9)
            folded = min(file, 8 - file)
            value = weights[kind] + weights[7 + kind * SQUARES + forward * 5 + folded]
            values.append(str(int(round(value))))
        lines.append("    [")
        for start in range(0, 90, 9):
            lines.append("        " + ", ".join(values[start:start + 9]) + ",")
        lines.append("    ],")
    lines.append("];")
    extra = 7 + 7 * SQUARES
    names = ["CHARIOT_MOBILITY", "HORSE_MOBILITY", "KING_SAFETY", "CANNON_FADE", "TEMPO"]
    docs = ["per square a chariot's rays reach", "per free horse destination",
            "per missing defender and enemy attacker", "per cannon and piece gone below 32",
            "for the side to move"]
    for offset, (name, doc) in enumerate(zip(names, docs)):
        if variant == "xiangqi" and name == "CANNON_FADE":
            continue
        lines.append(f"/// {variant.capitalize()}: centipawns {doc}.")
        lines.append(f"pub const {upper}_{name}: i32 = {int(round(weights[extra + offset]))};")
    return "\n".join(lines)


# Shogi: qipan's own evaluation is kept and corrected. The fit is
#   FSF score ~ a * qipan's evaluation + square deltas (kind, square from the owner's
#   side, folded) + hand deltas (kind, count)
# and the tables written are the deltas divided by a, so that qipan's evaluation plus
# them keeps qipan's scale.
SHOGI_KINDS = ["p", "l", "n", "s", "g", "b", "r", "k", "+p", "+l", "+n", "+s", "+b", "+r"]
SHOGI_HAND = {"p": 6, "l": 4, "n": 4, "s": 4, "g": 4, "b": 2, "r": 2}  # counts kept apart
SHOGI_HAND_ORDER = ["p", "l", "n", "s", "g", "b", "r"]
SHOGI_SQUARES = 45  # 9 ranks x 5 folded files


def shogi_features(fen):
    """(square features, hand features) for `fen` from the side to move's view."""
    placement = fen.split()[0]
    hand = ""
    if "[" in placement:
        placement, hand = placement.split("[", 1)
        hand = hand.rstrip("]")
    second_to_move = fen.split()[1] == "b"
    vector = [0.0] * (14 * SHOGI_SQUARES + sum(SHOGI_HAND.values()))
    for (file, rank), piece in board_of(fen).items():
        side = 0 if piece[-1].isupper() else 1
        forward = rank if side == 0 else 8 - rank
        folded = min(file, 8 - file)
        index = SHOGI_KINDS.index(piece.lower()) * SHOGI_SQUARES + forward * 5 + folded
        vector[index] += 1.0 if side == 0 else -1.0
    counts = {}
    for char in hand:
        if char == "-" or char.isdigit():
            continue
        counts[char] = counts.get(char, 0) + 1
    base = 14 * SHOGI_SQUARES
    for kind in SHOGI_HAND_ORDER:
        for side, letter in ((0, kind.upper()), (1, kind)):
            count = min(counts.get(letter, 0), SHOGI_HAND[kind])
            for held in range(count):
                vector[base + held] += 1.0 if side == 0 else -1.0
        base += SHOGI_HAND[kind]
    if second_to_move:
        vector = [-value for value in vector]
    return vector


def qipan_evaluations(qipan, fens):
    """qipan's static evaluation of each shogi FEN (the `eval` command of `qipan uci`)."""
    import subprocess

    process = subprocess.Popen([qipan, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1, env={k: v for k, v in os.environ.items()
                                                          if k != "QIPAN_EVAL"})
    process.stdin.write("uci\nsetoption name UCI_Variant value shogi\n")
    values = []
    for fen in fens:
        process.stdin.write(f"position fen {fen}\neval\n")
        process.stdin.flush()
        while True:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError("qipan closed its output")
            if line.startswith("info string static evaluation"):
                values.append(float(line.split()[4]))
                break
            if line.startswith("info string error"):
                raise RuntimeError(f"qipan: {line.strip()} for {fen}")
    process.stdin.write("quit\n")
    process.stdin.flush()
    process.wait(timeout=10)
    return values


def fit_shogi(path, qipan, ridge, limit):
    import numpy as np

    fens, targets = [], []
    with open_positions(path) as source:
        for line in source:
            fen, score = line.rstrip("\n").split("\t")
            fens.append(fen)
            targets.append(float(score))
            if limit and len(fens) >= limit:
                break
    own = np.array(qipan_evaluations(qipan, fens))
    x = np.column_stack([own, np.array([shogi_features(fen) for fen in fens])])
    y = np.array(targets)
    penalty = np.full(x.shape[1], ridge)
    penalty[0] = 1e-6
    weights = np.linalg.solve(x.T @ x + np.diag(penalty) * len(y) / 1000.0, x.T @ y)
    base_error = np.sqrt(np.mean((y - own * (own @ y) / (own @ own)) ** 2))
    error = np.sqrt(np.mean((y - x @ weights) ** 2))
    print(f"shogi: {len(y)} positions, rms score {np.sqrt(np.mean(y ** 2)):.0f}, rms error "
          f"{base_error:.0f} cp with qipan's evaluation alone, {error:.0f} with the deltas; "
          f"a = {weights[0]:.3f}")
    deltas = weights[1:] / weights[0]
    return deltas


def shogi_tables(deltas):
    # qipan's shogi kind numbers: 1 pawn, 2 lance, 3 knight, 4 silver, 5 gold, 6 bishop,
    # 7 rook, 8 king, 9-12 promoted pawn/lance/knight/silver, 13 horse, 14 dragon.
    lines = ["/// Shogi: a correction to qipan's evaluation for each kind (by qipan's kind number, 0",
             "/// unused) on each square counted from its owner's side (`forward * 9 + file`).",
             "#[rustfmt::skip]",
             "pub const SHOGI_SQUARE_DELTAS: [[i16; 81]; 15] = [",
             "    [0; 81],"]
    for kind in range(14):
        values = []
        for square in range(81):
            forward, file = divmod(square, 9)
            folded = min(file, 8 - file)
            values.append(str(int(round(deltas[kind * SHOGI_SQUARES + forward * 5 + folded]))))
        lines.append("    [")
        for start in range(0, 81, 9):
            lines.append("        " + ", ".join(values[start:start + 9]) + ",")
        lines.append("    ],")
    lines.append("];")
    lines.append("/// Shogi: a correction for the n-th piece of a kind in hand (by qipan's hand kind")
    lines.append("/// number 1-7: pawn, lance, knight, silver, gold, bishop, rook), beyond the last")
    lines.append("/// listed count nothing more.")
    lines.append("pub const SHOGI_HAND_DELTAS: [[i16; 6]; 8] = [")
    lines.append("    [0; 6],")
    base = 14 * SHOGI_SQUARES
    for kind in SHOGI_HAND_ORDER:
        count = SHOGI_HAND[kind]
        values = [str(int(round(deltas[base + held]))) for held in range(count)] + ["0"] * (6 - count)
        lines.append("    [" + ", ".join(values) + "],")
        base += count
    lines.append("];")
    return "\n".join(lines)


def fit(args):
    parts = [
        "//! Evaluation tables for xiangqi and janggi, fitted to Fairy-Stockfish's scores of",
        "//! positions from its own games by `tools/tune_eval.py` (ridge regression, rescaled",
        "//! to qipan's material scale). Generated: change the script, not this file.",
        "",
    ]
    for variant, path in (("xiangqi", args.xiangqi), ("janggi", args.janggi)):
        weights = fit_one(variant, path, args.ridge, args.limit)
        parts.append(rust_tables(variant, weights))
        parts.append("")
    if args.shogi:
        parts.append(shogi_tables(fit_shogi(args.shogi, args.qipan, args.shogi_ridge, args.limit)))
        parts.append("")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write("\n".join(parts))
    print(f"wrote {args.output}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    gen = commands.add_parser("generate")
    gen.add_argument("--variant", required=True, choices=["xiangqi", "janggi", "shogi"])
    gen.add_argument("--games", type=int, default=600)
    gen.add_argument("--nodes", type=int, default=3000)
    gen.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    gen.add_argument("--opening-plies", type=int, default=6)
    gen.add_argument("--max-plies", type=int, default=200)
    gen.add_argument("--max-score", type=int, default=1500)
    gen.add_argument("--random-moves", type=float, default=0.03)
    gen.add_argument("--seed", type=int, default=8)
    gen.add_argument("--output", required=True)
    fit_parser = commands.add_parser("fit")
    fit_parser.add_argument("--xiangqi", required=True)
    fit_parser.add_argument("--janggi", required=True)
    fit_parser.add_argument("--shogi", help="shogi positions (corrections to qipan's evaluation)")
    fit_parser.add_argument("--qipan", default="target/release/qipan", help="for shogi: its evaluation")
    fit_parser.add_argument("--ridge", type=float, default=1.0)
    fit_parser.add_argument("--shogi-ridge", type=float, default=2.0)
    fit_parser.add_argument("--limit", type=int, default=0)
    fit_parser.add_argument("--output", required=True)
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
