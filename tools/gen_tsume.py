#!/usr/bin/env python3
"""Generate tsume (mate-by-checks) problems for qipan's df-pn solver, with cshogi as the oracle.

Random sparse positions: Gote's king on the first ranks with a few defenders, a few
Sente pieces near it, one to three pieces in Sente's hand, and every remaining piece in
Gote's hand (the tsume convention). cshogi's `mate_move(ply)` (an exhaustive mate search
to a fixed depth) gives the shortest mate length: the smallest odd ply it mates in.
Positions mating in 1 or 3 plies are kept only up to a small share; longer ones are the
point. Positions it cannot mate within the deepest ply tried are printed as `nomate`
only when no mate exists within that depth (the solver must then not claim a shorter one).

Output, one a line: `sfen;plies` (plies = mate length, or 0 for none within --max-ply).

    python3 tools/gen_tsume.py 40 11 > tests/data/tsume.txt
"""
import random
import sys
import time

import cshogi

rng = random.Random(11)

SET = {"R": 2, "B": 2, "G": 4, "S": 4, "N": 4, "L": 4, "P": 18}


def position():
    board = [["" for _ in range(9)] for _ in range(9)]  # board[row][col], row 0 = rank a
    kr, kc = rng.choice([0, 0, 1]), rng.randrange(9)
    board[kr][kc] = "k"
    used = {k: 0 for k in SET}

    def place(letter, rows, cols):
        base = letter.lstrip("+").upper()
        for _ in range(60):
            r, c = rng.choice(rows), rng.choice(cols)
            if not board[r][c]:
                board[r][c] = letter
                used[base] += 1
                return

    near_cols = [c for c in range(kc - 2, kc + 3) if 0 <= c < 9]
    for letter in rng.sample(["g", "s", "p", "l", "n", "g", "s", "p"], rng.randint(1, 4)):
        if letter in "pl":
            place(letter, [0, 1, 2, 3][: 3], near_cols)
        else:
            place(letter, [0, 1, 2], near_cols)
    for letter in rng.sample(["R", "B", "G", "S", "N", "L", "+P", "+R", "+B", "P"], rng.randint(1, 3)):
        rows = [1, 2, 3, 4] if letter not in ("N",) else [2, 3, 4]
        if letter in ("R", "+R", "B", "+B", "L"):
            rows = list(range(0, 9))
        place(letter, rows, list(range(9)) if letter in ("R", "+R", "B", "+B", "L") else near_cols)
    hand = rng.sample(["R", "B", "G", "G", "S", "S", "N", "L", "P"], rng.randint(1, 3))
    for letter in hand:
        used[letter] += 1
    if any(used[k] > SET[k] for k in SET):
        return None
    rows = []
    for r in range(9):
        row, empty = "", 0
        for c in range(9):
            if board[r][c]:
                if empty:
                    row += str(empty)
                    empty = 0
                row += board[r][c]
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    rest = "".join((str(SET[k] - used[k]) if SET[k] - used[k] > 1 else "") + k.lower() for k in SET if SET[k] - used[k] > 0)
    # Counted letters (2G, not GG): cshogi reads a repeated letter as one piece.
    sente = "".join((str(hand.count(k)) if hand.count(k) > 1 else "") + k for k in SET if k in hand)
    return "/".join(rows) + f" b {sente}{rest} 1"


def usable_board(sfen):
    """The cshogi board of a generated position fit for a problem, or None: legal,
    neither side in check (so Sente cannot just take the king), Sente with a move."""
    if sfen is None:
        return None
    board = cshogi.Board()
    try:
        board.set_sfen(sfen)
    except Exception:
        return None
    if not board.is_ok() or board.is_check():
        return None
    flipped = cshogi.Board()
    flipped.set_sfen(sfen.replace(" b ", " w "))
    if flipped.is_check() or not board.legal_moves:
        return None
    return board


max_ply = 11


def mate_length(board):
    if board.mate_move_in_1ply():
        return 1
    for ply in range(3, max_ply + 1, 2):
        if board.mate_move(ply):
            return ply
    return 0


def main():
    global max_ply
    wanted = int(sys.argv[1]) if len(sys.argv) > 1 else 30
    max_ply = int(sys.argv[2]) if len(sys.argv) > 2 else 11
    rng.seed(int(sys.argv[3]) if len(sys.argv) > 3 else 11)
    found = {}
    quota = {1: max(1, wanted // 20), 3: max(1, wanted // 12), 5: max(1, wanted // 6)}
    nomate = 0
    tries = 0
    started = time.time()
    while sum(found.values()) < wanted and tries < 200000:
        tries += 1
        sfen = position()
        board = usable_board(sfen)
        if board is None:
            continue
        n = mate_length(board)
        if n == 0:
            if nomate < wanted // 8:
                nomate += 1
                print(f"{sfen};0", flush=True)
            continue
        if found.get(n, 0) >= quota.get(n, wanted):
            continue
        found[n] = found.get(n, 0) + 1
        print(f"{sfen};{n}", flush=True)
    print(f"# {tries} tries, {time.time() - started:.0f} s, lengths {sorted(found.items())}, nomate {nomate}", file=sys.stderr)


if __name__ == "__main__":
    main()
