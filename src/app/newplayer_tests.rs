//! Key-sequence tests of what a new player trips over in the first hour (issue 12):
//! each one failed before its fix.

use super::test_support::{play, press, status};
use super::*;

fn new_game(kind: GameKind) -> App {
    App::with_game(Settings::default(), StartOptions::for_game(kind))
}

fn typed(app: &mut App, text: &str) {
    app.update(Action::OpenPrompt);
    for c in text.chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
}

/// The searches the app asked for since the last call.
fn searches(app: &mut App) -> Vec<(u64, Box<Game>)> {
    app.take_effects()
        .into_iter()
        .filter_map(|effect| match effect {
            Effect::StartSearch { id, game, .. } => Some((id, game)),
            _ => None,
        })
        .collect()
}

// ----- item 2: Esc on the start screen -----------------------------------------

#[test]
fn escape_on_the_start_screen_never_quits() {
    let mut app = App::new(Settings::default());
    app.update(Action::Cancel);
    assert!(!app.quit, "Esc on a fresh start screen does nothing");
    assert_eq!(app.screen, Screen::Start);
    app.update(Action::Quit);
    assert!(app.quit, "q still quits");
}

#[test]
fn escape_goes_back_to_the_game_the_start_screen_was_opened_from() {
    let mut app = new_game(GameKind::Xiangqi);
    app.update(Action::NewGame);
    assert_eq!(app.screen, Screen::Start);
    app.update(Action::Cancel);
    assert!(!app.quit);
    assert_eq!(app.screen, Screen::Game);
}

#[test]
fn a_game_abandoned_for_a_new_one_goes_to_history_and_is_not_offered_again() {
    let mut app = new_game(GameKind::Xiangqi);
    typed(&mut app, "h2e2");
    assert_eq!(play(&app).game.moves().len(), 1);
    app.take_effects();
    press(&mut app, &[Action::NewGame, Action::Yes]);
    assert_eq!(app.screen, Screen::Start);
    let effects = app.take_effects();
    assert!(
        effects.iter().any(|e| matches!(
            e,
            Effect::SaveRecord {
                target: records::SaveTarget::History,
                ..
            }
        )),
        "{effects:?}"
    );
    assert!(
        matches!(effects.last(), Some(Effect::RemoveAutosave))
            || effects.iter().any(|e| matches!(e, Effect::RemoveAutosave)),
        "{effects:?}"
    );
    assert!(!effects.iter().any(|e| matches!(e, Effect::Autosave(_))));
    assert!(app.resume.is_none());
    assert!(!app.start_fields().contains(&StartField::Continue));
    // Esc has no game to go back to, and does not quit.
    app.update(Action::Cancel);
    assert!(!app.quit);
    assert_eq!(app.screen, Screen::Start);
    // A crash now leaves no autosave of the abandoned game behind.
    app.update(Action::ForceQuit);
    assert!(!app
        .take_effects()
        .iter()
        .any(|e| matches!(e, Effect::Autosave(_))));
}

// ----- item 4: CPU against CPU, popups pause the CPUs and clocks ----------------

fn cpu_against_cpu() -> App {
    let options = StartOptions {
        players: [Player::Computer { level: 1 }, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    App::with_game(Settings::default(), options)
}

/// Answers the one search the app started with a legal move (the first one).
fn answer_search(app: &mut App) {
    let mut started = searches(app);
    assert_eq!(started.len(), 1, "one search");
    let (id, game) = started.remove(0);
    let mv = game.legal_moves().iter().next().copied();
    app.update(Action::ComputerMove { search: id, mv });
}

#[test]
fn undo_between_two_cpus_holds_them_until_the_player_resumes() {
    let mut app = cpu_against_cpu();
    answer_search(&mut app);
    answer_search(&mut app);
    assert_eq!(play(&app).game.moves().len(), 2);
    app.take_effects();
    app.update(Action::Undo);
    assert_eq!(play(&app).game.moves().len(), 1);
    assert!(searches(&mut app).is_empty(), "the CPUs wait after an undo");
    assert!(!app.thinking());
    assert!(status(&app).contains('P'), "{}", status(&app));
    app.update(Action::Redo);
    assert!(searches(&mut app).is_empty(), "still held after a redo");
    app.update(Action::Pause);
    assert_eq!(searches(&mut app).len(), 1, "P lets them play on");
}

#[test]
fn the_quit_question_pauses_the_cpus_and_the_clocks() {
    let options = StartOptions {
        players: [Player::Computer { level: 1 }, Player::Computer { level: 1 }],
        time: "5m".parse().expect("a time control"),
        ..StartOptions::for_game(GameKind::Janggi)
    };
    let mut app = App::with_game(Settings::default(), options);
    answer_search(&mut app);
    let (_id, _game) = searches(&mut app).pop().expect("the second CPU thinks");
    assert!(app.thinking());
    app.update(Action::Quit);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Quit)));
    assert!(!app.thinking(), "the CPU stops thinking under the question");
    assert!(app.paused(), "the clocks stop under the question");
    app.update(Action::No);
    assert!(!app.paused());
    assert_eq!(searches(&mut app).len(), 1, "the CPU thinks again");
    // Any popup pauses them, the help too.
    app.update(Action::Help);
    assert!(app.paused());
    app.update(Action::Cancel);
    assert!(!app.paused());
}

// ----- item 10: f and F say what changed ------------------------------------------

#[test]
fn flipping_the_board_says_so() {
    let mut app = App::with_game(
        Settings {
            language: Language::Korean,
            ..Settings::default()
        },
        StartOptions::for_game(GameKind::Janggi),
    );
    app.update(Action::Flip);
    assert_eq!(status(&app), "판 뒤집음");
    app.update(Action::FlipEveryTurn);
    assert_eq!(status(&app), "매 수 판 돌리기 켬");
    app.update(Action::FlipEveryTurn);
    assert_eq!(status(&app), "매 수 판 돌리기 끔");
}

// ----- item 11: the first game follows the language ---------------------------------

#[test]
fn the_start_screen_offers_the_languages_own_game_first() {
    use crate::config::{Config, LanguageChoice};
    for (language, kind) in [
        (Language::Korean, GameKind::Janggi),
        (Language::Chinese, GameKind::Xiangqi),
        (Language::Japanese, GameKind::Shogi),
        (Language::English, GameKind::Xiangqi),
    ] {
        let config = Config {
            language: LanguageChoice::Fixed(language),
            ..Config::default()
        };
        let app = App::from_config(config, None, &[]);
        assert_eq!(app.options.variant().kind(), kind, "{language:?}");
    }
    // A game the config names wins over the language.
    let config = Config {
        language: LanguageChoice::Fixed(Language::Korean),
        game: Some(crate::rules::any::Variant::Shogi),
        ..Config::default()
    };
    let app = App::from_config(config, None, &[]);
    assert_eq!(app.options.variant().kind(), GameKind::Shogi);
}

// ----- item 14: a piece with no move says so, and why ------------------------------

fn korean() -> Settings {
    Settings {
        language: Language::Korean,
        ..Settings::default()
    }
}

fn korean_from_fen(variant: crate::rules::any::Variant, fen: &str) -> App {
    let position = variant.position_from_fen(fen).expect("test position");
    App::from_position(korean(), position)
}

/// Clicks the square of the first piece of `kind` of the side to move.
fn click_piece(app: &mut App, kind: crate::rules::any::PieceKind, side: Side) {
    let position = play(app).game.position().clone();
    let square = (0..position.ranks() * 9)
        .find(|&s| {
            position
                .piece_on(s)
                .is_some_and(|p| p.kind == kind && p.side == side)
        })
        .expect("the piece");
    app.update(Action::ClickSquare(square));
}

#[test]
fn a_piece_with_no_move_says_it_has_none_and_why() {
    use crate::rules::any::{PieceKind, Variant};
    // Shogi's start: the knights stand behind their own pawns and have no move.
    let mut app = App::with_game(korean(), StartOptions::for_game(GameKind::Shogi));
    click_piece(&mut app, PieceKind::Knight, Side::First);
    let said = status(&app);
    assert!(said.contains("둘 수 있는 수가 없습니다"), "{said}");
    assert!(!said.contains("거기로"), "{said}");
    // Red king e1, red horse e2 pinned by a black chariot on e9 (the horse can only leave
    // the file): every move of the horse leaves the king in check.
    let mut app = korean_from_fen(Variant::Xiangqi, "3k5/4r4/9/9/9/9/9/9/4N4/4K4 w - - 0 1");
    click_piece(&mut app, PieceKind::Horse, Side::First);
    assert!(status(&app).contains("움직이면 장군"), "{}", status(&app));
    // In check, a piece that cannot help.
    let mut app = korean_from_fen(Variant::Xiangqi, "3k5/4r4/9/9/9/9/9/9/9/R3K4 w - - 0 1");
    app.update(Action::ClickSquare(0));
    let said = status(&app);
    assert!(said.contains("장군을 받고 있어"), "{said}");
}

// ----- item 15: every name of a janggi piece is understood ---------------------------

#[test]
fn typed_janggi_moves_take_every_name_of_the_king_and_the_pieces() {
    for cho_king in ["95궁85", "95장85", "95將85", "95帥85", "95楚85", "95초85"] {
        let mut app = App::with_game(korean(), StartOptions::for_game(GameKind::Janggi));
        typed(&mut app, cho_king);
        assert_eq!(
            play(&app).game.moves().len(),
            1,
            "{cho_king}: {}",
            status(&app)
        );
        for han_king in ["25궁15", "25漢15", "25將15"] {
            let mut app = App::with_game(korean(), StartOptions::for_game(GameKind::Janggi));
            typed(&mut app, cho_king);
            typed(&mut app, han_king);
            assert_eq!(
                play(&app).game.moves().len(),
                2,
                "{han_king}: {}",
                status(&app)
            );
        }
    }
    for other in [
        "01俥91", "01차91", "01車91", "71兵61", "71병61", "71卒61", "04仕94", "04사94",
    ] {
        let mut app = App::with_game(korean(), StartOptions::for_game(GameKind::Janggi));
        typed(&mut app, other);
        assert_eq!(
            play(&app).game.moves().len(),
            1,
            "{other}: {}",
            status(&app)
        );
    }
    // A name of another piece is still refused.
    let mut app = App::with_game(korean(), StartOptions::for_game(GameKind::Janggi));
    typed(&mut app, "95차85");
    assert!(play(&app).game.moves().is_empty());
}

// ----- item 17 (part): a proper plural -------------------------------------------------

#[test]
fn one_problem_is_one_problem() {
    assert_eq!(
        Language::English.config_problems(1),
        "1 problem in the configuration"
    );
    assert_eq!(
        Language::English.config_problems(3),
        "3 problems in the configuration"
    );
    assert!(!Language::English.config_problems(2).contains("(s)"));
}
