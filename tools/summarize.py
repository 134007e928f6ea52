#!/usr/bin/env python3
"""Summarise match logs written by `tools/match.py --output`: W/D/L, score, Elo ± 95%.

Works on partial logs too (a match stopped early), reading the per-game lines.

    python3 tools/summarize.py tools/results/*.txt
"""

import math
import re
import sys

GAME = re.compile(r"game \d+: qipan as (first|second): (.*) \((\d+) plies\) -> W\d+ D\d+ L\d+")


def summarise(path):
    scores = []
    plies = []
    adjudicated = 0
    by_colour = {"first": [], "second": []}
    with open(path, encoding="utf-8") as log:
        for line in log:
            match = GAME.match(line)
            if not match:
                continue
            colour, result, length = match.group(1), match.group(2), int(match.group(3))
            if "protocol error" in result:
                score = 0.0 if result.startswith("qipan") else 1.0
            elif result.startswith("draw"):
                score = 0.5
            else:
                score = 1.0 if result.startswith(colour) else 0.0
            scores.append(score)
            by_colour[colour].append(score)
            plies.append(length)
            adjudicated += "adjudication" in result
    games = len(scores)
    if games == 0:
        return None
    mean = sum(scores) / games
    p = min(max(mean, 1e-3), 1 - 1e-3)
    elo = -400 * math.log10(1 / p - 1)
    variance = sum((s - mean) ** 2 for s in scores) / (games - 1) if games > 1 else float("inf")
    margin = 1.96 * math.sqrt(variance / games) * 400 / (math.log(10) * p * (1 - p))
    wins = scores.count(1.0)
    draws = scores.count(0.5)
    losses = scores.count(0.0)
    colours = ", ".join(f"as {c}: {sum(v):g}/{len(v)}" for c, v in by_colour.items())
    return (f"{games} games: W {wins} D {draws} L {losses}, score {mean:.3f}, "
            f"Elo {elo:+.0f} ± {margin:.0f} (95%); {colours}; adjudicated {adjudicated}; "
            f"mean length {sum(plies) / games:.0f} plies")


def main():
    for path in sys.argv[1:]:
        try:
            summary = summarise(path)
        except OSError as error:
            print(f"{path}: cannot read: {error.strerror}", file=sys.stderr)
            continue
        if summary:
            print(f"{path}: {summary}")


if __name__ == "__main__":
    main()
