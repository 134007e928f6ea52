//! Learn from your mistakes: for each move of the human side the analysis marked (`?!`,
//! `?`, `??`), the board shows the position before it and asks for a better move. A
//! move is accepted when it gives away less than [`analysis::INACCURACY_LOSS`] points
//! of winning chance against the analysis's best: the best move at once, the game's
//! own move never, any other after a short search of the position it leads to (on the
//! analysis worker, so keys stay live). `H` highlights the piece to move, `H` again
//! shows the engine's answer; `{`/`}` go between exercises; Esc goes back to the game.

use super::review::mark_of_node;
use super::{Action, App, Effect, Overlay, Play, Player, Selection};
use crate::action::AnalysisAnswer;
use crate::analysis::{self, Evaluation, Mark};
use crate::i18n::Key;
use crate::rules::any::{shogi_hand_kind, GameKind};
use crate::rules::game::Game;
use crate::rules::notation::format_move_after;
use crate::rules::{IllegalMove, Move, Position, Side};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// One position to retry: the one before a marked move of the human side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exercise {
    /// The moves played before the position (the marked move is move `ply + 1`).
    pub ply: usize,
    /// The move played in the game there.
    pub played: Move,
    /// Its mark.
    pub mark: Mark,
    /// The analysis's evaluation of the position (with the best move), first player's view.
    pub before: Option<Evaluation>,
    /// The engine's best move there.
    pub best: Option<Move>,
    /// The engine's line from there (its first move is `best`).
    pub line: Vec<Move>,
}

/// What became of the last tried move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Good enough: within the inaccuracy threshold of the best.
    Right(Move),
    /// Not better.
    Wrong(Move),
    /// The move played in the game.
    Same,
}

/// A tried move being checked by a short search on the worker.
#[derive(Clone, Debug)]
pub struct Check {
    /// The analysis id the answer comes with.
    pub id: u64,
    /// Its stop flag.
    pub stop: Arc<AtomicBool>,
    /// The move tried.
    pub mv: Move,
}

/// The exercises in progress.
#[derive(Clone, Debug)]
pub struct Learn {
    /// The positions to retry, in game order.
    pub exercises: Vec<Exercise>,
    /// The one shown.
    pub index: usize,
    /// Which have been solved.
    pub solved: Vec<bool>,
    /// 0: no hint yet; 1: the piece to move is highlighted; 2: the answer is shown.
    pub hint: u8,
    /// The last tried move's verdict in this exercise.
    pub verdict: Option<Verdict>,
    /// The tried move being checked, if any.
    pub check: Option<Check>,
    /// The exercise's position with the game's history (for repetition rules).
    game: Game,
    /// The position reviewed before the exercises began (`None`: the present).
    return_to: Option<usize>,
}

impl Learn {
    /// The exercise shown.
    pub fn exercise(&self) -> &Exercise {
        &self.exercises[self.index]
    }

    /// The exercise's position, with its history.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Stops the check of a tried move, if one runs.
    pub(super) fn stop_check(&mut self) {
        if let Some(check) = self.check.take() {
            check.stop.store(true, Ordering::Relaxed);
        }
    }
}

impl Play {
    /// The exercises of this game: the marked moves of the human side (both sides when
    /// both or neither are people) along the played part of the analysed line.
    pub fn exercises(&self) -> Vec<Exercise> {
        let Some(analysed) = self.analysis_of_line() else {
            return Vec::new();
        };
        let humans: Vec<Side> = [Side::First, Side::Second]
            .into_iter()
            .filter(|&side| self.player(side) == Player::Human)
            .collect();
        let played = self.game.moves().len();
        let mut exercises = Vec::new();
        for (index, judged) in analysed.analysis.moves.iter().enumerate() {
            if index >= played || !(humans.is_empty() || humans.contains(&judged.mover)) {
                continue;
            }
            // The mark in the tree is the one the player sees (and may have changed).
            let Some(mark) = analysed
                .nodes
                .get(index)
                .and_then(|&id| mark_of_node(&self.tree, id))
            else {
                continue;
            };
            let report = &analysed.analysis.positions[index];
            exercises.push(Exercise {
                ply: index,
                played: judged.played,
                mark,
                before: report.evaluation,
                best: report.best,
                line: report
                    .lines
                    .first()
                    .map(|line| line.principal_variation.clone())
                    .unwrap_or_default(),
            });
        }
        exercises
    }

    /// A move of the exercise's position written in the move list's notation.
    pub fn exercise_move_text(
        &self,
        learn: &Learn,
        mv: Move,
        notation: crate::rules::notation::Notation,
    ) -> String {
        let ply = learn.exercise().ply;
        let previous = ply
            .checked_sub(1)
            .and_then(|index| self.game.moves().get(index))
            .copied();
        format_move_after(learn.game.position(), mv, notation, previous)
    }
}

impl App {
    /// True while the exercises are shown.
    pub fn learning(&self) -> bool {
        self.play.as_ref().is_some_and(|p| p.learn.is_some())
    }

    /// The learn key: the first exercise (after the shown position, else the first).
    pub(super) fn start_learning(&mut self) {
        let Some(play) = &self.play else { return };
        let exercises = play.exercises();
        if exercises.is_empty() {
            self.refuse_text(Key::StatusNoExercises, &[]);
            return;
        }
        // The CPU's move must not land in an exercise.
        self.stop_search();
        let Some(play) = &mut self.play else { return };
        let shown = play.shown_ply();
        let index = exercises
            .iter()
            .position(|exercise| exercise.ply >= shown.saturating_sub(1))
            .unwrap_or(0);
        let count = exercises.len();
        play.learn = Some(Learn {
            exercises,
            index,
            solved: vec![false; count],
            hint: 0,
            verdict: None,
            check: None,
            game: play.game.clone(),
            return_to: play.review,
        });
        self.show_exercise(index);
    }

    /// Shows exercise `index`: its position, nothing picked, no hint.
    fn show_exercise(&mut self, index: usize) {
        let Some(play) = &mut self.play else { return };
        let Some(mut learn) = play.learn.take() else {
            return;
        };
        learn.stop_check();
        learn.index = index.min(learn.exercises.len() - 1);
        learn.hint = 0;
        learn.verdict = None;
        let ply = learn.exercise().ply;
        let line = &play.line[..ply.min(play.line.len())];
        learn.game = play.tree.game_along(line).unwrap_or_else(|_| {
            let mut game = play.game.clone();
            while game.moves().len() > ply && game.undo().is_some() {}
            game
        });
        play.review = Some(ply);
        play.selection = None;
        play.targets.clear();
        play.hand_cursor = None;
        play.hint = None;
        let mover = learn.game.position().side_to_move();
        play.learn = Some(learn);
        let game = play.game.variant().kind();
        let name = self.text(super::side_key(game, mover));
        let text = self.settings.language.format(Key::LearnFind, &[name]);
        self.say(text);
    }

    /// Leaves the exercises for the game, as it was reviewed before.
    pub(super) fn leave_learning(&mut self) {
        let Some(play) = &mut self.play else { return };
        let Some(mut learn) = play.learn.take() else {
            return;
        };
        learn.stop_check();
        play.review = learn.return_to.filter(|&ply| ply < play.game.moves().len());
        play.selection = None;
        play.targets.clear();
        play.hand_cursor = None;
        play.hint = None;
        let text = self.text(Key::StatusLearnLeft).to_string();
        self.say(text);
        self.start_search_if_needed();
    }

    /// Keys while the exercises are shown.
    pub(super) fn update_learn(&mut self, action: Action) {
        match action {
            Action::Up => self.learn_cursor(0, 1),
            Action::Down => self.learn_cursor(0, -1),
            Action::Left => self.learn_cursor(-1, 0),
            Action::Right => self.learn_cursor(1, 0),
            Action::Select => self.learn_select(),
            Action::ClickSquare(square) => {
                let Some(play) = &mut self.play else { return };
                if square < play.shown_position().ranks() * 9 {
                    play.cursor = square;
                    play.hand_cursor = None;
                    self.learn_select();
                }
            }
            Action::ClickHand(side, index) => {
                let Some(play) = &mut self.play else { return };
                if play.shown_position().side_to_move() == side {
                    play.hand_cursor = Some(index);
                    self.learn_select();
                }
            }
            Action::ToggleHand => self.learn_toggle_hand(),
            Action::Hint => self.learn_hint(),
            Action::NextMistake | Action::NextMistakeOfSide | Action::HistoryForward => {
                self.step_exercise(true)
            }
            Action::PreviousMistake | Action::PreviousMistakeOfSide | Action::HistoryBack => {
                self.step_exercise(false)
            }
            Action::Cancel => {
                let Some(play) = &mut self.play else { return };
                if play.selection.is_some() || play.hand_cursor.is_some() {
                    play.selection = None;
                    play.targets.clear();
                    play.hand_cursor = None;
                } else {
                    self.leave_learning();
                }
            }
            Action::Learn | Action::Quit => self.leave_learning(),
            Action::Flip => {
                if let Some(play) = &mut self.play {
                    play.flipped = !play.flipped;
                }
            }
            Action::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            _ => {}
        }
    }

    fn step_exercise(&mut self, forward: bool) {
        let Some(learn) = self.play.as_ref().and_then(|p| p.learn.as_ref()) else {
            return;
        };
        let next = if forward {
            learn.index + 1
        } else {
            learn.index.wrapping_sub(1)
        };
        if next >= learn.exercises.len() {
            self.refuse_text(Key::StatusNoMoreMistakes, &[]);
            return;
        }
        self.show_exercise(next);
    }

    fn learn_cursor(&mut self, files: i32, ranks: i32) {
        let Some(play) = &mut self.play else { return };
        if let Some(index) = play.hand_cursor {
            let position = play.shown_position();
            let count = position.hand(position.side_to_move()).len() as i32;
            let sign = if play.flipped { -1 } else { 1 };
            let step = if ranks != 0 { -ranks * sign } else { files };
            play.hand_cursor = Some((index as i32 + step).clamp(0, (count - 1).max(0)) as usize);
            return;
        }
        self.move_cursor(files, ranks);
    }

    fn learn_toggle_hand(&mut self) {
        let Some(play) = &mut self.play else { return };
        let position = play.shown_position();
        if position.game() != GameKind::Shogi {
            return;
        }
        if play.hand_cursor.is_some() || position.hand(position.side_to_move()).is_empty() {
            play.hand_cursor = None;
        } else {
            play.hand_cursor = Some(0);
        }
    }

    /// Enter on the exercise's board: pick a piece of the side to move, or try a move.
    fn learn_select(&mut self) {
        let Some(play) = &mut self.play else { return };
        let Some(learn) = &play.learn else { return };
        if learn.check.is_some() {
            return; // one tried move at a time
        }
        let legal = learn.game.legal_moves();
        let position = learn.game.position().clone();
        let mover = position.side_to_move();
        if let Some(index) = play.hand_cursor.take() {
            if let Some(&(kind, _)) = position.hand(mover).get(index) {
                play.selection = Some(Selection::Hand(kind));
                play.targets = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_drop() && Some(m.from) == shogi_hand_kind(kind))
                    .collect();
            }
            return;
        }
        let square = play.cursor;
        let own = position.piece_on(square).is_some_and(|p| p.side == mover);
        if let Some(selection) = play.selection {
            if selection == Selection::Square(square) {
                play.selection = None;
                play.targets.clear();
                return;
            }
            let candidates: Vec<Move> = play
                .targets
                .iter()
                .copied()
                .filter(|m| m.to == square && !m.is_pass())
                .collect();
            let plain = candidates.iter().copied().find(|m| !m.is_promotion());
            let promoting = candidates.iter().copied().find(|m| m.is_promotion());
            match (plain, promoting) {
                (Some(plain), Some(promoting)) => {
                    self.overlay = Some(Overlay::Promotion {
                        plain,
                        promoting,
                        promote: true,
                    });
                    return;
                }
                (Some(only), None) | (None, Some(only)) => {
                    self.learn_try(only);
                    return;
                }
                (None, None) => {}
            }
        }
        if own {
            play.selection = Some(Selection::Square(square));
            play.targets = legal
                .iter()
                .copied()
                .filter(|m| !m.is_drop() && !m.is_pass() && m.from == square)
                .collect();
        } else {
            play.selection = None;
            play.targets.clear();
            self.refuse(IllegalMove::NoPieceToMove);
        }
    }

    /// A move tried in the exercise (from the board or the promotion question).
    pub(super) fn learn_try(&mut self, mv: Move) {
        let engine = self.analysis_engine();
        let id = self.next_search_id;
        let budget = self.analysis_budget;
        let Some(play) = &mut self.play else { return };
        play.selection = None;
        play.targets.clear();
        play.hand_cursor = None;
        let Some(learn) = &mut play.learn else { return };
        let exercise = learn.exercise().clone();
        if mv == exercise.played {
            learn.verdict = Some(Verdict::Same);
            self.refuse_text(Key::StatusLearnSame, &[]);
            return;
        }
        if exercise.best == Some(mv) {
            self.learn_verdict(mv, true);
            return;
        }
        if let Err(reason) = learn.game.clone().play(mv) {
            self.refuse(reason);
            return;
        }
        // Any other move: one search of the exercise's position among the tried move and
        // the best, with the analysis's budget, judges both by the same tree.
        let mut candidates = vec![mv];
        candidates.extend(exercise.best);
        self.next_search_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        learn.check = Some(Check {
            id,
            stop: Arc::clone(&stop),
            mv,
        });
        self.effects.push(Effect::StartAnalysis(Box::new(
            super::review::AnalysisJob {
                id,
                start: learn.game.start().clone(),
                moves: learn.game.moves().to_vec(),
                settings: analysis::Settings {
                    budget,
                    lines: candidates.len() as u32,
                },
                candidates,
                stop,
                engine,
            },
        )));
        let notation = play.notation_for(self.settings.language, self.settings.glyphs);
        let written = match &play.learn {
            Some(learn) => play.exercise_move_text(learn, mv, notation),
            None => String::new(),
        };
        let text = self
            .settings
            .language
            .format(Key::StatusLearnChecking, &[&written]);
        self.say(text);
    }

    /// The answer of a tried move's check; false when `id` is not one.
    pub(super) fn learn_check_finished(&mut self, id: u64, answer: &AnalysisAnswer) -> bool {
        let Some(learn) = self.play.as_mut().and_then(|p| p.learn.as_mut()) else {
            return false;
        };
        if learn.check.as_ref().map(|check| check.id) != Some(id) {
            return false;
        }
        let Some(check) = learn.check.take() else {
            return false;
        };
        match &answer.0 {
            Ok(found) => {
                let exercise = learn.exercise();
                let mover = learn.game.position().side_to_move();
                let kind = learn.game.variant().kind();
                let score_of = |mv: Move| {
                    found
                        .positions
                        .first()
                        .and_then(|report| report.evaluation_of(mv))
                };
                // The best move's score from the same search; the analysis's own when the
                // exercise has no best move.
                let best = match exercise.best {
                    Some(best) => score_of(best),
                    None => exercise.before,
                };
                let good = match (best, score_of(check.mv)) {
                    (Some(best), Some(tried)) => {
                        best.win_percent(kind, mover) - tried.win_percent(kind, mover)
                            < analysis::INACCURACY_LOSS
                    }
                    _ => false,
                };
                self.learn_verdict(check.mv, good);
            }
            Err(reason) => self.refuse_text(Key::StatusAnalysisFailed, &[reason]),
        }
        true
    }

    fn learn_verdict(&mut self, mv: Move, good: bool) {
        let notation = {
            let Some(play) = &self.play else { return };
            play.notation_for(self.settings.language, self.settings.glyphs)
        };
        let Some(play) = &mut self.play else { return };
        let Some(learn) = &play.learn else { return };
        let written = play.exercise_move_text(learn, mv, notation);
        let Some(learn) = &mut play.learn else { return };
        if good {
            learn.solved[learn.index] = true;
            learn.verdict = Some(Verdict::Right(mv));
            learn.hint = 2;
            play.hint = Some(mv);
            let text = self
                .settings
                .language
                .format(Key::StatusLearnRight, &[&written]);
            self.say(text);
        } else {
            learn.verdict = Some(Verdict::Wrong(mv));
            self.refuse_text(Key::StatusLearnWrong, &[&written]);
        }
    }

    /// `H` in an exercise: first the piece to move is picked, then the answer is shown.
    fn learn_hint(&mut self) {
        let Some(play) = &mut self.play else { return };
        let Some(learn) = &mut play.learn else { return };
        let Some(best) = learn.exercise().best else {
            return;
        };
        if learn.hint == 0 {
            learn.hint = 1;
            let legal = learn.game.legal_moves();
            let position = learn.game.position();
            if best.is_drop() {
                let kind = position
                    .hand(position.side_to_move())
                    .into_iter()
                    .map(|(kind, _)| kind)
                    .find(|&kind| shogi_hand_kind(kind) == Some(best.from));
                play.selection = kind.map(Selection::Hand);
                play.targets = legal
                    .iter()
                    .copied()
                    .filter(|m| m.is_drop() && m.from == best.from)
                    .collect();
            } else {
                play.cursor = best.from;
                play.selection = Some(Selection::Square(best.from));
                play.targets = legal
                    .iter()
                    .copied()
                    .filter(|m| !m.is_drop() && !m.is_pass() && m.from == best.from)
                    .collect();
            }
            let text = self.text(Key::StatusLearnHint).to_string();
            self.say(text);
            return;
        }
        learn.hint = 2;
        play.hint = Some(best);
        play.selection = None;
        play.targets.clear();
        let text = self.learn_answer_text();
        self.say(text);
    }

    /// "Engine's answer: …" with the engine's line in the move list's notation.
    pub fn learn_answer_text(&self) -> String {
        let Some(play) = &self.play else {
            return String::new();
        };
        let Some(learn) = &play.learn else {
            return String::new();
        };
        let exercise = learn.exercise();
        let notation = play.notation_for(self.settings.language, self.settings.glyphs);
        let previous = exercise
            .ply
            .checked_sub(1)
            .and_then(|index| play.game.moves().get(index))
            .copied();
        let mut line =
            analysis::line_text(learn.game.position(), previous, &exercise.line, notation);
        line.truncate(6);
        if line.is_empty() {
            if let Some(best) = exercise.best {
                line.push(play.exercise_move_text(learn, best, notation));
            }
        }
        self.settings
            .language
            .format(Key::LearnAnswer, &[&line.join(" ")])
    }
}
