#!/usr/bin/env python3
"""Tune qipan's evaluations on positions scored by Fairy-Stockfish.

Not run by `cargo test`. Needs `pip install pyffish numpy` and the Debian
`fairy-stockfish` package. Two steps, both repeatable (seeded, node-limited, one thread):

    # 1. positions: Fairy-Stockfish plays itself at --nodes a move from seeded random
    #    openings; every position it searched (not in check, its best move not a
    #    capture, |score| below --max-score) is kept with its score for the side to move
    #    and (since session 21; the committed files have two columns) a third column, the
    #    game's result for that side: 1, 0.5, 0, or - when --max-plies came first (a
    #    repetition is not seen: pyffish is asked each FEN without its history)
    python3 tools/tune_eval.py generate --variant janggi --games 600 --output /tmp/janggi.tsv
    # 2. the fit: linear evaluations fitted by ridge regression to those scores, rescaled
    #    to qipan's material scale, written as the Rust tables of src/engine/tuned.rs
    #    (all games at once; shogi's terms come from the release build, so build it first)
    python3 tools/tune_eval.py fit --xiangqi /tmp/xiangqi.tsv --janggi /tmp/janggi.tsv \
        --shogi /tmp/shogi.tsv --output src/engine/tuned.rs

The positions the shipped tables were fitted to are committed (tools/data/tune-*.tsv.gz):
xiangqi 28,585 and janggi 29,258 positions (session 8's `generate --games 300
--opening-plies 4`, stopped after about 110 games, then session 9's `--games 250
--opening-plies 4 --seed 9`), and janggi 33,913 more (tune-janggi-2, session 19:
`--games 400 --opening-plies 4 --seed 41`); shogi 13,899 (tune-shogi: `--games 250 --opening-plies 4
--seed 9`), 16,476 more (tune-shogi-2, session 13: `--seed 32`, stopped after about
150 games, then the first 8,000 positions of `--seed 31`) and 33,233 more (tune-shogi-3,
session 13's end: `--seed 33` and `--seed 34`, each stopped after about 280 games; in the
fit since session 14). The other 7,856 positions of `--seed 31` (tune-shogi-test) are
games the fit never sees, only to measure it on.
So `fit --xiangqi tools/data/tune-xiangqi.tsv.gz
--janggi tools/data/tune-janggi.tsv.gz,tools/data/tune-janggi-2.tsv.gz --shogi tools/data/tune-shogi.tsv.gz,tools/data/tune-shogi-2.tsv.gz,tools/data/tune-shogi-3.tsv.gz
--shogi-square-ridge 30 --shogi-test tools/data/tune-shogi-test.tsv.gz
--output src/engine/tuned.rs` rewrites src/engine/tuned.rs exactly, without Fairy-Stockfish
(with `cargo build --release` done).

The xiangqi and janggi model is the one `src/engine/eval.rs` computes, term for term:

- a value for each piece kind on each square, counted from its owner's side (rank 0 is
  the owner's back rank) with the board folded left-right (files 0-4), as material
  plus a square delta; the deltas are pulled toward zero (ridge) so rare squares stay
  near the material value;
- the same again for the endgame, counted in proportion to how far the game has gone
  (the phase: chariots 4, horses and cannons 2, 32 at the start; the endgame share is
  1 - min(phase, 32) / 32), so a piece's worth and best squares change as the board empties;
- chariot mobility (squares its four rays reach), horse mobility (destinations with the
  leg free and not holding an own piece) and cannon reach (xiangqi: slides plus the
  capture over a screen; janggi: jumps over a screen that is not a cannon), per piece;
- cannons on the enemy king's file or rank with 0, 1 or 2 pieces between;
- king safety: missing defenders (xiangqi: advisors and elephants, at most 4; janggi:
  advisors next to the general, at most 2) times the opponent's attackers (chariot 2,
  horse and cannon 1);
- janggi only: each cannon's fade as the board empties (max(0, 32 - pieces));
- janggi only, read off every piece's attacks (`janggi_attacks`, as
  `JanggiPosition::attacks_from`): each elephant's reach (attacked squares without an own
  piece), and the pieces attacked, weighed by a threat value (soldier 2, advisor and
  elephant 3, horse 5, cannon 7, chariot 13): hanging (attacked, not defended) and
  defended but attacked by a piece of lower value, each counted apart for the side to
  move and the side waiting (the side to move can save its own piece or take the other's).
  `threat-vectors` writes these counts for test positions (tests/engine.rs checks that the
  evaluation counts the same);
- the side to move's tempo.

The fitted centipawns are rescaled so the opening chariot keeps qipan's chariot value
(xiangqi 900, janggi 1300), so the search's margins keep their meaning.

Shogi keeps qipan's own evaluation (`shogi_terms` in src/engine/eval.rs: material on the
board and in hand, advances, reach, the king's place and guards, a king-danger penalty,
threatened pieces, pieces attacked by a lesser piece, safe checking drops) and fits its
39 weights, starting from the hand-made ones, together
with a piece-square table for each of the 14 board kinds (`shogi_square_terms`: 1,134
terms, starting from 0 under their own ridge; see `fit_shogi`).
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

KINDS = "kabnrcp"  # FEN letters: king, advisor, elephant (b), horse (n), chariot (r), cannon, pawn
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
            # The game's kept positions, written when its result is known.
            positions = []
            # The game's end for the side to move in `fen` (positive: it wins), if any.
            ending = None
            for _ in range(args.max_plies):
                legal = pyffish.legal_moves(args.variant, fen, [])
                if not legal:
                    ending = pyffish.game_result(args.variant, fen, [])
                    break
                move, info = fsf.best_move(moves, f"go nodes {args.nodes}")
                if move in ("(none)", "0000"):
                    ending = pyffish.game_result(args.variant, fen, [])
                    break
                score = last_cp(info)
                if (
                    score is not None
                    and abs(score) < args.max_score
                    and len(moves) >= args.opening_plies + 2
                    and not pyffish.gives_check(args.variant, fen, [])
                    and not pyffish.is_capture(args.variant, fen, [], move)
                ):
                    positions.append((fen, score))
                    kept += 1
                # A little variety: now and then a random legal move instead.
                if rng.random() < args.random_moves:
                    move = rng.choice(legal)
                moves.append(move)
                fen = pyffish.get_fen(args.variant, fen, [move])
                ended, result = pyffish.is_immediate_game_end(args.variant, fen, [])
                if ended:
                    ending = result
                    break
            # Third column: the game's result for each position's side to move (1 win,
            # 0.5 draw, 0 loss; "-" when the game reached --max-plies undecided), so a
            # fit can learn from results as well as from FSF's scores.
            last_side = fen.split()[1]
            for kept_fen, score in positions:
                if ending is None:
                    result = "-"
                else:
                    own = ending if kept_fen.split()[1] == last_side else -ending
                    result = "1" if own > 0 else "0" if own < 0 else "0.5"
                out.write(f"{kept_fen}\t{score}\t{result}\n")
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


def cannon_reach(board, file, rank, variant):
    """Squares a cannon reaches: xiangqi's slides to empty squares plus its capture over one
    screen; janggi's jumps over one screen that is not a cannon (landing empty, or taking
    a piece that is not a cannon). Palace diagonals are left out."""
    letter = board[(file, rank)]
    count = 0
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        f, r = file + df, rank + dr
        screen = False
        while 0 <= f < 9 and 0 <= r < 10:
            other = board.get((f, r))
            if variant == "xiangqi":
                if not screen:
                    if other is None:
                        count += 1
                    else:
                        screen = True
                elif other is not None:
                    if other.isupper() != letter.isupper():
                        count += 1
                    break
            else:
                if not screen:
                    if other is not None:
                        if other.lower() == "c":
                            break
                        screen = True
                elif other is None:
                    count += 1
                else:
                    if other.isupper() != letter.isupper() and other.lower() != "c":
                        count += 1
                    break
            f += df
            r += dr
    return count


def pieces_between(board, start, end):
    """Pieces strictly between two squares on one file or rank."""
    df = (end[0] > start[0]) - (end[0] < start[0])
    dr = (end[1] > start[1]) - (end[1] < start[1])
    f, r = start[0] + df, start[1] + dr
    count = 0
    while (f, r) != end:
        count += (f, r) in board
        f += df
        r += dr
    return count


# The feature vector's layout: material and square deltas (all phases), then the same for
# the endgame share, then the single terms.
MATERIAL = 0
SQUARE_DELTAS = 7
ENDGAME_MATERIAL = SQUARE_DELTAS + 7 * SQUARES
ENDGAME_DELTAS = ENDGAME_MATERIAL + 7
TERMS = ENDGAME_DELTAS + 7 * SQUARES
TERM_NAMES = ["chariot mobility", "horse mobility", "king safety", "cannon fade",
              "cannon reach", "cannon facing king", "cannon facing king over one",
              "cannon facing king over two", "tempo", "elephant mobility", "hanging mover",
              "hanging waiter", "attacked by lesser mover", "attacked by lesser waiter"]
# Janggi only: the terms of pieces attacked, weighed by these values (soldier 2 ... chariot 13).
THREAT_VALUE = {"p": 2, "a": 3, "b": 3, "n": 5, "c": 7, "r": 13, "k": 100}
JANGGI_ONLY = {"cannon fade", "elephant mobility", "hanging mover", "hanging waiter",
               "attacked by lesser mover", "attacked by lesser waiter"}
FEATURES = TERMS + len(TERM_NAMES)
# The game phase: chariots count 4, horses and cannons 2 (32 at the start); the endgame
# share of a position is 1 - min(phase, 32) / 32.
PHASE_WEIGHT = {"r": 4, "n": 2, "c": 2}
FULL_PHASE = 32


def features(variant, fen):
    """The model's feature vector for `fen`, from the side to move's point of view."""
    board = board_of(fen)
    second_to_move = fen.split()[1] == "b"
    vector = [0.0] * FEATURES
    term = {name: TERMS + index for index, name in enumerate(TERM_NAMES)}
    defenders = [0, 0]
    attackers = [0, 0]
    cannons = [0, 0]
    kings = {}
    phase = 0
    for (file, rank), letter in board.items():
        if letter.lower() == "k":
            kings[0 if letter.isupper() else 1] = (file, rank)
        phase += PHASE_WEIGHT.get(letter.lower(), 0)
    endgame = 1.0 - min(phase, FULL_PHASE) / FULL_PHASE
    for (file, rank), letter in board.items():
        side = 0 if letter.isupper() else 1
        sign = 1.0 if side == 0 else -1.0
        kind = KINDS.index(letter.lower())
        forward = rank if side == 0 else 9 - rank
        folded = min(file, 8 - file)
        square = kind * SQUARES + forward * 5 + folded
        vector[MATERIAL + kind] += sign
        vector[SQUARE_DELTAS + square] += sign
        vector[ENDGAME_MATERIAL + kind] += sign * endgame
        vector[ENDGAME_DELTAS + square] += sign * endgame
        code = letter.lower()
        if code == "r":
            vector[term["chariot mobility"]] += sign * rays(board, file, rank)
            attackers[side] += 2
        elif code == "n":
            vector[term["horse mobility"]] += sign * horse_moves(board, file, rank, letter.isupper())
            attackers[side] += 1
        elif code == "c":
            attackers[side] += 1
            cannons[side] += 1
            vector[term["cannon reach"]] += sign * cannon_reach(board, file, rank, variant)
            enemy_king = kings.get(1 - side)
            if enemy_king and (enemy_king[0] == file or enemy_king[1] == rank):
                between = pieces_between(board, (file, rank), enemy_king)
                names = ["cannon facing king", "cannon facing king over one",
                         "cannon facing king over two"]
                if between < 3:
                    vector[term[names[between]]] += sign
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
        vector[term["king safety"]] -= sign * missing * attackers[1 - side]
    if variant == "janggi":
        fade = max(0, 32 - len(board))
        vector[term["cannon fade"]] -= (cannons[0] - cannons[1]) * fade
    if second_to_move:
        vector = [-value for value in vector]
    vector[term["tempo"]] = 1.0
    if variant == "janggi":
        janggi_threats(board, 1 if second_to_move else 0, vector, term)
    return vector


PALACES = ({(f, r) for f in (3, 4, 5) for r in (0, 1, 2)},
           {(f, r) for f in (3, 4, 5) for r in (7, 8, 9)})


def palace_diagonal_neighbours(square):
    """One step along a palace diagonal: the centre from a corner, the corners from the centre."""
    for centre_rank in (1, 8):
        centre = (4, centre_rank)
        corners = [(3, centre_rank - 1), (5, centre_rank - 1), (3, centre_rank + 1),
                   (5, centre_rank + 1)]
        if square == centre:
            return corners
        if square in corners:
            return [centre]
    return []


def palace_diagonal_rays(square):
    """The palace-diagonal rays from a square: to each corner from the centre, through the
    centre to the opposite corner from a corner."""
    neighbours = palace_diagonal_neighbours(square)
    if len(neighbours) == 4:
        return [[corner] for corner in neighbours]
    if neighbours:
        (centre_file, centre_rank), (file, rank) = neighbours[0], square
        return [[neighbours[0], (2 * centre_file - file, 2 * centre_rank - rank)]]
    return []


def on_board(file, rank):
    return 0 <= file < 9 and 0 <= rank < 10


def janggi_attacks(board, square):
    """The squares the janggi piece on `square` attacks, own pieces included (as
    `JanggiPosition::attacks_from` in src/rules/janggi.rs)."""
    letter = board[square]
    code = letter.lower()
    file, rank = square
    attacks = []
    orthogonal_rays = []
    for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        ray, f, r = [], file + df, rank + dr
        while on_board(f, r):
            ray.append((f, r))
            f, r = f + df, r + dr
        orthogonal_rays.append(ray)
    if code == "r":
        for ray in orthogonal_rays + palace_diagonal_rays(square):
            for target in ray:
                attacks.append(target)
                if target in board:
                    break
    elif code == "c":
        for ray in orthogonal_rays + palace_diagonal_rays(square):
            screened = False
            for target in ray:
                other = board.get(target)
                if not screened:
                    if other is not None:
                        if other.lower() == "c":
                            break
                        screened = True
                else:
                    if other is None or other.lower() != "c":
                        attacks.append(target)
                    if other is not None:
                        break
    elif code == "n":
        for lf, lr, steps in ((1, 0, ((2, 1), (2, -1))), (-1, 0, ((-2, 1), (-2, -1))),
                              (0, 1, ((1, 2), (-1, 2))), (0, -1, ((1, -2), (-1, -2)))):
            if (file + lf, rank + lr) in board or not on_board(file + lf, rank + lr):
                continue
            attacks += [(file + df, rank + dr) for df, dr in steps if on_board(file + df, rank + dr)]
    elif code == "b":
        for lf, lr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if (file + lf, rank + lr) in board or not on_board(file + lf, rank + lr):
                continue
            for turn in (-1, 1):
                if lf == 0:
                    block, target = (file + turn, rank + 2 * lr), (file + 2 * turn, rank + 3 * lr)
                else:
                    block, target = (file + 2 * lf, rank + turn), (file + 3 * lf, rank + 2 * turn)
                if on_board(*block) and block not in board and on_board(*target):
                    attacks.append(target)
    elif code == "p":
        forward = 1 if letter.isupper() else -1
        attacks += [s for s in ((file, rank + forward), (file + 1, rank), (file - 1, rank))
                    if on_board(*s)]
        if square in PALACES[1 if letter.isupper() else 0]:
            attacks += [s for s in palace_diagonal_neighbours(square)
                        if (s[1] - rank) * forward > 0]
    else:  # general or advisor: along its palace's lines
        for palace in PALACES:
            if square in palace:
                attacks += [s for s in ((file + 1, rank), (file - 1, rank), (file, rank + 1),
                                        (file, rank - 1)) if s in palace]
                attacks += palace_diagonal_neighbours(square)
    return attacks


def janggi_threat_counts(board):
    """Per side (0 the first player): elephant mobility (its attacks not on own pieces), the
    threat values of its pieces attacked and not defended (hanging), and of the defended
    ones attacked by a piece of lower threat value."""
    attacked_by = ({}, {})  # square -> the lowest threat value of a piece attacking it
    elephant = [0, 0]
    for square, letter in board.items():
        side = 0 if letter.isupper() else 1
        value = THREAT_VALUE[letter.lower()]
        for target in janggi_attacks(board, square):
            attacked_by[side][target] = min(value, attacked_by[side].get(target, value))
            if letter.lower() == "b":
                other = board.get(target)
                elephant[side] += other is None or other.isupper() != letter.isupper()
    hanging = [0, 0]
    lesser = [0, 0]
    for square, letter in board.items():
        side = 0 if letter.isupper() else 1
        value = THREAT_VALUE[letter.lower()]
        if letter.lower() == "k" or square not in attacked_by[1 - side]:
            continue
        if square not in attacked_by[side]:
            hanging[side] += value
        elif attacked_by[1 - side][square] < value:
            lesser[side] += value
    return elephant, hanging, lesser


def janggi_threats(board, mover, vector, term):
    elephant, hanging, lesser = janggi_threat_counts(board)
    waiter = 1 - mover
    vector[term["elephant mobility"]] = elephant[mover] - elephant[waiter]
    vector[term["hanging mover"]] = -hanging[mover]
    vector[term["hanging waiter"]] = hanging[waiter]
    vector[term["attacked by lesser mover"]] = -lesser[mover]
    vector[term["attacked by lesser waiter"]] = lesser[waiter]


def open_positions(path):
    """A positions file, plain or gzip-compressed (tools/data/tune-*.tsv.gz)."""
    import gzip

    if path.endswith(".gz"):
        return gzip.open(path, "rt", encoding="utf-8")
    return open(path, encoding="utf-8")


def solve(x, y, ridge):
    import numpy as np

    # A trace of ridge on every term keeps the system solvable (a term a game lacks is 0);
    # the square deltas are pulled toward zero so rare squares stay near the material.
    penalty = np.full(x.shape[1], 1e-6)
    penalty[SQUARE_DELTAS:SQUARE_DELTAS + 7 * SQUARES] = ridge
    penalty[ENDGAME_DELTAS:ENDGAME_DELTAS + 7 * SQUARES] = ridge
    # The king's material is not defined (one each side): pin it at zero.
    penalty[MATERIAL] = 1e9
    penalty[ENDGAME_MATERIAL] = 1e9
    return np.linalg.solve(x.T @ x + np.diag(penalty) * len(y) / 1000.0, x.T @ y)


def fit_one(variant, path, ridge, limit):
    import numpy as np

    rows, targets = [], []
    for one_path in path.split(","):
        with open_positions(one_path) as source:
            for line in source:
                fen, score = line.rstrip("\n").split("\t")[:2]
                rows.append(features(variant, fen))
                targets.append(float(score))
                if limit and len(rows) >= limit:
                    break
    x = np.array(rows)
    y = np.array(targets)
    # The error on positions the fit has not seen: every fifth position held out.
    held = np.arange(len(y)) % 5 == 0
    trial = solve(x[~held], y[~held], ridge)
    held_error = np.sqrt(np.mean((y[held] - x[held] @ trial) ** 2))
    weights = solve(x, y, ridge)
    residual = y - x @ weights
    print(f"{variant}: {len(y)} positions, rms score {np.sqrt(np.mean(y ** 2)):.0f}, "
          f"rms error {np.sqrt(np.mean(residual ** 2)):.0f} cp "
          f"({held_error:.0f} on every fifth position held out of the fit)")
    chariot = KINDS.index("r")
    scale = CHARIOT_VALUE[variant] / weights[MATERIAL + chariot]
    print(f"{variant}: fitted chariot {weights[MATERIAL + chariot]:.0f} cp, scaled by {scale:.3f}")
    weights = weights * scale
    names = ["king", "advisor", "elephant", "horse", "chariot", "cannon", "soldier"]
    for index, name in enumerate(names):
        print(f"  {name:9} {weights[MATERIAL + index]:7.1f}, endgame "
              f"{weights[MATERIAL + index] + weights[ENDGAME_MATERIAL + index]:7.1f}")
    for offset, name in enumerate(TERM_NAMES):
        print(f"  {name:28} {weights[TERMS + offset]:7.2f}")
    return weights


def square_table(name, doc, variant, weights, material, deltas):
    lines = [f"/// {variant.capitalize()}: {doc}",
             "#[rustfmt::skip]",
             f"pub const {variant.upper()}_{name}: [[i16; 90]; 8] = [",
             "    [0; 90],"]
    for letter in "kabnrcp":
        kind = KINDS.index(letter)
        values = []
        for square in range(90):
            forward, file = divmod(square, 9)
            folded = min(file, 8 - file)
            value = weights[material + kind] + weights[deltas + kind * SQUARES + forward * 5 + folded]
            values.append(str(int(round(value))))
        lines.append("    [")
        for start in range(0, 90, 9):
            lines.append("        " + ", ".join(values[start:start + 9]) + ",")
        lines.append("    ],")
    lines.append("];")
    return lines


TERM_DOCS = {
    "chariot mobility": "per square a chariot's rays reach",
    "horse mobility": "per free horse destination",
    "king safety": "per missing defender and enemy attacker",
    "cannon fade": "per cannon and piece gone below 32",
    "cannon reach": "per square a cannon reaches (moves and captures)",
    "cannon facing king": "per cannon on the enemy king's file or rank, nothing between",
    "cannon facing king over one": "per cannon facing the enemy king over one piece",
    "cannon facing king over two": "per cannon facing the enemy king over two pieces",
    "tempo": "for the side to move",
    "elephant mobility": "per square an elephant attacks that holds no own piece",
    "hanging mover": "per threat value of the mover's pieces attacked and not defended",
    "hanging waiter": "per threat value of the waiting side's pieces attacked and not defended",
    "attacked by lesser mover": "per threat value of the mover's defended pieces attacked by a lesser piece",
    "attacked by lesser waiter": "per threat value of the waiting side's defended pieces attacked by a lesser piece",
}


def rust_tables(variant, weights):
    lines = square_table("SQUARE_VALUES", "the value of each kind (by qipan's kind code, 0 unused) "
                         "on each\n/// square counted from its owner's side (`forward * 9 + file`), "
                         "material included,\n/// in the opening (all pieces on the board).",
                         variant, weights, MATERIAL, SQUARE_DELTAS)
    lines += square_table("ENDGAME_SHIFTS", "how much each value of the square table above changes "
                          "by the endgame (no\n/// chariot, horse or cannon left), reached in "
                          "proportion to the phase.",
                          variant, weights, ENDGAME_MATERIAL, ENDGAME_DELTAS)
    for offset, name in enumerate(TERM_NAMES):
        if variant == "xiangqi" and name in JANGGI_ONLY:
            continue
        constant = name.upper().replace(" ", "_")
        lines.append(f"/// {variant.capitalize()}: centipawns {TERM_DOCS[name]}.")
        lines.append(f"pub const {variant.upper()}_{constant}: i32 = {int(round(weights[TERMS + offset]))};")
    return "\n".join(lines)


# Shogi: the evaluation is qipan's own (src/engine/eval.rs `shogi_terms`), a weighted sum of
# 39 terms that the binary prints (`eval` in `qipan uci`); the fit finds new weights.
# The hand-made weights are the prior: the fit first scales them to Fairy-Stockfish's
# scores as a whole, then lets each weight move from that by ridge regression, and the
# result is scaled back to qipan's centipawns (the search's margins keep their meaning).
SHOGI_TERM_NAMES = (
    ["pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "tokin", "promoted lance",
     "promoted knight", "promoted silver", "horse", "dragon"]
    + [f"{name} in hand" for name in ["pawn", "lance", "knight", "silver", "gold", "bishop",
                                      "rook"]]
    + ["pawn advance", "silver advance", "knight advance", "bishop reach", "horse reach",
       "rook reach", "dragon reach", "lance reach", "king on the centre file",
       "king at home", "king advance", "king guards", "king danger", "tempo",
       "threatened (mover)", "threatened (waiter)", "attacked by lesser (mover)",
       "attacked by lesser (waiter)", "safe drop checks"])
# The hand-made weights (centipawns per unit of each term) the fit starts from.
SHOGI_PRIOR = ([90, 315, 405, 495, 540, 855, 990, 540, 540, 540, 540, 945, 1395]
               + [105, 350, 450, 560, 620, 950, 1100]
               + [4, 5, 5, 4, 3, 3, 3, 2, -15, 20, -25, 20, 1, 20, -10, 30, -10, 30, 0])
SHOGI_WEIGHT_UNIT = 16  # the Rust weights are in 1/16 centipawn
# The piece-square terms that follow the 39 above (`eval::shogi_square_terms`): for each
# board kind (the king among them) and square counted from the owner's side, the side to
# move's pieces there minus the opponent's. Their prior is 0 (material is counted above),
# and their own ridge pulls the squares a piece seldom stands on toward it.
SHOGI_KINDS = ["pawn", "lance", "knight", "silver", "gold", "bishop", "rook", "king", "tokin",
               "promoted lance", "promoted knight", "promoted silver", "horse", "dragon"]
SHOGI_SQUARES = 81
SHOGI_CORE_TERMS = len(SHOGI_PRIOR)
SHOGI_ALL_TERMS = SHOGI_CORE_TERMS + len(SHOGI_KINDS) * SHOGI_SQUARES
# (qipan prints the king-relation and hand-step terms after these, `eval::shogi_relation_terms`;
# this script does not fit them.)
# Terms the fit leaves at the prior. Fitted freely (ridge 10), the king-danger penalty grew
# 3x (its cap of 1,600 cp then outweighs a rook, and the search gives material for attacks
# that are not there) and the tempo 7x (it moves every static evaluation, and with it the
# pruning margins); with those weights qipan scored 19-28 over 47 games in self-play
# (tools/results/session9).
SHOGI_HELD = {"king danger", "tempo"}


def qipan_terms(qipan, fens):
    """qipan's evaluation terms of each shogi FEN (the `eval` command of `qipan uci`)."""
    import subprocess

    process = subprocess.Popen([qipan, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1)
    process.stdin.write("uci\nsetoption name UCI_Variant value shogi\n")
    rows = []
    for fen in fens:
        process.stdin.write(f"position fen {fen}\neval\n")
        process.stdin.flush()
        terms = None
        while True:
            line = process.stdout.readline()
            if not line:
                raise RuntimeError("qipan closed its output")
            if line.startswith("info string evaluation terms"):
                terms = [float(word) for word in line.split()[4:]]
            elif line.startswith("info string static evaluation"):
                break
            elif line.startswith("info string error"):
                raise RuntimeError(f"qipan: {line.strip()} for {fen}")
        if terms is None or len(terms) <= SHOGI_ALL_TERMS:
            raise RuntimeError(f"qipan printed no shogi evaluation terms for {fen}")
        # The king relations and hand steps that follow are fitted apart, on top of these
        # weights (tools/results/session38/fit_king_relations.py): refit them after these.
        rows.append(terms[:SHOGI_ALL_TERMS])
    process.stdin.write("quit\n")
    process.stdin.flush()
    process.wait(timeout=10)
    return rows


def shogi_positions(paths, qipan, limit):
    """The terms (qipan's) and scores (Fairy-Stockfish's) of the positions in `paths`
    (comma-separated)."""
    import numpy as np

    fens, targets, results = [], [], []
    for path in paths.split(","):
        if limit and len(fens) >= limit:
            break
        with open_positions(path) as source:
            for line in source:
                columns = line.rstrip("\n").split("\t")
                fens.append(columns[0])
                targets.append(float(columns[1]))
                # The game's result for the side to move, NaN where the file has none.
                outcome = columns[2] if len(columns) > 2 else "-"
                results.append(float("nan") if outcome == "-" else float(outcome))
                if limit and len(fens) >= limit:
                    break
    return (np.array(qipan_terms(qipan, fens), dtype=np.float64), np.array(targets),
            np.array(results))


def sigmoid(z):
    import numpy as np

    return 1.0 / (1.0 + np.exp(-z))


def result_scale(scores, results):
    """The centipawns K for which sigmoid(score / K) best predicts the game results (least
    squares over a grid): Fairy-Stockfish's scores read as winning chances."""
    import numpy as np

    known = ~np.isnan(results)
    grid = np.arange(50.0, 3001.0, 10.0)
    errors = [np.mean((results[known] - sigmoid(scores[known] / k)) ** 2) for k in grid]
    return float(grid[int(np.argmin(errors))])


def result_error(rows, weights, results, scale):
    """Mean squared error of the winning chances sigmoid(rows @ weights / scale) against the
    game results (positions with a result only)."""
    import numpy as np

    known = ~np.isnan(results)
    return float(np.mean((results[known] - sigmoid(rows[known] @ weights / scale)) ** 2))


def fit_shogi(paths, qipan, ridge, square_ridge, limit, test_paths=None, result_weight=0.0):
    import numpy as np

    x, y, results = shogi_positions(paths, qipan, limit)
    prior = np.zeros(SHOGI_ALL_TERMS)
    prior[:SHOGI_CORE_TERMS] = SHOGI_PRIOR
    own = x @ prior
    scale = (own @ y) / (own @ own)

    def ridge_penalty(count):
        # Per term, for `count` positions: the core terms' ridge, the squares' own, and the
        # held terms pinned to the prior.
        penalty = np.full(SHOGI_ALL_TERMS, ridge) * count / 1000.0
        penalty[SHOGI_CORE_TERMS:] = square_ridge * count / 1000.0
        for index, name in enumerate(SHOGI_TERM_NAMES):
            if name in SHOGI_HELD:
                penalty[index] = 1e12
        return penalty

    def solve_shogi(rows, scores):
        # Ridge toward the scaled prior: minimise |scores - rows w|^2 + penalty |w - scale prior|^2.
        penalty = ridge_penalty(len(scores))
        return np.linalg.solve(rows.T @ rows + np.diag(penalty),
                               rows.T @ scores + penalty * scale * prior)

    def solve_by_results(rows, scores, outcomes, start):
        # Texel-style: the winning chances sigmoid(rows w / K) fitted by Gauss-Newton to a
        # blend of the game's result (share result_weight) and FSF's score read as winning
        # chances (all of it where a position has no result), with the same ridge toward
        # the scaled prior, brought to probability units.
        target = sigmoid(scores / chances_scale)
        known = ~np.isnan(outcomes)
        target[known] = (1 - result_weight) * target[known] + result_weight * outcomes[known]
        weights = start.copy()
        base_penalty = ridge_penalty(len(scores))
        for _ in range(8):
            chances = sigmoid(rows @ weights / chances_scale)
            slope = chances * (1 - chances) / chances_scale
            penalty = base_penalty * np.mean(slope) ** 2
            jacobian = rows * slope[:, None]
            step = np.linalg.solve(
                jacobian.T @ jacobian + np.diag(penalty),
                jacobian.T @ (target - chances) - penalty * (weights - scale * prior))
            weights = weights + step
            del jacobian
        return weights

    chances_scale = result_scale(y, results) if result_weight > 0 else 0.0
    held = np.arange(len(y)) % 5 == 0
    trial = solve_shogi(x[~held], y[~held])
    if result_weight > 0:
        trial = solve_by_results(x[~held], y[~held], results[~held], trial)
    held_error = np.sqrt(np.mean((y[held] - x[held] @ trial) ** 2))
    held_prior = np.sqrt(np.mean((y[held] - scale * own[held]) ** 2))
    weights = solve_shogi(x, y)
    linear_weights = weights
    if result_weight > 0:
        weights = solve_by_results(x, y, results, weights)
        print(f"shogi: fitted to winning chances, {result_weight:.2f} from game results "
              f"({int(np.sum(~np.isnan(results)))} positions have one), FSF's scores read "
              f"with K = {chances_scale:.0f} cp")
    error = np.sqrt(np.mean((y - x @ weights) ** 2))
    print(f"shogi: {len(y)} positions, rms score {np.sqrt(np.mean(y ** 2)):.0f}, rms error "
          f"{np.sqrt(np.mean((y - scale * own) ** 2)):.0f} cp with the hand-made weights "
          f"(scaled by {scale:.3f}), {error:.0f} fitted; held out (every fifth position): "
          f"{held_prior:.0f} and {held_error:.0f}")
    if test_paths:
        # Positions of other games: every fifth position above shares its game with the
        # fitted ones, so this is the honest measure of how well the fit generalises.
        test_x, test_y, test_results = shogi_positions(test_paths, qipan, 0)
        print(f"shogi: {len(test_y)} positions of other games, rms error "
              f"{np.sqrt(np.mean((test_y - scale * (test_x @ prior)) ** 2)):.0f} cp with the "
              f"hand-made weights, {np.sqrt(np.mean((test_y - test_x @ weights) ** 2)):.0f} fitted")
        if np.any(~np.isnan(test_results)):
            # How well each evaluation foretells the games' results (mean squared error of
            # the winning chances; FSF's own scores for reference, 0.25 is a coin).
            k = chances_scale or result_scale(test_y, test_results)
            known = ~np.isnan(test_results)
            print(f"shogi: result error on {int(np.sum(known))} positions of other games "
                  f"(K = {k:.0f}): FSF's scores "
                  f"{np.mean((test_results[known] - sigmoid(test_y[known] / k)) ** 2):.4f}, "
                  f"hand-made {result_error(test_x, scale * prior, test_results, k):.4f}, "
                  f"fitted to scores {result_error(test_x, linear_weights, test_results, k):.4f}, "
                  f"this fit {result_error(test_x, weights, test_results, k):.4f}")
    weights = weights / scale
    for name, old, new in zip(SHOGI_TERM_NAMES, prior, weights):
        print(f"  {name:24} {old:7.1f} -> {new:7.1f}")
    for kind, name in enumerate(SHOGI_KINDS):
        table = weights[SHOGI_CORE_TERMS + kind * SHOGI_SQUARES:][:SHOGI_SQUARES]
        print(f"  {name} on each square, from its owner's side (own back rank last):")
        for rank in reversed(range(9)):
            print("    " + " ".join(f"{value:5.0f}" for value in table[rank * 9:rank * 9 + 9]))
    return weights


def shogi_tables(weights):
    values = [str(int(round(weight * SHOGI_WEIGHT_UNIT))) for weight in weights]
    core, squares = values[:SHOGI_CORE_TERMS], values[SHOGI_CORE_TERMS:]
    lines = [
        "/// Shogi: the weights of the evaluation's terms (`eval::shogi_terms`), in 1/16 centipawn,",
        "/// in the order the terms are listed there.",
        "#[rustfmt::skip]",
        f"pub const SHOGI_WEIGHTS: [i32; {len(core)}] = [",
        "    " + ", ".join(core[:13]) + ",",
        "    " + ", ".join(core[13:20]) + ",",
        "    " + ", ".join(core[20:]) + ",",
        "];",
        "",
        "/// Shogi: the weights of the piece-square terms (`eval::shogi_square_terms`), in 1/16",
        "/// centipawn, by board kind − 1 (the king is 7) and square counted from the owner's side.",
        "#[rustfmt::skip]",
        f"pub const SHOGI_SQUARE_WEIGHTS: [[i32; {SHOGI_SQUARES}]; {len(SHOGI_KINDS)}] = [",
    ]
    for kind, name in enumerate(SHOGI_KINDS):
        table = squares[kind * SHOGI_SQUARES:][:SHOGI_SQUARES]
        lines.append(f"    // {name}")
        lines.append("    [")
        for rank in range(9):
            lines.append("        " + ", ".join(table[rank * 9:rank * 9 + 9]) + ",")
        lines.append("    ],")
    lines.append("];")
    return "\n".join(lines)


def fit(args):
    parts = [
        "//! Evaluation tables and weights, fitted to Fairy-Stockfish's scores of positions from",
        "//! its own games by `tools/tune_eval.py` (ridge regression, rescaled to qipan's",
        "//! material scale). Generated: change the script, not this file.",
        "",
    ]
    for variant, path in (("xiangqi", args.xiangqi), ("janggi", args.janggi)):
        weights = fit_one(variant, path, args.ridge, args.limit)
        parts.append(rust_tables(variant, weights))
        parts.append("")
    parts.append(shogi_tables(fit_shogi(args.shogi, args.qipan, args.shogi_ridge,
                                        args.shogi_square_ridge, args.limit, args.shogi_test,
                                        args.shogi_result_weight)))
    parts.append("")
    with open(args.output, "w", encoding="utf-8") as out:
        out.write("\n".join(parts))
    print(f"wrote {args.output}")


def threat_vectors(args):
    """Test vectors for `janggi_threat_counts` (src/engine/eval.rs): every `--every`-th
    position of a janggi positions file with the counts this script fits to."""
    with open_positions(args.positions) as source, open(args.output, "w", encoding="utf-8") as out:
        out.write("# fen\telephant mobility (first, second)\thanging\tattacked by lesser; "
                  "written by tools/tune_eval.py threat-vectors\n")
        for index, line in enumerate(source):
            if index % args.every:
                continue
            fen = line.split("\t")[0]
            elephant, hanging, lesser = janggi_threat_counts(board_of(fen))
            out.write(f"{fen}\t{elephant[0]} {elephant[1]}\t{hanging[0]} {hanging[1]}\t"
                      f"{lesser[0]} {lesser[1]}\n")


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
    fit_parser.add_argument("--xiangqi", required=True, help="positions files, comma-separated")
    fit_parser.add_argument("--janggi", required=True, help="positions files, comma-separated")
    fit_parser.add_argument("--shogi", required=True,
                            help="shogi positions, one file or several joined by commas "
                                 "(weights for qipan's shogi terms)")
    fit_parser.add_argument("--qipan", default="target/release/qipan", help="for shogi: the build that prints its evaluation terms")
    fit_parser.add_argument("--ridge", type=float, default=1.0)
    fit_parser.add_argument("--shogi-ridge", type=float, default=100.0)
    fit_parser.add_argument("--shogi-test", help="shogi positions of other games, only to "
                            "report the fit's error on (comma-separated files)")
    fit_parser.add_argument("--shogi-square-ridge", type=float, default=100.0,
                            help="ridge of the shogi piece-square terms (toward 0)")
    fit_parser.add_argument("--shogi-result-weight", type=float, default=0.0,
                            help="above 0: fit shogi's winning chances to this share of the "
                                 "game results (third column) and the rest of FSF's scores")
    fit_parser.add_argument("--limit", type=int, default=0)
    fit_parser.add_argument("--output", required=True)
    vectors = commands.add_parser("threat-vectors")
    vectors.add_argument("--positions", default="tools/data/tune-janggi.tsv.gz")
    vectors.add_argument("--every", type=int, default=97)
    vectors.add_argument("--output", default="tests/data/janggi_threat_counts.tsv")
    args = parser.parse_args()
    if args.command == "generate":
        generate(args)
    elif args.command == "threat-vectors":
        threat_vectors(args)
    else:
        fit(args)


if __name__ == "__main__":
    main()
