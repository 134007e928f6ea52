//! Shogi game records: KIF, KI2 and CSA read and write (FORMATS.md §3.6–3.8, §3.10).
//!
//! Files written by another program (cshogi, see tests/data/records/shogi/README.md) are
//! replayed and compared with the moves cshogi recorded; qipan's own files are written and
//! read back; broken files give errors naming line, move, text and reason.

use proptest::prelude::*;
use qipan::record::{csa, ki2, kif, GameRecord, ImportError};
use qipan::rules::any::{AnyPosition, Variant};
use qipan::rules::game::Game;
use qipan::rules::notation::{format_move, Notation};
use qipan::rules::shogi::{Handicap, ShogiPosition};
use qipan::rules::{EndReason, Outcome, Position, Side};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records/shogi");

fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(format!("{DATA}/{name}")).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The start position as an SFEN without its move counter.
fn start_key(game: &Game) -> String {
    match game.start() {
        AnyPosition::Shogi(p) => p.sfen().rsplit_once(' ').unwrap().0.to_string(),
        other => panic!("not shogi: {other:?}"),
    }
}

fn sfen_key(sfen: &str) -> String {
    let position = ShogiPosition::from_sfen(sfen).unwrap();
    position.sfen().rsplit_once(' ').unwrap().0.to_string()
}

/// The moves in USI form.
fn usi_moves(game: &Game) -> Vec<String> {
    game.moves()
        .iter()
        .enumerate()
        .map(|(i, &mv)| format_move(&game.positions()[i], mv, Notation::Usi))
        .collect()
}

/// The result a record states or the board decides.
fn result_of(record: &GameRecord) -> Option<Outcome> {
    record.result.or(record.game.outcome())
}

fn read_any(name: &str, bytes: &[u8]) -> Result<GameRecord, ImportError> {
    if name.ends_with(".ki2") {
        ki2::read(bytes, name)
    } else if name.ends_with(".csa") {
        csa::read(bytes, name)
    } else {
        kif::read(bytes, name)
    }
}

/// Plays `plies` pseudo-random legal moves from `start` (a fixed linear congruential
/// sequence, so the games are the same on every run).
fn random_game(start: ShogiPosition, seed: u64, plies: usize) -> Game {
    let mut game = Game::new(AnyPosition::Shogi(start));
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for _ in 0..plies {
        let legal = game.legal_moves();
        if legal.is_empty() {
            break;
        }
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let mv = legal.as_slice()[(state >> 33) as usize % legal.len()];
        game.play(mv).unwrap();
    }
    game
}

/// A record with headers, comments at the start and on some moves, and a resignation
/// (unless the game already ended on the board).
fn sample_record(game: Game, seed: u64) -> GameRecord {
    let plies = game.moves().len();
    let mut record = GameRecord::new(game);
    record.headers = vec![
        ("開始日時".to_string(), "2024/01/02 10:00:00".to_string()),
        ("棋戦".to_string(), format!("テスト{seed}")),
        ("先手".to_string(), "先手さん".to_string()),
        ("後手".to_string(), "後手さん".to_string()),
    ];
    record.comments = vec![(0, "対局開始".to_string())];
    for ply in (3..=plies).step_by(7) {
        record.comments.push((ply, format!("{ply}手目のコメント")));
    }
    if record.game.outcome().is_none() {
        record.game.resign();
        record.result = record.game.outcome();
    }
    record
}

fn assert_same_game(label: &str, original: &GameRecord, read: &GameRecord) {
    assert_eq!(
        start_key(&read.game),
        start_key(&original.game),
        "{label}: start"
    );
    assert_eq!(
        usi_moves(&read.game),
        usi_moves(&original.game),
        "{label}: moves"
    );
    assert_eq!(result_of(read), result_of(original), "{label}: result");
}

// ---------------------------------------------------------------------------
// Files written by other programs
// ---------------------------------------------------------------------------

/// Every cshogi-written fixture replays to the moves cshogi recorded in expected.txt.
#[test]
fn cshogi_fixtures_replay_exactly() {
    let expected = std::fs::read_to_string(format!("{DATA}/expected.txt")).unwrap();
    let mut checked = 0;
    for line in expected.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split(';').collect();
        let [name, sfen, moves, result] = fields[..] else {
            panic!("bad expected line {line}");
        };
        let record = read_any(name, &fixture(name)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(start_key(&record.game), sfen_key(sfen), "{name}: start");
        let wanted: Vec<String> = moves.split_whitespace().map(String::from).collect();
        assert_eq!(usi_moves(&record.game), wanted, "{name}: moves");
        let loser = record.game.position().side_to_move();
        let outcome = match result {
            "resign" => Outcome::win(loser.opponent(), EndReason::Resignation),
            "checkmate" => Outcome::win(loser.opponent(), EndReason::Checkmate),
            other => panic!("unknown result {other}"),
        };
        assert_eq!(record.result, Some(outcome), "{name}: result");
        checked += 1;
    }
    assert!(checked >= 13, "only {checked} fixtures");
}

/// cshogi's Shift_JIS KIF keeps its header fields, decoded.
#[test]
fn shift_jis_kif_headers_are_decoded() {
    let record = kif::read(&fixture("cshogi_even.kif"), "cshogi_even.kif").unwrap();
    assert_eq!(record.header("先手"), Some("先手さん"));
    assert_eq!(record.header("後手"), Some("後手さん"));
    assert_eq!(record.header("開始日時"), Some("2024/01/02 10:00:00"));
    assert_eq!(record.game.moves().len(), 80);
}

/// The KIF example of FORMATS.md §3.6 (tsshogi's export): 同　銀, 角成, 打. Its move 7
/// (２三角成(45)) is illegal — the pawn on 3四 blocks the bishop — and the reader says so,
/// keeping the six moves before it.
#[test]
fn formats_kif_example() {
    let text = "先手：Sente\n後手：Gote\n手合割：平手\n手数----指手---------消費時間--\n\
       1 ７六歩(77)   ( 0:00/00:00:00)\n   2 ３四歩(33)   ( 0:00/00:00:00)\n\
       3 ２二角成(88) ( 0:00/00:00:00)\n   4 同　銀(31)   ( 0:00/00:00:00)\n\
       5 ４五角打     ( 0:00/00:00:00)\n   6 ４二玉(51)   ( 0:00/00:00:00)\n\
       7 ２三角成(45) ( 0:00/00:00:00)\n   8 ３三玉(42)   ( 0:00/00:00:00)\n";
    let error = kif::read(text.as_bytes(), "example.kif").unwrap_err();
    assert_eq!(
        error.to_string(),
        "example.kif: line 11, move 7: ２三角成(45): that piece cannot move there"
    );
    let partial = error.partial.unwrap();
    assert_eq!(
        usi_moves(&partial.game).join(" "),
        "7g7f 3c3d 8h2b+ 3a2b B*4e 5a4b"
    );
    assert_eq!(partial.header("先手"), Some("Sente"));

    let legal = text.split("7 ２三角成").next().unwrap().to_string() + "7 投了\n";
    let record = kif::read(legal.as_bytes(), "example.kif").unwrap();
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::Second, EndReason::Resignation))
    );
    assert!(
        record.game.outcome().is_some(),
        "the resignation ends the game"
    );
}

/// Hand-written Shift_JIS KIF (not from cshogi): BOD start, 不成, comments, a bookmark, a
/// variation that must be skipped, 反則負け.
#[test]
fn hand_written_shift_jis_kif() {
    let record = kif::read(&fixture("hand_sjis.kif"), "hand_sjis.kif").unwrap();
    assert_eq!(
        start_key(&record.game),
        sfen_key("4k4/9/9/9/4S4/9/9/9/4K4 b G 1")
    );
    assert_eq!(usi_moves(&record.game).join(" "), "5e4d 5a6b 4d5c 6b7b");
    assert_eq!(
        record.comments,
        vec![
            (0, "初期局面のコメント".to_string()),
            (3, "銀不成".to_string()),
        ]
    );
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::Second, EndReason::Foul))
    );
    assert_eq!(record.header("棋戦"), Some("手書きの棋譜"));
}

/// Hand-written Shift_JIS KI2: relative words, 同, several moves a line, まで line.
#[test]
fn hand_written_shift_jis_ki2() {
    let record = ki2::read(&fixture("hand_sjis.ki2"), "hand_sjis.ki2").unwrap();
    assert_eq!(
        usi_moves(&record.game).join(" "),
        "7g7f 3c3d 8h2b+ 3a2b B*4e 5a4b 6i5h 4a3b 5h4h"
    );
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::First, EndReason::Resignation))
    );
    assert_eq!(record.comments, vec![(4, "同銀で取り返す".to_string())]);
}

/// The encodings are found from a byte-order mark, an `encoding=` line, or the bytes.
#[test]
fn encodings_are_detected() {
    let body = "先手：羽生\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\n";
    let (shift_jis, _, _) = encoding_rs::SHIFT_JIS.encode(body);
    let declared_sjis = [
        b"#KIF version=2.0 encoding=Shift_JIS\n".as_slice(),
        &shift_jis,
    ]
    .concat();
    let declared_utf8 = format!("#KIF version=2.0 encoding=UTF-8\n{body}");
    let bom = [b"\xEF\xBB\xBF".as_slice(), body.as_bytes()].concat();
    for (label, bytes) in [
        ("plain Shift_JIS", shift_jis.to_vec()),
        ("declared Shift_JIS", declared_sjis),
        ("declared UTF-8", declared_utf8.into_bytes()),
        ("UTF-8 with BOM", bom),
        ("plain UTF-8", body.as_bytes().to_vec()),
    ] {
        let record = kif::read(&bytes, label).unwrap_or_else(|e| panic!("{label}: {e}"));
        assert_eq!(record.header("先手"), Some("羽生"), "{label}");
        assert_eq!(usi_moves(&record.game), ["7g7f"], "{label}");
    }
    let csa_text = "V2.2\nN+羽生\nN-谷川\nPI\n+\n+7776FU\n%TORYO\n";
    let (csa_sjis, _, _) = encoding_rs::SHIFT_JIS.encode(csa_text);
    let record = csa::read(&csa_sjis, "sjis.csa").unwrap();
    assert_eq!(record.header("N-"), Some("谷川"));
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::First, EndReason::Resignation))
    );
}

/// KIF as other programs spell it: 王 for 玉, 竜 for 龍, 成銀/成桂/成香 for 全/圭/杏, an
/// ASCII space after 同, a trailing `+` (the move has variations), no time stamps, and
/// fields after the moves. qipan's own KIF respelled this way reads back the same.
#[test]
fn kif_spelling_variants() {
    let mut seen = std::collections::HashSet::new();
    for seed in 0..40u64 {
        let record = sample_record(random_game(ShogiPosition::start(), seed, 200), seed);
        let text = kif::write(&record);
        for spelling in ["玉", "龍", "全", "圭", "杏", "同\u{3000}"] {
            if text.contains(spelling) {
                seen.insert(spelling);
            }
        }
        let respelled = text
            .replace("玉", "王")
            .replace("龍", "竜")
            .replace("全", "成銀")
            .replace("圭", "成桂")
            .replace("杏", "成香")
            .replace("同\u{3000}", "同 ")
            .replace(")\n", ")+\n")
            + "終了日時：2024/01/02 12:00\n";
        let read = kif::read(respelled.as_bytes(), "variants.kif")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert_same_game(&format!("seed {seed}"), &record, &read);
        assert_eq!(read.header("終了日時"), Some("2024/01/02 12:00"));
    }
    assert_eq!(seen.len(), 6, "the games use every spelling: {seen:?}");
}

// ---------------------------------------------------------------------------
// Round trips
// ---------------------------------------------------------------------------

/// Random whole games: KIF written by qipan reads back to the same start, moves, result,
/// comments and headers.
#[test]
fn kif_round_trips_random_games() {
    for seed in 0..12u64 {
        let game = random_game(ShogiPosition::start(), seed, 40 + seed as usize * 15);
        let record = sample_record(game, seed);
        let text = kif::write(&record);
        let read = kif::read(text.as_bytes(), "round.kifu")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_same_game(&format!("seed {seed}"), &record, &read);
        assert_eq!(read.comments, record.comments, "seed {seed}");
        assert_eq!(read.headers, record.headers, "seed {seed}");
    }
}

/// KI2 written by qipan (Japanese notation with relative words) reads back.
#[test]
fn ki2_round_trips_random_games() {
    for seed in 20..30u64 {
        let game = random_game(ShogiPosition::start(), seed, 150);
        let record = sample_record(game, seed);
        let text = ki2::write(&record);
        let read = ki2::read(text.as_bytes(), "round.ki2")
            .unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
        assert_same_game(&format!("seed {seed}"), &record, &read);
        assert_eq!(read.comments, record.comments, "seed {seed}");
    }
}

/// Every standard handicap: KIF writes 手合割 with its name, KI2 too, and both read back
/// the handicap start with Gote moving first.
#[test]
fn every_handicap_round_trips() {
    for handicap in Handicap::ALL {
        let game = random_game(handicap.position(), 7, 30);
        let record = sample_record(game, 7);
        let text = kif::write(&record);
        assert!(
            text.contains(&format!("手合割：{}\n", handicap.japanese())),
            "{}: {text}",
            handicap.english()
        );
        let read = kif::read(text.as_bytes(), "handicap.kifu").unwrap();
        assert_same_game(handicap.english(), &record, &read);
        let read = ki2::read(ki2::write(&record).as_bytes(), "handicap.ki2").unwrap();
        assert_same_game(handicap.english(), &record, &read);
        if handicap != Handicap::Even {
            assert_eq!(read.game.start().side_to_move(), Side::Second);
        }
    }
}

/// Any other start is written as a board diagram with hands and read back.
#[test]
fn board_diagram_round_trips() {
    for sfen in [
        "4k4/9/4P4/9/9/9/9/9/4K4 w 2r2b4g4s4n4l17p 1",
        "ln1gk2nl/1r1s2sb1/p1pppp1pp/1p4p2/9/2P4P1/PP1PPPP1P/1BG4R1/LNS1KGSNL w G 1",
        "l+n1gk2+l1/1r1+s2sb1/p1pppp1+pp/1p4p2/9/2P4P1/PP1PPPP1P/1BG4R1/LNS1KGSN1 b GLN 1",
    ] {
        let start = ShogiPosition::from_sfen(sfen).unwrap();
        let record = sample_record(random_game(start, 3, 20), 3);
        let text = kif::write(&record);
        assert!(text.contains("+---------------------------+"), "{text}");
        let read = kif::read(text.as_bytes(), "bod.kifu").unwrap();
        assert_same_game(sfen, &record, &read);
        let read = ki2::read(ki2::write(&record).as_bytes(), "bod.ki2").unwrap();
        assert_same_game(sfen, &record, &read);
    }
}

/// Each result KIF has a word for survives a round trip.
#[test]
fn kif_end_words_round_trip() {
    let game = random_game(ShogiPosition::start(), 5, 30);
    let to_move = game.position().side_to_move();
    for outcome in [
        Outcome::win(to_move.opponent(), EndReason::Resignation),
        Outcome::win(to_move.opponent(), EndReason::Timeout),
        Outcome::draw(EndReason::Repetition),
        Outcome::draw(EndReason::Impasse),
        Outcome::win(to_move, EndReason::Impasse),
        Outcome::win(to_move, EndReason::Resignation),
        Outcome::win(to_move, EndReason::Foul),
        Outcome::win(to_move.opponent(), EndReason::Foul),
    ] {
        let mut record = GameRecord::new(game.clone());
        record.game.declare(outcome);
        record.result = Some(outcome);
        for (label, read) in [
            ("kif", kif::read(kif::write(&record).as_bytes(), "end.kifu")),
            ("ki2", ki2::read(ki2::write(&record).as_bytes(), "end.ki2")),
        ] {
            let read = read.unwrap();
            assert_eq!(read.result, Some(outcome), "{label}: {outcome}");
        }
    }
}

/// The KIF writer puts 同 on a recapture and the origin in brackets.
#[test]
fn kif_writer_uses_same_square_and_origins() {
    let mut game = Game::from_variant(Variant::Shogi);
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"] {
        let AnyPosition::Shogi(p) = game.position() else {
            unreachable!()
        };
        let mv = p.parse_usi(usi).unwrap();
        game.play(mv).unwrap();
    }
    let text = kif::write(&GameRecord::new(game));
    assert!(
        text.starts_with("#KIF version=2.0 encoding=UTF-8\n"),
        "{text}"
    );
    assert!(text.contains("手合割：平手\n"), "{text}");
    assert!(text.contains("   3 ２二角成(88)\n"), "{text}");
    assert!(text.contains("   4 同\u{3000}銀(31)\n"), "{text}");
    assert!(text.contains("   5 ４五角打\n"), "{text}");
}

/// CSA V2.2 and V3.0 written by qipan read back: start (PI, handicap PI, P1..P9 with
/// hands), moves, result, comments and the CSA header fields.
#[test]
fn csa_round_trips_random_games_and_starts() {
    let mut starts: Vec<ShogiPosition> = Handicap::ALL.iter().map(|h| h.position()).collect();
    starts.push(ShogiPosition::from_sfen("4k4/9/4P4/9/9/9/9/9/4K4 w 2r2b4g4s4n4l17p 1").unwrap());
    starts.push(
        ShogiPosition::from_sfen(
            "l+n1gk2+l1/1r1+s2sb1/p1pppp1+pp/1p4p2/9/2P4P1/PP1PPPP1P/1BG4R1/LNS1KGSN1 b GLN 1",
        )
        .unwrap(),
    );
    for (index, start) in starts.into_iter().enumerate() {
        let seed = index as u64 + 40;
        let mut record = sample_record(random_game(start, seed, 120), seed);
        record.headers = vec![
            ("N+".to_string(), "Sente".to_string()),
            ("N-".to_string(), "Gote".to_string()),
            ("$EVENT".to_string(), "test".to_string()),
        ];
        for (label, text) in [("v2", csa::write(&record)), ("v3", csa::write_v3(&record))] {
            let read = csa::read(text.as_bytes(), "round.csa")
                .unwrap_or_else(|e| panic!("{label} {index}: {e}\n{text}"));
            assert_same_game(&format!("{label} {index}"), &record, &read);
            assert_eq!(read.comments, record.comments, "{label} {index}");
            assert_eq!(read.headers, record.headers, "{label} {index}");
        }
    }
}

/// CSA's end words map to results and back.
#[test]
fn csa_end_words_round_trip() {
    let game = random_game(ShogiPosition::start(), 5, 30);
    let to_move = game.position().side_to_move();
    for outcome in [
        Outcome::win(to_move.opponent(), EndReason::Resignation),
        Outcome::win(to_move.opponent(), EndReason::Timeout),
        Outcome::draw(EndReason::Repetition),
        Outcome::draw(EndReason::Impasse),
        Outcome::draw(EndReason::Agreement),
        Outcome::draw(EndReason::MoveLimit),
        Outcome::win(to_move, EndReason::Impasse),
        Outcome::win(to_move.opponent(), EndReason::Foul),
        Outcome::win(to_move, EndReason::Foul),
        Outcome::win(Side::First, EndReason::Foul),
        Outcome::win(Side::Second, EndReason::Foul),
    ] {
        let mut record = GameRecord::new(game.clone());
        record.game.declare(outcome);
        record.result = Some(outcome);
        let read = csa::read(csa::write(&record).as_bytes(), "end.csa").unwrap();
        assert_eq!(read.result, Some(outcome), "{outcome}");
    }
    // A resignation by the side not to move has no CSA word: it keeps its winner as a foul.
    let mut record = GameRecord::new(game.clone());
    let off_turn = Outcome::win(to_move, EndReason::Resignation);
    record.game.declare(off_turn);
    record.result = Some(off_turn);
    let read = csa::read(csa::write(&record).as_bytes(), "end.csa").unwrap();
    assert_eq!(read.result, Some(Outcome::win(to_move, EndReason::Foul)));
}

/// Hand-written CSA: several statements on a line, `P1..P9`, `P+`/`P-` with `00AL`,
/// V3.0 decimal times, `'*` comments and a field after the moves.
#[test]
fn csa_multi_statement_lines_and_all_remaining_pieces() {
    let text = "'CSA encoding=UTF-8\nV3.0\nN+先手\nN-後手\n$EVENT:詰将棋\n\
P1 *  *  *  * -OU *  *  *  * \nP2 *  *  *  *  *  *  *  *  * \nP3 *  *  *  * +FU *  *  *  * \n\
P4 *  *  *  *  *  *  *  *  * \nP5 *  *  *  *  *  *  *  *  * \nP6 *  *  *  *  *  *  *  *  * \n\
P7 *  *  *  *  *  *  *  *  * \nP8 *  *  *  *  *  *  *  *  * \nP9 *  *  *  *  *  *  *  *  * \n\
P+00KI\nP-00AL\n+\n+0052KI,T1.5\n'*頭金\n%TSUMI\n$END_TIME:2024/01/02 11:00:00\n";
    let record = csa::read(text.as_bytes(), "tsume.csa").unwrap();
    assert_eq!(
        start_key(&record.game),
        sfen_key("4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1")
    );
    assert_eq!(usi_moves(&record.game), ["G*5b"]);
    assert_eq!(
        record.result,
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
    assert_eq!(record.comments, vec![(1, "頭金".to_string())]);
    assert_eq!(record.header("$EVENT"), Some("詰将棋"));
    assert_eq!(record.header("$END_TIME"), Some("2024/01/02 11:00:00"));
}

/// `P1`…`P9` ranks whose spaces an e-mail or web page collapsed still read, and a `/`
/// line ends the first game of a file with several.
#[test]
fn csa_collapsed_ranks_and_several_games() {
    let text = "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nP2 * -HI * * * * * -KA * \n\
P3-FU-FU-FU-FU-FU-FU-FU-FU-FU\nP4 * * * * * * * * * \nP5 * * * * * * * * * \nP6 * * * * * * * * * \n\
P7+FU+FU+FU+FU+FU+FU+FU+FU+FU\nP8 * +KA * * * * * +HI * \nP9+KY+KE+GI+KI+OU+KI+GI+KE+KY\n+\n\
+7776FU\n%CHUDAN\n/\nV2.2\nPI\n+\n+2726FU\n";
    let record = csa::read(text.as_bytes(), "two.csa").unwrap();
    assert_eq!(
        start_key(&record.game),
        sfen_key(qipan::rules::shogi::START_SFEN)
    );
    assert_eq!(usi_moves(&record.game), ["7g7f"]);
    assert_eq!(record.result, None);
}

/// A KIF read from cshogi converts to CSA and back to the same game.
#[test]
fn kif_to_csa_to_kif_keeps_the_game() {
    let record = kif::read(&fixture("cshogi_bod.kif"), "cshogi_bod.kif").unwrap();
    let csa_text = csa::write(&record);
    assert!(csa_text.contains("N+先手さん\n"), "{csa_text}");
    let via_csa = csa::read(csa_text.as_bytes(), "x.csa").unwrap();
    assert_same_game("via csa", &record, &via_csa);
    let back = kif::read(kif::write(&via_csa).as_bytes(), "x.kifu").unwrap();
    assert_same_game("back", &record, &back);
    assert_eq!(back.header("先手"), Some("先手さん"));
}

/// The games of the golden files: an even game, a two-piece handicap game and a board
/// diagram start, each with comments and a resignation.
fn golden_records() -> Vec<(&'static str, GameRecord)> {
    let starts = [
        ("qipan_even", ShogiPosition::start()),
        ("qipan_two_piece", Handicap::TwoPiece.position()),
        (
            "qipan_bod",
            ShogiPosition::from_sfen(
                "l+n1gk2+l1/1r1+s2sb1/p1pppp1+pp/1p4p2/9/2P4P1/PP1PPPP1P/1BG4R1/LNS1KGSN1 b GLN 1",
            )
            .unwrap(),
        ),
    ];
    starts
        .into_iter()
        .enumerate()
        .map(|(index, (name, start))| {
            let seed = 90 + index as u64;
            (name, sample_record(random_game(start, seed, 160), seed))
        })
        .collect()
}

/// qipan's KIF, KI2 and CSA output is pinned by golden files, which cshogi has read back
/// (check_qipan_files.py; README.md). `QIPAN_UPDATE_GOLDEN=1` rewrites them.
#[test]
fn written_files_match_the_golden_files_cshogi_reads() {
    let update = std::env::var_os("QIPAN_UPDATE_GOLDEN").is_some();
    let mut expected = String::from("# file;start sfen;usi moves (written by records_shogi.rs)\n");
    for (name, record) in golden_records() {
        let start = match record.game.start() {
            AnyPosition::Shogi(p) => p.sfen(),
            _ => unreachable!(),
        };
        let moves = usi_moves(&record.game).join(" ");
        for (extension, text) in [
            ("kifu", kif::write(&record)),
            ("ki2", ki2::write(&record)),
            ("csa", csa::write(&record)),
        ] {
            let file = format!("{name}.{extension}");
            expected.push_str(&format!("{file};{start};{moves}\n"));
            let path = format!("{DATA}/{file}");
            if update {
                std::fs::write(&path, &text).unwrap();
            }
            let golden = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
            assert_eq!(
                text, golden,
                "{file} changed; QIPAN_UPDATE_GOLDEN=1 rewrites it"
            );
        }
    }
    let path = format!("{DATA}/qipan_expected.txt");
    if update {
        std::fs::write(&path, &expected).unwrap();
    }
    assert_eq!(std::fs::read_to_string(&path).unwrap(), expected);
}

/// Results the board decides: 千日手 after a fourfold repetition and 詰み after a mate are
/// the rules engine's own outcome, in KIF, KI2 and CSA alike.
#[test]
fn repetition_and_mate_from_the_board() {
    let shuffle = ["+2838HI", "-8272HI", "+3828HI", "-7282HI"];
    let mut csa_text = String::from("V2.2\nPI\n+\n");
    let mut kif_text = String::from("手合割：平手\n");
    let kif_moves = ["３八飛(28)", "７二飛(82)", "２八飛(38)", "８二飛(72)"];
    for round in 0..3 {
        for (index, mv) in shuffle.iter().enumerate() {
            csa_text.push_str(&format!("{mv}\n"));
            kif_text.push_str(&format!("{} {}\n", round * 4 + index + 1, kif_moves[index]));
        }
    }
    csa_text.push_str("%SENNICHITE\n");
    kif_text.push_str("13 千日手\n");
    let repetition = Some(Outcome::draw(EndReason::Repetition));
    let from_csa = csa::read(csa_text.as_bytes(), "rep.csa").unwrap();
    assert_eq!(from_csa.result, repetition);
    assert_eq!(from_csa.game.outcome(), repetition);
    let from_kif = kif::read(kif_text.as_bytes(), "rep.kif").unwrap();
    assert_eq!(from_kif.result, repetition);
    let from_ki2 = ki2::read(ki2::write(&from_kif).as_bytes(), "rep.ki2").unwrap();
    assert_eq!(from_ki2.result, repetition);
    assert!(ki2::write(&from_kif).contains("まで12手で千日手"));

    let mate = "後手の持駒：なし\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n\
先手の持駒：金\n   1 ５二金打\n   2 詰み\n";
    let record = kif::read(mate.as_bytes(), "mate.kif").unwrap();
    let checkmate = Some(Outcome::win(Side::First, EndReason::Checkmate));
    assert_eq!(record.result, checkmate);
    assert_eq!(record.game.outcome(), checkmate);
    let written = kif::write(&record);
    assert!(
        written.contains("   2 詰み\nまで1手で先手の勝ち\n"),
        "{written}"
    );
}

// ---------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------

#[test]
fn kif_bad_move_names_line_move_text_and_reason_with_partial_game() {
    let text = "手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ７五飛(28)\n";
    let error = kif::read(text.as_bytes(), "game.kif").unwrap_err();
    assert_eq!(error.line, Some(5));
    assert_eq!(error.move_number, Some(3));
    assert_eq!(error.text, "７五飛(28)");
    assert_eq!(error.reason, "that piece cannot move there");
    assert_eq!(
        error.to_string(),
        "game.kif: line 5, move 3: ７五飛(28): that piece cannot move there"
    );
    let partial = error.partial.expect("the moves before are kept");
    assert_eq!(usi_moves(&partial.game), ["7g7f", "3c3d"]);
}

#[test]
fn kif_same_square_without_previous_move_is_an_error() {
    let text = "手数----指手---------消費時間--\n   1 同　歩(77)\n";
    let error = kif::read(text.as_bytes(), "game.kif").unwrap_err();
    assert_eq!(
        error.to_string(),
        "game.kif: line 2, move 1: 同歩(77): no previous move ends on a square"
    );
}

#[test]
fn kif_wrong_piece_and_wrong_number_are_errors() {
    let text = "   1 ７六銀(77)\n";
    let error = kif::read(text.as_bytes(), "a.kif").unwrap_err();
    assert_eq!(error.reason, "the piece on 77 is 歩, not 銀");
    let text = "   1 ７六歩(77)\n   3 ３四歩(33)\n";
    let error = kif::read(text.as_bytes(), "b.kif").unwrap_err();
    assert_eq!(error.reason, "move number 3 where 2 was expected");
    assert_eq!(error.partial.unwrap().game.moves().len(), 1);
}

#[test]
fn ki2_errors_name_the_move() {
    let text = "手合割：平手\n▲７六歩    △３四歩    ▲５五飛\n";
    let error = ki2::read(text.as_bytes(), "game.ki2").unwrap_err();
    assert_eq!(error.line, Some(2));
    assert_eq!(error.move_number, Some(3));
    assert_eq!(error.text, "▲５五飛");
    assert_eq!(error.partial.unwrap().game.moves().len(), 2);
    let text = "▲７六歩\n▲２六歩\n";
    let error = ki2::read(text.as_bytes(), "turn.ki2").unwrap_err();
    assert_eq!(error.reason, "a ▲ move, but Gote (△) is to move");
    let error = ki2::read("▲５八金\n".as_bytes(), "which.ki2").unwrap_err();
    assert_eq!(
        error.to_string(),
        "which.ki2: line 1, move 1: ▲５八金: ambiguous: ▲５八金左 or ▲５八金右"
    );
}

#[test]
fn bad_board_diagram_is_an_error() {
    let text = "後手の持駒：なし\n+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・|一\n";
    let error = kif::read(text.as_bytes(), "bod.kif").unwrap_err();
    assert_eq!(error.line, Some(3));
}

#[test]
fn csa_errors_name_line_move_and_reason() {
    let text = "V2.2\nPI\n+\n+7776FU\n-3334FU\n+2824HI\n";
    let error = csa::read(text.as_bytes(), "game.csa").unwrap_err();
    assert_eq!(
        error.to_string(),
        "game.csa: line 6, move 3: +2824HI: that piece cannot move there"
    );
    assert_eq!(error.partial.unwrap().game.moves().len(), 2);
    let text = "V2.2\nPI\n+\n+7776FU,T3,-3334FU,T2,+2838KI\n";
    let error = csa::read(text.as_bytes(), "game.csa").unwrap_err();
    assert_eq!(error.line, Some(4));
    assert_eq!(error.move_number, Some(3));
    assert_eq!(
        error.reason,
        "the piece on 28 is HI, which cannot become KI"
    );
    let error = csa::read(b"V2.2\nPI\n-7776FU\n", "early.csa").unwrap_err();
    assert_eq!(error.line, Some(3));
    let error = csa::read(b"V2.2\nPI82HI82HI\n+\n", "pi.csa").unwrap_err();
    assert_eq!(error.line, Some(2));
}

/// A game of another kind given to a shogi writer writes something and never panics.
#[test]
fn writers_do_not_panic_on_other_games() {
    for variant in [Variant::Xiangqi, Variant::from_name("janggi").unwrap()] {
        let mut game = Game::from_variant(variant);
        for _ in 0..10 {
            let mv = game.legal_moves().as_slice()[0];
            game.play(mv).unwrap();
        }
        let record = GameRecord::new(game);
        assert!(!kif::write(&record).is_empty());
        assert!(!ki2::write(&record).is_empty());
        assert!(!csa::write(&record).is_empty());
    }
}

/// A KIF with no moves but a trailer, and a KIF with only headers, read as empty games.
#[test]
fn kif_without_moves() {
    let record = kif::read("先手：A\nまで0手で中断\n".as_bytes(), "empty.kif").unwrap();
    assert_eq!(record.game.moves().len(), 0);
    assert_eq!(record.header("先手"), Some("A"));
    let record = kif::read("手合割：角落ち\n".as_bytes(), "empty.kif").unwrap();
    assert_eq!(record.game.start().side_to_move(), Side::Second);
}

/// 手合割 spellings other programs use, and an unknown name (even start unless a board
/// diagram follows).
#[test]
fn handicap_name_spellings() {
    for (name, sfen) in [
        ("香落", Handicap::Lance.sfen()),
        ("飛落ち", Handicap::Rook.sfen()),
        ("二枚落", Handicap::TwoPiece.sfen()),
        (
            "両香落ち",
            "1nsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
        ),
        ("詰将棋", Handicap::Even.sfen()),
    ] {
        let text = format!("手合割：{name}\n手数----指手---------消費時間--\n");
        let record = kif::read(text.as_bytes(), "names.kif").unwrap();
        assert_eq!(start_key(&record.game), sfen_key(sfen), "{name}");
    }
    let text = "手数＝31  △２四同歩  まで\n後手の持駒：なし\n  ９ ８ ７ ６ ５ ４ ３ ２ １\n\
+---------------------------+\n| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|三\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n\
| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n\
| ・ ・ ・ ・ 玉 ・ ・ ・ ・|九\n+---------------------------+\n先手の持駒：飛二\n手合割：詰将棋\n";
    let record = kif::read(text.as_bytes(), "tsume.kif").unwrap();
    assert_eq!(
        start_key(&record.game),
        sfen_key("4k4/9/9/9/9/9/9/9/4K4 b 2R 1")
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Any bytes: every reader returns Ok or Err and never panics.
    #[test]
    fn readers_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let _ = kif::read(&bytes, "fuzz.kif");
        let _ = ki2::read(&bytes, "fuzz.ki2");
        let _ = csa::read(&bytes, "fuzz.csa");
    }

    /// Text made of the formats' own characters reaches deeper into the readers.
    #[test]
    fn readers_never_panic_on_record_like_text(
        pieces in proptest::collection::vec(
            proptest::sample::select(vec![
                "手数----指手--\n", "   1 ", "７六歩(77)", "同　", "銀", "成", "不成", "打", "(", ")",
                "\n", "*", "まで", "投了", "▲", "△", "５五", "角", "|", " ・", "v玉", "手合割：",
                "香落ち", "先手の持駒：", "歩十八", "P1", "+", "-", "7776FU", "00", "AL", "PI",
                "%TORYO", "T", "'", ",", "V2.2", "N+", "$EVENT:", "P+", "82HI", " * ", "OU",
            ]),
            0..60,
        )
    ) {
        let text: String = pieces.concat();
        let _ = kif::read(text.as_bytes(), "fuzz.kif");
        let _ = ki2::read(text.as_bytes(), "fuzz.ki2");
        let _ = csa::read(text.as_bytes(), "fuzz.csa");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Random games from random standard starts round-trip through all three formats.
    #[test]
    fn random_games_round_trip_through_every_format(
        seed in 0u64..1_000_000,
        plies in 0usize..120,
        handicap in proptest::sample::select(Handicap::ALL.to_vec()),
    ) {
        let record = sample_record(random_game(handicap.position(), seed, plies), seed);
        let kif_read = kif::read(kif::write(&record).as_bytes(), "p.kifu").unwrap();
        let ki2_read = ki2::read(ki2::write(&record).as_bytes(), "p.ki2").unwrap();
        let csa_read = csa::read(csa::write(&record).as_bytes(), "p.csa").unwrap();
        for read in [&kif_read, &ki2_read, &csa_read] {
            prop_assert_eq!(usi_moves(&read.game), usi_moves(&record.game));
            prop_assert_eq!(start_key(&read.game), start_key(&record.game));
            prop_assert_eq!(result_of(read), result_of(&record));
            prop_assert_eq!(&read.comments, &record.comments);
        }
    }
}
