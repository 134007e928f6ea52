//! Key-sequence tests of the game tree in the app: playing on from an earlier position
//! makes a variation and keeps the old line (issue 12, item 1); the variation list
//! switches, promotes, deletes and undoes a deletion.

use super::test_support::{play, press, status};
use super::*;
use crate::record::autosave;
use crate::ui::benchmark::parse_move;

fn new_game(kind: GameKind) -> App {
    App::with_game(Settings::default(), StartOptions::for_game(kind))
}

/// Plays a move by clicking its squares (engine coordinates, e.g. `h3e3`), from the
/// shown position.
fn click_move(app: &mut App, text: &str) -> Move {
    let mv = parse_move(play(app).shown_position(), text).expect(text);
    app.update(Action::ClickSquare(mv.from));
    app.update(Action::ClickSquare(mv.to));
    mv
}

fn tree_moves(app: &App, ply: usize) -> Vec<Move> {
    let play = play(app);
    play.tree.moves_of(play.variations_at(ply))
}

/// Xiangqi, three moves, then back to move 2 and a different third move.
fn with_variation() -> (App, [Move; 4]) {
    let mut app = new_game(GameKind::Xiangqi);
    let a = click_move(&mut app, "h3e3");
    let b = click_move(&mut app, "h10g8");
    let c = click_move(&mut app, "b1c3");
    assert_eq!(play(&app).game.moves(), &[a, b, c]);
    app.update(Action::HistoryBack);
    assert_eq!(play(&app).review, Some(2));
    let d = click_move(&mut app, "h1g3");
    (app, [a, b, c, d])
}

#[test]
fn playing_on_from_an_earlier_position_keeps_the_old_line() {
    let (mut app, [a, b, c, d]) = with_variation();
    assert_eq!(play(&app).game.moves(), &[a, b, d]);
    assert!(status(&app).contains("new variation"), "{}", status(&app));
    // Both third moves are in the tree, the old one still the main line.
    assert_eq!(tree_moves(&app, 2), vec![c, d]);
    assert_eq!(
        play(&app).tree.moves_of(&play(&app).tree.main_line()),
        vec![a, b, c]
    );
    // The old continuation is reachable: back one, the list, the main line, Enter.
    press(&mut app, &[Action::HistoryBack, Action::Variations]);
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 1 }));
    press(&mut app, &[Action::Up, Action::Select]);
    assert_eq!(app.overlay, None);
    assert_eq!(play(&app).game.moves(), &[a, b, c]);
    assert!(status(&app).contains("variation"), "{}", status(&app));
}

#[test]
fn undo_then_a_different_move_then_redo_follows_the_current_line() {
    let mut app = new_game(GameKind::Xiangqi);
    let a = click_move(&mut app, "h3e3");
    let b = click_move(&mut app, "h10g8");
    app.update(Action::Undo);
    assert_eq!(play(&app).next_on_line(), Some(b));
    // A different reply: the old one stays as a variation, nothing is cut.
    let c = click_move(&mut app, "b10c8");
    assert!(status(&app).contains("new variation"), "{}", status(&app));
    assert_eq!(tree_moves(&app, 1), vec![b, c]);
    // Undo and redo walk the current line (the new variation), not the main line.
    press(&mut app, &[Action::Undo, Action::Redo]);
    assert_eq!(play(&app).game.moves(), &[a, c]);
    app.update(Action::Redo);
    assert!(status(&app).contains("Nothing to redo"), "{}", status(&app));
    // Playing the line's next move again follows it: no new variation.
    app.update(Action::Undo);
    click_move(&mut app, "b10c8");
    assert!(!status(&app).contains("variation"), "{}", status(&app));
    assert_eq!(tree_moves(&app, 1), vec![b, c]);
}

#[test]
fn the_move_list_line_keeps_what_redo_replays() {
    let (mut app, [a, b, c, _]) = with_variation();
    press(
        &mut app,
        &[
            Action::HistoryBack,
            Action::Variations,
            Action::Up,
            Action::Select,
        ],
    );
    press(&mut app, &[Action::Undo, Action::Undo]);
    assert_eq!(play(&app).game.moves(), &[a]);
    assert_eq!(play(&app).line_moves(), vec![a, b, c]);
}

#[test]
fn switching_to_a_variation_follows_it() {
    let (mut app, [a, b, c, d]) = with_variation();
    press(
        &mut app,
        &[
            Action::HistoryBack,
            Action::Variations,
            Action::Up,
            Action::Select,
        ],
    );
    assert_eq!(play(&app).game.moves(), &[a, b, c]);
    press(&mut app, &[Action::HistoryBack, Action::Variations]);
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 0 }));
    press(&mut app, &[Action::Down, Action::Select]);
    assert_eq!(play(&app).game.moves(), &[a, b, d]);
    assert_eq!(play(&app).review, None);
    // At the start: switching to the first move's line shows the position after it.
    press(
        &mut app,
        &[Action::HistoryStart, Action::Variations, Action::Select],
    );
    assert_eq!(play(&app).game.moves(), &[a, b, c]);
    assert_eq!(play(&app).review, Some(1));
}

#[test]
fn promoting_a_variation_makes_it_the_main_line() {
    let (mut app, [a, b, c, d]) = with_variation();
    press(&mut app, &[Action::HistoryBack, Action::Variations]);
    app.update(Action::PromoteVariation);
    assert_eq!(tree_moves(&app, 2), vec![d, c]);
    let tree = &play(&app).tree;
    assert_eq!(tree.moves_of(&tree.main_line()), vec![a, b, d]);
    assert!(status(&app).contains("main line"), "{}", status(&app));
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 0 }));
}

#[test]
fn deleting_a_variation_and_undoing_the_delete() {
    let (mut app, [a, b, c, d]) = with_variation();
    press(
        &mut app,
        &[Action::HistoryBack, Action::Variations, Action::Up],
    );
    app.update(Action::DeleteVariation);
    assert_eq!(tree_moves(&app, 2), vec![d]);
    assert!(status(&app).contains("deleted"), "{}", status(&app));
    // The current line (through d) is untouched.
    assert_eq!(play(&app).game.moves(), &[a, b, d]);
    app.update(Action::Undo);
    assert_eq!(tree_moves(&app, 2), vec![c, d]);
    assert!(status(&app).contains("back"), "{}", status(&app));
    app.update(Action::Undo);
    assert!(
        status(&app).contains("No deleted variation"),
        "{}",
        status(&app)
    );
}

#[test]
fn deleting_the_current_line_steps_back_onto_what_is_left() {
    let (mut app, [a, b, c, d]) = with_variation();
    press(&mut app, &[Action::HistoryBack, Action::Variations]);
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 1 }));
    app.update(Action::DeleteVariation);
    assert_eq!(play(&app).game.moves(), &[a, b]);
    assert_eq!(play(&app).review, None);
    assert_eq!(play(&app).next_on_line(), Some(c));
    // Undo of the delete brings d back beside c; the line stays on c.
    app.update(Action::Undo);
    assert_eq!(tree_moves(&app, 2), vec![c, d]);
    press(&mut app, &[Action::Cancel, Action::Redo]);
    assert_eq!(play(&app).game.moves(), &[a, b, c]);
}

#[test]
fn the_variation_list_opens_on_a_position_without_moves() {
    let mut app = new_game(GameKind::Shogi);
    app.update(Action::Variations);
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 0 }));
    // Nothing to switch to or delete: the keys do nothing and Esc closes.
    press(
        &mut app,
        &[
            Action::Select,
            Action::DeleteVariation,
            Action::PromoteVariation,
        ],
    );
    assert!(play(&app).game.moves().is_empty());
    app.update(Action::Cancel);
    assert_eq!(app.overlay, None);
}

#[test]
fn the_autosave_keeps_the_whole_tree_and_the_current_line() {
    let (mut app, [a, b, c, d]) = with_variation();
    // A comment and a mark on the old line, and the game stepped back one move.
    let old = play(&app)
        .tree
        .child_with(play(&app).node_at(2), c)
        .unwrap();
    app.play
        .as_mut()
        .unwrap()
        .tree
        .annotation_mut(old)
        .comments
        .push("the old { line }".into());
    app.play
        .as_mut()
        .unwrap()
        .tree
        .annotation_mut(old)
        .nags
        .push(6);
    app.update(Action::Undo);
    let saved = app.saved_game().unwrap();
    let text = autosave::to_text(&saved);
    let loaded = autosave::from_text(&text, "autosave.txt").unwrap();
    let resumed = App::from_saved(Settings::default(), loaded);
    let (before, after) = (play(&app), play(&resumed));
    assert_eq!(after.tree, before.tree);
    assert_eq!(after.line_moves(), vec![a, b, d]);
    assert_eq!(after.game.moves(), &[a, b]);
    assert_eq!(after.next_on_line(), Some(d));
    assert_eq!(after.tree.moves_of(after.variations_at(2)), vec![c, d]);
}

#[test]
fn an_autosave_from_before_the_tree_still_loads_as_one_line() {
    let (app, [a, b, _, d]) = with_variation();
    let text = autosave::to_text(&app.saved_game().unwrap());
    let old: String = text
        .lines()
        .filter(|line| !line.starts_with("tree ") && !line.starts_with("line "))
        .map(|line| format!("{line}\n"))
        .collect();
    assert_ne!(old, text);
    let resumed = App::from_saved(Settings::default(), autosave::from_text(&old, "a").unwrap());
    assert_eq!(play(&resumed).game.moves(), &[a, b, d]);
    assert_eq!(play(&resumed).line_moves(), vec![a, b, d]);
    assert_eq!(play(&resumed).tree.len(), 3);
}

#[test]
fn a_tree_line_that_does_not_begin_with_the_moves_is_an_error() {
    let (app, _) = with_variation();
    let text = autosave::to_text(&app.saved_game().unwrap());
    let damaged = text.replace("line 0 0 1", "line 0 0 0");
    assert_ne!(damaged, text);
    let error = autosave::from_text(&damaged, "autosave.txt").unwrap_err();
    assert!(
        error.to_string().contains("does not begin with the moves"),
        "{error}"
    );
}

#[test]
fn a_saved_record_holds_the_variations_with_the_line_played_as_main_line() {
    let (app, [a, b, c, d]) = with_variation();
    let record = app.game_record().unwrap();
    assert_eq!(record.game.moves(), &[a, b, d]);
    let tree = &record.tree;
    assert_eq!(tree.moves_of(&tree.main_line()), vec![a, b, d]);
    assert_eq!(
        tree.moves_of(tree.children(tree.main_line()[1])),
        vec![d, c]
    );
    // Written as PGN and opened again: the same tree, the main line shown.
    let text = crate::record::write(&record, crate::record::Format::Pgn).unwrap();
    let read =
        crate::record::read_bytes(text.as_bytes(), "a.pgn", crate::record::Format::Pgn).unwrap();
    let opened = App::from_record(Settings::default(), read, None);
    assert_eq!(&play(&opened).tree, tree);
    assert_eq!(play(&opened).game.moves(), &[a, b, d]);
    // The app's own tree is not reordered by saving.
    assert_eq!(tree_moves(&app, 2), vec![c, d]);
}

/// A short xiangqi record that ends with a stated result (Red wins), opened in the app.
fn resigned_record() -> App {
    let pgn =
        "[Event \"t\"]\n[Red \"A\"]\n[Black \"B\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 2. b0c2 1-0\n";
    let record = crate::record::read_bytes(pgn.as_bytes(), "test", crate::record::Format::Pgn)
        .expect("a record");
    App::from_record(Settings::default(), record, None)
}

#[test]
fn redo_after_a_takeback_brings_the_declared_result_back() {
    let mut app = resigned_record();
    let declared = play(&app).game.outcome();
    assert!(declared.is_some(), "the record's result is shown");
    app.overlay = None;
    app.update(Action::Undo);
    assert_eq!(play(&app).game.moves().len(), 2);
    assert_eq!(play(&app).game.outcome(), None, "{}", status(&app));
    app.update(Action::Redo);
    assert_eq!(play(&app).game.moves().len(), 3);
    assert_eq!(play(&app).game.outcome(), declared, "{}", status(&app));
}

#[test]
fn a_declared_result_comes_back_with_its_line() {
    let mut app = resigned_record();
    let declared = play(&app).game.outcome();
    assert!(declared.is_some(), "the record's result is shown");
    let main = play(&app).game.moves().to_vec();
    // Back to the last move, and a different one: a variation with no result.
    app.update(Action::HistoryBack);
    let other = click_move(&mut app, "h1g3");
    assert_eq!(play(&app).game.moves(), &[main[0], main[1], other]);
    assert_eq!(play(&app).game.outcome(), None);
    // Back to the main line: its result again.
    press(&mut app, &[Action::HistoryBack, Action::Variations]);
    assert_eq!(app.overlay, Some(Overlay::Variations { choice: 1 }));
    press(&mut app, &[Action::Up, Action::Select]);
    assert_eq!(play(&app).game.moves(), &main[..]);
    assert_eq!(play(&app).game.outcome(), declared, "{}", status(&app));
    // And to the variation: none.
    press(
        &mut app,
        &[
            Action::HistoryBack,
            Action::Variations,
            Action::Down,
            Action::Select,
        ],
    );
    assert_eq!(play(&app).game.moves(), &[main[0], main[1], other]);
    assert_eq!(play(&app).game.outcome(), None);
}
