//! Reviewing a game in the client: "analyse this game" runs the same whole-game analysis
//! as `qipan analyse` ([`crate::analysis`]) on a worker, with its progress in the status
//! line and Esc to stop it; the result goes into the game tree (marks as NAGs `?!` `?`
//! `??`, the score, best move and line as the comments `qipan analyse` writes), so it
//! is kept by the autosave and written with the record. The evaluation graph and the
//! mistake keys read the tree back, so an analysed record opened later shows the same.

use super::{App, Effect, Play, Player};
use crate::action::AnalysisAnswer;
use crate::analysis::{self, Budget, Evaluation, GameAnalysis, Mark};
use crate::i18n::Key;
use crate::record::{Format, GameRecord};
use crate::rules::any::{AnyPosition, GameKind};
use crate::rules::notation::format_move_after;
use crate::rules::{Move, Position, Side};
use crate::tree::{GameTree, NodeId};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Work for the analysis worker: the line to analyse and how.
#[derive(Debug)]
pub struct AnalysisJob {
    /// Id to answer with ([`crate::action::Action::AnalysisProgress`] and `AnalysisFinished`).
    pub id: u64,
    /// The position the line starts from.
    pub start: AnyPosition,
    /// The moves of the line.
    pub moves: Vec<Move>,
    /// Budget per position and lines kept.
    pub settings: analysis::Settings,
    /// When not empty: compare these moves of the line's last position instead of
    /// analysing the line ([`analysis::compare`], an exercise's check of a tried move).
    pub candidates: Vec<Move>,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
    /// The external engine to analyse with (index into [`super::Settings::engines`]);
    /// `None` for the built-in one.
    pub engine: Option<usize>,
}

/// An analysis running on the worker.
#[derive(Clone, Debug)]
pub struct AnalysisRun {
    /// Its id.
    pub id: u64,
    /// Its stop flag.
    pub stop: Arc<AtomicBool>,
    /// The tree nodes of the line being analysed (the results go onto them).
    pub nodes: Vec<NodeId>,
    /// Positions searched so far.
    pub done: usize,
    /// Positions to search.
    pub total: usize,
}

/// A finished analysis and the nodes of the line it is about.
#[derive(Clone, Debug)]
pub struct Analysed {
    /// The nodes of the analysed line, first move first.
    pub nodes: Vec<NodeId>,
    /// What the engine found.
    pub analysis: GameAnalysis,
}

/// The review state of a game: the analysis running and the last one finished.
#[derive(Clone, Debug, Default)]
pub struct Review {
    /// The analysis on the worker, if any.
    pub running: Option<AnalysisRun>,
    /// The last finished analysis of this game (for the exercises and the best moves).
    pub last: Option<Analysed>,
}

/// The lines kept per position: one, as `qipan analyse` does, so the client's marks are
/// the command's marks.
const ANALYSIS_LINES: u32 = 1;

/// The record format the client writes for a game (PGN, or KIF for shogi): its comment
/// conventions are the ones the analysis is written in.
fn client_format(kind: GameKind) -> Format {
    match kind {
        GameKind::Shogi => Format::Kif,
        _ => Format::Pgn,
    }
}

/// The words an analysis comment begins with (see [`analysis::annotate`]): such comments
/// are replaced when the game is analysed again, never added twice.
const ANALYSIS_PREFIXES: [&str; 14] = [
    "[%eval ",
    "評価値 ",
    "Analysis: ",
    "解析: ",
    "?! ",
    "? ",
    "?? ",
    "Best: ",
    "最善手 ",
    "Line: ",
    "読み筋 ",
    "1-0",
    "0-1",
    "1/2-1/2",
];

/// True when a comment is one an analysis wrote.
fn is_analysis_comment(text: &str) -> bool {
    ANALYSIS_PREFIXES
        .iter()
        .any(|prefix| text.starts_with(prefix))
}

/// The NAGs an analysis gives: `?!`, `?`, `??`.
const ANALYSIS_NAGS: [u8; 3] = [6, 2, 4];

/// The evaluation an analysis comment states, from the first player's view: PGN's
/// `[%eval 0.35]` / `[%eval #-3]` (pawns ×100 in qipan's units), KIF's `評価値 +123`
/// / `評価値 -M5`. `None` when the comment states none.
pub fn evaluation_in_comment(text: &str) -> Option<Evaluation> {
    let mate = |text: &str, negative: bool| -> Option<Evaluation> {
        let moves = text.parse::<u32>().ok()?;
        let winner = if negative { Side::Second } else { Side::First };
        Some(Evaluation::Mate { winner, moves })
    };
    if let Some(rest) = text.split("[%eval ").nth(1) {
        let value = rest.split(']').next()?.trim();
        if let Some(moves) = value.strip_prefix("#-") {
            return mate(moves, true);
        }
        if let Some(moves) = value.strip_prefix('#') {
            return mate(moves, false);
        }
        let pawns: f64 = value.parse().ok()?;
        if !pawns.is_finite() || pawns.abs() > 100_000.0 {
            return None;
        }
        return Some(Evaluation::Units((pawns * 100.0).round() as i32));
    }
    let rest = text.split("評価値 ").nth(1)?;
    let value = rest.split_whitespace().next()?;
    match value {
        "1-0" => return Some(Evaluation::Over(Some(Side::First))),
        "0-1" => return Some(Evaluation::Over(Some(Side::Second))),
        "1/2-1/2" => return Some(Evaluation::Over(None)),
        _ => {}
    }
    if let Some(moves) = value.strip_prefix("-M") {
        return mate(moves, true);
    }
    if let Some(moves) = value.strip_prefix('M') {
        return mate(moves, false);
    }
    let units: i64 = value.trim_start_matches('+').parse().ok()?;
    Some(Evaluation::Units(units.clamp(-1_000_000, 1_000_000) as i32))
}

/// The mark of a move node from its NAGs: the worst of `?!`, `?`, `??` it carries.
pub fn mark_of_node(tree: &GameTree, id: NodeId) -> Option<Mark> {
    tree.node(id)
        .annotation
        .nags
        .iter()
        .filter_map(|&nag| match nag {
            6 => Some(Mark::Inaccuracy),
            2 => Some(Mark::Mistake),
            4 => Some(Mark::Blunder),
            _ => None,
        })
        .max()
}

impl Play {
    /// The evaluation after each move of the current line (index 0: after the first
    /// move), as the analysis comments in the tree state it.
    pub fn line_evaluations(&self) -> Vec<Option<Evaluation>> {
        self.line
            .iter()
            .map(|&id| {
                self.tree
                    .node(id)
                    .annotation
                    .comments
                    .iter()
                    .find_map(|comment| evaluation_in_comment(comment))
            })
            .collect()
    }

    /// The side that made move `ply` (1 = the first move) of the current line.
    pub fn mover_of_ply(&self, ply: usize) -> Side {
        let first = self.game.start().side_to_move();
        if ply % 2 == 1 {
            first
        } else {
            first.opponent()
        }
    }

    /// The plies (1 = the first move) of the played part of the current line whose move
    /// is marked `?!`, `?` or `??`, of `side` only when given.
    pub fn marked_plies(&self, side: Option<Side>) -> Vec<usize> {
        let played = self.game.moves().len().min(self.line.len());
        (1..=played)
            .filter(|&ply| mark_of_node(&self.tree, self.line[ply - 1]).is_some())
            .filter(|&ply| side.is_none_or(|side| self.mover_of_ply(ply) == side))
            .collect()
    }

    /// The side whose mistakes the "of one side" keys follow: the one person against the
    /// CPU, else the side that made the shown move (the first player at the start).
    pub fn mistake_side(&self) -> Side {
        match self.players {
            [Player::Human, other] if other != Player::Human => Side::First,
            [other, Player::Human] if other != Player::Human => Side::Second,
            _ => match self.shown_ply() {
                0 => self.game.start().side_to_move(),
                ply => self.mover_of_ply(ply),
            },
        }
    }

    /// The finished analysis when it is about the current line (its nodes begin it).
    pub fn analysis_of_line(&self) -> Option<&Analysed> {
        let last = self.analysis.last.as_ref()?;
        self.line.starts_with(&last.nodes).then_some(last)
    }
}

impl App {
    /// True while a whole-game analysis runs on the worker.
    pub fn analysis_running(&self) -> bool {
        self.play
            .as_ref()
            .is_some_and(|p| p.analysis.running.is_some())
    }

    /// The engine that analyses the whole game: the same one live analysis asks (the
    /// configured analysis engine, else the hint engine, when it plays this game), else
    /// the built-in one.
    pub(super) fn analysis_engine(&self) -> Option<usize> {
        let play = self.play.as_ref()?;
        self.live_engine(play.game.variant())
    }

    /// The analyse key: the current line (the moves played and any still to replay) is
    /// analysed on the worker with [`App::analysis_budget`] per position.
    pub(super) fn start_analysis(&mut self) {
        let engine = self.analysis_engine();
        let id = self.next_search_id;
        let budget = self.analysis_budget;
        let Some(play) = &mut self.play else { return };
        if play.analysis.running.is_some() {
            self.refuse_text(Key::StatusAnalysisBusy, &[]);
            return;
        }
        if play.line.is_empty() {
            self.refuse_text(Key::StatusNothingToAnalyse, &[]);
            return;
        }
        self.next_search_id += 1;
        let nodes = play.line.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let total = nodes.len() + 1;
        play.analysis.running = Some(AnalysisRun {
            id,
            stop: Arc::clone(&stop),
            nodes: nodes.clone(),
            done: 0,
            total,
        });
        self.effects
            .push(Effect::StartAnalysis(Box::new(AnalysisJob {
                id,
                start: play.tree.start().clone(),
                moves: play.tree.moves_of(&nodes),
                settings: analysis::Settings {
                    budget,
                    lines: ANALYSIS_LINES,
                },
                candidates: Vec::new(),
                stop,
                engine,
            })));
        self.analysis_status(0, total);
    }

    fn analysis_status(&mut self, done: usize, total: usize) {
        let text = self.settings.language.format(
            Key::StatusAnalysing,
            &[&done.to_string(), &total.to_string()],
        );
        self.say(text);
    }

    /// Esc while the analysis runs: it stops and nothing of it is kept.
    pub(super) fn cancel_analysis(&mut self) {
        if let Some(run) = self.play.as_mut().and_then(|p| p.analysis.running.take()) {
            run.stop.store(true, Ordering::Relaxed);
            let text = self.text(Key::StatusAnalysisStopped).to_string();
            self.say(text);
        }
    }

    /// Stops the analysis of a game being left (a new game, an opened record).
    pub(super) fn stop_analysis_quietly(&mut self) {
        if let Some(play) = &mut self.play {
            if let Some(run) = play.analysis.running.take() {
                run.stop.store(true, Ordering::Relaxed);
            }
            if let Some(learn) = &mut play.learn {
                learn.stop_check();
            }
        }
    }

    /// Progress of the analysis: the status line counts the positions.
    pub(super) fn analysis_progress(&mut self, id: u64, done: usize, total: usize) {
        let Some(run) = self
            .play
            .as_mut()
            .and_then(|p| p.analysis.running.as_mut())
            .filter(|run| run.id == id)
        else {
            return;
        };
        run.done = done;
        run.total = total;
        self.analysis_status(done, total);
    }

    /// The end of an analysis (the game's, or an exercise's check of a tried move).
    pub(super) fn analysis_finished(&mut self, id: u64, answer: AnalysisAnswer) {
        if self.learn_check_finished(id, &answer) {
            return;
        }
        let Some(play) = &mut self.play else { return };
        if play.analysis.running.as_ref().map(|run| run.id) != Some(id) {
            return; // stopped, or of a game left behind
        }
        let Some(run) = play.analysis.running.take() else {
            return;
        };
        let analysis = match answer.0 {
            Ok(analysis) => analysis,
            Err(reason) => {
                self.refuse_text(Key::StatusAnalysisFailed, &[&reason]);
                return;
            }
        };
        let budget_text = self.budget_text();
        let Some(play) = &mut self.play else { return };
        if let Err(reason) = play.put_analysis_into_tree(&run.nodes, &analysis, &budget_text) {
            self.refuse_text(Key::StatusAnalysisFailed, &[&reason]);
            return;
        }
        let counts = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder].map(|mark| {
            analysis
                .moves
                .iter()
                .filter(|m| m.mark == Some(mark))
                .count()
                .to_string()
        });
        let engine = crate::untrusted::quote(&analysis.engine, 60);
        play.analysis.last = Some(Analysed {
            nodes: run.nodes,
            analysis,
        });
        let text = self.settings.language.format(
            Key::StatusAnalysisDone,
            &[&engine, &counts[0], &counts[1], &counts[2]],
        );
        self.say(text);
        self.autosave();
    }

    /// How much was searched per position, as the record's first comment says it.
    fn budget_text(&self) -> String {
        let language = self.settings.language;
        match self.analysis_budget {
            Budget::Nodes(nodes) => {
                language.format(Key::AnalysisNodesPerPosition, &[&nodes.to_string()])
            }
            Budget::Time(time) => language.format(
                Key::AnalysisSecondsPerPosition,
                &[&format!("{:.2}", time.as_secs_f64())],
            ),
        }
    }

    /// The mistake keys: the position after the previous / next marked move of the
    /// played line (`side`: of that side only), like `[`/`]` along the line.
    pub(super) fn jump_to_mistake(&mut self, forward: bool, one_side: bool) {
        let Some(play) = &self.play else { return };
        let side = one_side.then(|| play.mistake_side());
        let marked = play.marked_plies(side);
        if play.marked_plies(None).is_empty() {
            self.refuse_text(Key::StatusNotAnalysed, &[]);
            return;
        }
        let shown = play.shown_ply();
        let target = if forward {
            marked.iter().copied().find(|&ply| ply > shown)
        } else {
            marked.iter().rev().copied().find(|&ply| ply < shown)
        };
        let Some(ply) = target else {
            self.refuse_text(Key::StatusNoMoreMistakes, &[]);
            return;
        };
        self.review_to(Some(ply));
        let text = self.mistake_text(ply);
        self.say(text);
    }

    /// The status line at a marked move: its number, the move with its mark, and the
    /// engine's best move there when this session's analysis knows it.
    fn mistake_text(&self, ply: usize) -> String {
        let Some(play) = &self.play else {
            return String::new();
        };
        let notation = play.notation_for(self.settings.language, self.settings.glyphs);
        let positions = play.game.positions();
        let previous = ply.checked_sub(2).map(|index| play.game.moves()[index]);
        let position = &positions[ply - 1];
        let played = play.game.moves()[ply - 1];
        let mut written = format_move_after(position, played, notation, previous);
        if let Some(mark) = mark_of_node(&play.tree, play.line[ply - 1]) {
            written.push_str(mark.symbol());
        }
        let best = play
            .analysis_of_line()
            .and_then(|analysed| analysed.analysis.positions.get(ply - 1))
            .and_then(|report| report.best)
            .map(|best| format_move_after(position, best, notation, previous));
        match best {
            Some(best) => self
                .settings
                .language
                .format(Key::StatusMistakeAt, &[&ply.to_string(), &written, &best]),
            None => format!("{ply}. {written}"),
        }
    }
}

impl Play {
    /// Writes an analysis of the line `nodes` into the tree: the comments and NAGs
    /// [`analysis::annotate`] gives the client's record format, on those nodes (the
    /// root's comment names the engine). Comments and marks of an earlier analysis go
    /// first, so analysing twice does not say everything twice.
    pub fn put_analysis_into_tree(
        &mut self,
        nodes: &[NodeId],
        analysis: &GameAnalysis,
        budget_text: &str,
    ) -> Result<(), String> {
        let game = self
            .tree
            .game_along(nodes)
            .map_err(|(index, reason)| format!("{}: {reason}", index + 1))?;
        let format = client_format(game.variant().kind());
        let record = GameRecord::new(game);
        let annotated = analysis::annotate(&record, analysis, format, budget_text);
        let written = &annotated.tree;
        let targets = std::iter::once(NodeId::ROOT).chain(nodes.iter().copied());
        let sources = std::iter::once(NodeId::ROOT).chain(written.main_line());
        for (target, source) in targets.zip(sources) {
            let said = &written.node(source).annotation;
            let annotation = self.tree.annotation_mut(target);
            let before = annotation.comments.len();
            annotation.comments.retain(|c| !is_analysis_comment(c));
            if annotation.comments.len() != before {
                annotation.nags.retain(|nag| !ANALYSIS_NAGS.contains(nag));
            }
            annotation.comments.extend(said.comments.iter().cloned());
            for &nag in &said.nags {
                if !annotation.nags.contains(&nag) {
                    annotation.nags.push(nag);
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_of_both_conventions_read_back() {
        assert_eq!(
            evaluation_in_comment("[%eval 0.35] Best: C2.5"),
            Some(Evaluation::Units(35))
        );
        assert_eq!(
            evaluation_in_comment("[%eval -12.5]"),
            Some(Evaluation::Units(-1250))
        );
        assert_eq!(
            evaluation_in_comment("[%eval #-3]"),
            Some(Evaluation::Mate {
                winner: Side::Second,
                moves: 3
            })
        );
        assert_eq!(
            evaluation_in_comment("評価値 +123 最善手 ７六歩"),
            Some(Evaluation::Units(123))
        );
        assert_eq!(
            evaluation_in_comment("評価値 M5"),
            Some(Evaluation::Mate {
                winner: Side::First,
                moves: 5
            })
        );
        assert_eq!(evaluation_in_comment("a nice move"), None);
        assert_eq!(evaluation_in_comment("[%eval NaN]"), None);
        assert_eq!(evaluation_in_comment("[%eval 1e300]"), None);
        assert!(is_analysis_comment("Best: h3e3"));
        assert!(!is_analysis_comment("Red had to defend"));
    }
}
