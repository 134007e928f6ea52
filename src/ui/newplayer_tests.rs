//! Screens a new player trips over (issue 12): ASCII with `--ascii`, popups that clear
//! what they cover, the promotion popup, the move numbers of shogi.

use super::benchmark::midgame;
use super::*;
use crate::app::{Action, Settings, StartOptions};
use crate::rules::any::Variant;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

const GAMES: [GameKind; 3] = [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi];

fn screen(app: &App, width: u16, height: u16) -> String {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
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

/// Every screen and popup of a game, in one language and glyph set.
fn every_screen(language: Language, glyphs: GlyphSet) -> Vec<(String, App)> {
    let mut screens = Vec::new();
    for game in GAMES {
        let mut start = App::new(settings(language, glyphs));
        start.options = StartOptions::for_game(game);
        screens.push((format!("{game:?} start"), start));
        let app = midgame(settings(language, glyphs), game);
        for (name, actions) in [
            ("midgame", vec![]),
            ("help", vec![Action::Help]),
            ("settings", vec![Action::Settings]),
            ("quit question", vec![Action::Quit]),
            ("prompt", vec![Action::OpenPrompt, Action::PromptChar('h')]),
            ("new game", vec![Action::NewGame, Action::Yes]),
            ("resign", vec![Action::Resign, Action::Yes]),
        ] {
            let mut app = midgame(settings(language, glyphs), game);
            for action in actions {
                app.update(action);
            }
            screens.push((format!("{game:?} {name}"), app));
        }
        drop(app);
    }
    // Shogi's promotion question and a handicap game.
    let position = Variant::Shogi
        .position_from_fen("4k4/9/9/9/9/9/1B7/9/4K4 b - 1")
        .expect("a shogi position");
    let mut promotion = App::from_position(settings(language, glyphs), position);
    let bishop = (0..81u8)
        .find(|&square| {
            promotion
                .play
                .as_ref()
                .unwrap()
                .game
                .position()
                .piece_on(square)
                .is_some_and(|p| p.kind == PieceKind::Bishop)
        })
        .expect("the bishop");
    promotion.update(Action::ClickSquare(bishop));
    let target = promotion
        .play
        .as_ref()
        .and_then(|p| p.targets.iter().find(|m| m.is_promotion()).map(|m| m.to))
        .expect("a promoting move");
    promotion.update(Action::ClickSquare(target));
    assert!(matches!(promotion.overlay, Some(Overlay::Promotion { .. })));
    screens.push(("shogi promotion".to_string(), promotion));
    screens
}

// ----- item 8: --ascii is ASCII everywhere --------------------------------------

#[test]
fn with_ascii_glyphs_every_screen_is_ascii() {
    let mut failures = Vec::new();
    for (name, app) in every_screen(Language::English, GlyphSet::Latin) {
        for (width, height) in [(80, 24), (120, 40)] {
            let text = screen(&app, width, height);
            let odd: String = text.chars().filter(|c| !c.is_ascii()).collect();
            if !odd.is_empty() {
                failures.push(format!("{name} {width}x{height}: {odd:?}\n{text}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

// ----- item 9: the promotion popup says what the piece becomes -------------------

#[test]
fn the_promotion_popup_shows_the_promoted_piece_in_every_glyph_set() {
    for (glyphs, expected) in [
        (GlyphSet::Cjk, "角 → 馬"),
        (GlyphSet::CjkWideLines, "角 → 馬"),
        (GlyphSet::Latin, "B > +B"),
    ] {
        let screens = every_screen(Language::English, glyphs);
        let (_, app) = screens
            .iter()
            .find(|(name, _)| name == "shogi promotion")
            .expect("the promotion screen");
        let text = screen(app, 80, 24);
        assert!(text.contains(expected), "{glyphs:?}:\n{text}");
    }
}

// ----- item 7: popups clear every cell they cover --------------------------------

const LANGUAGES: [Language; 4] = [
    Language::Korean,
    Language::English,
    Language::Chinese,
    Language::Japanese,
];

/// The rectangle of the popup drawn on a buffer, found by its border's corners in the
/// popup border's style.
fn popup_rect(buffer: &Buffer, border: Style) -> Option<Rect> {
    let area = buffer.area;
    for y in 0..area.height {
        for x in 0..area.width {
            let cell = &buffer[(x, y)];
            if cell.symbol() == "┌"
                && Some(cell.fg) == border.fg
                && border.bg.is_none_or(|bg| bg == cell.bg)
            {
                let right = (x + 1..area.width).find(|&c| buffer[(c, y)].symbol() == "┐")?;
                let bottom = (y + 1..area.height).find(|&r| buffer[(x, r)].symbol() == "└")?;
                return Some(Rect::new(x, y, right - x + 1, bottom - y + 1));
            }
        }
    }
    None
}

#[test]
fn popups_cover_every_cell_in_every_language() {
    for language in LANGUAGES {
        for ((width, height), game) in [(80u16, 24u16), (81, 24), (100, 30), (120, 40)]
            .into_iter()
            .flat_map(|size| GAMES.map(|game| (size, game)))
        {
            for (name, actions) in [
                ("help", vec![Action::Help]),
                ("settings", vec![Action::Settings]),
                // Japanese and back: the popup is drawn anew over what was there.
                (
                    "settings after a language change",
                    vec![Action::Settings, Action::Down, Action::Right, Action::Left],
                ),
                ("quit", vec![Action::Quit]),
            ] {
                // A timed game: its clocks stand at the right edge of the panel.
                let mut app = midgame(settings(language, GlyphSet::Cjk), game);
                let now = app.now();
                if let Some(play) = app.play.as_mut() {
                    let mut clock =
                        crate::clock::Clock::new("10m 3x30s".parse().expect("a time control"));
                    clock.start(play.game.position().side_to_move(), now);
                    play.clock = Some(clock);
                }
                for action in actions {
                    app.update(action);
                }
                let area = Rect::new(0, 0, width, height);
                let mut buffer = Buffer::empty(area);
                render_buffer(&app, area, &mut buffer);
                let theme = app_theme(&app, game);
                let rect = popup_rect(&buffer, theme.popup_border)
                    .unwrap_or_else(|| panic!("{name}: a popup"));
                for y in rect.top()..rect.bottom() {
                    for x in rect.left()..rect.right() {
                        let cell = &buffer[(x, y)];
                        // The second column of a wide character is drawn by it.
                        let covered = x > 0 && buffer[(x - 1, y)].symbol().width() > 1;
                        assert!(
                            covered
                                || cell.bg != ratatui::style::Color::Reset
                                || theme.popup.bg.is_none(),
                            "{language:?} {game:?} {name} {width}x{height}: a hole at {x},{y}: {cell:?}"
                        );
                    }
                }
                // Nothing of the panel is left right beside the popup on narrow screens.
                if rect.right() < width && width <= 100 {
                    for y in rect.top()..rect.bottom() {
                        let beside: String = (rect.right()..width)
                            .map(|x| buffer[(x, y)].symbol().to_string())
                            .collect();
                        assert!(
                            beside.trim().is_empty() || rect.width < width - 10,
                            "{language:?} {name} {width}: {beside:?} beside the popup"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn the_longest_start_value_keeps_off_the_border() {
    for language in LANGUAGES {
        for handicap in 0..crate::rules::shogi::Handicap::ALL.len() {
            let mut app = App::new(settings(language, GlyphSet::Cjk));
            app.options = StartOptions::for_game(GameKind::Shogi);
            app.options.handicap = handicap;
            app.start_row = 1;
            let area = Rect::new(0, 0, 80, 24);
            let mut buffer = Buffer::empty(area);
            render_buffer(&app, area, &mut buffer);
            let rect =
                popup_rect(&buffer, app_theme(&app, GameKind::Shogi).dim).expect("the start menu");
            for y in rect.top() + 1..rect.bottom() - 1 {
                let inside = &buffer[(rect.right() - 2, y)];
                assert_eq!(
                    inside.symbol(),
                    " ",
                    "{language:?} handicap {handicap}: row {y} touches the border"
                );
            }
        }
    }
}

#[test]
fn a_change_of_language_or_glyphs_redraws_the_whole_screen() {
    use crate::tui::needs_full_redraw;
    let english = (Language::English, GlyphSet::Cjk);
    assert!(!needs_full_redraw(english, english));
    assert!(needs_full_redraw(
        english,
        (Language::Japanese, GlyphSet::Cjk)
    ));
    assert!(needs_full_redraw(
        english,
        (Language::English, GlyphSet::Latin)
    ));
}

// ----- item 16: no points where they decide nothing ---------------------------------

#[test]
fn the_score_is_shown_only_under_rules_that_count_points() {
    use crate::rules::janggi::JanggiRules;
    for (rules, shown) in [
        (JanggiRules::KJA, true),
        (JanggiRules::MODERN, true),
        (JanggiRules::TRADITIONAL, false),
        (JanggiRules::CASUAL, false),
    ] {
        let app = App::with_game(
            settings(Language::English, GlyphSet::Cjk),
            StartOptions::for_variant(Variant::Janggi(rules)),
        );
        let text = screen(&app, 80, 24);
        assert_eq!(text.contains("Score"), shown, "{}:\n{text}", rules.id);
    }
}

// ----- item 13: Korean wording ---------------------------------------------------------

#[test]
fn results_are_written_as_a_korean_player_writes_them() {
    use crate::rules::EndReason;
    let korean = |outcome: Outcome| {
        outcome_text(Language::Korean, GlyphSet::Cjk, GameKind::Janggi, &outcome)
    };
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::Checkmate)),
        "한 외통승"
    );
    assert_eq!(
        korean(Outcome::win(Side::First, EndReason::Resignation)),
        "초 기권승"
    );
    assert_eq!(korean(Outcome::draw(EndReason::Bikjang)), "빅장 무승부");
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::Repetition)),
        "점수 우세로 한 승 (반복)"
    );
    assert_eq!(
        korean(Outcome::win(Side::Second, EndReason::SecondPlayer)),
        "동점이라 후수 한 승 (후수승)"
    );
    assert_eq!(
        Language::Korean.text(Key::ConfirmQuit),
        "대국은 저장됩니다. 종료할까요?"
    );
    assert!(!Language::Korean
        .text(Key::IllegalNotWrittenHere)
        .contains("적히는"));
}

#[test]
fn the_korean_clock_counts_in_seconds_of_its_own() {
    let mut app = midgame(settings(Language::Korean, GlyphSet::Cjk), GameKind::Janggi);
    let now = app.now();
    if let Some(play) = app.play.as_mut() {
        let mut clock = crate::clock::Clock::new("0s 30x30s".parse().expect("a time control"));
        clock.start(play.game.position().side_to_move(), now);
        play.clock = Some(clock);
    }
    let text = screen(&app, 80, 24);
    assert!(text.contains("30초 ×30"), "{text}");
    let mut app = midgame(settings(Language::Japanese, GlyphSet::Cjk), GameKind::Shogi);
    if let Some(play) = app.play.as_mut() {
        let mut clock = crate::clock::Clock::new("0s 30x30s".parse().expect("a time control"));
        clock.start(play.game.position().side_to_move(), now);
        play.clock = Some(clock);
    }
    assert!(screen(&app, 80, 24).contains("30秒 ×30"));
}

#[test]
fn korean_help_breaks_lines_between_words() {
    for width in 20..60 {
        let text = Language::Korean.text(Key::RulesShogi);
        let lines = hanging_lines(text, 2, 2, width);
        let words: Vec<&str> = text.split(' ').collect();
        for line in &lines {
            for piece in line.split(' ').filter(|p| !p.is_empty()) {
                assert!(
                    words.contains(&piece),
                    "width {width}: {piece:?} is a broken word"
                );
            }
        }
    }
    let lines = hanging_lines("기보 열기: PGN/KIF/CSA/.gib 파일", 2, 2, 24);
    assert!(
        lines.iter().any(|l| l.contains("PGN/KIF/CSA/.gib")),
        "{lines:?}"
    );
}

#[test]
fn the_hangul_piece_set_draws_janggi_in_hangul_two_columns_each() {
    use crate::rules::any::Piece;
    for kind in [
        PieceKind::General,
        PieceKind::Advisor,
        PieceKind::Elephant,
        PieceKind::Horse,
        PieceKind::Chariot,
        PieceKind::Cannon,
        PieceKind::Soldier,
    ] {
        for side in [Side::First, Side::Second] {
            for game in [GameKind::Janggi, GameKind::Xiangqi] {
                let glyph = glyphs::piece(game, Piece { side, kind }, GlyphSet::Hangul);
                assert_eq!(glyph.width(), 2, "{glyph}");
                assert!(
                    glyph
                        .chars()
                        .all(|c| ('\u{AC00}'..='\u{D7A3}').contains(&c)),
                    "{glyph}"
                );
            }
        }
    }
    let general = |side| {
        glyphs::piece(
            GameKind::Janggi,
            Piece {
                side,
                kind: PieceKind::General,
            },
            GlyphSet::Hangul,
        )
    };
    assert_eq!((general(Side::First), general(Side::Second)), ("초", "한"));
    let app = App::with_game(
        settings(Language::Korean, GlyphSet::Hangul),
        StartOptions::for_game(GameKind::Janggi),
    );
    let text = screen(&app, 80, 24);
    assert!(
        text.contains('차') && text.contains('졸') && text.contains('병'),
        "{text}"
    );
    // The settings offer it by name (and "한자" no longer claims Hangul).
    assert_eq!(Language::Korean.text(Key::GlyphsCjk), "한자");
    assert_eq!(Language::Korean.text(Key::GlyphsHangul), "한글");
}

/// Issue 12 item 17: a config problem too long for the start screen's last line ends in
/// `…`, so the player sees that there is more (`qipan config check` says it all).
#[test]
fn a_long_message_on_the_start_screen_is_cut_with_an_ellipsis() {
    let mut app = App::new(settings(Language::English, GlyphSet::Cjk));
    let detail = "config.toml: line 7, column 9: key \"cpu.level\": expected a whole number from 1 to 10, found \"ten\" (and more words than any terminal line holds)";
    app.show_error(Key::StatusOpenFailed, detail);
    let text = screen(&app, 80, 24);
    let last = text
        .lines()
        .rev()
        .find(|line| line.contains("config.toml"))
        .unwrap();
    assert!(last.contains('…'), "{last}");
}

/// A shogi game from a handicap start (Gote moves first) with `moves` played.
fn handicap_game(language: Language, moves: &[&str]) -> App {
    let mut options = StartOptions::for_game(GameKind::Shogi);
    options.handicap = 1;
    let mut app = App::with_game(settings(language, GlyphSet::Cjk), options);
    let play = app.play.as_mut().unwrap();
    for text in moves {
        let mv = super::benchmark::parse_move(play.game.position(), text).unwrap();
        play.play_and_record(mv).unwrap();
    }
    app
}

#[test]
fn shogi_moves_are_numbered_by_ply_and_a_handicap_game_starts_on_the_left() {
    // An even game: every ply its own number, the list ending at the sixth.
    let app = midgame(settings(Language::Japanese, GlyphSet::Cjk), GameKind::Shogi);
    for (width, height) in [(80, 24), (120, 40)] {
        let text = screen(&app, width, height);
        assert!(text.contains(" 1 ▲７六歩"), "{text}");
        assert!(text.contains(" 2 △３四歩"), "{text}");
        assert!(text.contains(" 6 △８四歩"), "{text}");
        insta::assert_snapshot!(format!("shogi_plies_japanese_{width}x{height}"), text);
    }
    // A handicap game: Gote's first move opens the first line, under number 1.
    let app = handicap_game(Language::Japanese, &["3c3d", "7g7f", "8c8d"]);
    let text = screen(&app, 80, 24);
    let first = text
        .lines()
        .find(|line| line.contains("△３四歩"))
        .expect("Gote's first move");
    assert!(first.contains(" 1 △３四歩"), "{first}");
    assert!(first.contains(" 2 ▲７六歩"), "{first}");
    assert!(text.contains(" 3 △８四歩"), "{text}");
    insta::assert_snapshot!("shogi_handicap_plies_japanese_80x24", text);
}

#[test]
fn janggi_counts_plies_and_xiangqi_counts_rounds_as_their_records_do() {
    let janggi = screen(
        &midgame(settings(Language::Korean, GlyphSet::Cjk), GameKind::Janggi),
        80,
        24,
    );
    let plies = midgame(Settings::default(), GameKind::Janggi)
        .play
        .unwrap()
        .game
        .moves()
        .len();
    assert!(janggi.contains(" 1. "), "{janggi}");
    assert!(janggi.contains(&format!(" {plies}. ")), "{janggi}");
    let xiangqi = screen(
        &midgame(
            settings(Language::Chinese, GlyphSet::Cjk),
            GameKind::Xiangqi,
        ),
        80,
        24,
    );
    assert!(xiangqi.contains("  1. "), "{xiangqi}");
}

#[test]
fn the_continue_row_counts_as_the_move_list_does() {
    for game in GAMES {
        for language in Language::ALL {
            let played = midgame(settings(language, GlyphSet::Cjk), game);
            let saved = played.saved_game().expect("a game to save");
            let moves = saved.game.moves().len();
            let number = shown_move_number(game, Side::First, moves);
            // The move list's last number…
            let list = screen(&played, 80, 24);
            let marker = match game {
                GameKind::Shogi => format!(" {number} "),
                _ => format!(" {number}. "),
            };
            assert!(
                list.contains(&marker),
                "{game:?} {language:?}: {marker:?}\n{list}"
            );
            // …is the number the start screen offers to continue from.
            let mut start = App::new(settings(language, GlyphSet::Cjk));
            start.offer_saved_game(saved);
            let text = screen(&start, 80, 24);
            let row = text
                .lines()
                .find(|line| line.contains("[ ") && line.contains(&number.to_string()))
                .unwrap_or_else(|| panic!("{game:?} {language:?}: no continue row\n{text}"));
            assert!(
                !row.contains(&format!(" {moves}")) || number == moves,
                "{row}"
            );
        }
    }
    assert_eq!(shown_move_number(GameKind::Shogi, Side::First, 8), 8);
    assert_eq!(shown_move_number(GameKind::Janggi, Side::First, 8), 8);
    assert_eq!(shown_move_number(GameKind::Xiangqi, Side::First, 8), 4);
    assert_eq!(shown_move_number(GameKind::Xiangqi, Side::Second, 8), 5);
}

#[test]
fn the_shogi_continue_preview_shows_the_pieces_in_hand() {
    // The sample game trades bishops: each side holds one.
    let played = midgame(settings(Language::Japanese, GlyphSet::Cjk), GameKind::Shogi);
    let saved = played.saved_game().unwrap();
    for (width, height) in [(80, 24), (120, 40)] {
        let mut start = App::new(settings(Language::Japanese, GlyphSet::Cjk));
        start.offer_saved_game(saved.clone());
        let text = screen(&start, width, height);
        assert!(text.contains("△後手 角"), "{text}");
        assert!(text.contains("▲先手 角"), "{text}");
        insta::assert_snapshot!(
            format!("shogi_continue_hands_japanese_{width}x{height}"),
            text
        );
    }
    // The new-game preview (both hands empty) draws no hands rows.
    let mut start = App::new(settings(Language::Japanese, GlyphSet::Cjk));
    start.options = StartOptions::for_game(GameKind::Shogi);
    let text = screen(&start, 80, 24);
    // Only the player row names Sente.
    assert_eq!(
        text.lines().filter(|line| line.contains("▲先手")).count(),
        1,
        "{text}"
    );
}

#[test]
fn a_custom_start_is_not_called_standard_or_even() {
    for (language, word) in [
        (Language::English, "custom position"),
        (Language::Korean, "임의 국면"),
        (Language::Chinese, "自定局面"),
        (Language::Japanese, "任意局面"),
    ] {
        let shogi = Variant::Shogi
            .position_from_fen("4k4/9/9/9/9/9/9/9/4K4 b G 1")
            .unwrap();
        let app = App::from_position(settings(language, GlyphSet::Cjk), shogi);
        let title = screen(&app, 80, 24).lines().next().unwrap().to_string();
        assert!(title.contains(word), "{title}");
        assert!(!title.contains("平手"), "{title}");
        let xiangqi = Variant::Xiangqi
            .position_from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
            .unwrap();
        let app = App::from_position(settings(language, GlyphSet::Cjk), xiangqi);
        let title = screen(&app, 80, 24).lines().next().unwrap().to_string();
        assert!(title.contains(word), "{title}");
    }
    // A handicap start is named as one.
    let app = handicap_game(Language::Japanese, &[]);
    let title = screen(&app, 80, 24).lines().next().unwrap().to_string();
    assert!(title.contains("香落ち"), "{title}");
    // Readers of kanji get no English beside it; Korean and English readers do.
    assert!(!title.contains("lance"), "{title}");
    let app = handicap_game(Language::Korean, &[]);
    let title = screen(&app, 80, 24).lines().next().unwrap().to_string();
    assert!(title.contains("香落ち lance"), "{title}");
}

/// Records in each format, with what their headers say.
const RECORDS: [(&str, crate::record::Format, &str, &str, &str); 4] = [
    (
        "[Event \"全国象棋锦标赛\"]\n[Date \"1960.05.01\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"0-1\"]\n\n1. h2e2 h9g7 0-1\n",
        crate::record::Format::Pgn,
        "胡荣华",
        "杨官璘",
        "全国象棋锦标赛 · 1960.05.01",
    ),
    (
        "開始日時：2024/05/01\n棋戦：名人戦\n手合割：平手\n先手：羽生善治\n後手：藤井聡太\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n",
        crate::record::Format::Kif,
        "羽生善治",
        "藤井聡太",
        "名人戦 · 2024/05/01",
    ),
    (
        "V2.2\nN+Sente Player\nN-Gote Player\n$EVENT:Floodgate\n$START_TIME:2024/01/02\nPI\n+\n+7776FU\n%TORYO\n",
        crate::record::Format::Csa,
        "Sente Player",
        "Gote Player",
        "Floodgate · 2024/01/02",
    ),
    (
        "[대회명 \"친선대국\"]\n[대국일자 \"2016-12-06\"]\n[초대국자 \"하여명\"]\n[한대국자 \"전동하\"]\n[초차림 \"상마상마\"]\n[한차림 \"상마상마\"]\n[대국결과 \"초 완승\"]\n\n1. 71졸72 2. 49병48\n",
        crate::record::Format::Gib,
        "하여명",
        "전동하",
        "친선대국 · 2016-12-06",
    ),
];

#[test]
fn an_opened_record_shows_its_players_event_date_and_result() {
    for (text, format, first, second, event) in RECORDS {
        let record = crate::record::read_bytes(text.as_bytes(), "test", format).unwrap();
        let stated = record.result.expect("each sample states its result");
        for language in Language::ALL {
            let mut app = App::from_record(settings(language, GlyphSet::Cjk), record.clone(), None);
            let play = app.play.as_ref().unwrap();
            // The stated result is the game's end: not a game still to be played on.
            assert_eq!(play.game.outcome(), Some(stated), "{format:?}");
            assert_eq!(
                app.overlay, None,
                "{format:?}: no game-over question over the record"
            );
            let effects = app.take_effects();
            assert!(
                !effects
                    .iter()
                    .any(|effect| matches!(effect, crate::app::Effect::SaveRecord { .. })),
                "{format:?}: an opened record is not copied into the history"
            );
            let screen_text = screen(&app, 80, 24);
            for name in [first, second, event] {
                assert!(
                    screen_text.contains(name),
                    "{format:?} {language:?}: {name}\n{screen_text}"
                );
            }
            let finished = language.format(Key::GameFinished, &[""]);
            assert!(
                screen_text.contains(finished.trim()),
                "{format:?} {language:?}\n{screen_text}"
            );
            // With `--ascii`, only the ASCII part of the headers (or nothing) is shown.
            if language == Language::English {
                let ascii =
                    App::from_record(settings(language, GlyphSet::Latin), record.clone(), None);
                let ascii_text = screen(&ascii, 80, 24);
                assert!(ascii_text.is_ascii(), "{format:?}\n{ascii_text}");
            }
            if format == crate::record::Format::Gib && language == Language::Korean {
                assert!(!screen_text.contains("한 차례"), "{screen_text}");
                insta::assert_snapshot!("opened_gib_record_korean_80x24", screen_text);
            }
        }
    }
}

#[test]
fn every_settings_value_fits_its_row_in_every_language() {
    use crate::app::settings_screen::SettingRow;
    for language in Language::ALL {
        for glyph_step in 0..3 {
            // Latin letters (`--ascii`) are for English; the other languages need CJK fonts.
            if glyph_step == 2 && language != Language::English {
                continue;
            }
            for game in GAMES {
                let mut start = App::new(settings(language, GlyphSet::Cjk));
                start.options = StartOptions::for_game(game);
                let in_game = midgame(settings(language, GlyphSet::Cjk), game);
                for mut app in [start, in_game] {
                    for _ in 0..glyph_step {
                        app.change_setting(SettingRow::Glyphs, 1);
                    }
                    for (row, &setting) in SettingRow::ALL.iter().enumerate() {
                        app.overlay = Some(crate::app::Overlay::Settings { row });
                        let value = app.setting_value(setting);
                        for (width, height) in [(80, 24), (120, 40)] {
                            let text = screen(&app, width, height);
                            // The focused value stands whole between its arrows.
                            let mut shown =
                                super::shown_text(app.settings.glyphs, &value).to_string();
                            if app.settings.glyphs == GlyphSet::Latin {
                                shown = shown.replace('·', ".");
                            }
                            assert!(
                                text.contains(&format!("◀ {shown} ▶"))
                                    || text.contains(&format!("< {shown} >")),
                                "{language:?} {game:?} {setting:?} {width}x{height}: {value}\n{text}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn chinese_names_the_sides_of_the_captured_pieces_and_hands_in_simplified_characters() {
    // Shogi's hands: 后手, as the panel says, not Japanese 後手.
    let app = midgame(settings(Language::Chinese, GlyphSet::Cjk), GameKind::Shogi);
    let text = screen(&app, 80, 24);
    assert!(!text.contains("後手"), "{text}");
    assert!(text.contains("△后手"), "{text}");
    let app = midgame(
        settings(Language::Chinese, GlyphSet::Cjk),
        GameKind::Xiangqi,
    );
    let text = screen(&app, 80, 24);
    assert!(!text.contains('紅'), "{text}");
    let captured = text
        .lines()
        .skip_while(|line| !line.contains("吃子"))
        .take(3)
        .collect::<Vec<_>>()
        .join("\n");
    assert!(
        captured.contains("红方") && captured.contains("黑方"),
        "{captured}"
    );
    // The glyph setting names the games the Hangul pieces are for, in Chinese words.
    assert_eq!(
        Language::Chinese.text(Key::GlyphsHangul),
        "韩文 (日本将棋除外)"
    );
}
