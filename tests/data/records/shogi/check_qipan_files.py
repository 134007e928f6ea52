"""Reads qipan's golden KIF, KI2 and CSA files with cshogi and compares the moves.

The golden files are written by tests/records_shogi.rs; `qipan_expected.txt` lists the
start SFEN and the USI moves qipan wrote. Run `python3 check_qipan_files.py` here; it
prints one line per file and exits non-zero when cshogi reads different moves.
"""
import re
import sys

import cshogi
import cshogi.KI2
import cshogi.KIF

failures = 0
for line in open("qipan_expected.txt", encoding="utf-8"):
    if line.startswith("#"):
        continue
    name, sfen, moves = line.rstrip("\n").split(";")
    if not name.endswith(".csa") and "+---" in open(name, encoding="utf-8").read():
        print(f"{name}: skipped, cshogi's KIF/KI2 readers ignore board diagrams")
        continue
    try:
        if name.endswith(".kifu"):
            parsed = cshogi.KIF.Parser.parse_file(name)
            start, got = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
        elif name.endswith(".ki2"):
            text = open(name, encoding="utf-8").read()
            # cshogi 1.1.0's KI2 reader loses its place after the second move of a line
            # (`pos = m.end()` on a slice), so give it one move a line, as it writes.
            text = re.sub(r"\s*([▲△])", r"\n\1", text)
            parsed = cshogi.KI2.Parser.parse_str(text)
            start, got = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
        else:
            parsed = cshogi.Parser.parse_file(name, encoding="utf-8")[0]
            start, got = parsed.sfen, [cshogi.move_to_usi(m) for m in parsed.moves]
    except Exception as error:  # cshogi raises on what it does not support (BOD)
        print(f"{name}: cshogi cannot read it: {error!r}")
        continue
    canonical = lambda text: cshogi.Board(sfen=text).sfen().rsplit(" ", 1)[0]
    same_start = canonical(start) == canonical(sfen)
    same_moves = got == moves.split()
    print(f"{name}: start {'same' if same_start else 'DIFFERENT'}, "
          f"{len(got)} moves {'same' if same_moves else 'DIFFERENT'}")
    if not (same_start and same_moves):
        failures += 1
sys.exit(1 if failures else 0)
