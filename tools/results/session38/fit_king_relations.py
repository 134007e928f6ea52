#!/usr/bin/env python3
"""Fits shogi's king-relation and hand-step tables on top of the shipped evaluation (session 38).

    python3 tools/results/session38/fit_king_relations.py target/release/qipan \
        src/engine/tuned_relations.rs tools/data/tune-shogi.tsv.gz \
        tools/data/tune-shogi-2.tsv.gz tools/data/tune-shogi-3.tsv.gz \
        tools/data/tune-shogi-test.tsv.gz tools/data/tune-shogi-results-a.tsv.gz \
        tools/data/tune-shogi-results-b.tsv.gz tools/data/tune-shogi-results-test.tsv.gz

writes the shipped tables (reach 4, all seven files: 182,537 positions). Session 38 first
landed reach 3 fitted on the first four files alone (`REACH=3` and those four files).

The build's evaluation without these tables (its `levels evaluation`, printed by `eval`
of `qipan uci`; session 38 fitted on 1530151's static evaluation, the same numbers) of
every position is one column of the fit. The positions are Fairy-Stockfish's scored ones (`fen<TAB>score...`, in game
order: a game starts where the move number falls). The other columns, each counted +1
for a piece of the side to move and -1 for the opponent's:

- for each board kind but the king and each of the two kings, the piece's place from
  that king as its owner sees it: file distance 0..REACH (REACH = that or more), rank
  offset -REACH..REACH (forward positive, clamped); REACH is 4 unless the environment
  variable REACH says otherwise;
- for each kind in hand, the first, second, ... eighth piece of it (pawns up to 8,
  gold, silver, knight and lance up to 4, bishop and rook up to 2).

Ridge regression (ridge 300 on the tables, none on the evaluation's scale). Every fifth
game is held out first and the held-out rms printed; then the tables are fitted on all
games, divided by the evaluation's fitted scale (so they are in qipan's centipawns) and
written as Rust in sixteenths of a centipawn.
"""

import gzip
import os
import subprocess
import sys

import numpy as np
import scipy.sparse as sparse

KINDS = {"p": 0, "l": 1, "n": 2, "s": 3, "g": 4, "b": 5, "r": 6,
         "+p": 7, "+l": 8, "+n": 9, "+s": 10, "+b": 11, "+r": 12, "k": 13}
HAND_LETTERS = "plnsgbr"
HAND_CAPS = [8, 4, 4, 4, 4, 2, 2]
# How far the tables see from a king: file distance 0..=REACH, rank offset -REACH..=REACH.
REACH = int(os.environ.get("REACH", "4"))
DISTANCES = REACH + 1
OFFSETS = 2 * REACH + 1
RELATIONS = 2 * 13 * DISTANCES * OFFSETS
WIDTH = RELATIONS + 7 * 8
RIDGE = 300.0


def parse(fen):
    board, rest = fen.split("[", 1)
    hand, rest = rest.split("]", 1)
    # Fairy-Stockfish writes "w" for the first player (upper case), who moves first.
    side_to_move = 0 if rest.split()[0] == "w" else 1
    pieces = []
    for row, rank in enumerate(board.split("/")):
        file = 0
        promoted = False
        for char in rank:
            if char.isdigit():
                file += int(char)
            elif char == "+":
                promoted = True
            else:
                kind = ("+" if promoted else "") + char.lower()
                promoted = False
                pieces.append((0 if char.isupper() else 1, KINDS[kind], file, row))
                file += 1
    hands = [[0] * 7, [0] * 7]
    for char in hand:
        hands[0 if char.isupper() else 1][HAND_LETTERS.index(char.lower())] += 1
    return pieces, hands, side_to_move


def seen_by(side, file, row):
    """(file, rank) as `side` sees the board: rank 0 is its own back rank."""
    return (file, 8 - row) if side == 0 else (8 - file, row)


def columns(fen):
    pieces, hands, side_to_move = parse(fen)
    kings = {side: (file, row) for side, kind, file, row in pieces if kind == 13}
    cols, values = [], []
    for side, kind, file, row in pieces:
        if kind == 13:
            continue
        sign = 1 if side == side_to_move else -1
        for which, king_side in ((0, side), (1, 1 - side)):
            if king_side not in kings:
                continue
            piece_file, piece_rank = seen_by(side, file, row)
            king_file, king_rank = seen_by(side, *kings[king_side])
            distance = min(abs(piece_file - king_file), REACH)
            offset = max(-REACH, min(REACH, piece_rank - king_rank)) + REACH
            cols.append(((which * 13 + kind) * DISTANCES + distance) * OFFSETS + offset)
            values.append(sign)
    for side in (0, 1):
        sign = 1 if side == side_to_move else -1
        for kind in range(7):
            for step in range(min(hands[side][kind], HAND_CAPS[kind])):
                cols.append(RELATIONS + kind * 8 + step)
                values.append(sign)
    return cols, values


def read_positions(paths):
    rows = []
    game = 0
    for path in paths:
        opener = gzip.open if path.endswith(".gz") else open
        last_move = None
        with opener(path, "rt") as source:
            for line in source:
                fields = line.rstrip("\n").split("\t")
                move = int(fields[0].split()[-1])
                if last_move is not None and move < last_move:
                    game += 1
                last_move = move
                rows.append((fields[0], float(fields[1]), game))
        game += 1
    return rows


def static_evaluations(binary, fens):
    engine = subprocess.Popen([binary, "uci"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True, bufsize=1)
    engine.stdin.write("uci\nsetoption name UCI_Variant value shogi\n")
    values = []
    for fen in fens:
        engine.stdin.write(f"position fen {fen}\neval\n")
        engine.stdin.flush()
        while True:
            answer = engine.stdout.readline()
            if not answer:
                sys.exit(f"qipan closed its output at {fen}")
            if answer.startswith("info string levels evaluation"):
                values.append(float(answer.split()[4]))
                break
    engine.stdin.write("quit\n")
    engine.stdin.flush()
    return np.array(values)


def fit(matrix, labels, rows):
    gram = (matrix[rows].T @ matrix[rows]).toarray()
    ridge = np.full(gram.shape[0], RIDGE)
    ridge[0] = 0.0
    return np.linalg.solve(gram + np.diag(ridge), matrix[rows].T @ labels[rows])


def rms(values):
    return float(np.sqrt(np.mean(values ** 2)))


def main():
    binary, output = sys.argv[1], sys.argv[2]
    rows = read_positions(sys.argv[3:])
    fens = [row[0] for row in rows]
    labels = np.array([row[1] for row in rows])
    games = np.array([row[2] for row in rows])
    static = static_evaluations(binary, fens)
    data, indices, pointers = [], [], [0]
    for fen in fens:
        cols, values = columns(fen)
        indices += cols
        data += values
        pointers.append(len(indices))
    tables = sparse.csr_matrix((np.array(data, float), indices, pointers),
                               shape=(len(fens), WIDTH))
    matrix = sparse.hstack([sparse.csr_matrix(static[:, None]), tables]).tocsr()
    held_out = games % 5 == 0
    train = ~held_out
    scale = (static[train] @ labels[train]) / (static[train] @ static[train])
    weights = fit(matrix, labels, train)
    print(f"{len(fens)} positions, {games.max() + 1} games, {held_out.sum()} held out: "
          f"rms label {rms(labels):.0f}; evaluation scaled by {scale:.3f}: held-out rms "
          f"{rms(scale * static[held_out] - labels[held_out]):.1f}; with the tables "
          f"(scale {weights[0]:.3f}): {rms(matrix[held_out] @ weights - labels[held_out]):.1f}")
    weights = fit(matrix, labels, np.ones(len(fens), bool))
    sixteenths = np.rint(weights[1:] / weights[0] * 16).astype(int)
    print(f"all games: scale {weights[0]:.3f}; table entries from {sixteenths.min()} to "
          f"{sixteenths.max()} sixteenths of a centipawn")
    relations = sixteenths[:RELATIONS].reshape(2, 13, DISTANCES, OFFSETS)
    steps = sixteenths[RELATIONS:].reshape(7, 8)
    with open(output, "w") as out:
        out.write("//! Shogi's king-relation and hand-step tables, fitted on top of the rest of the\n"
                  "//! evaluation by `tools/results/session38/fit_king_relations.py` (ridge regression\n"
                  "//! to Fairy-Stockfish's scores). Generated: change the script, not this file.\n\n")
        out.write("/// How far the king-relation tables see: file distance 0..=REACH (REACH or more),\n"
                  "/// rank offset -REACH..=REACH (clamped).\n")
        out.write(f"pub const SHOGI_RELATION_REACH: usize = {REACH};\n\n")
        out.write("/// For each board kind but the king (`kind_index`) and each king (0 its own, 1 the\n"
                  "/// enemy's), a piece's worth by its place from that king as its owner sees it: file\n"
                  "/// distance, then rank offset + REACH (forward positive), in sixteenths of a\n"
                  "/// centipawn.\n")
        out.write(f"#[rustfmt::skip]\npub const SHOGI_KING_RELATIONS: [[[[i16; {OFFSETS}]; {DISTANCES}]; 13]; 2] = [\n")
        for which in range(2):
            out.write("    [\n")
            for kind in range(13):
                out.write("        [\n")
                for distance in range(DISTANCES):
                    out.write("            [" + ", ".join(str(v) for v in relations[which, kind, distance]) + "],\n")
                out.write("        ],\n")
            out.write("    ],\n")
        out.write("];\n\n")
        out.write("/// For each kind in hand (pawn, lance, knight, silver, gold, bishop, rook), the worth of\n"
                  "/// its first, second, ... eighth piece beyond the linear hand term, in sixteenths\n"
                  "/// of a centipawn.\n")
        out.write("#[rustfmt::skip]\npub const SHOGI_HAND_STEPS: [[i16; 8]; 7] = [\n")
        for kind in range(7):
            out.write("    [" + ", ".join(str(v) for v in steps[kind]) + "],\n")
        out.write("];\n")


if __name__ == "__main__":
    main()
