//! The game as a tree in the interface: moves go into the tree along the current
//! line, a different move at an earlier position makes a variation (the old line
//! stays), and the variation list (a popup over the game) switches to, promotes and
//! deletes the variations at the shown position, with undo of a deletion.

use super::{Action, App, Overlay, Play};
use crate::i18n::Key;
use crate::rules::notation::format_move_after;
use crate::rules::Move;
use crate::tree::NodeId;
use std::time::Duration;

impl Play {
    /// The tree node of the position after `ply` moves of the current line (the root
    /// for ply 0).
    pub fn node_at(&self, ply: usize) -> NodeId {
        match ply.checked_sub(1) {
            Some(index) => self.line.get(index).copied().unwrap_or(NodeId::ROOT),
            None => NodeId::ROOT,
        }
    }

    /// The move redo replays: the current line's next move after the present.
    pub fn next_on_line(&self) -> Option<Move> {
        let present = self.game.moves().len();
        self.tree.move_of(*self.line.get(present)?)
    }

    /// The moves of the whole current line (played and still to replay).
    pub fn line_moves(&self) -> Vec<Move> {
        self.tree.moves_of(&self.line)
    }

    /// The variations at the position after `ply` moves of the current line: the moves
    /// that follow it in the tree, main continuation first.
    pub fn variations_at(&self, ply: usize) -> &[NodeId] {
        self.tree.children(self.node_at(ply))
    }

    /// Plays a move on the game and puts it into the tree (as the app does for every
    /// move, without clocks or the CPU): for setting up positions in tests and samples.
    /// True when it made a new variation.
    pub fn play_and_record(&mut self, mv: Move) -> Result<bool, crate::rules::IllegalMove> {
        self.game.play(mv)?;
        Ok(self.record_move(mv))
    }

    /// Puts a move just played (already in [`Play::game`]) into the tree: it follows the
    /// line when it is the line's next move, else it takes an existing variation or
    /// makes a new one and the line turns into it. True when a new variation was made
    /// beside moves already there.
    pub(super) fn record_move(&mut self, mv: Move) -> bool {
        let ply = self.game.moves().len();
        let parent = self.node_at(ply - 1);
        if let Some(&next) = self.line.get(ply - 1) {
            if self.tree.move_of(next) == Some(mv) {
                return false;
            }
        }
        let (child, new) = self.tree.add_move(parent, mv);
        self.line.truncate(ply - 1);
        self.line.push(child);
        self.line.extend(self.tree.main_continuation(child));
        new && self.tree.children(parent).len() > 1
    }

    /// Makes `line` the current line with the game at its `present` ply: the game is
    /// taken back to where the lines part and played on along the new one (so the
    /// history-aware rules see the new line). Stops early where a move is refused.
    pub(super) fn follow_line(&mut self, line: Vec<NodeId>, present: usize) {
        self.keep_declared_result();
        let played = self.game.moves().len();
        let common = self
            .line
            .iter()
            .zip(&line)
            .take(played.min(present))
            .take_while(|(a, b)| a == b)
            .count();
        while self.game.moves().len() > common {
            if self.game.undo().is_none() {
                break;
            }
        }
        self.line = line;
        for ply in common..present.min(self.line.len()) {
            let Some(mv) = self.tree.move_of(self.line[ply]) else {
                break;
            };
            if self.game.play(mv).is_err() {
                break;
            }
        }
        let now = self.game.moves().len();
        self.evaluations.retain(|e| e.ply < now.min(common + 1));
        self.restore_declared_result();
    }

    /// When the game stands at a node where a result was declared (and the position
    /// itself has not ended the game), declares it again.
    pub(super) fn restore_declared_result(&mut self) {
        if self.game.outcome().is_none() {
            if let Some(result) = self.tree.result_of(self.node_at(self.game.moves().len())) {
                self.game.declare(result);
            }
        }
    }

    /// Before the game leaves the position it stands at: a result declared there (a
    /// resignation, a record's stated result) is kept on its tree node, so coming back
    /// along that line ([`Play::follow_line`]) shows it again.
    pub(super) fn keep_declared_result(&mut self) {
        if let Some(result) = self.game.declared() {
            let node = self.node_at(self.game.moves().len());
            self.tree.set_result(node, Some(result));
        }
    }

    /// Each move's time along the played part of the line (index 0 = first move), as
    /// the record and the autosave keep them; empty when no move has one.
    pub fn move_times(&self) -> Vec<Option<Duration>> {
        let played = self.game.moves().len();
        let mut times: Vec<Option<Duration>> = self.line[..played.min(self.line.len())]
            .iter()
            .map(|&id| self.tree.node(id).annotation.time)
            .collect();
        while times.last() == Some(&None) {
            times.pop();
        }
        times
    }

    /// Takes a whole tree and current line (a resumed game, an opened record) when the
    /// line begins with the moves the game has played; otherwise keeps the game's own.
    pub fn adopt_tree(&mut self, tree: crate::tree::GameTree, line: Vec<NodeId>) {
        let played = self.game.moves().len();
        if line.len() >= played && tree.moves_of(&line[..played]) == self.game.moves() {
            self.tree = tree;
            self.line = line;
        }
    }
}

impl App {
    /// Opens the variation list at the shown position, the current line's move highlighted.
    pub(super) fn open_variations(&mut self) {
        let Some(play) = &self.play else { return };
        let ply = play.shown_ply();
        let current = play.line.get(ply);
        let choice = play
            .variations_at(ply)
            .iter()
            .position(|id| Some(id) == current)
            .unwrap_or(0);
        self.overlay = Some(Overlay::Variations { choice });
    }

    /// Keys in the variation list.
    pub(super) fn update_variations(&mut self, choice: usize, action: Action) {
        let Some(play) = &self.play else { return };
        let ply = play.shown_ply();
        let count = play.variations_at(ply).len();
        match action {
            Action::Up => {
                self.overlay = Some(Overlay::Variations {
                    choice: choice.saturating_sub(1),
                })
            }
            Action::Down => {
                self.overlay = Some(Overlay::Variations {
                    choice: (choice + 1).min(count.saturating_sub(1)),
                })
            }
            Action::Select if choice < count => self.switch_variation(ply, choice),
            Action::PromoteVariation if choice < count => self.promote_variation(ply, choice),
            Action::DeleteVariation if choice < count => self.delete_variation(ply, choice),
            Action::Undo => self.undo_delete_variation(ply),
            Action::Cancel | Action::Variations | Action::Quit => self.overlay = None,
            _ => {}
        }
    }

    /// The first move of variation `id`, written in the move list's notation.
    pub fn variation_text(&self, play: &Play, ply: usize, id: NodeId) -> String {
        let Some(mv) = play.tree.move_of(id) else {
            return String::new();
        };
        let position = &play.game.positions()[ply.min(play.game.moves().len())];
        let previous = ply
            .checked_sub(1)
            .and_then(|index| play.line.get(index))
            .and_then(|&node| play.tree.move_of(node));
        let notation = play.notation(self.settings.language);
        if ply <= play.game.moves().len() {
            format_move_after(position, mv, notation, previous)
        } else {
            String::new()
        }
    }

    fn variation_status(&mut self, key: Key, ply: usize, id: NodeId) {
        let Some(play) = &self.play else { return };
        let text = format!("{}. {}", ply + 1, self.variation_text(play, ply, id));
        let text = self.settings.language.format(key, &[&text]);
        self.say(text);
    }

    /// Switches the current line to variation `choice` after `ply`: the game follows it
    /// to its end and the position after its first move is shown.
    fn switch_variation(&mut self, ply: usize, choice: usize) {
        self.stop_search();
        let Some(play) = &mut self.play else { return };
        let id = play.variations_at(ply)[choice];
        let line = play.tree.line_through(id);
        let end = line.len();
        play.follow_line(line, end);
        let played = play.game.moves().len();
        play.review = (ply + 1 < played).then_some(ply + 1);
        play.selection = None;
        play.targets.clear();
        play.history_recorded = false;
        self.overlay = None;
        self.variation_status(Key::StatusVariationSwitched, ply, id);
        self.clock_to_mover();
        self.after_change_without_game_over();
    }

    /// Makes variation `choice` after `ply` the main continuation there.
    fn promote_variation(&mut self, ply: usize, choice: usize) {
        let Some(play) = &mut self.play else { return };
        let id = play.variations_at(ply)[choice];
        play.tree.promote(id);
        self.overlay = Some(Overlay::Variations { choice: 0 });
        self.variation_status(Key::StatusVariationPromoted, ply, id);
        self.autosave();
    }

    /// Deletes variation `choice` after `ply`. When the current line ran through it, the
    /// line turns into the main continuation that is left and the game steps back to `ply`.
    fn delete_variation(&mut self, ply: usize, choice: usize) {
        self.stop_search();
        let Some(play) = &self.play else { return };
        let id = play.variations_at(ply)[choice];
        // Its text is written before it goes.
        let text = format!("{}. {}", ply + 1, self.variation_text(play, ply, id));
        let Some(play) = &mut self.play else { return };
        play.tree.delete(id);
        if play.line.get(ply) == Some(&id) {
            let parent = play.node_at(ply);
            let mut line = play.line[..ply].to_vec();
            line.extend(play.tree.main_continuation(parent));
            play.follow_line(line, ply);
            play.review = None;
            play.history_recorded = false;
        }
        let left = play.variations_at(ply).len();
        self.overlay = Some(Overlay::Variations {
            choice: choice.min(left.saturating_sub(1)),
        });
        let text = self
            .settings
            .language
            .format(Key::StatusVariationDeleted, &[&text]);
        self.say(text);
        self.clock_to_mover();
        self.after_change_without_game_over();
    }

    /// Brings back the last deleted variation.
    fn undo_delete_variation(&mut self, ply: usize) {
        let Some(play) = &mut self.play else { return };
        let Some(id) = play.tree.undo_delete() else {
            self.refuse_text(Key::StatusNothingToRestore, &[]);
            return;
        };
        let choice = play.variations_at(ply).iter().position(|&c| c == id);
        if let Some(choice) = choice {
            self.overlay = Some(Overlay::Variations { choice });
        }
        // A variation deleted at another position comes back there; its text then has
        // no position to be written from here.
        let parent_ply = play.tree.depth(id) - 1;
        let on_line = parent_ply == 0
            || play.line.get(parent_ply - 1) == play.tree.node(id).parent().as_ref();
        if on_line && parent_ply <= play.game.moves().len() {
            self.variation_status(Key::StatusVariationRestored, parent_ply, id);
        } else {
            let text = self
                .settings
                .language
                .format(Key::StatusVariationRestored, &[""]);
            self.say(text);
        }
        self.autosave();
    }
}
