#!/usr/bin/env python3
"""Find long mates (13 plies and more) in positions from real play, for the solver's test set.

Random positions almost never hold a 13-15-ply forced mate; games do, near their end.
Fairy-Stockfish plays shogi against itself (a few random opening moves and a random Skill
Level per side, so games differ and blunder into mating attacks); from --from-ply on,
every position is given to `qipan usi`'s `go mate`. When qipan answers a mate of
--min-plies or more, cshogi fixes the length with its exhaustive `mate_move(ply)`: a
mate within L plies and none within L - 2, the least such L stepping down by two from
qipan's length (a mate qipan finds and cshogi does not is left out, see `confirm`). Fairy-Stockfish is then asked for
its score (`go depth`), and its `score mate` is printed beside the line as a third
opinion (USI mate scores count plies).

    cargo build --release && python3 tools/find_game_tsume.py [count] [seed] >> found.txt

Output as tests/data/tsume.txt has it: `sfen;plies`, then a comment with the checks made.
Standard library and cshogi (pip install cshogi); Fairy-Stockfish from Debian's
fairy-stockfish package.
"""
import argparse
import random
import subprocess
import sys
import time

import cshogi

parser = argparse.ArgumentParser()
parser.add_argument("count", type=int, nargs="?", default=10)
parser.add_argument("seed", type=int, nargs="?", default=15)
parser.add_argument("--binary", default="target/release/qipan")
parser.add_argument("--stockfish", default="/usr/games/fairy-stockfish")
parser.add_argument("--min-plies", type=int, default=13)
parser.add_argument("--max-plies", type=int, default=15)
parser.add_argument("--mate-ms", type=int, default=600)
parser.add_argument("--from-ply", type=int, default=50)
parser.add_argument("--move-nodes", type=int, default=20000)
parser.add_argument("--minutes", type=float, default=30)
args = parser.parse_args()
rng = random.Random(args.seed)


class Engine:
    """A USI engine driven line by line."""

    def __init__(self, command):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("usi")
        self.until("usiok")

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def until(self, prefix):
        lines = []
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError("engine closed")
            line = line.strip()
            lines.append(line)
            if line.startswith(prefix):
                return line, lines


def confirm(sfen, plies):
    """The length cshogi's exhaustive `mate_move` gives a mate qipan found in `plies`:
    the least L (stepping down by two) with a mate within L plies, or None when cshogi
    finds no mate within `plies` at all (its search does not let the attacker answer a
    defender's counter-check, which tsume rules and qipan allow, nor look past its own
    generator's moves). cshogi's df-pn with a depth limit is not used: it was seen to
    prove a "mate within 13" whose own line had 15 plies, with none within 13."""
    board = cshogi.Board(sfen)
    if not board.mate_move(plies):
        return None
    length = plies
    while length - 2 >= args.min_plies - 2 and board.mate_move(length - 2):
        length -= 2
    return length if length >= args.min_plies else None


def stockfish_mate(engine, sfen, plies):
    """Fairy-Stockfish's `score mate` for the position after a search six plies deeper
    than the mate (None: no mate score)."""
    engine.send(f"position sfen {sfen}")
    engine.send(f"go depth {plies + 6}")
    _, lines = engine.until("bestmove")
    mates = [l.split("score mate ")[1].split()[0] for l in lines if "score mate " in l]
    return int(mates[-1]) if mates else None


qipan = Engine([args.binary, "usi"])
player = Engine([args.stockfish])
judge = Engine([args.stockfish])
seen = set()
found, games, asked, started = 0, 0, 0, time.time()
while found < args.count and time.time() - started < args.minutes * 60:
    games += 1
    board = cshogi.Board()
    moves = []
    skill = [rng.randint(0, 12), rng.randint(0, 12)]
    for opening in range(rng.randint(2, 8)):
        move = rng.choice(list(board.legal_moves))
        moves.append(cshogi.move_to_usi(move))
        board.push(move)
    while not board.is_game_over() and len(moves) < 260 and time.time() - started < args.minutes * 60:
        if len(moves) >= args.from_ply and board.sfen() not in seen:
            sfen = board.sfen()
            seen.add(sfen)
            asked += 1
            qipan.send(f"position sfen {sfen}")
            qipan.send(f"go mate {args.mate_ms}")
            answer = qipan.until("checkmate")[0].split()[1:]
            if answer and answer[0] not in ("nomate", "timeout", "notimplemented"):
                plies = len(answer)
                if plies >= args.min_plies:
                    length = confirm(sfen, min(plies, args.max_plies + 2))
                    if length is not None and length <= args.max_plies:
                        fairy = stockfish_mate(judge, sfen, length)
                        found += 1
                        print(f"{sfen};{length}", flush=True)
                        print(f"# game {games} ply {len(moves)}: qipan {plies}, cshogi {length}, "
                              f"Fairy-Stockfish mate {fairy}", flush=True)
                    else:
                        print(f"# qipan {plies}, cshogi {length}: {sfen}", file=sys.stderr, flush=True)
        player.send(f"setoption name Skill Level value {skill[len(moves) % 2]}")
        player.send("position startpos moves " + " ".join(moves))
        player.send(f"go nodes {args.move_nodes}")
        best = player.until("bestmove")[0].split()[1]
        if best in ("resign", "win", "(none)"):
            break
        move = board.move_from_usi(best)
        if not board.is_legal(move):
            break
        moves.append(best)
        board.push(move)
print(f"# {games} games, {asked} positions asked, {found} found, {time.time() - started:.0f} s",
      file=sys.stderr)
for engine in (qipan, player, judge):
    engine.send("quit")
