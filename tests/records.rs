//! Game records: PGN and `.gib` reading and writing, round trips over whole games in
//! every notation, files written by other programs (`tests/data/records/`), error
//! messages and partial games, and random bytes that must never panic a reader.

use proptest::prelude::*;
use qipan::record::{self, gib, pgn, Format, GameRecord};
use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::janggi::{start_fen, JanggiRules, Setup};
use qipan::rules::notation::Notation;
use qipan::rules::{EndReason, Outcome, Position, Side};
use std::path::Path;

mod common;

/// A game of up to `plies` pseudo-random legal moves (a fixed xorshift seed, so the
/// same game every run).
fn random_game(variant: Variant, fen: Option<&str>, plies: usize, seed: u64) -> Game {
    let start = match fen {
        Some(fen) => variant.position_from_fen(fen).expect("valid start"),
        None => variant.start(),
    };
    let mut game = Game::new(start);
    common::play_random(&mut game, plies, seed);
    game
}

fn engine_moves(game: &Game) -> Vec<String> {
    game.positions()
        .iter()
        .zip(game.moves())
        .map(|(position, mv)| position.move_to_uci(*mv))
        .collect()
}

fn assert_same_game(read: &GameRecord, written: &GameRecord, what: &str) {
    assert_eq!(
        read.game.variant(),
        written.game.variant(),
        "{what}: variant"
    );
    assert_eq!(
        read.game.start().fen(),
        written.game.start().fen(),
        "{what}: start"
    );
    assert_eq!(
        engine_moves(&read.game),
        engine_moves(&written.game),
        "{what}: moves"
    );
    assert_eq!(read.comments, written.comments, "{what}: comments");
    let winner = |r: &GameRecord| r.result.or(r.game.outcome()).map(|o| o.winner());
    assert_eq!(winner(read), winner(written), "{what}: result");
}

fn janggi_starts() -> Vec<String> {
    let mut starts = Vec::new();
    for (cho, han) in [
        (
            Setup::HorseElephantElephantHorse,
            Setup::HorseElephantElephantHorse,
        ),
        (
            Setup::ElephantHorseHorseElephant,
            Setup::HorseElephantHorseElephant,
        ),
        (
            Setup::ElephantHorseElephantHorse,
            Setup::ElephantHorseHorseElephant,
        ),
        (
            Setup::HorseElephantHorseElephant,
            Setup::ElephantHorseElephantHorse,
        ),
    ] {
        starts.push(start_fen(cho, han));
    }
    starts
}

fn round_trip_every_notation(variant: Variant, fen: Option<&str>, seed: u64) {
    let mut record = GameRecord::new(random_game(variant, fen, 160, seed));
    record
        .headers
        .push(("Event".into(), "Round \"trip\" test".into()));
    record.comments.push((0, "before the first move".into()));
    record
        .comments
        .push((3, "after move three; {braces}".into()));
    let plies = record.game.moves().len();
    record.comments.push((plies, "at the end".into()));
    if record.game.outcome().is_none() {
        record.result = Some(Outcome::win(Side::Second, EndReason::Resignation));
    }
    // Comment text with braces is written with `)` for `}`; compare what survives.
    let mut expected = record.clone();
    expected.comments[1].1 = "after move three; {braces)".into();
    for &notation in Notation::for_game(variant.kind()) {
        let text = pgn::write(&record, notation);
        let read = pgn::read(text.as_bytes(), "trip.pgn")
            .unwrap_or_else(|error| panic!("{notation:?}: {error}\n{text}"));
        assert_same_game(&read, &expected, &format!("{variant:?} {notation:?}"));
        assert_eq!(read.header("Event"), Some("Round \"trip\" test"));
    }
}

#[test]
fn xiangqi_round_trips_in_every_notation() {
    for seed in [1, 2, 3] {
        round_trip_every_notation(Variant::Xiangqi, None, seed);
    }
    // An endgame start: the FEN tag carries it.
    round_trip_every_notation(
        Variant::Xiangqi,
        Some("3akab2/9/4b4/9/9/9/9/4B4/4A4/2BAK1R2 w - - 0 1"),
        4,
    );
}

#[test]
fn janggi_round_trips_in_every_setup_and_notation() {
    for (index, fen) in janggi_starts().iter().enumerate() {
        round_trip_every_notation(
            Variant::Janggi(JanggiRules::KJA),
            Some(fen),
            index as u64 + 7,
        );
    }
    round_trip_every_notation(Variant::Janggi(JanggiRules::MODERN), None, 11);
}

#[test]
fn gungjanggi_round_trips_with_its_variant_tag() {
    for (index, rules) in [JanggiRules::GUNGJANGGI, JanggiRules::GUNGJANGGI_DAN]
        .into_iter()
        .enumerate()
    {
        round_trip_every_notation(Variant::Janggi(rules), None, 21 + index as u64);
    }
    let record = GameRecord::new(random_game(
        Variant::Janggi(JanggiRules::GUNGJANGGI),
        None,
        10,
        5,
    ));
    let text = pgn::write(&record, Notation::Korean { hangul: true });
    assert!(text.contains("[Variant \"gungjanggi\"]"), "{text}");
}

/// Reads `tests/data/records/NAME` with `reader` and checks it against `NAME.moves`
/// (the start FEN, then one engine-coordinate move a line, from pyffish).
fn check_fixture(
    name: &str,
    reader: fn(&[u8], &str) -> Result<GameRecord, qipan::record::ImportError>,
) -> GameRecord {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let bytes = std::fs::read(folder.join(name)).expect("fixture exists");
    let stem = name.rsplit_once('.').unwrap().0;
    let expected = std::fs::read_to_string(folder.join(format!("{stem}.moves"))).unwrap();
    let mut lines = expected.lines();
    let fen = lines.next().unwrap();
    let moves: Vec<String> = lines.map(str::to_string).collect();
    let record = reader(&bytes, name).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(
        record.game.start().fen().split(' ').next(),
        fen.split(' ').next(),
        "{name}: start"
    );
    assert_eq!(engine_moves(&record.game), moves, "{name}: moves");
    record
}

#[test]
fn reads_fairy_stockfish_wxf_with_its_equals_signs() {
    let record = check_fixture("xiangqi_fsf_wxf.pgn", pgn::read);
    assert_eq!(record.game.variant(), Variant::Xiangqi);
    assert_eq!(record.header("Red"), Some("A"));
}

#[test]
fn reads_pychess_xiangqi_san() {
    check_fixture("xiangqi_pychess_san.pgn", pgn::read);
}

#[test]
fn reads_pychess_janggi_san_with_setup_and_passes() {
    let record = check_fixture("janggi_pychess_san.pgn", pgn::read);
    assert_eq!(record.game.variant(), Variant::Janggi(JanggiRules::KJA));
}

#[test]
fn reads_gib_in_utf8_and_cp949() {
    for name in ["janggi_utf8.gib", "janggi_cp949.gib"] {
        let record = check_fixture(name, gib::read);
        assert_eq!(record.header("초대국자"), Some("하여명"), "{name}");
        assert_eq!(
            record.result,
            Some(Outcome::win(Side::Second, EndReason::Timeout)),
            "{name}"
        );
    }
}

#[test]
fn a_bad_move_names_line_move_text_and_reason_and_keeps_the_game_so_far() {
    let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n1. H2-E2 H9-G7\n2. H0-G2 {fine so far}\n   I9-I5 3. X9-X9 *\n";
    let error = pgn::read(text.as_bytes(), "bad.pgn").unwrap_err();
    assert_eq!(error.line, Some(6));
    assert_eq!(error.move_number, Some(2));
    assert_eq!(error.text, "I9-I5");
    let message = error.to_string();
    assert!(
        message.starts_with("bad.pgn: line 6, move 2: I9-I5: "),
        "{message}"
    );
    let partial = error.partial.expect("partial game");
    assert_eq!(engine_moves(&partial.game), ["h3e3", "h10g8", "h1g3"]);
    assert_eq!(partial.comments, [(3, "fine so far".to_string())]);
}

#[test]
fn header_errors_name_the_line() {
    let unknown =
        pgn::read(b"[Event \"x\"]\n[Variant \"chess960\"]\n\n1. e4 *", "v.pgn").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "v.pgn: line 2: chess960: unknown variant \"chess960\""
    );
    let fen = pgn::read(b"[Game \"Chinese Chess\"]\n[FEN \"9/9 w\"]\n", "f.pgn").unwrap_err();
    assert_eq!(fen.line, Some(2));
    assert!(fen.reason.starts_with("bad FEN"), "{fen}");
    let open = pgn::read(
        b"[Game \"Chinese Chess\"]\n\n1. h2e2 {never closed",
        "c.pgn",
    )
    .unwrap_err();
    assert_eq!(
        open.to_string(),
        "c.pgn: line 3: {: comment is never closed"
    );
    let gib_error = gib::read("[초차림 \"마마상상\"]\n".as_bytes(), "g.gib").unwrap_err();
    assert_eq!(gib_error.line, Some(1));
    let gib_move = gib::read(
        "[초차림 \"마상상마\"]\n\n1. 79졸78 2. 11차21 3. 02상34\n".as_bytes(),
        "m.gib",
    )
    .unwrap_err();
    assert_eq!(gib_move.move_number, Some(3));
    assert_eq!(gib_move.text, "02상34");
    assert_eq!(gib_move.partial.expect("partial").game.moves().len(), 2);
}

#[test]
fn movetext_details_are_read_or_skipped_cleanly() {
    // Chinese (traditional and simplified, full-width digits), NAGs, variations,
    // `;` comments, `1.` glued to the move, and a result.
    let text = "[Game \"Chinese Chess\"]\n\n1.炮二平五 $1 馬８進７ (1... 马2进3 {alt}) 2. 马二进三 ; rest of line\n车９平８ 1-0\n";
    let record = pgn::read(text.as_bytes(), "zh.pgn").unwrap();
    assert_eq!(
        engine_moves(&record.game),
        ["h3e3", "h10g8", "h1g3", "i10h10"]
    );
    assert_eq!(record.comments, [(3, "rest of line".to_string())]);
    assert_eq!(record.result.map(|o| o.winner()), Some(Some(Side::First)));
    // Korean coordinates without a Variant tag are janggi; FSF-UCI with rank 10.
    let janggi = pgn::read("1. 79졸78 2. 한수쉼 *".as_bytes(), "k.pgn").unwrap();
    assert_eq!(engine_moves(&janggi.game), ["i4h4", "e9e9"]);
    let uci = pgn::read(b"1. h3e3 h10g8 2. h1g3 *", "u.pgn").unwrap();
    assert_eq!(engine_moves(&uci.game), ["h3e3", "h10g8", "h1g3"]);
}

/// Results off the board keep their reason through PGN (a `Termination` tag) and `.gib`.
#[test]
fn off_board_results_keep_their_reason() {
    let game = random_game(Variant::Xiangqi, None, 20, 7);
    for outcome in [
        Outcome::win(Side::First, EndReason::Timeout),
        Outcome::win(Side::Second, EndReason::Foul),
        Outcome::win(Side::First, EndReason::Resignation),
        Outcome::draw(EndReason::Agreement),
    ] {
        let mut record = GameRecord::new(game.clone());
        record.game.declare(outcome);
        record.result = Some(outcome);
        let text = pgn::write(&record, Notation::Wxf);
        let read = pgn::read(text.as_bytes(), "end.pgn").unwrap();
        assert_eq!(read.result, Some(outcome), "{text}");
    }
    let foul = "[Game \"Chinese Chess\"]\n[Result \"0-1\"]\n[Termination \"illegal move\"]\n\n1. h3e3 0-1\n";
    let read = pgn::read(foul.as_bytes(), "foul.pgn").unwrap();
    assert_eq!(
        read.result,
        Some(Outcome::win(Side::Second, EndReason::Foul))
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_bytes_never_panic_a_reader(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = pgn::read(&bytes, "random.pgn");
        let _ = gib::read(&bytes, "random.gib");
    }

    #[test]
    fn random_text_never_panics_a_reader(text in "[\\[\\]{}();$%\"a-iA-I0-9 .+=\\-\\n졸마상한수쉼炮二平五进]{0,200}") {
        let _ = pgn::read(text.as_bytes(), "random.pgn");
        let _ = gib::read(text.as_bytes(), "random.gib");
    }
}

#[test]
fn formats_from_extension_and_content() {
    assert_eq!(Format::from_extension("a/b/Game.PGN"), Some(Format::Pgn));
    assert_eq!(Format::from_extension("x.kifu"), Some(Format::Kif));
    assert_eq!(Format::from_extension("x.gib"), Some(Format::Gib));
    assert_eq!(Format::from_extension("x.txt"), None);
    assert_eq!(Format::from_name("usi"), Some(Format::Usi));
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let cp949 = std::fs::read(folder.join("janggi_cp949.gib")).unwrap();
    assert_eq!(Format::sniff(&cp949), Some(Format::Gib));
    assert_eq!(
        Format::sniff(b"[Game \"Chinese Chess\"]\n"),
        Some(Format::Pgn)
    );
    assert_eq!(
        Format::sniff(b"position startpos moves h3e3"),
        Some(Format::Usi)
    );
    assert_eq!(
        Format::sniff(b"rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n"),
        Some(Format::Fen)
    );
    assert_eq!(
        Format::sniff("手合割：平手\n手数----指手---\n".as_bytes()),
        Some(Format::Kif)
    );
    // Read through the dispatcher, by sniffing, from a file without an extension.
    let copy = std::env::temp_dir().join(format!("qipan-records-{}", std::process::id()));
    std::fs::write(&copy, &cp949).unwrap();
    let record = record::read_file(&copy).unwrap();
    std::fs::remove_file(&copy).unwrap();
    assert_eq!(record.game.moves().len(), 60);
}

#[test]
fn usi_and_fen_outputs_read_back() {
    for (variant, seed) in [
        (Variant::Xiangqi, 31),
        (Variant::Janggi(JanggiRules::KJA), 32),
        (Variant::Janggi(JanggiRules::GUNGJANGGI), 33),
        (Variant::Shogi, 34),
    ] {
        let record = GameRecord::new(random_game(variant, None, 80, seed));
        let usi = record::write(&record, Format::Usi).unwrap();
        let read = record::read_bytes(usi.as_bytes(), "game.usi", Format::Usi)
            .unwrap_or_else(|e| panic!("{e}\n{usi}"));
        assert_eq!(read.game.variant(), variant);
        assert_eq!(engine_moves(&read.game), engine_moves(&record.game));
        let fen = record::write(&record, Format::Fen).unwrap();
        let position = record::read_bytes(
            format!("{} {fen}", variant.id()).as_bytes(),
            "end.fen",
            Format::Fen,
        )
        .unwrap();
        assert_eq!(position.game.start(), record.game.position(), "{variant:?}");
    }
    // Shogi formats go through the same dispatch, and only shogi games are written in them.
    let mut shogi = Game::from_variant(Variant::Shogi);
    for text in ["c3c4", "g7g6", "b2h8+"] {
        let mv = shogi.position().parse_uci(text).unwrap();
        shogi.play(mv).unwrap();
    }
    let record = GameRecord::new(shogi);
    for format in [Format::Kif, Format::Ki2, Format::Csa] {
        let text = record::write(&record, format).unwrap();
        let read = record::read_bytes(text.as_bytes(), "game", format)
            .unwrap_or_else(|e| panic!("{format:?}: {e}\n{text}"));
        assert_eq!(read.game.moves(), record.game.moves(), "{format:?}");
    }
    let xiangqi = GameRecord::new(Game::from_variant(Variant::Xiangqi));
    assert!(record::write(&xiangqi, Format::Kif).is_err());
    assert!(record::write(&xiangqi, Format::Gib).is_err());
    // A bad engine move: the line, the move number and the game so far.
    let error =
        record::read_bytes(b"position startpos moves h3e3 zz", "bad.usi", Format::Usi).unwrap_err();
    assert_eq!(
        error.to_string(),
        "bad.usi: line 1, move 2: zz: not a move in engine coordinates"
    );
    assert_eq!(error.partial.unwrap().game.moves().len(), 1);
}

#[test]
fn the_convert_command_writes_files_and_standard_output() {
    use std::process::Command;
    let binary = env!("CARGO_BIN_EXE_qipan");
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records");
    let out = std::env::temp_dir().join(format!("qipan-convert-{}.pgn", std::process::id()));
    let status = Command::new(binary)
        .arg("convert")
        .arg(folder.join("janggi_cp949.gib"))
        .arg(&out)
        .status()
        .unwrap();
    assert!(status.success());
    let usi = Command::new(binary)
        .args(["convert", out.to_str().unwrap(), "--to", "usi"])
        .output()
        .unwrap();
    std::fs::remove_file(&out).unwrap();
    assert!(usi.status.success());
    let text = String::from_utf8(usi.stdout).unwrap();
    let expected = std::fs::read_to_string(folder.join("janggi_cp949.moves")).unwrap();
    let moves: Vec<&str> = expected.lines().skip(1).collect();
    assert!(
        text.starts_with("setoption name UCI_Variant value janggi\n"),
        "{text}"
    );
    assert!(text.trim_end().ends_with(&moves.join(" ")), "{text}");
    // The PGN notation is chosen with --notation.
    let chinese = std::env::temp_dir().join(format!("qipan-notation-{}.pgn", std::process::id()));
    std::fs::write(&chinese, "1. 炮二平五 马８进７ 2. 马二进三 *\n").unwrap();
    let wxf = Command::new(binary)
        .args([
            "convert",
            chinese.to_str().unwrap(),
            "--to",
            "pgn",
            "--notation",
            "wxf",
        ])
        .output()
        .unwrap();
    let wrong = Command::new(binary)
        .args([
            "convert",
            chinese.to_str().unwrap(),
            "--to",
            "pgn",
            "--notation",
            "korean",
        ])
        .output()
        .unwrap();
    std::fs::remove_file(&chinese).unwrap();
    let wxf = String::from_utf8(wxf.stdout).unwrap();
    assert!(
        wxf.contains("[Format \"WXF\"]") && wxf.contains("1. C2.5 H8+7 2. H2+3 *"),
        "{wxf}"
    );
    assert!(!wrong.status.success());
    // A broken file: one line on standard error, a non-zero exit.
    let broken = std::env::temp_dir().join(format!("qipan-broken-{}.pgn", std::process::id()));
    std::fs::write(
        &broken,
        "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 2. zz *\n",
    )
    .unwrap();
    let failed = Command::new(binary)
        .args(["convert", broken.to_str().unwrap(), "--to", "fen"])
        .output()
        .unwrap();
    std::fs::remove_file(&broken).unwrap();
    assert!(!failed.status.success());
    let message = String::from_utf8(failed.stderr).unwrap();
    assert_eq!(message.lines().count(), 1, "{message}");
    assert!(message.contains("line 3, move 2: zz:"), "{message}");
}

#[test]
fn gungjanggi_judging_started_by_an_accepted_draw_survives_the_round_trip() {
    let mut game = random_game(Variant::Janggi(JanggiRules::GUNGJANGGI), None, 6, 9);
    game.accept_draw();
    let mut record = GameRecord::new(game);
    for _ in 0..3 {
        let legal = record.game.legal_moves();
        let Some(&mv) = legal.as_slice().first() else {
            break;
        };
        record.game.play(mv).unwrap();
    }
    let text = pgn::write(&record, Notation::Korean { hangul: true });
    assert!(text.contains("[JudgingPly \"6\"]"), "{text}");
    let read = pgn::read(text.as_bytes(), "judging.pgn").unwrap();
    assert_eq!(read.game.position().fen(), record.game.position().fen());
    assert_eq!(read.game.outcome(), record.game.outcome());
}

#[test]
fn a_gbk_chinese_record_is_decoded() {
    let text = "[Game \"Chinese Chess\"]\n[Red \"胡荣华\"]\n[Format \"Chinese\"]\n\n1. 炮二平五 马８进７ 2. 马二进三 车９平８ 1/2-1/2\n";
    let (bytes, _, failed) = encoding_rs::GBK.encode(text);
    assert!(!failed);
    assert!(std::str::from_utf8(&bytes).is_err());
    let record = pgn::read(&bytes, "gbk.pgn").unwrap();
    assert_eq!(record.header("Red"), Some("胡荣华"));
    assert_eq!(
        engine_moves(&record.game),
        ["h3e3", "h10g8", "h1g3", "i10h10"]
    );
    assert_eq!(record.result.map(|o| o.winner()), Some(None));
}

#[test]
fn winboard_xiangqi_san_counts_ranks_from_zero() {
    let text = "[Variant \"xiangqi\"]\n\n1. Cbe2 Hg7 2. Hc2 Cd7 3. c4 g5 4. Rb0 *\n";
    let record = pgn::read(text.as_bytes(), "winboard.pgn").unwrap();
    assert_eq!(
        engine_moves(&record.game),
        ["b3e3", "h10g8", "b1c3", "b8d8", "c4c5", "g7g6", "a1b1"]
    );
}

#[test]
fn a_lone_fen_is_told_apart_by_its_kings() {
    let janggi = "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";
    let record = record::read_bytes(janggi.as_bytes(), "j.fen", Format::Fen).unwrap();
    assert_eq!(record.game.variant(), Variant::Janggi(JanggiRules::KJA));
    let xiangqi = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let record = record::read_bytes(xiangqi.as_bytes(), "x.fen", Format::Fen).unwrap();
    assert_eq!(record.game.variant(), Variant::Xiangqi);
    let named = format!("janggi-modern {xiangqi}");
    let record = record::read_bytes(named.as_bytes(), "n.fen", Format::Fen).unwrap();
    assert_eq!(record.game.variant(), Variant::Janggi(JanggiRules::MODERN));
}

#[test]
fn gib_comments_markers_and_stray_bytes_are_handled() {
    let text = "[초차림 \"마상상마\"]\n[한차림 \"마상상마\"]\n[대국결과 \"초 기권승\"]\n\n\
                1.79楚卒78 2. 19漢車29 { a comment\n spanning lines } <0>\n3. 한수쉼 4. 29차19\n";
    let mut bytes = encoding_rs::EUC_KR.encode(text).0.into_owned();
    bytes.insert(5, 0xFF);
    bytes.push(0x1A);
    let record = gib::read(&bytes, "marked.gib").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        engine_moves(&record.game),
        ["i4h4", "i10i9", "e2e2", "i9i10"]
    );
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::First, EndReason::Resignation))
    );
    // The comment is kept after the move it follows.
    assert_eq!(
        record.comments,
        vec![(2, "a comment spanning lines".to_string())]
    );
    // A piece name that does not match the board is refused.
    let wrong = gib::read("1. 79마78\n".as_bytes(), "wrong.gib").unwrap_err();
    assert_eq!(wrong.move_number, Some(1));
    assert!(wrong.reason.contains("졸"), "{wrong}");
}

#[test]
fn reads_cchess_chinese_notation() {
    let record = check_fixture("xiangqi_cchess_chinese.pgn", pgn::read);
    assert_eq!(record.game.variant(), Variant::Xiangqi);
}

#[test]
fn the_event_loop_writes_saved_and_finished_games() {
    use qipan::app::records::SaveTarget;
    use qipan::app::{Action, App, Effect, Settings, StartOptions};
    let folder = std::env::temp_dir().join(format!("qipan-records-save-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    // Only this test in this binary sets these variables.
    std::env::set_var("QIPAN_AUTOSAVE", folder.join("state/autosave.txt"));
    std::env::set_var("QIPAN_GAMES_DIR", folder.join("mine"));
    let mut app = App::with_game(
        Settings::default(),
        StartOptions::for_variant(Variant::Janggi(JanggiRules::KJA)),
    );
    app.update(Action::Pass);
    app.update(Action::Resign);
    app.update(Action::Yes);
    app.update(Action::Save);
    for c in "final".chars() {
        app.update(Action::PromptChar(c));
    }
    app.update(Action::Select);
    for effect in app.take_effects() {
        if let Effect::SaveRecord { record, target } = effect {
            qipan::tui::save_record(&mut app, *record, &target);
            if let SaveTarget::Named(_) = target {
                assert!(app.status.as_ref().unwrap().text.contains("final.pgn"));
            }
        }
    }
    let saved = std::fs::read_to_string(folder.join("mine/final.pgn")).unwrap();
    assert!(saved.contains("[Date \""), "{saved}");
    let history: Vec<_> = std::fs::read_dir(folder.join("state/history"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(history.len(), 1);
    assert!(history[0].ends_with("_janggi.pgn"), "{history:?}");
    let record = record::read_file(&folder.join("state/history").join(&history[0])).unwrap();
    assert_eq!(engine_moves(&record.game), ["e2e2"]);
    assert_eq!(record.result.map(|o| o.winner()), Some(Some(Side::First)));

    // The open prompt lists both files (newest first) and opens the one chosen.
    let mut start = App::new(Settings::default());
    start.update(Action::OpenFile);
    let effects = start.take_effects();
    assert!(matches!(effects.as_slice(), [Effect::ListRecords]));
    start.set_record_choices(qipan::record::library::record_files());
    let Some(qipan::app::Overlay::OpenFile { choices, .. }) = &start.overlay else {
        panic!("no open prompt: {:?}", start.overlay);
    };
    assert_eq!(choices.len(), 2, "{choices:?}");
    assert!(choices.iter().any(|c| c.ends_with("final.pgn")));
    let final_index = choices
        .iter()
        .position(|c| c.ends_with("final.pgn"))
        .unwrap();
    for _ in 0..=final_index {
        start.update(Action::Down);
    }
    start.update(Action::Select);
    let Some(Effect::OpenRecord {
        request: qipan::record::library::OpenRequest::Typed(name),
        ..
    }) = start.take_effects().pop()
    else {
        panic!("no open effect");
    };
    assert!(name.ends_with("final.pgn"), "{name}");
    qipan::tui::open_record(&mut start, &name);
    let play = start.play.as_ref().expect("opened");
    assert_eq!(engine_moves(&play.game), ["e2e2"]);
    // A bare name is looked up in the games folder; a missing file says why and opens nothing.
    let mut other = App::new(Settings::default());
    qipan::tui::open_record(&mut other, "final.pgn");
    assert!(other.play.is_some());
    let mut missing = App::new(Settings::default());
    qipan::tui::open_record(&mut missing, "no-such-game.pgn");
    assert!(missing.play.is_none());
    assert!(missing.status.as_ref().is_some_and(|s| s.error));
    std::fs::remove_dir_all(&folder).unwrap();
}

/// The open prompt picks a game of a file of several with `#N` and says which it opened.
#[test]
fn the_open_prompt_picks_a_game_from_a_file_of_several() {
    use qipan::app::{App, Settings};
    let folder = std::env::temp_dir().join(format!("qipan-open-many-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let path = folder.join("three.pgn");
    let games = "[Game \"Chinese Chess\"]\n\n1. h3e3 *\n\n[Game \"Chinese Chess\"]\n\n1. h3e3 h10g8 *\n\n[Game \"Chinese Chess\"]\n\n1. b3e3 *\n";
    std::fs::write(&path, games).unwrap();
    let name = path.display().to_string();
    let mut app = App::new(Settings::default());
    qipan::tui::open_record(&mut app, &format!("{name} #2"));
    let play = app.play.as_ref().expect("game 2 opened");
    assert_eq!(engine_moves(&play.game), ["h3e3", "h10g8"]);
    let status = app.status.as_ref().unwrap();
    assert!(!status.error);
    assert!(status.text.contains("Game 2 of 3"), "{}", status.text);
    // Without a number: the first game, and the note that there are others.
    let mut first = App::new(Settings::default());
    qipan::tui::open_record(&mut first, &name);
    assert_eq!(engine_moves(&first.play.as_ref().unwrap().game), ["h3e3"]);
    assert!(first.status.as_ref().unwrap().text.contains("Game 1 of 3"));
    // A number the file does not have opens nothing and says so.
    let mut missing = App::new(Settings::default());
    qipan::tui::open_record(&mut missing, &format!("{name} #9"));
    assert!(missing.play.is_none());
    let status = missing.status.as_ref().unwrap();
    assert!(
        status.error && status.text.contains("no game 9"),
        "{}",
        status.text
    );
    // In Korean, where the problem is reads in Korean; the game so far is opened.
    let bad = folder.join("bad.pgn");
    std::fs::write(
        &bad,
        "[Game \"Chinese Chess\"]\n\n1. h3e3 h10g8\n2. h3h10 *\n",
    )
    .unwrap();
    let mut korean = App::new(Settings {
        language: qipan::i18n::Language::Korean,
        ..Settings::default()
    });
    qipan::tui::open_record(&mut korean, &bad.display().to_string());
    let status = korean.status.as_ref().unwrap();
    assert!(status.error);
    assert!(status.text.contains("4행, 2수째: h3h10"), "{}", status.text);
    assert_eq!(
        engine_moves(&korean.play.as_ref().unwrap().game),
        ["h3e3", "h10g8"]
    );
    std::fs::remove_dir_all(&folder).unwrap();
}

#[test]
fn legacy_encodings_are_told_apart_by_their_move_text() {
    // CP949 janggi without the word "janggi", and GBK xiangqi without [Game].
    let korean = "[Game \"장기\"]\n\n1. 79졸78 2. 한수쉼 *\n";
    let bytes = encoding_rs::EUC_KR.encode(korean).0.into_owned();
    let record = pgn::read(&bytes, "cp949.pgn").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(engine_moves(&record.game), ["i4h4", "e9e9"]);
    let chinese = "1. 炮二平五 马８进７ 2. 马二进三 *\n";
    let bytes = encoding_rs::GBK.encode(chinese).0.into_owned();
    let record = pgn::read(&bytes, "gbk.pgn").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(engine_moves(&record.game), ["h3e3", "h10g8", "h1g3"]);
}
