#!/usr/bin/env python3
"""Session 38 screen: static evaluations of a qipan build for scored positions (fen<TAB>label...).

    python3 evaluations.py QIPAN OUT.tsv shogi|xiangqi|janggi FILES...

Writes fen, label, static evaluation, game (a game starts where the move number falls)."""
# Static evals of qipan for every line of input files -> fen\tlabel\tstatic\tgame
import gzip, subprocess, sys
binary, out, variant = sys.argv[1], sys.argv[2], sys.argv[3]
rows = []
for path in sys.argv[4:]:
    opener = gzip.open if path.endswith('.gz') else open
    game = 0; last_move = None
    for line in opener(path, 'rt'):
        parts = line.rstrip('\n').split('\t')
        fen = parts[0]
        move = int(fen.split()[-1])
        if last_move is not None and move < last_move:
            game += 1
        last_move = move
        rows.append((fen, parts[1], f"{path}:{game}"))
e = subprocess.Popen([binary, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
e.stdin.write(f"uci\nsetoption name UCI_Variant value {variant}\n")
with open(out, 'w') as o:
    for fen, label, game in rows:
        e.stdin.write(f"position fen {fen}\neval\n"); e.stdin.flush()
        while True:
            a = e.stdout.readline()
            if a.startswith("info string static evaluation"):
                o.write(f"{fen}\t{label}\t{int(a.split()[4])}\t{game}\n"); break
e.stdin.write("quit\n"); e.stdin.flush()
