//! Dialects of the record formats that people actually write and other programs read:
//! xiangqi PGN from Chinese databases (FEN side fields, ICCS with a dash, WXF without an
//! operator), DhtmlXQ blocks pasted from web pages, and KI2 with other side marks or
//! several games in one file.

use qipan::record::{self, Format, GameRecord};
use qipan::rules::Position;
use std::path::Path;

fn engine_moves(record: &GameRecord) -> Vec<String> {
    record
        .game
        .positions()
        .iter()
        .zip(record.game.moves())
        .map(|(position, mv)| position.move_to_uci(*mv))
        .collect()
}

fn read_pgn(text: &str) -> GameRecord {
    record::read_bytes(text.as_bytes(), "dialect.pgn", Format::Pgn)
        .unwrap_or_else(|error| panic!("{text}\n{error}"))
}

const START: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

#[test]
fn xiangqi_fen_side_fields_of_chinese_databases() {
    for (side, first) in [
        ("w", "h3e3"),
        ("r", "h3e3"),
        ("-r", "h3e3"),
        ("- r", "h3e3"),
        ("b", "h10g8"),
        ("-b", "h10g8"),
        ("- b", "h10g8"),
    ] {
        let move_text = if first == "h3e3" {
            "1. h2e2"
        } else {
            "1. ... h9g7"
        };
        let text =
            format!("[Game \"Chinese Chess\"]\n[FEN \"{START} {side} - - 0 1\"]\n{move_text}\n");
        let record = read_pgn(&text);
        assert_eq!(engine_moves(&record), [first], "side field {side:?}");
    }
}

#[test]
fn xiangqi_move_forms_of_other_programs() {
    for movetext in [
        "[Format \"ICCS\"]\n1. h2-e2 h9-g7 2. h0-g2 i9-h9",
        "[Format \"ICCS\"]\n1. H2-E2 H9-G7 2. H0-G2 I9-H9",
        "h2e2 h9g7 h0g2 i9h9",
        "[Format \"WXF\"]\n1. C2=5 H8+7 2. H2+3 R9=8",
        "[Format \"WXF\"]\n1. C25 H8+7 2. H23 R98",
        "1. 炮二平五 馬８進７ 2. 傌二進三 車９平８",
    ] {
        let record = read_pgn(movetext);
        assert_eq!(
            engine_moves(&record),
            ["h3e3", "h10g8", "h1g3", "i10h10"],
            "{movetext}"
        );
    }
}

#[test]
fn a_dhtmlxq_block_in_a_web_page_opens() {
    let page = "<html><body><p>对局</p>\n<!--\n[DhtmlXQ]\n\
        [DhtmlXQ_red]许银川[/DhtmlXQ_red]\n[DhtmlXQ_black]吕钦[/DhtmlXQ_black]\n\
        [DhtmlXQ_binit]8979695949392919097717866646260600102030405060708012720323436383[/DhtmlXQ_binit]\n\
        [DhtmlXQ_movelist]7747706279678070[/DhtmlXQ_movelist]\n[/DhtmlXQ]\n-->\n</body></html>\n";
    let dir = std::env::temp_dir().join(format!("qipan-dhtmlxq-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("game.html");
    std::fs::write(&path, page).unwrap();
    let record = record::read_file(&path).unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(engine_moves(&record), ["h3e3", "h10g8", "h1g3", "i10h10"]);
    assert_eq!(record.header("Red"), Some("许银川"));
}

/// cshogi's KI2 of an even game, as UTF-8 text.
fn cshogi_ki2() -> String {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/shogi/cshogi_even.ki2");
    let bytes = std::fs::read(path).unwrap();
    encoding_rs::SHIFT_JIS.decode(&bytes).0.into_owned()
}

#[test]
fn ki2_side_marks_of_newspapers_and_sites() {
    let plain = cshogi_ki2();
    let expected =
        engine_moves(&record::read_bytes(plain.as_bytes(), "even.ki2", Format::Ki2).unwrap());
    assert!(expected.len() > 20, "{} moves", expected.len());
    for (sente, gote) in [('▼', '▽'), ('☗', '☖'), ('▲', '▽')] {
        let text = plain
            .replace('▲', &sente.to_string())
            .replace('△', &gote.to_string());
        let record = record::read_bytes(text.as_bytes(), "marks.ki2", Format::Ki2)
            .unwrap_or_else(|error| panic!("{sente}{gote}: {error}"));
        assert_eq!(engine_moves(&record), expected, "{sente}{gote}");
    }
}

#[test]
fn a_ki2_file_of_several_games_is_split() {
    let one = cshogi_ki2();
    let two = format!("{one}\n{one}");
    let games = record::read_all_bytes(two.as_bytes(), "two.ki2", Format::Ki2);
    assert_eq!(games.len(), 2);
    let first = engine_moves(games[0].as_ref().unwrap());
    let second = engine_moves(games[1].as_ref().unwrap());
    assert_eq!(first, second);
    assert!(!first.is_empty());
}

/// Many `.gib` writers call Han's soldier 졸 as well: the file reads the same.
#[test]
fn gib_files_that_call_both_soldiers_jol_read_the_same() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/janggi_utf8.gib");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains('병'));
    let plain = record::read_bytes(text.as_bytes(), "plain.gib", Format::Gib).unwrap();
    let both_jol = text.replace('병', "졸");
    let read = record::read_bytes(both_jol.as_bytes(), "jol.gib", Format::Gib)
        .unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(engine_moves(&read), engine_moves(&plain));
}

/// Issue 12 item 17: a bad SFEN is refused with shogi's own reason (not "expected 10
/// ranks", which is what the first game tried, xiangqi, would say).
#[test]
fn a_bad_sfen_says_what_is_wrong_with_it() {
    for (sfen, wanted) in [
        // Ten pawns for Sente: nine on the board and one in hand.
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b P 1",
            "pawn",
        ),
        // Gote, not to move, is in check from Sente's rook.
        ("4k4/9/9/9/9/9/9/9/4RK3 b - 1", "check"),
    ] {
        let error = record::read_bytes(sfen.as_bytes(), "bad.sfen", Format::Fen).unwrap_err();
        let text = error.to_string();
        assert!(!text.contains("10"), "{sfen}: {text}");
        assert!(text.to_lowercase().contains(wanted), "{sfen}: {text}");
    }
}
