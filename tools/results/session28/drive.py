import os, subprocess, sys
variant, binary, depth = sys.argv[1], sys.argv[2], sys.argv[3]
p = subprocess.Popen([binary] if 'fairy' in binary else [binary, 'uci'], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
def send(s): p.stdin.write(s+'\n'); p.stdin.flush()
def wait(tok):
    while True:
        l = p.stdout.readline()
        if not l: raise SystemExit('engine closed')
        if l.startswith(tok): return l
send('uci'); wait('uciok')
send(f'setoption name UCI_Variant value {variant}'); send('setoption name Threads value 1')
for line in open(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'data', 'depth-positions.txt')):
    if line.startswith(variant+'\t'):
        v,fen,moves=line.rstrip('\n').split('\t')
        send('ucinewgame'); send(f'position fen {fen}'); send(f'go depth {depth}'); wait('bestmove')
send('quit')
p.wait()
