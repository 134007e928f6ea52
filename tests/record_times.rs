//! Move times in game records: KIF's 消費時間 column, CSA's `T` lines and PGN's
//! `[%emt …]` are read into `GameRecord::move_times` and written back, files written by
//! cshogi keep their times, and records without times are written as before.

use qipan::record::{self, csa, kif, pgn, Format, GameRecord};
use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::notation::Notation;
use std::time::Duration;

mod common;

const SHOGI_DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records/shogi");

fn seconds(n: u64) -> Option<Duration> {
    Some(Duration::from_secs(n))
}

/// A game of `plies` pseudo-random legal moves (fixed xorshift seed).
fn random_game(variant: Variant, plies: usize, seed: u64) -> Game {
    let mut game = Game::new(variant.start());
    common::play_random(&mut game, plies, seed);
    game
}

/// A record whose moves took 0, 1, 2, … seconds, except every fifth, which states no
/// time, and move 3, which took over an hour and a quarter second.
fn timed_record(variant: Variant, plies: usize, seed: u64) -> GameRecord {
    let game = random_game(variant, plies, seed);
    let played = game.moves().len();
    let mut record = GameRecord::new(game);
    record.move_times = (0..played as u64)
        .map(|index| (index % 5 != 4).then(|| Duration::from_secs(index * 7 % 95)))
        .collect();
    record.move_times[2] = Some(Duration::from_millis(3_725_250));
    record::times::tidy(&mut record.move_times, played);
    record
        .comments
        .push((2, "a comment next to a time".to_string()));
    record
}

/// The times with fractions of a second dropped, as whole-second formats keep them.
fn whole_seconds(times: &[Option<Duration>]) -> Vec<Option<Duration>> {
    times
        .iter()
        .map(|time| time.map(|t| Duration::from_secs(t.as_secs())))
        .collect()
}

#[test]
fn cshogi_kif_and_csa_times_are_read_for_every_move() {
    // generate.py gives move `index` the time index % 7 (KIF) or index % 5 (CSA).
    let mut checked = 0;
    for entry in std::fs::read_dir(SHOGI_DATA).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        let modulus = if name.starts_with("cshogi_") && name.ends_with(".csa") {
            5
        } else if name.starts_with("cshogi_") && (name.ends_with(".kif") || name.ends_with(".kifu"))
        {
            7
        } else {
            continue;
        };
        let read = record::read_file(&std::path::Path::new(SHOGI_DATA).join(&name))
            .unwrap_or_else(|e| panic!("{e}"));
        let plies = read.game.moves().len();
        assert!(plies > 10, "{name}: {plies} moves");
        let wanted: Vec<Option<Duration>> =
            (0..plies as u64).map(|i| seconds(i % modulus)).collect();
        // Trailing zero times are real times, kept like any other.
        assert_eq!(read.move_times, wanted, "{name}");
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} files");
}

#[test]
fn hand_written_kif_times_are_read_exactly() {
    let text = "手合割：平手\n\
                手数----指手---------消費時間--\n\
                \u{20}  1 ７六歩(77)   ( 0:16/00:00:16)\n\
                \u{20}  2 ３四歩(33)   ( 1:05/00:01:05)\n\
                \u{20}  3 ２二角成(88) (12:00/00:12:16)+\n\
                \u{20}  4 同　銀(31)\n\
                \u{20}  5 ４五角打     (100:01/01:52:17)\n\
                \u{20}  6 投了         ( 0:03/00:01:08)\n";
    let read = kif::read(text.as_bytes(), "times.kif").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.game.moves().len(), 5);
    assert_eq!(
        read.move_times,
        vec![seconds(16), seconds(65), seconds(720), None, seconds(6001)]
    );
    assert_eq!(read.move_time(4), None);
    assert_eq!(read.move_time(5), seconds(6001));
}

#[test]
fn kif_writes_each_move_and_the_movers_running_total() {
    let mut record = GameRecord::new(random_game(Variant::Shogi, 4, 3));
    record.move_times = vec![seconds(16), seconds(65), None, seconds(3600)];
    let text = kif::write(&record);
    let lines: Vec<&str> = text.lines().filter(|l| l.starts_with("   ")).collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].ends_with(" ( 0:16/00:00:16)"), "{}", lines[0]);
    assert!(lines[1].ends_with(" ( 1:05/00:01:05)"), "{}", lines[1]);
    assert!(!lines[2].contains('/'), "no time stated: {}", lines[2]);
    // Gote's total: 65 s, then an hour.
    assert!(lines[3].ends_with(" (60:00/01:01:05)"), "{}", lines[3]);
    // The move text is padded so the column lines up (13 columns, full width = 2).
    let column_at = |line: &str| {
        let before = &line[..line.rfind(" (").unwrap() + 1];
        before
            .chars()
            .map(|c| if c.is_ascii() { 1 } else { 2 })
            .sum::<usize>()
    };
    assert_eq!(column_at(lines[0]), column_at(lines[1]));
    assert_eq!(column_at(lines[0]), 5 + 13);
}

#[test]
fn kif_round_trip_keeps_whole_seconds() {
    for seed in [5, 6] {
        let record = timed_record(Variant::Shogi, 60, seed);
        let text = kif::write(&record);
        let read = kif::read(text.as_bytes(), "round.kifu").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.game.moves(), record.game.moves());
        assert_eq!(read.move_times, whole_seconds(&record.move_times), "{text}");
        assert_eq!(read.comments, record.comments);
    }
}

#[test]
fn csa_round_trips_whole_seconds_in_v2_and_milliseconds_in_v3() {
    let record = timed_record(Variant::Shogi, 60, 11);
    let v2 = csa::write(&record);
    assert!(v2.contains("\nT3725\n"), "{v2}");
    let read = csa::read(v2.as_bytes(), "v2.csa").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.move_times, whole_seconds(&record.move_times));
    let v3 = csa::write_v3(&record);
    assert!(v3.contains("\nT3725.25\n"), "{v3}");
    let read = csa::read(v3.as_bytes(), "v3.csa").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.move_times, record.move_times);
}

#[test]
fn csa_times_on_shared_lines_and_after_end_words() {
    let text = "V3.0\nPI\n+\n+7776FU,T12.345\n-3334FU\nT0\n+8822UM\n%TORYO\nT30\n";
    let read = csa::read(text.as_bytes(), "t.csa").unwrap_or_else(|e| panic!("{e}"));
    // The time spent resigning belongs to no move.
    assert_eq!(
        read.move_times,
        vec![Some(Duration::from_millis(12_345)), seconds(0)]
    );
    let bad = "V2.2\nPI\n+\n+7776FU\nTsoon\n";
    let error = csa::read(bad.as_bytes(), "bad.csa").unwrap_err();
    assert_eq!(error.line, Some(5));
    assert!(error.to_string().contains("Tsoon"), "{error}");
    assert_eq!(error.partial.unwrap().game.moves().len(), 1);
}

#[test]
fn kif_to_csa_to_kif_keeps_the_times() {
    let record = timed_record(Variant::Shogi, 40, 21);
    let kif_text = kif::write(&record);
    let from_kif = kif::read(kif_text.as_bytes(), "a.kifu").unwrap();
    let csa_text = record::write(&from_kif, Format::Csa).unwrap();
    let from_csa = csa::read(csa_text.as_bytes(), "a.csa").unwrap();
    assert_eq!(from_csa.move_times, whole_seconds(&record.move_times));
    assert_eq!(kif::write(&from_csa), kif_text);
}

#[test]
fn pgn_round_trips_emt_for_xiangqi_and_janggi() {
    for variant in [
        Variant::Xiangqi,
        Variant::Janggi(qipan::rules::janggi::JanggiRules::KJA),
    ] {
        let record = timed_record(variant, 50, 31);
        let text = record::write(&record, Format::Pgn).unwrap();
        assert!(text.contains("{[%emt 1:02:05.25]}"), "{text}");
        let read = pgn::read(text.as_bytes(), "t.pgn").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(read.game.moves(), record.game.moves());
        assert_eq!(read.move_times, record.move_times, "{text}");
        assert_eq!(read.comments, record.comments, "{text}");
        for notation in [Notation::Wxf, Notation::Engine] {
            let text = pgn::write(&record, notation);
            let read = pgn::read(text.as_bytes(), "t.pgn").unwrap();
            assert_eq!(read.move_times, record.move_times);
        }
    }
}

#[test]
fn pgn_emt_is_read_and_other_commands_stay_comments() {
    let text = "[Variant \"xiangqi\"]\n\n{[%emt 0:00:09]}\n\
                1. h2e2 {[%emt 0:00:05]} h9g7 {[%clk 0:09:55] [%emt 0:01:02] fine}\n\
                2. h0g2 {[%emt later]} *\n";
    let read = pgn::read(text.as_bytes(), "emt.pgn").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(read.game.moves().len(), 3);
    assert_eq!(read.move_times, vec![seconds(5), seconds(62)]);
    assert_eq!(
        read.comments,
        vec![
            (0, "[%emt 0:00:09]".to_string()),
            (2, "[%clk 0:09:55] fine".to_string()),
            (3, "[%emt later]".to_string())
        ]
    );
}

#[test]
fn records_without_times_have_none_and_write_no_time() {
    let record = GameRecord::new(random_game(Variant::Shogi, 20, 41));
    assert!(record.move_times.is_empty());
    let kif_text = kif::write(&record);
    assert!(!kif_text.contains(":00/"), "{kif_text}");
    assert!(kif::read(kif_text.as_bytes(), "x.kifu")
        .unwrap()
        .move_times
        .is_empty());
    let csa_text = csa::write(&record);
    assert!(!csa_text.lines().any(|l| l.starts_with('T')), "{csa_text}");
    let xiangqi = GameRecord::new(random_game(Variant::Xiangqi, 20, 41));
    let pgn_text = record::write(&xiangqi, Format::Pgn).unwrap();
    assert!(!pgn_text.contains("%emt"));
    assert!(pgn::read(pgn_text.as_bytes(), "x.pgn")
        .unwrap()
        .move_times
        .is_empty());
}

/// qipan's timed KIF and CSA are pinned by golden files, which cshogi reads back with the
/// same moves and times (`check_qipan_times.py`; README.md in the data folder).
/// `QIPAN_UPDATE_GOLDEN=1` rewrites them.
#[test]
fn timed_files_match_the_golden_files_cshogi_reads() {
    let update = std::env::var_os("QIPAN_UPDATE_GOLDEN").is_some();
    let start = qipan::rules::shogi::Handicap::TwoPiece.position();
    let mut game = Game::new(qipan::rules::any::AnyPosition::Shogi(start));
    common::play_random(&mut game, 120, 77);
    let plies = game.moves().len();
    let mut record = GameRecord::new(game);
    record.move_times = (0..plies as u64).map(|i| seconds(i * 37 % 250)).collect();
    let usi: Vec<String> = record
        .game
        .positions()
        .iter()
        .zip(record.game.moves())
        .map(|(position, &mv)| qipan::rules::notation::format_move(position, mv, Notation::Usi))
        .collect();
    let times: Vec<String> = record
        .move_times
        .iter()
        .map(|t| t.unwrap().as_secs().to_string())
        .collect();
    let expected = format!(
        "# file;usi moves;seconds per move (written by record_times.rs)\n\
         qipan_timed.kifu;{moves};{times}\nqipan_timed.csa;{moves};{times}\n",
        moves = usi.join(" "),
        times = times.join(" ")
    );
    for (name, text) in [
        ("qipan_timed.kifu", kif::write(&record)),
        ("qipan_timed.csa", csa::write(&record)),
        ("qipan_timed_expected.txt", expected),
    ] {
        let path = format!("{SHOGI_DATA}/{name}");
        if update {
            std::fs::write(&path, &text).unwrap();
        }
        let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            text, golden,
            "{name} changed; QIPAN_UPDATE_GOLDEN=1 rewrites it"
        );
        if name != "qipan_timed_expected.txt" {
            let read = record::read_bytes(
                golden.as_bytes(),
                name,
                Format::from_extension(name).unwrap(),
            )
            .unwrap();
            assert_eq!(read.move_times, record.move_times, "{name}");
        }
    }
}

#[test]
fn absurd_times_never_panic_a_writer() {
    let text = "[Variant \"xiangqi\"]\n\n1. h2e2 {[%emt 5000000000000000:00:00]} h9g7 \
                {[%emt 5000000000000000:00:00]} 2. h0g2 {[%emt 5000000000000000:00:00]} *\n";
    let read = pgn::read(text.as_bytes(), "huge.pgn").unwrap();
    assert_eq!(read.move_times.len(), 3);
    let _ = record::write(&read, Format::Pgn).unwrap();
    let mut shogi = GameRecord::new(random_game(Variant::Shogi, 4, 3));
    shogi.move_times = vec![Some(Duration::MAX); 4];
    let kif_text = kif::write(&shogi);
    let csa_text = csa::write_v3(&shogi);
    assert_eq!(
        kif::read(kif_text.as_bytes(), "huge.kifu")
            .unwrap()
            .move_times
            .len(),
        4
    );
    assert_eq!(
        csa::read(csa_text.as_bytes(), "huge.csa")
            .unwrap()
            .move_times
            .len(),
        4
    );
}
