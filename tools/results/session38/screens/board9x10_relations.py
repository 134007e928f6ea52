#!/usr/bin/env python3
"""Session 38 screen of king relations in xiangqi and janggi: python3 board9x10_relations.py EVALS.tsv own,enemy REACH RIDGE."""
import sys, numpy as np, scipy.sparse as sp
KINDS = {'r':0,'n':1,'b':2,'a':3,'c':4,'p':5,'k':6}
def parse(fen):
    board = fen.split()[0]; stm = 0 if fen.split()[1] == 'w' else 1
    pieces = []
    for row, rank in enumerate(board.split('/')):
        x = 0
        for c in rank:
            if c.isdigit(): x += int(c); continue
            pieces.append((0 if c.isupper() else 1, KINDS[c.lower()], x, row)); x += 1
    return pieces, stm
def own(side, x, row): return (x, 9 - row) if side == 0 else (8 - x, row)
def features(fen, fams, c):
    pieces, stm = parse(fen)
    kings = {s:(x,r) for s,k,x,r in pieces if k == 6}
    cols=[]; vals=[]; off=0
    for fam in fams:
        for s,k,x,r in pieces:
            if k == 6: continue
            ks = s if fam == 'own' else 1-s
            if ks not in kings: continue
            px,py = own(s,x,r); kx,ky = own(s,*kings[ks])
            dx = min(abs(px-kx), c); dy = max(-c, min(c, py-ky)) + c
            cols.append(off + (k*(c+1)+dx)*(2*c+1)+dy); vals.append(1 if s == stm else -1)
        off += 6*(c+1)*(2*c+1)
    return cols, vals, off
rows=[]
for line in open(sys.argv[1]):
    fen,label,static,game = line.rstrip('\n').split('\t')
    if abs(int(label)) <= 1500: rows.append((fen,int(label),int(static),game))
fams=[f for f in sys.argv[2].split(',') if f]; c=int(sys.argv[3]); ridge=float(sys.argv[4])
data=[]; ind=[]; ptr=[0]; width=0
for r in rows:
    cc,v,width=features(r[0],fams,c); ind+=cc; data+=v; ptr.append(len(ind))
X=sp.csr_matrix((np.array(data,float),np.array(ind,int),np.array(ptr)),shape=(len(rows),max(width,1)))
y=np.array([r[1] for r in rows],float); s=np.array([r[2] for r in rows],float)
games=sorted(set(r[3] for r in rows)); gi={g:i for i,g in enumerate(games)}
test=np.array([gi[r[3]]%5==0 for r in rows]); train=~test
a=(s[train]@y[train])/(s[train]@s[train])
Xa=sp.hstack([sp.csr_matrix(s[:,None]),X]).tocsr(); Xt=Xa[train]
A=(Xt.T@Xt).toarray(); reg=np.full(A.shape[0],ridge); reg[0]=0
w=np.linalg.solve(A+np.diag(reg), Xt.T@y[train]); p=Xa@w
rms=lambda v: np.sqrt(np.mean(v**2))
print(f"{sys.argv[1]} {fams} c{c}: n {len(rows)}; scaled {a:.3f} test {rms(a*s[test]-y[test]):.1f}; with {w[0]:.3f} test {rms(p[test]-y[test]):.1f}")
