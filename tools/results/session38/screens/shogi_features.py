#!/usr/bin/env python3
"""Session 38 screen of shogi feature families on top of a build's static evaluation.

    python3 shogi_features.py EVALUATIONS.tsv FAMILIES RIDGE [LABEL_LIMIT]

EVALUATIONS.tsv from evaluations.py. Ridge fit of label ~ scale * static + family columns,
every fifth game held out; prints held-out rms without and with the families. Families:
kpc<R>_own, kpc<R>_enemy (piece kind by place from a king, reach R), kp_own/kp_enemy (full),
kp_own_region, hand, hand_exposure, near_enemy_count (see features())."""
import sys, numpy as np, scipy.sparse as sp
KINDS = {'p':0,'l':1,'n':2,'s':3,'g':4,'b':5,'r':6,'+p':7,'+l':8,'+n':9,'+s':10,'+b':11,'+r':12,'k':13}
HANDK = 'plnsgbr'
def parse(fen):
    board, rest = fen.split('[',1)
    hand, rest = rest.split(']',1)
    stm = rest.split()[0]
    pieces = []  # (side 0 sente/1 gote, kind, x, row)
    for row, rank in enumerate(board.split('/')):
        x = 0; prom = False
        for c in rank:
            if c.isdigit(): x += int(c); continue
            if c == '+': prom = True; continue
            side = 0 if c.isupper() else 1
            k = ('+' if prom else '') + c.lower(); prom = False
            pieces.append((side, KINDS[k], x, row)); x += 1
    hands = [[0]*7, [0]*7]
    for c in hand:
        hands[0 if c.isupper() else 1][HANDK.index(c.lower())] += 1
    return pieces, hands, 0 if stm == 'w' else 1

def own(side, x, row):  # own perspective: y 0 = own back rank, x mirrored for gote
    return (x, 8 - row) if side == 0 else (8 - x, row)

def features(fen, families):
    pieces, hands, stm = parse(fen)
    kings = {}
    for s,k,x,r in pieces:
        if k == 13: kings[s] = (x, r)
    cols = []; vals = []
    off = 0
    for fam in families:
        if fam in ('kp_own', 'kp_enemy'):
            for s,k,x,r in pieces:
                if k == 13: continue
                ks = s if fam == 'kp_own' else 1 - s
                if ks not in kings: continue
                px, py = own(s, x, r); kx, ky = own(s, *kings[ks])
                dx = abs(px - kx); dy = py - ky + 8
                cols.append(off + (k*9 + dx)*17 + dy); vals.append(1 if s == stm else -1)
            off += 13*9*17
        elif fam.startswith('kpc'):  # kpc<clamp>_own / kpc<clamp>_enemy
            c = int(fam[3]); which_own = fam.endswith('own')
            for s,k,x,r in pieces:
                if k == 13: continue
                ks = s if which_own else 1 - s
                if ks not in kings: continue
                px, py = own(s, x, r); kx, ky = own(s, *kings[ks])
                dx = min(abs(px - kx), c); dy = max(-c, min(c, py - ky)) + c
                cols.append(off + (k*(c+1) + dx)*(2*c+1) + dy); vals.append(1 if s == stm else -1)
            off += 13*(c+1)*(2*c+1)
        elif fam == 'kp_own_near' or fam == 'kp_enemy_near':
            # coarse: offsets clamped to -3..3
            for s,k,x,r in pieces:
                if k == 13: continue
                ks = s if fam == 'kp_own_near' else 1 - s
                if ks not in kings: continue
                px, py = own(s, x, r); kx, ky = own(s, *kings[ks])
                dx = min(abs(px - kx), 3); dy = max(-3, min(3, py - ky)) + 3
                cols.append(off + (k*4 + dx)*7 + dy); vals.append(1 if s == stm else -1)
            off += 13*4*7
        elif fam == 'kp_own_region':  # own-king relations split by king region (edge files vs centre)
            c = 3
            for s,k,x,r in pieces:
                if k == 13: continue
                if s not in kings: continue
                px, py = own(s, x, r); kx, ky = own(s, *kings[s])
                region = 0 if min(kx, 8-kx) <= 2 else 1
                region = region*2 + (0 if ky <= 1 else 1)
                dx = min(abs(px - kx), c); dy = max(-c, min(c, py - ky)) + c
                cols.append(off + ((region*13 + k)*(c+1) + dx)*(2*c+1) + dy); vals.append(1 if s == stm else -1)
            off += 4*13*(c+1)*(2*c+1)
        elif fam == 'hand_exposure':  # hand kinds x open squares around enemy king
            occ = {(x, r) for s,k,x,r in pieces}
            for s in (0,1):
                if 1-s not in kings: continue
                ex, er = kings[1-s]
                empty = sum(1 for dx in (-1,0,1) for dr in (-1,0,1) if (dx or dr) and 0<=ex+dx<9 and 0<=er+dr<9 and (ex+dx, er+dr) not in occ)
                for h in range(7):
                    if hands[s][h]:
                        cols.append(off + h*9 + empty); vals.append(1 if s == stm else -1)
            off += 63
        elif fam == 'near_enemy_count':  # own non-king pieces within distance 2 of enemy king, count 0..8
            for s in (0,1):
                if 1-s not in kings: continue
                ex, er = kings[1-s]
                n = sum(1 for s2,k,x,r in pieces if s2 == s and k != 13 and max(abs(x-ex), abs(r-er)) <= 2)
                m = sum(1 for s2,k,x,r in pieces if s2 == 1-s and k != 13 and max(abs(x-ex), abs(r-er)) <= 2)
                cols.append(off + min(n, 8)*9 + min(m, 8)); vals.append(1 if s == stm else -1)
            off += 81
        elif fam == 'hand':
            caps = [8,4,4,4,4,2,2]
            for s in (0,1):
                for h in range(7):
                    for c in range(min(hands[s][h], caps[h])):
                        cols.append(off + h*8 + c); vals.append(1 if s == stm else -1)
            off += 7*8
        elif fam == 'kk':  # king positions pair (own perspective of stm): own king square x enemy king square coarse
            for s in (0,1):
                if s not in kings or 1-s not in kings: continue
                kx, ky = own(s, *kings[s]); ex, ey = own(s, *kings[1-s])
                cols.append(off + (min(kx,8-kx)*9 + ky)*0 + (min(kx, 8-kx)*9+ky)); vals.append(1 if s==stm else -1)
            off += 81
    return cols, vals, off

def load(path, limit=1500):
    rows = []
    for line in open(path):
        fen, label, static, game = line.rstrip('\n').split('\t')
        if abs(int(label)) <= limit: rows.append((fen, int(label), int(static), game))
    return rows

def held_out_fit(X, rows, ridge):
    """Ridge fit of label ~ scale * static + X (scale unpenalised), every fifth game held
    out. Returns (raw static test rms, scaled static train and test rms, fitted weights with
    the scale first, train and test rms with X)."""
    y = np.array([r[1] for r in rows], float); s = np.array([r[2] for r in rows], float)
    games = sorted(set(r[3] for r in rows)); gi = {g:i for i,g in enumerate(games)}
    test = np.array([gi[r[3]] % 5 == 0 for r in rows]); train = ~test
    a = (s[train] @ y[train]) / (s[train] @ s[train])
    base_tr = np.sqrt(np.mean((a*s[train]-y[train])**2)); base_te = np.sqrt(np.mean((a*s[test]-y[test])**2))
    raw_te = np.sqrt(np.mean((s[test]-y[test])**2))
    # fit y ~ a*s + X w jointly: augment
    Xa = sp.hstack([sp.csr_matrix(s[:,None]), X]).tocsr()
    Xt = Xa[train]; A = (Xt.T @ Xt).toarray(); b = Xt.T @ y[train]
    reg = np.full(A.shape[0], ridge); reg[0] = 0
    w = np.linalg.solve(A + np.diag(reg), b)
    pred = Xa @ w
    tr = np.sqrt(np.mean((pred[train]-y[train])**2)); te = np.sqrt(np.mean((pred[test]-y[test])**2))
    return raw_te, a, base_tr, base_te, w, tr, te, int(test.sum())

def run(rows, families, ridge):
    data = []; indptr = [0]; indices = []
    for fen, _, _, _ in rows:
        c, v, width = features(fen, families)
        indices += c; data += v; indptr.append(len(indices))
    X = sp.csr_matrix((np.array(data, float), np.array(indices), np.array(indptr)), shape=(len(rows), width))
    raw_te, a, base_tr, base_te, w, tr, te, tested = held_out_fit(X, rows, ridge)
    print(f"{'+'.join(families) or 'none'} ridge {ridge}: n {len(rows)} test {tested}; raw static {raw_te:.1f}; scaled {a:.3f} train {base_tr:.1f} test {base_te:.1f}; fitted scale {w[0]:.3f} train {tr:.1f} test {te:.1f}", flush=True)
    return w

if __name__ == '__main__':
    path = sys.argv[1]; fams = [f for f in sys.argv[2].split(',') if f]; ridge = float(sys.argv[3])
    limit = int(sys.argv[4]) if len(sys.argv) > 4 else 1500
    run(load(path, limit), fams, ridge)
