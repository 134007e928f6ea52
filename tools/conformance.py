#!/usr/bin/env python3
"""Protocol conformance: drives `qipan uci`, `qipan usi` and `qipan ucci` through a
whole session each, as a GUI would, and checks every answer.

Usage: python3 tools/conformance.py --binary PATH/TO/qipan [--protocol uci|usi|ucci ...]
       [--margin SECONDS] [--patience SECONDS] [--quiet]

Each session: the handshake (the option list checked for the expected names and
types), `setoption` of every advertised option with a valid and an invalid value,
`isready`, a new game, `position` from the start and from a FEN/SFEN with moves, `go`
with each time form (depth, nodes, movetime, clocks with increments, movestogo,
byoyomi, decimals, infinite + stop, ponder + ponderhit, ponder + stop), MultiPV,
USI's `go mate` (a mate, a nomate, a timeout), UCCI's `banmoves`, `probe`, `go time …
increment …` in seconds and in milliseconds, and `quit` (UCCI: `bye`), after which
the process must end.

Every `bestmove`, `ponder` move and `pv` is checked for legality by a referee: a
second `qipan uci` process asked `go perft 1` (its per-move listing) for each position,
so nothing outside the standard library is needed. Timed answers must arrive within
the time asked plus a margin; `info` lines must parse.

Prints one line per check (`ok …` or `FAIL …`) and a final `N passed, M failed` line;
exits 0 when every check passed, 1 otherwise, 2 on a usage error.
"""
import argparse
import queue
import re
import subprocess
import sys
import threading
import time

# Seconds: the longest wait for an untimed answer (depth, nodes, handshake).
DEFAULT_PATIENCE = 30.0
# Seconds added to every time asked before an answer counts as late (debug builds are slow).
DEFAULT_MARGIN = 1.0
# Seconds to watch for a `bestmove` that must not come yet (pondering, infinite).
QUIET_WATCH = 0.3

# Known `info` keys (UCI and USI share them; UCCI uses a subset).
INFO_KEYS_WITH_NUMBER = {
    "depth", "seldepth", "time", "nodes", "multipv", "currmovenumber",
    "hashfull", "nps", "tbhits", "sbhits", "cpuload",
}

# A known mate in one (xiangqi, Red to move): two rooks against a bare general.
XIANGQI_MATE_IN_ONE = "4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1"
# A xiangqi middle game (Fairy-Stockfish FEN) and moves from it, Red to move after them.
XIANGQI_MIDDLE = "r1bakab1r/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 3"
XIANGQI_MIDDLE_MOVES_UCI = ["a1a2", "a10a9"]
# Black to move and mated (no legal move).
XIANGQI_MATED = "3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1"
# Shogi: mate in one by a gold drop; a bare king with one pawn in hand (no mate); a
# position with many checks and no quick answer (the solver cannot finish in 1 ms).
SHOGI_MATE = "4k4/9/4S4/9/9/9/9/9/9 b G 1"
SHOGI_NO_MATE = "4k4/9/9/9/9/9/9/9/9 b P 1"
SHOGI_HARD = "9/9/9/9/4k4/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1"
# A shogi middle game (SFEN) and USI moves from it.
SHOGI_MIDDLE = "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
SHOGI_MIDDLE_MOVES_USI = ["2g2f", "8c8d"]



def restart_index(first, second):
    """Where in `second` the depth of `info` lines first falls below the deepest seen in
    `first` and `second` so far (a search started again); len(second) when it never does."""
    deepest = 0
    for index, line in enumerate(first + second):
        match = re.search(r"\bdepth (\d+)", line) if line.startswith("info") else None
        if match is None:
            continue
        depth = int(match.group(1))
        if depth < deepest and index >= len(first):
            return index - len(first)
        deepest = max(deepest, depth)
    return len(second)

class SessionBroken(Exception):
    """The engine stopped answering (or died): the rest of its session is skipped."""


class Results:
    """Counts checks and prints one line for each."""

    def __init__(self, quiet):
        self.passed = 0
        self.failed = 0
        self.quiet = quiet

    def check(self, name, condition, detail=""):
        """Records one check; returns whether it passed."""
        if condition:
            self.passed += 1
            if not self.quiet:
                print(f"ok   {name}", flush=True)
        else:
            self.failed += 1
            suffix = f": {detail}" if detail else ""
            print(f"FAIL {name}{suffix}", flush=True)
        return bool(condition)


class Engine:
    """A running engine process whose output is read line by line on a thread."""

    def __init__(self, binary, mode):
        self.mode = mode
        self.process = subprocess.Popen(
            [binary, mode],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            errors="replace",
            bufsize=1,
        )
        self.lines = queue.Queue()
        self.transcript = []
        self.ended = False
        reader = threading.Thread(target=self._read, daemon=True)
        reader.start()

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line.rstrip("\r\n"))
        self.lines.put(None)

    def send(self, line):
        """Writes one command line."""
        self.transcript.append(f"> {line}")
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (BrokenPipeError, OSError) as error:
            raise SessionBroken(f"cannot write '{line}': {error}")

    def _next(self, timeout):
        """The next line, or None at the end of output; raises queue.Empty on timeout."""
        if self.ended:
            return None
        line = self.lines.get(timeout=max(timeout, 0.0))
        if line is None:
            self.ended = True
        else:
            self.transcript.append(line)
        return line

    def read_until(self, predicate, timeout, what):
        """Reads until a line satisfies `predicate`: returns (line, lines before, seconds
        waited). Raises SessionBroken when nothing matching comes within `timeout`."""
        began = time.monotonic()
        before = []
        while True:
            left = began + timeout - time.monotonic()
            try:
                line = self._next(left)
            except queue.Empty:
                raise SessionBroken(f"no {what} within {timeout:.1f} s")
            if line is None:
                raise SessionBroken(f"the engine ended before {what}")
            if predicate(line):
                return line, before, time.monotonic() - began
            before.append(line)

    def lines_within(self, seconds):
        """Every line that arrives within `seconds`."""
        deadline = time.monotonic() + seconds
        lines = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return lines
            try:
                line = self._next(left)
            except queue.Empty:
                return lines
            if line is None:
                return lines
            lines.append(line)

    def exit_status(self, timeout):
        """The exit status once the process ends within `timeout`, else None."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def kill(self):
        """Ends the process (used when a session broke)."""
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()

    def tail(self, count=25):
        """The last lines of the session, for failure reports."""
        return "\n".join("    " + line for line in self.transcript[-count:])


class Referee:
    """Legal moves by a second `qipan uci` process: `go perft 1` lists each root move.
    Moves are in Fairy-Stockfish notation; results are cached by position."""

    def __init__(self, binary, patience):
        self.engine = Engine(binary, "uci")
        self.patience = patience
        self.variant = None
        self.cache = {}
        self.engine.send("uci")
        self.engine.read_until(lambda l: l == "uciok", patience, "referee uciok")

    def legal_moves(self, variant, setup, moves):
        """The legal moves (a set) after `moves` from `setup` ("startpos" or "fen …"),
        or None when the referee cannot read the position."""
        key = (variant, setup, tuple(moves))
        if key in self.cache:
            return self.cache[key]
        if variant != self.variant:
            self.engine.send(f"setoption name UCI_Variant value {variant}")
            self.variant = variant
        command = f"position {setup}"
        if moves:
            command += " moves " + " ".join(moves)
        self.engine.send(command)
        self.engine.send("go perft 1")
        _, before, _ = self.engine.read_until(
            lambda l: l.startswith("Nodes searched"), self.patience, "referee perft"
        )
        if any("error" in line for line in before):
            result = None
        else:
            result = {
                line.split(":")[0] for line in before if re.fullmatch(r"\S+: \d+", line)
            }
        self.cache[key] = result
        return result

    def close(self):
        try:
            self.engine.send("quit")
        except SessionBroken:
            pass
        if self.engine.exit_status(5) is None:
            self.engine.kill()


def usi_to_fsf(move):
    """A USI move (`7g7f`, `P*5e`, `2b8h+`) in Fairy-Stockfish shogi notation
    (`c3c4`, `P@e5`, `h8b2+`); None when it is not one."""
    def square(text):
        if len(text) != 2 or text[0] not in "123456789" or text[1] not in "abcdefghi":
            return None
        file_letter = chr(ord("a") + 9 - int(text[0]))
        rank = 9 - (ord(text[1]) - ord("a"))
        return f"{file_letter}{rank}"

    match = re.fullmatch(r"([PLNSGBR])\*(\d[a-i])", move)
    if match:
        target = square(match.group(2))
        return target and f"{match.group(1)}@{target}"
    match = re.fullmatch(r"(\d[a-i])(\d[a-i])(\+?)", move)
    if match:
        origin, target = square(match.group(1)), square(match.group(2))
        return origin and target and f"{origin}{target}{match.group(3)}"
    return None


def iccs_to_fsf(move):
    """An ICCS move (`h2e2`, ranks 0-9) in Fairy-Stockfish notation (`h3e3`)."""
    match = re.fullmatch(r"([a-i])([0-9])([a-i])([0-9])", move)
    if not match:
        return None
    return f"{match.group(1)}{int(match.group(2)) + 1}{match.group(3)}{int(match.group(4)) + 1}"


class Position:
    """A position as the referee reads it: variant, setup and moves (referee notation)."""

    def __init__(self, variant, setup, moves=()):
        self.variant = variant
        self.setup = setup
        self.moves = list(moves)

    def after(self, moves):
        """The position after more moves (referee notation)."""
        return Position(self.variant, self.setup, self.moves + list(moves))


class Driver:
    """Runs one protocol's session and checks its answers."""

    def __init__(self, protocol, binary, results, referee, margin, patience):
        self.protocol = protocol
        self.results = results
        self.referee = referee
        self.margin = margin
        self.patience = patience
        self.engine = Engine(binary, protocol)
        self.position = None
        self.variant = "shogi" if protocol == "usi" else "xiangqi"

    # ---- helpers -----------------------------------------------------------------

    def check(self, name, condition, detail=""):
        passed = self.results.check(f"{self.protocol}: {name}", condition, detail)
        if not passed:
            print(self.engine.tail(12), flush=True)
        return passed

    def to_referee(self, move):
        if self.protocol == "usi":
            return usi_to_fsf(move)
        if self.protocol == "ucci":
            return iccs_to_fsf(move)
        return move

    def legal(self, position, move):
        """True when `move` (this protocol's notation) is legal in `position`."""
        converted = self.to_referee(move)
        if converted is None:
            return False
        moves = self.referee.legal_moves(position.variant, position.setup, position.moves)
        return moves is not None and converted in moves

    def line_is_legal(self, position, line):
        """The first move of `line` that is not legal, or None when all are."""
        current = position
        for move in line:
            if not self.legal(current, move):
                return move
            current = current.after([self.to_referee(move)])
        return None

    def ready(self, name, expect_error=None):
        """`isready` → `readyok`; `expect_error`: True when an error line must come
        first, False when none may, None when not checked. Returns the lines before."""
        self.engine.send("isready")
        _, before, _ = self.engine.read_until(lambda l: l == "readyok", self.patience, "readyok")
        errors = [line for line in before if line.startswith("info string") and "error" in line]
        if expect_error is True:
            self.check(f"{name}: answered with an error", errors, f"lines: {before}")
        elif expect_error is False:
            self.check(f"{name}: no error", not errors, f"{errors}")
        return before

    def set_position(self, command, position, name):
        """Sends a `position` command the referee knows as `position`."""
        self.engine.send(command)
        self.ready(f"{name}: accepted", expect_error=False)
        self.position = position

    # ---- answers -----------------------------------------------------------------

    def check_info(self, name, lines, position):
        """Every `info` line parses; every pv is legal; depths do not go down."""
        depth_seen = {}
        bad = []
        illegal = []
        for line in lines:
            if not line.startswith("info"):
                continue
            problem, fields = parse_info(line, self.protocol)
            if problem:
                bad.append(f"{problem}: {line}")
                continue
            if "pv" in fields:
                wrong = self.line_is_legal(position, fields["pv"])
                if wrong is not None:
                    illegal.append(f"{wrong} in {line}")
            if "depth" in fields:
                lane = fields.get("multipv", 1)
                if fields["depth"] < depth_seen.get(lane, 0):
                    bad.append(f"depth went down: {line}")
                depth_seen[lane] = fields["depth"]
        self.check(f"{name}: info lines parse", not bad, "; ".join(bad[:3]))
        self.check(f"{name}: every pv is legal", not illegal, "; ".join(illegal[:3]))
        return depth_seen

    def check_bestmove(self, name, line, position):
        """The `bestmove` line is well formed, its move and ponder move legal."""
        words = line.split()
        if self.protocol == "ucci" and words == ["nobestmove"]:
            moves = self.referee.legal_moves(position.variant, position.setup, position.moves)
            self.check(f"{name}: nobestmove only without legal moves", moves == set(), line)
            return None
        self.check(f"{name}: bestmove well formed",
                   len(words) in (2, 4) and words[0] == "bestmove"
                   and (len(words) == 2 or words[2] == "ponder"), line)
        if len(words) < 2:
            return None
        best = words[1]
        if self.protocol == "usi" and best == "win":
            # The 27-point declaration: a claim, not a move.
            self.check(f"{name}: 'bestmove win' (a declaration)", len(words) == 2, line)
            return None
        if best in ("(none)", "resign"):
            moves = self.referee.legal_moves(position.variant, position.setup, position.moves)
            self.check(f"{name}: '{best}' only without legal moves", moves == set(), line)
            return None
        self.check(f"{name}: bestmove {best} is legal", self.legal(position, best), line)
        if len(words) == 4:
            after = position.after([self.to_referee(best) or "?"])
            self.check(f"{name}: ponder {words[3]} is legal", self.legal(after, words[3]), line)
        return best

    def go(self, command, name=None, within=None, expect_error=False, position=None):
        """Sends `command`, waits for the bestmove, and checks it, the info lines and
        (when `within` is given, in seconds) the time taken. Returns (best, info lines)."""
        name = name or command
        position = position or self.position
        self.engine.send(command)
        line, before, waited = self.engine.read_until(
            lambda l: l.startswith("bestmove") or l == "nobestmove",
            (within or 0) + self.patience, f"bestmove after '{command}'")
        errors = [l for l in before if l.startswith("info string") and "error" in l]
        if expect_error is not None:
            self.check(f"{name}: no error", not errors, f"{errors}")
        if within is not None:
            self.check(f"{name}: answered in {waited:.2f} s (asked {within:.2f} s + margin)",
                       waited <= within + self.margin)
        self.check_info(name, before, position)
        best = self.check_bestmove(name, line, position)
        return best, before

    def held_then_released(self, start, release, name, within):
        """`start` (an endless search) must show info and hold `bestmove`; after
        `release` (stop or ponderhit) the bestmove comes within `within` + margin."""
        position = self.position
        self.engine.send(start)
        _, early, _ = self.engine.read_until(lambda l: l.startswith("info depth"), self.patience,
                                             f"info after '{start}'")
        early += self.engine.lines_within(QUIET_WATCH)
        self.check(f"{name}: no bestmove before '{release}'",
                   not any(l.startswith("bestmove") for l in early), f"{early[-3:]}")
        self.engine.send(release)
        line, before, waited = self.engine.read_until(
            lambda l: l.startswith("bestmove") or l == "nobestmove",
            within + self.patience, f"bestmove after '{release}'")
        self.check(f"{name}: bestmove {waited:.2f} s after '{release}' (allowed {within:.2f} s + margin)",
                   waited <= within + self.margin)
        # A ponderhit may start a new iteration from depth 1: each part is checked alone.
        # Lines the engine printed before it read `release` may still be read after it:
        # they belong to the first part, up to where the depth starts again.
        restart = restart_index(early, before)
        self.check_info(f"{name} (before '{release}')", early + before[:restart], position)
        self.check_info(f"{name} (after '{release}')", before[restart:], position)
        self.check_bestmove(name, line, position)

    # ---- the handshake and options -----------------------------------------------

    def handshake(self, command, answer, wanted):
        """Sends `uci`/`usi`/`ucci`; checks id lines, the option list and `wanted`
        ({name: type}). Returns the parsed options."""
        self.engine.send(command)
        _, lines, waited = self.engine.read_until(lambda l: l == answer, self.patience, answer)
        self.check(f"'{command}' answered '{answer}' in {waited:.2f} s", waited <= 5 + self.margin)
        self.check("id name", any(l.startswith("id name ") for l in lines), f"{lines[:3]}")
        self.check("id author", any(l.startswith("id author ") for l in lines), f"{lines[:3]}")
        options = {}
        for line in lines:
            if not line.startswith("option"):
                continue
            option, problem = parse_option(line, self.protocol)
            self.check(f"option line parses: {line}", option is not None, problem)
            if option is not None:
                options[option["name"]] = option
        for name, kind in wanted.items():
            option = options.get(name)
            self.check(f"option {name} advertised as {kind}",
                       option is not None and option["type"] == kind,
                       f"got {option}")
        return options

    def setoption_line(self, name, value):
        if self.protocol == "ucci":
            return f"setoption {name}" + (f" {value}" if value is not None else "")
        return f"setoption name {name}" + (f" value {value}" if value is not None else "")

    def exercise_options(self, options, skip_invalid=()):
        """Sets every advertised option to a valid value (its default) and to invalid
        ones; the valid value is accepted quietly, every invalid one is answered with an
        error, and the engine stays ready. The default is set again afterwards.
        `skip_invalid`: (option, value) pairs the engine accepts on purpose."""
        for name, option in options.items():
            valid, invalid = option_values(option)
            if valid is not None or option["type"] == "button":
                self.engine.send(self.setoption_line(name, valid))
                self.ready(f"setoption {name} {valid if valid is not None else ''}".rstrip(),
                           expect_error=False)
            for value in invalid:
                if (name, value) in skip_invalid:
                    continue
                self.engine.send(self.setoption_line(name, value))
                self.ready(f"setoption {name} {value} (invalid)", expect_error=True)
                if valid is not None:
                    self.engine.send(self.setoption_line(name, valid))
        self.ready("after every option", expect_error=False)

    def quit(self, farewell=None):
        self.engine.send("quit")
        if farewell:
            _, _, waited = self.engine.read_until(lambda l: l == farewell, self.patience, farewell)
            self.check(f"quit answered '{farewell}' in {waited:.2f} s", waited <= self.margin)
        status = self.engine.exit_status(5)
        self.check("the process ends after quit, status 0", status == 0, f"status {status}")

    # ---- the sessions ------------------------------------------------------------

    def run(self):
        try:
            getattr(self, f"session_{self.protocol}")()
        except SessionBroken as error:
            self.check("session completed", False, str(error))
        finally:
            self.engine.kill()

    def session_uci(self):
        options = self.handshake("uci", "uciok", {
            "UCI_Variant": "combo", "Hash": "spin", "Ponder": "check", "MultiPV": "spin",
            "Move Overhead": "spin", "UCI_LimitStrength": "check", "UCI_Elo": "spin",
            "Skill Level": "spin", "Threads": "spin",
        })
        self.exercise_options(options)
        # Every search below runs with a helper thread (lazy SMP) beside the main one.
        self.engine.send("setoption name Threads value 2")
        self.ready("setoption Threads 2", expect_error=False)
        self.engine.send("ucinewgame")
        self.ready("ucinewgame", expect_error=False)

        self.set_position("position startpos moves h3e3 h10g8",
                          Position("xiangqi", "startpos", ["h3e3", "h10g8"]), "position startpos moves")
        depths = self.go("go depth 3", expect_error=False)[1]
        reported = [parse_info(l, "uci")[1].get("depth", 0) for l in depths if l.startswith("info depth")]
        self.check("go depth 3: deepest reported depth is 3", reported and max(reported) == 3, f"{reported}")
        _, lines = self.go("go nodes 3000")
        nodes = [parse_info(l, "uci")[1].get("nodes", 0) for l in lines if l.startswith("info depth")]
        self.check("go nodes 3000: no report beyond 3000 nodes", all(n <= 3000 for n in nodes), f"{nodes}")
        self.go("go movetime 300", within=0.3)
        self.go("go wtime 3000 btime 3000 winc 100 binc 100", within=3.0)
        self.go("go wtime 2500.7 btime 2600.2 winc 100.5 binc 100.5", name="go with decimal clocks", within=2.5)
        self.go("go wtime 3000 btime 3000 movestogo 20", within=3.0)
        self.go("go movestogo 1 wtime 800 btime 800", within=0.8)
        self.held_then_released("go infinite", "stop", "go infinite + stop", within=0.0)

        self.set_position("position startpos moves h3e3", Position("xiangqi", "startpos", ["h3e3"]),
                          "position startpos, black to move")
        self.go("go btime 2000 wtime 2000", name="go with black's clock", within=2.0)
        self.held_then_released("go ponder wtime 2000 btime 2000", "ponderhit", "ponder + ponderhit", within=2.0)
        self.held_then_released("go ponder wtime 2000 btime 2000", "stop", "ponder + stop", within=0.0)

        self.set_position(f"position fen {XIANGQI_MIDDLE} moves {' '.join(XIANGQI_MIDDLE_MOVES_UCI)}",
                          Position("xiangqi", f"fen {XIANGQI_MIDDLE}", XIANGQI_MIDDLE_MOVES_UCI),
                          "position fen moves")
        self.go("go depth 3", name="go depth 3 from a fen")

        self.engine.send("setoption name MultiPV value 3")
        self.ready("setoption MultiPV 3", expect_error=False)
        self.multipv("go depth 3", 3)
        self.engine.send("setoption name MultiPV value 1")

        self.set_position(f"position fen {XIANGQI_MATE_IN_ONE}",
                          Position("xiangqi", f"fen {XIANGQI_MATE_IN_ONE}"), "position fen (mate in one)")
        best, lines = self.go("go mate 1")
        self.check("go mate 1: score mate 1 reported", any(" score mate 1 " in l for l in lines), f"{lines[-2:]}")
        if best:
            after = self.position.after([best])
            moves = self.referee.legal_moves(after.variant, after.setup, after.moves)
            self.check(f"go mate 1: {best} mates", moves == set(), f"replies {sorted(moves or [])[:5]}")

        self.set_position(f"position fen {XIANGQI_MATED}", Position("xiangqi", f"fen {XIANGQI_MATED}"),
                          "position fen (mated)")
        self.go("go depth 2", name="go on a mated side")

        # Bad input: answered with an error, the engine keeps going.
        self.engine.send("position startpos moves h3e3 z9z9")
        self.ready("position with an unreadable move", expect_error=True)
        self.engine.send("go depth x")
        line, before, _ = self.engine.read_until(lambda l: l.startswith("bestmove"), self.patience,
                                                 "bestmove after 'go depth x'")
        self.check("go depth x: answered with an error",
                   any("error" in l for l in before), f"{before[:2]}")
        self.check_bestmove("go depth x", line, Position("xiangqi", "startpos", ["h3e3"]))
        self.engine.send("frobnicate")
        self.ready("unknown command", expect_error=True)

        # Every variant: a legal move from its start position.
        for variant in options.get("UCI_Variant", {}).get("vars", []):
            self.engine.send(f"setoption name UCI_Variant value {variant}")
            self.engine.send("ucinewgame")
            self.set_position("position startpos", Position(variant, "startpos"), f"{variant} position startpos")
            self.go("go depth 1", name=f"{variant}: go depth 1")
        self.quit()

    def multipv(self, command, lines_wanted):
        """With MultiPV set, the deepest depth reports `lines_wanted` lines, numbered
        1.., with different first moves, each pv legal."""
        _, lines = self.go(command, name=f"{command} with MultiPV {lines_wanted}")
        parsed = [parse_info(l, self.protocol)[1] for l in lines if l.startswith("info depth")]
        deepest = max((p.get("depth", 0) for p in parsed), default=0)
        last = {}
        for fields in parsed:
            if fields.get("depth") == deepest and "pv" in fields:
                last[fields.get("multipv", 1)] = fields["pv"][0] if fields["pv"] else None
        self.check(f"MultiPV {lines_wanted}: lines 1..{lines_wanted} at depth {deepest}",
                   sorted(last) == list(range(1, lines_wanted + 1)), f"{sorted(last)}")
        firsts = [m for m in last.values() if m]
        self.check(f"MultiPV {lines_wanted}: different first moves", len(set(firsts)) == len(firsts), f"{firsts}")

    def session_usi(self):
        options = self.handshake("usi", "usiok", {
            "USI_Hash": "spin", "USI_Ponder": "check", "MultiPV": "spin", "NetworkDelay": "spin",
            "Skill_Level": "spin", "Threads": "spin",
        })
        self.exercise_options(options)
        self.engine.send("setoption name Threads value 2")
        self.ready("setoption Threads 2", expect_error=False)
        self.engine.send("usinewgame")
        self.ready("usinewgame", expect_error=False)
        start = Position("shogi", "startpos", [usi_to_fsf("7g7f"), usi_to_fsf("3c3d")])
        self.set_position("position startpos moves 7g7f 3c3d", start, "position startpos moves")
        self.go("go btime 0 wtime 0 byoyomi 500", name="go byoyomi 500", within=0.5)
        self.go("go btime 5000 wtime 5000 binc 100 winc 100", name="go with increments", within=5.0)
        self.go("go btime 2000.9 wtime 2000 byoyomi 100.5", name="go with decimal clocks", within=2.1)
        self.go("go btime 1000 wtime 60000 byoyomi 0", name="go with sente's clock low", within=1.0)
        self.go("go depth 3")
        self.go("go nodes 3000")
        self.go("go movetime 300", within=0.3)
        self.held_then_released("go infinite", "stop", "go infinite + stop", within=0.0)

        sfen_moves = [usi_to_fsf(m) for m in SHOGI_MIDDLE_MOVES_USI]
        self.set_position(f"position sfen {SHOGI_MIDDLE} moves {' '.join(SHOGI_MIDDLE_MOVES_USI)}",
                          Position("shogi", f"fen {SHOGI_MIDDLE}", sfen_moves), "position sfen moves")
        self.go("go depth 3", name="go depth 3 from an sfen")
        self.engine.send("setoption name MultiPV value 2")
        self.multipv("go depth 3", 2)
        self.engine.send("setoption name MultiPV value 1")

        self.set_position("position startpos moves 7g7f", Position("shogi", "startpos", [usi_to_fsf("7g7f")]),
                          "position startpos, gote to move")
        self.held_then_released("go ponder btime 0 wtime 0 byoyomi 500", "ponderhit", "ponder + ponderhit",
                                within=0.5)
        self.held_then_released("go ponder btime 0 wtime 0 byoyomi 500", "stop", "ponder + stop", within=0.0)

        # Mate search: a mate, no mate, a time limit, and an endless search stopped.
        self.mate(SHOGI_MATE, "go mate 10000", "mate", within=10.0)
        self.mate(SHOGI_NO_MATE, "go mate infinite", "nomate", within=None)
        self.mate(SHOGI_HARD, "go mate 1", "timeout", within=0.001)
        self.engine.send("go mate infinite")
        self.engine.lines_within(0.05)
        self.engine.send("stop")
        line, _, waited = self.engine.read_until(lambda l: l.startswith("checkmate"), self.patience,
                                                 "checkmate after stop")
        self.check(f"go mate infinite + stop: answered in {waited:.2f} s", waited <= self.margin, line)

        self.engine.send("position startpos moves 7g7f 1a1z")
        self.ready("position with an unreadable move", expect_error=True)
        self.engine.send("gameover win")
        self.ready("gameover", expect_error=False)
        self.quit()

    def mate(self, sfen, command, expected, within):
        """`go mate` on `sfen` answers `checkmate …` of the `expected` kind in time; a
        mate line is legal and ends with the defender out of moves."""
        position = Position("shogi", f"fen {sfen}")
        self.set_position(f"position sfen {sfen}", position, f"position sfen for {expected}")
        self.engine.send(command)
        line, before, waited = self.engine.read_until(
            lambda l: l.startswith("checkmate"), (within or 0) + self.patience, f"checkmate after '{command}'")
        name = f"{command} ({expected})"
        words = line.split()
        if expected == "mate":
            moves = words[1:]
            ok = moves and moves[0] not in ("nomate", "timeout", "notimplemented")
            self.check(f"{name}: a mate line", ok, line)
            if ok:
                wrong = self.line_is_legal(position, moves)
                self.check(f"{name}: the line is legal", wrong is None, f"{wrong} in {line}")
                end = position.after([usi_to_fsf(m) for m in moves])
                replies = self.referee.legal_moves(end.variant, end.setup, end.moves)
                self.check(f"{name}: the line ends in mate", replies == set(), f"{sorted(replies or [])[:5]}")
        else:
            self.check(f"{name}: 'checkmate {expected}'", words == ["checkmate", expected], line)
        if within is not None:
            self.check(f"{name}: answered in {waited:.2f} s (asked {within:.3f} s + margin)",
                       waited <= within + self.margin)
        bad = [l for l in before if l.startswith("info") and parse_info(l, "usi")[0]]
        self.check(f"{name}: info lines parse", not bad, f"{bad[:2]}")

    def session_ucci(self):
        options = self.handshake("ucci", "ucciok", {
            "usemillisec": "check", "hashsize": "spin", "ponder": "check", "level": "spin",
            "newgame": "button",
        })
        # ElephantEye reads `hashsize 0` as the smallest table; qipan does too.
        self.exercise_options(options, skip_invalid=(("hashsize", "0"),))
        self.engine.send("setoption newgame")
        self.ready("setoption newgame", expect_error=False)
        moves_iccs = ["h2e2", "h9g7"]
        self.set_position("position startpos moves " + " ".join(moves_iccs),
                          Position("xiangqi", "startpos", [iccs_to_fsf(m) for m in moves_iccs]),
                          "position startpos moves")
        # Seconds (usemillisec is off by default).
        self.go("go time 3 increment 0", name="go time 3 (seconds)", within=3.0)
        self.go("go time 2.5 increment 0.5", name="go time 2.5 (decimal seconds)", within=2.5)
        self.engine.send("setoption usemillisec true")
        self.ready("setoption usemillisec true", expect_error=False)
        self.go("go time 3000 increment 100 opptime 3000 oppincrement 100", within=3.0)
        self.go("go time 5000 movestogo 20", within=5.0)
        self.go("go time 1500.5 increment 0", name="go time 1500.5 (decimal ms)", within=1.5)
        best, lines = self.go("go depth 3")
        scores = [l for l in lines if l.startswith("info depth")]
        self.check("UCCI scores are plain numbers",
                   all(re.search(r" score -?\d+ ", l) for l in scores) and scores, f"{scores[-1:]}")
        self.go("go nodes 3000")

        fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
        self.set_position(f"position fen {fen} moves h2e2 h9g7",
                          Position("xiangqi", f"fen {fen}", ["h3e3", "h10g8"]), "position fen moves")
        self.go("go depth 2", name="go depth 2 from a fen")

        # banmoves: the banned best move is not played.
        self.set_position("position startpos", Position("xiangqi", "startpos"), "position startpos")
        first, _ = self.go("go depth 2", name="go depth 2 before banmoves")
        if first:
            self.engine.send(f"banmoves {first}")
            self.ready(f"banmoves {first}", expect_error=False)
            second, _ = self.go("go depth 2", name=f"go depth 2 with {first} banned")
            self.check(f"banmoves: {first} not played", second != first, f"played {second}")

        self.set_position("position startpos moves h2e2", Position("xiangqi", "startpos", ["h3e3"]),
                          "position startpos, black to move")
        self.held_then_released("go ponder time 2000 increment 0", "ponderhit", "ponder + ponderhit", within=2.0)
        self.held_then_released("go ponder time 2000 increment 0", "stop", "ponder + stop", within=0.0)
        self.held_then_released("go depth infinite", "stop", "go depth infinite + stop", within=0.0)

        self.engine.send("probe startpos moves h2e2")
        line, _, _ = self.engine.read_until(lambda l: l.startswith("pophash"), self.patience, "pophash")
        self.check("probe answered pophash", line.startswith("pophash"), line)

        self.set_position(f"position fen {XIANGQI_MATED}", Position("xiangqi", f"fen {XIANGQI_MATED}"),
                          "position fen (mated)")
        self.go("go depth 2", name="go on a mated side")
        self.engine.send("position startpos moves h2e2 z0z0")
        self.ready("position with an unreadable move", expect_error=True)
        self.quit(farewell="bye")


def parse_info(line, protocol):
    """Reads an `info` line: (problem or None, fields). Fields: numbers by key, `score`
    as ('cp'|'mate'|'plain', n), `pv` as a list of moves."""
    words = line.split()
    fields = {}
    index = 1
    while index < len(words):
        key = words[index]
        if key == "string":
            fields["string"] = " ".join(words[index + 1:])
            return None, fields
        if key in ("pv", "refutation", "currline"):
            fields[key] = words[index + 1:]
            if not fields[key] and key == "pv":
                return "empty pv", fields
            break
        if key in INFO_KEYS_WITH_NUMBER:
            value = words[index + 1] if index + 1 < len(words) else ""
            if not re.fullmatch(r"-?\d+", value):
                return f"'{key}' without a number", fields
            fields[key] = int(value)
            index += 2
            continue
        if key == "currmove":
            fields[key] = words[index + 1] if index + 1 < len(words) else ""
            index += 2
            continue
        if key == "score":
            rest = words[index + 1:index + 3]
            if protocol == "ucci":
                if not rest or not re.fullmatch(r"-?\d+", rest[0]):
                    return "UCCI score is not a plain number", fields
                fields["score"] = ("plain", int(rest[0]))
                index += 2
            else:
                if len(rest) < 2 or rest[0] not in ("cp", "mate") or not re.fullmatch(r"[-+]?\d+", rest[1]):
                    return "score is not 'cp N' or 'mate N'", fields
                fields["score"] = (rest[0], int(rest[1]))
                index += 3
            if index < len(words) and words[index] in ("lowerbound", "upperbound"):
                index += 1
            continue
        return f"unknown key '{key}'", fields
    if "pv" in fields:
        for needed in ("depth", "score", "nodes"):
            if needed not in fields:
                return f"pv without {needed}", fields
    if "depth" in fields and fields["depth"] < 1:
        return "depth below 1", fields
    return None, fields


def parse_option(line, protocol):
    """Reads an option line: (option dict or None, problem). UCI/USI: `option name N
    type T …`; UCCI: `option N type T …`."""
    words = line.split()
    if protocol == "ucci":
        if len(words) < 4 or words[2] != "type":
            return None, "not 'option <name> type <type>'"
        option = {"name": words[1]}
        rest = words[2:]
    else:
        if len(words) < 5 or words[1] != "name" or "type" not in words[3:]:
            return None, "not 'option name <name> type <type>'"
        at = words.index("type", 3)
        option = {"name": " ".join(words[2:at])}
        rest = words[at:]
    option["type"] = rest[1] if len(rest) > 1 else ""
    option["vars"] = []
    index = 2
    while index < len(rest):
        key = rest[index]
        if key == "var":
            option["vars"].append(rest[index + 1] if index + 1 < len(rest) else "")
        elif key in ("default", "min", "max"):
            option[key] = rest[index + 1] if index + 1 < len(rest) else ""
        else:
            return None, f"unknown word '{key}'"
        index += 2
    kind = option["type"]
    if kind not in ("check", "spin", "combo", "button", "string", "filename"):
        return None, f"unknown type '{kind}'"
    if kind == "check" and option.get("default") not in ("true", "false"):
        return None, "check without default true/false"
    if kind == "spin":
        try:
            low, high, default = int(option["min"]), int(option["max"]), int(option["default"])
        except (KeyError, ValueError):
            return None, "spin without numeric default, min and max"
        if not low <= default <= high:
            return None, "spin default outside min..max"
    if kind == "combo" and option.get("default") not in option["vars"]:
        return None, "combo default is not one of its vars"
    return option, ""


def option_values(option):
    """A valid value for an option (its default) and invalid ones."""
    kind = option["type"]
    if kind == "check":
        return option["default"], ["maybe"]
    if kind == "spin":
        return option["default"], [str(int(option["max"]) + 1), str(int(option["min"]) - 1), "lots"]
    if kind == "combo":
        return option["default"], ["no-such-choice"]
    if kind == "button":
        return None, []
    return option.get("default", ""), []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True, help="the qipan executable")
    parser.add_argument("--protocol", action="append", choices=["uci", "usi", "ucci"],
                        help="run only this protocol (may be repeated)")
    parser.add_argument("--margin", type=float, default=DEFAULT_MARGIN,
                        help="seconds allowed past the time asked (default %(default)s)")
    parser.add_argument("--patience", type=float, default=DEFAULT_PATIENCE,
                        help="seconds to wait for an untimed answer (default %(default)s)")
    parser.add_argument("--quiet", action="store_true", help="print only failures and the total")
    arguments = parser.parse_args()
    results = Results(arguments.quiet)
    began = time.monotonic()
    try:
        referee = Referee(arguments.binary, arguments.patience)
    except (OSError, SessionBroken) as error:
        print(f"FAIL cannot start the referee '{arguments.binary} uci': {error}")
        print("0 passed, 1 failed")
        return 1
    try:
        for protocol in arguments.protocol or ["uci", "usi", "ucci"]:
            try:
                driver = Driver(protocol, arguments.binary, results, referee,
                                arguments.margin, arguments.patience)
            except OSError as error:
                results.check(f"{protocol}: the engine starts", False, str(error))
                continue
            driver.run()
    except SessionBroken as error:
        results.check("the referee answers", False, str(error))
    finally:
        referee.close()
    print(f"time: {time.monotonic() - began:.1f} s")
    print(f"{results.passed} passed, {results.failed} failed")
    return 0 if results.failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
