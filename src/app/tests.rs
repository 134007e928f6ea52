//! Key-sequence tests: the app driven without a terminal.

use super::test_support::{play, press, status};
use super::*;
use crate::record::autosave;
use crate::rules::any::Variant;
use crate::rules::janggi::JanggiRules;
use crate::ui::benchmark::parse_move;

fn new_game(kind: GameKind) -> App {
    App::with_game(Settings::default(), StartOptions::for_game(kind))
}

fn from_fen(variant: Variant, fen: &str) -> App {
    let position = variant.position_from_fen(fen).expect("test position");
    App::from_position(Settings::default(), position)
}

/// Moves the cursor with the arrow keys (board not flipped).
fn go_to(app: &mut App, square: u8) {
    let cursor = play(app).cursor;
    let (file, rank) = (i32::from(cursor % 9), i32::from(cursor / 9));
    let (to_file, to_rank) = (i32::from(square % 9), i32::from(square / 9));
    for _ in 0..(to_file - file).abs() {
        app.update(if to_file > file {
            Action::Right
        } else {
            Action::Left
        });
    }
    for _ in 0..(to_rank - rank).abs() {
        app.update(if to_rank > rank {
            Action::Up
        } else {
            Action::Down
        });
    }
    assert_eq!(play(app).cursor, square);
}

/// Plays a move with the keyboard: cursor to the piece, Enter, cursor to the target, Enter.
fn play_keys(app: &mut App, text: &str) {
    let mv = parse_move(play(app).game.position(), text).expect(text);
    go_to(app, mv.from);
    app.update(Action::Select);
    go_to(app, mv.to);
    app.update(Action::Select);
}

#[test]
fn select_and_move_with_the_keyboard() {
    let mut app = new_game(GameKind::Xiangqi);
    let cannon = parse_move(play(&app).game.position(), "h3e3").unwrap();
    go_to(&mut app, cannon.from);
    app.update(Action::Select);
    assert_eq!(play(&app).selection, Some(Selection::Square(cannon.from)));
    assert!(play(&app).targets.iter().any(|m| m.to == cannon.to));
    go_to(&mut app, cannon.to);
    app.update(Action::Select);
    assert_eq!(play(&app).game.moves(), &[cannon]);
    assert_eq!(play(&app).selection, None);
    assert_eq!(play(&app).shown_last_move(), Some(cannon));
}

#[test]
fn mouse_clicks_select_and_move() {
    let mut app = new_game(GameKind::Janggi);
    let mv = parse_move(play(&app).game.position(), "a4b4").unwrap();
    press(
        &mut app,
        &[Action::ClickSquare(mv.from), Action::ClickSquare(mv.to)],
    );
    assert_eq!(play(&app).game.moves(), &[mv]);
}

#[test]
fn an_illegal_move_is_refused_with_the_reason() {
    let mut app = new_game(GameKind::Xiangqi);
    // The general cannot jump two points.
    let general = play(&app).cursor;
    press(
        &mut app,
        &[Action::Select, Action::Up, Action::Up, Action::Select],
    );
    assert!(
        status(&app).contains("cannot move there"),
        "{}",
        status(&app)
    );
    assert!(app.status.as_ref().unwrap().error);
    assert!(play(&app).game.moves().is_empty());
    assert_eq!(play(&app).selection, Some(Selection::Square(general)));
    // An empty point is not a piece.
    press(&mut app, &[Action::Cancel, Action::Select]);
    assert!(
        status(&app).contains("no piece of yours"),
        "{}",
        status(&app)
    );
    // Nifu in shogi.
    let mut app = from_fen(Variant::Shogi, "4k4/9/9/9/9/9/4P4/9/4K4 b P 1");
    press(&mut app, &[Action::ToggleHand, Action::Select]);
    assert_eq!(play(&app).selection, Some(Selection::Hand(PieceKind::Pawn)));
    let target = parse_move(play(&app).game.position(), "P*5e").unwrap().to;
    go_to(&mut app, target);
    app.update(Action::Select);
    assert!(status(&app).contains("nifu"), "{}", status(&app));
    assert!(play(&app).game.moves().is_empty());
}

#[test]
fn the_korean_interface_explains_in_korean() {
    let mut app = App::with_game(
        Settings {
            language: Language::Korean,
            glyphs: GlyphSet::Cjk,
            ..Settings::default()
        },
        StartOptions::for_game(GameKind::Janggi),
    );
    press(&mut app, &[Action::Up, Action::Select]);
    assert!(
        status(&app).contains("내 기물이 없습니다"),
        "{}",
        status(&app)
    );
    // A typed move is refused in Korean too: a rule, a wrong piece, an unknown form.
    press(&mut app, &[Action::Cancel]);
    type_move(&mut app, "01차03");
    assert!(
        status(&app).contains("그 기물은 거기로 갈 수 없습니다"),
        "{}",
        status(&app)
    );
    type_move(&mut app, "79차78");
    assert!(
        status(&app).contains("79 자리의 기물은 졸입니다"),
        "{}",
        status(&app)
    );
    assert!(play(&app).game.moves().is_empty());
}

#[test]
fn optional_promotion_asks_and_forced_promotion_does_not() {
    let mut app = from_fen(Variant::Shogi, "4k4/9/9/2S6/9/9/9/9/4K4 b - 1");
    play_keys(&mut app, "7d7c");
    assert!(matches!(app.overlay, Some(Overlay::Promotion { .. })));
    assert!(play(&app).game.moves().is_empty());
    app.update(Action::Yes);
    let to = parse_move(play(&app).game.start(), "7d7c").unwrap().to;
    assert_eq!(
        play(&app).game.position().piece_on(to).map(|p| p.kind),
        Some(PieceKind::PromotedSilver)
    );
    // Declining keeps the silver.
    let mut app = from_fen(Variant::Shogi, "4k4/9/9/2S6/9/9/9/9/4K4 b - 1");
    play_keys(&mut app, "7d7c");
    app.update(Action::No);
    assert_eq!(
        play(&app).game.position().piece_on(to).map(|p| p.kind),
        Some(PieceKind::Silver)
    );
    // A pawn reaching the last rank must promote: no question.
    let mut app = from_fen(Variant::Shogi, "4k4/2P6/9/9/9/9/9/9/4K4 b - 1");
    play_keys(&mut app, "7b7a");
    assert_eq!(app.overlay, None);
    let last = *play(&app).game.moves().last().unwrap();
    assert!(last.is_promotion());
}

#[test]
fn drop_from_the_hand() {
    let mut app = from_fen(Variant::Shogi, "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    press(&mut app, &[Action::ToggleHand]);
    assert_eq!(play(&app).hand_cursor, Some(0));
    app.update(Action::Select);
    assert_eq!(play(&app).selection, Some(Selection::Hand(PieceKind::Pawn)));
    let drop = parse_move(play(&app).game.position(), "P*5e").unwrap();
    go_to(&mut app, drop.to);
    app.update(Action::Select);
    assert_eq!(play(&app).game.moves(), &[drop]);
    assert!(play(&app).game.position().hand(Side::First).is_empty());
    // The mouse can pick from the hand too.
    let mut app = from_fen(Variant::Shogi, "4k4/9/9/9/9/9/9/9/4K4 b P 1");
    app.update(Action::ClickHand(Side::First, 0));
    assert_eq!(play(&app).selection, Some(Selection::Hand(PieceKind::Pawn)));
}

#[test]
fn pass_in_janggi_only() {
    let mut app = new_game(GameKind::Janggi);
    app.update(Action::Pass);
    assert_eq!(play(&app).game.moves().len(), 1);
    assert!(play(&app).game.moves()[0].is_pass());
    let mut app = new_game(GameKind::Xiangqi);
    app.update(Action::Pass);
    assert!(play(&app).game.moves().is_empty());
    assert!(status(&app).contains("no pass"), "{}", status(&app));
}

#[test]
fn undo_and_redo() {
    let mut app = new_game(GameKind::Xiangqi);
    play_keys(&mut app, "h3e3");
    play_keys(&mut app, "h10g8");
    assert_eq!(play(&app).game.moves().len(), 2);
    app.update(Action::Undo);
    assert_eq!(play(&app).game.moves().len(), 1);
    app.update(Action::Undo);
    app.update(Action::Undo);
    assert_eq!(play(&app).game.moves().len(), 0);
    assert!(status(&app).contains("Nothing to undo"));
    press(&mut app, &[Action::Redo, Action::Redo]);
    assert_eq!(play(&app).game.moves().len(), 2);
    app.update(Action::Redo);
    assert!(status(&app).contains("Nothing to redo"));
}

#[test]
fn history_review_and_return() {
    let mut app = new_game(GameKind::Xiangqi);
    play_keys(&mut app, "h3e3");
    play_keys(&mut app, "h10g8");
    app.update(Action::HistoryBack);
    assert_eq!(play(&app).review, Some(1));
    app.update(Action::HistoryStart);
    assert_eq!(play(&app).shown_ply(), 0);
    app.update(Action::HistoryForward);
    app.update(Action::HistoryForward);
    assert_eq!(play(&app).review, None);
    app.update(Action::HistoryBack);
    app.update(Action::HistoryEnd);
    assert_eq!(play(&app).review, None);
}

fn assert_checkmate(app: &App) {
    let outcome = play(app).game.outcome().expect("the game is over");
    assert_eq!(outcome.reason(), EndReason::Checkmate);
    assert_eq!(outcome.winner(), Some(Side::First));
    assert_eq!(app.overlay, Some(Overlay::GameOver { choice: 0 }));
}

#[test]
fn the_flying_general_is_refused() {
    let mut app = from_fen(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    play_keys(&mut app, "d1e1");
    let text = status(&app);
    assert!(
        text.contains("face each other") || text.contains("check"),
        "{text}"
    );
    assert!(play(&app).game.moves().is_empty());
}

#[test]
fn xiangqi_checkmate_with_two_chariots() {
    let mut app = from_fen(Variant::Xiangqi, "3k5/R8/9/9/9/9/9/9/9/4K3R w - - 0 1");
    play_keys(&mut app, "i1i10");
    assert_checkmate(&app);
    // Game over: review, then a new game from the start screen.
    app.update(Action::Select);
    assert_eq!(app.overlay, None);
    app.update(Action::NewGame);
    assert_eq!(app.screen, Screen::Start);
}

#[test]
fn shogi_checkmate_by_a_gold_drop() {
    // 王 5a, a pawn on 5c guards 5b: G*5b mates.
    let mut app = from_fen(Variant::Shogi, "4k4/9/4P4/9/9/9/9/9/4K4 b G 1");
    press(&mut app, &[Action::ToggleHand, Action::Select]);
    let drop = parse_move(play(&app).game.position(), "G*5b").unwrap();
    go_to(&mut app, drop.to);
    app.update(Action::Select);
    assert_checkmate(&app);
}

#[test]
fn janggi_checkmate_with_two_chariots() {
    let mut app = from_fen(
        Variant::Janggi(JanggiRules::KJA),
        "3k5/R8/9/9/9/9/9/9/9/5K2R w - - 0 1",
    );
    play_keys(&mut app, "i1i10");
    assert_checkmate(&app);
}

#[test]
fn a_game_from_the_start_through_the_menu() {
    let mut app = App::new(Settings::default());
    assert_eq!(app.screen, Screen::Start);
    // Game: xiangqi → shogi → janggi.
    press(&mut app, &[Action::Right, Action::Right]);
    assert_eq!(app.options.game().kind, GameKind::Janggi);
    // Rules: KJA → traditional; Han setup: next arrangement.
    press(
        &mut app,
        &[Action::Down, Action::Right, Action::Down, Action::Right],
    );
    assert_eq!(
        app.options.variant(),
        Variant::Janggi(JanggiRules::TRADITIONAL)
    );
    assert_eq!(
        app.options.han_setup,
        crate::rules::janggi::Setup::ElephantHorseHorseElephant
    );
    app.update(Action::Select);
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(
        play(&app).game.variant(),
        Variant::Janggi(JanggiRules::TRADITIONAL)
    );
    // Cho moves first.
    assert_eq!(play(&app).game.position().side_to_move(), Side::First);
}

#[test]
fn draw_offer_needs_the_other_player() {
    let mut app = new_game(GameKind::Xiangqi);
    play_keys(&mut app, "h3e3");
    app.update(Action::OfferDraw);
    assert_eq!(
        app.overlay,
        Some(Overlay::Confirm(Question::DrawOffer(Side::Second)))
    );
    app.update(Action::No);
    assert!(play(&app).in_progress());
    app.update(Action::OfferDraw);
    app.update(Action::Yes);
    let outcome = play(&app).game.outcome().unwrap();
    assert_eq!(outcome.reason(), EndReason::Agreement);
    assert_eq!(outcome.winner(), None);
}

#[test]
fn resign_asks_first() {
    let mut app = new_game(GameKind::Shogi);
    app.update(Action::Resign);
    assert_eq!(
        app.overlay,
        Some(Overlay::Confirm(Question::Resign(Side::First)))
    );
    app.update(Action::Yes);
    let outcome = play(&app).game.outcome().unwrap();
    assert_eq!(outcome.winner(), Some(Side::Second));
    assert_eq!(outcome.reason(), EndReason::Resignation);
}

#[test]
fn quit_asks_during_a_game_and_ctrl_c_does_not() {
    let mut app = new_game(GameKind::Xiangqi);
    play_keys(&mut app, "h3e3");
    app.update(Action::Quit);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Quit)));
    app.update(Action::No);
    assert!(!app.quit);
    app.update(Action::ForceQuit);
    assert!(app.quit);
}

#[test]
fn typed_moves_in_engine_coordinates_and_usi() {
    let mut app = new_game(GameKind::Shogi);
    app.update(Action::OpenPrompt);
    for c in "7g7f".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
    assert_eq!(play(&app).game.moves().len(), 1);
    app.update(Action::OpenPrompt);
    for c in "zz".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
    assert!(status(&app).contains("Cannot read"), "{}", status(&app));
}

fn type_move(app: &mut App, text: &str) {
    app.update(Action::OpenPrompt);
    for c in text.chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
}

#[test]
fn typed_moves_in_native_notation_and_notation_key() {
    let mut app = new_game(GameKind::Xiangqi);
    type_move(&mut app, "炮二平五");
    type_move(&mut app, "H8+7");
    type_move(&mut app, "h0g2");
    assert_eq!(play(&app).game.moves().len(), 3);
    // Ambiguous and illegal text is refused with a reason.
    type_move(&mut app, "车一进九");
    assert!(status(&app).contains("车一进九"), "{}", status(&app));
    assert_eq!(play(&app).game.moves().len(), 3);
    // English interface: WXF first, then N cycles through the other notations.
    assert_eq!(play(&app).notation(Language::English), Notation::Wxf);
    app.update(Action::CycleNotation);
    assert_eq!(play(&app).notation(Language::English), Notation::Iccs);
    assert!(status(&app).contains("ICCS"), "{}", status(&app));

    let mut app = new_game(GameKind::Shogi);
    type_move(&mut app, "▲７六歩");
    type_move(&mut app, "P-3d");
    type_move(&mut app, "Bx2b+");
    type_move(&mut app, "同銀");
    assert_eq!(play(&app).game.moves().len(), 4);
}

#[test]
fn the_computer_answers_through_an_effect() {
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(Settings::default(), options);
    // A new game: the engines (the built-in CPU's memory among them) start afresh.
    assert!(matches!(app.take_effects()[..], [Effect::ResetEngines]));
    play_keys(&mut app, "h3e3");
    assert!(app.thinking());
    let effects = app.take_effects();
    // The move is autosaved, then the CPU starts thinking.
    assert_eq!(effects.len(), 2);
    assert!(matches!(effects[0], Effect::Autosave(_)));
    let Effect::StartSearch {
        id,
        game,
        limits,
        stop,
        ..
    } = &effects[1]
    else {
        panic!("no search: {effects:?}");
    };
    assert_eq!(*limits, cpu_limits(GameKind::Xiangqi, 1));
    // A human cannot move for the CPU.
    app.update(Action::Select);
    assert!(status(&app).contains("CPU"), "{}", status(&app));
    let mv = crate::engine::best_move(game, *limits, stop, &mut |_| {});
    app.update(Action::ComputerMove { search: *id, mv });
    assert_eq!(play(&app).game.moves().len(), 2);
    assert!(!app.thinking());
    // Undo takes back the CPU's reply and the human's move, and a stale answer is ignored.
    app.update(Action::Undo);
    assert_eq!(play(&app).game.moves().len(), 0);
    app.update(Action::ComputerMove { search: *id, mv });
    assert_eq!(play(&app).game.moves().len(), 0);
}

#[test]
fn cpu_levels_use_the_engine_table_and_level_ten_the_whole_move_time() {
    for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
        for level in 1..=10 {
            assert_eq!(
                cpu_limits(game, level),
                crate::engine::limits_for_level(game, level, CPU_MOVE_TIME)
            );
        }
        assert!(cpu_limits(game, 1).nodes < cpu_limits(game, 9).nodes);
        assert_eq!(cpu_limits(game, 10).nodes, None);
        assert_eq!(cpu_limits(game, 10).movetime, Some(CPU_MOVE_TIME));
    }
}

#[test]
fn every_level_looks_at_more_nodes_than_the_one_below_in_every_game() {
    for game in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
        for level in 2..=9 {
            assert!(
                cpu_limits(game, level).nodes > cpu_limits(game, level - 1).nodes,
                "{game:?} level {level}"
            );
        }
    }
}

#[test]
fn flip_reverses_the_cursor_keys() {
    let mut app = new_game(GameKind::Xiangqi);
    let start = play(&app).cursor;
    press(&mut app, &[Action::Flip, Action::Up]);
    assert!(play(&app).flipped);
    assert_eq!(play(&app).cursor, start); // already on the first rank: Up on a flipped board goes down
    press(&mut app, &[Action::Down]);
    assert_eq!(play(&app).cursor, start + 9);
}

#[test]
fn hotseat_can_turn_the_board_after_every_move() {
    let mut app = new_game(GameKind::Xiangqi);
    assert!(!play(&app).flipped);
    press(&mut app, &[Action::FlipEveryTurn]);
    play_keys(&mut app, "h3e3");
    assert!(play(&app).flipped, "Black to move sits at the bottom");
    app.update(Action::Undo);
    assert!(!play(&app).flipped, "undo turns it back for Red");
    press(&mut app, &[Action::FlipEveryTurn]);
    play_keys(&mut app, "h3e3");
    assert!(!play(&app).flipped, "switched off: the board stays");
}

#[test]
fn gungjanggi_is_on_the_start_screen_and_a_draw_offer_starts_judging() {
    let mut app = App::with_game(
        Settings::default(),
        StartOptions::for_variant(Variant::Janggi(JanggiRules::GUNGJANGGI)),
    );
    assert_eq!(
        play(&app).game.variant(),
        Variant::Janggi(JanggiRules::GUNGJANGGI)
    );
    play(&app).game.position().fen();
    app.play.as_mut().unwrap().game.accept_draw();
    let fen = play(&app).game.position().fen();
    assert!(fen.ends_with("KkJ0"), "{fen}");
    assert!(play(&app).game.outcome().is_none());
}

/// The text of the last autosave the app asked for, or `None` after a removal.
fn last_autosave(effects: &[Effect]) -> Option<Option<String>> {
    effects.iter().rev().find_map(|effect| match effect {
        Effect::Autosave(text) => Some(Some(text.clone())),
        Effect::RemoveAutosave => Some(None),
        Effect::StartSearch { .. }
        | Effect::SaveRecord { .. }
        | Effect::ResetEngines
        | Effect::SaveConfig(_)
        | Effect::Bell
        | Effect::StartLiveAnalysis { .. }
        | Effect::ListRecords
        | Effect::OpenRecord { .. }
        | Effect::StartAnalysis(_) => None,
    })
}

#[test]
fn a_crashed_game_resumes_where_it_stopped() {
    let folder = std::env::temp_dir().join(format!("qipan-app-crash-{}", std::process::id()));
    let path = folder.join("autosave.txt");
    let mut app = new_game(GameKind::Janggi);
    play_keys(&mut app, "a4b4");
    app.update(Action::Pass);
    play_keys(&mut app, "i4h4");
    app.update(Action::Flip);
    // The event loop writes every autosave; the last one is what a crash leaves.
    let text = last_autosave(&app.take_effects())
        .flatten()
        .expect("autosaved");
    autosave::write_atomically(&path, &text).unwrap();
    let before = play(&app).clone();
    drop(app); // no clean exit
    let saved = autosave::load(&path).unwrap();
    let app = App::from_saved(Settings::default(), saved);
    let after = play(&app);
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(after.game.moves(), before.game.moves());
    assert_eq!(after.game.positions(), before.game.positions());
    assert_eq!(after.game.variant(), before.game.variant());
    assert_eq!(after.players, before.players);
    assert!(after.flipped);
    assert_eq!(
        after.game.position().side_to_move(),
        before.game.position().side_to_move()
    );
    std::fs::remove_dir_all(folder).unwrap();
}

#[test]
fn the_start_screen_offers_the_saved_game_and_the_cpu_thinks_again() {
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 2 }],
        ..StartOptions::for_game(GameKind::Shogi)
    };
    let mut app = App::with_game(Settings::default(), options);
    play_keys(&mut app, "7g7f");
    assert!(app.thinking());
    let text = last_autosave(&app.take_effects())
        .flatten()
        .expect("autosaved");
    let saved = autosave::from_text(&text, "autosave.txt").unwrap();
    let mut app = App::new(Settings::default());
    app.offer_saved_game(saved);
    assert_eq!(app.start_fields()[0], StartField::Continue);
    assert_eq!(app.start_row, 0);
    app.update(Action::Select);
    assert_eq!(app.screen, Screen::Game);
    assert_eq!(play(&app).game.moves().len(), 1);
    assert_eq!(play(&app).players, options.players);
    assert!(app.thinking(), "the CPU is to move and thinks again");
    assert!(app.resume.is_none());
    // Korean interface text of the offer.
    let korean = Settings {
        language: Language::Korean,
        ..Settings::default()
    };
    let saved = autosave::from_text(&text, "autosave.txt").unwrap();
    let mut app = App::new(korean);
    app.offer_saved_game(saved);
    let mut buffer = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 100, 30));
    let area = buffer.area;
    crate::ui::render_buffer(&app, area, &mut buffer);
    // Wide glyphs leave an empty cell after them: compare without spaces.
    let screen: String = buffer.content().iter().map(|c| c.symbol()).collect();
    let screen = screen.replace(' ', "");
    assert!(screen.contains("[이어두기:쇼기,1수]"), "{screen}");
}

#[test]
fn a_finished_game_removes_its_autosave() {
    let mut app = new_game(GameKind::Xiangqi);
    play_keys(&mut app, "h3e3");
    assert!(last_autosave(&app.take_effects()).flatten().is_some());
    press(&mut app, &[Action::Resign, Action::Yes]);
    assert!(!play(&app).in_progress());
    assert_eq!(last_autosave(&app.take_effects()), Some(None));
    // A new game with no move yet leaves the old autosave alone.
    let mut app = new_game(GameKind::Shogi);
    assert_eq!(last_autosave(&app.take_effects()), None);
}

#[test]
fn an_unreadable_autosave_is_shown_on_the_start_screen() {
    let mut app = App::new(Settings::default());
    app.show_error(
        Key::StatusAutosaveUnreadable,
        "autosave.txt line 3: bad fen: rank 10 has 10 files",
    );
    let mut buffer = ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, 100, 30));
    let area = buffer.area;
    crate::ui::render_buffer(&app, area, &mut buffer);
    let screen: String = buffer.content().iter().map(|c| c.symbol()).collect();
    assert!(
        screen.contains("Saved game not restored: autosave.txt line 3: bad fen"),
        "{screen}"
    );
    assert_eq!(app.start_fields()[0], StartField::Game);
    // The next key clears it and the hints come back.
    app.update(Action::Down);
    assert_eq!(app.status, None);
}

/// The id and stop flag of the search the app just asked for.
fn started_search(app: &mut App) -> (u64, Arc<AtomicBool>, Box<Game>) {
    app.take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::StartSearch { id, stop, game, .. } => Some((id, stop, game)),
            _ => None,
        })
        .expect("a search was started")
}

#[test]
fn the_thinking_line_follows_the_search_and_t_toggles_it() {
    let options = StartOptions {
        players: [Player::Computer { level: 3 }, Player::Human],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(Settings::default(), options);
    let (id, _, game) = started_search(&mut app);
    let cannon = game.position().parse_uci("h3e3").unwrap();
    let report = SearchReport {
        depth: 7,
        score: crate::engine::Score::Centipawns(-42),
        nodes: 5_000,
        nodes_per_second: 25_000,
        principal_variation: vec![cannon],
    };
    // A stale report is dropped; the current one is shown.
    app.update(Action::SearchProgress {
        search: id + 100,
        report: Box::new(report.clone()),
    });
    assert!(play(&app).thinking.is_none());
    app.update(Action::SearchProgress {
        search: id,
        report: Box::new(report.clone()),
    });
    let text = crate::ui::thinking_text(&app, play(&app), 80).expect("a thinking line");
    assert!(text.contains("depth 7"), "{text}");
    assert!(text.contains("-0.42"), "{text}");
    assert!(text.contains("25k nps"), "{text}");
    assert!(text.contains("C2.5"), "{text}"); // English shows WXF
    let screen = screen_text(&app, 80, 24);
    let bottom = screen.lines().last().unwrap_or("");
    assert!(
        bottom.contains("depth 7"),
        "the bottom row shows it: {bottom}"
    );
    // `t` hides it for the session and shows it again.
    app.update(Action::ToggleThinking);
    assert!(!app.show_thinking);
    assert!(crate::ui::thinking_text(&app, play(&app), 80).is_none());
    app.update(Action::ToggleThinking);
    assert!(crate::ui::thinking_text(&app, play(&app), 80).is_some());
    // The line goes when the move is played.
    app.update(Action::ComputerMove {
        search: id,
        mv: Some(cannon),
    });
    assert!(play(&app).thinking.is_none());
    assert!(app.show_thinking);
}

#[test]
fn watch_mode_plays_both_sides_and_a_new_game_stops_it() {
    let options = StartOptions {
        players: [Player::Computer { level: 1 }, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Janggi)
    };
    let mut app = App::with_game(Settings::default(), options);
    for _ in 0..4 {
        let (id, stop, game) = started_search(&mut app);
        let mv =
            crate::engine::best_move(&game, cpu_limits(GameKind::Janggi, 1), &stop, &mut |_| {});
        app.update(Action::ComputerMove { search: id, mv });
    }
    assert_eq!(play(&app).game.moves().len(), 4);
    let (_, stop, _) = started_search(&mut app);
    assert!(app.thinking());
    press(&mut app, &[Action::NewGame, Action::Yes]);
    assert!(stop.load(Ordering::Relaxed), "the search was told to stop");
    assert!(!app.thinking());
    assert_eq!(app.screen, Screen::Start);
}

#[test]
fn the_hint_key_searches_highlights_and_says_the_move() {
    let mut app = new_game(GameKind::Xiangqi);
    app.take_effects();
    app.update(Action::Hint);
    let (id, stop, game) = started_search(&mut app);
    assert_eq!(game.moves().len(), 0);
    assert!(!app.thinking(), "a hint is not the CPU's turn");
    let cannon = game.position().parse_uci("h3e3").unwrap();
    app.update(Action::ComputerMove {
        search: id,
        mv: Some(cannon),
    });
    assert!(!stop.load(Ordering::Relaxed));
    assert_eq!(play(&app).hint, Some(cannon));
    assert_eq!(status(&app), "Hint: C2.5");
    let marks = crate::ui::board::Marks::of_play(play(&app));
    assert_eq!(marks.hint, Some(cannon));
    // Both squares are lit on the screen.
    let area = ratatui::layout::Rect::new(0, 0, 100, 30);
    let mut buffer = ratatui::buffer::Buffer::empty(area);
    crate::ui::render_buffer(&app, area, &mut buffer);
    let hint_background = ratatui::style::Color::Rgb(110, 210, 150);
    for square in [cannon.from, cannon.to] {
        let lit = (0..area.height).any(|y| {
            (0..area.width).any(|x| {
                crate::ui::hit_test(&app, area, x, y)
                    == Some(crate::ui::board::HitTarget::Square(square))
                    && buffer[(x, y)].bg == hint_background
            })
        });
        assert!(lit, "square {square} is not lit");
    }
    // Playing a move clears the hint.
    play_keys(&mut app, "h3e3");
    assert_eq!(play(&app).game.moves().len(), 1);
    assert_eq!(play(&app).hint, None);
}

#[test]
fn any_key_cancels_a_hint_search_and_the_cpu_turn_has_none() {
    let mut app = new_game(GameKind::Shogi);
    app.take_effects();
    app.update(Action::Hint);
    let (id, stop, game) = started_search(&mut app);
    app.update(Action::Right);
    assert!(
        stop.load(Ordering::Relaxed),
        "the key stopped the hint search"
    );
    let mv = game.legal_moves().as_slice()[0];
    app.update(Action::ComputerMove {
        search: id,
        mv: Some(mv),
    });
    assert_eq!(play(&app).hint, None, "a cancelled hint is not shown");
    assert_eq!(play(&app).game.moves().len(), 0, "nor played");
    // No hint for the CPU's side.
    let options = StartOptions {
        players: [Player::Computer { level: 1 }, Player::Human],
        ..StartOptions::for_game(GameKind::Shogi)
    };
    let mut app = App::with_game(Settings::default(), options);
    app.take_effects();
    app.update(Action::Hint);
    assert!(app.take_effects().is_empty());
    assert!(status(&app).contains("CPU"), "{}", status(&app));
}

/// The screen's characters, one line per row.
fn screen_text(app: &App, width: u16, height: u16) -> String {
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut buffer = ratatui::buffer::Buffer::empty(area);
    crate::ui::render_buffer(app, area, &mut buffer);
    let symbols: Vec<&str> = buffer.content().iter().map(|cell| cell.symbol()).collect();
    symbols
        .chunks(usize::from(width))
        .map(|row| row.concat())
        .collect::<Vec<_>>()
        .join("\n")
}

fn with_engine() -> Settings {
    Settings {
        engines: vec![crate::protocol::client::EngineSpec::from_flag(
            "fsf=/usr/games/fairy-stockfish",
        )
        .unwrap()],
        hint_engine: Some(0),
        ..Settings::default()
    }
}

#[test]
fn the_start_screen_offers_external_engines_after_the_levels() {
    let mut app = App::new(with_engine());
    let fields = app.start_fields();
    let second = fields
        .iter()
        .position(|f| *f == StartField::Player(Side::Second))
        .unwrap();
    app.start_row = second;
    // Human → left wraps to the last choice, the engine.
    app.update(Action::Left);
    assert_eq!(app.options.players[1], Player::Engine { index: 0 });
    app.update(Action::Left);
    assert_eq!(app.options.players[1], Player::Computer { level: 10 });
    app.update(Action::Right);
    let screen = screen_text(&app, 80, 24);
    assert!(screen.contains("fsf"), "{screen}");
    // A game against it: the engine is reset for the new game and asked when it is its turn.
    app.start_game();
    let effects = app.take_effects();
    assert!(matches!(effects[0], Effect::ResetEngines));
    play_keys(&mut app, "h3e3");
    let search = app
        .take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::StartSearch { engine, limits, .. } => Some((engine, limits)),
            _ => None,
        })
        .expect("the engine is asked");
    assert_eq!(search.0, Some(0));
    assert_eq!(search.1.movetime, Some(CPU_MOVE_TIME));

    // A USI engine is offered for shogi only.
    let mut settings = with_engine();
    settings
        .engines
        .push(crate::protocol::client::EngineSpec::from_flag("shogi-usi=engine").unwrap());
    let mut app = App::new(settings);
    let row = |app: &App| {
        app.start_fields()
            .iter()
            .position(|f| *f == StartField::Player(Side::First))
            .unwrap()
    };
    app.start_row = row(&app);
    app.update(Action::Left);
    assert_eq!(app.options.players[0], Player::Engine { index: 0 });
    app.options = StartOptions::for_game(GameKind::Shogi);
    app.start_row = row(&app);
    app.update(Action::Left);
    assert_eq!(app.options.players[0], Player::Engine { index: 1 });
}

#[test]
fn a_failed_engine_hands_its_side_to_the_human_and_the_game_goes_on() {
    let options = StartOptions {
        players: [Player::Human, Player::Engine { index: 0 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(with_engine(), options);
    play_keys(&mut app, "h3e3");
    let (id, _, _) = started_search(&mut app);
    app.update(Action::EngineFailed {
        search: id,
        message: "engine fsf stopped running".to_string(),
    });
    assert!(!app.thinking());
    assert_eq!(play(&app).players[1], Player::Human);
    let text = status(&app);
    assert!(text.contains("engine fsf stopped running"), "{text}");
    assert!(text.contains("take over"), "{text}");
    // The human now moves Black's pieces; the game goes on.
    play_keys(&mut app, "h10g8");
    assert_eq!(play(&app).game.moves().len(), 2);
    assert!(play(&app).in_progress());
}

#[test]
fn an_engine_can_resign_and_a_hint_can_come_from_an_engine() {
    let options = StartOptions {
        players: [Player::Engine { index: 0 }, Player::Human],
        ..StartOptions::for_game(GameKind::Shogi)
    };
    let mut app = App::with_game(with_engine(), options);
    let (id, _, _) = started_search(&mut app);
    app.update(Action::EngineResigns { search: id });
    let outcome = play(&app).game.outcome().expect("the game ended");
    assert_eq!(outcome.winner(), Some(Side::Second));
    assert_eq!(outcome.reason(), EndReason::Resignation);

    let mut app = App::with_game(with_engine(), StartOptions::for_game(GameKind::Janggi));
    app.take_effects();
    app.update(Action::Hint);
    let engine = app
        .take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::StartSearch { engine, id, .. } => Some((engine, id)),
            _ => None,
        });
    let (engine, id) = engine.expect("a hint search");
    assert_eq!(engine, Some(0));
    app.update(Action::EngineFailed {
        search: id,
        message: "engine fsf: the program was not found".to_string(),
    });
    assert!(
        status(&app).starts_with("No hint: engine fsf"),
        "{}",
        status(&app)
    );
    assert!(app.status.as_ref().unwrap().error);
}

/// The CPU (second player) answers with `mv` after reporting `score` for its search.
fn cpu_answers(app: &mut App, score: crate::engine::Score) {
    let (id, stop, game) = started_search(app);
    let mv = crate::engine::best_move(
        &game,
        cpu_limits(game.variant().kind(), 1),
        &stop,
        &mut |_| {},
    );
    let report = SearchReport {
        depth: 3,
        score,
        nodes: 100,
        nodes_per_second: 1000,
        principal_variation: mv.into_iter().collect(),
    };
    app.update(Action::SearchProgress {
        search: id,
        report: Box::new(report),
    });
    app.update(Action::ComputerMove { search: id, mv });
}

#[test]
fn the_cpu_accepts_a_draw_only_when_its_searches_see_no_advantage() {
    use crate::engine::Score;
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(Settings::default(), options);
    let human_moves = ["a1a2", "a2a1", "a1a2", "a2a1"];
    for (index, score) in [
        Score::Centipawns(60),
        Score::Centipawns(0),
        Score::Centipawns(-5),
    ]
    .into_iter()
    .enumerate()
    {
        type_move(&mut app, human_moves[index]);
        cpu_answers(&mut app, score);
    }
    // One of the last three searches saw +0.60 for the CPU: it plays on.
    app.update(Action::OfferDraw);
    assert_eq!(status(&app), "The draw was declined");
    assert!(play(&app).in_progress());
    type_move(&mut app, human_moves[3]);
    cpu_answers(&mut app, Score::Centipawns(8));
    // Now 0.00, -0.05, +0.08: dead equal, the draw is agreed.
    app.update(Action::OfferDraw);
    let outcome = play(&app).game.outcome().expect("a draw");
    assert_eq!(outcome.winner(), None);
    assert_eq!(outcome.reason(), EndReason::Agreement);
}

#[test]
fn an_engine_seat_is_saved_by_name_and_found_again() {
    let mut app = App::new(with_engine());
    app.options.players = [Player::Human, Player::Engine { index: 0 }];
    app.start_game();
    let saved = app.saved_game().unwrap();
    assert_eq!(saved.players[1], autosave::Seat::Engine("fsf".to_string()));
    let text = autosave::to_text(&saved);
    assert!(text.contains("players human engine:fsf"), "{text}");
    let loaded = autosave::from_text(&text, "autosave.txt").unwrap();
    let resumed = App::from_saved(with_engine(), loaded.clone());
    assert_eq!(
        play(&resumed).players,
        [Player::Human, Player::Engine { index: 0 }]
    );
    // Without that engine configured any more, the side is a person's to continue.
    let resumed = App::from_saved(Settings::default(), loaded);
    assert_eq!(play(&resumed).players, [Player::Human, Player::Human]);
}

/// Issue 18 item 9: in CPU-vs-CPU, a CPU move never closes or steals a popup — the quit
/// question, the save prompt and the help stay open, and keys keep going to them.
#[test]
fn a_cpu_move_never_closes_a_popup() {
    let options = StartOptions {
        players: [Player::Computer { level: 1 }, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(Settings::default(), options);
    let answer = |app: &mut App| {
        let (id, stop, game) = started_search(app);
        let mv =
            crate::engine::best_move(&game, cpu_limits(GameKind::Xiangqi, 1), &stop, &mut |_| {});
        app.update(Action::ComputerMove { search: id, mv });
    };
    answer(&mut app);
    app.update(Action::Quit);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Quit)));
    answer(&mut app);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Quit)));
    app.update(Action::Cancel);
    app.update(Action::Save);
    for c in "fu".chars() {
        app.update(Action::PromptChar(c));
    }
    let plies = play(&app).game.moves().len();
    answer(&mut app);
    assert_eq!(
        app.overlay,
        Some(Overlay::SaveAs {
            text: "fu".to_string()
        })
    );
    app.update(Action::PromptChar('x'));
    assert_eq!(
        app.overlay,
        Some(Overlay::SaveAs {
            text: "fux".to_string()
        })
    );
    // An open prompt pauses the CPU (issue 12 item 4): its move was not played behind
    // the prompt, and the typed keys undid nothing.
    assert_eq!(play(&app).game.moves().len(), plies);
    assert!(!play(&app).flipped);
}

/// Issue 18 item 7: `bestmove (none)`, `0000` or a bare `bestmove` (no move) where the
/// position has legal moves is an engine fault: its side goes to the player, the game
/// is not stuck on "CPU is to move".
#[test]
fn an_engine_giving_no_move_hands_its_side_to_the_player() {
    let options = StartOptions {
        players: [Player::Human, Player::Engine { index: 0 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut app = App::with_game(with_engine(), options);
    play_keys(&mut app, "h3e3");
    let (id, _, _) = started_search(&mut app);
    app.update(Action::ComputerMove {
        search: id,
        mv: None,
    });
    assert!(!app.thinking());
    assert_eq!(play(&app).players[1], Player::Human);
    let text = status(&app);
    assert!(text.contains("fsf") && text.contains("no move"), "{text}");
    play_keys(&mut app, "h10g8");
    assert_eq!(play(&app).game.moves().len(), 2);
    // The built-in CPU giving no move is handled the same way.
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Shogi)
    };
    let mut app = App::with_game(Settings::default(), options);
    play_keys(&mut app, "7g7f");
    let (id, _, _) = started_search(&mut app);
    app.update(Action::ComputerMove {
        search: id,
        mv: None,
    });
    assert_eq!(play(&app).players[1], Player::Human);
    assert!(!app.thinking());
}
