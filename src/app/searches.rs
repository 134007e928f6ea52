//! The helpers around the CPU's searches: the hint key, search progress for the
//! thinking line, and what happens when an external engine resigns, declares a
//! win or fails (its side goes to the human and the game goes on).

use super::{
    limits_for_level, App, Effect, Key, Outcome, Player, Search, SearchReport, Side, HINT_TIME,
    MAX_LEVEL,
};
use crate::rules::any::AnyPosition;
use crate::rules::notation::format_move_after;
use crate::rules::{EndReason, Move, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

impl App {
    pub(super) fn stop_hint_search(&mut self) {
        if let Some(play) = &mut self.play {
            if let Some(search) = play.hint_search.take() {
                search.stop.store(true, Ordering::Relaxed);
                play.thinking = None;
            }
        }
    }

    /// The hint key: searches the human's position on a worker (built-in engine at full
    /// strength for [`HINT_TIME`]); the answer arrives as [`super::Action::ComputerMove`].
    pub(super) fn start_hint(&mut self) {
        if !self.can_move_now() {
            return;
        }
        let id = self.next_search_id;
        let Some(play) = &mut self.play else { return };
        if play.hint_search.is_some() {
            return;
        }
        // The configured hint engine when it plays this game, else the built-in one.
        let variant = play.game.variant();
        let engines = &self.settings.engines;
        let hint_engine = self.settings.hint_engine.filter(|&index| {
            engines
                .get(index)
                .is_some_and(|spec| spec.can_play(variant))
        });
        self.next_search_id += 1;
        let stop = Arc::new(AtomicBool::new(false));
        play.hint_search = Some(Search {
            id,
            stop: Arc::clone(&stop),
        });
        play.hint = None;
        play.thinking = None;
        self.effects.push(Effect::StartSearch {
            id,
            game: Box::new(play.game.clone()),
            limits: limits_for_level(variant.kind(), MAX_LEVEL, HINT_TIME),
            stop,
            engine: hint_engine,
        });
        let text = self.text(Key::StatusHintSearching).to_string();
        self.say(text);
    }

    /// The answer of a hint search: highlight the move and say it in the game's notation.
    pub(super) fn hint_found(&mut self, mv: Option<Move>) {
        let language = self.settings.language;
        let glyphs = self.settings.glyphs;
        let Some(play) = &mut self.play else { return };
        play.hint_search = None;
        play.thinking = None;
        let Some(mv) = mv else { return };
        let position = play.game.position();
        let previous = play.game.moves().last().copied();
        let notation = play.notation_for(language, glyphs);
        let written = format_move_after(position, mv, notation, previous);
        play.hint = Some(mv);
        let text = language.format(Key::StatusHint, &[&written]);
        self.say(text);
    }

    /// The engine of the current search resigned (`declares_win` false) or declared a win.
    pub(super) fn engine_ends_game(&mut self, id: u64, declares_win: bool) {
        let Some(play) = &mut self.play else { return };
        if play.search.as_ref().map(|s| s.id) != Some(id) {
            return;
        }
        play.search = None;
        play.thinking = None;
        let side = play.game.position().side_to_move();
        let outcome = if !declares_win {
            Some(Outcome::win(side.opponent(), EndReason::Resignation))
        } else {
            match play.game.position() {
                AnyPosition::Shogi(shogi) if shogi.declaration_wins(side) => {
                    Some(Outcome::win(side, EndReason::Impasse))
                }
                _ => None,
            }
        };
        match outcome {
            Some(outcome) => {
                play.game.declare(outcome);
                self.overlay = None;
                self.after_change();
            }
            None => {
                let message = self.text(Key::EngineFalseDeclaration).to_string();
                self.hand_side_to_human(side, &message);
            }
        }
    }

    /// An external engine failed: its side goes to the human and the game goes on.
    pub(super) fn engine_failed(&mut self, id: u64, message: &str) {
        let Some(play) = &mut self.play else { return };
        let is = |search: &Option<Search>| search.as_ref().map(|s| s.id) == Some(id);
        if is(&play.hint_search) {
            play.hint_search = None;
            play.thinking = None;
            self.refuse_text(Key::StatusHintFailed, &[message]);
            return;
        }
        if !is(&play.search) {
            return;
        }
        play.search = None;
        play.thinking = None;
        let side = play.game.position().side_to_move();
        self.hand_side_to_human(side, message);
    }

    pub(super) fn hand_side_to_human(&mut self, side: Side, message: &str) {
        let Some(play) = &mut self.play else { return };
        play.players[side.index()] = Player::Human;
        play.options.players[side.index()] = Player::Human;
        self.refuse_text(Key::StatusEngineFailed, &[message]);
        self.start_search_if_needed();
    }

    /// Keeps the latest progress report of the search in progress (stale ones are dropped).
    pub(super) fn search_progress(&mut self, id: u64, report: SearchReport) {
        let Some(play) = &mut self.play else { return };
        let current = |search: &Option<Search>| search.as_ref().map(|s| s.id) == Some(id);
        if current(&play.search) || current(&play.hint_search) {
            play.thinking = Some(report);
        }
    }
}
