#!/usr/bin/env python3
"""Checks qipan's XQF reader against walker8088/cchess (`pip install cchess`) on a
folder of .xqf files: the same start position, side to move and main line.

    python3 tools/check_xqf.py --qipan target/release/qipan DIR

Prints one line per file and a closing 'N passed, N failed' line."""
import argparse, glob, os, re, subprocess, sys

import cchess


def iccs_to_fsf(move):
    return f"{move[0]}{int(move[1]) + 1}{move[2]}{int(move[3]) + 1}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--qipan", default="target/release/qipan")
    parser.add_argument("folder")
    args = parser.parse_args()
    passed = failed = 0
    files = sorted(glob.glob(os.path.join(args.folder, "*.[xX][qQ][fF]")))
    for path in files:
        game = cchess.Game.read_from(path)
        fen = game.init_board.to_fen()
        moves = []
        move = game.first_move
        while move:
            moves.append(iccs_to_fsf(move.to_iccs()))
            move = move.next_move
        expected_placement, expected_side = fen.split()[:2]
        run = subprocess.run([args.qipan, "convert", path, "--to", "usi"],
                             capture_output=True, text=True)
        line = [l for l in run.stdout.splitlines() if l.startswith("position")]
        bad_move = re.search(r"move (\d+)", run.stderr)
        if run.returncode != 0 and bad_move and int(bad_move.group(1)) == len(moves) + 1:
            # cchess skips an illegal move silently; qipan reports it and keeps the moves before.
            print(f"ok   {os.path.basename(path)}: bad move {bad_move.group(1)} reported")
            passed += 1
            continue
        if run.returncode != 0 or not line:
            print(f"FAIL {os.path.basename(path)}: {run.stderr.strip()}")
            failed += 1
            continue
        words = line[0].split()
        placement, side = words[2], words[3]
        got_moves = words[words.index("moves") + 1:] if "moves" in words else []
        ok = (placement == expected_placement
              and side == expected_side.replace("r", "w")
              and got_moves == moves)
        print(f"{'ok  ' if ok else 'FAIL'} {os.path.basename(path)}: {len(got_moves)} moves")
        if not ok:
            print(f"     cchess {fen} {' '.join(moves)}\n     qipan  {line[0]}")
        passed += ok
        failed += not ok
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


main()
