//! Live analysis (검토, 検討): an endless search of the position on the board, whose best
//! lines (MultiPV) the analysis panel shows while the player browses the game and tries
//! moves. The search runs on a worker ([`Effect::StartLiveAnalysis`]), never in `update`.
//!
//! It follows the shown position: after every action `App::follow_live_analysis`
//! compares the position the search is about with the one on the board and restarts the
//! search when they differ (browsing with `[`/`]`, jumping, switching variations, a
//! move tried at an earlier position, which the tree keeps as a variation).
//!
//! It never competes with the CPU opponent or the hint for the machine or an engine:
//! while either thinks, live analysis waits (the panel says so) and picks up on the new
//! position when they are done. A player practising against the CPU keeps the analysis
//! on and sees the lines whenever it is their turn; pausing the game (`P`) lets them
//! analyse the CPU's turn as well. New games, opened records and quitting turn it off.
//!
//! Reports arrive as fast as the engine completes depths; the panel takes them at most
//! every [`SHOWN_EVERY_TICKS`] ticks, so the text changes a few times a second and
//! does not flicker.

use super::{App, Effect, Screen, Search};
use crate::engine::report::SearchReport;
use crate::i18n::Key;
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::Move;
use crate::tree::NodeId;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The most lines live analysis shows.
pub const MAX_LINES: usize = 5;
/// The lines shown when nobody has chosen.
pub const DEFAULT_LINES: usize = 3;
/// The panel takes new reports at most every this many ticks (a tick is 100 ms).
pub const SHOWN_EVERY_TICKS: u64 = 3;

/// The position a live search is about: where the board showed it in the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    /// The tree node of the position (the root for the start).
    pub node: NodeId,
    /// The moves before it along the current line.
    pub ply: usize,
    /// The position itself.
    pub position: AnyPosition,
    /// The move that led to it (for shogi's 同 in the lines).
    pub previous: Option<Move>,
}

/// Why live analysis is on but not searching.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Waiting {
    /// Searching (or finished): nothing to wait for.
    No,
    /// The CPU opponent or the hint search is thinking.
    ForComputer,
    /// The shown position has no legal move.
    NoMoves,
}

/// The state of live analysis.
#[derive(Clone, Debug)]
pub struct LiveAnalysis {
    /// True while the player has it on.
    pub on: bool,
    /// How many lines to search and show (1–[`MAX_LINES`]).
    pub lines: usize,
    /// The search in progress.
    pub search: Option<Search>,
    /// The position the lines are about.
    pub subject: Option<Subject>,
    /// The lines the panel shows, best first.
    pub shown: Vec<SearchReport>,
    /// True when the search ended by itself (the lines are final).
    pub finished: bool,
    /// Why it is not searching.
    pub waiting: Waiting,
    /// The name of the engine that searches (cleaned for the screen).
    pub engine_name: String,
    /// A test hook: each search stops after about this many nodes (and answers
    /// [`crate::action::Action::LiveFinished`]), so tests end without timing.
    pub node_limit: Option<u64>,
    /// The latest report of each line, not yet shown (index 0: the best line).
    received: Vec<Option<SearchReport>>,
    /// True when `received` holds something the panel has not taken.
    fresh: bool,
    /// The tick when the panel last took the reports.
    shown_at: u64,
}

impl Default for LiveAnalysis {
    fn default() -> Self {
        LiveAnalysis {
            on: false,
            lines: DEFAULT_LINES,
            search: None,
            subject: None,
            shown: Vec::new(),
            finished: false,
            waiting: Waiting::No,
            engine_name: String::new(),
            node_limit: None,
            received: Vec::new(),
            fresh: false,
            shown_at: 0,
        }
    }
}

impl LiveAnalysis {
    /// True while a search runs.
    pub fn searching(&self) -> bool {
        self.search.is_some()
    }

    /// The best move of the shown lines, when they are about `subject`'s position.
    pub fn best_move(&self) -> Option<Move> {
        if !self.on {
            return None;
        }
        self.shown.first()?.principal_variation.first().copied()
    }

    fn stop_search(&mut self) {
        if let Some(search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
        }
    }

    fn forget_lines(&mut self) {
        self.shown.clear();
        self.received.clear();
        self.fresh = false;
        self.finished = false;
    }

    /// Moves the received reports to the panel.
    fn publish(&mut self, tick: u64) {
        self.shown = self.received.iter().map_while(Clone::clone).collect();
        self.fresh = false;
        self.shown_at = tick;
    }
}

impl App {
    /// The live analysis key: on (searching the shown position) or off (stopped).
    pub(super) fn toggle_live_analysis(&mut self) {
        if self.live.on {
            self.turn_live_analysis_off();
            let text = self.text(Key::StatusLiveOff).to_string();
            self.say(text);
            return;
        }
        let Some(play) = &self.play else { return };
        let variant = play.game.variant();
        let engine = self.live_engine(variant);
        self.live.engine_name = match engine.and_then(|index| self.settings.engines.get(index)) {
            Some(spec) => crate::untrusted::quote(&spec.name, 24),
            None => "qipan".to_string(),
        };
        self.live.on = true;
        self.live.subject = None;
        self.live.forget_lines();
        let text = self
            .settings
            .language
            .format(Key::StatusLiveOn, &[&self.live.engine_name]);
        self.say(text);
    }

    /// Stops the search and turns live analysis off (new game, opened record, quitting).
    pub(super) fn turn_live_analysis_off(&mut self) {
        self.live.stop_search();
        self.live.on = false;
        self.live.subject = None;
        self.live.waiting = Waiting::No;
        self.live.forget_lines();
    }

    /// `<` / `>`: one line fewer or more (1–5); a running search starts again with the
    /// new count.
    pub(super) fn change_live_lines(&mut self, delta: i32) {
        let lines = (self.live.lines as i32 + delta).clamp(1, MAX_LINES as i32) as usize;
        let changed = lines != self.live.lines;
        self.live.lines = lines;
        let text = self
            .settings
            .language
            .format(Key::StatusLiveLines, &[&lines.to_string()]);
        self.say(text);
        if changed && self.live.on {
            self.live.stop_search();
            self.live.received.truncate(lines);
            self.live.shown.truncate(lines);
            self.live.finished = false;
        }
    }

    /// The external engine live analysis asks: the configured analysis engine when it
    /// plays this game, else the hint engine when it does (else the built-in one).
    pub(super) fn live_engine(&self, variant: crate::rules::any::Variant) -> Option<usize> {
        [self.settings.analysis_engine, self.settings.hint_engine]
            .into_iter()
            .flatten()
            .find(|&index| {
                self.settings
                    .engines
                    .get(index)
                    .is_some_and(|spec| spec.can_play(variant))
            })
    }

    /// Keeps the search on the shown position: called after every action. Stops it when
    /// there is no game on screen or the CPU or the hint thinks; (re)starts it when the
    /// shown position changed or a pause ended.
    pub(super) fn follow_live_analysis(&mut self) {
        if !self.live.on {
            return;
        }
        if self.quit {
            self.turn_live_analysis_off();
            return;
        }
        let on_screen = self.screen == Screen::Game;
        let Some(play) = self.play.as_ref().filter(|_| on_screen) else {
            self.live.stop_search();
            return;
        };
        let ply = play.shown_ply();
        let node = play.node_at(ply);
        let moved =
            self.live.subject.as_ref().is_none_or(|s| {
                s.node != node || s.ply != ply || s.position != *play.shown_position()
            });
        if moved {
            self.live.stop_search();
            self.live.forget_lines();
            self.live.subject = Some(Subject {
                node,
                ply,
                position: play.shown_position().clone(),
                previous: play.shown_last_move(),
            });
        }
        if play.search.is_some() || play.hint_search.is_some() {
            self.live.stop_search();
            self.live.waiting = Waiting::ForComputer;
            return;
        }
        if self.live.search.is_some() || self.live.finished {
            return;
        }
        let game = searchable_game(&play.game, ply);
        if game.legal_moves().is_empty() {
            self.live.waiting = Waiting::NoMoves;
            return;
        }
        self.live.waiting = Waiting::No;
        let engine = self.live_engine(game.variant());
        let id = self.next_search_id;
        self.next_search_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        self.live.search = Some(Search {
            id,
            stop: Arc::clone(&stop),
        });
        self.live.received = vec![None; self.live.lines];
        self.live.fresh = false;
        self.effects.push(Effect::StartLiveAnalysis {
            id,
            game: Box::new(game),
            lines: self.live.lines as u32,
            node_limit: self.live.node_limit,
            stop,
            engine,
        });
    }

    fn is_live_search(&self, id: u64) -> bool {
        self.live.search.as_ref().is_some_and(|s| s.id == id)
    }

    /// A line's progress: kept, and shown at once when the panel has nothing yet, else
    /// at the next [`SHOWN_EVERY_TICKS`] tick.
    pub(super) fn live_progress(&mut self, id: u64, line: u32, report: SearchReport) {
        if !self.is_live_search(id) {
            return; // a stopped search's last words
        }
        let index = line.max(1) as usize - 1;
        let Some(slot) = self.live.received.get_mut(index) else {
            return;
        };
        *slot = Some(report);
        self.live.fresh = true;
        if self.live.shown.is_empty() && self.live.received[0].is_some() {
            self.live.publish(self.ticks);
        }
    }

    /// The clock tick: the panel takes the reports received since it last did.
    pub(super) fn live_tick(&mut self) {
        let due = self.ticks >= self.live.shown_at + SHOWN_EVERY_TICKS;
        if self.live.fresh && due && self.live.received.first().is_some_and(Option::is_some) {
            self.live.publish(self.ticks);
        }
    }

    /// The search ended by itself: its final lines are shown.
    pub(super) fn live_finished(&mut self, id: u64, lines: Vec<SearchReport>) {
        if !self.is_live_search(id) {
            return;
        }
        self.live.search = None;
        self.live.finished = true;
        if !lines.is_empty() {
            self.live.shown = lines.into_iter().take(self.live.lines).collect();
        } else {
            self.live.publish(self.ticks);
        }
        self.live.fresh = false;
    }

    /// The live analysis engine failed: analysis goes off and the status line says why.
    pub(super) fn live_failed(&mut self, id: u64, message: &str) {
        if !self.is_live_search(id) {
            return;
        }
        self.turn_live_analysis_off();
        let message = crate::untrusted::quote(message, crate::untrusted::QUOTE_CHARS * 2);
        self.refuse_text(Key::StatusLiveFailed, &[&message]);
    }
}

/// The game up to `ply` moves, with the history the rules need; a result declared off
/// the board (a resignation, a flag) is left out so the last position can be analysed.
fn searchable_game(game: &Game, ply: usize) -> Game {
    let mut game = game.clone();
    while game.moves().len() > ply {
        game.undo();
    }
    if game.outcome().is_some() {
        if let Some(last) = game.undo() {
            let _ = game.play(last);
        }
    }
    game
}
