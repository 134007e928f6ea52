//! The search, generic over [`EngineRules`] and so compiled once per game:
//! iterative deepening, principal-variation alpha-beta with a transposition
//! table, quiescence search, check extensions, null-move pruning, late-move
//! reductions, killer and history move ordering, and repetition judged from a
//! light stack of position keys (game history first, then the search path).

use super::eval::{tactical_moves, EngineRules, RepetitionRule, DECIDED, MATE, MATE_BOUND};
use super::picker::{settle_exchange, ExchangeVerdict, MovePicker, FILLED_GOOD_CAPTURE};
use super::see::exchange_at_least;
use super::table::{self, score_from_table, Bound, TranspositionTable};
use super::{Score, SearchInfo};
use crate::rules::{Move, MoveList, MAX_MOVES};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::LazyLock;
use std::time::{Duration, Instant};

/// The deepest the search path may grow (plies from the root, extensions included).
pub const MAX_PLY: usize = 96;
/// Futility margin per ply of remaining depth, in centipawns.
const FUTILITY_MARGIN: i32 = 120;
/// Reverse futility pruning works up to this depth.
const REVERSE_FUTILITY_DEPTH: i32 = 5;
/// Reverse futility margin per ply of remaining depth, in centipawns.
const REVERSE_FUTILITY_MARGIN: i32 = 110;
/// Near the leaves, captures losing more than this per ply by exchange are skipped.
const EXCHANGE_PRUNING_MARGIN: i32 = 100;
/// The quiescence search answers a check with every evasion on its first plies, these
/// many; deeper, a side in check stands pat or captures like any other.
const QUIESCENCE_EVASION_PLIES: i32 = 4;
/// Internal iterative reduction starts at this depth (where the game has it).
const INTERNAL_ITERATIVE_REDUCTION_DEPTH: i32 = 4;
/// A quiet move's history divided by this is taken off its late-move reduction.
const HISTORY_REDUCTION_DIVISOR: i32 = 6_000;
/// Slots of the static evaluation cache (a power of two).
const EVAL_CACHE_SIZE: usize = 1 << 15;
/// Slots of the correction history per side (a power of two).
const CORRECTION_SIZE: usize = 1 << 14;
/// The correction history's entries: per side, `CORRECTION_SIZE` under the game's
/// correction key, then `HISTORY_SIZE` under the move that led to the position.
const CORRECTION_ENTRIES: usize = 2 * CORRECTION_SIZE + 2 * HISTORY_SIZE;
/// Correction history entries are centipawns times this.
const CORRECTION_GRAIN: i32 = 256;
/// The largest correction of one entry, and the largest error one verdict teaches, in
/// centipawns (a position's two entries together may add up to twice this).
const CORRECTION_LIMIT: i32 = 200;
/// A bound beyond every score.
const INFINITY: i32 = 31_000;
/// History table entries per side: every from×to pair plus drops (kind × square).
const HISTORY_SIZE: usize = 90 * 90 + 8 * 90;

/// How far one search may go, worked out from the caller's limits.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    /// Do not start another iteration once this much time has passed (adjusted for easy and hard moves).
    pub soft_time: Option<Duration>,
    /// Abort the search at this time, whatever it is doing.
    pub hard_time: Option<Duration>,
    /// Abort after this many nodes.
    pub node_limit: u64,
    /// The last depth to search.
    pub depth_limit: i32,
    /// How many best lines (MultiPV) to search and report, at least 1.
    pub lines: usize,
    /// Evaluation noise in centipawns (weaker levels), 0 for none.
    pub noise: i32,
    /// Seed of the evaluation noise: the same seed plays the same game.
    pub seed: u64,
}

/// What a repeated position means for the move that produced it.
enum Verdict {
    /// Not a repetition the rules care about (yet).
    None,
    /// The rules forbid the move (janggi).
    Illegal,
    /// The game ends: the score for the side to move in the repeated position.
    Ends(i32),
}

/// One search's working state.
struct Searcher<'a, P: EngineRules> {
    table: &'a TranspositionTable,
    crew: Crew<'a>,
    stop: &'a AtomicBool,
    plan: Plan,
    started: Instant,
    hard_deadline: Option<Instant>,
    nodes: u64,
    aborted: bool,
    /// Search key of every position from the game's start to the current node.
    keys: Vec<u64>,
    /// `checks[i]`: the side to move in position `i` is in check (the move to it gave check).
    checks: Vec<bool>,
    /// `nulls[i]`: position `i` was reached by a null move (repetition scans stop there).
    nulls: Vec<bool>,
    /// Index in `keys` of the root position.
    root_index: usize,
    rule: RepetitionRule,
    killers: Vec<[Move; 2]>,
    history: Vec<i32>,
    /// The quiet move that last refuted each move of the opponent (counter-move heuristic),
    /// indexed like `history` by the opponent's move.
    counters: Vec<Move>,
    /// The move that led to each position of `keys` (none before the root).
    played: Vec<Move>,
    /// The static evaluation at each ply of the path (`-INFINITY` when in check).
    evals: [i32; MAX_PLY + 2],
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    /// Static evaluations by search key (`EVAL_CACHE_SIZE` slots, the newest kept).
    eval_cache: Vec<(u64, i32)>,
    /// Correction history: per side, under the [`EngineRules::correction_key`] and
    /// (where the game keeps it) under the move that led to the position, how far
    /// searches found the static evaluation off (centipawns × `CORRECTION_GRAIN`),
    /// added to later evaluations under the same keys ([`CORRECTION_ENTRIES`]).
    correction: Vec<i32>,
    /// One move picker per ply, taken by the node searching there and given back after
    /// (reused so that its large arrays are not filled anew at every node).
    pickers: Vec<Option<Box<MovePicker>>>,
    _game: std::marker::PhantomData<P>,
}

/// What one search leaves to the next of the same game: move-ordering statistics
/// (history, counter-moves), static evaluations, the correction history and the move
/// pickers' buffers, so a short search starts with ordering and corrections learned on
/// earlier moves instead of from nothing.
pub struct SearchMemory {
    /// The game (the position type's name) the statistics were gathered in.
    game: &'static str,
    history: Vec<i32>,
    counters: Vec<Move>,
    eval_cache: Vec<(u64, i32)>,
    correction: Vec<i32>,
    pickers: Vec<Option<Box<MovePicker>>>,
}

impl Default for SearchMemory {
    fn default() -> Self {
        SearchMemory {
            game: "",
            history: vec![0; 2 * HISTORY_SIZE],
            counters: vec![Move::default(); 2 * HISTORY_SIZE],
            eval_cache: vec![(0, 0); EVAL_CACHE_SIZE],
            correction: vec![0; CORRECTION_ENTRIES],
            pickers: (0..MAX_PLY + 2).map(|_| Some(Box::default())).collect(),
        }
    }
}

impl SearchMemory {
    /// Forgets the statistics and cached evaluations (a new game, or a level whose blind
    /// spots must not leak from one turn into the next).
    pub fn clear(&mut self) {
        self.game = "";
        self.history.fill(0);
        self.counters.fill(Move::default());
        self.eval_cache.fill((0, 0));
        self.correction.fill(0);
    }

    /// How many move-ordering statistics are set (a search that ran leaves some).
    pub fn learned(&self) -> usize {
        self.history.iter().filter(|&&h| h != 0).count()
    }

    /// Makes the memory ready for a search of game `P`: forgotten if it held another game's.
    /// Rebuilt whole if a search did not hand its parts back (it panicked).
    fn prepare<P>(&mut self) {
        let whole = self.history.len() == 2 * HISTORY_SIZE
            && self.counters.len() == 2 * HISTORY_SIZE
            && self.eval_cache.len() == EVAL_CACHE_SIZE
            && self.correction.len() == CORRECTION_ENTRIES
            && self.pickers.len() == MAX_PLY + 2;
        if !whole {
            *self = SearchMemory::default();
        }
        let game = std::any::type_name::<P>();
        if self.game != game {
            self.clear();
            self.game = game;
        }
    }
}

/// The final answer of a search.
pub struct Outcome {
    /// The move to play.
    pub best: Move,
    /// Nodes searched.
    pub nodes: u64,
    /// The lines of the last completed depth, best first (as reported); empty when not
    /// even the first depth completed.
    pub lines: Vec<SearchInfo>,
}

/// Runs the iterative-deepening search from `root`.
///
/// `history` holds the (key, in-check) pairs of the game's positions before the root;
/// `root_moves` are the legal moves with the history-aware rules applied (never empty).
/// Each memory of `helpers` runs one more thread sharing `table` (none: one thread).
#[allow(clippy::too_many_arguments)]
pub fn run<P: EngineRules>(
    root: &P,
    history: &[(u64, bool)],
    root_moves: &[Move],
    plan: Plan,
    table: &TranspositionTable,
    memory: &mut SearchMemory,
    helpers: &mut [SearchMemory],
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> Outcome {
    let team_nodes = AtomicU64::new(0);
    let crew = Crew {
        thread_index: 0,
        team_nodes: &team_nodes,
    };
    // Lazy SMP: helper threads search the same root into the shared table, unheard and
    // without a clock, until the main thread (which alone keeps time and reports) is done.
    // With no helpers the scope spawns nothing and the main thread searches alone.
    let helpers_stop = AtomicBool::new(false);
    std::thread::scope(|scope| {
        for (index, helper_memory) in helpers.iter_mut().enumerate() {
            let helper_plan = Plan {
                soft_time: None,
                hard_time: None,
                node_limit: u64::MAX,
                lines: 1,
                ..plan
            };
            let helper_crew = Crew {
                thread_index: index + 1,
                team_nodes: &team_nodes,
            };
            let helpers_stop = &helpers_stop;
            scope.spawn(move || {
                run_thread(
                    root,
                    history,
                    root_moves,
                    helper_plan,
                    table,
                    helper_memory,
                    helper_crew,
                    helpers_stop,
                    &mut |_| {},
                )
            });
        }
        let outcome = run_thread(
            root, history, root_moves, plan, table, memory, crew, stop, report,
        );
        helpers_stop.store(true, Ordering::Relaxed);
        outcome
    })
}

/// Which thread of a search this is and where the helpers count their nodes.
#[derive(Clone, Copy)]
struct Crew<'a> {
    /// 0 for the main thread (it keeps time and reports), 1… for helpers.
    thread_index: usize,
    /// Nodes the helper threads searched so far (added every 1024 nodes).
    team_nodes: &'a AtomicU64,
}

/// One thread's search: [`run`] without the helpers.
#[allow(clippy::too_many_arguments)]
fn run_thread<P: EngineRules>(
    root: &P,
    history: &[(u64, bool)],
    root_moves: &[Move],
    plan: Plan,
    table: &TranspositionTable,
    memory: &mut SearchMemory,
    crew: Crew,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> Outcome {
    memory.prepare::<P>();
    let mut searcher = Searcher::new(root, history, plan, table, memory, crew, stop);
    let outcome = searcher.iterate(root, root_moves, report);
    // Hand the statistics back for the next move.
    memory.history = std::mem::take(&mut searcher.history);
    memory.counters = std::mem::take(&mut searcher.counters);
    memory.eval_cache = std::mem::take(&mut searcher.eval_cache);
    memory.correction = std::mem::take(&mut searcher.correction);
    memory.pickers = std::mem::take(&mut searcher.pickers);
    outcome
}

impl<'a, P: EngineRules> Searcher<'a, P> {
    /// A searcher at `root`, after the game's earlier positions `history` (key, in check).
    fn new(
        root: &P,
        history: &[(u64, bool)],
        plan: Plan,
        table: &'a TranspositionTable,
        memory: &mut SearchMemory,
        crew: Crew<'a>,
        stop: &'a AtomicBool,
    ) -> Searcher<'a, P> {
        let started = Instant::now();
        let mut searcher = Searcher::<P> {
            table,
            crew,
            stop,
            plan,
            started,
            hard_deadline: plan.hard_time.map(|t| started + t),
            nodes: 0,
            aborted: false,
            keys: history.iter().map(|h| h.0).collect(),
            checks: history.iter().map(|h| h.1).collect(),
            nulls: vec![false; history.len()],
            root_index: history.len(),
            rule: root.repetition_rule(),
            killers: vec![[Move::default(); 2]; MAX_PLY + 2],
            history: std::mem::take(&mut memory.history),
            counters: std::mem::take(&mut memory.counters),
            played: vec![Move::default(); history.len()],
            evals: [-INFINITY; MAX_PLY + 2],
            pv: vec![[Move::default(); MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            pickers: std::mem::take(&mut memory.pickers),
            eval_cache: std::mem::take(&mut memory.eval_cache),
            correction: std::mem::take(&mut memory.correction),
            _game: std::marker::PhantomData,
        };
        searcher.push(root.search_key(), root.in_check(), false, Move::default());
        searcher
    }
}

impl<P: EngineRules> Searcher<'_, P> {
    fn iterate(
        &mut self,
        root: &P,
        root_moves: &[Move],
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Outcome {
        let mut moves: Vec<Move> = root_moves.to_vec();
        // Start from the stored best move, if the table knows one.
        if let Some(entry) = self.table.probe(root.search_key()) {
            if let Some(index) = moves.iter().position(|&m| m == entry.best) {
                moves[..=index].rotate_right(1);
            }
        }
        let line_count = self.plan.lines.clamp(1, moves.len());
        let mut best = moves[0];
        let mut best_score: i32 = 0;
        // The score of each line at the last completed depth (aspiration windows start there).
        let mut line_scores: Vec<i32> = vec![0; line_count];
        // The lines of the last completed depth, best first.
        let mut completed: Vec<SearchInfo> = Vec::new();
        let mut stable_iterations = 0;
        let mut previous_score = None;
        let max_depth = self.plan.depth_limit.clamp(1, MAX_PLY as i32 - 8);
        for depth in 1..=max_depth {
            // Helpers of odd index skip odd depths: they run a ply ahead of the main
            // thread and leave deeper results in the shared table for it.
            if self.crew.thread_index % 2 == 1 && depth > 1 && depth % 2 == 1 {
                continue;
            }
            // Line `k` searches the root moves left after the first `k` lines took theirs.
            let mut lines: Vec<(i32, Vec<Move>)> = Vec::with_capacity(line_count);
            for line in 0..line_count {
                let Some((mv, score)) = self.search_line(
                    root,
                    &mut moves[line..],
                    depth,
                    line_scores[line],
                    line == 0,
                ) else {
                    break;
                };
                if line == 0 {
                    // An aborted iteration still found this move better by a complete search.
                    if mv != best {
                        stable_iterations = 0;
                    } else {
                        stable_iterations += 1;
                    }
                    best = mv;
                    best_score = score;
                }
                if let Some(index) = moves[line..].iter().position(|&m| m == mv) {
                    moves[line..=line + index].rotate_right(1);
                }
                if self.aborted {
                    break;
                }
                let principal_variation = self.pv[0][..self.pv_len[0]].to_vec();
                lines.push((
                    score,
                    if principal_variation.first() == Some(&mv) {
                        principal_variation
                    } else {
                        vec![mv]
                    },
                ));
            }
            if self.aborted {
                break;
            }
            if lines.len() > 1 {
                // Later lines may score above earlier ones (the search is not exact): best first.
                lines.sort_by_key(|(score, _)| std::cmp::Reverse(*score));
                for (index, (_, line)) in lines.iter().enumerate() {
                    moves[index] = line[0];
                }
                // The move played is the first line's, as reported.
                best = lines[0].1[0];
                best_score = lines[0].0;
            }
            let elapsed = self.started.elapsed();
            completed.clear();
            for (index, (score, principal_variation)) in lines.into_iter().enumerate() {
                line_scores[index] = score;
                completed.push(SearchInfo {
                    depth: depth as u32,
                    multipv: index as u32 + 1,
                    score: to_score(score),
                    nodes: self.team_nodes(),
                    elapsed,
                    principal_variation,
                });
            }
            for info in &completed {
                report(info);
            }
            if best_score.abs() > MATE_BOUND && depth > MATE - best_score.abs() + 2 {
                break; // A mate found and confirmed by a deeper search.
            }
            if moves.len() == 1 && self.plan.soft_time.is_some() {
                break; // Easy move: the only legal move.
            }
            if let Some(soft) = self.plan.soft_time {
                let mut budget = soft.as_secs_f64();
                if stable_iterations >= 4 && line_count == 1 {
                    budget *= 0.5; // Easy move: the same best move for several depths.
                }
                if let Some(previous) = previous_score {
                    if best_score < previous - 40 {
                        budget *= 2.0; // Panic: the score is falling, think longer.
                    }
                }
                if let Some(hard) = self.plan.hard_time {
                    budget = budget.min(hard.as_secs_f64());
                }
                // The next depth costs a few times this one: do not start what cannot finish.
                if elapsed.as_secs_f64() > budget * 0.55 {
                    break;
                }
            }
            previous_score = Some(best_score);
        }
        Outcome {
            best,
            nodes: self.team_nodes(),
            lines: completed,
        }
    }

    /// Searches `moves` (the root moves not yet taken by a better line) at `depth` with
    /// aspiration windows around `expected`; returns the best move and its score, also
    /// when aborted (then from the part searched). Only the first line stores the root
    /// in the transposition table, so the table's move stays the best one. `moves` may
    /// come back reordered (see [`Self::search_root`]).
    fn search_line(
        &mut self,
        root: &P,
        moves: &mut [Move],
        depth: i32,
        expected: i32,
        store_root: bool,
    ) -> Option<(Move, i32)> {
        let mut delta = 35;
        let (mut alpha, mut beta) = if depth >= 5 && expected.abs() < MATE_BOUND {
            (expected - delta, expected + delta)
        } else {
            (-INFINITY, INFINITY)
        };
        loop {
            let found = self.search_root(root, moves, depth, alpha, beta, store_root);
            if self.aborted {
                return found;
            }
            let score = found.map_or(-INFINITY, |b| b.1);
            if score <= alpha && alpha > -INFINITY {
                alpha = (score - delta).max(-INFINITY);
                beta = (alpha + beta) / 2;
            } else if score >= beta && beta < INFINITY {
                beta = (score + delta).min(INFINITY);
            } else {
                return found;
            }
            delta *= 2;
            if delta > 600 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    /// Searches every root move; returns the best move and score that beat `alpha`. In
    /// games with [`EngineRules::ROOT_REDUCTIONS`] a completed search leaves `moves` after
    /// the first ordered by the nodes each took ([`order_by_subtree_nodes`]).
    fn search_root(
        &mut self,
        root: &P,
        moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
        store_root: bool,
    ) -> Option<(Move, i32)> {
        let mut best: Option<(Move, i32)> = None;
        let mut best_score = -INFINITY;
        self.pv_len[0] = 0;
        // The nodes each root move's search took, in the order of `moves` (games with
        // root reductions only: they order the next iteration by it).
        let mut subtree_nodes: Vec<u64> = Vec::new();
        for (index, &mv) in moves.iter().enumerate() {
            let nodes_before = self.nodes;
            let mut child = root.clone();
            child.play_unchecked(mv);
            let gives_check = child.in_check();
            // A move that leaves the opponent no legal move wins at once (checkmate, or
            // stalemate, which loses in these games). Inside the tree reverse futility can
            // stand pat in a position without moves; the root makes sure it is never missed.
            let mut replies = MoveList::new();
            child.legal_moves(&mut replies);
            let score = if replies.is_empty() && child.position_end().is_none() {
                self.pv_len[1] = 1;
                MATE - 1
            } else {
                // Late root moves: reduced by the interior nodes' base reduction less a
                // ply, as at a principal-variation node (searched again at full depth
                // when they beat alpha). Unlike an interior node, the root reduces also
                // when in check, and without killer or history adjustments; `index`
                // counts moves refused by the repetition rules too (shogi refuses none).
                let reduction = if P::ROOT_REDUCTIONS
                    && depth >= 3
                    && index >= 2
                    && !gives_check
                    && !root.is_tactical(mv)
                    && !mv.is_promotion()
                {
                    (lmr(depth, index) - 1).clamp(0, depth - 2)
                } else {
                    0
                };
                let Some(score) = self.search_child(
                    &child,
                    mv,
                    gives_check,
                    depth - 1 + check_extension(root, mv, gives_check),
                    reduction,
                    alpha,
                    beta,
                    0,
                    true,
                    false,
                    index == 0,
                ) else {
                    if P::ROOT_REDUCTIONS {
                        subtree_nodes.push(0);
                    }
                    continue;
                };
                score
            };
            if self.aborted {
                break;
            }
            if P::ROOT_REDUCTIONS {
                subtree_nodes.push(self.nodes - nodes_before);
            }
            if score > best_score {
                best_score = score;
                if score > alpha || best.is_none() {
                    best = Some((mv, score));
                    self.update_pv(0, mv);
                }
                if score > alpha {
                    alpha = score;
                }
                if score >= beta {
                    break;
                }
            }
        }
        if P::ROOT_REDUCTIONS && !self.aborted {
            order_by_subtree_nodes(moves, &subtree_nodes);
        }
        if let Some((mv, score)) = best.filter(|_| store_root) {
            let bound = if score >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.table
                .store(root.search_key(), mv, score, depth, bound, 0);
        }
        best
    }

    #[inline]
    fn push(&mut self, key: u64, in_check: bool, null: bool, mv: Move) {
        self.keys.push(key);
        self.checks.push(in_check);
        self.nulls.push(null);
        self.played.push(mv);
    }

    #[inline]
    fn pop(&mut self) {
        self.keys.pop();
        self.checks.pop();
        self.nulls.pop();
        self.played.pop();
    }

    /// The counter-move slot of the move that led to the current position (`None` after
    /// a null move or at the root of the game).
    #[inline]
    fn counter_slot(&self, position: &P) -> Option<usize> {
        let previous = *self.played.last()?;
        if previous == Move::default() || *self.nulls.last().unwrap_or(&true) {
            return None;
        }
        // The opponent played `previous`: index it from the opponent's side.
        let base = move_index(previous);
        Some(base + position.side_to_move().opponent().index() * HISTORY_SIZE)
    }

    /// Nodes searched so far by this thread and the helpers.
    fn team_nodes(&self) -> u64 {
        self.nodes + self.crew.team_nodes.load(Ordering::Relaxed)
    }

    /// Counts a node and says whether the search must stop now.
    #[inline]
    fn out_of_budget(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.plan.node_limit {
            self.aborted = true;
        }
        if self.nodes & 1023 == 0 {
            if self.crew.thread_index > 0 {
                self.crew.team_nodes.fetch_add(1024, Ordering::Relaxed);
            }
            if self.stop.load(Ordering::Relaxed) {
                self.aborted = true;
            }
            if let Some(deadline) = self.hard_deadline {
                if Instant::now() >= deadline {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Judges the position just pushed (`child`) against the earlier positions with the same key.
    fn repetition_verdict(&self, child: &P) -> Verdict {
        let now = self.keys.len() - 1;
        let key = self.keys[now];
        // Positions before the last capture cannot come back (the material differs).
        let window = child.halfmove_clock() as usize;
        let mut index = now;
        let mut occurrences = 1;
        let mut latest = None;
        while index >= 2 && now - (index - 2) <= window {
            if self.nulls[index] || self.nulls[index - 1] {
                break;
            }
            index -= 2;
            if self.keys[index] == key {
                occurrences += 1;
                latest.get_or_insert(index);
            }
        }
        let Some(latest) = latest else {
            return Verdict::None;
        };
        // Who gave check with every move of the cycle: the side that just moved (even
        // distance from now) and the side to move now (odd distance).
        let mut mover_checked = true;
        let mut other_checked = true;
        for position in latest + 1..=now {
            if (now - position).is_multiple_of(2) {
                mover_checked &= self.checks[position];
            } else {
                other_checked &= self.checks[position];
            }
        }
        let in_search = latest >= self.root_index;
        match self.rule {
            RepetitionRule::AnyRepeatIllegal => Verdict::Illegal,
            RepetitionRule::PerpetualCheckIllegal { threshold } => {
                if self.checks[now] && mover_checked {
                    Verdict::Illegal
                } else if in_search || occurrences >= threshold {
                    Verdict::Ends(child.drawn_end_value())
                } else {
                    Verdict::None
                }
            }
            RepetitionRule::Judged { threshold } => {
                if !(in_search || occurrences >= threshold) {
                    return Verdict::None;
                }
                Verdict::Ends(match (mover_checked, other_checked) {
                    // The side that checked throughout loses the repetition.
                    (true, false) => DECIDED,
                    (false, true) => -DECIDED,
                    _ => 0,
                })
            }
        }
    }

    /// The static evaluation plus the level's noise (the same for a position every time)
    /// and the correction history's learned offsets ([`Self::correction_slots`];
    /// `after_last_played` as there).
    #[inline]
    fn static_eval(&mut self, position: &P, after_last_played: bool) -> i32 {
        let correction_slots = self.correction_slots(position, after_last_played);
        self.corrected_eval(position, correction_slots)
    }

    /// [`Self::static_eval`] with the correction slots already found (a node of the main
    /// search needs it twice: to evaluate and to learn). Positions come back
    /// (re-searches, transpositions): their evaluation is kept in a small cache keyed by
    /// the full search key.
    #[inline]
    fn corrected_eval(&mut self, position: &P, correction_slots: [Option<usize>; 2]) -> i32 {
        let key = position.search_key();
        let slot = &mut self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)];
        let mut value = if slot.0 == key && key != 0 {
            slot.1
        } else {
            let value = position.evaluate();
            *slot = (key, value);
            value
        };
        if self.plan.noise > 0 {
            let mixed = (key ^ self.plan.seed)
                .wrapping_mul(0x9E37_79B9_7F4A_7C15)
                .rotate_left(29)
                .wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let span = 2 * self.plan.noise as u64 + 1;
            value += (mixed >> 20) as i64 as i32 % span as i32 - self.plan.noise;
        }
        for slot in correction_slots.into_iter().flatten() {
            value += self.correction[slot] / CORRECTION_GRAIN;
        }
        value.clamp(-DECIDED + 1, DECIDED - 1)
    }

    /// Starts loading what the search of the position with `key` will read first: its
    /// bucket of the transposition table and its slot of the evaluation cache.
    #[inline]
    fn prefetch(&self, key: u64) {
        self.table.prefetch(key);
        table::prefetch(&self.eval_cache[key as usize & (EVAL_CACHE_SIZE - 1)]);
    }

    /// The correction history's slots for `position`: under its game's correction key,
    /// and under the move that led to it where the game keeps that too and
    /// `after_last_played` says the last move pushed led to `position` (not so inside
    /// the quiescence search, which plays without pushing).
    #[inline]
    fn correction_slots(&self, position: &P, after_last_played: bool) -> [Option<usize>; 2] {
        let by_key = position.correction_key().map(|key| {
            (key >> 50) as usize % CORRECTION_SIZE
                + position.side_to_move().index() * CORRECTION_SIZE
        });
        let by_move = if P::CONTINUATION_CORRECTION && after_last_played {
            self.counter_slot(position)
                .map(|slot| 2 * CORRECTION_SIZE + slot)
        } else {
            None
        };
        [by_key, by_move]
    }

    /// Moves each correction in `slots` (a position's [`Self::correction_slots`]) by a
    /// share of `error`, what a search of `depth` found minus the corrected static
    /// evaluation: together the entries settle where the corrected evaluation meets the
    /// searches. Deeper searches weigh more.
    fn learn_correction(&mut self, slots: [Option<usize>; 2], error: i32, depth: i32) {
        let weight = (depth + 1).min(16);
        let step =
            error.clamp(-CORRECTION_LIMIT, CORRECTION_LIMIT) * CORRECTION_GRAIN * weight / 256;
        for slot in slots.into_iter().flatten() {
            let entry = &mut self.correction[slot];
            *entry = (*entry + step).clamp(
                -CORRECTION_LIMIT * CORRECTION_GRAIN,
                CORRECTION_LIMIT * CORRECTION_GRAIN,
            );
        }
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for index in ply + 1..child_len {
            self.pv[ply][index] = self.pv[ply + 1][index];
        }
        self.pv_len[ply] = child_len;
    }

    /// The move picker of `ply` (a fresh one if it is out).
    #[inline]
    fn take_picker(&mut self, ply: usize) -> Box<MovePicker> {
        self.pickers[ply].take().unwrap_or_default()
    }

    #[inline]
    fn give_back_picker(&mut self, ply: usize, picker: Box<MovePicker>) {
        self.pickers[ply] = Some(picker);
    }

    /// The ordering score of a quiet move (the picker's quiet stage): promotions first,
    /// then by history.
    #[inline]
    fn quiet_order(&self, position: &P, mv: Move) -> i32 {
        if mv.is_promotion() {
            1 << 27
        } else {
            self.history[self.history_index(position, mv)]
        }
    }

    fn history_index(&self, position: &P, mv: Move) -> usize {
        move_index(mv) + position.side_to_move().index() * HISTORY_SIZE
    }

    /// Orders moves: hash move, captures that do not lose material by exchange (by victim
    /// then attacker), promotions, killers, the counter-move, losing captures, then the
    /// quiet moves by history. Writes a score and a verdict for each of `moves`, index by
    /// index; the captures' exchanges are left to ask when they would come out (see
    /// [`ExchangeVerdict`]).
    fn score_moves(
        &self,
        position: &P,
        moves: &MoveList,
        scores: &mut [i32; MAX_MOVES],
        verdicts: &mut [ExchangeVerdict; MAX_MOVES],
        hash_move: Option<Move>,
        ply: usize,
    ) {
        let counter = self
            .counter_slot(position)
            .map_or(Move::default(), |slot| self.counters[slot]);
        for ((slot, verdict), &mv) in scores.iter_mut().zip(verdicts.iter_mut()).zip(moves.iter()) {
            *verdict = ExchangeVerdict::Unknown;
            *slot = if Some(mv) == hash_move {
                1 << 30
            } else {
                let victim = position.victim_value(mv);
                if victim > 0 {
                    // Scored as if it lost nothing; the exchange is asked when the
                    // capture would come out (a losing one drops after the killers).
                    *verdict = ExchangeVerdict::ToAsk;
                    FILLED_GOOD_CAPTURE + victim * 64 - position.attacker_value(mv)
                } else if mv.is_promotion() {
                    1 << 27
                } else if self.killers[ply][0] == mv {
                    1 << 26
                } else if self.killers[ply][1] == mv {
                    (1 << 26) - 1
                } else if counter == mv {
                    (1 << 26) - 2
                } else {
                    self.history[self.history_index(position, mv)]
                }
            };
        }
    }

    /// The score of `position` searched to `depth` within (`alpha`, `beta`). `cut_node`
    /// marks a null-window node expected to fail high (a reduced late move's child, and
    /// every other ply below it, as in Stockfish): internal iterative reduction looks at it.
    #[allow(clippy::too_many_arguments)]
    fn negamax(
        &mut self,
        position: &P,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        if let Some(score) = position.position_end() {
            return decided(score, ply);
        }
        let in_check = *self.checks.last().unwrap_or(&false);
        if ply >= MAX_PLY - 1 {
            return self.static_eval(position, true);
        }
        // Mate-distance pruning: no score here can beat a mate found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        if in_check && !P::CHECK_EXTENSION_BY_EXCHANGE {
            depth += 1;
        }
        if depth <= 0 {
            return self.quiescence(position, alpha, beta, ply, 0, in_check);
        }
        let key = position.search_key();
        let mut hash_move = None;
        let entry = self.table.probe(key);
        let table_miss = entry.is_none();
        if let Some(entry) = entry {
            if entry.best != Move::default() {
                hash_move = Some(entry.best);
            }
            if !pv_node && entry.depth as i32 >= depth {
                let score = score_from_table(entry.score as i32, ply as i32);
                match entry.bound {
                    Bound::Exact => return score,
                    Bound::Lower if score >= beta => return score,
                    Bound::Upper if score <= alpha => return score,
                    _ => {}
                }
            }
        }
        // Internal iterative reduction: a node expected to matter (on the principal
        // variation, or expected to fail high) that the table knows no move for is
        // searched a ply shallower; its next visit has a move to try first.
        if P::INTERNAL_ITERATIVE_REDUCTION
            && hash_move.is_none()
            && depth >= INTERNAL_ITERATIVE_REDUCTION_DEPTH
            && (pv_node || cut_node)
        {
            depth -= 1;
        }
        let correction_slots = if in_check {
            [None, None]
        } else {
            self.correction_slots(position, true)
        };
        let static_eval = if in_check {
            -INFINITY
        } else {
            self.corrected_eval(position, correction_slots)
        };
        self.evals[ply] = static_eval;
        // Better than two plies ago (the same side to move): prune less, reduce less.
        let improving = !in_check
            && (ply < 2 || self.evals[ply - 2] == -INFINITY || static_eval > self.evals[ply - 2]);
        let quiet_window = beta.abs() < MATE_BOUND && alpha.abs() < MATE_BOUND;
        // Reverse futility: far above beta near the leaves, a quiet move will not fall below it.
        if !pv_node
            && !in_check
            && depth <= REVERSE_FUTILITY_DEPTH
            && quiet_window
            && static_eval - REVERSE_FUTILITY_MARGIN * depth + 40 * improving as i32 >= beta
        {
            return static_eval;
        }
        // Null move: if passing still beats beta, a real move surely does.
        let after_null = *self.nulls.last().unwrap_or(&false);
        if !pv_node
            && !in_check
            && !after_null
            && depth >= 3
            && quiet_window
            && static_eval >= beta
            && position.null_move_safe()
        {
            if let Some(child) = position.null_move() {
                let reduction = 3 + depth / 4 + ((static_eval - beta) / 200).min(3);
                self.push(child.search_key(), false, true, Move::default());
                let score = -self.negamax(
                    &child,
                    depth - 1 - reduction,
                    -beta,
                    -beta + 1,
                    ply + 1,
                    false,
                    !cut_node,
                );
                self.pop();
                if self.aborted {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        // A mate in one ends the node before its moves are generated (the table would
        // have held it, had the node been searched before). Asked only here, where
        // neither reverse futility nor the null move ended the node: asked at every node,
        // the test made shogi 12% slower and lost at equal time (session 36).
        if table_miss && !in_check {
            if let Some(mv) = position.mate_in_one() {
                let score = MATE - ply as i32 - 1;
                if pv_node {
                    self.pv_len[ply + 1] = ply + 1;
                    self.update_pv(ply, mv);
                }
                self.table
                    .store(key, mv, score, depth, Bound::Exact, ply as i32);
                return score;
            }
        }
        let counter_slot = self.counter_slot(position);
        let counter = counter_slot.map_or(Move::default(), |slot| self.counters[slot]);
        let mut picker = self.take_picker(ply);
        if P::STAGED_MOVE_ORDER {
            picker.reset(
                hash_move,
                [self.killers[ply][0], self.killers[ply][1], counter],
            );
        } else {
            let (moves, scores, verdicts) = picker.fill();
            position.legal_moves(moves);
            self.score_moves(position, moves, scores, verdicts, hash_move, ply);
        }
        let original_alpha = alpha;
        let mut best_score = -INFINITY;
        let mut best_move = Move::default();
        let mut searched = 0;
        let mut quiets_tried: [Move; 64] = [Move::default(); 64];
        let mut quiet_count = 0;
        while let Some(mv) = picker.next(position, |mv| self.quiet_order(position, mv)) {
            let capture = position.victim_value(mv) > 0;
            let tactical = position.is_tactical(mv) || mv.is_promotion();
            let is_killer = self.killers[ply].contains(&mv) || mv == counter;
            let history = if tactical {
                0
            } else {
                self.history[self.history_index(position, mv)]
            };
            let prunable = !pv_node && !in_check && searched > 0 && best_score > -MATE_BOUND;
            // Late-move pruning: at the last plies, quiet moves far down the list rarely
            // matter, unless a board move gives check (shogi's many checking drops are
            // pruned like the rest, before the move is even played).
            let late_quiet = prunable
                && !tactical
                && depth <= 3
                && searched
                    >= (3 + (depth * depth) as usize)
                        / if P::EAGER_LATE_MOVE_PRUNING && !improving {
                            2
                        } else {
                            1
                        };
            // Futility: near the leaves, a quiet move that gives no check cannot lift a
            // position this far below alpha.
            let futile = prunable
                && !tactical
                && !is_killer
                && depth <= 3
                && quiet_window
                && static_eval + FUTILITY_MARGIN * depth <= alpha;
            if late_quiet && mv.is_drop() {
                continue;
            }
            // Either pruning keeps only the checks: where the game tells a check without
            // playing the move, the others are dropped unplayed (the same tree, less work).
            let told_check = if P::CHECK_TOLD_BEFORE_PLAYING || late_quiet || futile {
                position.gives_check_unplayed(mv)
            } else {
                None
            };
            if (late_quiet || futile) && told_check == Some(false) {
                continue;
            }
            let mut child = position.clone();
            child.play_unchecked(mv);
            self.prefetch(child.search_key());
            let gives_check = told_check.unwrap_or_else(|| child.in_check());
            if late_quiet && !gives_check {
                continue;
            }
            // Exchange pruning: near the leaves, a capture that loses material by exchange
            // (unless it checks: sacrifices that check are how mates begin).
            if prunable
                && capture
                && !gives_check
                && depth <= 4
                && !exchange_at_least(position, mv, -EXCHANGE_PRUNING_MARGIN * depth)
            {
                continue;
            }
            if futile && !gives_check {
                continue;
            }
            // A check that loses no material by exchange is searched a ply deeper (where
            // the game extends checks so; otherwise the position in check extends itself).
            let new_depth = depth - 1 + check_extension(position, mv, gives_check);
            let mut reduction = 0;
            if depth >= 3
                && searched >= 2
                && !tactical
                && !in_check
                && (!gives_check || mv.is_drop())
            {
                reduction = lmr(depth, searched);
                if pv_node {
                    reduction -= 1;
                }
                if !improving {
                    reduction += 1;
                }
                if is_killer {
                    reduction -= 1;
                }
                // Quiet moves that keep failing earn less, those that cut earn more.
                reduction -= history / HISTORY_REDUCTION_DIVISOR;
                reduction = reduction.clamp(0, new_depth - 1);
            }
            let Some(score) = self.search_child(
                &child,
                mv,
                gives_check,
                new_depth,
                reduction,
                alpha,
                beta,
                ply,
                pv_node,
                cut_node,
                searched == 0,
            ) else {
                continue;
            };
            if self.aborted {
                self.give_back_picker(ply, picker);
                return 0;
            }
            searched += 1;
            if score > best_score {
                best_score = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !tactical {
                            self.reward_quiet(
                                position,
                                mv,
                                ply,
                                depth,
                                &quiets_tried[..quiet_count],
                            );
                            if let Some(slot) = counter_slot {
                                self.counters[slot] = mv;
                            }
                        }
                        break;
                    }
                }
            }
            if !tactical && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = mv;
                quiet_count += 1;
            }
        }
        self.give_back_picker(ply, picker);
        if searched == 0 {
            // Checkmate or stalemate (in xiangqi, janggi and shogi both lose), or every
            // move was forbidden by the repetition rules: no legal move is left.
            return -MATE + ply as i32;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The search's verdict teaches the correction history how far the static
        // evaluation was off, where the bound says which way (a quiet best move only: a
        // capture's gain is no error of the evaluation).
        if !in_check
            && best_score.abs() < MATE_BOUND
            && (best_move == Move::default() || !position.is_tactical(best_move))
            && !(bound == Bound::Lower && best_score <= static_eval)
            && !(bound == Bound::Upper && best_score >= static_eval)
        {
            self.learn_correction(correction_slots, best_score - static_eval, depth);
        }
        self.table
            .store(key, best_move, best_score, depth, bound, ply as i32);
        best_score
    }

    /// Searches the position `child`, reached from the node at `ply` by `mv`, and returns
    /// its score for the side that played `mv`, or `None` when the repetition rules
    /// forbid `mv`. The first move of a node gets the full window; later ones a null
    /// window at `new_depth - reduction`, searched again at full depth when they beat
    /// alpha and, at a principal-variation node, with the full window when inside it.
    /// The root and the interior nodes share it, so both judge and search a move alike.
    #[allow(clippy::too_many_arguments)]
    fn search_child(
        &mut self,
        child: &P,
        mv: Move,
        gives_check: bool,
        new_depth: i32,
        reduction: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
        cut_node: bool,
        first: bool,
    ) -> Option<i32> {
        self.push(child.search_key(), gives_check, false, mv);
        let score = match self.repetition_verdict(child) {
            Verdict::Illegal => {
                self.pop();
                return None;
            }
            Verdict::Ends(score) => {
                self.pv_len[ply + 1] = ply + 1;
                -decided(score, ply + 1)
            }
            Verdict::None if first => {
                let child_cut = !pv_node && !cut_node;
                -self.negamax(child, new_depth, -beta, -alpha, ply + 1, pv_node, child_cut)
            }
            Verdict::None => {
                let mut score = -self.negamax(
                    child,
                    new_depth - reduction,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                    false,
                    reduction > 0 || !cut_node,
                );
                if score > alpha && reduction > 0 && !self.aborted {
                    score = -self.negamax(
                        child,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        false,
                        !cut_node,
                    );
                }
                if score > alpha && score < beta && pv_node && !self.aborted {
                    score = -self.negamax(child, new_depth, -beta, -alpha, ply + 1, true, false);
                }
                score
            }
        };
        self.pop();
        Some(score)
    }

    /// Killer and history bonuses for a quiet move that refuted, maluses for those tried before it.
    fn reward_quiet(&mut self, position: &P, mv: Move, ply: usize, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != mv {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = mv;
        }
        let bonus = (depth * depth).min(400);
        let index = self.history_index(position, mv);
        let entry = &mut self.history[index];
        *entry += bonus - *entry * bonus / 16_384;
        for &other in tried {
            let index = self.history_index(position, other);
            let entry = &mut self.history[index];
            *entry -= bonus + *entry * bonus / 16_384;
        }
    }

    /// Searches captures (and on its first ply the game's quiet checks) until the
    /// position is quiet; `depth` counts its plies from 0, and `in_check` says whether the
    /// side to move is in check, needed only while `depth` is below
    /// `QUIESCENCE_EVASION_PLIES` (false may be passed beyond).
    #[allow(clippy::too_many_arguments)]
    fn quiescence(
        &mut self,
        position: &P,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        depth: i32,
        in_check: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.out_of_budget() {
            return 0;
        }
        if depth > 0 {
            if let Some(score) = position.position_end() {
                return decided(score, ply);
            }
        }
        if ply >= MAX_PLY - 1 {
            return self.static_eval(position, depth == 0);
        }
        // The table: a stored bound of any depth settles a quiescence node, and its move
        // is tried first.
        let key = position.search_key();
        let mut hash_move = None;
        if let Some(entry) = self.table.probe(key) {
            let score = score_from_table(entry.score as i32, ply as i32);
            let settled = match entry.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
                Bound::Empty => false,
            };
            if settled && entry.depth >= 0 {
                return score;
            }
            if entry.best != Move::default() {
                hash_move = Some(entry.best);
            }
        }
        let original_alpha = alpha;
        let mut picker = self.take_picker(ply);
        let (moves, scores, verdicts) = picker.buffers();
        let mut best;
        let evasions = in_check && depth < QUIESCENCE_EVASION_PLIES;
        if evasions {
            // Evasions: every legal move, no standing pat.
            position.legal_moves(moves);
            if moves.is_empty() {
                self.give_back_picker(ply, picker);
                return -MATE + ply as i32;
            }
            best = -INFINITY;
        } else {
            best = self.static_eval(position, depth == 0);
            if best >= beta {
                self.give_back_picker(ply, picker);
                return best;
            }
            alpha = alpha.max(best);
            tactical_moves(position, moves);
            if depth == 0 {
                // The first ply also looks at quiet checks (shogi: drops that may mate).
                let tactical = moves.len();
                position.quiet_checks(moves);
                if moves.len() > tactical {
                    // Checks that are also tactical (a promotion) are in the list already.
                    moves.retain_after(tactical, |mv| !position.is_tactical(mv));
                }
            }
        }
        let count = moves.len();
        self.score_moves(position, moves, scores, verdicts, hash_move, ply);
        let stand_pat = best;
        let list = moves.as_mut_slice();
        let mut best_move = Move::default();
        for index in 0..count {
            // The first of the best from `index` on, its exchange asked before it comes
            // out (a losing capture drops, and the best is looked for again).
            let pick = loop {
                let mut pick = index;
                for other in index + 1..count {
                    if scores[other] > scores[pick] {
                        pick = other;
                    }
                }
                if !settle_exchange(position, list[pick], &mut scores[pick], &mut verdicts[pick]) {
                    break pick;
                }
            };
            list.swap(index, pick);
            scores.swap(index, pick);
            verdicts.swap(index, pick);
            let mv = list[index];
            let victim = position.victim_value(mv);
            // Delta pruning: even winning this piece cannot lift the score to alpha (a
            // quiet check is there for the mate it may lead to, not for material).
            if stand_pat > -INFINITY
                && !mv.is_promotion()
                && victim > 0
                && stand_pat + victim + 200 < alpha
            {
                continue;
            }
            // A capture that loses material by exchange rarely changes the verdict of a
            // quiet position.
            if stand_pat > -INFINITY
                && !mv.is_promotion()
                && match verdicts[index] {
                    ExchangeVerdict::NoLoss => false,
                    ExchangeVerdict::Loss => true,
                    _ => !exchange_at_least(position, mv, 0),
                }
            {
                continue;
            }
            let mut child = position.clone();
            child.play_unchecked(mv);
            self.prefetch(child.search_key());
            // Only a child that would answer with evasions needs to know it is in check.
            let child_in_check = depth + 1 < QUIESCENCE_EVASION_PLIES
                && if P::CHECK_TOLD_BEFORE_PLAYING {
                    position.gives_check_unplayed(mv)
                } else {
                    None
                }
                .unwrap_or_else(|| child.in_check());
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1, depth + 1, child_in_check);
            if self.aborted {
                self.give_back_picker(ply, picker);
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.give_back_picker(ply, picker);
        if best > -INFINITY && (evasions || depth == 0) {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.table.store(key, best_move, best, 0, bound, ply as i32);
        }
        best
    }
}

/// The plies a move searched from `position` is extended by: one for a check that loses
/// no material by exchange, where the game extends checks at the move
/// ([`EngineRules::CHECK_EXTENSION_BY_EXCHANGE`]; the root's moves too), else none.
fn check_extension<P: EngineRules>(position: &P, mv: Move, gives_check: bool) -> i32 {
    (P::CHECK_EXTENSION_BY_EXCHANGE && gives_check && exchange_at_least(position, mv, 0)) as i32
}

/// A game end the rules decided (a win or loss without mate: perpetual check, KJA points)
/// scores like a mate at this ply, so the quickest win is preferred; draws stay as they are.
#[inline]
fn decided(score: i32, ply: usize) -> i32 {
    if score >= DECIDED {
        MATE - ply as i32
    } else if score <= -DECIDED {
        -MATE + ply as i32
    } else {
        score
    }
}

/// The butterfly index of a move (from × to, or dropped kind × to), below [`HISTORY_SIZE`].
#[inline]
fn move_index(mv: Move) -> usize {
    let base = if mv.is_drop() {
        90 * 90 + (mv.from as usize & 7) * 90 + mv.to as usize
    } else {
        mv.from as usize * 90 + mv.to as usize
    };
    base.min(HISTORY_SIZE - 1)
}

/// Puts the root's moves after the first in the order of the nodes their search took,
/// most first (`subtree_nodes[i]` is the count of `moves[i]`): the moves whose refutation
/// took the most work came nearest to the best, so the next iteration tries them first
/// and its late-move reductions fall on the moves refuted at once. The first move (the
/// best before this search; a new best is brought to the front by the caller) keeps its
/// place, equal counts keep their order, and counts that do not cover every move (a
/// search cut short by a beta cutoff) change nothing.
fn order_by_subtree_nodes(moves: &mut [Move], subtree_nodes: &[u64]) {
    if moves.len() < 3 || subtree_nodes.len() != moves.len() {
        return;
    }
    let mut counted: Vec<(u64, Move)> = subtree_nodes
        .iter()
        .copied()
        .zip(moves.iter().copied())
        .collect();
    counted[1..].sort_by_key(|&(nodes, _)| std::cmp::Reverse(nodes));
    for (slot, (_, mv)) in moves.iter_mut().zip(counted) {
        *slot = mv;
    }
}

/// Late-move reduction in plies for a quiet move searched `searched`-th at `depth`: read
/// from a table for the usual depths and move counts (the logarithms cost about half a
/// percent of the search when computed at every move), computed beyond it.
#[inline]
fn lmr(depth: i32, searched: usize) -> i32 {
    static TABLE: LazyLock<[[u8; LMR_TABLE_MOVES]; LMR_TABLE_DEPTHS]> = LazyLock::new(|| {
        let mut table = [[0; LMR_TABLE_MOVES]; LMR_TABLE_DEPTHS];
        for (depth, row) in table.iter_mut().enumerate() {
            for (searched, entry) in row.iter_mut().enumerate() {
                *entry = computed_lmr(depth as i32, searched).clamp(0, u8::MAX as i32) as u8;
            }
        }
        table
    });
    match usize::try_from(depth) {
        Ok(row)
            if (1..LMR_TABLE_DEPTHS).contains(&row) && (1..LMR_TABLE_MOVES).contains(&searched) =>
        {
            TABLE[row][searched] as i32
        }
        _ => computed_lmr(depth, searched),
    }
}

/// Depths below this read [`lmr`] from its table.
const LMR_TABLE_DEPTHS: usize = 64;
/// Move counts below this read [`lmr`] from its table (shogi's drops and janggi's moves
/// often pass 64, where the logarithms still cost half a percent).
const LMR_TABLE_MOVES: usize = 256;

/// [`lmr`]'s formula.
fn computed_lmr(depth: i32, searched: usize) -> i32 {
    let value = 0.75 + (depth as f64).ln() * (searched as f64).ln() / 2.0;
    value as i32
}

/// Converts an internal score to the protocol form (mates in moves, not plies).
pub fn to_score(score: i32) -> Score {
    if score > MATE_BOUND {
        let plies = MATE - score;
        Score::Mate((plies + 1) / 2)
    } else if score < -MATE_BOUND {
        let plies = MATE + score;
        Score::Mate(-(plies / 2))
    } else {
        Score::Centipawns(score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::shogi::ShogiPosition;
    use crate::rules::xiangqi::XiangqiPosition;
    use crate::rules::Position;

    fn plan() -> Plan {
        Plan {
            soft_time: None,
            hard_time: None,
            node_limit: u64::MAX,
            depth_limit: 4,
            lines: 1,
            noise: 0,
            seed: 0,
        }
    }

    /// Plays `moves` (UCI) from `fen` on the searcher's path as the search would and
    /// returns the verdict on the last position.
    fn verdict_after<P: EngineRules>(
        root: P,
        moves: &str,
        parse: impl Fn(&P, &str) -> Move,
    ) -> Verdict {
        with_searcher(&root, |searcher| {
            let mut position = root.clone();
            let mut verdict = Verdict::None;
            for text in moves.split_whitespace() {
                let mv = parse(&position, text);
                position.play_unchecked(mv);
                searcher.push(position.search_key(), position.in_check(), false, mv);
                verdict = searcher.repetition_verdict(&position);
            }
            verdict
        })
    }

    /// Runs `body` with a searcher of `root` (one thread, a small table, fresh memory).
    fn with_searcher<P: EngineRules, R>(
        root: &P,
        body: impl FnOnce(&mut Searcher<'_, P>) -> R,
    ) -> R {
        let table = TranspositionTable::new(1);
        let mut memory = SearchMemory::default();
        let stop = AtomicBool::new(false);
        let team_nodes = AtomicU64::new(0);
        let crew = Crew {
            thread_index: 0,
            team_nodes: &team_nodes,
        };
        let mut searcher = Searcher::new(root, &[], plan(), &table, &mut memory, crew, &stop);
        body(&mut searcher)
    }

    #[test]
    fn the_reduction_table_gives_the_formula_and_larger_arguments_still_get_it() {
        for depth in 1..100 {
            for searched in 1..700 {
                assert_eq!(
                    lmr(depth, searched),
                    computed_lmr(depth, searched),
                    "depth {depth}, move {searched}"
                );
            }
        }
        assert_eq!(lmr(10, 10), 3);
        assert_eq!(lmr(3, 2), 1);
    }

    #[test]
    fn search_memory_keeps_history_between_searches_of_one_game_and_forgets_it_for_another() {
        let root = XiangqiPosition::default();
        let mut moves = MoveList::new();
        root.legal_moves(&mut moves);
        let table = TranspositionTable::new(1);
        let mut memory = SearchMemory::default();
        let stop = AtomicBool::new(false);
        let learned = |memory: &SearchMemory| memory.history.iter().filter(|&&h| h != 0).count();
        run(
            &root,
            &[],
            moves.as_slice(),
            plan(),
            &table,
            &mut memory,
            &mut [],
            &stop,
            &mut |_| {},
        );
        let after_one = learned(&memory);
        assert!(after_one > 0, "a search leaves history behind");
        assert_eq!(memory.pickers.len(), MAX_PLY + 2, "the pickers come back");
        // The same game again: the statistics are still there for the next search.
        memory.prepare::<XiangqiPosition>();
        assert_eq!(learned(&memory), after_one);
        // Another game: its moves index other squares, so everything is forgotten.
        memory.prepare::<ShogiPosition>();
        assert_eq!(learned(&memory), 0);
        assert!(memory.eval_cache.iter().all(|&slot| slot == (0, 0)));
        // A memory whose parts a panicking search never handed back is rebuilt whole.
        memory.history.clear();
        memory.pickers.clear();
        memory.prepare::<ShogiPosition>();
        assert_eq!(memory.history.len(), 2 * HISTORY_SIZE);
        assert_eq!(memory.pickers.len(), MAX_PLY + 2);
    }

    #[test]
    fn correction_history_moves_the_static_evaluation_toward_what_searches_found() {
        let root = ShogiPosition::default();
        with_searcher(&root, |searcher| {
            let raw = searcher.static_eval(&root, true);
            let slots = searcher.correction_slots(&root, true);
            // One verdict moves it a little (weight 8 of 256), many deep ones all the way,
            // and no further.
            searcher.learn_correction(slots, 100, 7);
            let after_one = searcher.static_eval(&root, true);
            assert!(
                after_one > raw && after_one < raw + 10,
                "{raw} -> {after_one}"
            );
            for _ in 0..200 {
                let error = raw + 100 - searcher.static_eval(&root, true);
                searcher.learn_correction(slots, error, 20);
            }
            assert!((raw + 95..=raw + 100).contains(&searcher.static_eval(&root, true)));
            // Never more than CORRECTION_LIMIT, however far off a search found it.
            for _ in 0..200 {
                searcher.learn_correction(slots, -5_000, 20);
            }
            let corrected = searcher.static_eval(&root, true);
            assert!((raw - CORRECTION_LIMIT..=raw - CORRECTION_LIMIT + 5).contains(&corrected));
            // The other side to move in the same key is another slot: untouched.
            let mut other_side = root.clone();
            other_side.play_null_move();
            let [other_slot, _] = searcher.correction_slots(&other_side, true);
            let [root_slot, _] = slots;
            assert_eq!(
                other_slot.unwrap() / CORRECTION_SIZE,
                1 - root_slot.unwrap() / CORRECTION_SIZE
            );
            assert_eq!(searcher.correction[other_slot.unwrap()], 0);
        });
    }

    #[test]
    fn the_move_correction_slot_needs_a_real_last_move_on_the_stack_and_a_game_that_keeps_it() {
        let root = ShogiPosition::default();
        let mut moves = MoveList::new();
        root.legal_moves(&mut moves);
        let first = moves.as_slice()[0];
        let mut child = root.clone();
        child.play_unchecked(first);
        with_searcher(&root, |searcher| {
            // The game's start: no move led here.
            assert_eq!(searcher.correction_slots(&root, true)[1], None);
            searcher.push(child.search_key(), false, false, first);
            let [by_key, by_move] = searcher.correction_slots(&child, true);
            assert!(by_key.is_some());
            let by_move = by_move.expect("a slot under the move played");
            assert!((2 * CORRECTION_SIZE..CORRECTION_ENTRIES).contains(&by_move));
            // Inside the quiescence search the stack's last move may not be the last played.
            assert_eq!(searcher.correction_slots(&child, false)[1], None);
            // After a null move there is no move to learn under.
            let mut passed = child.clone();
            passed.play_null_move();
            searcher.push(passed.search_key(), false, true, Move::default());
            assert_eq!(searcher.correction_slots(&passed, true)[1], None);
        });
        // Xiangqi keeps no table under a key, only the one under the move.
        let xiangqi = XiangqiPosition::default();
        let mut moves = MoveList::new();
        xiangqi.legal_moves(&mut moves);
        let mut child = xiangqi.clone();
        child.play_unchecked(moves.as_slice()[0]);
        with_searcher(&xiangqi, |searcher| {
            assert_eq!(searcher.correction_slots(&xiangqi, true), [None, None]);
            searcher.push(child.search_key(), false, false, moves.as_slice()[0]);
            let [by_key, by_move] = searcher.correction_slots(&child, true);
            assert_eq!(by_key, None);
            assert!(by_move
                .is_some_and(|slot| (2 * CORRECTION_SIZE..CORRECTION_ENTRIES).contains(&slot)));
        });
    }

    #[test]
    fn a_search_leaves_corrections_for_the_next_and_a_new_game_forgets_them() {
        let root = ShogiPosition::default();
        let mut moves = MoveList::new();
        root.legal_moves(&mut moves);
        let table = TranspositionTable::new(1);
        let mut memory = SearchMemory::default();
        let stop = AtomicBool::new(false);
        let mut deeper = plan();
        deeper.depth_limit = 6;
        run(
            &root,
            &[],
            moves.as_slice(),
            deeper,
            &table,
            &mut memory,
            &mut [],
            &stop,
            &mut |_| {},
        );
        let learned = |memory: &SearchMemory| memory.correction.iter().filter(|&&c| c != 0).count();
        assert!(learned(&memory) > 0, "a search leaves corrections behind");
        // Shogi learns under the previous move too (the entries after the keyed ones).
        let by_move = memory.correction[2 * CORRECTION_SIZE..]
            .iter()
            .filter(|&&c| c != 0)
            .count();
        assert!(by_move > 0, "corrections under the previous move");
        memory.prepare::<XiangqiPosition>();
        assert_eq!(learned(&memory), 0);
    }

    #[test]
    fn xiangqi_perpetual_check_in_the_search_loses_for_the_checker_and_a_quiet_repeat_is_a_draw() {
        let fen = "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1";
        let parse = |p: &XiangqiPosition, t: &str| p.parse_uci(t).unwrap();
        // Red checks with every move and the position comes back.
        let checking = "a1a10 e10e9 a10a9 e9e10 a9a10";
        let root = XiangqiPosition::from_fen(fen).unwrap();
        let mut after_first = root.clone();
        after_first.play_unchecked(parse(&root, "a1a10"));
        assert!(after_first.in_check());
        let verdict = verdict_after(after_first, &checking[6..], parse);
        // Judged: Red, who checked throughout, loses; Black, to move, scores it as won.
        assert!(matches!(verdict, Verdict::Ends(score) if score == DECIDED));
        // No checks: a position repeated inside the search scores as a draw.
        let quiet = "a1b1 e10e9 b1a1 e9e10";
        let verdict = verdict_after(XiangqiPosition::from_fen(fen).unwrap(), quiet, parse);
        assert!(matches!(verdict, Verdict::Ends(0)));
        // Not yet repeated: no verdict.
        let verdict = verdict_after(
            XiangqiPosition::from_fen(fen).unwrap(),
            "a1b1 e10e9 b1a1",
            parse,
        );
        assert!(matches!(verdict, Verdict::None));
    }

    #[test]
    fn shogi_repetition_by_a_side_checking_throughout_loses_for_the_checker() {
        // Sente's rook checks on every move; Gote's king steps back and forth.
        let root = ShogiPosition::from_any("4k4/9/9/9/9/9/9/9/R3K4 b - 1").unwrap();
        let parse = |p: &ShogiPosition, t: &str| {
            let mut moves = crate::rules::MoveList::new();
            p.legal_moves(&mut moves);
            *moves
                .iter()
                .find(|&&m| p.move_to_uci(m) == t)
                .unwrap_or_else(|| panic!("{t}"))
        };
        let checking = "a1a9 e9d8 a9a8 d8e9 a8a9";
        let verdict = verdict_after(root.clone(), checking, parse);
        // After i8i9 Gote's king is in check again and Sente checked throughout the
        // cycle: Sente (who just moved) loses, so Gote to move scores it as won.
        assert!(
            matches!(verdict, Verdict::Ends(score) if score == DECIDED),
            "verdict"
        );
        let quiet = "a1b1 e9d9 b1a1 d9e9";
        assert!(matches!(
            verdict_after(root, quiet, parse),
            Verdict::Ends(0)
        ));
    }

    #[test]
    fn root_moves_after_the_first_are_ordered_by_their_subtrees_and_none_is_lost() {
        let mv = |to: u8| Move {
            from: 0,
            to,
            ..Move::default()
        };
        let mut moves = [mv(1), mv(2), mv(3), mv(4), mv(5)];
        order_by_subtree_nodes(&mut moves, &[10, 7, 900, 7, 40]);
        // The best stays first even with the smallest count; equal counts keep their order.
        assert_eq!(moves, [mv(1), mv(3), mv(5), mv(2), mv(4)]);
        // Counts that do not cover every move (a search cut short) change nothing.
        order_by_subtree_nodes(&mut moves, &[5, 500]);
        assert_eq!(moves, [mv(1), mv(3), mv(5), mv(2), mv(4)]);
    }

    #[test]
    fn mate_scores_count_moves_and_prefer_the_nearer_mate() {
        assert_eq!(to_score(MATE - 1), Score::Mate(1));
        assert_eq!(to_score(MATE - 3), Score::Mate(2));
        assert_eq!(to_score(-MATE + 2), Score::Mate(-1));
        assert!(
            decided(DECIDED, 3) > decided(DECIDED, 5),
            "a nearer decided win scores higher"
        );
        assert_eq!(decided(0, 7), 0);
    }
}
