#!/usr/bin/env python3
"""Writes tests/data/records/: game records in other programs' dialects, made with
pyffish (Fairy-Stockfish's notation code) and cchess (a Python xiangqi library), each with a `.moves` file listing the
engine-coordinate moves the record must read as. Run from the repository root."""
import random
import pyffish as sf

OUT = "tests/data/records/"


def random_game(variant, fen, plies, seed, allow_pass=False):
    rng = random.Random(seed)
    moves = []
    for _ in range(plies):
        legal = sf.legal_moves(variant, fen, moves)
        if not legal:
            break
        if sf.is_optional_game_end(variant, fen, moves)[0]:
            break
        choices = [m for m in legal if allow_pass or m[:2] != m[2:]] or legal
        moves.append(rng.choice(choices))
    return moves


def sans(variant, fen, moves, notation):
    return [sf.get_san(variant, sf.get_fen(variant, fen, moves[:i]), m, False, notation)
            for i, m in enumerate(moves)]


def movetext(words, per_line=12):
    out, line = [], []
    for i, w in enumerate(words):
        if i % 2 == 0:
            line.append(f"{i // 2 + 1}.")
        line.append(w)
        if len(line) >= per_line:
            out.append(" ".join(line))
            line = []
    if line:
        out.append(" ".join(line))
    return "\n".join(out)


def write_moves(name, fen, moves):
    with open(OUT + name + ".moves", "w") as f:
        f.write(fen + "\n" + "\n".join(moves) + "\n")


# 1. Xiangqi, WXF as Fairy-Stockfish writes it ('=' for sideways moves).
fen = sf.start_fen("xiangqi")
moves = random_game("xiangqi", fen, 80, 1)
words = sans("xiangqi", fen, moves, sf.NOTATION_XIANGQI_WXF)
with open(OUT + "xiangqi_fsf_wxf.pgn", "w") as f:
    f.write('[Game "Chinese Chess"]\n[Event "pyffish random game"]\n[Red "A"]\n[Black "B"]\n'
            '[Result "*"]\n[Format "WXF"]\n\n' + movetext(words) + " *\n")
write_moves("xiangqi_fsf_wxf", fen, moves)

# 2. Xiangqi, pychess-variants style: [Variant "Xiangqi"], FSF SAN with ranks 1-10.
moves = random_game("xiangqi", fen, 60, 2)
words = sans("xiangqi", fen, moves, sf.NOTATION_SAN)
with open(OUT + "xiangqi_pychess_san.pgn", "w") as f:
    f.write('[Event "Casual game"]\n[Site "pychess"]\n[Variant "Xiangqi"]\n[White "a"]\n[Black "b"]\n'
            '[Result "*"]\n\n' + movetext(words) + " *\n")
write_moves("xiangqi_pychess_san", fen, moves)

# 3. Janggi, pychess-variants style: [Variant "Janggi"], [FEN] (setups), FSF SAN, passes.
jfen = "rbna1anbr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1"
moves = random_game("janggi", jfen, 70, 3, allow_pass=True)
words = sans("janggi", jfen, moves, sf.NOTATION_SAN)
with open(OUT + "janggi_pychess_san.pgn", "w") as f:
    f.write('[Event "Casual game"]\n[Site "pychess"]\n[Variant "Janggi"]\n[White "cho"]\n[Black "han"]\n'
            f'[Result "*"]\n[FEN "{jfen}"]\n[SetUp "1"]\n\n' + movetext(words) + " *\n")
write_moves("janggi_pychess_san", jfen, moves)

# 4. Janggi .gib, Korean coordinates from FSF's NOTATION_JANGGI (P71-72 -> 71졸72).
HANGUL = {"K": "장", "A": "사", "E": "상", "H": "마", "R": "차", "C": "포"}
HANJA = {"K": ("楚", "漢"), "A": ("士", "士"), "E": ("象", "象"), "H": ("馬", "馬"),
         "R": ("車", "車"), "C": ("包", "包"), "P": ("卒", "兵")}


def korean(notation, ply, hanja):
    piece, rest = notation[0], notation[1:].rstrip("+#")
    if rest[:2] == rest[-2:] and piece == "K" and len(rest) == 5:
        return "한수쉼"
    side = ply % 2
    if hanja:
        name = HANJA[piece][side]
    else:
        name = HANGUL.get(piece, "졸" if side == 0 else "병")
    return rest[:2] + name + rest[-2:] + ("장군" if notation.endswith("+") else "")


gfen = "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ANBR w - - 0 1"
moves = random_game("janggi", gfen, 60, 4, allow_pass=True)
notes = sans("janggi", gfen, moves, sf.NOTATION_JANGGI)
for name, hanja, encoding in [("janggi_utf8.gib", False, "utf-8"), ("janggi_cp949.gib", True, "cp949")]:
    words = [f"{i + 1}. {korean(n, i, hanja)}" for i, n in enumerate(notes)]
    lines = [" ".join(words[i:i + 6]) for i in range(0, len(words), 6)]
    text = ('[대회명 "친선대국"]\n[회전 "미상"]\n[대국일자 "2016-12-06"]\n[대국장소 "미상"]\n'
            '[초대국자 "하여명"]\n[한대국자 "전동하"]\n[초차림 "마상마상"]\n[한차림 "상마상마"]\n'
            f'[제한시간 "미상"]\n[총수 "{len(moves)}"]\n[대국결과 "한 시간승"]\n\n'
            + "\n".join(lines) + "\n")
    data = text.replace("\n", "\r\n").encode(encoding)
    if encoding == "cp949":
        data += b"\x1a"
    with open(OUT + name, "wb") as f:
        f.write(data)
    write_moves(name.replace(".gib", ""), gfen, moves)
# 5. Xiangqi in Chinese notation as cchess (PyPI `cchess` 1.25.5) writes its PGN.
import re
import cchess

fen = sf.start_fen("xiangqi")
moves = random_game("xiangqi", fen, 60, 6)


def iccs(m):
    a = re.match(r"([a-i])(\d+)([a-i])(\d+)", m).groups()
    return f"{a[0]}{int(a[1]) - 1}{a[2]}{int(a[3]) - 1}"


board = cchess.ChessBoard(cchess.FULL_INIT_FEN)
game = cchess.Game(board.copy())
last = None
for m in moves:
    mv = board.move_iccs(iccs(m))
    assert mv is not None, m
    if last is None:
        game.append_first_move(mv)
    else:
        last.append_next_move(mv)
    last = mv
    board.next_turn()
game.save_to(OUT + "xiangqi_cchess_chinese.pgn")
write_moves("xiangqi_cchess_chinese", fen, moves)
print("written")
