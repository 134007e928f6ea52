//! What qipan writes is what other programs expect (issue 15, "What qipan writes"):
//! `.kif`/`.ki2` in Shift_JIS and `.kifu`/`.ki2u` in UTF-8, never mojibake; native header
//! keys (棋戦/先手/後手/開始日時, CSA `N+`/`$START_TIME`, PGN `Date`/`Red`/`Cho`).

mod scratch;

use qipan::app::records::SaveTarget;
use qipan::app::{App, Settings, StartOptions};
use qipan::record::{self, Format, GameRecord, WriteError};
use qipan::rules::any::GameKind;
use qipan::tui::save_record;
use std::path::Path;

/// A fresh folder for one test, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    scratch::folder(&format!("qipan-writing-{name}"))
}

/// A short shogi game with the given player names.
fn shogi_record(sente: &str, gote: &str) -> GameRecord {
    let bytes = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+8822UM\n-3122GI\n";
    let mut record = record::read_bytes(bytes.as_bytes(), "t.csa", Format::Csa).unwrap();
    record.headers = vec![
        ("先手".to_string(), sente.to_string()),
        ("後手".to_string(), gote.to_string()),
        ("棋戦".to_string(), "練習".to_string()),
    ];
    record
}

fn shift_jis_text(bytes: &[u8]) -> String {
    let (text, _, errors) = encoding_rs::SHIFT_JIS.decode(bytes);
    assert!(!errors, "valid Shift_JIS");
    text.into_owned()
}

#[test]
fn kif_and_ki2_files_are_shift_jis_and_say_so() {
    let record = shogi_record("羽生善治", "藤井聡太");
    let kif = record::write_for_file(&record, Path::new("g.kif")).unwrap();
    assert!(std::str::from_utf8(&kif).is_err(), "not UTF-8");
    let text = shift_jis_text(&kif);
    assert!(
        text.starts_with("#KIF version=2.0 encoding=Shift_JIS\n"),
        "{text}"
    );
    assert!(text.contains("先手：羽生善治"), "{text}");
    assert!(text.contains("２二角成(88)"), "{text}");
    // It reads back as the same game.
    let back = record::read_bytes(&kif, "g.kif", Format::Kif).unwrap();
    assert_eq!(back.game.moves(), record.game.moves());
    assert_eq!(back.header("先手"), Some("羽生善治"));

    let ki2 = record::write_for_file(&record, Path::new("g.ki2")).unwrap();
    let text = shift_jis_text(&ki2);
    assert!(text.contains("▲７六歩"), "{text}");
    let back = record::read_bytes(&ki2, "g.ki2", Format::Ki2).unwrap();
    assert_eq!(back.game.moves(), record.game.moves());
}

#[test]
fn kifu_and_ki2u_files_are_utf8() {
    let record = shogi_record("김철수", "藤井聡太");
    let kifu = record::write_for_file(&record, Path::new("g.kifu")).unwrap();
    let text = String::from_utf8(kifu).expect("UTF-8");
    assert!(text.starts_with("#KIF version=2.0 encoding=UTF-8\n"));
    assert!(text.contains("先手：김철수"));
    let ki2u = record::write_for_file(&record, Path::new("g.ki2u")).unwrap();
    assert!(String::from_utf8(ki2u).unwrap().contains("김철수"));
}

#[test]
fn a_name_shift_jis_cannot_hold_is_refused_not_garbled() {
    let record = shogi_record("김철수", "藤井聡太");
    let error = record::write_for_file(&record, Path::new("g.kif")).unwrap_err();
    assert!(
        matches!(
            error,
            WriteError::Unencodable {
                character: '김',
                ..
            }
        ),
        "{error:?}"
    );
    let message = error.to_string();
    assert!(
        message.contains("g.kif") && message.contains(".kifu"),
        "{message}"
    );
}

#[test]
fn csa_with_japanese_names_declares_utf8() {
    let ascii = record::write(&shogi_record("Habu", "Fujii"), Format::Csa).unwrap();
    // The 棋戦 is Japanese: the text is not ASCII, so it is V3.0 with its declaration.
    assert!(ascii.starts_with("'CSA encoding=UTF-8\nV3.0\n"), "{ascii}");
    let mut plain = shogi_record("Habu", "Fujii");
    plain.headers.retain(|(key, _)| key != "棋戦");
    let text = record::write(&plain, Format::Csa).unwrap();
    assert!(text.starts_with("V2.2\nN+Habu\nN-Fujii\n"), "{text}");
}

#[test]
fn english_header_keys_are_written_under_native_names() {
    let mut record = shogi_record("a", "b");
    record.headers = vec![
        ("Event".to_string(), "Club".to_string()),
        ("Sente".to_string(), "Alice".to_string()),
        ("Gote".to_string(), "Bob".to_string()),
        ("Date".to_string(), "2026.12.01".to_string()),
    ];
    let kif = record::write(&record, Format::Kif).unwrap();
    for line in [
        "棋戦：Club",
        "先手：Alice",
        "後手：Bob",
        "開始日時：2026/12/01",
    ] {
        assert!(kif.contains(line), "{line} in\n{kif}");
    }
    assert!(
        !kif.contains("Sente：") && !kif.contains("Event："),
        "{kif}"
    );
    let csa = record::write(&record, Format::Csa).unwrap();
    for line in ["N+Alice", "N-Bob", "$EVENT:Club", "$START_TIME:2026/12/01"] {
        assert!(csa.lines().any(|l| l == line), "{line} in\n{csa}");
    }
}

#[test]
fn a_played_shogi_game_gets_native_keys_and_its_start_time() {
    let app = App::with_game(Settings::default(), StartOptions::for_game(GameKind::Shogi));
    let record = app.game_record().unwrap();
    assert_eq!(record.header("先手"), Some("Human"));
    assert!(record.header("後手").is_some());
    assert!(record.header("Sente").is_none() && record.header("Event").is_none());
    let started = record.header("開始日時").expect("the start time");
    // YYYY/MM/DD HH:MM:SS
    let shape: String = started
        .chars()
        .map(|c| if c.is_ascii_digit() { '9' } else { c })
        .collect();
    assert_eq!(shape, "9999/99/99 99:99:99", "{started}");
    let kif = record::write(&record, Format::Kif).unwrap();
    assert!(kif.contains(&format!("開始日時：{started}")), "{kif}");
    let csa = record::write(&record, Format::Csa).unwrap();
    assert!(csa.contains(&format!("$START_TIME:{started}")), "{csa}");
}

#[test]
fn xiangqi_and_janggi_games_get_their_pgn_names_and_date() {
    for (kind, first, second) in [
        (GameKind::Xiangqi, "Red", "Black"),
        (GameKind::Janggi, "Cho", "Han"),
    ] {
        let app = App::with_game(Settings::default(), StartOptions::for_game(kind));
        let record = app.game_record().unwrap();
        assert!(record.header(first).is_some() && record.header(second).is_some());
        let pgn = record::write(&record, Format::Pgn).unwrap();
        let date = pgn
            .lines()
            .find_map(|line| line.strip_prefix("[Date \""))
            .expect("a Date tag");
        assert_eq!(date.len(), "2026.12.01\"]".len(), "{pgn}");
        assert_eq!(&date[4..5], ".", "{pgn}");
        assert!(pgn.contains("[Time \""), "{pgn}");
    }
}

#[test]
fn a_handicap_game_names_shitate_and_uwate() {
    let mut options = StartOptions::for_game(GameKind::Shogi);
    // Any handicap but the first (even) one: Gote, the giver, moves first.
    options.handicap = 1;
    let app = App::with_game(Settings::default(), options);
    let record = app.game_record().unwrap();
    assert!(record.header("下手").is_some() && record.header("上手").is_some());
}

#[test]
fn the_save_prompt_writes_shift_jis_for_kif_and_falls_back_to_kifu() {
    let scratch_folder = scratch("save");
    let folder = scratch_folder.path();
    let mut app = App::with_game(Settings::default(), StartOptions::for_game(GameKind::Shogi));
    let path = folder.join("plain.kif");
    let record = app.game_record().unwrap();
    save_record(
        &mut app,
        record,
        &SaveTarget::Named(path.display().to_string()),
    );
    let text = shift_jis_text(&std::fs::read(&path).unwrap());
    assert!(text.contains("encoding=Shift_JIS"), "{text}");

    // A name Shift_JIS lacks: written as .kifu (UTF-8), and the status line says so.
    let mut record = app.game_record().unwrap();
    record
        .headers
        .push(("後手".to_string(), "김철수".to_string()));
    record
        .headers
        .retain(|(key, value)| key != "後手" || value == "김철수");
    let korean = folder.join("korean.kif");
    save_record(
        &mut app,
        record,
        &SaveTarget::Named(korean.display().to_string()),
    );
    assert!(!korean.exists(), "no mojibake .kif");
    let written = std::fs::read_to_string(folder.join("korean.kifu")).unwrap();
    assert!(written.contains("後手：김철수"), "{written}");
    let status = app.status.as_ref().unwrap().text.clone();
    assert!(
        status.contains("korean.kifu") && status.contains("UTF-8"),
        "{status}"
    );
}

#[test]
fn convert_writes_the_encoding_its_output_name_promises() {
    let scratch_folder = scratch("convert");
    let folder = scratch_folder.path();
    let input = folder.join("in.csa");
    std::fs::write(&input, "V2.2\nN+Habu\nN-Fujii\nPI\n+\n+7776FU\n-3334FU\n").unwrap();
    let output = folder.join("out.kif");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_qipan"))
        .arg("convert")
        .arg(&input)
        .arg(&output)
        .status()
        .unwrap();
    assert!(status.success());
    let text = shift_jis_text(&std::fs::read(&output).unwrap());
    assert!(
        text.contains("先手：Habu") && text.contains("７六歩(77)"),
        "{text}"
    );

    std::fs::write(&input, "V2.2\nN+김철수\nN-Fujii\nPI\n+\n+7776FU\n").unwrap();
    let refused = folder.join("korean.kif");
    let run = std::process::Command::new(env!("CARGO_BIN_EXE_qipan"))
        .arg("convert")
        .arg(&input)
        .arg(&refused)
        .output()
        .unwrap();
    assert!(!run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(
        stderr.contains("Shift_JIS") && stderr.contains(".kifu"),
        "{stderr}"
    );
    assert!(!refused.exists());
}

#[test]
fn variants_of_every_game_keep_utf8_for_pgn() {
    let app = App::with_game(
        Settings::default(),
        StartOptions::for_game(GameKind::Janggi),
    );
    let record = app.game_record().unwrap();
    let bytes = record::write_for_file(&record, Path::new("g.pgn")).unwrap();
    assert!(String::from_utf8(bytes).is_ok());
}

#[test]
fn gib_headers_become_pgn_tags_that_strict_readers_take() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/records/janggi_utf8.gib"
    );
    let record = record::read_file(Path::new(path)).unwrap();
    let pgn = record::write(&record, Format::Pgn).unwrap();
    for line in [
        "[Event \"친선대국\"]",
        "[Date \"2016.12.06\"]",
        "[Cho \"하여명\"]",
        "[Han \"전동하\"]",
    ] {
        assert!(pgn.lines().any(|l| l == line), "{line} in\n{pgn}");
    }
    // Every tag name is ASCII (python-chess's tag pattern), and the file is not taken
    // for a .gib when its name says nothing.
    for line in pgn.lines().filter(|l| l.starts_with('[')) {
        let name = line[1..].split(' ').next().unwrap();
        assert!(name.is_ascii(), "{line}");
    }
    assert_eq!(Format::sniff(pgn.as_bytes()), Some(Format::Pgn));
    let back = record::read_bytes(pgn.as_bytes(), "g.pgn", Format::Pgn).unwrap();
    assert_eq!(back.game.moves(), record.game.moves());
}
