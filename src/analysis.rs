//! Whole-game analysis: every position of a line searched with the same budget, by the
//! built-in engine (one transposition table kept along the game) or an external engine,
//! and every played move judged by how much expected score it gave away.
//!
//! The judgement follows lichess: a score becomes a winning percentage by a logistic
//! curve, and a move that loses at least [`INACCURACY_LOSS`], [`MISTAKE_LOSS`] or
//! [`BLUNDER_LOSS`] percentage points for its player is marked `?!`, `?` or `??`. qipan's
//! scores are in its own units per game (a xiangqi horse is 400, a janggi horse 500, a
//! shogi pawn 90), so each game has its own slope ([`slope`]), chosen so that the same
//! material edge means about the same winning chances as in chess.
//!
//! Sits below `app` (the terminal client runs it on a worker) and above `engine`,
//! `rules` and the protocol client. No printing: progress goes to a callback, and a
//! stop flag cancels.

use crate::engine::{search::Outcome, Engine, Limits, Score, SearchInfo};
use crate::i18n::{Key, Language};
use crate::protocol::client::{EngineError, EngineMove, ExternalEngine};
use crate::record::{Format, GameRecord};
use crate::rules::any::{AnyPosition, GameKind};
use crate::rules::game::Game;
use crate::rules::notation::{default_notation, format_move_after, Notation};
use crate::rules::{IllegalMove, Move, MoveList, Outcome as GameOutcome, Position, Side};
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use unicode_width::UnicodeWidthChar;

/// The winning-chance slope of lichess's formula per chess centipawn
/// (win% = 50 + 50·(2/(1+exp(−0.00368208·cp)) − 1), lichess-org/lila pull request 11148).
pub const LICHESS_SLOPE: f64 = 0.003_682_08;
/// lichess reads no score beyond ±1000 centipawns (about 97.5% to win): a won position
/// that stays won is no mistake. The same winning chance caps every game.
pub const CAPPED_CHESS_CENTIPAWNS: f64 = 1000.0;
/// An inaccuracy (`?!`) gives away at least this many percentage points of winning
/// chance (lichess: 0.1 of winning chances on its −1…1 scale).
pub const INACCURACY_LOSS: f64 = 5.0;
/// A mistake (`?`) gives away at least this many points (lichess: 0.2).
pub const MISTAKE_LOSS: f64 = 10.0;
/// A blunder (`??`) gives away at least this many points (lichess: 0.3).
pub const BLUNDER_LOSS: f64 = 15.0;

/// The nodes searched per position when nobody says: a 100-ply game takes about 40 s
/// (xiangqi) to a minute (shogi) of one core of the development machine, measured with
/// `tools/analysis_time.py`. A node budget, not a time, so the marks are the same on
/// every machine.
pub const DEFAULT_NODES: u64 = 500_000;

/// The slope of the winning-chance curve per unit of qipan's score in `game`.
///
/// - Xiangqi: a horse is 400 where chess's knight is 300, so 300/400 of lichess's slope.
/// - Janggi: a horse is 500 (KJA points × 100), so 300/500 of lichess's slope.
/// - Shogi: the logistic that shogi engines have long used, win = 1/(1+exp(−score/600))
///   (Ponanza's constant, on the scale where a pawn is about 90–100, as qipan's is).
pub fn slope(game: GameKind) -> f64 {
    match game {
        GameKind::Xiangqi => LICHESS_SLOPE * 300.0 / 400.0,
        GameKind::Janggi => LICHESS_SLOPE * 300.0 / 500.0,
        GameKind::Shogi => 1.0 / 600.0,
    }
}

/// How good a position is, from the first player's view (Red, Cho, Sente).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The engine's score in its units (qipan's: see [`slope`]); positive favours the first player.
    Units(i32),
    /// A forced mate found by the search.
    Mate {
        /// The side that mates.
        winner: Side,
        /// In this many of the winner's moves (0: the game is already won on the board).
        moves: u32,
    },
    /// The game is over in this position by the rules: the winner, `None` for a draw.
    Over(Option<Side>),
}

impl Evaluation {
    /// A search score, which is from `mover`'s view, turned to the first player's view.
    pub fn from_score(score: Score, mover: Side) -> Evaluation {
        match score {
            Score::Centipawns(units) => {
                Evaluation::Units(if mover == Side::First { units } else { -units })
            }
            Score::Mate(moves) => Evaluation::Mate {
                winner: if moves > 0 { mover } else { mover.opponent() },
                moves: moves.unsigned_abs(),
            },
        }
    }

    /// `side`'s chance to win in percent (0–100), by the game's curve.
    pub fn win_percent(self, game: GameKind, side: Side) -> f64 {
        let first = match self {
            Evaluation::Units(units) => {
                let cap = LICHESS_SLOPE * CAPPED_CHESS_CENTIPAWNS;
                let x = (slope(game) * units as f64).clamp(-cap, cap);
                100.0 / (1.0 + (-x).exp())
            }
            Evaluation::Mate { winner, .. } | Evaluation::Over(Some(winner)) => {
                if winner == Side::First {
                    100.0
                } else {
                    0.0
                }
            }
            Evaluation::Over(None) => 50.0,
        };
        if side == Side::First {
            first
        } else {
            100.0 - first
        }
    }

    /// The evaluation as players of `game` write it: pawns with two decimals for xiangqi
    /// and janggi (`+0.35`), whole units for shogi (`+123`, as shogi software shows
    /// 評価値); `M5` / `-M5` for a mate by the first / second player; `1-0`, `0-1`,
    /// `1/2-1/2` for a game over.
    pub fn text(self, game: GameKind) -> String {
        match self {
            Evaluation::Units(units) => {
                let sign = if units < 0 { '-' } else { '+' };
                let size = units.unsigned_abs();
                if game == GameKind::Shogi {
                    format!("{sign}{size}")
                } else {
                    format!("{sign}{}.{:02}", size / 100, size % 100)
                }
            }
            Evaluation::Mate { winner, moves } => {
                let sign = if winner == Side::First { "" } else { "-" };
                format!("{sign}M{moves}")
            }
            Evaluation::Over(Some(Side::First)) => "1-0".to_string(),
            Evaluation::Over(Some(Side::Second)) => "0-1".to_string(),
            Evaluation::Over(None) => "1/2-1/2".to_string(),
        }
    }
}

/// How bad a played move was.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// Lost at least [`INACCURACY_LOSS`] points: `?!`.
    Inaccuracy,
    /// Lost at least [`MISTAKE_LOSS`] points: `?`.
    Mistake,
    /// Lost at least [`BLUNDER_LOSS`] points: `??`.
    Blunder,
}

impl Mark {
    /// The mark for a loss of `points` percentage points of winning chance, if any.
    pub fn for_loss(points: f64) -> Option<Mark> {
        if points >= BLUNDER_LOSS {
            Some(Mark::Blunder)
        } else if points >= MISTAKE_LOSS {
            Some(Mark::Mistake)
        } else if points >= INACCURACY_LOSS {
            Some(Mark::Inaccuracy)
        } else {
            None
        }
    }

    /// The annotation symbol: `?!`, `?` or `??`.
    pub fn symbol(self) -> &'static str {
        match self {
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The PGN numeric annotation glyph: `$6`, `$2`, `$4`.
    pub fn glyph(self) -> u8 {
        match self {
            Mark::Inaccuracy => 6,
            Mark::Mistake => 2,
            Mark::Blunder => 4,
        }
    }
}

/// How much to search each position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many nodes per position: the same analysis on any machine.
    Nodes(u64),
    /// This long per position.
    Time(Duration),
}

impl Default for Budget {
    fn default() -> Self {
        Budget::Nodes(DEFAULT_NODES)
    }
}

impl Budget {
    /// The search limits of one position.
    pub fn limits(self, lines: u32) -> Limits {
        let mut limits = Limits {
            multipv: lines.max(1),
            ..Limits::default()
        };
        match self {
            Budget::Nodes(nodes) => limits.nodes = Some(nodes.max(1)),
            Budget::Time(time) => limits.movetime = Some(time.max(Duration::from_millis(1))),
        }
        limits
    }
}

/// Which engine analyses.
pub enum Analyser<'a> {
    /// qipan's own search; its transposition table is kept from position to position.
    BuiltIn(&'a mut Engine),
    /// An external engine (a config `[[engines]]` entry), already started.
    External(&'a mut ExternalEngine),
}

impl Analyser<'_> {
    /// The engine's name for headers and reports.
    pub fn name(&self) -> String {
        match self {
            Analyser::BuiltIn(_) => format!("qipan {}", env!("CARGO_PKG_VERSION")),
            Analyser::External(engine) => engine.spec().name.clone(),
        }
    }
}

/// One of the best lines found in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// Its value, from the first player's view.
    pub evaluation: Evaluation,
    /// The moves, first move first (never empty).
    pub principal_variation: Vec<Move>,
    /// The depth it was searched to.
    pub depth: u32,
}

/// What the engine found in one position of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionReport {
    /// The position's value from the first player's view; `None` when an external engine
    /// gave a move but no score.
    pub evaluation: Option<Evaluation>,
    /// The best lines, best first (empty when the game is over here).
    pub lines: Vec<Line>,
    /// The move the engine would play (`None` when the game is over here, or an external
    /// engine resigned or declared).
    pub best: Option<Move>,
    /// Nodes searched (0 when the engine did not say).
    pub nodes: u64,
}

impl PositionReport {
    /// The value of the line that starts with `mv`, if one does.
    pub fn evaluation_of(&self, mv: Move) -> Option<Evaluation> {
        self.lines
            .iter()
            .find(|line| line.principal_variation.first() == Some(&mv))
            .map(|line| line.evaluation)
    }
}

/// A played move, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReport {
    /// The side that played it.
    pub mover: Side,
    /// The move.
    pub played: Move,
    /// Percentage points of winning chance the mover gave away (negative: the move did
    /// better than the engine expected); `None` when a score is missing.
    pub loss: Option<f64>,
    /// The judgement. The engine's own best move is never marked.
    pub mark: Option<Mark>,
}

/// The analysis of a line: a report per position (one more than the moves) and per move.
#[derive(Clone, Debug, PartialEq)]
pub struct GameAnalysis {
    /// The engine that analysed.
    pub engine: String,
    /// `positions[i]`: the position before move `i` (the last one after the last move).
    pub positions: Vec<PositionReport>,
    /// `moves[i]`: move `i` of the line, judged.
    pub moves: Vec<MoveReport>,
}

impl GameAnalysis {
    /// How many moves of `side` got `mark`.
    pub fn count(&self, side: Side, mark: Mark) -> usize {
        self.moves
            .iter()
            .filter(|m| m.mover == side && m.mark == Some(mark))
            .count()
    }
}

/// How far the analysis is: `done` of `total` positions searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search (the moves plus one).
    pub total: usize,
}

/// Why an analysis did not finish.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// The stop flag was set.
    Cancelled,
    /// A move of the line is illegal (the 1-based ply and why).
    IllegalMove {
        /// The ply of the move, 1 for the first.
        ply: usize,
        /// Why the rules refuse it.
        reason: IllegalMove,
    },
    /// The external engine failed.
    Engine(EngineError),
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnalysisError::Cancelled => f.write_str("analysis stopped"),
            AnalysisError::IllegalMove { ply, reason } => {
                write!(f, "move {ply} of the line is illegal: {reason}")
            }
            AnalysisError::Engine(error) => write!(f, "{error}"),
        }
    }
}

impl std::error::Error for AnalysisError {}

/// What to analyse and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Settings {
    /// The search budget per position.
    pub budget: Budget,
    /// How many best lines to keep per position (MultiPV; at least 1).
    pub lines: u32,
}

/// Analyses every position of the line from `start` through `moves` and judges each move.
///
/// `progress` hears each searched position; setting `stop` ends the analysis at once with
/// [`AnalysisError::Cancelled`]. With a node budget and the built-in engine the result is
/// the same every time (given the same engine state: a fresh [`Engine`] or one that
/// analysed the same things before).
pub fn analyse(
    analyser: &mut Analyser<'_>,
    start: &AnyPosition,
    moves: &[Move],
    settings: Settings,
    stop: &AtomicBool,
    progress: &mut dyn FnMut(Progress),
) -> Result<GameAnalysis, AnalysisError> {
    let kind = start.game();
    let total = moves.len() + 1;
    let limits = settings.budget.limits(settings.lines);
    let mut game = Game::new(start.clone());
    let mut positions = Vec::with_capacity(total);
    for index in 0..total {
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Cancelled);
        }
        let report = analyse_position(analyser, &game, limits, stop)?;
        if stop.load(Ordering::Relaxed) {
            return Err(AnalysisError::Cancelled);
        }
        positions.push(report);
        progress(Progress {
            done: index + 1,
            total,
        });
        if let Some(&mv) = moves.get(index) {
            game.play(mv).map_err(|reason| AnalysisError::IllegalMove {
                ply: index + 1,
                reason,
            })?;
        }
    }
    let mut mover = start.side_to_move();
    let mut judged = Vec::with_capacity(moves.len());
    for (index, &played) in moves.iter().enumerate() {
        let before = &positions[index];
        let after = &positions[index + 1];
        let loss = match (before.evaluation, after.evaluation) {
            (Some(before), Some(after)) => {
                Some(before.win_percent(kind, mover) - after.win_percent(kind, mover))
            }
            _ => None,
        };
        let mark = match loss {
            Some(points) if before.best != Some(played) => Mark::for_loss(points),
            _ => None,
        };
        judged.push(MoveReport {
            mover,
            played,
            loss,
            mark,
        });
        mover = mover.opponent();
    }
    Ok(GameAnalysis {
        engine: analyser.name(),
        positions,
        moves: judged,
    })
}

/// Judges `candidates` (legal moves of the position reached from `start` by `moves`)
/// against each other: the answer is a [`GameAnalysis`] of that one position whose lines
/// are the candidates', best first, with no moves judged. The built-in engine searches
/// them in one search restricted to them, so each score comes from the same tree (an
/// exercise's check of a tried move against the best); an external engine searches the
/// position after each candidate in turn with the same budget, since the protocols have
/// no restriction every engine honours.
pub fn compare(
    analyser: &mut Analyser<'_>,
    start: &AnyPosition,
    moves: &[Move],
    candidates: &[Move],
    budget: Budget,
    stop: &AtomicBool,
) -> Result<GameAnalysis, AnalysisError> {
    let mut game = Game::new(start.clone());
    for (index, &mv) in moves.iter().enumerate() {
        game.play(mv).map_err(|reason| AnalysisError::IllegalMove {
            ply: index + 1,
            reason,
        })?;
    }
    let mut children = Vec::with_capacity(candidates.len());
    for &mv in candidates {
        let mut child = game.clone();
        child
            .play(mv)
            .map_err(|reason| AnalysisError::IllegalMove {
                ply: moves.len() + 1,
                reason,
            })?;
        children.push(child);
    }
    let mover = game.position().side_to_move();
    let mut lines = match analyser {
        Analyser::BuiltIn(engine) => {
            let mut limits = budget.limits(candidates.len() as u32);
            let mut outcome =
                engine.search_among(&game, candidates, limits, stop, &mut |_: &SearchInfo| {});
            let covered = |outcome: &Option<Outcome>| {
                outcome
                    .as_ref()
                    .is_some_and(|o| o.lines.len() >= candidates.len())
            };
            if !covered(&outcome) && !stop.load(Ordering::Relaxed) {
                // The budget ran out inside the first depth: one ply more, so every
                // candidate has a score.
                limits = Limits {
                    depth: Some(1),
                    multipv: limits.multipv,
                    ..Limits::default()
                };
                outcome =
                    engine.search_among(&game, candidates, limits, stop, &mut |_: &SearchInfo| {});
            }
            outcome
                .map(|outcome| {
                    outcome
                        .lines
                        .iter()
                        .map(|info| Line {
                            evaluation: Evaluation::from_score(info.score, mover),
                            principal_variation: info.principal_variation.clone(),
                            depth: info.depth,
                        })
                        .collect()
                })
                .unwrap_or_default()
        }
        Analyser::External(_) => {
            let mut lines = Vec::with_capacity(candidates.len());
            for (&mv, after) in candidates.iter().zip(&children) {
                let report = analyse_position(analyser, after, budget.limits(1), stop)?;
                if let Some(evaluation) = report.evaluation {
                    let mut principal_variation = vec![mv];
                    let depth = match report.lines.first() {
                        Some(line) => {
                            principal_variation.extend(&line.principal_variation);
                            line.depth + 1
                        }
                        None => 1,
                    };
                    lines.push(Line {
                        evaluation,
                        principal_variation,
                        depth,
                    });
                }
            }
            lines
        }
    };
    if stop.load(Ordering::Relaxed) {
        return Err(AnalysisError::Cancelled);
    }
    let kind = start.game();
    lines.retain(|line| !line.principal_variation.is_empty());
    lines.sort_by(|a, b| {
        let chance = |line: &Line| line.evaluation.win_percent(kind, mover);
        chance(b).total_cmp(&chance(a))
    });
    Ok(GameAnalysis {
        engine: analyser.name(),
        positions: vec![PositionReport {
            evaluation: lines.first().map(|line| line.evaluation),
            best: lines.first().map(|line| line.principal_variation[0]),
            nodes: 0,
            lines,
        }],
        moves: Vec::new(),
    })
}

/// Searches one position (or reads the rules' verdict when the game is over there).
fn analyse_position(
    analyser: &mut Analyser<'_>,
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
) -> Result<PositionReport, AnalysisError> {
    if let Some(outcome) = game.outcome() {
        let winner = match outcome {
            GameOutcome::Win { winner, .. } => Some(winner),
            GameOutcome::Draw { .. } => None,
        };
        return Ok(PositionReport {
            evaluation: Some(Evaluation::Over(winner)),
            lines: Vec::new(),
            best: None,
            nodes: 0,
        });
    }
    let mover = game.position().side_to_move();
    let line = |depth: u32, score: Score, principal_variation: &[Move]| Line {
        evaluation: Evaluation::from_score(score, mover),
        principal_variation: principal_variation.to_vec(),
        depth,
    };
    match analyser {
        Analyser::BuiltIn(engine) => {
            let mut outcome: Option<Outcome> =
                engine.search_lines(game, limits, stop, &mut |_: &SearchInfo| {});
            if outcome.as_ref().is_some_and(|o| o.lines.is_empty()) && !stop.load(Ordering::Relaxed)
            {
                // The budget ran out inside the first depth (a tiny budget, a position full
                // of checks): one ply more, so every position has a score and a line.
                let first_depth = Limits {
                    depth: Some(1),
                    multipv: limits.multipv,
                    ..Limits::default()
                };
                outcome = engine.search_lines(game, first_depth, stop, &mut |_: &SearchInfo| {});
            }
            let Some(outcome) = outcome else {
                // No legal move but no outcome cannot happen; say nothing rather than guess.
                return Ok(PositionReport {
                    evaluation: None,
                    lines: Vec::new(),
                    best: None,
                    nodes: 0,
                });
            };
            let lines: Vec<Line> = outcome
                .lines
                .iter()
                .map(|info| line(info.depth, info.score, &info.principal_variation))
                .collect();
            Ok(PositionReport {
                evaluation: lines.first().map(|l| l.evaluation),
                // The first completed line's move: its score is the one reported.
                best: lines
                    .first()
                    .map(|l| l.principal_variation[0])
                    .or(Some(outcome.best)),
                lines,
                nodes: outcome.nodes,
            })
        }
        Analyser::External(engine) => {
            let (answer, reports) = engine
                .search_lines(game, &limits, limits.multipv, stop, &mut |_, _| {})
                .map_err(AnalysisError::Engine)?;
            let lines: Vec<Line> = reports
                .iter()
                .map(|r| line(r.depth, r.score, &r.principal_variation))
                .collect();
            Ok(PositionReport {
                evaluation: lines.first().map(|l| l.evaluation),
                best: match answer {
                    EngineMove::Move(mv) => Some(mv),
                    _ => None,
                },
                nodes: reports.first().map_or(0, |r| r.nodes),
                lines,
            })
        }
    }
}

/// Writes `line` from `position` in `notation` (after `previous`, for shogi's 同), up to
/// the first move that is not legal there.
pub fn line_text(
    position: &AnyPosition,
    previous: Option<Move>,
    line: &[Move],
    notation: Notation,
) -> Vec<String> {
    let mut position = position.clone();
    let mut previous = previous;
    let mut written = Vec::new();
    for &mv in line {
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        if !legal.contains(mv) {
            break;
        }
        written.push(format_move_after(&position, mv, notation, previous));
        position.play_unchecked(mv);
        previous = Some(mv);
    }
    written
}

/// Pads `text` with spaces to `width` terminal columns (CJK characters take two).
fn padded(text: &str, width: usize) -> String {
    let used: usize = text.chars().map(|c| c.width().unwrap_or(0)).sum();
    format!("{text}{}", " ".repeat(width.saturating_sub(used)))
}

/// The most moves of a principal variation the report writes.
const REPORT_LINE_MOVES: usize = 8;

/// The per-move report `qipan analyse` prints: a line per move with its ply, the move,
/// the evaluation after it (first player's view), the engine's best move in the position
/// before, the mark and the engine's line; then each side's count of marks. The column
/// names are in `language`; `side_names` are the first and second player's names.
pub fn report_text(
    analysis: &GameAnalysis,
    start: &AnyPosition,
    moves: &[Move],
    notation: Notation,
    language: Language,
    side_names: [&str; 2],
) -> String {
    let kind = start.game();
    let mut out = String::new();
    let mut position = start.clone();
    let mut previous = None;
    let mut rows = Vec::new();
    for (index, (&mv, judged)) in moves.iter().zip(&analysis.moves).enumerate() {
        let before = &analysis.positions[index];
        let after = &analysis.positions[index + 1];
        let played = format_move_after(&position, mv, notation, previous);
        let best = before
            .best
            .map(|best| format_move_after(&position, best, notation, previous))
            .unwrap_or_default();
        let line = before
            .lines
            .first()
            .map(|l| {
                let moves =
                    &l.principal_variation[..l.principal_variation.len().min(REPORT_LINE_MOVES)];
                line_text(&position, previous, moves, notation).join(" ")
            })
            .unwrap_or_default();
        rows.push([
            (index + 1).to_string(),
            played,
            after.evaluation.map(|e| e.text(kind)).unwrap_or_default(),
            best,
            judged.mark.map(Mark::symbol).unwrap_or("").to_string(),
            line,
        ]);
        position.play_unchecked(mv);
        previous = Some(mv);
    }
    let headers = [
        Key::AnalysisPly,
        Key::AnalysisMove,
        Key::AnalysisScore,
        Key::AnalysisBest,
        Key::AnalysisMark,
        Key::AnalysisLine,
    ]
    .map(|key| language.text(key));
    let mut widths = headers.map(|h| h.chars().map(|c| c.width().unwrap_or(0)).sum::<usize>());
    for row in &rows {
        for (width, cell) in widths.iter_mut().zip(row) {
            *width = (*width).max(cell.chars().map(|c| c.width().unwrap_or(0)).sum());
        }
    }
    let mut push_row = |cells: [&str; 6]| {
        let mut text = String::new();
        for (column, cell) in cells.iter().enumerate() {
            if column == 5 {
                text.push_str(cell);
            } else if column == 0 || column == 2 {
                // Numbers line up on the right.
                let used: usize = cell.chars().map(|c| c.width().unwrap_or(0)).sum();
                text.push_str(&" ".repeat(widths[column].saturating_sub(used)));
                text.push_str(cell);
                text.push_str("  ");
            } else {
                text.push_str(&padded(cell, widths[column]));
                text.push_str("  ");
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    push_row(headers);
    for row in &rows {
        push_row([&row[0], &row[1], &row[2], &row[3], &row[4], &row[5]]);
    }
    out.push('\n');
    let mut side = start.side_to_move();
    for _ in 0..2 {
        let name = side_names[side.index()];
        out.push_str(&format!(
            "{name}: {} ?!  {} ?  {} ??\n",
            analysis.count(side, Mark::Inaccuracy),
            analysis.count(side, Mark::Mistake),
            analysis.count(side, Mark::Blunder),
        ));
        side = side.opponent();
    }
    out
}

/// The record with the analysis added as comments, in the form the format's users
/// expect: PGN `[%eval 0.35]` (pawns, `#3` / `#-3` for mates) and the mark's name, KIF,
/// KI2 and CSA `評価値 +123` and 疑問手 / 悪手 / 大悪手; then the best move and the line
/// in the game's native notation. The engine is named in a comment before the first
/// move (and PGN's `Annotator` tag). Comments already in the record are kept, first.
pub fn annotate(
    record: &GameRecord,
    analysis: &GameAnalysis,
    format: Format,
    budget_text: &str,
) -> GameRecord {
    let mut annotated = record.clone();
    let game = &record.game;
    let kind = game.variant().kind();
    let japanese = format != Format::Pgn;
    let notation = if japanese {
        Notation::Japanese
    } else {
        default_notation(game.variant(), kind == GameKind::Janggi)
    };
    if format == Format::Pgn {
        annotated.headers.retain(|(name, _)| name != "Annotator");
        annotated
            .headers
            .push(("Annotator".to_string(), analysis.engine.clone()));
    }
    let mut comments: Vec<(usize, String)> = vec![(
        0,
        if japanese {
            format!("解析: {} ({budget_text})", analysis.engine)
        } else {
            format!("Analysis: {} ({budget_text})", analysis.engine)
        },
    )];
    let mut previous = None;
    for (index, (&mv, judged)) in game.moves().iter().zip(&analysis.moves).enumerate() {
        let position = &game.positions()[index];
        let before = &analysis.positions[index];
        let after = &analysis.positions[index + 1];
        let mut parts = Vec::new();
        if let Some(evaluation) = after.evaluation {
            parts.push(if japanese {
                format!("評価値 {}", evaluation.text(kind))
            } else {
                match evaluation {
                    Evaluation::Mate { winner, moves } => {
                        let sign = if winner == Side::First { "" } else { "-" };
                        format!("[%eval #{sign}{moves}]")
                    }
                    Evaluation::Units(units) => {
                        format!("[%eval {:.2}]", units as f64 / 100.0)
                    }
                    Evaluation::Over(_) => evaluation.text(kind),
                }
            });
        }
        if let Some(mark) = judged.mark {
            let word = match (japanese, mark) {
                (true, Mark::Inaccuracy) => "疑問手",
                (true, Mark::Mistake) => "悪手",
                (true, Mark::Blunder) => "大悪手",
                (false, Mark::Inaccuracy) => "Inaccuracy",
                (false, Mark::Mistake) => "Mistake",
                (false, Mark::Blunder) => "Blunder",
            };
            parts.push(format!("{} {word}", mark.symbol()));
        }
        if let Some(best) = before.best.filter(|&best| best != mv) {
            let best = format_move_after(position, best, notation, previous);
            parts.push(if japanese {
                format!("最善手 {best}")
            } else {
                format!("Best: {best}")
            });
        }
        if let Some(line) = before.lines.first() {
            let written = line_text(position, previous, &line.principal_variation, notation);
            if !written.is_empty() {
                let written = written.join(" ");
                parts.push(if japanese {
                    format!("読み筋 {written}")
                } else {
                    format!("Line: {written}")
                });
            }
        }
        if !parts.is_empty() {
            comments.push((index + 1, parts.join(" ")));
        }
        previous = Some(mv);
    }
    // The tree is what the writers write: the record's own tree (variations, comments)
    // with the analysis added on the main line, after what was already said, and the
    // marks as NAGs where the format has them (PGN `$4`).
    let mut tree = record.full_tree();
    let main = tree.main_line();
    for (ply, text) in &comments {
        let id = match ply {
            0 => crate::tree::NodeId::ROOT,
            _ => main[ply - 1],
        };
        tree.annotation_mut(id).comments.push(text.clone());
    }
    for (index, judged) in analysis.moves.iter().enumerate() {
        if let (Some(mark), Some(&id)) = (judged.mark, main.get(index)) {
            let nags = &mut tree.annotation_mut(id).nags;
            if !nags.contains(&mark.glyph()) {
                nags.push(mark.glyph());
            }
        }
    }
    annotated.tree = tree;
    annotated.comments.extend(comments);
    // Each ply's comments in order: the record's own first, then the analysis.
    annotated.comments.sort_by_key(|(ply, _)| *ply);
    annotated
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_is_lichess_for_chess_like_units_and_capped() {
        // 300 xiangqi units are 225 chess centipawns: 100/(1+e^(−0.00368208·225)).
        let even = Evaluation::Units(0).win_percent(GameKind::Xiangqi, Side::First);
        assert!((even - 50.0).abs() < 1e-9);
        let up = Evaluation::Units(300).win_percent(GameKind::Xiangqi, Side::First);
        let expected = 100.0 / (1.0 + (-LICHESS_SLOPE * 225.0).exp());
        assert!((up - expected).abs() < 1e-9, "{up} {expected}");
        let down = Evaluation::Units(300).win_percent(GameKind::Xiangqi, Side::Second);
        assert!((up + down - 100.0).abs() < 1e-9);
        // Far beyond the cap, more units change nothing.
        let big = Evaluation::Units(5_000).win_percent(GameKind::Shogi, Side::First);
        let bigger = Evaluation::Units(50_000).win_percent(GameKind::Shogi, Side::First);
        assert_eq!(big, bigger);
        assert!(big > 97.0 && big < 98.0, "{big}");
        // Shogi's curve is the engines' 1/(1+exp(−score/600)).
        let shogi = Evaluation::Units(600).win_percent(GameKind::Shogi, Side::First);
        assert!((shogi - 100.0 / (1.0 + (-1.0f64).exp())).abs() < 1e-9);
    }

    #[test]
    fn mates_and_ends_are_certain() {
        let mated = Evaluation::from_score(Score::Mate(-2), Side::Second);
        assert_eq!(
            mated,
            Evaluation::Mate {
                winner: Side::First,
                moves: 2
            }
        );
        assert_eq!(mated.win_percent(GameKind::Janggi, Side::First), 100.0);
        assert_eq!(mated.text(GameKind::Janggi), "M2");
        let mating = Evaluation::from_score(Score::Mate(3), Side::Second);
        assert_eq!(mating.text(GameKind::Xiangqi), "-M3");
        assert_eq!(mating.win_percent(GameKind::Xiangqi, Side::Second), 100.0);
        assert_eq!(
            Evaluation::Over(None).win_percent(GameKind::Shogi, Side::Second),
            50.0
        );
        assert_eq!(
            Evaluation::Over(Some(Side::Second)).text(GameKind::Shogi),
            "0-1"
        );
    }

    #[test]
    fn marks_follow_the_published_thresholds() {
        assert_eq!(Mark::for_loss(4.99), None);
        assert_eq!(Mark::for_loss(5.0), Some(Mark::Inaccuracy));
        assert_eq!(Mark::for_loss(10.0), Some(Mark::Mistake));
        assert_eq!(Mark::for_loss(15.0), Some(Mark::Blunder));
        assert_eq!(Mark::for_loss(-20.0), None);
        assert_eq!(
            [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder].map(Mark::symbol),
            ["?!", "?", "??"]
        );
    }

    #[test]
    fn scores_read_as_each_game_writes_them() {
        assert_eq!(Evaluation::Units(-35).text(GameKind::Xiangqi), "-0.35");
        assert_eq!(Evaluation::Units(1234).text(GameKind::Janggi), "+12.34");
        assert_eq!(Evaluation::Units(-123).text(GameKind::Shogi), "-123");
        assert_eq!(
            Evaluation::from_score(Score::Centipawns(50), Side::Second),
            Evaluation::Units(-50)
        );
    }
}
