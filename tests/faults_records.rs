//! Record faults of issue 18: files with no game (item 5), the SFEN move number kept
//! through KIF and KI2 (item 5), impossible positions refused (item 11).

use qipan::record::{self, Format, NO_GAME};
use qipan::rules::Position;

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

/// An empty file (or one of blank space) is "no game in file" in every format, never an
/// empty game read from nothing — and as a file of several games too.
#[test]
fn a_file_with_no_game_says_so_in_every_format() {
    for bytes in [&b""[..], b"\n\n  \t\r\n", b"\xEF\xBB\xBF\n", b"\x1a"] {
        for format in FORMATS {
            let error = record::read_bytes(bytes, "empty", format)
                .expect_err(&format!("{format:?} {bytes:?}"));
            assert_eq!(error.reason, NO_GAME, "{format:?}");
            let all = record::read_all_bytes(bytes, "empty", format);
            assert!(all.len() == 1 && all[0].is_err(), "{format:?}");
            let picked = record::read_nth_bytes(bytes, "empty", format, 1);
            assert!(matches!(picked.game, Some(Err(_))), "{format:?}");
        }
    }
}

/// A shogi position at move 301 keeps its move number through KIF, KI2 and CSA (which
/// has no field for it: a `'手数＝300` comment, as KIF writes under a diagram).
#[test]
fn an_sfen_move_number_survives_kif_and_ki2() {
    let sfen = "sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 301\n";
    let record = record::read_bytes(sfen.as_bytes(), "start.sfen", Format::Fen).unwrap();
    let start = record.game.start().fen();
    assert!(record::write(&record, Format::Fen)
        .unwrap()
        .contains(" 301"));
    for format in [Format::Kif, Format::Ki2, Format::Csa] {
        let text = record::write(&record, format).unwrap();
        assert!(text.contains("手数＝300"), "{format:?}:\n{text}");
        if format == Format::Csa {
            assert!(text.contains("\n'手数＝300\n"), "{text}");
        }
        let again = record::read_bytes(text.as_bytes(), "again", format).unwrap();
        assert_eq!(again.game.start().fen(), start, "{format:?}:\n{text}");
        let sfen_again = record::write(&again, Format::Fen).unwrap();
        assert!(sfen_again.contains(" 301"), "{format:?}: {sfen_again}");
    }
    // The standard start at move 1 is still written as 手合割.
    let plain = record::read_bytes(
        b"sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
        "s",
        Format::Fen,
    )
    .unwrap();
    assert!(record::write(&plain, Format::Kif)
        .unwrap()
        .contains("手合割：平手"));
}

/// Issue 18 item 11: impossible xiangqi and janggi positions are refused with a reason.
#[test]
fn impossible_xiangqi_and_janggi_positions_are_refused() {
    use qipan::rules::any::Variant;
    use qipan::rules::janggi::JanggiRules;
    let xiangqi = [
        // The side not to move (Black) is in check: go would answer a king capture.
        ("3kR4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", "not to move"),
        // Generals facing each other: Black, not to move, is in check.
        ("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1", "not to move"),
        ("3k5/9/9/9/9/9/9/9/9/3K1RRR1 w - - 0 1", "chariots"),
        (
            "3k5/9/9/9/9/9/9/9/P8/3K5 w - - 0 1",
            "behind its start line",
        ),
        (
            "3k5/p8/9/9/9/9/9/9/9/4K4 w - - 0 1",
            "behind its start line",
        ),
        ("9/9/9/3k5/9/9/9/9/9/4K4 w - - 0 1", "outside its palace"),
    ];
    for (fen, reason) in xiangqi {
        let error = Variant::Xiangqi.position_from_outside(fen).expect_err(fen);
        assert!(error.to_string().contains(reason), "{fen}: {error}");
    }
    // Possible ones still read: the side to move in check, soldiers across the river.
    for fen in [
        "4k4/9/9/9/9/9/9/9/9/3KR4 b - - 0 1",
        "3k5/9/9/9/9/9/p8/9/9/4K4 w - - 0 1",
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    ] {
        assert!(Variant::Xiangqi.position_from_outside(fen).is_ok(), "{fen}");
    }
    let janggi = Variant::Janggi(JanggiRules::KJA);
    let error = janggi
        .position_from_outside("4k4/9/9/9/9/9/9/9/9/3KR4 w - - 0 1")
        .expect_err("Han, not to move, in check");
    assert!(error.to_string().contains("not to move"), "{error}");
    let error = janggi
        .position_from_outside("4k4/9/9/9/9/9/9/9/9/2CCKC3 w - - 0 1")
        .expect_err("three cannons");
    assert!(error.to_string().contains("cannons"), "{error}");
    // Facing generals are bikjang in janggi, not check: allowed.
    assert!(janggi
        .position_from_outside("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
        .is_ok());
}

/// The UCI `position fen` of an impossible position is refused with a clear error and the
/// position before it is kept (`go` never answers a king capture).
#[test]
fn uci_keeps_its_position_when_given_an_impossible_one() {
    use qipan::protocol::uci::UciSession;
    let mut session = UciSession::new();
    let mut out = Vec::new();
    session
        .handle("position fen 3kR4/9/9/9/9/9/9/9/9/3K5 w - - 0 1", &mut out)
        .unwrap();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("not to move"), "{text}");
    assert_eq!(
        session.game().position().fen(),
        qipan::rules::any::Variant::Xiangqi.start().fen()
    );
}
