//! Files holding several games: `record::read_all_bytes` reads every game of a PGN, CSA
//! or KIF file, one bad game is reported with its number and file line without losing
//! the others, and `qipan open`/`convert` pick a game with `--game N`.

use proptest::prelude::*;
use qipan::record::{self, Format, GameRecord, ImportError};
use std::process::Command;

/// Three xiangqi/janggi games; the second starts on line 6 and the third on line 13.
const THREE_PGN: &str = "[Event \"first\"]\n[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 {a [bracket]} *\n\n\
[Event \"second\"]\n[Game \"Chinese Chess\"]\n\n1. c3c4 {a comment\nover lines} c6c5\n2. b2c2 1-0\n\n\
[Event \"third\"]\n[Variant \"janggi\"]\n\n1. 79졸78 {[%emt 0:00:07]} 1/2-1/2\n";

/// Two CSA games separated by a `/` line, with times; the second starts on line 10.
const TWO_CSA: &str = "'CSA encoding=UTF-8\nV3.0\nN+A\nPI\n+\n+7776FU\nT3\n%TORYO\n/\nV3.0\nN+B\nPI\n+\n+2726FU,T1.5\n-3334FU\nT2\n/\n";

fn all(text: &str, name: &str, format: Format) -> Vec<Result<GameRecord, ImportError>> {
    record::read_all_bytes(text.as_bytes(), name, format)
}

fn ok(result: &Result<GameRecord, ImportError>) -> &GameRecord {
    result.as_ref().unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_three_game_pgn_reads_every_game() {
    let games = all(THREE_PGN, "three.pgn", Format::Pgn);
    assert_eq!(games.len(), 3);
    let events: Vec<&str> = games
        .iter()
        .map(|game| ok(game).header("Event").unwrap())
        .collect();
    assert_eq!(events, ["first", "second", "third"]);
    let plies: Vec<usize> = games.iter().map(|g| ok(g).game.moves().len()).collect();
    assert_eq!(plies, [2, 3, 1]);
    assert_eq!(ok(&games[0]).comments, vec![(2, "a [bracket]".to_string())]);
    assert_eq!(
        ok(&games[1]).comments,
        vec![(1, "a comment over lines".to_string())]
    );
    assert!(ok(&games[1]).result.is_some());
    assert!(ok(&games[2]).game.variant().kind() == qipan::rules::any::GameKind::Janggi);
    assert_eq!(
        ok(&games[2]).move_time(1),
        Some(std::time::Duration::from_secs(7))
    );
    // The single-game reader still reads the first game.
    let first = record::read_bytes(THREE_PGN.as_bytes(), "three.pgn", Format::Pgn).unwrap();
    assert_eq!(first.header("Event"), Some("first"));
    assert_eq!(first.game.moves(), ok(&games[0]).game.moves());
}

#[test]
fn a_two_game_csa_reads_both_with_their_times() {
    let games = all(TWO_CSA, "two.csa", Format::Csa);
    assert_eq!(games.len(), 2);
    assert_eq!(ok(&games[0]).header("N+"), Some("A"));
    assert_eq!(ok(&games[0]).game.moves().len(), 1);
    assert!(ok(&games[0]).result.is_some());
    assert_eq!(ok(&games[1]).header("N+"), Some("B"));
    assert_eq!(ok(&games[1]).game.moves().len(), 2);
    assert_eq!(
        ok(&games[1]).move_times,
        vec![
            Some(std::time::Duration::from_millis(1500)),
            Some(std::time::Duration::from_secs(2))
        ]
    );
    let first = record::read_bytes(TWO_CSA.as_bytes(), "two.csa", Format::Csa).unwrap();
    assert_eq!(first.header("N+"), Some("A"));
}

#[test]
fn a_bad_second_game_is_reported_with_its_number_and_file_line() {
    let bad_pgn = THREE_PGN.replace("2. b2c2", "2. zz");
    let games = all(&bad_pgn, "bad.pgn", Format::Pgn);
    assert_eq!(games.len(), 3);
    assert!(games[0].is_ok() && games[2].is_ok());
    let error = games[1].as_ref().unwrap_err();
    assert_eq!((error.game, error.line), (Some(2), Some(11)));
    assert!(
        error
            .to_string()
            .starts_with("bad.pgn: game 2, line 11, move 2: zz:"),
        "{error}"
    );
    // The moves before the problem are kept.
    assert_eq!(error.partial.as_ref().unwrap().game.moves().len(), 2);

    let bad_csa = TWO_CSA.replace("-3334FU", "-3335FU");
    let games = all(&bad_csa, "bad.csa", Format::Csa);
    assert!(games[0].is_ok());
    let error = games[1].as_ref().unwrap_err();
    assert_eq!((error.game, error.line), (Some(2), Some(15)));
    assert!(
        error.to_string().contains("game 2, line 15, move 2"),
        "{error}"
    );
}

#[test]
fn two_kif_games_in_one_file() {
    let text = "#KIF version=2.0 encoding=UTF-8\n先手：一\n手合割：平手\n手数----指手---------消費時間--\n\
                \u{20}  1 ７六歩(77)   ( 0:05/00:00:05)\n   2 投了\nまで1手で先手の勝ち\n\n\
                #KIF version=2.0 encoding=UTF-8\n先手：二\n手合割：平手\n手数----指手---------消費時間--\n\
                \u{20}  1 ２六歩(27)\n   2 ８四歩(83)\n   3 ２五歩(26\n";
    let games = all(text, "two.kifu", Format::Kif);
    assert_eq!(games.len(), 2);
    assert_eq!(ok(&games[0]).header("先手"), Some("一"));
    assert_eq!(ok(&games[0]).game.moves().len(), 1);
    assert_eq!(ok(&games[0]).move_times.len(), 1);
    let error = games[1].as_ref().unwrap_err();
    assert_eq!((error.game, error.line), (Some(2), Some(15)));
    let partial = error.partial.as_ref().unwrap();
    assert_eq!(partial.header("先手"), Some("二"));
    assert_eq!(partial.game.moves().len(), 2);
}

#[test]
fn picking_one_game_reads_it_as_reading_all_does() {
    let bad_pgn = THREE_PGN.replace("2. b2c2", "2. zz");
    let every = all(&bad_pgn, "bad.pgn", Format::Pgn);
    for number in 1..=3 {
        let picked = record::read_nth_bytes(bad_pgn.as_bytes(), "bad.pgn", Format::Pgn, number);
        assert_eq!(picked.count, 3);
        match (picked.game.unwrap(), &every[number - 1]) {
            (Ok(one), Ok(from_all)) => assert_eq!(one.game.moves(), from_all.game.moves()),
            (Err(one), Err(from_all)) => assert_eq!(one.to_string(), from_all.to_string()),
            (one, from_all) => panic!("game {number}: {one:?} but {from_all:?}"),
        }
    }
    for number in [0, 4] {
        let picked = record::read_nth_bytes(bad_pgn.as_bytes(), "bad.pgn", Format::Pgn, number);
        assert!(picked.game.is_none());
    }
    let single = record::read_nth_bytes(b"1. h2e2 *\n", "one.pgn", Format::Pgn, 1);
    assert_eq!(single.count, 1);
    assert_eq!(single.game.unwrap().unwrap().game.moves().len(), 1);
    assert!(
        record::read_nth_bytes(b"1. h2e2 *\n", "one.pgn", Format::Pgn, 2)
            .game
            .is_none()
    );
}

#[test]
fn gib_games_one_after_another() {
    let folder = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records");
    let one = std::fs::read_to_string(format!("{folder}/janggi_utf8.gib")).unwrap();
    let lines = one.lines().count();
    let broken = one.replacen("2. 18마39", "2. 18마38", 1);
    let joined = format!("{one}\n{broken}\n{one}");
    let games = all(&joined, "three.gib", Format::Gib);
    assert_eq!(games.len(), 3);
    let single = record::read_bytes(one.as_bytes(), "one.gib", Format::Gib).unwrap();
    assert_eq!(ok(&games[0]).game.moves(), single.game.moves());
    assert_eq!(ok(&games[2]).game.moves(), single.game.moves());
    let error = games[1].as_ref().unwrap_err();
    // The second game starts after the first and its blank line; moves begin on its line 13.
    assert_eq!((error.game, error.line), (Some(2), Some(lines + 1 + 13)));
    assert_eq!(error.move_number, Some(2));
}

#[test]
fn one_game_files_read_as_before() {
    let one = "[Event \"only\"]\n\n1. h2e2 zz *\n";
    let games = all(one, "one.pgn", Format::Pgn);
    assert_eq!(games.len(), 1);
    let error = games[0].as_ref().unwrap_err();
    assert_eq!(error.game, None);
    assert!(error
        .to_string()
        .starts_with("one.pgn: line 3, move 1: zz:"));
    assert_eq!(all("", "empty.csa", Format::Csa).len(), 1);
    assert!(all("", "empty.csa", Format::Csa)[0].is_err());
}

/// A temporary file that is removed when dropped.
struct TempFile(std::path::PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("qipan-games-{}-{name}", std::process::id()));
        std::fs::write(&path, text).unwrap();
        TempFile(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().unwrap()
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

fn qipan(args: &[&str]) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_qipan"))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    (
        output.status.success(),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn convert_picks_a_game_and_says_how_many_there_are() {
    let file = TempFile::new("three.pgn", THREE_PGN);
    let (success, out, err) = qipan(&["convert", file.arg(), "--to", "pgn"]);
    assert!(success, "{err}");
    assert!(out.contains("[Event \"first\"]"), "{out}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.trim_end()
            .ends_with("three.pgn: 3 games; converting game 1 (use --game N, or --all for PGN)"),
        "{err}"
    );

    let (success, out, err) = qipan(&["convert", file.arg(), "--to", "pgn", "--game", "2"]);
    assert!(success, "{err}");
    assert!(
        out.contains("[Event \"second\"]") && !out.contains("first"),
        "{out}"
    );
    assert!(err.contains("3 games; converting game 2\n"), "{err}");

    let (success, _, err) = qipan(&["convert", file.arg(), "--to", "pgn", "--game", "4"]);
    assert!(!success);
    assert!(
        err.contains("three.pgn: 3 games; there is no game 4"),
        "{err}"
    );

    // open checks the number before it starts the terminal client (which then reads
    // the file on a worker).
    let (success, _, err) = qipan(&["open", file.arg(), "--game", "0"]);
    assert!(!success);
    assert!(
        err.contains("three.pgn: games are numbered from 1; there is no game 0"),
        "{err}"
    );

    let csa = TempFile::new("two.csa", TWO_CSA);
    let (success, out, _) = qipan(&["convert", csa.arg(), "--to", "kif", "--game", "2"]);
    assert!(success);
    assert!(
        out.contains("先手：B") && out.contains("( 0:01/00:00:01)"),
        "{out}"
    );
}

#[test]
fn convert_all_writes_every_readable_game_as_one_pgn() {
    let file = TempFile::new("all.pgn", THREE_PGN);
    let out = TempFile::new("all-out.pgn", "");
    let (success, _, err) = qipan(&["convert", file.arg(), out.arg(), "--all"]);
    assert!(success, "{err}");
    let written = std::fs::read_to_string(&out.0).unwrap();
    let games = all(&written, "all-out.pgn", Format::Pgn);
    let events: Vec<&str> = games
        .iter()
        .map(|game| ok(game).header("Event").unwrap())
        .collect();
    assert_eq!(events, ["first", "second", "third"]);

    let bad = TempFile::new("bad.pgn", &THREE_PGN.replace("2. b2c2", "2. zz"));
    let (success, out, err) = qipan(&["convert", bad.arg(), "--to", "pgn", "--all"]);
    assert!(!success, "a bad game fails the command");
    assert_eq!(out.matches("[Event ").count(), 2, "{out}");
    assert!(err.contains("game 2, line 11, move 2: zz"), "{err}");
    assert!(
        err.contains("bad.pgn: 1 game could not be read; the others were written"),
        "{err}"
    );
    let (success, _, err) = qipan(&["convert", bad.arg(), "--to", "fen", "--all"]);
    assert!(!success);
    assert!(err.contains("--all writes PGN only"), "{err}");
}

/// The games written by qipan, joined into one file, read back as the same games.
fn joined_games_read_back(format: Format, records: &[GameRecord], separator: &str) {
    let texts: Vec<String> = records
        .iter()
        .map(|r| record::write(r, format).unwrap())
        .collect();
    let joined = texts.join(separator);
    let games = all(&joined, "joined", format);
    assert_eq!(games.len(), records.len(), "{joined}");
    for (read, written) in games.iter().zip(records) {
        assert_eq!(ok(read).game.moves(), written.game.moves());
        assert_eq!(ok(read).move_times, written.move_times);
    }
}

/// A game of up to `plies` moves chosen by `choices` (each picks among the legal moves).
fn game_from(variant: qipan::rules::any::Variant, choices: &[usize]) -> GameRecord {
    let mut game = qipan::rules::game::Game::new(variant.start());
    for &choice in choices {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        let mv = legal.as_slice()[choice % legal.len()];
        game.play(mv).unwrap();
    }
    let plies = game.moves().len();
    let mut record = GameRecord::new(game);
    record.move_times = (0..plies as u64)
        .map(|i| Some(std::time::Duration::from_secs(i % 9 + 1)))
        .collect();
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn written_games_joined_read_back_one_by_one(
        games in proptest::collection::vec(proptest::collection::vec(0usize..1000, 0..20), 1..5)
    ) {
        let xiangqi: Vec<GameRecord> = games
            .iter()
            .map(|c| game_from(qipan::rules::any::Variant::Xiangqi, c))
            .collect();
        joined_games_read_back(Format::Pgn, &xiangqi, "\n");
        let shogi: Vec<GameRecord> = games
            .iter()
            .map(|c| game_from(qipan::rules::any::Variant::Shogi, c))
            .collect();
        joined_games_read_back(Format::Csa, &shogi, "/\n");
        joined_games_read_back(Format::Kif, &shogi, "\n");
    }

    #[test]
    fn random_text_never_panics_the_splitters(
        text in "[\\[\\]{}();%\"a-i0-9 +\\-/\\n#：手数先合|TPNV]{0,300}"
    ) {
        for format in [Format::Pgn, Format::Csa, Format::Kif] {
            let games = all(&text, "random", format);
            prop_assert!(!games.is_empty());
        }
    }
}
