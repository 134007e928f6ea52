//! The game clocks in the app: started with the game, switched after every move,
//! checked on every tick (a flag fall ends the game on time), paused (against the CPU
//! too, which then stops thinking), and turned into the CPU's search limits.

use super::{App, Overlay, Player, Question};
use crate::clock::{Clock, SideTime, TimeControl};
use crate::engine::Limits;
use crate::i18n::Key;
use crate::record::autosave::SavedClock;
use crate::rules::{EndReason, Outcome, Position, Side};
use std::time::{Duration, Instant};

/// What the CPU keeps back from its clock: thread start-up, the move reaching the
/// app and a busy machine must never cost it the game.
pub const CPU_SAFETY_MARGIN: Duration = Duration::from_secs(1);

impl App {
    /// The current time from the app's time source.
    pub fn now(&self) -> Instant {
        self.time.now()
    }

    /// A clock for a game starting (or resuming with the `saved` times), running for the
    /// side to move; `None` when untimed.
    pub(super) fn new_clock(
        &self,
        control: TimeControl,
        mover: Side,
        saved: Option<SavedClock>,
    ) -> Option<Clock> {
        let mut clock = match saved {
            Some(saved) => Clock::with_times(saved.control, saved.times),
            None => Clock::new(control),
        };
        if !clock.control().is_timed() {
            return None;
        }
        clock.start(mover, self.now());
        Some(clock)
    }

    /// Ends the game on time when the running clock has run out; true when it did
    /// (or the game had already ended that way).
    pub(super) fn check_flag(&mut self) -> bool {
        let now = self.now();
        let Some(play) = &mut self.play else {
            return false;
        };
        if !play.in_progress() {
            return play
                .game
                .outcome()
                .is_some_and(|o| o.reason() == EndReason::Timeout);
        }
        let Some(side) = play.clock.as_ref().and_then(|c| c.flag_fall(now)) else {
            return false;
        };
        play.game
            .declare(Outcome::win(side.opponent(), EndReason::Timeout));
        play.selection = None;
        play.targets.clear();
        // The result replaces any popup: a question, a promotion choice, a half-typed move.
        self.overlay = None;
        self.status = None;
        self.after_change();
        true
    }

    /// After a move: the mover's clock stops (with its increment or fresh period), the
    /// opponent's starts, and the move's time is kept for the record.
    pub(super) fn clock_after_move(&mut self) {
        let now = self.now();
        let Some(play) = self.play.as_mut() else {
            return;
        };
        if let Some(clock) = play.clock.as_mut() {
            let spent = clock.turn_time(now);
            clock.complete_move(now);
            let ply = play.game.moves().len();
            if let Some(&node) = ply.checked_sub(1).and_then(|index| play.line.get(index)) {
                play.tree.annotation_mut(node).time = Some(spent);
            }
        }
    }

    /// After a takeback or replay: the clock runs for the side now to move, with no
    /// increment for the moves that went back and forth.
    pub(super) fn clock_to_mover(&mut self) {
        let now = self.now();
        let Some(play) = &mut self.play else { return };
        let mover = play.game.position().side_to_move();
        if let Some(clock) = &mut play.clock {
            if play.game.outcome().is_none() {
                clock.start(mover, now);
            }
        }
    }

    /// Stops the clocks for good (the game has ended).
    pub(super) fn stop_clock(&mut self) {
        let now = self.now();
        if let Some(clock) = self.play.as_mut().and_then(|p| p.clock.as_mut()) {
            clock.stop(now);
        }
    }

    /// True while the clocks are paused.
    pub fn paused(&self) -> bool {
        self.play
            .as_ref()
            .and_then(|p| p.clock.as_ref())
            .is_some_and(Clock::is_paused)
    }

    /// Pauses or resumes both clocks. Against the CPU a pause also stops its search
    /// (the thinking is lost, never the time): it starts again on resume.
    pub(super) fn toggle_pause(&mut self) {
        let now = self.now();
        let Some(play) = &mut self.play else { return };
        let in_progress = play.in_progress();
        let Some(clock) = play.clock.as_mut() else {
            self.refuse_text(Key::StatusNoClock, &[]);
            return;
        };
        if !in_progress {
            self.refuse_text(Key::StatusGameOver, &[]);
        } else if clock.is_paused() {
            clock.resume(now);
            self.status = None;
            self.start_search_if_needed();
        } else {
            clock.pause(now);
            self.stop_search();
            let text = self.text(Key::StatusPausedHint).to_string();
            self.say(text);
        }
    }

    /// Undo: in a timed hotseat game both players must agree first.
    pub(super) fn undo_asking(&mut self) {
        let Some(play) = &self.play else { return };
        if play
            .game
            .outcome()
            .is_some_and(|o| o.reason() == EndReason::Timeout)
        {
            // A time loss is final: the clock cannot be taken back.
            self.refuse_text(Key::StatusLostOnTime, &[]);
            return;
        }
        if self.both_must_agree() && !play.game.moves().is_empty() {
            self.overlay = Some(Overlay::Confirm(Question::Undo));
        } else {
            self.undo();
        }
    }

    /// Redo: replaying taken-back moves changes whose clock runs, so in a timed hotseat
    /// game both players must agree to it as to an undo.
    pub(super) fn redo_asking(&mut self) {
        let Some(play) = &self.play else { return };
        if self.both_must_agree() && play.next_on_line().is_some() {
            self.overlay = Some(Overlay::Confirm(Question::Redo));
        } else {
            self.redo();
        }
    }

    /// True in a timed game in progress between two people at one keyboard, where a
    /// takeback or replay needs both players' yes.
    fn both_must_agree(&self) -> bool {
        self.play.as_ref().is_some_and(|play| {
            play.clock.is_some()
                && play.players == [Player::Human, Player::Human]
                && play.in_progress()
        })
    }

    /// The CPU's search limits: its level's, capped by what its clock allows.
    pub(super) fn limits_with_clock(&self, level_limits: Limits, side: Side) -> Limits {
        let Some(clock) = self.play.as_ref().and_then(|p| p.clock.as_ref()) else {
            return level_limits;
        };
        clock_limits(level_limits, clock.control(), clock.time(side, self.now()))
    }
}

/// Adds a clock to search limits, keeping back [`CPU_SAFETY_MARGIN`] (at most a quarter
/// of what is left) so the CPU never loses on time with time on its clock: in byoyomi
/// it never thinks past its period.
pub fn clock_limits(mut limits: Limits, control: TimeControl, time: SideTime) -> Limits {
    let margin = CPU_SAFETY_MARGIN.min(time.until_flag() / 4);
    match control {
        TimeControl::None => return limits,
        TimeControl::SuddenDeath { .. } => {}
        TimeControl::Fischer { increment, .. } => limits.increment = increment,
        TimeControl::Byoyomi { .. } => {
            limits.byoyomi = if time.periods > 0 {
                time.period.saturating_sub(margin)
            } else {
                Duration::ZERO
            };
        }
    }
    // The engine plans at most a third of this plus the byoyomi period.
    limits.time_left = Some(time.main.saturating_sub(margin));
    limits
}
