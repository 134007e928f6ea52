//! The tsume (詰将棋) solver behind USI's `go mate`: a depth-first proof-number search
//! (df-pn) over shogi positions.
//!
//! The attacker (the side to move at the root) may play only moves that give check;
//! the defender may play any legal evasion, drops included. Every rule (uchifuzume,
//! nifu, dead drops, pinned pieces) comes from the rules engine's move generator, so
//! the solver never decides legality itself.
//!
//! The search:
//! - **One table for every pass.** A mate is first proved with unlimited depth; then
//!   shorter mates are looked for with depth-limited passes until one fails. Entries are
//!   keyed by the board alone and carry the attacker's hand; a proof remembers its mate
//!   distance (usable wherever that many plies remain) and a disproof the depth it was
//!   searched to (usable wherever no more remain), so later passes reuse earlier work.
//! - **Hand superiority (優越関係).** Within one solve the pieces are conserved, so the
//!   board and the attacker's hand fix the defender's hand. A proof is stored with its
//!   *proof hand* and holds for every hand holding at least those pieces; a disproof
//!   with its *disproof hand*, holding for every hand within it. Leaves (a mate, an
//!   attacker with no check) get derived hands; interior nodes store their exact hand
//!   for now (see `INTERIOR_PROOF_HANDS` and `INTERIOR_DISPROOF_HANDS`), so a proof is
//!   reused for larger hands only.
//! - **Useless interpositions (無駄合) last.** A defender's drop between a distant
//!   checker and the king on a square no defender guards can simply be captured; such
//!   drops are searched only once every other evasion is refuted. They are still
//!   searched (the answer is a real mate) and still counted in the length, which is
//!   what an exhaustive search such as cshogi's `mate_move` counts.
//! - **The defender's likeliest escapes first.** Its captures, then its king moves, then
//!   the other moves, drops last: among evasions that look alike (a fresh node's
//!   disproof number is 1), the first is searched first, and for a disproof it is most
//!   often a capture of the checker or a king's step (on a no-mate position with a
//!   large defender's hand this took 3.7M nodes down to 1.4M).
//! - **Cheap leaves.** A check is tested for mate (the defender has no legal move) when
//!   its node is first seen, and a fresh defender node starts with its evasion count
//!   as proof number.
//! - **The answer line** is the shortest mate against the longest defence: the
//!   attacker takes a check with the least proved distance, and where several
//!   evasions look equally long the defender's choice is confirmed with a
//!   depth-limited search showing that it has no shorter mate.
//!
//! The solver is pure: it reads no clock of its own beyond the deadline it is given,
//! does no I/O, and stops when the stop flag is set, the node budget is spent or the
//! deadline passes.
//!
//! Known limit: a repetition on the current path counts as a failed attack, and that
//! failure is stored like any other (the graph-history interaction): in rare cases a
//! mate can be missed, never a false mate claimed.

use crate::rules::shogi::kind::{PAWN, ROOK};
use crate::rules::shogi::{kind_of, owner, unpromoted, ShogiPosition};
use crate::rules::zobrist;
use crate::rules::{Move, MoveList, Position, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Whether solved interior nodes store derived proof hands. Off: a depth-limited pass
/// was once seen to answer a too-short mate with them on, and that is not explained for
/// sure. (One explanation, not confirmed: an answer line whose length was not confirmed,
/// because the budget ran out while shorter mates were looked for, takes at each
/// defender node the evasion with the largest *stored* distance, which is only an upper
/// bound, so the line can come out shorter than the mate; see `run`.) With them on every
/// mate of tests/data/tsume.txt still has cshogi's length, in some 15% fewer nodes on
/// the 9-ply ones.
const INTERIOR_PROOF_HANDS: bool = false;

/// Whether solved interior nodes store derived disproof hands (a disproof then holds for
/// every attacker's hand within its disproof hand, not only for its own hand). Off: on
/// the set's hard no-mate position they took the disproof from 1.4M nodes to 2.5M (and
/// with derived proof hands as well, to 1.3M), for no gain on the mates.
const INTERIOR_DISPROOF_HANDS: bool = false;

/// "Infinite" proof or disproof number: the node is solved.
const INFINITE: u32 = 1 << 30;

/// The deepest path followed (a guard against runaway recursion on very long lines).
const MAX_PATH: usize = 400;

/// Remaining plies of a search without a depth limit.
const UNLIMITED: u16 = u16::MAX;

/// How far and how long the solver may search.
#[derive(Clone, Copy, Debug)]
pub struct MateLimits {
    /// Stop after about this many nodes.
    pub nodes: u64,
    /// Stop when this moment has passed (`None`: no time limit).
    pub deadline: Option<Instant>,
    /// The size of the solver's table in MB.
    pub table_megabytes: usize,
}

impl Default for MateLimits {
    fn default() -> Self {
        MateLimits {
            nodes: u64::MAX,
            deadline: None,
            table_megabytes: 16,
        }
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MateAnswer {
    /// A mate: the attacker's and the defender's moves, first move first (odd length).
    Mate(Vec<Move>),
    /// No sequence of checks mates.
    NoMate,
    /// Stopped (flag, node budget or deadline) before knowing.
    Unknown,
}

/// The answer with what it cost.
#[derive(Clone, Debug)]
pub struct MateReport {
    /// The result.
    pub answer: MateAnswer,
    /// Positions expanded.
    pub nodes: u64,
    /// Time spent.
    pub elapsed: Duration,
}

/// Looks for a mate by continuous checks for the side to move of `position`.
pub fn solve(position: &ShogiPosition, limits: MateLimits, stop: &AtomicBool) -> MateReport {
    let started = Instant::now();
    let mut solver = Solver {
        table: Table::new(limits.table_megabytes),
        nodes: 0,
        node_limit: limits.nodes,
        deadline: limits.deadline,
        stop,
        aborted: false,
        path: Vec::new(),
        attacker: position.side_to_move(),
    };
    let answer = solver.run(position);
    MateReport {
        answer,
        nodes: solver.nodes,
        elapsed: started.elapsed(),
    }
}

// ---------------------------------------------------------------------------
// Hands
// ---------------------------------------------------------------------------

/// Pieces in hand packed in one word: a field per hand kind (pawns 5 bits, the others
/// 3) with a guard bit above each, so "at least as many of every kind" is one
/// subtraction that must leave every guard bit set.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct Hand(u32);

/// Bit offset of each hand kind's field (index = kind, `PAWN..=ROOK`).
const HAND_SHIFT: [u32; 8] = [0, 0, 6, 10, 14, 18, 22, 26];

/// The guard bits, one above every field.
const HAND_GUARDS: u32 =
    (1 << 5) | (1 << 9) | (1 << 13) | (1 << 17) | (1 << 21) | (1 << 25) | (1 << 29);

impl Hand {
    /// Every field at its largest value: a disproof hand that bounds nothing.
    const FULL: Hand = Hand(0x1FFF_FFFF & !HAND_GUARDS);

    fn field_max(kind: u8) -> u32 {
        if kind == PAWN {
            31
        } else {
            7
        }
    }

    /// A side's pieces in hand in `position`.
    fn of(position: &ShogiPosition, side: Side) -> Hand {
        let mut hand = Hand(0);
        for kind in PAWN..=ROOK {
            hand = hand.with(kind, position.hand_count(side, kind) as u32);
        }
        hand
    }

    fn count(self, kind: u8) -> u32 {
        (self.0 >> HAND_SHIFT[kind as usize]) & Hand::field_max(kind)
    }

    fn with(self, kind: u8, count: u32) -> Hand {
        let shift = HAND_SHIFT[kind as usize];
        let max = Hand::field_max(kind);
        Hand((self.0 & !(max << shift)) | (count.min(max) << shift))
    }

    fn plus(self, kind: u8) -> Hand {
        self.with(kind, self.count(kind) + 1)
    }

    fn minus(self, kind: u8) -> Hand {
        self.with(kind, self.count(kind).saturating_sub(1))
    }

    /// True when `self` holds at least as many pieces of every kind as `other`.
    fn covers(self, other: Hand) -> bool {
        ((self.0 | HAND_GUARDS).wrapping_sub(other.0)) & HAND_GUARDS == HAND_GUARDS
    }

    /// The larger count of every kind.
    fn union(self, other: Hand) -> Hand {
        let mut hand = self;
        for kind in PAWN..=ROOK {
            hand = hand.with(kind, self.count(kind).max(other.count(kind)));
        }
        hand
    }

    /// The smaller count of every kind.
    fn intersection(self, other: Hand) -> Hand {
        let mut hand = self;
        for kind in PAWN..=ROOK {
            hand = hand.with(kind, self.count(kind).min(other.count(kind)));
        }
        hand
    }
}

/// The position's hash without its hands: the table's key, the hand being stored apart.
fn board_key(position: &ShogiPosition) -> u64 {
    let mut key = position.hash();
    for side in [Side::First, Side::Second] {
        for kind in PAWN..=ROOK {
            let count = position.hand_count(side, kind) as usize;
            key ^= zobrist::HAND[side.index()][kind as usize][count];
        }
    }
    key
}

// ---------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------

/// One stored result, proof and disproof numbers from the attacker's view.
#[derive(Clone, Copy, Default)]
struct Entry {
    /// [`board_key`] of the position.
    board: u64,
    /// Unsolved: the attacker's hand. Proved: the proof hand. Disproved: the disproof hand.
    hand: Hand,
    pn: u32,
    dn: u32,
    /// Proved: plies to mate.
    distance: u16,
    /// Disproved: no mate within this many plies ([`UNLIMITED`]: none at all).
    depth: u16,
    /// Nodes spent below this entry: what is cheapest to recompute is replaced first.
    work: u32,
}

impl Entry {
    fn used(&self) -> bool {
        (self.pn | self.dn) != 0
    }
}

/// What the table (or a search) knows of a node.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Value {
    pn: u32,
    dn: u32,
    /// Proved: plies to mate.
    distance: u16,
    /// Proved: the proof hand; disproved: the disproof hand; otherwise the hand itself.
    hand: Hand,
}

impl Value {
    fn fresh(hand: Hand) -> Value {
        Value {
            pn: 1,
            dn: 1,
            distance: 0,
            hand,
        }
    }

    fn proved(distance: u16, hand: Hand) -> Value {
        Value {
            pn: 0,
            dn: INFINITE,
            distance,
            hand,
        }
    }

    fn disproved(hand: Hand) -> Value {
        Value {
            pn: INFINITE,
            dn: 0,
            distance: 0,
            hand,
        }
    }
}

/// Buckets of [`WAYS`] entries chosen by the board alone, so the hands a board was seen
/// with sit side by side; replaced by least work.
struct Table {
    entries: Vec<Entry>,
    bucket_mask: usize,
}

const WAYS: usize = 8;

impl Table {
    fn new(megabytes: usize) -> Table {
        let bytes = megabytes.clamp(1, 4096) * 1024 * 1024;
        let buckets = (bytes / (std::mem::size_of::<Entry>() * WAYS)).max(1);
        let buckets = if buckets.is_power_of_two() {
            buckets
        } else {
            buckets.next_power_of_two() / 2
        };
        Table {
            entries: vec![Entry::default(); buckets * WAYS],
            bucket_mask: buckets - 1,
        }
    }

    fn bucket(&self, board: u64) -> usize {
        ((board >> 20) as usize & self.bucket_mask) * WAYS
    }

    /// The node with `board` and attacker's `hand` and `remaining` plies: a proof whose
    /// hand it covers and whose distance fits, else a disproof whose hand covers it and
    /// whose depth suffices, else its own unsolved numbers.
    fn probe(&self, board: u64, hand: Hand, remaining: u16) -> Option<Value> {
        let start = self.bucket(board);
        let mut proof: Option<Value> = None;
        let mut disproof = None;
        let mut open = None;
        for e in &self.entries[start..start + WAYS] {
            if e.board != board || !e.used() {
                continue;
            }
            if e.pn == 0 {
                if hand.covers(e.hand)
                    && e.distance <= remaining
                    && proof.is_none_or(|p| e.distance < p.distance)
                {
                    proof = Some(Value::proved(e.distance, e.hand));
                }
            } else if e.dn == 0 {
                if e.hand.covers(hand) && e.depth >= remaining {
                    disproof = Some(Value::disproved(e.hand));
                }
            } else if e.hand == hand {
                open = Some(Value {
                    pn: e.pn,
                    dn: e.dn,
                    distance: 0,
                    hand,
                });
            }
        }
        proof.or(disproof).or(open)
    }

    /// Stores `value` for a node with the attacker's `hand` searched with `remaining`
    /// plies, over the same result or the node's own unsolved entry if there is one.
    fn store(&mut self, board: u64, hand: Hand, remaining: u16, value: Value, work: u32) {
        let entry = Entry {
            board,
            hand: value.hand,
            pn: value.pn,
            dn: value.dn,
            distance: value.distance,
            depth: remaining,
            work,
        };
        let start = self.bucket(board);
        let bucket = &mut self.entries[start..start + WAYS];
        let same = bucket.iter().position(|e| {
            e.board == board
                && e.used()
                && ((e.pn == 0) == (entry.pn == 0)
                    && (e.dn == 0) == (entry.dn == 0)
                    && e.hand == entry.hand
                    || e.pn != 0 && e.dn != 0 && e.hand == hand)
        });
        let slot = same.unwrap_or_else(|| {
            let mut victim = 0;
            for (index, e) in bucket.iter().enumerate() {
                if !e.used() {
                    victim = index;
                    break;
                }
                if e.work < bucket[victim].work {
                    victim = index;
                }
            }
            victim
        });
        bucket[slot] = entry;
    }
}

// ---------------------------------------------------------------------------
// The search
// ---------------------------------------------------------------------------

/// A child of the node being expanded.
struct Child {
    mv: Move,
    position: ShogiPosition,
    value: Value,
    /// A useless-looking interposition, searched after the other evasions.
    delayed: bool,
}

struct Solver<'a> {
    table: Table,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Hashes of the positions on the current path (repetition test).
    path: Vec<u64>,
    /// The side to move at the root.
    attacker: Side,
}

/// Remaining plies one ply further down.
fn below(remaining: u16) -> u16 {
    if remaining == UNLIMITED {
        UNLIMITED
    } else {
        remaining.saturating_sub(1)
    }
}

impl Solver<'_> {
    fn run(&mut self, root: &ShogiPosition) -> MateAnswer {
        let first = self.search(root, true, INFINITE, INFINITE, UNLIMITED);
        if self.aborted || first.pn != 0 {
            return if self.aborted || first.dn != 0 {
                MateAnswer::Unknown
            } else {
                MateAnswer::NoMate
            };
        }
        let mut distance = first.distance;
        let Some(mut line) = self.principal_variation(root, distance, false) else {
            return MateAnswer::Unknown;
        };
        // Shorter mates, until a depth-limited pass fails (or time runs out).
        let mut exact = false;
        while distance >= 3 {
            let limit = distance - 2;
            self.path.clear();
            let value = self.search(root, true, INFINITE, INFINITE, limit);
            if self.aborted {
                break;
            }
            if value.pn != 0 {
                exact = value.dn == 0;
                break;
            }
            match self.principal_variation(root, value.distance, false) {
                Some(shorter) => {
                    distance = value.distance;
                    line = shorter;
                }
                None => break,
            }
        }
        if distance < 3 {
            exact = true;
        }
        // Not exact (the budget ran out while shorter mates were looked for): the line
        // is a real mate, but its defender's moves are those with the largest stored
        // distance, an upper bound, so it can be shorter than the mate against the
        // longest defence.
        if exact && !self.aborted {
            // The length is known: make the defender's choices the longest ones.
            if let Some(longest) = self.principal_variation(root, distance, true) {
                line = longest;
            }
        }
        MateAnswer::Mate(line)
    }

    fn should_abort(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if self.nodes >= self.node_limit {
            self.aborted = true;
        } else if self.nodes % 64 == 1 {
            let late = self.deadline.is_some_and(|d| Instant::now() >= d);
            self.aborted = late || self.stop.load(Ordering::Relaxed);
        }
        self.aborted
    }

    /// The moves of a node with their values: checks for the attacker (each tested for
    /// an immediate mate when new), every legal move for the defender.
    fn children(&self, position: &ShogiPosition, attacker: bool, remaining: u16) -> Vec<Child> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let defender_king = position.king_square(self.attacker.opponent());
        let mut children = Vec::with_capacity(if attacker { 16 } else { moves.len() });
        let child_remaining = below(remaining);
        let mover = position.side_to_move();
        for &mv in moves.iter() {
            if attacker && !may_check(mv, defender_king) {
                continue;
            }
            let mut after = position.clone();
            after.play_unchecked(mv);
            if attacker && !after.in_check() {
                continue;
            }
            let value = self.child_value(&after, attacker, child_remaining);
            let delayed = !attacker && mv.is_drop() && !position.is_attacked(mv.to, mover);
            children.push(Child {
                mv,
                position: after,
                value,
                delayed,
            });
        }
        if !attacker {
            // Ties go to the first child: the defender tries captures and king moves
            // before interpositions, its likeliest escapes.
            let king = position.king_square(mover);
            children.sort_by_key(|c| {
                let capture = !c.mv.is_drop() && position.piece_at(c.mv.to) != 0;
                let king_move = !c.mv.is_drop() && c.mv.from == king;
                (c.mv.is_drop(), !capture, !king_move)
            });
        }
        children
    }

    /// A child's value: a repetition (a failed attack), the table, or a first look.
    fn child_value(
        &self,
        child: &ShogiPosition,
        parent_is_attacker: bool,
        remaining: u16,
    ) -> Value {
        let hand = Hand::of(child, self.attacker);
        if self.path.contains(&child.hash()) {
            return Value::disproved(hand);
        }
        if parent_is_attacker {
            // The defender to move: mated, escaped with no ply left, or fresh with
            // one proof number per evasion.
            let board = board_key(child);
            if let Some(value) = self.table.probe(board, hand, remaining) {
                return value;
            }
            let evasions = evasion_estimate(child);
            if evasions == 0 {
                return Value::proved(0, self.mate_hand(child, hand));
            }
            if remaining == 0 {
                return Value::disproved(hand);
            }
            Value {
                pn: (evasions as u32).min(INFINITE - 1),
                ..Value::fresh(hand)
            }
        } else {
            if remaining == 0 {
                return Value::disproved(Hand::FULL);
            }
            self.table
                .probe(board_key(child), hand, remaining)
                .unwrap_or(Value::fresh(hand))
        }
    }

    /// The proof hand of a mated defender: nothing, except that when the check could be
    /// blocked the attacker must keep every kind the defender lacks (or it could drop one).
    fn mate_hand(&self, position: &ShogiPosition, hand: Hand) -> Hand {
        if !distant_check(position) {
            return Hand(0);
        }
        let defender = Hand::of(position, self.attacker.opponent());
        let mut proof = Hand(0);
        for kind in PAWN..=ROOK {
            if defender.count(kind) == 0 {
                proof = proof.with(kind, hand.count(kind));
            }
        }
        proof
    }

    /// Multiple-iterative df-pn: expands `position` until its `phi` (proof number for
    /// the attacker, disproof number for the defender) reaches `phi_limit` or its
    /// `delta` reaches `delta_limit`; returns its value.
    fn search(
        &mut self,
        position: &ShogiPosition,
        attacker: bool,
        phi_limit: u32,
        delta_limit: u32,
        remaining: u16,
    ) -> Value {
        self.nodes += 1;
        let hand = Hand::of(position, self.attacker);
        if self.should_abort() {
            return Value::fresh(hand);
        }
        let board = board_key(position);
        let work_before = self.nodes;
        if self.path.len() >= MAX_PATH || attacker && remaining == 0 {
            // A line too long to follow, or no plies left to mate in: the attack fails.
            return Value::disproved(hand);
        }
        self.path.push(position.hash());
        let mut children = self.children(position, attacker, remaining);
        if children.is_empty() {
            self.path.pop();
            // No check to give, or no evasion: the side to move loses here.
            let value = if attacker {
                Value::disproved(self.no_check_hand(hand))
            } else {
                Value::proved(0, self.mate_hand(position, hand))
            };
            self.table.store(board, hand, remaining, value, 1);
            return value;
        }
        let child_remaining = below(remaining);
        loop {
            let summary = summarize(&children, attacker);
            if summary.phi >= phi_limit || summary.delta >= delta_limit || self.aborted {
                self.path.pop();
                let value = self.conclude(position, attacker, hand, &children, summary);
                let work = (self.nodes - work_before + 1).min(u32::MAX as u64) as u32;
                if !self.aborted {
                    self.table.store(board, hand, remaining, value, work);
                }
                return value;
            }
            let best = summary.best;
            let (child_phi, _) = phi_delta(&children[best].value, !attacker);
            // The child's phi is our delta's share: our delta is the largest child phi
            // plus one for each other open child.
            let child_phi_limit = delta_limit
                .saturating_sub(summary.open.saturating_sub(1))
                .max(child_phi.saturating_add(1))
                .min(INFINITE);
            // The 1+ε trick: let the child go a little past the runner-up before
            // switching back, so two close siblings do not take turns every node.
            let second = summary.second_delta;
            let runner_up = second.saturating_add(second / 4).saturating_add(1);
            let child_delta_limit = phi_limit.min(runner_up).min(INFINITE);
            let child_position = children[best].position.clone();
            let value = self.search(
                &child_position,
                !attacker,
                child_phi_limit,
                child_delta_limit,
                child_remaining,
            );
            if self.aborted {
                continue;
            }
            children[best].value = value;
        }
    }

    /// The disproof hand of an attacker with no check: more of the kinds already held
    /// gives no new check, any other kind might.
    fn no_check_hand(&self, hand: Hand) -> Hand {
        let mut disproof = Hand::FULL;
        for kind in PAWN..=ROOK {
            if hand.count(kind) == 0 {
                disproof = disproof.with(kind, 0);
            }
        }
        disproof
    }

    /// The value of a node from its children's (and, once solved, its distance and
    /// proof or disproof hand).
    fn conclude(
        &self,
        position: &ShogiPosition,
        attacker: bool,
        hand: Hand,
        children: &[Child],
        summary: Summary,
    ) -> Value {
        let (phi, delta) = (summary.phi, summary.delta);
        let won = phi == 0; // by the side to move
        let lost = delta == 0;
        if !won && !lost {
            let (pn, dn) = if attacker { (phi, delta) } else { (delta, phi) };
            return Value {
                pn,
                dn,
                distance: 0,
                hand,
            };
        }
        let derived = match (attacker, won) {
            (true, true) => {
                // Proved by the check with the least distance.
                let child = children
                    .iter()
                    .filter(|c| c.value.pn == 0)
                    .min_by_key(|c| c.value.distance)
                    .expect("a proved child");
                let proof = attacker_move_hand(position, child.mv, child.value.hand, false);
                Value::proved(
                    child.value.distance.saturating_add(1),
                    proof.intersection(hand),
                )
            }
            (true, false) => {
                // Every check refuted: the hands every refutation allows, and no kind
                // not held (a drop of it might check).
                let mut disproof = self.no_check_hand(hand);
                for child in children {
                    let allowed = attacker_move_hand(position, child.mv, child.value.hand, true);
                    disproof = disproof.intersection(allowed);
                }
                Value::disproved(disproof)
            }
            (false, true) => {
                // The defender escapes: the same escape works with less in the
                // attacker's hand, and a drop needs the defender to keep the piece.
                let child = children
                    .iter()
                    .find(|c| c.value.dn == 0)
                    .expect("a disproved child");
                let mut disproof = child.value.hand;
                if child.mv.is_drop() {
                    let kind = child.mv.from & 7;
                    let defender = Hand::of(position, self.attacker.opponent());
                    let most = hand.count(kind) + defender.count(kind) - 1;
                    disproof = disproof.with(kind, disproof.count(kind).min(most));
                }
                Value::disproved(disproof)
            }
            (false, false) => {
                // Every evasion mated: the longest, and the pieces every proof needs.
                let mut proof = self.mate_hand(position, hand);
                let mut distance = 0;
                for child in children {
                    proof = proof.union(child.value.hand);
                    distance = distance.max(child.value.distance);
                }
                Value::proved(distance.saturating_add(1), proof.intersection(hand))
            }
        };
        let keep_derived = if derived.pn == 0 {
            INTERIOR_PROOF_HANDS
        } else {
            INTERIOR_DISPROOF_HANDS
        };
        if keep_derived {
            derived
        } else {
            Value { hand, ..derived }
        }
    }

    /// The mate line: the attacker takes the check with the least proved distance, the
    /// defender the evasion that lasts longest. With `confirm`, `distance` is the exact
    /// length and each defender's choice among equally long-looking evasions is checked
    /// to have no shorter mate. A child the table has lost is searched again.
    fn principal_variation(
        &mut self,
        root: &ShogiPosition,
        distance: u16,
        confirm: bool,
    ) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut position = root.clone();
        let mut attacker = true;
        let mut remaining = distance;
        loop {
            self.path.clear();
            let mut children = self.children(&position, attacker, remaining);
            if children.is_empty() {
                return (!attacker).then_some(line);
            }
            if remaining == 0 || line.len() > MAX_PATH {
                return None;
            }
            let all_proved = |children: &[Child]| children.iter().all(|c| c.value.pn == 0);
            let any_proved = |children: &[Child]| children.iter().any(|c| c.value.pn == 0);
            if attacker && !any_proved(&children) || !attacker && !all_proved(&children) {
                // Lost from the table: prove this node again, then look once more.
                self.search(&position, attacker, INFINITE, INFINITE, remaining);
                if self.aborted {
                    return None;
                }
                self.path.clear();
                children = self.children(&position, attacker, remaining);
                if attacker && !any_proved(&children) || !attacker && !all_proved(&children) {
                    return None;
                }
            }
            let chosen = if attacker {
                children
                    .iter()
                    .filter(|c| c.value.pn == 0)
                    .min_by_key(|c| c.value.distance)?
                    .mv
            } else {
                self.longest_evasion(&children, remaining, confirm)
            };
            line.push(chosen);
            position.play_unchecked(chosen);
            attacker = !attacker;
            remaining -= 1;
        }
    }

    /// The defender's choice on the mate line: the evasion with the largest proved
    /// distance; with `confirm`, the first of those at the full `remaining - 1` plies
    /// that a depth-limited search shows has no shorter mate.
    fn longest_evasion(&mut self, children: &[Child], remaining: u16, confirm: bool) -> Move {
        let mut order: Vec<&Child> = children.iter().collect();
        order.sort_by_key(|c| std::cmp::Reverse(c.value.distance));
        let longest = order[0].mv;
        if !confirm || remaining < 4 {
            return longest;
        }
        let full = remaining - 1;
        for child in order.iter().take_while(|c| c.value.distance == full) {
            self.path.clear();
            let shorter = self.search(&child.position, true, INFINITE, INFINITE, full - 2);
            if self.aborted {
                self.aborted = false;
                // Out of budget: no more confirming (the first abort sticks below).
                self.node_limit = self.nodes;
                return longest;
            }
            if shorter.dn == 0 {
                return child.mv;
            }
        }
        longest
    }
}

/// The hand condition a node's attacker move carries up from its child's proof hand
/// (`disproof` false: what the parent needs) or disproof hand (`disproof` true: what
/// the parent may hold): a drop spends a piece, a capture gains one.
fn attacker_move_hand(
    position: &ShogiPosition,
    mv: Move,
    child_hand: Hand,
    disproof: bool,
) -> Hand {
    if mv.is_drop() {
        return child_hand.plus(mv.from & 7);
    }
    let captured = position.piece_at(mv.to);
    if captured == 0 {
        return child_hand;
    }
    let kind = unpromoted(kind_of(captured));
    if !(PAWN..=ROOK).contains(&kind) {
        return child_hand;
    }
    if disproof && child_hand.count(kind) == 0 {
        // Cannot happen for a real child hand (it holds the captured piece); stay safe.
        return Hand(0);
    }
    child_hand.minus(kind)
}

/// A node's numbers in its side to move's terms: (`phi`, `delta`).
fn phi_delta(value: &Value, attacker: bool) -> (u32, u32) {
    if attacker {
        (value.pn, value.dn)
    } else {
        (value.dn, value.pn)
    }
}

/// A node's numbers from its children's, and which child to expand.
#[derive(Clone, Copy, Debug)]
struct Summary {
    phi: u32,
    delta: u32,
    best: usize,
    second_delta: u32,
    open: u32,
}

/// `phi` = the least child `delta`; `delta` = the largest child `phi` plus one for
/// every other open child (weak proof numbers: a defender's many interpositions do not
/// make a mate look far away, as a plain sum would). At a defender's node the delayed
/// interpositions take part only once every other evasion is mated (a refuted one
/// still refutes).
fn summarize(children: &[Child], attacker: bool) -> Summary {
    let others_mated = children.iter().all(|c| c.delayed || c.value.pn == 0);
    let mut phi = INFINITE;
    let mut second = INFINITE;
    let mut best = usize::MAX;
    let mut largest: u32 = 0;
    let mut open: u32 = 0;
    let mut drop_squares: u128 = 0;
    for (index, child) in children.iter().enumerate() {
        // The child's numbers in its own side to move's terms.
        let (child_phi, child_delta) = phi_delta(&child.value, !attacker);
        let active = attacker || others_mated || !child.delayed;
        if !active && child_delta != 0 {
            continue;
        }
        if child_delta < phi {
            second = phi;
            phi = child_delta;
            best = index;
        } else if child_delta < second {
            second = child_delta;
        }
        if child_phi != 0 {
            largest = largest.max(child_phi);
            // Drops of different pieces on one square count once: the defender's
            // interpositions mostly stand or fall together.
            let counted = attacker || !child.mv.is_drop() || drop_squares & (1 << child.mv.to) == 0;
            if !attacker && child.mv.is_drop() {
                drop_squares |= 1 << child.mv.to;
            }
            if counted {
                open += 1;
            }
        }
    }
    let delta = if open == 0 {
        0
    } else {
        largest.saturating_add(open - 1).min(INFINITE)
    };
    Summary {
        phi,
        delta,
        best: if best == usize::MAX { 0 } else { best },
        second_delta: second,
        open,
    }
}

/// The defender's evasions counted as a first proof number: every move of a piece on
/// the board, and one for every square a piece can be dropped on (0: mated).
fn evasion_estimate(position: &ShogiPosition) -> usize {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    let mut drop_squares: u128 = 0;
    let mut count = 0;
    for mv in moves.iter() {
        if mv.is_drop() {
            drop_squares |= 1 << mv.to;
        } else {
            count += 1;
        }
    }
    count + drop_squares.count_ones() as usize
}

/// True when the side to move's king is checked by a slider from two or more squares
/// away (so a piece dropped between would block it).
fn distant_check(position: &ShogiPosition) -> bool {
    let us = position.side_to_move();
    let king = position.king_square(us);
    if king >= 81 {
        return false;
    }
    let (file, rank) = ((king % 9) as i32, (king / 9) as i32);
    for (df, dr) in [
        (1, 0),
        (-1, 0),
        (0, 1),
        (0, -1),
        (1, 1),
        (1, -1),
        (-1, 1),
        (-1, -1),
    ] {
        let (mut f, mut r) = (file + df, rank + dr);
        let mut steps = 0;
        while (0..9).contains(&f) && (0..9).contains(&r) {
            let square = (r * 9 + f) as u8;
            steps += 1;
            let code = position.piece_at(square);
            if code != 0 {
                if steps >= 2
                    && owner(code) != us
                    && position.attacks_from(square) & (1u128 << king) != 0
                {
                    return true;
                }
                break;
            }
            f += df;
            r += dr;
        }
    }
    false
}

/// True when a move could give check to a king on `king` (a cheap filter before the
/// real test): it lands near the king or on one of its lines, or leaves one of its lines
/// (a discovered check).
fn may_check(mv: Move, king: u8) -> bool {
    if king >= 81 {
        return false;
    }
    let offsets = |square: u8| {
        let files = ((square % 9) as i32 - (king % 9) as i32).abs();
        let ranks = ((square / 9) as i32 - (king / 9) as i32).abs();
        (files, ranks)
    };
    let aligned = |square: u8| {
        let (files, ranks) = offsets(square);
        files == 0 || ranks == 0 || files == ranks
    };
    let near = |square: u8| {
        let (files, ranks) = offsets(square);
        files <= 2 && ranks <= 2
    };
    near(mv.to) || aligned(mv.to) || (!mv.is_drop() && aligned(mv.from))
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::shogi::kind::{GOLD, SILVER};

    fn solve_sfen(sfen: &str) -> MateAnswer {
        let position = ShogiPosition::from_sfen(sfen).unwrap();
        solve(&position, MateLimits::default(), &AtomicBool::new(false)).answer
    }

    fn usi_line(sfen: &str, line: &[Move]) -> Vec<String> {
        let mut position = ShogiPosition::from_sfen(sfen).unwrap();
        line.iter()
            .map(|&mv| {
                let text = position.move_to_usi(mv);
                position.play_unchecked(mv);
                text
            })
            .collect()
    }

    #[test]
    fn hands_compare_kind_by_kind() {
        let gold_silver = Hand(0).plus(GOLD).plus(SILVER);
        let gold = Hand(0).plus(GOLD);
        let pawns = Hand(0).with(PAWN, 18);
        assert!(gold_silver.covers(gold));
        assert!(!gold.covers(gold_silver));
        assert!(gold.covers(Hand(0)) && gold.covers(gold));
        assert!(!pawns.covers(gold) && !gold.covers(pawns));
        assert!(pawns.covers(Hand(0).with(PAWN, 17)));
        assert!(!Hand(0).with(PAWN, 17).covers(pawns));
        assert!(Hand::FULL.covers(pawns.union(gold_silver).with(ROOK, 2)));
        assert_eq!(gold_silver.intersection(pawns.plus(GOLD)), gold);
        assert_eq!(gold.union(pawns), pawns.plus(GOLD));
        assert_eq!(gold.minus(GOLD).minus(GOLD), Hand(0));
        let position = ShogiPosition::from_sfen("4k4/9/4S4/9/9/9/9/9/9 b 2GP3s 1").unwrap();
        assert_eq!(
            Hand::of(&position, Side::First),
            Hand(0).with(GOLD, 2).plus(PAWN)
        );
        assert_eq!(Hand::of(&position, Side::Second), Hand(0).with(SILVER, 3));
    }

    #[test]
    fn the_board_key_ignores_the_hands() {
        let one = ShogiPosition::from_sfen("4k4/9/4S4/9/9/9/9/9/9 b G 1").unwrap();
        let other = ShogiPosition::from_sfen("4k4/9/4S4/9/9/9/9/9/9 b 2Sg 1").unwrap();
        let moved = ShogiPosition::from_sfen("4k4/9/9/4S4/9/9/9/9/9 b G 1").unwrap();
        assert_ne!(one.hash(), other.hash());
        assert_eq!(board_key(&one), board_key(&other));
        assert_ne!(board_key(&one), board_key(&moved));
    }

    #[test]
    fn proofs_serve_larger_hands_and_disproofs_smaller_ones() {
        let mut table = Table::new(1);
        let gold = Hand(0).plus(GOLD);
        let silver = Hand(0).plus(SILVER);
        let both = gold.plus(SILVER);
        // A mate in 5 needing a gold.
        table.store(7, both, UNLIMITED, Value::proved(5, gold), 10);
        assert_eq!(
            table.probe(7, both, UNLIMITED),
            Some(Value::proved(5, gold))
        );
        assert_eq!(
            table.probe(7, gold.plus(GOLD), 5),
            Some(Value::proved(5, gold))
        );
        assert_eq!(table.probe(7, silver, UNLIMITED), None, "no gold, no proof");
        assert_eq!(
            table.probe(7, both, 3),
            None,
            "five plies do not fit in three"
        );
        assert_eq!(table.probe(8, both, UNLIMITED), None, "another board");
        // No mate within 7 plies holding at most a silver.
        table.store(9, silver, 7, Value::disproved(silver), 10);
        assert_eq!(table.probe(9, Hand(0), 7), Some(Value::disproved(silver)));
        assert_eq!(table.probe(9, silver, 5), Some(Value::disproved(silver)));
        assert_eq!(
            table.probe(9, silver, 9),
            None,
            "seven plies say nothing of nine"
        );
        assert_eq!(table.probe(9, both, 7), None, "a gold more may mate");
        // Unsolved numbers are the exact hand's only, and a proof replaces them.
        let open = Value {
            pn: 3,
            dn: 2,
            distance: 0,
            hand: both,
        };
        table.store(11, both, UNLIMITED, open, 4);
        assert_eq!(table.probe(11, both, UNLIMITED), Some(open));
        assert_eq!(table.probe(11, gold, UNLIMITED), None);
        table.store(11, both, UNLIMITED, Value::proved(3, Hand(0)), 9);
        assert_eq!(
            table.probe(11, gold, UNLIMITED),
            Some(Value::proved(3, Hand(0)))
        );
    }

    #[test]
    fn a_drop_nobody_guards_between_a_far_checker_and_the_king_waits() {
        // Gote's king on 5a checked by a lance on 5i: drops on 5b (next to the king)
        // are real defences, drops further down can simply be taken (rank 8 is rank a).
        let position =
            ShogiPosition::from_sfen("3gkg3/9/9/9/9/9/9/9/4L4 w 2r2b2g4s4n3l18p 1").unwrap();
        let solver = Solver {
            table: Table::new(1),
            nodes: 0,
            node_limit: u64::MAX,
            deadline: None,
            stop: &AtomicBool::new(false),
            aborted: false,
            path: Vec::new(),
            attacker: Side::First,
        };
        let children = solver.children(&position, false, UNLIMITED);
        let rank_of_drop = |c: &Child| c.mv.to / 9;
        assert!(children
            .iter()
            .any(|c| c.mv.is_drop() && rank_of_drop(c) == 7 && !c.delayed));
        assert!(children
            .iter()
            .any(|c| c.mv.is_drop() && rank_of_drop(c) == 4 && c.delayed));
        assert!(children
            .iter()
            .filter(|c| !c.mv.is_drop())
            .all(|c| !c.delayed));
        assert!(distant_check(&position));
        // Until the other evasions are mated the delayed drops take no part (the
        // defender's best chance is looked for elsewhere first).
        let mut children = children;
        for child in children.iter_mut() {
            let dn = if child.delayed { 1 } else { 5 };
            child.value = Value {
                pn: 2,
                dn,
                distance: 0,
                hand: Hand(0),
            };
        }
        let summary = summarize(&children, false);
        assert_eq!(summary.phi, 5);
        assert!(!children[summary.best].delayed);
        for child in children.iter_mut().filter(|c| !c.delayed) {
            child.value = Value::proved(2, Hand(0));
        }
        let summary = summarize(&children, false);
        assert_eq!(summary.phi, 1, "now they do");
        assert!(children[summary.best].delayed);
        // A delayed drop known to escape refutes at once.
        let delayed = children.iter().position(|c| c.delayed).unwrap();
        children[delayed].value = Value::disproved(Hand::FULL);
        children[0].value = Value::fresh(Hand(0));
        assert_eq!(summarize(&children, false).phi, 0);
    }

    #[test]
    fn head_gold_mate_in_one() {
        // Gote king on 5a, a Sente silver on 5c; a gold dropped on 5b mates.
        let sfen = "4k4/9/4S4/9/9/9/9/9/9 b G 1";
        match solve_sfen(sfen) {
            MateAnswer::Mate(line) => assert_eq!(usi_line(sfen, &line), ["G*5b"]),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_bare_king_with_nothing_to_check_with_is_no_mate() {
        assert_eq!(solve_sfen("4k4/9/9/9/9/9/9/9/9 b P 1"), MateAnswer::NoMate);
    }

    #[test]
    fn pawn_drop_mate_is_not_a_mate() {
        // P*5b would mate (the gold on 5c guards it; every flight is covered) but is uchifuzume.
        let sfen = "3lkl3/9/4G4/9/9/9/9/9/9 b P 1";
        assert_eq!(solve_sfen(sfen), MateAnswer::NoMate);
    }

    #[test]
    fn a_stopped_search_knows_nothing() {
        let position = ShogiPosition::from_sfen("4k4/9/4S4/9/9/9/9/9/9 b G 1").unwrap();
        let report = solve(&position, MateLimits::default(), &AtomicBool::new(true));
        // The flag is read every 64 nodes; this tiny problem may finish first.
        assert!(matches!(
            report.answer,
            MateAnswer::Unknown | MateAnswer::Mate(_)
        ));
        let budget = MateLimits {
            nodes: 1,
            ..MateLimits::default()
        };
        let report = solve(&position, budget, &AtomicBool::new(false));
        assert_eq!(report.answer, MateAnswer::Unknown);
    }
}
