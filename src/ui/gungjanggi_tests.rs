//! Gungjanggi on screen, driven by keys: each state change the rules track (a bikjang
//! called and broken, the request to judge accepted, twenty quiet plies, a soldier
//! promoting in Manual 2, a repetition refused) is shown the moment it happens, at
//! 80×24, in Korean and English.

use super::benchmark::parse_move;
use super::*;
use crate::app::{Action, Settings};
use crate::rules::any::Variant;
use crate::rules::janggi::JanggiRules;
use crate::rules::Move;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn snapshot(app: &App) -> String {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).unwrap();
    terminal.draw(|frame| render(app, frame)).unwrap();
    terminal.backend().to_string()
}

fn settings(language: Language, glyphs: GlyphSet) -> Settings {
    Settings {
        language,
        glyphs,
        ..Settings::default()
    }
}

fn app(language: Language, rules: JanggiRules, fen: &str) -> App {
    let position = Variant::Janggi(rules)
        .position_from_fen(fen)
        .expect("test position");
    App::from_position(settings(language, GlyphSet::Cjk), position)
}

fn play(app: &App) -> &Play {
    app.play.as_ref().expect("a game")
}

/// Moves the cursor with the arrow keys (board not flipped). The helpers take the app and
/// give it back: rendering code (this folder) never holds a mutable borrow of it.
fn go_to(mut app: App, square: u8) -> App {
    let cursor = play(&app).cursor;
    let (file, rank) = (i32::from(cursor % 9), i32::from(cursor / 9));
    let (to_file, to_rank) = (i32::from(square % 9), i32::from(square / 9));
    let sideways = if to_file > file {
        Action::Right
    } else {
        Action::Left
    };
    for _ in 0..(to_file - file).abs() {
        app.update(sideways.clone());
    }
    let upwards = if to_rank > rank {
        Action::Up
    } else {
        Action::Down
    };
    for _ in 0..(to_rank - rank).abs() {
        app.update(upwards.clone());
    }
    assert_eq!(play(&app).cursor, square);
    app
}

fn find(app: &App, text: &str) -> Move {
    parse_move(play(app).game.position(), text).expect(text)
}

/// Plays a move with the keyboard: cursor to the piece, Enter, cursor to the target, Enter.
fn play_keys(mut app: App, moves: &str) -> App {
    for text in moves.split_whitespace() {
        let mv = find(&app, text);
        app = go_to(app, mv.from);
        app.update(Action::Select);
        app = go_to(app, mv.to);
        app.update(Action::Select);
        assert_eq!(
            play(&app).game.moves().last(),
            Some(&mv),
            "{text} was played"
        );
    }
    app
}

const LANGUAGES: [(Language, &str); 2] =
    [(Language::Korean, "korean"), (Language::English, "english")];

//   10 . . . a k . . . .
//    8 . . h . . . . . .
//    6 p . . . . . . . p
//    5 P . . . . . . . P
//    4 . . . . R . . . .   Cho's chariot steps off the e-file: the kings face, bikjang.
//    2 . . . . K . . . .
//    1 . . . A . . . . .
const BIKJANG: &str = "3ak4/9/2h6/9/p7p/P7P/4R4/9/4K4/3A5 w - - 0 1";

#[test]
fn bikjang_called_then_broken_shows_the_promotion() {
    for (language, name) in LANGUAGES {
        let mut app = app(language, JanggiRules::GUNGJANGGI, BIKJANG);
        app = play_keys(app, "e4b4");
        let screen = snapshot(&app);
        let (called, accept) = match language {
            Language::Korean => ("초 빅장!", "빅장! p 받기 = 기물로 판정"),
            _ => ("Cho calls bikjang!", "Bikjang! p accepts: material decides"),
        };
        assert!(screen.contains(called), "{screen}");
        assert!(screen.contains(accept), "{screen}");
        insta::assert_snapshot!(format!("gungjanggi_bikjang_called_{name}_80x24"), screen);

        // Han steps aside: its king promotes, and the board marks it.
        app = play_keys(app, "e10f10");
        let screen = snapshot(&app);
        let promoted = match language {
            Language::Korean => "한 궁 진급",
            _ => "Han's king promoted",
        };
        assert!(screen.contains(promoted), "{screen}");
        assert!(
            screen.contains("漢+"),
            "the promoted king is marked: {screen}"
        );
        assert!(
            !screen.contains("楚+"),
            "Cho's king is not promoted: {screen}"
        );
        insta::assert_snapshot!(format!("gungjanggi_king_promoted_{name}_80x24"), screen);
    }
}

//   10 . . . . . k . . r
//    5 . . . . P . . . .
//    1 R . . K . . . . .   Chariots walk their files; nothing is ever taken or checked.
const QUIET: &str = "5k2r/9/9/9/9/4P4/9/9/9/R2K5 w - - 0 1";

#[test]
fn judging_accepted_then_twenty_quiet_plies_decide_on_material() {
    for (language, name) in LANGUAGES {
        let mut app = app(language, JanggiRules::GUNGJANGGI, QUIET);
        app.update(Action::OfferDraw);
        let question = snapshot(&app);
        let asks = match language {
            Language::Korean => "판정 요청",
            _ => "asks to judge",
        };
        assert!(question.contains(asks), "{question}");
        app.update(Action::Yes);
        let screen = snapshot(&app);
        let (banner, countdown) = match language {
            Language::Korean => (
                "판정 단계 · 판정 요청 합의",
                "첫 장군이 이깁니다 · 20수 뒤 기물 판정",
            ),
            _ => ("JUDGING PHASE · asked to judge", "plies to material: 20"),
        };
        assert!(screen.contains(banner), "{screen}");
        assert!(screen.contains(countdown), "{screen}");
        insta::assert_snapshot!(format!("gungjanggi_judging_began_{name}_80x24"), screen);

        // Nineteen quiet plies: one left.
        app = play_keys(
            app,
            "a1a2 i10i9 a2a3 i9i8 a3a4 i8i7 a4a5 i7i6 a5a6 i6i5 a6a7 i5i4 a7a8 i4i3 a8b8 i3h3 b8c8 h3g3 c8c9",
        );
        let screen = snapshot(&app);
        let one_left = match language {
            Language::Korean => "1수 뒤 기물 판정",
            _ => "plies to material: 1",
        };
        assert!(screen.contains(one_left), "{screen}");
        assert!(play(&app).in_progress());
        insta::assert_snapshot!(format!("gungjanggi_judging_countdown_{name}_80x24"), screen);

        // The twentieth: Cho's chariot 13 and soldier 2 against Han's chariot 13.
        app = play_keys(app, "g3g4");
        let outcome = play(&app).game.outcome().expect("material decided");
        assert_eq!(outcome.reason(), crate::rules::EndReason::Material);
        let screen = snapshot(&app);
        let result = match language {
            Language::Korean => "기물승 · 초 15 : 한 13",
            _ => "on material · Cho 15 : Han 13",
        };
        assert!(screen.contains(result), "{screen}");
        insta::assert_snapshot!(format!("gungjanggi_material_decides_{name}_80x24"), screen);
    }
}

#[test]
fn equal_material_names_the_second_player_rule_with_both_totals() {
    for (language, text) in [
        (Language::Korean, "후수승 (기물 같음) · 초 13 : 한 13"),
        (
            Language::English,
            "as second player on equal material · Cho 13 : Han 13",
        ),
    ] {
        let mut app = app(
            language,
            JanggiRules::GUNGJANGGI,
            "5k2r/9/9/9/9/9/9/9/9/R2K5 w - - 0 1 KkJ19",
        );
        app = play_keys(app, "a1a2");
        let screen = snapshot(&app);
        assert!(screen.contains(text), "{screen}");
    }
}

#[test]
fn word_wrap_breaks_between_words_and_indents() {
    let lines = super::gungjanggi::word_wrap(
        "Game over: Han wins as second player on equal material · Cho 72 : Han 72",
        38,
    );
    assert!(lines.len() >= 2, "{lines:?}");
    for line in &lines {
        assert!(board::text_width(line, false) <= 38, "{line:?}");
    }
    assert!(lines[1].starts_with("  "), "{lines:?}");
    assert_eq!(
        lines
            .join(" ")
            .split_whitespace()
            .filter(|word| *word != "·")
            .collect::<Vec<_>>()
            .join(" "),
        "Game over: Han wins as second player on equal material Cho 72 : Han 72",
        "every word kept; the part separator may fall at the break"
    );
}

//   10 . . . k . . . . .
//    9 P . . . . . . . .   Cho's soldier steps onto Han's back rank (Manual 2).
//    2 . . . . K . . . .
#[test]
fn a_soldier_on_the_last_rank_promotes_in_manual_2() {
    for (language, name) in LANGUAGES {
        let mut app = app(
            language,
            JanggiRules::GUNGJANGGI_DAN,
            "3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1",
        );
        app = play_keys(app, "a9a10");
        let screen = snapshot(&app);
        let said = match language {
            Language::Korean => "초 졸 진급",
            _ => "Cho's soldier promoted",
        };
        assert!(screen.contains(said), "{screen}");
        assert!(
            screen.contains("卒+"),
            "the promoted soldier is marked: {screen}"
        );
        insta::assert_snapshot!(format!("gungjanggi_soldier_promoted_{name}_80x24"), screen);
    }
}

#[test]
fn the_promotion_mark_shows_in_latin_letters_and_without_colour() {
    let position = Variant::Janggi(JanggiRules::GUNGJANGGI_DAN)
        .position_from_fen("3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1")
        .unwrap();
    for (glyphs, marked) in [(GlyphSet::Latin, "P*"), (GlyphSet::Cjk, "卒+")] {
        for theme in ["wood", "dark", "contrast", "sixteen"] {
            for no_color in [false, true] {
                let mut app =
                    App::from_position(settings(Language::English, glyphs), position.clone());
                let mode = crate::theme::ColorMode {
                    depth: crate::theme::ColorDepth::TrueColor,
                    no_color,
                };
                app.set_theme(theme, None, mode);
                app = play_keys(app, "a9a10");
                let screen = snapshot(&app);
                assert!(
                    screen.contains(marked),
                    "{glyphs:?} {theme} {no_color}: {screen}"
                );
                assert!(screen.contains("king normal"), "{screen}");
            }
        }
    }
}

//   10 . . . k . . . . .
//    1 N . . . K . . . .   The horse shuttles a1-b3, Han's king d10-d9: the start
//                          position may not come a third time.
#[test]
fn a_move_the_repetition_rule_forbids_is_not_a_target_and_the_refusal_names_the_rule() {
    for (language, rule) in [
        (Language::Korean, "반복 수 금지"),
        (Language::English, "repetition rule"),
    ] {
        let mut app = app(
            language,
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/9/9/9/N3K4 w - - 0 1",
        );
        app = play_keys(app, "a1b3 d10d9 b3a1 d9d10 a1b3 d10d9 b3a1");
        let forbidden = find(&app, "d9d10");
        assert!(
            play(&app).game.position().check_move(forbidden).is_ok(),
            "the position alone would allow it"
        );
        app = go_to(app, forbidden.from);
        app.update(Action::Select);
        let targets = &play(&app).targets;
        assert!(!targets.is_empty(), "the king has other moves");
        assert!(!targets.contains(&forbidden), "{targets:?}");
        // The screen shows no target mark on d10.
        let screen = snapshot(&app);
        let d10_row = screen.lines().nth(2).expect("rank 10");
        assert!(!d10_row.contains('・'), "{d10_row}");
        // Trying it anyway is refused, naming the rule.
        app = go_to(app, forbidden.to);
        app.update(Action::Select);
        let status = app
            .status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
        assert!(status.contains(rule), "{status}");
        assert_eq!(play(&app).game.moves().len(), 7);
    }
}

#[test]
fn help_shows_both_king_forms_and_what_promotion_changes() {
    for (language, words) in [
        (Language::Korean, ["진급한 궁", "판정 요청", "진급한 졸"]),
        (
            Language::English,
            ["promoted king", "ask to judge", "promoted soldier"],
        ),
    ] {
        let mut app = app(language, JanggiRules::GUNGJANGGI_DAN, BIKJANG);
        app.update(Action::Help);
        // Scroll through the whole help and gather what it shows.
        let mut seen = String::new();
        for _ in 0..12 {
            seen.push_str(&snapshot(&app));
            for _ in 0..8 {
                app.update(Action::Down);
            }
        }
        assert!(seen.contains("楚 漢 → 楚+ 漢+"), "{seen}");
        for word in words {
            assert!(seen.contains(word), "{word}: {seen}");
        }
    }
}

#[test]
fn passes_are_words_of_the_interface_and_accepting_bikjang_is_named() {
    // A plain janggi pass is `pass` in English and 한수쉼 in Korean.
    for (language, word) in [(Language::English, "pass"), (Language::Korean, "한수쉼")] {
        let mut app = App::with_game(
            settings(language, GlyphSet::Cjk),
            crate::app::StartOptions::for_variant(Variant::Janggi(JanggiRules::KJA)),
        );
        app.update(Action::Pass);
        let screen = snapshot(&app);
        let moves_row = screen
            .lines()
            .find(|line| line.contains(" 1. "))
            .expect("a move row");
        assert!(moves_row.contains(word), "{moves_row}");
        if language == Language::English {
            assert!(!moves_row.contains("한수쉼"), "{moves_row}");
        }
    }
    // Accepting a bikjang is named so in the move list, never 한수쉼.
    for (language, word) in [
        (Language::Korean, "빅장 받음"),
        (Language::English, "accept bikjang"),
    ] {
        let mut app = app(language, JanggiRules::GUNGJANGGI, BIKJANG);
        app = play_keys(app, "e4b4");
        app.update(Action::Pass);
        assert!(
            !play(&app).in_progress(),
            "accepting ends the game on material"
        );
        app.update(Action::Cancel); // close the game-over window to see the move list
        let screen = snapshot(&app);
        assert!(screen.contains(word), "{screen}");
        assert!(!screen.contains("한수쉼"), "{screen}");
    }
}

#[test]
fn a_third_pass_is_refused_by_name_and_the_panel_counts_passes() {
    let mut app = app(
        Language::English,
        JanggiRules::GUNGJANGGI,
        "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1 P2",
    );
    assert!(snapshot(&app).contains("passes 2/2: no third"));
    app.update(Action::Pass);
    let status = app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.contains("no third pass in a row"), "{status}");
    assert!(play(&app).game.moves().is_empty());
}

/// Every status-line text of gungjanggi fits an 80-column screen in every language, with
/// the longest side names (the status line has one leading space).
#[test]
fn gungjanggi_status_texts_fit_80_columns_in_every_language() {
    use crate::i18n::Key;
    for language in Language::ALL {
        let sides = [Side::First, Side::Second].map(|side| {
            language
                .text(crate::app::side_key(GameKind::Janggi, side))
                .to_string()
        });
        let (first, second) = (sides[0].as_str(), sides[1].as_str());
        let longest_cause = [
            language.text(Key::GungCauseDraw).to_string(),
            language.text(Key::GungCauseBikjang).to_string(),
            language.format(Key::GungCauseQuiet, &["100"]),
            language.text(Key::GungCauseBare).to_string(),
        ]
        .into_iter()
        .max_by_key(|text| board::text_width(text, false))
        .unwrap_or_default();
        let texts = [
            language.format(Key::GungEventBikjangCalled, &[first, second]),
            language.format(Key::GungEventBikjangAccepted, &[second]),
            language.format(Key::GungEventKingPromoted, &[second]),
            language.format(Key::GungEventSoldierPromoted, &[second]),
            language.text(Key::GungEventAdvisorsPromoted).to_string(),
            language.format(Key::GungEventJudging, &[&longest_cause, "20"]),
            language.format(Key::StatusIllegal, &[language.text(Key::IllegalThirdPass)]),
            language.format(Key::StatusIllegal, &[language.text(Key::IllegalRepetition)]),
        ];
        for text in texts {
            let width = board::text_width(&format!(" {text}"), false);
            assert!(width <= 80, "{language:?} ({width} columns): {text}");
        }
    }
}

/// The gungjanggi screens render in Chinese and Japanese too, at every size, with the
/// panel's words in those languages.
#[test]
fn gungjanggi_renders_in_chinese_and_japanese() {
    for (language, banner) in [
        (Language::Chinese, "判定阶段"),
        (Language::Japanese, "判定段階"),
    ] {
        let mut app = app(language, JanggiRules::GUNGJANGGI_DAN, QUIET);
        app.update(Action::OfferDraw);
        app.update(Action::Yes);
        let screen = snapshot(&app);
        assert!(screen.contains(banner), "{screen}");
        for (width, height) in [(40, 12), (79, 23), (120, 40), (200, 60)] {
            let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
            terminal.draw(|frame| render(&app, frame)).unwrap();
        }
    }
}

//   10 . . . k . . . . .
//    4 R . . . . . . . .   In the judging phase Cho's chariot to d4 checks: 장군승.
//    2 . . . . K . . . .
#[test]
fn the_first_check_of_the_judging_phase_wins_by_name() {
    for (language, text) in [
        (Language::Korean, "장군승"),
        (Language::English, "by first check"),
    ] {
        let mut app = app(
            language,
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1 KkJ0",
        );
        app = play_keys(app, "a4d4");
        let outcome = play(&app).game.outcome().expect("the check wins");
        assert_eq!(outcome.reason(), crate::rules::EndReason::FirstCheck);
        let screen = snapshot(&app);
        assert!(screen.contains(text), "{screen}");
    }
}
