#!/usr/bin/env python3
"""Play qipan (through `qipan uci`) against Fairy-Stockfish and report W/D/L and Elo.

Not run by `cargo test`. Needs `pip install pyffish` (for varied openings) and the
Debian `fairy-stockfish` package. Build qipan first: `cargo build --release`.

    nice python3 tools/match.py --variant xiangqi --games 20 \
        --qipan-movetime 1000 --fsf-nodes 10000
    # equal time (issue 17's target 3): both engines at the same movetime
    nice python3 tools/match.py --variant shogi --games 100 \
        --qipan-movetime 100 --fsf-movetime 100

Both engines speak UCI (Fairy-Stockfish's dialect: shogi moves like `c3c4`, `P@e5`).
Each opening (a few random legal plies, seeded) is played twice, colours swapped.
The result of every game comes from qipan's own rules: after each move a separate
`qipan uci` process is asked `d`, and its `Outcome:` line ends the game
(`first wins by checkmate`, `draw by repetition`, `second wins by bikjang 30 31.5`, ...).
A game reaching --max-plies is scored a draw.

Adjudication (on by default, `--no-adjudication` turns it off), as match tools such as
cutechess do, only to save CPU time; every adjudicated game says so in its result line:
- resign: for --resign-moves consecutive moves of each engine, both engines' last
  reported scores agree that the same side is lost by at least --resign-score
  centipawns (or is being mated); that side loses;
- draw: after --draw-after plies, for --draw-moves consecutive moves of each engine,
  both engines' scores stay within ±--draw-score centipawns; the game is a draw.
A protocol error (an illegal or
missing bestmove, an `info string error`) is reported and loses the game for the
engine that made it.
"""

import argparse
import math
import random
import subprocess
import sys
import time

import pyffish


class Engine:
    """A UCI engine process."""

    def __init__(self, command, name):
        self.name = name
        self.process = subprocess.Popen(
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.errors = []

    def send(self, line):
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def read_until(self, prefix, timeout=120.0):
        lines = []
        deadline = time.time() + timeout
        while time.time() < deadline:
            line = self.process.stdout.readline()
            if not line:
                raise RuntimeError(f"{self.name}: engine closed its output")
            line = line.rstrip("\n")
            lines.append(line)
            if line.startswith("info string error"):
                self.errors.append(line)
            if line.startswith(prefix):
                return line, lines
        raise RuntimeError(f"{self.name}: no '{prefix}' within {timeout}s")

    def start(self, variant, options):
        self.send("uci")
        self.read_until("uciok")
        self.send(f"setoption name UCI_Variant value {variant}")
        for name, value in options:
            self.send(f"setoption name {name} value {value}")
        self.send("isready")
        self.read_until("readyok")

    def new_game(self):
        self.send("ucinewgame")
        self.send("isready")
        self.read_until("readyok")

    def best_move(self, moves, go):
        self.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
        self.send(go)
        line, lines = self.read_until("bestmove")
        info = [l for l in lines if l.startswith("info depth")]
        return line.split()[1], info

    def quit(self):
        try:
            self.send("quit")
            self.process.wait(timeout=5)
        except Exception:
            self.process.kill()


def outcome(judge, moves):
    """qipan's Outcome line for the position after `moves`: None while the game goes on."""
    judge.send("position startpos" + (" moves " + " ".join(moves) if moves else ""))
    judge.send("d")
    line, lines = judge.read_until("Outcome:")
    errors = [l for l in lines if l.startswith("info string error")]
    text = line.split(":", 1)[1].strip()
    return (None if text == "ongoing" else text), errors


def reported_score(info):
    """The last `info depth` line's score in centipawns for the side that searched (None if absent).

    Mates count as ±100000 so they always pass the resign threshold."""
    for line in reversed(info):
        words = line.split()
        if "score" not in words:
            continue
        at = words.index("score")
        try:
            kind, value = words[at + 1], int(words[at + 2])
        except (IndexError, ValueError):
            continue
        if kind == "cp":
            return value
        if kind == "mate":
            return 100000 if value > 0 else -100000
    return None


class Adjudicator:
    """Watches both engines' scores (converted to the first player's view) to end a game early."""

    def __init__(self, args):
        self.args = args
        self.history = []  # first player's score after each engine move, None if unknown

    def record(self, first_to_move, score):
        if score is not None and not first_to_move:
            score = -score
        self.history.append(score)

    def verdict(self, plies):
        """'first'/'second' when that side wins by resign adjudication, 'draw', or None."""
        args = self.args
        if args.no_adjudication:
            return None
        needed = 2 * args.resign_moves
        recent = self.history[-needed:]
        if len(recent) == needed and None not in recent:
            if all(s >= args.resign_score for s in recent):
                return "first"
            if all(s <= -args.resign_score for s in recent):
                return "second"
        needed = 2 * args.draw_moves
        recent = self.history[-needed:]
        if needed > 0 and plies >= args.draw_after and len(recent) == needed and None not in recent:
            if all(abs(s) <= args.draw_score for s in recent):
                return "draw"
        return None


def opening(variant, rng, plies):
    start = pyffish.start_fen(variant)
    moves = []
    for _ in range(plies):
        legal = pyffish.legal_moves(variant, start, moves)
        # Skip janggi passes in openings.
        legal = [m for m in legal if len(m) < 4 or m[: len(m) // 2] != m[len(m) // 2:]]
        if not legal:
            break
        moves.append(rng.choice(legal))
    return moves


def elo(score, games):
    """Elo difference and its 95% margin from a score fraction (per-game variance)."""
    if games == 0:
        return 0.0, 0.0
    p = min(max(score, 1e-3), 1 - 1e-3)
    diff = -400 * math.log10(1 / p - 1)
    return diff, p


def summary(results):
    """(score, Elo difference, 95% margin) of a list of per-game points (1, 0.5, 0)."""
    games = len(results)
    score = sum(results) / games if games else 0
    diff, p = elo(score, games)
    if games > 1:
        variance = sum((r - score) ** 2 for r in results) / (games - 1)
        margin = 1.96 * math.sqrt(variance / games) * 400 / (math.log(10) * p * (1 - p))
    else:
        margin = float("inf")
    return score, diff, margin


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="xiangqi")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    parser.add_argument("--qipan-movetime", type=int, default=1000, help="ms per move")
    parser.add_argument("--qipan-nodes", type=int, default=0, help="nodes per move instead of time")
    parser.add_argument("--qipan-level", type=int, default=10)
    parser.add_argument("--qipan-threads", type=int, default=1, help="qipan's Threads option")
    parser.add_argument("--fsf-threads", type=int, default=1,
                        help="the opponent's Threads option (matches alternate: one engine thinks at a time)")
    parser.add_argument("--qipan-hash", type=int, default=None,
                        help="qipan's Hash in MB; the same as --fsf-hash unless given (a larger "
                             "table is a few percent slower per node, so unequal tables bias an "
                             "equal-time match; matches before session 25 gave qipan 64)")
    parser.add_argument("--fsf-hash", type=int, default=16, help="the opponent's Hash in MB")
    parser.add_argument("--fsf-nodes", type=int, default=10000)
    parser.add_argument("--fsf-movetime", type=int, default=0,
                        help="ms per move for the opponent instead of nodes (equal-time matches)")
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first-game", type=int, default=1,
                        help="start at this game number (the openings of earlier games are still drawn, "
                        "so a stopped run can be completed with the same seed)")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--no-adjudication", action="store_true", help="play every game to its end")
    parser.add_argument("--resign-score", type=int, default=1000, help="centipawns (adjudication)")
    parser.add_argument("--resign-moves", type=int, default=4, help="moves of each engine (adjudication)")
    parser.add_argument("--draw-after", type=int, default=160, help="plies before draw adjudication")
    parser.add_argument("--draw-score", type=int, default=15, help="centipawns (adjudication)")
    parser.add_argument("--draw-moves", type=int, default=10, help="moves of each engine (adjudication); 0 turns draw adjudication off "
                        "(janggi with KJA scoring has no draws: points decide)")
    parser.add_argument("--output", help="also append every printed line to this file")
    args = parser.parse_args()

    global print
    if args.output:
        log = open(args.output, "a", encoding="utf-8")
        plain_print = print

        def print(*values, **options):
            plain_print(*values, **options)
            options.pop("file", None)
            plain_print(*values, **dict(options, file=log))
            log.flush()

        print(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}: python3 {' '.join(sys.argv)}")
    rng = random.Random(args.seed)
    qipan = Engine([args.qipan, "uci"], "qipan")
    fsf = Engine([args.fsf], "fairy-stockfish")
    judge = Engine([args.qipan, "uci"], "judge")
    if args.qipan_hash is None:
        args.qipan_hash = args.fsf_hash
    qipan_options = [("Skill Level", args.qipan_level), ("Hash", args.qipan_hash)]
    if args.qipan_threads != 1:
        qipan_options.append(("Threads", args.qipan_threads))
    qipan.start(args.variant, qipan_options)
    fsf.start(args.variant, [("Threads", args.fsf_threads), ("Hash", args.fsf_hash)])
    judge.start(args.variant, [])
    qipan_go = f"go nodes {args.qipan_nodes}" if args.qipan_nodes else f"go movetime {args.qipan_movetime}"
    fsf_go = f"go movetime {args.fsf_movetime}" if args.fsf_movetime else f"go nodes {args.fsf_nodes}"

    wins = draws = losses = 0
    adjudicated_games = 0
    results = []
    protocol_errors = []
    total_nodes = 0
    # Wall time from `go` to `bestmove`, per engine: shows whether "equal time" was equal.
    think_time = {"qipan": 0.0, "fairy-stockfish": 0.0}
    think_moves = {"qipan": 0, "fairy-stockfish": 0}
    openings = []
    for game_index in range(args.games):
        if game_index % 2 == 0:
            openings.append(opening(args.variant, rng, args.opening_plies))
        if game_index + 1 < args.first_game:
            continue
        moves = list(openings[-1])
        qipan_first = game_index % 2 == 0
        qipan.new_game()
        fsf.new_game()
        result = None
        loser_by_error = None
        adjudicator = Adjudicator(args)
        while result is None:
            text, errors = outcome(judge, moves)
            if errors:
                # qipan's rules refused the last move (e.g. a shogi pawn-drop mate, which
                # Fairy-Stockfish allows): the engine that played it loses.
                protocol_errors.extend(f"judge after {' '.join(moves)}: {e}" for e in errors)
                last_first = len(moves) % 2 == 1
                loser_by_error = qipan if last_first == qipan_first else fsf
                break
            if text is not None:
                result = text
                break
            if len(moves) >= args.max_plies:
                result = "draw by max-plies"
                break
            verdict = adjudicator.verdict(len(moves))
            if verdict == "draw":
                result = "draw by adjudication (quiet scores)"
                break
            if verdict is not None:
                result = f"{verdict} wins by adjudication (both engines' scores)"
                break
            first_to_move = len(moves) % 2 == 0
            engine = qipan if first_to_move == qipan_first else fsf
            go = qipan_go if engine is qipan else fsf_go
            began = time.time()
            try:
                move, info = engine.best_move(moves, go)
            except RuntimeError as error:
                protocol_errors.append(str(error))
                loser_by_error = engine
                break
            thought = time.time() - began
            think_time[engine.name] += thought
            think_moves[engine.name] += 1
            if engine is qipan:
                if info:
                    words = info[-1].split()
                    if "nodes" in words:
                        total_nodes += int(words[words.index("nodes") + 1])
            adjudicator.record(first_to_move, reported_score(info))
            legal = pyffish.legal_moves(args.variant, pyffish.start_fen(args.variant), moves)
            if move not in legal:
                protocol_errors.append(f"{engine.name} played '{move}' (not legal per pyffish) after {' '.join(moves)}")
                loser_by_error = engine
                break
            moves.append(move)
        if loser_by_error is not None:
            qipan_score = 0.0 if loser_by_error is qipan else 1.0
            result = f"{loser_by_error.name} loses by protocol error"
        elif result.startswith("draw"):
            qipan_score = 0.5
        else:
            first_won = result.startswith("first")
            qipan_score = 1.0 if first_won == qipan_first else 0.0
        if "adjudication" in result:
            adjudicated_games += 1
        if qipan_score == 1.0:
            wins += 1
        elif qipan_score == 0.5:
            draws += 1
        else:
            losses += 1
        colour = "first" if qipan_first else "second"
        results.append(qipan_score)
        print(f"game {game_index + 1}: qipan as {colour}: {result} ({len(moves)} plies) "
              f"-> W{wins} D{draws} L{losses}", flush=True)
        if args.verbose:
            print("  moves:", " ".join(moves), flush=True)

    games = len(results)
    score, diff, margin = summary(results)
    print(f"\n{args.variant}: qipan ({qipan_go}, level {args.qipan_level}) vs fairy-stockfish ({fsf_go})")
    print(f"W {wins} D {draws} L {losses} of {games}: score {score:.3f}, Elo {diff:+.0f} ± {margin:.0f} (95%)")
    print(f"adjudicated games: {adjudicated_games}" + (" (adjudication off)" if args.no_adjudication else
          f" (resign: both scores ≥ {args.resign_score} cp for {args.resign_moves} moves each; draw: "
          f"after ply {args.draw_after}, both within ±{args.draw_score} cp for {args.draw_moves} moves each)"))
    print("mean time from go to bestmove: " + ", ".join(
        f"{name} {1000 * think_time[name] / think_moves[name]:.1f} ms"
        for name in think_time if think_moves[name]))
    if think_time["qipan"] > 0:
        print(f"qipan search speed: {total_nodes / think_time['qipan']:,.0f} nodes/s (last reported depth per move)")
    if protocol_errors:
        print("protocol errors:")
        for error in protocol_errors:
            print("  " + error)
    else:
        print("no protocol errors")
    for engine in (qipan, fsf, judge):
        engine.quit()


if __name__ == "__main__":
    main()
