//! History-aware rules, each from a position that isolates it, board drawn above.

use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::{EndReason, IllegalMove, Outcome, Position, Side};

fn game(variant: Variant, fen: &str) -> Game {
    Game::new(variant.position_from_fen(fen).expect("test FEN is valid"))
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game
            .position()
            .parse_uci(text)
            .unwrap_or_else(|| panic!("cannot read {text}"));
        game.play(mv)
            .unwrap_or_else(|e| panic!("{text} refused: {e} in {}", game.position().fen()));
    }
}

// Xiangqi, Red chariot a1 checks the black general on e10 along ranks 10 and 9
// while the general steps e10-e9-e10:
//   10 . . . . k . . . .
//    …
//    1 R . . K . . . . .
#[test]
fn xiangqi_perpetual_check_loses() {
    let mut g = game(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    play(&mut g, "a1a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10");
    assert_eq!(g.outcome(), None, "second occurrence is not yet the third");
    play(&mut g, "a9a10");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, EndReason::PerpetualCheck))
    );
}

// Xiangqi, both sides shuffle without check: the third occurrence is a draw.
#[test]
fn xiangqi_plain_repetition_draws() {
    let mut g = game(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    play(&mut g, "a1a2 e10e9 a2a1 e9e10 a1a2 e10e9 a2a1");
    assert_eq!(g.outcome(), None);
    play(&mut g, "e9e10");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

// Xiangqi stalemate loses: the black general on d10 cannot move and has no other piece.
//   10 . . . k . . . . .
//    9 . . . . . . . . .   red chariots on c9 and e9 guard d9, the flying
//    1 . . . . K . . . .   general guards e10 (red king e1 on the open e-file)
#[test]
fn xiangqi_stalemate_loses() {
    let g = game(Variant::Xiangqi, "3k5/2R3R2/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(!g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, EndReason::Stalemate))
    );
}

// Xiangqi checkmate: chariot on d9 protected by the flying general... black general d10, red chariot d9 protected by a horse.
#[test]
fn xiangqi_checkmate_loses() {
    // Red chariot c10 checks along rank 10; d9/e9 guarded by the chariot on f9? keep it simple:
    // black general d10, red chariots a10 (check) and a9 (guards rank 9), red king e1 (guards e10 through the open file).
    let g = game(Variant::Xiangqi, "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert!(g.position().in_check());
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::First, EndReason::Checkmate))
    );
}

// Xiangqi: 120 plies without a capture draw; only generals and advisors left is a draw.
#[test]
fn xiangqi_move_limit_and_insufficient_material() {
    let g = game(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 120 80");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::MoveLimit)));
    let g = game(Variant::Xiangqi, "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 119 80");
    assert_eq!(g.outcome(), None);
    let g = game(Variant::Xiangqi, "3ak4/4a4/9/9/9/9/9/9/4A4/3AK4 w - - 0 1");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // A single soldier can still cross: play on.
    let g = game(
        Variant::Xiangqi,
        "3ak4/4a4/9/9/9/9/4P4/9/4A4/3AK4 w - - 0 1",
    );
    assert_eq!(g.outcome(), None);
}

// Janggi bikjang (KJA): Cho's chariot leaves the e-file, the generals face; Han accepts
// by passing and the score decides (Cho 13 against Han's 1.5 + 0).
//   10 . . . . k . . . .
//    4 . . . . R . . . .
//    2 . . . . K . . . .
#[test]
fn janggi_bikjang_accepted_is_scored() {
    let fen = "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1";
    let mut g = game(Variant::Janggi(JanggiRules::KJA), fen);
    play(&mut g, "e4a4");
    assert!(g.outcome().is_none(), "facing alone does not end the game");
    play(&mut g, "e10e10");
    match g.outcome() {
        Some(Outcome::Win {
            winner: Side::First,
            reason: EndReason::Bikjang,
            scores: Some(scores),
        }) => assert_eq!(scores.to_string(), "13 1.5"),
        other => panic!("unexpected {other:?}"),
    }
    // Traditional rules: the same bikjang is a draw.
    let mut g = game(Variant::Janggi(JanggiRules::TRADITIONAL), fen);
    play(&mut g, "e4a4 e10e10");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Bikjang)));
    // Modern rules: no bikjang, facing is just a position and the pass is a pass.
    let mut g = game(Variant::Janggi(JanggiRules::MODERN), fen);
    play(&mut g, "e4a4 e10e10");
    assert_eq!(g.outcome(), None);
}

// Janggi: while the generals face, a move that keeps them facing is refused.
#[test]
fn janggi_bikjang_must_be_broken() {
    let mut g = game(
        Variant::Janggi(JanggiRules::KJA),
        "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1",
    );
    play(&mut g, "e4a4");
    let stay = g.position().parse_uci("e10e9").unwrap();
    assert_eq!(g.play(stay), Err(IllegalMove::LeavesKingInCheck));
    let away = g.position().parse_uci("e10d10").unwrap();
    assert_eq!(g.play(away), Ok(()));
}

// Janggi: two passes in a row end the game, scored by KJA points (Han wins on the 1.5).
#[test]
fn janggi_double_pass_is_scored() {
    let mut g = Game::from_variant(Variant::Janggi(JanggiRules::KJA));
    play(&mut g, "e2e2 e9e9");
    match g.outcome() {
        Some(Outcome::Win {
            winner: Side::Second,
            reason: EndReason::DoublePass,
            scores: Some(scores),
        }) => assert_eq!(scores.to_string(), "72 73.5"),
        other => panic!("unexpected {other:?}"),
    }
}

// Janggi: passing is refused in check.
//   10 . . . k . . . . .
//    4 . . . . r . . . .   Han's chariot checks the Cho general on e2
#[test]
fn janggi_no_pass_in_check() {
    let g = game(
        Variant::Janggi(JanggiRules::KJA),
        "3k5/9/9/9/9/9/4r4/9/4K4/9 w - - 0 1",
    );
    let pass = g.position().parse_uci("e2e2").unwrap();
    assert_eq!(g.position().check_move(pass), Err(IllegalMove::CannotPass));
}

// Janggi (KJA): perpetual check is forbidden. As in Fairy-Stockfish the repeating
// move stays playable, and at the third occurrence the checking side loses.
// Cho's chariot checks the Han general from a10/a9 as it walks e10-e9-e10.
//   10 . . . . k . . . .
//    1 R . . K . . . . .
#[test]
fn janggi_perpetual_check_loses() {
    for rules in [
        JanggiRules::KJA,
        JanggiRules::TRADITIONAL,
        JanggiRules::CASUAL,
    ] {
        let mut g = game(Variant::Janggi(rules), "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1");
        play(&mut g, "a1a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10");
        assert_eq!(g.outcome(), None);
        play(&mut g, "a9a10");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::Second, EndReason::PerpetualCheck)),
            "{}",
            rules.id
        );
    }
}

// Janggi: a quiet threefold repetition ends the game: scored under KJA rules
// (Cho's chariot 13 against Han's 1.5), drawn under the traditional rules.
#[test]
fn janggi_threefold_repetition_is_scored_or_drawn() {
    let shuffle = "a1a2 e10e9 a2a1 e9e10 a1a2 e10e9 a2a1 e9e10";
    let mut g = game(
        Variant::Janggi(JanggiRules::KJA),
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    );
    play(&mut g, shuffle);
    assert_eq!(
        g.outcome().map(|o| o.to_string()),
        Some("first wins by repetition 13 1.5".to_string())
    );
    let mut g = game(
        Variant::Janggi(JanggiRules::TRADITIONAL),
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    );
    play(&mut g, shuffle);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
}

// Janggi-modern (Kakao style): shuttling one piece back and forth loses for the
// shuttler: the chariot arrives on a2, then goes a2-a3-a2-a3-a2, and at the fourth
// shuttle move Cho loses (Fairy-Stockfish: ply 9). The king shuffling on the other
// side is not judged (kings and advisors are exempt).
#[test]
fn janggi_modern_shuttling_loses() {
    let mut g = game(
        Variant::Janggi(JanggiRules::MODERN),
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    );
    play(&mut g, "a1a2 e10e9 a2a3 e9e10 a3a2 e10e9 a2a3 e9e10");
    assert_eq!(g.outcome(), None, "three shuttles so far");
    play(&mut g, "a3a2");
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, EndReason::Repetition))
    );
    // Under KJA rules the same moves are just moves.
    let mut kja = game(
        Variant::Janggi(JanggiRules::KJA),
        "4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1",
    );
    play(&mut kja, "a1a2 e10e9 a2a3 e9e10 a3a2");
    assert_eq!(kja.outcome(), None);
}

// Shogi impasse, 24-point rule (seed 001): both kings have entered the enemy camp.
//   a . . . . . . . . .
//   b . . . . K . . . .   Sente's king on 5b, Gote's on 5h
//   h . . . . k . . . .
// Sente holds two rooks and 16 minor pieces (26 points), Gote two bishops and 18 pawns
// (28): both reach 24, a draw. With every piece in Sente's hand Gote has 0 and loses.
#[test]
fn shogi_impasse_24_point_rule() {
    use qipan::rules::game::{ImpasseRefusal, ImpasseRule};
    let mut even = game(Variant::Shogi, "9/4K4/9/9/9/9/9/4k4/9 b 2R4G4S4N4L2b18p 1");
    let outcome = even.claim_impasse(ImpasseRule::TwentyFourPoint).unwrap();
    assert_eq!(outcome.to_string(), "draw by impasse 26 28");
    let mut lopsided = game(Variant::Shogi, "9/4K4/9/9/9/9/9/4k4/9 b 2R2B4G4S4N4L18P 1");
    let outcome = lopsided
        .claim_impasse(ImpasseRule::TwentyFourPoint)
        .unwrap();
    assert_eq!(outcome.to_string(), "first wins by impasse 54 0");
    // Kings not both in the enemy camp: the claim is refused and the game goes on.
    let mut early = Game::from_variant(Variant::Shogi);
    assert_eq!(
        early.claim_impasse(ImpasseRule::TwentyFourPoint),
        Err(ImpasseRefusal::KingsNotEntered)
    );
    assert_eq!(early.outcome(), None);
}

// Shogi impasse, 27-point (CSA declaration) rule: Sente's king on 5b with twelve
// pieces in the camp (golds and silvers on rank a, knights on rank c) and a full hand
// declares and wins; with an empty hand (12 points < 28) the declaration loses.
#[test]
fn shogi_impasse_27_point_declaration() {
    use qipan::rules::game::ImpasseRule;
    let camp = "GGSS1SSGG/4K4/NN5NN/9/9/9/9/9/4k4";
    let mut right = game(Variant::Shogi, &format!("{camp} b 2R2B18P4L 1"));
    let outcome = right.claim_impasse(ImpasseRule::TwentySevenPoint).unwrap();
    assert_eq!(outcome.winner(), Some(Side::First));
    let mut wrong = game(Variant::Shogi, &format!("{camp} b - 1"));
    let outcome = wrong.claim_impasse(ImpasseRule::TwentySevenPoint).unwrap();
    assert_eq!(outcome.winner(), Some(Side::Second));
    assert_eq!(outcome.reason(), EndReason::Impasse);
}

// Shogi sennichite: the fourth occurrence is a draw; with perpetual check the checker loses.
#[test]
fn shogi_sennichite() {
    let mut g = Game::from_variant(Variant::Shogi);
    for _ in 0..3 {
        assert_eq!(g.outcome(), None);
        play(&mut g, "h2g2 b8c8 g2h2 c8b8");
    }
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::Repetition)));
    // Sente's rook checks from 9b and 9c while Gote's king walks 5b-5c.
    let mut g = game(Variant::Shogi, "9/4k4/R8/9/9/9/9/9/4K4 b - 1");
    let shuffle = "a7a8 e8e7 a8a7 e7e8 ";
    play(&mut g, &shuffle.repeat(2));
    assert_eq!(g.outcome(), None, "third occurrence: play on");
    play(&mut g, shuffle);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Side::Second, EndReason::PerpetualCheck))
    );
}
