#!/usr/bin/env python3
"""Ratings of qipan's levels 1-9 from the ladder logs of tools/ladder.py.

Reads tools/results/ladder/<variant>-<a>-vs-<b>.txt (level a against level b) and
<variant>-5-vs-fsf-elo-1350.txt (the anchor: level 5 against Fairy-Stockfish at its own
UCI_Elo 1350), chains the adjacent steps up and down from level 5, and prints each
game's ratings, their mean, and the 95% margin of each step.

    python3 tools/ladder_ratings.py [folder]

A perfect or null score (10/10) is taken as (points + 0.5) / (games + 1), so it gives a
finite step instead of an infinite one. The mean over the three games is what
`UCI_Elo` maps onto (src/protocol/mod.rs, ELO_FOR_LEVEL).
"""

import math
import re
import sys
from pathlib import Path

folder = Path(sys.argv[1] if len(sys.argv) > 1 else "tools/results/ladder")
ANCHOR_LEVEL, ANCHOR_ELO = 5, 1350
GAME = re.compile(r"^game \d+: .*-> W(\d+) D(\d+) L(\d+)$")


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


ratings = {}
for variant in ("xiangqi", "janggi", "shogi"):
    anchor = folder / f"{variant}-{ANCHOR_LEVEL}-vs-fsf-elo-{ANCHOR_ELO}.txt"
    points, games = score(anchor)
    difference, margin = step(points, games)
    rating = {ANCHOR_LEVEL: ANCHOR_ELO + difference}
    print(f"{variant}: level {ANCHOR_LEVEL} vs fsf UCI_Elo {ANCHOR_ELO}: "
          f"{points}/{games} -> {difference:+.0f} ± {margin:.0f}")
    for level in range(ANCHOR_LEVEL + 1, 10):
        points, games = score(folder / f"{variant}-{level}-vs-{level - 1}.txt")
        difference, margin = step(points, games)
        rating[level] = rating[level - 1] + difference
        print(f"  {level} vs {level - 1}: {points}/{games} = {points / games:.3f} -> {difference:+.0f} ± {margin:.0f}")
    for level in range(ANCHOR_LEVEL - 1, 0, -1):
        points, games = score(folder / f"{variant}-{level + 1}-vs-{level}.txt")
        difference, margin = step(points, games)
        rating[level] = rating[level + 1] - difference
        print(f"  {level + 1} vs {level}: {points}/{games} = {points / games:.3f} -> {difference:+.0f} ± {margin:.0f}")
    hanging = folder / f"{variant}-1-vs-hanging.txt"
    if hanging.exists():
        points, games = score(hanging)
        print(f"  level 1 vs the hanging-piece avoider: {points}/{games} = {points / games:.3f}")
    ratings[variant] = rating

print("\nlevel  " + "  ".join(f"{v:>8}" for v in ratings) + "      mean")
for level in range(1, 10):
    values = [ratings[v][level] for v in ratings]
    print(f"{level:>5}  " + "  ".join(f"{value:8.0f}" for value in values)
          + f"  {sum(values) / len(values):8.0f}")
