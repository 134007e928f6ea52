//! Nothing from a file or an engine reaches a terminal raw (issue 18, item 6): random
//! bytes — alone, and planted in the headers, names and comments of real records — go
//! into every record reader, every engine line and every header field, and no output
//! (records written back, error messages in every language, the drawn screen) holds a
//! control character: nothing below U+0020 but a newline where lines are allowed,
//! no DEL, no C1 control (U+0080–U+009F).

use proptest::prelude::*;
use qipan::app::{App, Settings};
use qipan::i18n::Language;
use qipan::protocol::client::EngineError;
use qipan::protocol::{read_bounded_line, BoundedLine};
use qipan::record::{self, Format, GameRecord};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

const FORMATS: [Format; 8] = [
    Format::Xqf,
    Format::Pgn,
    Format::Kif,
    Format::Ki2,
    Format::Csa,
    Format::Gib,
    Format::Fen,
    Format::Usi,
];

const LANGUAGES: [Language; 4] = [
    Language::English,
    Language::Korean,
    Language::Chinese,
    Language::Japanese,
];

/// Records with a `@` where random bytes are planted (a header, a name, a comment).
const TEMPLATES: [(Format, &str); 7] = [
    (
        Format::Pgn,
        "[Event \"@\"]\n[Red \"@\"]\n[Game \"Chinese Chess\"]\n\n1. h2e2 {@} h9g7 *\n",
    ),
    (
        Format::Kif,
        "先手：@\n後手：@\n手数----指手---------消費時間--\n   1 ７六歩(77)\n*@\n   2 ３四歩(33)\n",
    ),
    (Format::Ki2, "先手：@\n後手：x\n\n▲７六歩 △３四歩\n*@\n"),
    (
        Format::Csa,
        "V2.2\nN+@\nN-x\n$EVENT:@\nPI\n+\n+7776FU\n'@\n-3334FU\n",
    ),
    (
        Format::Gib,
        "[초대국자 \"@\"]\n[한대국자 \"x\"]\n[대국결과 \"@\"]\n\n1. 79졸78 {@} 2. 71졸72\n",
    ),
    (Format::Fen, "@"),
    (Format::Usi, "position startpos moves @\n"),
];

/// The control characters left in `text` (a newline allowed when `lines`).
fn raw_controls(text: &str, lines: bool) -> Vec<char> {
    text.chars()
        .filter(|&c| c.is_control() && !(lines && c == '\n'))
        .collect()
}

fn assert_clean(what: &str, text: &str, lines: bool) {
    let raw = raw_controls(text, lines);
    assert!(raw.is_empty(), "{what}: raw {raw:?} in {text:?}");
}

/// Every place a read record's text can go: its fields, every writer, the screen.
fn check_record(record: &GameRecord) {
    for (name, value) in &record.headers {
        assert_clean("header name", name, false);
        assert_clean("header value", value, false);
    }
    for (_, comment) in &record.comments {
        assert_clean("comment", comment, true);
    }
    for format in FORMATS {
        if let Ok(text) = record::write(record, format) {
            assert_clean("written record", &text, true);
        }
    }
    let mut app = App::new(Settings::default());
    app.open_record(record.clone(), None);
    assert_clean_screen(&app);
}

fn assert_clean_screen(app: &App) {
    let area = Rect::new(0, 0, 100, 32);
    let mut buffer = Buffer::empty(area);
    qipan::ui::render_buffer(app, area, &mut buffer);
    for cell in &buffer.content {
        assert_clean("screen cell", cell.symbol(), false);
    }
}

/// Reads `bytes` as every format and checks every output.
fn check_every_reader(bytes: &[u8]) {
    for format in FORMATS {
        let name = "evil\x1b]0;t\x07.rec";
        for result in record::read_all_bytes(bytes, name, format) {
            match result {
                Ok(record) => check_record(&record),
                Err(error) => {
                    for language in LANGUAGES {
                        assert_clean("import error", &error.text(language), false);
                    }
                    if let Some(partial) = &error.partial {
                        check_record(partial);
                    }
                }
            }
        }
    }
}

/// Random bytes weighted towards control characters and the bytes of UTF-8 text.
fn hostile_bytes(max: usize) -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(
        prop_oneof![
            3 => 0u8..0x20,
            1 => Just(0x7f_u8),
            1 => Just(0xc2_u8),
            1 => 0x80u8..0xa0,
            4 => 0x20u8..0x7f,
            2 => any::<u8>(),
        ],
        0..max,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_bytes_into_every_reader_reach_no_output_raw(bytes in hostile_bytes(300)) {
        check_every_reader(&bytes);
    }

    #[test]
    fn random_bytes_in_headers_names_and_comments_reach_no_output_raw(
        template in 0..TEMPLATES.len(),
        planted in hostile_bytes(40),
    ) {
        let (format, text) = TEMPLATES[template];
        let mut bytes = Vec::new();
        for (index, piece) in text.split('@').enumerate() {
            if index > 0 {
                bytes.extend_from_slice(&planted);
            }
            bytes.extend_from_slice(piece.as_bytes());
        }
        for result in record::read_all_bytes(&bytes, "planted", format) {
            match result {
                Ok(record) => check_record(&record),
                Err(error) => {
                    for language in LANGUAGES {
                        assert_clean("import error", &error.text(language), false);
                    }
                }
            }
        }
    }

    #[test]
    fn random_engine_lines_arrive_escaped_and_bounded(bytes in hostile_bytes(400)) {
        let mut reader = std::io::Cursor::new(bytes.clone());
        let mut lines = 0;
        while let Some(line) = read_bounded_line(&mut reader, 64).unwrap() {
            lines += 1;
            if let BoundedLine::Line(text) = line {
                assert_clean("engine line", &text, false);
                assert!(text.len() <= 4 * 64, "{}", text.len());
            }
        }
        prop_assert!(lines <= bytes.iter().filter(|&&b| b == b'\n').count() + 1);
        // Text an engine or a config gives that errors quote.
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let errors = [
            EngineError::IllegalMove { name: text.clone(), text: text.clone() },
            EngineError::Missing { name: text.clone(), command: text.clone() },
            EngineError::Spawn { name: text.clone(), reason: text.clone() },
        ];
        for error in errors {
            for language in LANGUAGES {
                assert_clean("engine error", &error.message(language), false);
            }
        }
        // A status line with such text is drawn clean.
        let mut app = App::new(Settings::default());
        app.show_error(qipan::i18n::Key::StatusAutosaveUnreadable, &text);
        assert_clean_screen(&app);
    }
}

#[test]
fn an_over_long_engine_line_is_dropped_not_held() {
    let mut input = vec![b'x'; 10_000];
    input.extend_from_slice(b"\nbestmove a0a1\n");
    let mut reader = std::io::Cursor::new(input);
    assert_eq!(
        read_bounded_line(&mut reader, 1000).unwrap(),
        Some(BoundedLine::TooLong(10_000))
    );
    assert_eq!(
        read_bounded_line(&mut reader, 1000).unwrap(),
        Some(BoundedLine::Line("bestmove a0a1".to_string()))
    );
    assert_eq!(read_bounded_line(&mut reader, 1000).unwrap(), None);
}
