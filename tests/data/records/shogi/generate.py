"""Writes the cshogi-made fixtures of tests/records_shogi.rs and `expected.txt`.

Run once with `python3 generate.py` (needs `pip install cshogi`); the outputs are
committed, so `cargo test` never runs this. Games are random legal play with fixed seeds.
"""
import datetime
import random

import cshogi
import cshogi.CSA
import cshogi.KI2
import cshogi.KIF

START = datetime.datetime(2024, 1, 2, 10, 0, 0)
EXPECTED = []


def random_game(sfen, seed, plies):
    """Plays random legal moves from `sfen`; returns the board and the moves."""
    rng = random.Random(seed)
    board = cshogi.Board(sfen=sfen)
    moves = []
    for _ in range(plies):
        legal = list(board.legal_moves)
        if not legal or board.is_draw() == cshogi.REPETITION_DRAW:
            break
        # Prefer captures and promotions now and then so games reach drops and 同.
        move = rng.choice(legal)
        moves.append(move)
        board.push(move)
    return board, moves


def usi_line(sfen, moves):
    return sfen + ";" + " ".join(cshogi.move_to_usi(m) for m in moves)


def kif(name, sfen, seed, plies, handicap=None, encoding_ext=".kif"):
    board, moves = random_game(sfen, seed, plies)
    path = name + encoding_ext
    exporter = cshogi.KIF.Exporter(path)
    exporter.header(["先手さん", "後手さん"], START, handicap)
    for index, move in enumerate(moves):
        exporter.move(move, index % 7, sum(i % 7 for i in range(index + 1)))
    mated = board.is_game_over()
    if not mated:
        exporter.end("resign", 3, 30)
    exporter.close()
    EXPECTED.append(path + ";" + usi_line(sfen, moves) + ";" + ("checkmate" if mated else "resign"))


def ki2(name, seed, plies):
    sfen = cshogi.STARTING_SFEN
    board, moves = random_game(sfen, seed, plies)
    path = name + ".ki2"
    exporter = cshogi.KI2.Exporter(path)
    exporter.header(["先手さん", "後手さん"], START)
    for index, move in enumerate(moves):
        exporter.move(move, "コメント" if index == 3 else None)
    exporter.end("%TORYO")
    exporter.close()
    EXPECTED.append(path + ";" + usi_line(sfen, moves) + ";resign")


def csa(name, sfen, seed, plies, version=None):
    board, moves = random_game(sfen, seed, plies)
    path = name + ".csa"
    exporter = cshogi.CSA.Exporter(path, encoding="utf-8")
    # cshogi's exporter wants a Board for any start but the even one.
    start = sfen if sfen == EVEN else cshogi.Board(sfen=sfen)
    exporter.info(start, ["Sente", "Gote"], {"EVENT": "random", "START_TIME": "2024/01/02 10:00:00"},
                  version=version)
    for index, move in enumerate(moves):
        exporter.move(move, time=index % 5, comment="note" if index == 2 else None)
    mated = board.is_game_over()
    exporter.endgame("%TSUMI" if mated else "%TORYO", 1)
    exporter.close()
    EXPECTED.append(path + ";" + usi_line(sfen, moves) + ";" + ("checkmate" if mated else "resign"))


EVEN = cshogi.STARTING_SFEN
TWO_PIECE = "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
LANCE = "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"
ODD = "ln1gk2nl/1r1s2sb1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1BG4R1/LNS1KGSNL b G 1"
ODD_GOTE = "4k4/9/4P4/9/9/9/9/9/4K4 w 2r2b4g4s4n4l17p 1"

kif("cshogi_even", EVEN, 1, 80)
kif("cshogi_even_utf8", EVEN, 2, 120, encoding_ext=".kifu")
kif("cshogi_long", EVEN, 3, 300)
kif("cshogi_two_piece", TWO_PIECE, 4, 60, handicap="二枚落ち")
kif("cshogi_lance", LANCE, 5, 60, handicap="香落ち")
kif("cshogi_bod", ODD, 6, 50, handicap="sfen " + ODD)
kif("cshogi_bod_gote", ODD_GOTE, 7, 40, handicap="sfen " + ODD_GOTE)
ki2("cshogi_even", 8, 70)
csa("cshogi_even", EVEN, 9, 90, version="V2.2")
csa("cshogi_long", EVEN, 10, 250)
csa("cshogi_two_piece", TWO_PIECE, 11, 60, version="V2.2")
csa("cshogi_bod", ODD, 12, 50, version="V2.2")
csa("cshogi_bod_gote", ODD_GOTE, 13, 40, version="V2.2")

with open("expected.txt", "w", encoding="utf-8") as out:
    out.write("# file;start sfen;usi moves;result (written by generate.py)\n")
    for line in EXPECTED:
        out.write(line + "\n")
