//! Move notation: the worked examples of FORMATS.md and a round trip over the perft corpus.

use qipan::rules::any::{AnyPosition, Variant};
use qipan::rules::janggi::JanggiRules;
use qipan::rules::notation::{
    default_notation, format_move, format_move_after, parse_move, parse_move_after, parse_move_in,
    Notation, NotationError,
};
use qipan::rules::{Move, MoveList, Position};

fn position(variant: Variant, fen: &str) -> AnyPosition {
    variant.position_from_fen(fen).expect("valid position")
}

/// Plays engine-coordinate moves from a position, writing each in `notation`.
fn replay(mut position: AnyPosition, moves: &[&str], notation: Notation) -> Vec<String> {
    let mut written = Vec::new();
    let mut previous = None;
    for text in moves {
        let mv = position.parse_uci(text).expect("engine move");
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        assert!(legal.contains(mv), "{text} is legal");
        written.push(format_move_after(&position, mv, notation, previous));
        assert_eq!(
            parse_move_after(&position, written.last().unwrap(), previous),
            Ok(mv),
            "{} reads back",
            written.last().unwrap()
        );
        position.play_unchecked(mv);
        previous = Some(mv);
    }
    written
}

const XIANGQI_OPENING: [&str; 7] = ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "h1h7"];

#[test]
fn xiangqi_opening_in_every_notation() {
    let start = Variant::Xiangqi.start();
    assert_eq!(
        replay(
            start.clone(),
            &XIANGQI_OPENING,
            Notation::Chinese { simplified: true }
        ),
        [
            "炮二平五",
            "马８进７",
            "马二进三",
            "车９平８",
            "车一平二",
            "马２进３",
            "车二进六"
        ]
    );
    assert_eq!(
        replay(
            start.clone(),
            &XIANGQI_OPENING,
            Notation::Chinese { simplified: false }
        ),
        [
            "炮二平五",
            "馬８進７",
            "傌二進三",
            "車９平８",
            "俥一平二",
            "馬２進３",
            "俥二進六"
        ]
    );
    assert_eq!(
        replay(start.clone(), &XIANGQI_OPENING, Notation::Wxf),
        ["C2.5", "H8+7", "H2+3", "R9.8", "R1.2", "H2+3", "R2+6"]
    );
    assert_eq!(
        replay(start.clone(), &XIANGQI_OPENING, Notation::Iccs),
        ["H2-E2", "H9-G7", "H0-G2", "I9-H9", "I0-H0", "B9-C7", "H0-H6"]
    );
    assert_eq!(
        replay(start, &XIANGQI_OPENING, Notation::Engine),
        XIANGQI_OPENING
    );
}

#[test]
fn xiangqi_reads_every_spelling() {
    let start = Variant::Xiangqi.start();
    let central_cannon = start.parse_uci("h3e3").unwrap();
    for text in [
        "炮二平五",
        "炮2平5",
        "C2.5",
        "C2=5",
        "c2.5",
        "h2e2",
        "H2-E2",
        "炮二平五!",
    ] {
        assert_eq!(parse_move(&start, text), Ok(central_cannon), "{text}");
    }
    let mut after = start.clone();
    after.play_unchecked(central_cannon);
    let horse = after.parse_uci("h10g8").unwrap();
    for text in ["马８进７", "馬８進７", "马8进7", "H8+7", "N8+7", "h9g7"] {
        assert_eq!(parse_move(&after, text), Ok(horse), "{text}");
    }
}

#[test]
fn xiangqi_tandem_pieces() {
    // Two red chariots on file 二 (h): front and rear.
    let p = position(Variant::Xiangqi, "3k5/9/9/9/9/9/7R1/9/7R1/4K4 w - - 0 1");
    let front = p.parse_uci("h4h5").unwrap();
    let rear = p.parse_uci("h2h3").unwrap();
    assert_eq!(
        format_move(&p, front, Notation::Chinese { simplified: true }),
        "前车进一"
    );
    assert_eq!(
        format_move(&p, rear, Notation::Chinese { simplified: false }),
        "後俥進一"
    );
    assert_eq!(format_move(&p, front, Notation::Wxf), "R++1");
    assert_eq!(format_move(&p, rear, Notation::Wxf), "R-+1");
    assert_eq!(parse_move(&p, "后车进一"), Ok(rear));
    // Without the qualifier the text fits both chariots.
    match parse_move(&p, "车二进一") {
        Err(NotationError::Ambiguous { mut candidates, .. }) => {
            candidates.sort();
            assert_eq!(candidates, ["前车进一", "后车进一"])
        }
        other => panic!("expected ambiguity, got {other:?}"),
    }
    // Three red soldiers on file 五 (e), over the river.
    let p = position(Variant::Xiangqi, "3k5/9/4P4/4P4/4P4/9/9/9/9/3K5 w - - 0 1");
    let names: Vec<String> = ["e8d8", "e7d7", "e6d6"]
        .iter()
        .map(|m| {
            format_move(
                &p,
                p.parse_uci(m).unwrap(),
                Notation::Chinese { simplified: true },
            )
        })
        .collect();
    assert_eq!(names, ["前兵平六", "中兵平六", "后兵平六"]);
    let names: Vec<String> = ["e8d8", "e7d7", "e6d6"]
        .iter()
        .map(|m| format_move(&p, p.parse_uci(m).unwrap(), Notation::Wxf))
        .collect();
    assert_eq!(names, ["P+.6", "P5.6", "P-.6"]);
}

#[test]
fn xiangqi_illegal_and_unknown() {
    let start = Variant::Xiangqi.start();
    assert!(matches!(
        parse_move(&start, "a0a5"),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_move(&start, "炮二进九"),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_move(&start, "hello"),
        Err(NotationError::Unknown(_))
    ));
}

#[test]
fn shogi_japanese_examples() {
    let cases: [(&str, &str, &str); 12] = [
        ("4k4/9/9/9/9/9/9/9/4GG2K b - 1", "5i5h", "▲５八金直"),
        ("4k4/9/9/9/9/9/9/9/4GG2K b - 1", "4i5h", "▲５八金右"),
        ("4k4/9/9/9/9/9/9/9/3G1G2K b - 1", "6i5h", "▲５八金左"),
        ("4k4/9/9/9/9/5S3/9/5S3/8K b - 1", "4f5g", "▲５七銀引"),
        ("4k4/9/9/9/9/5S3/9/5S3/8K b - 1", "4h5g", "▲５七銀上"),
        ("4k4/9/9/9/9/9/9/4G4/8K b G 1", "G*4h", "▲４八金打"),
        ("4k4/9/9/9/9/9/9/9/8K b G 1", "G*4h", "▲４八金"),
        ("4k4/9/9/5S3/9/9/9/9/8K b - 1", "4d4c", "▲４三銀不成"),
        ("4k4/9/9/5S3/9/9/9/9/8K b - 1", "4d4c+", "▲４三銀成"),
        ("8k/9/9/9/9/9/9/9/+R3+R3K b - 1", "9i7i", "▲７九龍左"),
        ("8k/9/9/9/9/9/9/9/+R3+R3K b - 1", "5i7i", "▲７九龍右"),
        ("4k4/9/9/9/9/9/9/9/8K w g 1", "G*5b", "▲５二金"),
    ];
    for (sfen, usi, expected) in cases {
        let p = position(Variant::Shogi, sfen);
        let AnyPosition::Shogi(shogi) = &p else {
            unreachable!()
        };
        let mv = shogi.parse_usi(usi).unwrap();
        let expected = if sfen.contains(" w ") {
            expected.replace('▲', "△")
        } else {
            expected.to_string()
        };
        assert_eq!(
            format_move(&p, mv, Notation::Japanese),
            expected,
            "{sfen} {usi}"
        );
        assert_eq!(parse_move(&p, &expected), Ok(mv), "{expected}");
    }
}

#[test]
fn shogi_same_square_hodges_and_usi() {
    let start = Variant::Shogi.start();
    let moves = ["c3c4", "g7g6", "b2h8+", "g9h8"];
    assert_eq!(
        replay(start.clone(), &moves, Notation::Japanese),
        ["▲７六歩", "△３四歩", "▲２二角成", "△同\u{3000}銀"]
    );
    assert_eq!(
        replay(start.clone(), &moves, Notation::Hodges),
        ["P-7f", "P-3d", "Bx2b+", "Sx2b"]
    );
    assert_eq!(
        replay(start.clone(), &moves, Notation::Usi),
        ["7g7f", "3c3d", "8h2b+", "3a2b"]
    );
    let mv = start.parse_uci("c3c4").unwrap();
    for text in [
        "P-7f",
        "P-76",
        "7g7f",
        "７六歩",
        "▲7六歩",
        "P7g-7f",
        "７六歩(77)",
    ] {
        assert_eq!(parse_move(&start, text), Ok(mv), "{text}");
    }
    let golds = position(Variant::Shogi, "4k4/9/9/9/9/9/9/9/4GG2K b - 1");
    let AnyPosition::Shogi(shogi) = &golds else {
        unreachable!()
    };
    let mv = shogi.parse_usi("4i5h").unwrap();
    assert_eq!(format_move(&golds, mv, Notation::Hodges), "G4i-5h");
    assert!(matches!(
        parse_move(&golds, "G-5h"),
        Err(NotationError::Ambiguous { .. })
    ));
    assert!(matches!(
        parse_move(&golds, "５八金"),
        Err(NotationError::Ambiguous { .. })
    ));
    // A KIF origin picks the piece.
    assert_eq!(parse_move(&golds, "５八金(49)"), Ok(mv));
    assert!(matches!(
        parse_move(&start, "７六歩(78)"),
        Err(NotationError::Illegal { .. })
    ));
}

const JANGGI_SETUP: &str =
    "rbna1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RBNA1ABNR w - - 0 1";

#[test]
fn janggi_korean_coordinates() {
    let start = position(Variant::Janggi(JanggiRules::KJA), JANGGI_SETUP);
    let moves = ["a4b4", "i7h7", "h1g3", "h10g8", "h3e3"];
    assert_eq!(
        replay(start.clone(), &moves, Notation::Korean { hangul: true }),
        ["71졸72", "49병48", "08마87", "18마37", "88포85"]
    );
    assert_eq!(
        replay(start.clone(), &moves, Notation::Korean { hangul: false }),
        ["71卒72", "49兵48", "08馬87", "18馬37", "88包85"]
    );
    let pass = start.parse_uci("e2e2").unwrap();
    assert_eq!(
        format_move(&start, pass, Notation::Korean { hangul: true }),
        "한수쉼"
    );
    assert_eq!(parse_move(&start, "한수쉼"), Ok(pass));
    let first = start.parse_uci("a4b4").unwrap();
    for text in ["7172", "71-72", "P71-72", "71졸72", "71卒72", "a4b4"] {
        assert_eq!(parse_move(&start, text), Ok(first), "{text}");
    }
    assert!(matches!(
        parse_move(&start, "71마72"),
        Err(NotationError::Illegal { .. })
    ));
    assert!(matches!(
        parse_move(&start, "7162"),
        Err(NotationError::Illegal { .. })
    ));
}

#[test]
fn default_notations() {
    assert_eq!(
        default_notation(Variant::Xiangqi, true),
        Notation::Chinese { simplified: false }
    );
    assert_eq!(default_notation(Variant::Xiangqi, false), Notation::Wxf);
    assert_eq!(default_notation(Variant::Shogi, true), Notation::Japanese);
    assert_eq!(default_notation(Variant::Shogi, false), Notation::Hodges);
    assert_eq!(
        default_notation(Variant::Janggi(JanggiRules::KJA), true),
        Notation::Korean { hangul: true }
    );
    assert_eq!(
        default_notation(Variant::Janggi(JanggiRules::GUNGJANGGI), false),
        Notation::Korean { hangul: false }
    );
}

/// Positions of the perft corpus, at most `limit` of a file.
fn corpus(file: &str, variant: Variant, limit: usize) -> Vec<AnyPosition> {
    let text = std::fs::read_to_string(format!("tests/data/{file}")).expect("perft data");
    text.lines()
        .filter_map(|line| line.strip_prefix("fen "))
        .take(limit)
        .map(|fen| position(variant, fen.trim()))
        .collect()
}

#[test]
fn every_legal_move_round_trips_in_every_notation() {
    let mut positions = corpus("xiangqi.perft", Variant::Xiangqi, 60);
    positions.extend(corpus("shogi.perft", Variant::Shogi, 60));
    positions.extend(corpus(
        "janggi.perft",
        Variant::Janggi(JanggiRules::KJA),
        60,
    ));
    positions.extend(corpus(
        "janggimodern.perft",
        Variant::Janggi(JanggiRules::MODERN),
        20,
    ));
    positions.push(Variant::Janggi(JanggiRules::GUNGJANGGI).start());
    for p in &positions {
        let mut legal = MoveList::new();
        p.legal_moves(&mut legal);
        for &notation in Notation::for_game(p.game()) {
            let mut seen: Vec<(String, Move)> = Vec::new();
            for &mv in &legal {
                let text = format_move(p, mv, notation);
                if let Some((_, other)) = seen.iter().find(|(t, _)| *t == text) {
                    panic!("{} : {text} written for {other:?} and {mv:?}", p.fen());
                }
                seen.push((text.clone(), mv));
                assert_eq!(
                    parse_move_in(p, &text, notation),
                    Ok(mv),
                    "{} : {text} ({notation:?})",
                    p.fen()
                );
                match parse_move(p, &text) {
                    Ok(read) => assert_eq!(read, mv, "{} : {text}", p.fen()),
                    // ICCS and engine coordinates can name two different legal moves.
                    Err(NotationError::Ambiguous { .. })
                        if matches!(notation, Notation::Engine | Notation::Iccs) => {}
                    Err(error) => panic!("{} : {text}: {error}", p.fen()),
                }
            }
        }
    }
}

/// Fairy-Stockfish's WXF, Hodges and janggi notations (tests/data/notation_fsf.txt, written
/// by pyffish) agree with ours and are read back, except FSF's own tandem forms in WXF.
#[test]
fn agrees_with_fairy_stockfish() {
    let text = std::fs::read_to_string("tests/data/notation_fsf.txt").expect("fixture");
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [game, fen, uci, fsf] = fields[..] else {
            panic!("bad line {line}")
        };
        let variant = Variant::from_name(game).expect("variant");
        let p = position(variant, fen);
        let mv = p.parse_uci(uci).expect("move");
        let fsf_plain = fsf.trim_end_matches(['+', '#']);
        match game {
            "xiangqi" => {
                let ours = format_move(&p, mv, Notation::Wxf);
                let tandem = |t: &str| {
                    t.starts_with(|c: char| c.is_ascii_digit()) || t[1..].starts_with(['+', '-'])
                };
                if !tandem(&ours) && !tandem(fsf) {
                    assert_eq!(ours, fsf.replace('=', "."), "{fen} {uci}");
                    assert_eq!(parse_move(&p, fsf), Ok(mv), "{fen} {fsf}");
                    compared += 1;
                }
            }
            "shogi" => {
                let ours = format_move(&p, mv, Notation::Hodges);
                assert_eq!(ours, fsf.trim_end_matches('#'), "{fen} {uci}");
                assert_eq!(parse_move(&p, fsf), Ok(mv), "{fen} {fsf}");
                compared += 1;
            }
            _ => {
                let ours = format_move(&p, mv, Notation::Korean { hangul: false });
                let digits = |t: &str| t.chars().filter(char::is_ascii_digit).collect::<String>();
                if !mv.is_pass() {
                    assert_eq!(digits(&ours), digits(fsf_plain), "{fen} {uci}");
                }
                assert_eq!(parse_move(&p, fsf), Ok(mv), "{fen} {fsf}");
                compared += 1;
            }
        }
    }
    assert!(compared > 1000, "{compared} moves compared");
}

/// Japanese (KI2) text agrees with cshogi's `move_to_ki2` (tests/data/notation_cshogi_ki2.txt)
/// and reads back.
#[test]
fn japanese_agrees_with_cshogi() {
    let text = std::fs::read_to_string("tests/data/notation_cshogi_ki2.txt").expect("fixture");
    let mut compared = 0;
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let [sfen, usi, expected] = fields[..] else {
            panic!("bad line {line}")
        };
        let p = position(Variant::Shogi, sfen);
        let AnyPosition::Shogi(shogi) = &p else {
            unreachable!()
        };
        let mv = shogi.parse_usi(usi).expect("usi move");
        assert_eq!(
            format_move(&p, mv, Notation::Japanese),
            expected,
            "{sfen} {usi}"
        );
        assert_eq!(parse_move(&p, expected), Ok(mv), "{sfen} {expected}");
        compared += 1;
    }
    assert!(compared > 1000, "{compared} moves compared");
}

/// Fairy-Stockfish writes stacked soldiers with their index from the front in place of
/// the letter (`15=6`); these strings are pyffish's own (`get_san(…, NOTATION_XIANGQI_WXF)`).
#[test]
fn xiangqi_reads_fairy_stockfish_indexed_soldiers() {
    let three_on_a_file = position(Variant::Xiangqi, "3k5/9/9/4P4/4P4/4P4/9/9/9/4K4 w - - 0 1");
    for (text, uci) in [
        ("15=6", "e7d7"),
        ("15=4", "e7f7"),
        ("15+1", "e7e8"),
        ("25=6", "e6d6"),
        ("25=4", "e6f6"),
    ] {
        let expected = three_on_a_file.parse_uci(uci).unwrap();
        assert_eq!(parse_move(&three_on_a_file, text), Ok(expected), "{text}");
    }
    let two_files = position(
        Variant::Xiangqi,
        "3k5/9/9/2P1P4/2P1P4/9/9/9/9/5K3 w - - 0 1",
    );
    for (text, uci) in [
        ("17+1", "c7c8"),
        ("17=8", "c7b7"),
        ("27=8", "c6b6"),
        ("15+1", "e7e8"),
        ("25=4", "e6f6"),
    ] {
        let expected = two_files.parse_uci(uci).unwrap();
        assert_eq!(parse_move(&two_files, text), Ok(expected), "{text}");
    }
}

/// Some books and sites leave WXF's operator out (`C25`); the move is read when only
/// one legal move fits, and refused as ambiguous when several do.
#[test]
fn xiangqi_reads_wxf_without_an_operator() {
    let start = Variant::Xiangqi.start();
    assert_eq!(
        parse_move(&start, "C25"),
        Ok(start.parse_uci("h3e3").unwrap())
    );
    assert_eq!(
        parse_move(&start, "H23"),
        Ok(start.parse_uci("h1g3").unwrap())
    );
    // The chariot on file 1 can go one forward (R1+1) but never "R1.1" or back: one fit.
    assert_eq!(
        parse_move(&start, "R11"),
        Ok(start.parse_uci("i1i2").unwrap())
    );
    // A chariot in the open that can go one step forward or back is ambiguous.
    let open = position(Variant::Xiangqi, "3k5/9/9/9/9/4R4/9/9/9/5K3 w - - 0 1");
    let reading = parse_move(&open, "R51");
    assert!(
        matches!(reading, Err(NotationError::Ambiguous { .. })),
        "{reading:?}"
    );
}
