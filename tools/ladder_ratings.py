#!/usr/bin/env python3
"""Ratings of qipan's levels 1-9 from the ladder logs of tools/ladder.py.

Reads either a folder of logs or a manifest (a text file naming, for each game, the log
of each step as the levels stand now, since steps are re-measured in different sessions):

    python3 tools/ladder_ratings.py [folder or manifest]   # default: tools/results/ladder-now.txt

A folder holds <variant>-<a>-vs-<b>.txt (level a against level b), <variant>-1-vs-hanging.txt
and one or more anchors <variant>-5-vs-fsf-elo-<E>.txt (level 5 against Fairy-Stockfish at
its own UCI_Elo E). A manifest has one line per log, `<variant> <step> <path>`, with step
`a-vs-b`, `1-vs-hanging` or `5-vs-fsf-elo-E`, the path relative to the manifest's folder;
`#` starts a comment.

Level 5's rating is the mean of what each anchor gives, weighted by the inverse of its
variance; the adjacent steps chain up and down from it. The script prints each game's
ratings with the margin of every step, and each game's row for `ELO_FOR_LEVEL`
(src/protocol/mod.rs), rounded to 10.

A perfect or null score (10/10) is taken as (points + 0.5) / (games + 1), so it gives a
finite step instead of an infinite one.
"""

import math
import re
import sys
from pathlib import Path

VARIANTS = ("xiangqi", "janggi", "shogi")
ANCHOR_LEVEL = 5
GAME = re.compile(r"^game \d+: .*-> W(\d+) D(\d+) L(\d+)$")
STEP = re.compile(r"^(\d)-vs-(\d|hanging|fsf-elo-(\d+))$")
FILE = re.compile(r"^(xiangqi|janggi|shogi)-(\d-vs-(?:\d|hanging|fsf-elo-\d+))\.txt$")


def score(path):
    """(points, games) of the measured level in one log: its last game line's tally."""
    wins = draws = losses = 0
    for line in path.read_text(encoding="utf-8").splitlines():
        found = GAME.match(line)
        if found:
            wins, draws, losses = map(int, found.groups())
    return wins + draws / 2, wins + draws + losses


def step(points, games):
    """The Elo difference a score gives, and its 95% margin (binomial approximation)."""
    fraction = points / games
    if fraction in (0.0, 1.0):
        fraction = (points + 0.5) / (games + 1)
    difference = -400 * math.log10(1 / fraction - 1)
    margin = 1.96 * math.sqrt(fraction * (1 - fraction) / games) * 400 / (
        math.log(10) * fraction * (1 - fraction))
    return difference, margin


def logs_of(source):
    """{variant: {step: path}} from a folder or a manifest."""
    logs = {variant: {} for variant in VARIANTS}
    if source.is_dir():
        for path in sorted(source.iterdir()):
            found = FILE.match(path.name)
            if found:
                logs[found.group(1)][found.group(2)] = path
        return logs
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split()
        if len(fields) != 3 or fields[0] not in VARIANTS or not STEP.match(fields[1]):
            raise SystemExit(f"{source}:{number}: expected '<variant> <step> <path>', got '{line}'")
        path = source.parent / fields[2]
        if not path.is_file():
            raise SystemExit(f"{source}:{number}: no log at {path}")
        logs[fields[0]][fields[1]] = path
    return logs


def main():
    source = Path(sys.argv[1] if len(sys.argv) > 1 else "tools/results/ladder-now.txt")
    all_logs = logs_of(source)
    ratings = {}
    for variant in VARIANTS:
        logs = all_logs[variant]
        anchors = []
        for name, path in logs.items():
            found = STEP.match(name)
            if found.group(3) and int(found.group(1)) == ANCHOR_LEVEL:
                points, games = score(path)
                difference, margin = step(points, games)
                anchor = int(found.group(3))
                anchors.append((anchor + difference, margin))
                print(f"{variant}: level {ANCHOR_LEVEL} vs fsf UCI_Elo {anchor}: "
                      f"{points}/{games} -> {anchor + difference:.0f} ± {margin:.0f}")
        if not anchors:
            print(f"{variant}: no anchor, left out")
            continue
        weights = [1 / margin ** 2 for _, margin in anchors]
        level_5 = sum(w * value for w, (value, _) in zip(weights, anchors)) / sum(weights)
        print(f"  level {ANCHOR_LEVEL}: {level_5:.0f} ± {1 / math.sqrt(sum(weights)):.0f}"
              f" (anchors weighted by 1/variance)")
        rating = {ANCHOR_LEVEL: level_5}
        # Each log `n-vs-(n-1)` is one step: up from level 5 it rates n, down it rates n - 1.
        for upper in list(range(ANCHOR_LEVEL + 1, 10)) + list(range(ANCHOR_LEVEL, 1, -1)):
            name = f"{upper}-vs-{upper - 1}"
            if name not in logs:
                print(f"  {name}: no log")
                break
            points, games = score(logs[name])
            difference, margin = step(points, games)
            if upper > ANCHOR_LEVEL:
                rating[upper] = rating[upper - 1] + difference
            else:
                rating[upper - 1] = rating[upper] - difference
            print(f"  {name}: {points}/{games} = {points / games:.3f} -> {difference:+.0f} ± {margin:.0f}")
        else:
            if "1-vs-hanging" in logs:
                points, games = score(logs["1-vs-hanging"])
                print(f"  level 1 vs the hanging-piece avoider: {points}/{games} = {points / games:.3f}")
            ratings[variant] = rating

    print("\nlevel  " + "  ".join(f"{v:>8}" for v in ratings))
    for level in range(1, 10):
        print(f"{level:>5}  " + "  ".join(f"{ratings[v][level]:8.0f}" for v in ratings))
    print("\nELO_FOR_LEVEL rows (rounded to 10):")
    for variant, rating in ratings.items():
        row = ", ".join(str(int(round(rating[level] / 10) * 10)) for level in range(1, 10))
        print(f"  {variant}: [{row}]")


if __name__ == "__main__":
    main()
