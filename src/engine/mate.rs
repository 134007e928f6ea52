//! The tsume (詰将棋) solver behind USI's `go mate`: a depth-first proof-number search
//! (df-pn) over shogi positions.
//!
//! The attacker (the side to move at the root) may play only moves that give check;
//! the defender may play any legal evasion, drops included. Every rule (uchifuzume,
//! nifu, dead drops, pinned pieces) comes from the rules engine's move generator, so
//! the solver never decides legality itself. A mate is first proved with unlimited
//! depth; then shorter mates are looked for with depth-limited searches until none is
//! found, so the answer is the shortest mate against the longest defence.
//!
//! The solver is pure: it reads no clock of its own beyond the deadline it is given,
//! does no I/O, and stops when the stop flag is set, the node budget is spent or the
//! deadline passes.
//!
//! Known limits: no hand-superiority (優越関係) lookups, and a repetition on the current
//! path counts as a failed attack (the graph-history interaction can in rare cases
//! make a mate be missed, never make a false mate be claimed).

use crate::rules::geometry::{file_of, rank_of};
use crate::rules::shogi::ShogiPosition;
use crate::rules::{Move, MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// "Infinite" proof or disproof number: the node is solved.
const INFINITE: u32 = 1 << 30;

/// The deepest path followed (a guard against runaway recursion on very long lines).
const MAX_PATH: usize = 400;

/// The tag of table entries written by the unlimited-depth search.
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
        depth_limit: None,
    };
    let answer = solver.run(position);
    MateReport {
        answer,
        nodes: solver.nodes,
        elapsed: started.elapsed(),
    }
}

/// One stored position: its proof and disproof numbers from the view of its side to
/// move (`phi` small = good for it), and the mate distance once solved.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    /// Remaining plies the entry was searched with ([`UNLIMITED`] for no limit).
    tag: u16,
    /// Plies to the end once solved (`phi` or `delta` 0).
    distance: u16,
    phi: u32,
    delta: u32,
    /// Nodes spent below this entry: what is cheapest to recompute is replaced first.
    work: u32,
}

/// Four-way buckets of entries, replaced by least work.
struct Table {
    entries: Vec<Entry>,
    bucket_mask: usize,
}

const WAYS: usize = 4;

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

    fn bucket(&self, key: u64, tag: u16) -> usize {
        let mixed = key ^ (tag as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed as usize & self.bucket_mask) * WAYS
    }

    fn probe(&self, key: u64, tag: u16) -> Option<Entry> {
        let start = self.bucket(key, tag);
        self.entries[start..start + WAYS]
            .iter()
            .find(|e| e.key == key && e.tag == tag && (e.phi | e.delta) != 0)
            .copied()
    }

    fn store(&mut self, entry: Entry) {
        let start = self.bucket(entry.key, entry.tag);
        let bucket = &mut self.entries[start..start + WAYS];
        let slot = match bucket
            .iter()
            .position(|e| e.key == entry.key && e.tag == entry.tag)
        {
            Some(index) => index,
            None => {
                let mut victim = 0;
                for (index, e) in bucket.iter().enumerate() {
                    if e.work < bucket[victim].work {
                        victim = index;
                    }
                }
                victim
            }
        };
        bucket[slot] = entry;
    }
}

/// A child of the node being expanded.
struct Child {
    mv: Move,
    position: ShogiPosition,
    key: u64,
    phi: u32,
    delta: u32,
    distance: u16,
}

struct Solver<'a> {
    table: Table,
    nodes: u64,
    node_limit: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    aborted: bool,
    /// Keys of the positions on the current path (repetition test).
    path: Vec<u64>,
    /// Plies allowed in the current depth-limited pass (`None`: unlimited).
    depth_limit: Option<u32>,
}

impl Solver<'_> {
    fn run(&mut self, root: &ShogiPosition) -> MateAnswer {
        let Some((mut distance, mut line)) = self.prove(root) else {
            return if self.aborted {
                MateAnswer::Unknown
            } else {
                MateAnswer::NoMate
            };
        };
        // Shorter mates, until a depth-limited pass fails (or time runs out).
        while distance >= 3 {
            let limit = distance - 2;
            self.depth_limit = Some(limit);
            match self.prove(root) {
                Some((shorter, shorter_line)) if shorter <= limit => {
                    distance = shorter;
                    line = shorter_line;
                }
                _ => break,
            }
        }
        MateAnswer::Mate(line)
    }

    /// Runs one pass at the current depth limit; the mate distance and line when proved.
    fn prove(&mut self, root: &ShogiPosition) -> Option<(u32, Vec<Move>)> {
        self.path.clear();
        let (phi, _) = self.search(root, true, INFINITE, INFINITE, 0);
        if self.aborted || phi != 0 {
            return None;
        }
        let line = self.principal_variation(root)?;
        Some((line.len() as u32, line))
    }

    fn tag(&self, ply: u32) -> u16 {
        match self.depth_limit {
            None => UNLIMITED,
            Some(limit) => limit.saturating_sub(ply).min(UNLIMITED as u32 - 1) as u16,
        }
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

    /// The moves of a node: checks for the attacker, every legal move for the defender.
    fn children(&self, position: &ShogiPosition, attacker: bool, ply: u32) -> Vec<Child> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let defender_king = position.king_square(position.side_to_move().opponent());
        let mut children = Vec::with_capacity(if attacker { 16 } else { moves.len() });
        let child_tag = self.tag(ply + 1);
        for &mv in moves.iter() {
            if attacker && !may_check(mv, defender_king) {
                continue;
            }
            let mut after = position.clone();
            after.play_unchecked(mv);
            if attacker && !after.in_check() {
                continue;
            }
            let key = after.hash();
            let (phi, delta, distance) = self.look_up(key, child_tag, attacker);
            children.push(Child {
                mv,
                position: after,
                key,
                phi,
                delta,
                distance,
            });
        }
        children
    }

    /// A child's numbers: from the table, or a repetition (a failed attack), or fresh.
    fn look_up(&self, key: u64, tag: u16, parent_is_attacker: bool) -> (u32, u32, u16) {
        if self.path.contains(&key) {
            // Repetition: the attack has failed there.
            return if parent_is_attacker {
                (0, INFINITE, 0) // the defender (to move in the child) holds
            } else {
                (INFINITE, 0, 0) // the attacker (to move in the child) fails
            };
        }
        match self.table.probe(key, tag) {
            Some(entry) => (entry.phi, entry.delta, entry.distance),
            None => (1, 1, 0),
        }
    }

    /// Multiple-iterative df-pn: expands `position` until its `phi` reaches `phi_limit`
    /// or its `delta` reaches `delta_limit`; returns its numbers.
    fn search(
        &mut self,
        position: &ShogiPosition,
        attacker: bool,
        phi_limit: u32,
        delta_limit: u32,
        ply: u32,
    ) -> (u32, u32) {
        self.nodes += 1;
        let key = position.hash();
        let tag = self.tag(ply);
        let work_before = self.nodes;
        if self.should_abort() {
            return (1, 1);
        }
        let remaining = self.depth_limit.map(|limit| limit.saturating_sub(ply));
        if attacker && remaining == Some(0) || self.path.len() >= MAX_PATH {
            // No plies left to mate in (or a line too long to follow): the attack fails here.
            let (phi, delta) = if attacker {
                (INFINITE, 0)
            } else {
                (0, INFINITE)
            };
            self.save(key, tag, phi, delta, 0, 1);
            return (phi, delta);
        }
        self.path.push(key);
        let mut children = self.children(position, attacker, ply);
        if children.is_empty() || (!attacker && remaining == Some(0)) {
            self.path.pop();
            // No check to give, or no evasion: the side to move loses here. With no ply
            // left, a defender who still has a move has escaped.
            let (phi, delta) = if children.is_empty() {
                (INFINITE, 0)
            } else {
                (0, INFINITE)
            };
            self.save(key, tag, phi, delta, 0, 1);
            return (phi, delta);
        }
        let child_tag = self.tag(ply + 1);
        loop {
            let (phi, delta, best, second_delta, open) = summarize(&children);
            if phi >= phi_limit || delta >= delta_limit || self.aborted {
                self.path.pop();
                let distance = if phi == 0 || delta == 0 {
                    solved_distance(&children, phi == 0)
                } else {
                    0
                };
                let work = (self.nodes - work_before + 1).min(u32::MAX as u64) as u32;
                if !self.aborted {
                    self.save(key, tag, phi, delta, distance, work);
                }
                return (phi, delta);
            }
            let child = &children[best];
            // The child's phi is our delta's share; its delta is our phi's candidate.
            // Our delta is the largest child phi plus the other open children.
            let child_phi_limit = delta_limit
                .saturating_sub(open.saturating_sub(1))
                .max(child.phi.saturating_add(1))
                .min(INFINITE);
            // The 1+ε trick: let the child go a little past the runner-up before
            // switching back, so two close siblings do not take turns every node.
            let runner_up = second_delta
                .saturating_add(second_delta / 4)
                .saturating_add(1);
            let child_delta_limit = phi_limit.min(runner_up).min(INFINITE);
            let child_position = child.position.clone();
            self.search(
                &child_position,
                !attacker,
                child_phi_limit,
                child_delta_limit,
                ply + 1,
            );
            let key = children[best].key;
            let (phi, delta, distance) = self.look_up_after(key, child_tag, attacker);
            let child = &mut children[best];
            child.phi = phi;
            child.delta = delta;
            child.distance = distance;
        }
    }

    /// A child's numbers just after searching it (the table may have lost it: then what
    /// it returned is unknown and it is counted as fresh, which only costs time).
    fn look_up_after(&self, key: u64, tag: u16, parent_is_attacker: bool) -> (u32, u32, u16) {
        if self.aborted {
            return (1, 1, 0);
        }
        self.look_up(key, tag, parent_is_attacker)
    }

    fn save(&mut self, key: u64, tag: u16, phi: u32, delta: u32, distance: u16, work: u32) {
        self.table.store(Entry {
            key,
            tag,
            distance,
            phi,
            delta,
            work,
        });
    }

    /// The mate line from the table: the attacker takes the shortest proved check, the
    /// defender the evasion that lasts longest. A child the table has lost is proved again.
    fn principal_variation(&mut self, root: &ShogiPosition) -> Option<Vec<Move>> {
        let mut line = Vec::new();
        let mut position = root.clone();
        let mut attacker = true;
        let mut ply = 0;
        loop {
            self.path.clear();
            let children = self.children(&position, attacker, ply);
            if children.is_empty() {
                return (!attacker).then_some(line);
            }
            if !attacker && self.depth_limit.is_some_and(|l| ply >= l) {
                return None;
            }
            let pick = if attacker {
                children
                    .iter()
                    .filter(|c| c.delta == 0)
                    .min_by_key(|c| c.distance)
            } else if children.iter().all(|c| c.phi == 0) {
                children.iter().max_by_key(|c| c.distance)
            } else {
                None
            };
            let chosen = match pick {
                Some(child) => child.mv,
                None => {
                    // Lost from the table: prove this node again, then look once more.
                    self.search(&position, attacker, INFINITE, INFINITE, ply);
                    if self.aborted {
                        return None;
                    }
                    self.path.clear();
                    let children = self.children(&position, attacker, ply);
                    let again = if attacker {
                        children
                            .iter()
                            .filter(|c| c.delta == 0)
                            .min_by_key(|c| c.distance)
                    } else {
                        children
                            .iter()
                            .filter(|c| c.phi == 0)
                            .max_by_key(|c| c.distance)
                    };
                    again?.mv
                }
            };
            line.push(chosen);
            position.play_unchecked(chosen);
            attacker = !attacker;
            ply += 1;
            if line.len() > MAX_PATH {
                return None;
            }
        }
    }
}

/// The node's numbers from its children: `phi` = the least child `delta`; `delta` = the
/// largest child `phi` plus one for every other open child (weak proof numbers: a
/// defender's many useless interpositions do not make a mate look far away, as a plain
/// sum would); also the child to expand and the runner-up's `delta`.
fn summarize(children: &[Child]) -> (u32, u32, usize, u32, u32) {
    let mut phi = INFINITE;
    let mut second = INFINITE;
    let mut best = 0;
    let mut largest: u32 = 0;
    let mut open: u32 = 0;
    for (index, child) in children.iter().enumerate() {
        if child.delta < phi {
            second = phi;
            phi = child.delta;
            best = index;
        } else if child.delta < second {
            second = child.delta;
        }
        if child.phi != 0 {
            largest = largest.max(child.phi);
            open += 1;
        }
    }
    let delta = if open == 0 {
        0
    } else {
        largest.saturating_add(open - 1).min(INFINITE)
    };
    (phi, delta, best, second, open)
}

/// Plies to the end of a solved node: a win goes by the quickest winning child, a loss
/// by the slowest child (the loser holds out longest).
fn solved_distance(children: &[Child], won: bool) -> u16 {
    let child_distance = if won {
        children
            .iter()
            .filter(|c| c.delta == 0)
            .map(|c| c.distance)
            .min()
    } else {
        children.iter().map(|c| c.distance).max()
    };
    child_distance.unwrap_or(0).saturating_add(1)
}

/// True when a move could give check to a king on `king` (a cheap filter before the
/// real test): it lands near the king or on one of its lines, or leaves one of its lines
/// (a discovered check).
fn may_check(mv: Move, king: u8) -> bool {
    if king >= 81 {
        return false;
    }
    let near_or_aligned = |square: u8| {
        let files = (file_of(square) as i32 - file_of(king) as i32).abs();
        let ranks = (rank_of(square) as i32 - rank_of(king) as i32).abs();
        (files <= 2 && ranks <= 2) || files == 0 || ranks == 0 || files == ranks
    };
    let aligned = |square: u8| {
        let files = (file_of(square) as i32 - file_of(king) as i32).abs();
        let ranks = (rank_of(square) as i32 - rank_of(king) as i32).abs();
        files == 0 || ranks == 0 || files == ranks
    };
    near_or_aligned(mv.to) || (!mv.is_drop() && aligned(mv.from))
}

#[cfg(test)]
mod tests {
    use super::*;

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
