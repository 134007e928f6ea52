#!/usr/bin/env python3
"""Measure qipan's CPU levels against each other, a simple script player and Fairy-Stockfish.

Not run by `cargo test`. Needs `pip install pyffish` (openings, legal moves) and, for
`--opponent fsf-elo`, the Debian `fairy-stockfish` package. Build qipan first:
`cargo build --release`.

    # level 4 against level 3, 100 games of xiangqi, seeded openings, colours alternating
    nice python3 tools/ladder.py --variant xiangqi --level 4 --opponent level:3 --games 100
    # level 1 against a player who only avoids hanging pieces
    nice python3 tools/ladder.py --variant janggi --level 1 --opponent hanging --games 100
    # level 6 against Fairy-Stockfish limited to UCI_Elo 1500 (its own rating scale)
    nice python3 tools/ladder.py --variant shogi --level 6 --opponent fsf-elo:1500 --games 60

Levels 1-9 are node budgets (plus level-specific weaknesses), so a game's result does
not depend on the machine's load: every qipan move is asked with a generous movetime
that only caps it. The opponents:

- `level:N`: another `qipan uci` at `Skill Level` N.
- `hanging`: a script player that knows nothing but material: it plays the move that
  wins the most material at once minus what it would hang (a piece the reply can take
  for free, or for less than it is worth where the square is guarded), random among
  equals. It never looks further than the reply and the recapture. "Level 1 loses
  most games against it" is the floor issue 17 sets.
- `fsf-elo:E`: Fairy-Stockfish with `UCI_LimitStrength` and `UCI_Elo E` (its range is
  1350-2850, Stockfish's own calibration), `go nodes` --fsf-nodes.

Games are judged by qipan's rules (`d` → `Outcome:` from a separate `qipan uci`) and,
to save CPU, adjudicated by a referee that is neither player: a full-strength `qipan uci`
searching --referee-nodes on every position. When it gives one side at least
--resign-score centipawns for --resign-plies plies in a row, that side wins; after
--draw-after plies, --draw-plies plies in a row within ±--draw-score is a draw (never in
janggi, whose points decide). Adjudicated games say so in their line.
"""

import argparse
import random
import re
import sys
import time

import pyffish

from match import Engine, opening, outcome, summary

# Piece values for the script player, by FEN letter (upper case; promoted shogi pieces
# with a leading "+"). Rough, as a player who counts material would have them.
VALUES = {
    "xiangqi": {"R": 9, "C": 4.5, "H": 4, "N": 4, "E": 2, "B": 2, "A": 2, "P": 1, "K": 0},
    "janggi": {"R": 13, "C": 7, "H": 5, "N": 5, "E": 3, "B": 3, "A": 3, "P": 2, "K": 0},
    "shogi": {"P": 1, "L": 3, "N": 4, "S": 5, "G": 6, "B": 8, "R": 10, "K": 0,
              "+P": 6, "+L": 6, "+N": 6, "+S": 6, "+B": 10, "+R": 12},
}
MOVE = re.compile(r"^([a-z])(\d+)([a-z])(\d+)")


def board_of(fen):
    """{square: piece} from a FEN's board field, squares named as UCI moves name them."""
    rows = fen.split()[0].split("[")[0].split("/")
    board = {}
    for index, row in enumerate(rows):
        rank = len(rows) - index
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
            square = f"{chr(ord('a') + file)}{rank}"
            board[square] = ("+" if promoted else "") + char
            promoted = False
            file += 1
    return board


def destination(move):
    if "@" in move:
        return move.split("@")[1].rstrip("+-")
    found = MOVE.match(move)
    return f"{found.group(3)}{found.group(4)}" if found else None


def origin(move):
    if "@" in move:
        return None
    found = MOVE.match(move)
    return f"{found.group(1)}{found.group(2)}" if found else None


def is_pass(move):
    return origin(move) is not None and origin(move) == destination(move)


class HangingAvoider:
    """The script player: material now, minus material hung to the reply."""

    def __init__(self, variant, seed):
        self.variant = variant
        self.values = VALUES["janggi" if variant.startswith("janggi") else variant]
        self.rng = random.Random(seed)
        self.name = "hanging-avoider"

    def value(self, piece):
        if piece is None:
            return 0
        key = piece.upper()
        return self.values.get(key, self.values.get(key.lstrip("+"), 1))

    def best_move(self, moves, start):
        fen = pyffish.get_fen(self.variant, start, moves)
        board = board_of(fen)
        legal = pyffish.legal_moves(self.variant, fen, [])
        playable = [m for m in legal if not is_pass(m)] or legal
        best, best_score = [], None
        for move in playable:
            target = destination(move)
            gain = self.value(board.get(target))
            after = pyffish.get_fen(self.variant, fen, [move])
            replies = pyffish.legal_moves(self.variant, after, [])
            if not replies:
                score = 1000  # the reply has no move: mate (or stalemate, a win in these games)
            else:
                mine = board_of(after)
                worst = 0
                for reply in replies:
                    square = destination(reply)
                    if square is None or square not in mine or is_pass(reply):
                        continue
                    piece = mine[square]
                    # Only our pieces: a reply landing on an occupied square captures ours.
                    lost = self.value(piece)
                    capturer = self.value(mine.get(origin(reply))) if origin(reply) else 0
                    guarded = any(destination(answer) == square
                                  for answer in pyffish.legal_moves(self.variant, after, [reply]))
                    lost_net = max(0, lost - capturer) if guarded else lost
                    worst = max(worst, lost_net)
                score = gain - worst
            if best_score is None or score > best_score:
                best, best_score = [move], score
            elif score == best_score:
                best.append(move)
        return self.rng.choice(best), []

    def new_game(self):
        pass

    def quit(self):
        pass


class UciPlayer:
    """An engine that plays through UCI with one fixed `go` command."""

    def __init__(self, command, name, variant, options, go):
        self.engine = Engine(command, name)
        self.engine.start(variant, options)
        self.go = go
        self.name = name

    def best_move(self, moves, start):
        return self.engine.best_move(moves, self.go)

    def new_game(self):
        self.engine.new_game()

    def quit(self):
        self.engine.quit()


def qipan_level(binary, variant, level, movetime):
    """qipan at a level through `qipan uci` (the node budget stops it long before movetime)."""
    return UciPlayer([binary, "uci"], f"level {level}", variant,
                     [("Skill Level", level), ("Hash", 16)], f"go movetime {movetime}")


def limited_fairy_stockfish(binary, variant, rating, nodes):
    """Fairy-Stockfish at a UCI_Elo of its own scale."""
    return UciPlayer([binary], f"fsf elo {rating}", variant,
                     [("Threads", 1), ("Hash", 16), ("UCI_LimitStrength", "true"), ("UCI_Elo", rating)],
                     f"go nodes {nodes}")


class Referee:
    """A full-strength qipan that scores positions for adjudication (first player's view)."""

    def __init__(self, binary, variant, nodes):
        self.engine = Engine([binary, "uci"], "referee")
        self.engine.start(variant, [("Hash", 16)])
        self.nodes = nodes

    def score(self, moves):
        _, info = self.engine.best_move(moves, f"go nodes {self.nodes}")
        for line in reversed(info):
            words = line.split()
            if "score" in words:
                at = words.index("score")
                kind, value = words[at + 1], int(words[at + 2])
                value = value if kind == "cp" else (100000 if value > 0 else -100000)
                return value if len(moves) % 2 == 0 else -value
        return None


def make_player(spec, args, seed):
    if spec == "hanging":
        return HangingAvoider(args.variant, seed)
    kind, _, value = spec.partition(":")
    if kind == "level":
        return qipan_level(args.qipan, args.variant, int(value), args.movetime)
    if kind == "fsf-elo":
        return limited_fairy_stockfish(args.fsf, args.variant, int(value), args.fsf_nodes)
    raise SystemExit(f"unknown opponent '{spec}' (level:N, hanging, fsf-elo:E)")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", default="xiangqi")
    parser.add_argument("--level", type=int, required=True, help="the qipan level measured (1-9)")
    parser.add_argument("--opponent", required=True, help="level:N, hanging or fsf-elo:E")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("--fsf", default="/usr/games/fairy-stockfish")
    parser.add_argument("--movetime", type=int, default=20000, help="ms cap per qipan move (levels stop on nodes first)")
    parser.add_argument("--fsf-nodes", type=int, default=50000)
    parser.add_argument("--referee-nodes", type=int, default=3000)
    parser.add_argument("--opening-plies", type=int, default=4)
    parser.add_argument("--max-plies", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--resign-score", type=int, default=800)
    parser.add_argument("--resign-plies", type=int, default=8)
    parser.add_argument("--draw-after", type=int, default=160)
    parser.add_argument("--draw-score", type=int, default=20)
    parser.add_argument("--draw-plies", type=int, default=20)
    parser.add_argument("--output", help="also append every printed line to this file")
    args = parser.parse_args()

    log = open(args.output, "a", encoding="utf-8") if args.output else None

    def say(text):
        print(text, flush=True)
        if log:
            log.write(text + "\n")
            log.flush()

    say(f"# {time.strftime('%Y-%m-%d %H:%M:%S UTC', time.gmtime())}: python3 {' '.join(sys.argv)}")
    rng = random.Random(args.seed)
    start = pyffish.start_fen(args.variant)
    measured = qipan_level(args.qipan, args.variant, args.level, args.movetime)
    opponent = make_player(args.opponent, args, args.seed)
    judge = Engine([args.qipan, "uci"], "judge")
    judge.start(args.variant, [])
    referee = Referee(args.qipan, args.variant, args.referee_nodes)
    janggi = args.variant.startswith("janggi")

    results = []
    wins = draws = losses = adjudicated = 0
    openings = []
    for game_index in range(args.games):
        if game_index % 2 == 0:
            openings.append(opening(args.variant, rng, args.opening_plies))
        moves = list(openings[-1])
        measured_first = game_index % 2 == 0
        measured.new_game()
        opponent.new_game()
        result = None
        streak_side, streak, quiet = None, 0, 0
        loser = None
        while result is None:
            text, errors = outcome(judge, moves)
            if errors:
                last_first = len(moves) % 2 == 1
                loser = "measured" if last_first == measured_first else "opponent"
                result = f"illegal move by the {loser}: {errors[0]}"
                break
            if text is not None:
                result = text
                break
            if len(moves) >= args.max_plies:
                result = "draw by max-plies"
                break
            score = referee.score(moves) if len(moves) > args.opening_plies else None
            if score is not None:
                side = "first" if score >= args.resign_score else "second" if score <= -args.resign_score else None
                streak = streak + 1 if side is not None and side == streak_side else (1 if side else 0)
                streak_side = side
                quiet = quiet + 1 if abs(score) <= args.draw_score else 0
                if streak >= args.resign_plies:
                    result = f"{side} wins by adjudication (referee)"
                    adjudicated += 1
                    break
                if not janggi and len(moves) >= args.draw_after and quiet >= args.draw_plies:
                    result = "draw by adjudication (referee)"
                    adjudicated += 1
                    break
            first_to_move = len(moves) % 2 == 0
            player = measured if first_to_move == measured_first else opponent
            try:
                move, _ = player.best_move(moves, start)
            except RuntimeError as error:
                loser = "measured" if player is measured else "opponent"
                result = f"{player.name} failed: {error}"
                break
            if move not in pyffish.legal_moves(args.variant, start, moves):
                loser = "measured" if player is measured else "opponent"
                result = f"{player.name} played '{move}', not legal per pyffish"
                break
            moves.append(move)
        if loser is not None:
            points = 0.0 if loser == "measured" else 1.0
        elif result.startswith("draw"):
            points = 0.5
        else:
            points = 1.0 if result.startswith("first") == measured_first else 0.0
        results.append(points)
        wins += points == 1.0
        draws += points == 0.5
        losses += points == 0.0
        colour = "first" if measured_first else "second"
        say(f"game {game_index + 1}: level {args.level} as {colour}: {result} ({len(moves)} plies) "
            f"-> W{wins} D{draws} L{losses}")

    games = len(results)
    score, diff, margin = summary(results)
    say(f"\n{args.variant}: qipan level {args.level} vs {opponent.name}")
    say(f"W {wins} D {draws} L {losses} of {games}: score {score:.3f}, Elo {diff:+.0f} ± {margin:.0f} (95%); "
        f"adjudicated {adjudicated} (referee: qipan at {args.referee_nodes} nodes, "
        f"±{args.resign_score} cp for {args.resign_plies} plies)")
    for player in (measured, opponent):
        player.quit()
    judge.quit()
    referee.engine.quit()


if __name__ == "__main__":
    main()
