"""Reads files qipan wrote with other programs and checks they see the same game.

Usage: python3 check_other_programs.py DIR

DIR holds the files and `manifest.txt` (written by tests/other_programs.rs), one line
per file, fields separated by `|`:

    shogi|FILE|START SFEN|USI MOVES|SENTE|GOTE|SECONDS PER MOVE (comma list or -)|START TIME or -
    pgn|FILE|VARIANT|START FEN|FSF UCI MOVES

Shogi files (.kif, .ki2 in Shift_JIS; .kifu; .csa) are read by cshogi the way its users
read them: `parse_file`, which picks the encoding by extension. xiangqi and janggi PGN
movetext is replayed with pyffish: every move qipan wrote must name exactly one legal
move, the one qipan played.

Prints one line per file; exits 0 when all agree, 1 on a disagreement, 2 when python
packages are missing (the first line then says which).
"""
import os
import re
import sys

try:
    import cshogi
    import cshogi.KI2
    import cshogi.KIF
    import pyffish as sf
except ImportError as error:  # the Rust test prints this and skips
    print(f"missing python package: {error.name}")
    sys.exit(2)


def canonical_sfen(text):
    return cshogi.Board(sfen=text).sfen().rsplit(" ", 1)[0]


def check_shogi(folder, name, sfen, moves, sente, gote, times, start):
    path = os.path.join(folder, name)
    problems = []
    if name.endswith((".kif", ".kifu")):
        parsed = cshogi.KIF.Parser.parse_file(path)
        got_start, got_moves = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
        got_times = parsed.times
        got_start_time = parsed.starttime.strftime("%Y/%m/%d %H:%M:%S") if parsed.starttime else None
    elif name.endswith(".ki2"):
        with open(path, encoding="cp932") as f:
            text = f.read()
        # cshogi's KI2 reader loses its place after the second move of a line
        # (`pos = m.end()` on a slice), so give it one move a line, as it writes itself.
        text = re.sub(r"\s*([▲△])", r"\n\1", text)
        parsed = cshogi.KI2.Parser.parse_str(text)
        got_start, got_moves = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
        got_times, got_start_time = None, None
    else:
        parsed = cshogi.Parser.parse_file(path)[0]
        got_start, got_moves = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
        got_times, got_start_time = parsed.times, None
    if canonical_sfen(got_start) != canonical_sfen(sfen):
        problems.append(f"start {got_start!r}")
    if got_moves != moves.split():
        problems.append(f"moves differ ({len(got_moves)} read, {len(moves.split())} written)")
    if [n or None for n in parsed.names] != [sente or None, gote or None]:
        problems.append(f"names {list(parsed.names)!r}")
    if times != "-" and got_times is not None:
        expected = [int(t) for t in times.split(",")]
        # cshogi's KIF reader keeps whole seconds, its CSA reader too.
        if list(got_times)[: len(expected)] != expected:
            problems.append(f"times {list(got_times)[:len(expected)]!r}")
    if start != "-" and name.endswith((".kif", ".kifu")) and got_start_time != start:
        problems.append(f"start time {got_start_time!r}")
    return problems


def pgn_tokens(text):
    body = "\n".join(line for line in text.splitlines() if not line.startswith("["))
    body = re.sub(r"\{[^}]*\}", " ", body)
    # Variations are not the main line.
    while re.search(r"\([^()]*\)", body):
        body = re.sub(r"\([^()]*\)", " ", body)
    tokens = []
    for token in body.split():
        token = re.sub(r"^\d+\.+", "", token)
        if not token or token in ("*", "1-0", "0-1", "1/2-1/2") or token.startswith("$"):
            continue
        tokens.append(re.sub(r"[!?]+$", "", token))
    return tokens


def iccs_of(uci):
    """FSF's UCI for xiangqi counts ranks 1-10; ICCS counts 0-9 and writes A0-B1."""
    a = re.match(r"([a-i])(\d+)([a-i])(\d+)$", uci).groups()
    return f"{a[0].upper()}{int(a[1]) - 1}-{a[2].upper()}{int(a[3]) - 1}"


def korean_digits(uci):
    """The origin and destination digits of a janggi move as Korean coordinates write
    them (`71졸72`): rank counted from the top of the board (10 written 0), then file;
    the same digits as FSF's NOTATION_JANGGI (`P71-72`: checked equal with pyffish
    over every legal move of 60-ply random games)."""
    a = re.match(r"([a-i])(\d+)([a-i])(\d+)$", uci).groups()

    def digits(file, rank):
        return f"{(11 - int(rank)) % 10}{ord(file) - 96}"

    return digits(a[0], a[1]), digits(a[2], a[3])


def check_pgn(folder, name, variant, fen, moves):
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        tokens = pgn_tokens(f.read())
    played = moves.split()
    if len(tokens) != len(played):
        return [f"{len(tokens)} moves in the movetext, {len(played)} played"]
    history = []
    for index, token in enumerate(tokens):
        legal = sf.legal_moves(variant, fen, history)
        if variant == "xiangqi":
            matches = [m for m in legal if iccs_of(m) == token.upper()]
        else:
            if token.startswith(("한수쉼", "빅장받음")):
                matches = [m for m in legal if m[:2] == m[2:4] or re.match(r"^(\w\d+)\1$", m)]
            else:
                found = re.match(r"(\d\d)\D+?(\d\d)", token)
                if not found:
                    return [f"move {index + 1} {token!r} is not Korean coordinates"]
                matches = [m for m in legal if korean_digits(m) == found.groups()]
        if len(matches) != 1:
            return [f"move {index + 1} {token!r} names {len(matches)} legal moves"]
        if matches[0] != played[index]:
            return [f"move {index + 1} {token!r} read as {matches[0]}, played {played[index]}"]
        history.append(matches[0])
    return []


def main():
    folder = sys.argv[1]
    failures = 0
    with open(os.path.join(folder, "manifest.txt"), encoding="utf-8") as manifest:
        for line in manifest:
            fields = line.rstrip("\n").split("|")
            try:
                if fields[0] == "shogi":
                    problems = check_shogi(folder, *fields[1:])
                else:
                    problems = check_pgn(folder, *fields[1:])
            except Exception as error:  # a reader that raises disagrees too
                problems = [f"cannot read it: {error!r}"]
            print(f"{fields[1]}: {'same' if not problems else 'DIFFERENT: ' + '; '.join(problems)}")
            failures += bool(problems)
    sys.exit(1 if failures else 0)


main()
