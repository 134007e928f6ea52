"""Reads qipan's timed golden KIF and CSA files with cshogi and compares moves and times.

The files are written by tests/record_times.rs; `qipan_timed_expected.txt` lists the USI
moves and the seconds of each move qipan wrote. Run `python3 check_qipan_times.py` here;
it prints one line per file and exits non-zero when cshogi reads something different.
"""
import sys

import cshogi
import cshogi.KIF

failures = 0
for line in open("qipan_timed_expected.txt", encoding="utf-8"):
    if line.startswith("#"):
        continue
    name, moves, times = line.rstrip("\n").split(";")
    if name.endswith(".kifu"):
        parsed = cshogi.KIF.Parser.parse_file(name)
    else:
        parsed = cshogi.Parser.parse_file(name, encoding="utf-8")[0]
    got_moves = [cshogi.move_to_usi(m) for m in parsed.moves]
    got_times = [int(t) for t in parsed.times]
    same_moves = got_moves == moves.split()
    same_times = got_times == [int(t) for t in times.split()]
    print(f"{name}: {len(got_moves)} moves {'same' if same_moves else 'DIFFERENT'}, "
          f"{len(got_times)} times {'same' if same_times else 'DIFFERENT'}")
    if not (same_moves and same_times):
        failures += 1
sys.exit(1 if failures else 0)
