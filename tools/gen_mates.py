#!/usr/bin/env python3
"""Find mate-in-1/2/3 test positions for tests/engine.rs with Fairy-Stockfish as the oracle.

Random sparse positions (kings in their palaces/camps, a few attackers for the side to
move, a few defenders) are validated with pyffish and searched by the Debian
`fairy-stockfish` to `go depth 11`; those it scores `mate N` (N = 1, 2, 3) are printed
as `variant;fen;N;fsf-bestmove`. Shogi candidates whose mate uses a pawn-drop mate
(legal for Fairy-Stockfish, illegal under qipan's rules) are filtered by the test
itself, which demands the same mate distance from qipan.

    python3 tools/gen_mates.py xiangqi 40 > /tmp/xiangqi.mates
"""
import random
import subprocess
import sys

import pyffish

variant = sys.argv[1]
wanted = int(sys.argv[2]) if len(sys.argv) > 2 else 30
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 7)

fsf = subprocess.Popen(["/usr/games/fairy-stockfish"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)


def send(line):
    fsf.stdin.write(line + "\n")
    fsf.stdin.flush()


def until(prefix):
    lines = []
    while True:
        line = fsf.stdout.readline().strip()
        lines.append(line)
        if line.startswith(prefix):
            return line, lines


send("uci")
until("uciok")
send(f"setoption name UCI_Variant value {variant}")
send("isready")
until("readyok")


def nine_by_ten(attackers, defenders):
    board = [["" for _ in range(9)] for _ in range(10)]  # board[rank][file], rank 0 = first player's
    board[rng.choice([0, 1, 2])][rng.choice([3, 4, 5])] = "K"
    while True:
        r, f = rng.choice([7, 8, 9]), rng.choice([3, 4, 5])
        if not board[r][f]:
            board[r][f] = "k"
            break
    for letters in (attackers, defenders):
        for letter in letters:
            for _ in range(50):
                r, f = rng.randrange(10), rng.randrange(9)
                # Second-player advisors and elephants stay on their own side (palace rows).
                if letter in "ab" and not (r in (7, 8, 9) and f in (2, 3, 4, 5, 6)):
                    continue
                if not board[r][f]:
                    board[r][f] = letter
                    break
    rows = []
    for r in range(9, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if board[r][f]:
                if empty:
                    row += str(empty)
                    empty = 0
                row += board[r][f]
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    return "/".join(rows)


def shogi_position():
    board = [["" for _ in range(9)] for _ in range(9)]
    kr, kf = rng.choice([0, 1]), rng.randrange(9)
    board[kr][kf] = "K"
    r, f = rng.choice([7, 8]), rng.randrange(9)
    board[r][f] = "k"
    for letter in rng.sample(["R", "B", "G", "S", "+P", "N", "L", "+R", "+B"], 3) + rng.sample(["g", "s", "p", "p", "l", "n"], 3):
        for _ in range(50):
            r2, f2 = rng.randrange(9), rng.randrange(9)
            if not board[r2][f2]:
                board[r2][f2] = letter
                break
    rows = []
    for r in range(8, -1, -1):
        row, empty = "", 0
        for f in range(9):
            if board[r][f]:
                if empty:
                    row += str(empty)
                    empty = 0
                row += board[r][f]
            else:
                empty += 1
        if empty:
            row += str(empty)
        rows.append(row)
    hand = "".join(rng.sample(["G", "S", "R", "B", "N", "L", "P", "P"], rng.randint(1, 3)))
    return "/".join(rows) + f"[{hand}] w - - 0 1"


found = {1: 0, 2: 0, 3: 0}
tries = 0
while min(found.values()) < wanted // 3 and tries < 20000:
    tries += 1
    if variant == "shogi":
        fen = shogi_position()
    else:
        attackers = rng.sample(["R", "R", "C", "N", "P", "P"] if variant == "xiangqi" else ["R", "R", "C", "N", "P", "P", "B"], 3)
        defenders = rng.sample(["a", "a", "b", "p", "n", "c"], 2)
        fen = nine_by_ten(attackers, defenders) + " w - - 0 1"
    try:
        if pyffish.validate_fen(fen, variant) != 1:
            continue
        if not pyffish.legal_moves(variant, fen, []):
            continue
        # The side not to move must not be in check.
        flipped = fen.replace(" w ", " b ")
        if pyffish.gives_check(variant, flipped, []):
            continue
        if pyffish.gives_check(variant, fen, []):
            continue
    except Exception:
        continue
    send(f"position fen {fen}")
    send("go depth 11")
    best, lines = until("bestmove")
    infos = [l for l in lines if " score mate " in l]
    if not infos:
        continue
    words = infos[-1].split()
    n = int(words[words.index("mate") + 1])
    if n in found and found[n] < wanted // 3:
        found[n] += 1
        print(f"{variant};{fen};{n};{best.split()[1]}", flush=True)
