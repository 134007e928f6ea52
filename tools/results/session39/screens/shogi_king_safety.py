#!/usr/bin/env python3
"""Session 39 screen: king-safety feature families for shogi, on top of a build's static
evaluation (the build's own king danger included), by held-out error.

    python3 shogi_king_safety.py EVALUATIONS.tsv FAMILIES RIDGE [LABEL_LIMIT] [--cache F]

EVALUATIONS.tsv from session38/screens/evaluations.py (fen, label, static, game). Ridge fit
of label ~ scale * static + family columns, every fifth game held out (as
session38/screens/shogi_features.py). Each family is counted for both kings, the side to
move's attackers +1 and the other side's -1. Families (see king_features()):

  weak        squares of the defender's 3x3 zone the attacker hits and no defending piece
              but the king covers, 0..8
  attackers   attacker's pieces (not pawns) hitting the zone, 0..6
  hits        attacks on the zone summed over pieces, 0..20
  weak_att    weak x attackers table
  checks      safe checking moves on the board (to a square the defender does not cover)
              by kind tier, clamped at 3
  drops_weak  attacker's hand (rook/bishop, gold/silver, minors, pawn) x weak count
  escapes     defender king's free squares (empty or enemy, not attacked) 0..8
  pins        defender pieces pinned to their king, 0..3
  zone_map    each square within two of the defender's king by place (file distance, rank
              offset toward the attacker), attacker's and defender's attack counts (0..2)
              and what stands there
  zone_bits   zone_map with attacks only as attacked or not (bitboard-cheap)
  zone_attacks  the same without what stands there, attacked squares only
"""
import os, pickle, sys
import numpy as np, scipy.sparse as sp

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'session38', 'screens'))
from shogi_features import held_out_fit, parse, load  # noqa: E402

# Kind indices from parse(): p l n s g b r +p +l +n +s +b +r k = 0..13.
GOLDLIKE = {4, 7, 8, 9, 10}
ORTH = [(0, 1), (0, -1), (1, 0), (-1, 0)]
DIAG = [(1, 1), (1, -1), (-1, 1), (-1, -1)]


def steps(kind, forward):
    """Single steps (dx, drow) of a kind whose forward is drow = forward."""
    f = forward
    if kind == 0:
        return [(0, f)]
    if kind == 2:
        return [(-1, 2 * f), (1, 2 * f)]
    if kind == 3:
        return [(0, f), (-1, f), (1, f), (-1, -f), (1, -f)]
    if kind in GOLDLIKE:
        return [(0, f), (-1, f), (1, f), (-1, 0), (1, 0), (0, -f)]
    if kind == 11:
        return ORTH
    if kind == 12:
        return DIAG
    if kind == 13:
        return ORTH + DIAG
    return []


def slides(kind, forward):
    if kind == 1:
        return [(0, forward)]
    if kind in (5, 11):
        return DIAG
    if kind in (6, 12):
        return ORTH
    return []


def attacks(kind, side, x, r, occ):
    forward = -1 if side == 0 else 1
    out = []
    for dx, dr in steps(kind, forward):
        nx, nr = x + dx, r + dr
        if 0 <= nx < 9 and 0 <= nr < 9:
            out.append((nx, nr))
    for dx, dr in slides(kind, forward):
        nx, nr = x + dx, r + dr
        while 0 <= nx < 9 and 0 <= nr < 9:
            out.append((nx, nr))
            if (nx, nr) in occ:
                break
            nx += dx; nr += dr
    return out


TIER = [0, 1, 1, 2, 3, 4, 5, 3, 3, 3, 3, 4, 5, 6]  # check tiers: pawn, minors, silver, gold-like, bishop, rook


def king_features(fen):
    """Per defender side d (0 sente, 1 gote): dict of raw counts, and the attacker's hand."""
    pieces, hands, stm = parse(fen)
    occ = {(x, r): (s, k) for s, k, x, r in pieces}
    att = [dict(), dict()]  # side -> square -> list of (kind) attacking (non-king)
    king_att = [set(), set()]
    kings = {}
    attack_lists = []
    for s, k, x, r in pieces:
        a = attacks(k, s, x, r, occ)
        attack_lists.append((s, k, x, r, a))
        if k == 13:
            kings[s] = (x, r)
            king_att[s].update(a)
        else:
            for sq in a:
                att[s].setdefault(sq, []).append(k)
    out = {}
    for d in (0, 1):
        a_side = 1 - d
        if d not in kings:
            continue
        kx, kr = kings[d]
        zone = [(kx + dx, kr + dr) for dx in (-1, 0, 1) for dr in (-1, 0, 1)
                if 0 <= kx + dx < 9 and 0 <= kr + dr < 9]
        zone_set = set(zone)
        weak = sum(1 for sq in zone if sq != (kx, kr) and sq in att[a_side] and sq not in att[d])
        hits = 0; attackers = 0
        for s, k, x, r, a in attack_lists:
            if s != a_side or k == 13:
                continue
            n = sum(1 for sq in a if sq in zone_set)
            hits += n
            if n and k != 0:
                attackers += 1
        # Safe checks by board moves: a square from which a kind attacks the king, that an
        # attacker piece of that kind reaches, empty or holding a defender piece, and that
        # no defender piece (nor the king, unless an attacker backs it) covers.
        checks = [0] * 7
        for s, k, x, r, a in attack_lists:
            if s != a_side or k == 13:
                continue
            for sq in a:
                if sq in occ and occ[sq][0] == a_side:
                    continue
                if sq in att[d]:
                    continue
                if sq in king_att[d] and len(att[a_side].get(sq, [])) < 2:
                    continue
                if (kx, kr) in attacks(k, a_side, sq[0], sq[1], {**occ, sq: (a_side, k)}):
                    checks[TIER[k]] += 1
        escapes = 0
        for sq in zone:
            if sq == (kx, kr):
                continue
            if sq in occ and occ[sq][0] == d:
                continue
            if sq in att[a_side] or sq in king_att[a_side]:
                continue
            escapes += 1
        # Pins: a defender piece alone between its king and an attacker slider.
        pins = 0
        for s, k, x, r in pieces:
            if s != a_side:
                continue
            for dx, dr in slides(k, -1 if s == 0 else 1):
                nx, nr = x + dx, r + dr; between = None
                while 0 <= nx < 9 and 0 <= nr < 9:
                    if (nx, nr) in occ:
                        if between is None:
                            if occ[(nx, nr)][0] != d:
                                break
                            between = (nx, nr)
                        else:
                            if (nx, nr) == (kx, kr):
                                pins += 1
                            break
                    nx += dx; nr += dr
        hand = hands[a_side]
        # Squares within two of the king (file distance, rank offset toward the attacker in
        # the defender's view): attacker's and defender's non-king attack counts and what
        # stands there (0 empty, 1 defender's piece, 2 attacker's piece).
        zone_map = []
        for dx in range(-2, 3):
            for dr in range(-2, 3):
                sq = (kx + dx, kr + dr)
                if sq == (kx, kr) or not (0 <= sq[0] < 9 and 0 <= sq[1] < 9):
                    continue
                toward = -dr if d == 0 else dr
                stand = 0 if sq not in occ else (1 if occ[sq][0] == d else 2)
                zone_map.append((abs(dx), toward, min(len(att[a_side].get(sq, [])), 2),
                                 min(len(att[d].get(sq, [])), 2), stand))
        out[d] = dict(weak=weak, attackers=attackers, hits=hits, checks=checks,
                      escapes=escapes, pins=pins, hand=hand, zone_map=zone_map)
    return out, stm


def columns(raw, stm, families):
    cols = []; vals = []; off = 0
    for fam in families:
        for d, f in raw.items():
            sign = 1 if (1 - d) == stm else -1  # attacker is the side to move: +1
            if fam == 'weak':
                cols.append(off + f['weak']); vals.append(sign)
            elif fam == 'attackers':
                cols.append(off + min(f['attackers'], 6)); vals.append(sign)
            elif fam == 'hits':
                cols.append(off + min(f['hits'], 20)); vals.append(sign)
            elif fam == 'weak_att':
                cols.append(off + f['weak'] * 7 + min(f['attackers'], 6)); vals.append(sign)
            elif fam == 'checks':
                for tier in range(7):
                    if f['checks'][tier]:
                        cols.append(off + tier * 4 + min(f['checks'][tier], 3)); vals.append(sign)
            elif fam == 'drops_weak':
                h = f['hand']
                groups = [h[5] + h[6], h[3] + h[4], h[1] + h[2], h[0]]
                for g, n in enumerate(groups):
                    if n:
                        cols.append(off + (g * 3 + min(n, 3) - 1) * 9 + f['weak']); vals.append(sign)
            elif fam == 'escapes':
                cols.append(off + f['escapes']); vals.append(sign)
            elif fam == 'zone_bits':
                for fx, fy, na, nd, stand in f['zone_map']:
                    place = fx * 5 + fy + 2
                    cols.append(off + ((place * 2 + min(na, 1)) * 2 + min(nd, 1)) * 3 + stand); vals.append(sign)
            elif fam in ('zone_map', 'zone_attacks'):
                for fx, fy, na, nd, stand in f['zone_map']:
                    place = fx * 5 + fy + 2
                    if fam == 'zone_attacks':
                        if na:
                            cols.append(off + (place * 2 + na - 1) * 3 + nd); vals.append(sign)
                    else:
                        cols.append(off + ((place * 3 + na) * 3 + nd) * 3 + stand); vals.append(sign)
            elif fam == 'pins':
                cols.append(off + min(f['pins'], 3)); vals.append(sign)
        off += {'weak': 9, 'attackers': 7, 'hits': 21, 'weak_att': 63, 'checks': 28,
                'drops_weak': 4 * 3 * 9, 'escapes': 9, 'pins': 4,
                'zone_map': 15 * 27, 'zone_bits': 15 * 12, 'zone_attacks': 15 * 6}[fam]
    return cols, vals, off


def main():
    args = [a for a in sys.argv[1:]]
    cache = None
    if '--cache' in args:
        i = args.index('--cache'); cache = args[i + 1]; del args[i:i + 2]
    path, fams, ridge = args[0], [f for f in args[1].split(',') if f], float(args[2])
    limit = int(args[3]) if len(args) > 3 else 1500
    rows = load(path, limit)
    if cache and os.path.exists(cache):
        raws = pickle.load(open(cache, 'rb'))
    else:
        raws = [king_features(r[0]) for r in rows]
        if cache:
            pickle.dump(raws, open(cache, 'wb'))
    data = []; indices = []; indptr = [0]; width = 0
    for raw, stm in raws:
        c, v, width = columns(raw, stm, fams)
        indices += c; data += v; indptr.append(len(indices))
    X = sp.csr_matrix((np.array(data, float), np.array(indices, dtype=np.int64), np.array(indptr)),
                      shape=(len(rows), width))
    _, _, _, base_te, w, tr, te, tested = held_out_fit(X, rows, ridge)
    print(f"{'+'.join(fams) or 'none'} ridge {ridge}: n {len(rows)} test {tested}; scaled static test {base_te:.1f}; "
          f"with families train {tr:.1f} test {te:.1f}", flush=True)
    if os.environ.get('WEIGHTS'):
        print(' '.join(f'{x:.1f}' for x in w[1:]))


if __name__ == '__main__':
    main()
