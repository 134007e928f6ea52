//! The CPU opponent: search and evaluation over the rules engine.
//!
//! [`best_move`] (or [`Engine::search`], which keeps its transposition table
//! between moves) is the entry point the interface and the protocols use; it
//! runs on the caller's thread and stops as soon as `stop` is set. The search
//! itself ([`search`]) is generic over the game and compiled once per game;
//! [`eval`] holds each game's evaluation and its reading of the rules' endings.

pub mod eval;
pub mod mate;
pub mod perception;
pub mod picker;
#[cfg(test)]
mod playouts;
pub mod report;
pub mod search;
pub mod see;
pub mod table;
pub mod tuned;
pub mod tuned_relations;

use crate::rules::any::{AnyPosition, GameKind, PieceKind};
use crate::rules::game::Game;
use crate::rules::janggi::JanggiPosition;
use crate::rules::shogi::ShogiPosition;
use crate::rules::xiangqi::XiangqiPosition;
use crate::rules::{Move, Position, Side};
use eval::EngineRules;
use std::sync::atomic::AtomicBool;
use std::time::Duration;
use table::TranspositionTable;

/// How long or how deep to think. Every field left at its default imposes no limit;
/// with no limit at all the search thinks for one second.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Stop after this depth.
    pub depth: Option<u32>,
    /// Stop after about this many nodes (levels use this, so a level plays alike on any machine).
    pub nodes: Option<u64>,
    /// Think exactly this long (the whole of it, unless a mate is found or only one move is legal).
    pub movetime: Option<Duration>,
    /// The side to move's remaining clock time (a budget per move is worked out from it).
    pub time_left: Option<Duration>,
    /// The side to move's increment per move (Fischer).
    pub increment: Duration,
    /// Byoyomi: time per move once the main time is used up (shogi, janggi clocks).
    pub byoyomi: Duration,
    /// Moves until the next time control, when the clock has one.
    pub moves_to_go: Option<u32>,
    /// Think until stopped (`go infinite`).
    pub infinite: bool,
    /// Evaluation noise in centipawns: weaker levels misjudge positions the way people do.
    pub noise: u32,
    /// Seed of the noise: the same seed and position give the same move.
    pub seed: u64,
    /// How often the level fails to see a move, in per mille for the easiest to miss
    /// (distant, over a screen): weaker levels overlook threats the way people do
    /// ([`perception`]). 0 sees everything.
    pub blindness: u32,
    /// How many best lines to search and report (MultiPV): the best move, the second
    /// best, and so on, each with its own score and line. 0 and 1 both mean one line.
    pub multipv: u32,
}

/// The strongest level: full strength, using the whole move time.
pub const MAX_LEVEL: u8 = 10;

/// Shogi's own rows for levels 1 to 4 and 9, (level, (nodes, noise, blindness)), in place
/// of the table's.
///
/// Drops give shogi about twice the legal moves of xiangqi (some 60 in the middle game
/// against 30), so a budget reaches about a ply less: at the table's 500 and 1,000 nodes
/// levels 2 and 3 both stop at depth 1–2, and shogi's level 3 scored 41–45% against its
/// level 2 over 100 games (sessions 6 and 7, `tools/STRENGTH.md`) where xiangqi's and
/// janggi's score 63–70%. More nodes alone (1,800) or a weaker level 2 did not help
/// (50%, 42%); level 3 at 2,000 nodes and a little less noise and blindness scores 61%,
/// and level 4 moves up with it (4 vs 3 72%, 5 vs 4 67%; session 8). As the evaluation
/// grew, that level 3 came to score 81% against level 2 (session 14); at 1,500 nodes, 75 cp
/// and 22% it scores 68% (session 15). Level 4 then scored 77% against it and level 5 only
/// 56% against level 4; at 4,000 nodes, 60 cp and 18% level 4 scores 72% and level 5 70%.
///
/// Level 1: as shogi's evaluation grew (threats, piece-square tables), the table's level 1
/// came to beat the script player that only avoids hanging pieces (38 of 60 games, session
/// 14), where issue 17 wants a beginner who loses most games to it. At 100 nodes, 135 cp
/// of noise and 42.5% of moves overlooked it loses most of them again; 60 nodes, 150 cp and
/// 45% lost nearly all (2 of 29) and level 2 then scored 91% against it, too far a step.
///
/// Level 2 was the row the table had until session 16 (when xiangqi's and janggi's levels
/// 2–4 moved up), 500 nodes, 100 cp and 30%, measured at 80% against level 1 and 68%
/// below level 3.
///
/// Session 25 found the evaluation's growth had undone levels 1 and 2 again: level 1 won
/// 53 of 100 games against the script player and level 2 scored 88% against level 1.
/// Level 1 at 90 nodes, 138 cp and 43.2% loses 39 of 60 to the script player; level 2 had
/// to come down with it (at 350 and 250 nodes it still scored 91% and 87% against that
/// level 1): at 180 nodes, 120 cp and 38% it scores 69% against level 1 and level 3 71%
/// against it.
///
/// Level 9 gained more than level 8 from the root's late-move reductions (session 27): at
/// the table's 180,000 nodes it scored 82% against level 8; at 130,000 it stays in the
/// band.
const SHOGI_ROWS: [(u8, LevelRow); 5] = [
    (1, (90, 138, 432)),
    (2, (180, 120, 380)),
    (3, (1_500, 75, 220)),
    (4, (4_000, 60, 180)),
    (9, (130_000, 11, 30)),
];

/// Janggi's own rows for levels 1 and 5, (level, (nodes, noise, blindness)), in place of
/// the table's.
///
/// The table's level 1 (150 nodes, 120 cp, 40%) lost 45 of 60 games to the script player
/// that only avoids hanging pieces in session 16; after janggi's threat terms (session
/// 19) it won 53 of 100 (session 25; the correction history of session 23 never reached
/// the levels, see `perception::Perceived`). At 100 nodes, 135 cp and 45% of moves
/// overlooked it loses most of them again, and level 2 scores 76% against it.
///
/// Level 5 gained more from those evaluation terms than level 6: at the table's row
/// (7,000 nodes, 45 cp, 13%) it scored 67% against level 4 but level 6 only 54.5% against
/// it (session 25). At 5,500 nodes, 48 cp and 14% level 5 scores 63% against level 4 and
/// level 6 72% against it (session 26).
const JANGGI_ROWS: [(u8, LevelRow); 2] = [(1, (100, 135, 450)), (5, (5_500, 48, 140))];

/// A level's settings: nodes, evaluation noise in centipawns, blindness in per mille.
type LevelRow = (u64, u32, u32);

/// Limits for a CPU level from 1 (beginner) to 10 (expert) in `game`, thinking at most
/// `move_time`.
///
/// Levels 1–9 are set by node counts, blind spots and a little evaluation noise, so a
/// level plays the same on a fast or a slow machine; `move_time` only caps them. Level 10 has no node cap
/// and uses the whole move time. The game matters only where its ladder asked for other
/// rows (`SHOGI_ROWS`, `JANGGI_ROWS`).
pub fn limits_for_level(game: GameKind, level: u8, move_time: Duration) -> Limits {
    let level = level.clamp(1, MAX_LEVEL);
    // (nodes, noise in centipawns, blindness in per mille) per level: a weak level
    // looks at little, misjudges a little and, above all, overlooks moves.
    //
    // Levels 2–4 were 500/100/300, 1,000/80/250 and 2,200/60/200 until session 16, when
    // the stronger engine had made level 5 score 90% (xiangqi) and 81% (janggi) against
    // level 4, and janggi's level 3 only 58% against level 2; with these rows every step
    // from 2 vs 1 to 5 vs 4 scores 63–77% in both games (tools/STRENGTH.md "Session 16").
    const TABLE: [LevelRow; 9] = [
        (150, 120, 400),
        (650, 95, 285),
        (1_500, 70, 225),
        (3_500, 55, 170),
        (7_000, 45, 130),
        (15_000, 30, 100),
        (30_000, 22, 70),
        (70_000, 16, 50),
        (180_000, 11, 30),
    ];
    let mut limits = Limits {
        movetime: Some(move_time),
        ..Limits::default()
    };
    if level < MAX_LEVEL {
        let own_rows: &[(u8, LevelRow)] = match game {
            GameKind::Shogi => &SHOGI_ROWS,
            GameKind::Janggi => &JANGGI_ROWS,
            _ => &[],
        };
        let (nodes, noise, blindness) = own_rows
            .iter()
            .find(|(at, _)| *at == level)
            .map_or(TABLE[level as usize - 1], |&(_, row)| row);
        limits.nodes = Some(nodes);
        limits.noise = noise;
        limits.blindness = blindness;
        limits.seed = 0x51_7C_C1_B7_27_22_0A_95 ^ level as u64;
    }
    limits
}

/// The name of a level for the interface: Korean (입문 … 고수) or English (beginner … expert).
pub fn level_name(level: u8, korean: bool) -> &'static str {
    const KOREAN: [&str; 10] = [
        "입문",
        "초보",
        "초급",
        "하수",
        "중수",
        "중상수",
        "상수",
        "강자",
        "준고수",
        "고수",
    ];
    const ENGLISH: [&str; 10] = [
        "beginner",
        "novice",
        "elementary",
        "casual",
        "intermediate",
        "club player",
        "advanced",
        "strong",
        "master",
        "expert",
    ];
    let index = level.clamp(1, MAX_LEVEL) as usize - 1;
    if korean {
        KOREAN[index]
    } else {
        ENGLISH[index]
    }
}

/// A score from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

/// Progress of a search, reported after each completed depth.
#[derive(Clone, Debug)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Which of the best lines this is: 1 for the best, 2 for the second best, … (the
    /// protocols' `multipv`; always 1 unless [`Limits::multipv`] asks for more).
    pub multipv: u32,
    /// The score of the best line.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search began.
    pub elapsed: Duration,
    /// The best line, first move first.
    pub principal_variation: Vec<Move>,
}

/// Material value of a piece kind, in hundredths of a pawn.
pub fn piece_value(kind: PieceKind) -> i32 {
    match kind {
        PieceKind::General | PieceKind::King => 0,
        PieceKind::Advisor => 200,
        PieceKind::Elephant => 200,
        PieceKind::Horse => 400,
        PieceKind::Chariot => 900,
        PieceKind::Cannon => 450,
        PieceKind::Soldier => 100,
        PieceKind::Pawn => 100,
        PieceKind::Lance => 350,
        PieceKind::Knight => 400,
        PieceKind::Silver => 550,
        PieceKind::Gold => 600,
        PieceKind::Bishop => 800,
        PieceKind::Rook => 1000,
        PieceKind::Tokin
        | PieceKind::PromotedLance
        | PieceKind::PromotedKnight
        | PieceKind::PromotedSilver => 600,
        PieceKind::PromotedBishop => 1050,
        PieceKind::Dragon => 1250,
    }
}

/// Material balance from the side to move's point of view (pieces in hand count too).
pub fn evaluate(position: &AnyPosition) -> i32 {
    let mut total = 0;
    for square in 0..position.ranks() * 9 {
        if let Some(piece) = position.piece_on(square) {
            let value = piece_value(piece.kind);
            total += if piece.side == Side::First {
                value
            } else {
                -value
            };
        }
    }
    for side in [Side::First, Side::Second] {
        for (kind, count) in position.hand(side) {
            let value = piece_value(kind) * count as i32;
            total += if side == Side::First { value } else { -value };
        }
    }
    if position.side_to_move() == Side::First {
        total
    } else {
        -total
    }
}

/// The most lines a MultiPV search reports (more would only repeat the move list).
pub const MAX_LINES: u32 = 500;

/// Time kept back from every clock budget (main time, byoyomi) for the protocol and the
/// operating system; a `movetime` keeps back [`MOVETIME_RESERVE`] at most.
const TIME_RESERVE: Duration = Duration::from_millis(30);

/// The most kept back from a `movetime` for stopping the search and sending the answer.
const MOVETIME_RESERVE: Duration = Duration::from_millis(5);

/// Works out the search plan (soft and hard time, nodes, depth) from the limits.
fn plan_for(limits: &Limits) -> search::Plan {
    let mut soft: Option<Duration> = None;
    let mut hard: Option<Duration> = None;
    let mut hard_cap = |value: Duration| {
        hard = Some(hard.map_or(value, |h: Duration| h.min(value)));
    };
    if let Some(movetime) = limits.movetime {
        // `movetime` is searched whole, as Stockfish and Fairy-Stockfish do: only the
        // moment it takes to stop and answer is kept back (1%, at most 5 ms).
        let margin = (movetime / 100).min(MOVETIME_RESERVE);
        hard_cap(
            movetime
                .saturating_sub(margin)
                .max(Duration::from_millis(1)),
        );
    }
    if let Some(left) = limits.time_left {
        let moves_to_go = limits.moves_to_go.unwrap_or(30).clamp(1, 60);
        let spare = left.saturating_sub(TIME_RESERVE);
        let byoyomi = limits.byoyomi.saturating_sub(TIME_RESERVE);
        let base = spare / moves_to_go + limits.increment * 3 / 4;
        // Never more than a third of the main time (half on the last move before a control).
        let ceiling = if moves_to_go == 1 {
            spare / 2
        } else {
            spare / 3
        } + byoyomi;
        let target = (base + byoyomi).min(ceiling);
        soft = Some(target);
        hard_cap(ceiling.min(target * 4).max(Duration::from_millis(5)));
    }
    let nothing_given = limits.depth.is_none()
        && limits.nodes.is_none()
        && limits.movetime.is_none()
        && limits.time_left.is_none()
        && !limits.infinite;
    if nothing_given {
        hard_cap(Duration::from_secs(1));
    }
    if limits.infinite {
        soft = None;
        hard = None;
    }
    search::Plan {
        soft_time: soft,
        hard_time: hard,
        node_limit: limits.nodes.unwrap_or(u64::MAX).max(1),
        depth_limit: limits
            .depth
            .map_or(search::MAX_PLY as i32, |d| d.max(1) as i32),
        lines: limits.multipv.clamp(1, MAX_LINES) as usize,
        noise: limits.noise.min(1_000) as i32,
        seed: limits.seed,
    }
}

/// A CPU player that keeps what it learned (its transposition table, its move-ordering
/// memory) from move to move.
pub struct Engine {
    table: TranspositionTable,
    /// Move-ordering statistics and cached evaluations kept from move to move.
    memory: search::SearchMemory,
    /// The same for each helper thread (one fewer than the threads searching).
    helpers: Vec<search::SearchMemory>,
    megabytes: usize,
}

impl Default for Engine {
    fn default() -> Self {
        Engine::new(Engine::DEFAULT_HASH_MEGABYTES)
    }
}

impl Engine {
    /// The transposition table size when nobody sets one.
    pub const DEFAULT_HASH_MEGABYTES: usize = 16;

    /// An engine with a transposition table of about `megabytes` MB.
    pub fn new(megabytes: usize) -> Engine {
        Engine {
            table: TranspositionTable::new(megabytes),
            memory: search::SearchMemory::default(),
            helpers: Vec::new(),
            megabytes,
        }
    }

    /// The most threads one search may use.
    pub const MAX_THREADS: usize = 64;

    /// How many threads a search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Sets how many threads a search uses (1 to [`Engine::MAX_THREADS`]). Searches with a
    /// node limit, noise or blind spots (the levels below 10) always use one, so that they
    /// stay reproducible.
    pub fn set_threads(&mut self, threads: usize) {
        let helpers = threads.clamp(1, Engine::MAX_THREADS) - 1;
        self.helpers
            .resize_with(helpers, search::SearchMemory::default);
    }

    /// The table size in MB.
    pub fn hash_megabytes(&self) -> usize {
        self.megabytes
    }

    /// Resizes the transposition table (forgetting its content).
    pub fn set_hash_megabytes(&mut self, megabytes: usize) {
        if megabytes != self.megabytes {
            let threads = self.threads();
            *self = Engine::new(megabytes);
            self.set_threads(threads);
        }
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.table.clear();
        self.memory.clear();
        for helper in &mut self.helpers {
            helper.clear();
        }
    }

    /// Finds a move for the side to move of `game` within `limits`; `report` hears each
    /// completed depth. Returns `None` only when the game is over (no legal move).
    pub fn search(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<Move> {
        self.search_lines(game, limits, stop, report)
            .map(|outcome| outcome.best)
    }

    /// Like [`Engine::search`], returning the whole outcome: the move to play and the
    /// best lines of the last completed depth ([`Limits::multipv`] of them, best first),
    /// each with its score, depth and principal variation. `None` when the game is over.
    pub fn search_lines(
        &mut self,
        game: &Game,
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<search::Outcome> {
        let moves = game.legal_moves();
        self.search_among(game, moves.as_slice(), limits, stop, report)
    }

    /// Like [`Engine::search_lines`], choosing only among `root_moves` (legal moves of
    /// the game; UCCI's `banmoves` leaves some out). `None` when the list is empty.
    pub fn search_among(
        &mut self,
        game: &Game,
        root_moves: &[Move],
        limits: Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(&SearchInfo),
    ) -> Option<search::Outcome> {
        if root_moves.is_empty() {
            return None;
        }
        self.table.new_search();
        let plan = plan_for(&limits);
        let sight = Sight {
            blindness: limits.blindness.min(1_000),
            seed: limits.seed,
        };
        let reproducible = plan.node_limit != u64::MAX || plan.noise != 0 || sight.blindness != 0;
        let helpers: &mut [search::SearchMemory] = if reproducible {
            &mut []
        } else {
            &mut self.helpers
        };
        let table = &mut self.table;
        let memory = &mut self.memory;
        Some(match game.position() {
            AnyPosition::Xiangqi(p) => run_search::<XiangqiPosition>(
                p, game, root_moves, plan, sight, table, memory, helpers, stop, report,
            ),
            AnyPosition::Janggi(p) => run_search::<JanggiPosition>(
                p, game, root_moves, plan, sight, table, memory, helpers, stop, report,
            ),
            AnyPosition::Shogi(p) => run_search::<ShogiPosition>(
                p, game, root_moves, plan, sight, table, memory, helpers, stop, report,
            ),
        })
    }
}

/// The search's static evaluation of `position` in centipawns for the side to move
/// (what a quiet position is worth to the search, before any move is looked at).
pub fn static_evaluation(position: &AnyPosition) -> i32 {
    use eval::EngineRules;
    match position {
        AnyPosition::Xiangqi(p) => p.evaluate(),
        AnyPosition::Janggi(p) => p.evaluate(),
        AnyPosition::Shogi(p) => p.evaluate(),
    }
}

/// The evaluation the levels search with (what levels 1–9 think a quiet position is worth):
/// the static evaluation, but in shogi without the king relations and hand steps fitted
/// after the levels were measured (`EngineRules::ladder_evaluate`).
pub fn ladder_evaluation(position: &AnyPosition) -> i32 {
    use eval::EngineRules;
    match position {
        AnyPosition::Xiangqi(p) => p.ladder_evaluate(),
        AnyPosition::Janggi(p) => p.ladder_evaluate(),
        AnyPosition::Shogi(p) => p.ladder_evaluate(),
    }
}

/// The terms of a shogi position's evaluation ([`eval::shogi_terms`], then
/// [`eval::shogi_square_terms`], then [`eval::shogi_relation_terms`]), whose weighted sum
/// is the evaluation: `tools/tune_eval.py` fits the weights of the first two parts to
/// them, `tools/results/session38/fit_king_relations.py` the third's; `None` for the
/// other games, whose fitted features the script computes itself.
pub fn evaluation_terms(position: &AnyPosition) -> Option<Vec<i32>> {
    match position {
        AnyPosition::Shogi(p) => {
            let mut terms = eval::shogi_terms(p).to_vec();
            terms.extend(eval::shogi_square_terms(p));
            terms.extend(eval::shogi_relation_terms(p));
            Some(terms)
        }
        _ => None,
    }
}

/// A level's blind spots for one search: how blind, and the level's seed.
#[derive(Clone, Copy)]
struct Sight {
    blindness: u32,
    seed: u64,
}

/// Builds the history stack of the game (positions before the root) and runs the search,
/// through the level's eyes when it has blind spots ([`perception::Perceived`]).
#[allow(clippy::too_many_arguments)]
fn run_search<P: EngineRules>(
    root: &P,
    game: &Game,
    root_moves: &[Move],
    plan: search::Plan,
    sight: Sight,
    table: &mut TranspositionTable,
    memory: &mut search::SearchMemory,
    helpers: &mut [search::SearchMemory],
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> search::Outcome {
    let positions = game.positions();
    let history: Vec<(u64, bool)> = positions[..positions.len() - 1]
        .iter()
        .filter_map(|any| P::from_any(any).map(|p| (p.search_key(), p.in_check())))
        .collect();
    if sight.blindness == 0 {
        return search::run(
            root, &history, root_moves, plan, table, memory, helpers, stop, report,
        );
    }
    let perception = perception::Perception {
        side: root.side_to_move(),
        blindness: sight.blindness,
        seed: sight.seed ^ root.search_key().rotate_left(23),
    };
    let in_check = root.in_check();
    let mut seen: Vec<Move> = root_moves
        .iter()
        .copied()
        .filter(|&mv| in_check || !perception.misses(root, mv))
        .collect();
    if seen.is_empty() {
        seen = root_moves.to_vec();
    }
    // What was believed through last turn's blind spots must not leak into this turn's.
    table.clear();
    memory.clear();
    let perceived = perception::Perceived {
        position: root.clone(),
        perception,
    };
    search::run(
        &perceived,
        &history,
        &seen,
        plan,
        table,
        memory,
        &mut [],
        stop,
        report,
    )
}

/// Finds a move for the side to move of `game` within `limits`; `report` hears each completed depth.
///
/// A fresh engine each call (16 MB table); keep an [`Engine`] to reuse the table between moves.
/// Returns `None` only when the game is over or there is no legal move.
pub fn best_move(
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    report: &mut dyn FnMut(&SearchInfo),
) -> Option<Move> {
    Engine::default().search(game, limits, stop, report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;

    #[test]
    fn finds_a_mate_in_one_in_xiangqi() {
        // Red chariot a1 to a10 mates: the chariot on a9 holds rank 9, the one on a10 rank 10.
        let position = Variant::Xiangqi
            .position_from_fen("4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1")
            .unwrap();
        let game = Game::new(position);
        let stop = AtomicBool::new(false);
        let limits = Limits {
            depth: Some(2),
            ..Limits::default()
        };
        let mv = best_move(&game, limits, &stop, &mut |_| {}).unwrap();
        let mut after = game.clone();
        after.play(mv).unwrap();
        assert!(
            after.outcome().is_some(),
            "expected mate, got {}",
            game.position().move_to_uci(mv)
        );
    }

    #[test]
    fn shogi_and_janggi_own_rows_differ_from_the_table_where_their_ladders_asked() {
        let time = Duration::from_secs(1);
        let table = limits_for_level(GameKind::Xiangqi, 1, time);
        for game in [GameKind::Shogi, GameKind::Janggi] {
            let own = limits_for_level(game, 1, time);
            assert!(own.nodes < table.nodes, "{game:?}");
            assert!(
                own.noise > table.noise && own.blindness > table.blindness,
                "{game:?}"
            );
        }
        let table_2 = limits_for_level(GameKind::Xiangqi, 2, time);
        // Janggi's level 2 plays the table's row; its level 5 looks at less than the
        // table's, which had made level 6 only 54.5% against it.
        assert_eq!(limits_for_level(GameKind::Janggi, 2, time), table_2);
        let table_5 = limits_for_level(GameKind::Xiangqi, 5, time);
        let janggi_5 = limits_for_level(GameKind::Janggi, 5, time);
        assert!(janggi_5.nodes < table_5.nodes && janggi_5.noise > table_5.noise);
        // Shogi's level 2 keeps the row its ladder measured, below the table's.
        let shogi_2 = limits_for_level(GameKind::Shogi, 2, time);
        assert!(shogi_2.nodes < table_2.nodes && shogi_2.noise > table_2.noise);
        // Shogi's level 9 looks at less than the table's, which scored 82% against level 8
        // once the root's late moves were reduced; its noise and blind spots are the table's.
        let table_9 = limits_for_level(GameKind::Xiangqi, 9, time);
        let shogi_9 = limits_for_level(GameKind::Shogi, 9, time);
        assert!(shogi_9.nodes < table_9.nodes);
        assert_eq!(
            (shogi_9.noise, shogi_9.blindness),
            (table_9.noise, table_9.blindness)
        );
    }

    #[test]
    fn levels_look_further_and_err_less_as_they_rise_in_every_game() {
        let time = Duration::from_secs(1);
        for game in [GameKind::Xiangqi, GameKind::Janggi, GameKind::Shogi] {
            for level in 1..MAX_LEVEL - 1 {
                let lower = limits_for_level(game, level, time);
                let upper = limits_for_level(game, level + 1, time);
                assert!(upper.nodes > lower.nodes, "{game:?} level {}", level + 1);
                assert!(upper.noise < lower.noise, "{game:?} level {}", level + 1);
                assert!(
                    upper.blindness < lower.blindness,
                    "{game:?} level {}",
                    level + 1
                );
            }
            // Level 10 is the whole move time, with no cap, noise or blind spot.
            let top = limits_for_level(game, MAX_LEVEL, time);
            assert_eq!((top.nodes, top.noise, top.blindness), (None, 0, 0));
        }
    }

    #[test]
    fn helper_threads_join_only_searches_without_a_node_budget() {
        let game = Game::from_variant(Variant::Janggi(crate::rules::janggi::JanggiRules::KJA));
        let stop = AtomicBool::new(false);
        let by_nodes = Limits {
            nodes: Some(20_000),
            ..Limits::default()
        };
        // A node budget (the levels) stays one thread: the same search, move and count.
        let mut alone = Engine::new(1);
        let mut crew = Engine::new(1);
        crew.set_threads(3);
        assert_eq!(crew.threads(), 3);
        let one = alone
            .search_lines(&game, by_nodes, &stop, &mut |_| {})
            .unwrap();
        let three = crew
            .search_lines(&game, by_nodes, &stop, &mut |_| {})
            .unwrap();
        assert_eq!((one.best, one.nodes), (three.best, three.nodes));
        // A depth search runs the helpers: a legal move, and their nodes are counted.
        let mut crew = Engine::new(1);
        crew.set_threads(2);
        let by_depth = Limits {
            depth: Some(7),
            ..Limits::default()
        };
        let mut reported = 0;
        let outcome = crew
            .search_lines(&game, by_depth, &stop, &mut |info| reported = info.nodes)
            .unwrap();
        assert!(game.legal_moves().as_slice().contains(&outcome.best));
        assert_eq!(outcome.lines[0].depth, 7);
        assert!(outcome.nodes >= reported && reported > 0);
        assert!(
            crew.helpers[0].learned() > 0,
            "the helper searched and kept its move-ordering statistics"
        );
        // Resizing the table keeps the thread count; the count is clamped.
        crew.set_hash_megabytes(2);
        assert_eq!(crew.threads(), 2);
        crew.set_threads(0);
        assert_eq!(crew.threads(), 1);
        crew.set_threads(1_000);
        assert_eq!(crew.threads(), Engine::MAX_THREADS);
    }
}
