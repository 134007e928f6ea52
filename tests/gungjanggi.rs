//! Gungjanggi (seed 002, RULES.md "Gungjanggi" rules 1–12): one named test per
//! rule, for each rule set it applies to, from a position that isolates it.
//! Boards are drawn with Han (lowercase) at the top, rank 10 first; only the
//! occupied ranks are shown.

use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::janggi::{JanggiRules, PROMOTED};
use qipan::rules::{EndReason, IllegalMove, Outcome, Position, Side};

const BOTH: [JanggiRules; 2] = [JanggiRules::GUNGJANGGI, JanggiRules::GUNGJANGGI_DAN];

fn game(rules: JanggiRules, fen: &str) -> Game {
    Game::new(
        Variant::Janggi(rules)
            .position_from_fen(fen)
            .unwrap_or_else(|e| panic!("{fen}: {e}")),
    )
}

fn play(game: &mut Game, moves: &str) {
    for text in moves.split_whitespace() {
        let mv = game.position().parse_uci(text).expect("readable move");
        if let Err(why) = game.play(mv) {
            panic!("{text} refused ({why}) in {}", game.position().fen());
        }
    }
}

fn refusal(game: &Game, text: &str) -> Option<IllegalMove> {
    let mv = game.position().parse_uci(text).expect("readable move");
    game.clone().play(mv).err()
}

fn legal(game: &Game) -> Vec<String> {
    let mut names: Vec<String> = game
        .legal_moves()
        .iter()
        .map(|&m| game.position().move_to_uci(m))
        .collect();
    names.sort();
    names
}

fn state(game: &Game) -> String {
    game.position()
        .fen()
        .rsplit(' ')
        .next()
        .unwrap()
        .to_string()
}

// Rule 1: each king is normal or promoted, and each side may call bikjang once;
// the state survives the FEN round trip.
#[test]
fn rule_01_king_states_and_one_bikjang_per_side() {
    for rules in BOTH {
        let g = Game::from_variant(Variant::Janggi(rules));
        assert_eq!(
            state(&g),
            "-",
            "a new game: normal kings, no bikjang called"
        );
        let fen = "4k4/9/9/9/9/9/4R4/9/4K4/9 b - - 3 2 KbP1J4";
        let g = game(rules, fen);
        assert_eq!(g.position().fen(), fen);
        let kept = g.position().clone();
        let AnyJanggi(position) = AnyJanggi::from(&kept);
        let s = position.gungjanggi_state();
        assert_eq!(s.king_promoted, [true, false]);
        assert_eq!(s.bikjang_called, [false, true]);
        assert_eq!(s.passes_in_row, [1, 0]);
        assert!(s.judging);
        assert_eq!(s.judging_plies, 4);
    }
}

/// Unwraps the janggi position of a game position (test helper).
struct AnyJanggi(qipan::rules::janggi::JanggiPosition);
impl From<&qipan::rules::any::AnyPosition> for AnyJanggi {
    fn from(p: &qipan::rules::any::AnyPosition) -> Self {
        match p {
            qipan::rules::any::AnyPosition::Janggi(j) => AnyJanggi(j.clone()),
            _ => panic!("not janggi"),
        }
    }
}

//   10 . . . . k . . . .
//    2 . . . K . . . . .
//    1 R . . . . . . . .
// Cho's d2-e2 makes the normal kings face: it calls bikjang. A side that has
// called once (state B) may not make such a move again; Han, who has not, may.
#[test]
fn rule_02_a_second_bikjang_call_is_refused() {
    for rules in BOTH {
        let fresh = game(rules, "4k4/9/9/9/9/9/9/9/3K5/R8 w - - 0 1");
        let mut calling = fresh.clone();
        play(&mut calling, "d2e2");
        assert_eq!(state(&calling), "B", "the move called bikjang for Cho");

        let called = game(rules, "4k4/9/9/9/9/9/9/9/3K5/R8 w - - 0 1 B");
        assert_eq!(
            refusal(&called, "d2e2"),
            Some(IllegalMove::LeavesKingInCheck)
        );
        let king_moves: Vec<String> = legal(&called)
            .into_iter()
            .filter(|m| m.starts_with("d2"))
            .collect();
        assert_eq!(king_moves, ["d2d1", "d2d2", "d2d3"]);

        let han = game(rules, "3k5/9/9/9/9/9/9/9/4K4/R8 b - - 0 1 B");
        assert_eq!(
            refusal(&han, "d10e10"),
            None,
            "Han has not called bikjang yet"
        );
    }
}

//   10 . . . . k . . . .
//    4 . . . . R . . . .   Cho's chariot leaves the file: bikjang called.
//    2 . . . . K . . . .
#[test]
fn rule_03_breaking_bikjang_promotes_the_king() {
    for rules in BOTH {
        let mut g = game(rules, "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1");
        play(&mut g, "e4a4");
        // Han must answer: break the line or accept (pass); staying on the file is refused.
        assert_eq!(legal(&g), ["e10d10", "e10e10", "e10f10"]);
        let mut broken = g.clone();
        play(&mut broken, "e10d10");
        assert_eq!(
            state(&broken),
            "kB",
            "Han's king is promoted by breaking the line"
        );
        assert_eq!(broken.outcome(), None);
    }
}

// Rule 3, the other answer: accepting (the pass) ends the game, judged by material
// (rule 9 sends an accepted bikjang to rule 10). Cho has a chariot against nothing.
#[test]
fn rule_03_accepting_bikjang_goes_to_judgement() {
    for (rules, scores) in [
        (JanggiRules::GUNGJANGGI, "13 0"),
        (JanggiRules::GUNGJANGGI_DAN, "1 0"),
    ] {
        let mut g = game(rules, "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1");
        play(&mut g, "e4a4 e10e10");
        assert_eq!(
            g.outcome().map(|o| o.to_string()),
            Some(format!("first wins by material {scores}"))
        );
    }
}

//   10 . . . . k . . . .   Han's king is promoted (state k)
//    2 . . . K . . . . .
// Moving Cho's king into the open file of a promoted king is moving into check;
// facing a promoted king is check (no pass, must leave the file).
#[test]
fn rule_04_a_promoted_king_attacks_along_the_file() {
    for rules in BOTH {
        let g = game(rules, "4k4/9/9/9/9/9/9/9/3K5/9 w - - 0 1 k");
        assert_eq!(refusal(&g, "d2e2"), Some(IllegalMove::LeavesKingInCheck));
        let facing = game(rules, "4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1 k");
        assert!(facing.position().in_check());
        assert_eq!(
            legal(&facing),
            ["e2d1", "e2d2", "e2d3", "e2f1", "e2f2", "e2f3"]
        );
        // Cho's own promoted king gives check by opening the file.
        let mut attack = game(rules, "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1 K");
        play(&mut attack, "e4a4");
        assert!(
            attack.position().in_check(),
            "Han is in check from the promoted king"
        );
        // With only normal kings the same move is a bikjang call, not a check.
        let mut normal = game(rules, "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1");
        play(&mut normal, "e4a4");
        assert!(!normal.position().in_check());
    }
}

//   10 . . . k . . . . .
//    4 R . . . . . . . .
//    2 . . . . K . . . .
// The 100th quiet ply starts the judging phase: with neither king promoted both promote;
// if one already was, the other stays normal.
#[test]
fn rule_05_both_kings_promote_when_judging_begins() {
    for rules in BOTH {
        let mut g = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 99 50");
        play(&mut g, "a4a5");
        assert_eq!(state(&g), "KkJ0");
        let mut one = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 99 50 k");
        play(&mut one, "a4a5");
        assert_eq!(
            state(&one),
            "kJ0",
            "Cho's king does not promote when Han's already has"
        );
    }
}

// Rule 6: the pass is a move, but not a third in a row (state P2: Cho passed twice);
// and a side with no legal move, pass included, loses.
//   10 . . . k . . . . .
//    2 . . . . K . . . .
#[test]
fn rule_06_no_third_pass_in_a_row() {
    for rules in BOTH {
        let two = game(rules, "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1 P2");
        assert_eq!(refusal(&two, "e2e2"), Some(IllegalMove::CannotPass));
        let one = game(rules, "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1 P1");
        assert_eq!(refusal(&one, "e2e2"), None);
        let mut counting = game(rules, "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
        play(&mut counting, "e2e2 d10d10 e2e2 d10d10");
        assert_eq!(refusal(&counting, "e2e2"), Some(IllegalMove::CannotPass));
    }
}

// Rule 6: no move may produce the same position a third time. Cho's horse shuttles
// a1-b3 while Han's king shuttles d10-d9; the start position may not come a third time.
//   10 . . . k . . . . .
//    1 N . . . K . . . .
#[test]
fn rule_06_no_position_a_third_time() {
    for rules in BOTH {
        let mut g = game(rules, "3k5/9/9/9/9/9/9/9/9/N3K4 w - - 0 1");
        play(&mut g, "a1b3 d10d9 b3a1 d9d10 a1b3 d10d9 b3a1");
        assert_eq!(refusal(&g, "d9d10"), Some(IllegalMove::ForbiddenRepetition));
        assert_eq!(refusal(&g, "d9e9"), None);
    }
}

// Rule 6: no legal move loses. Cho's king on d1 has passed twice (P2), is not in
// check, and every step is covered: Han's chariot on a2 holds d2 and e2, the one on
// e9 holds e1.
//   10 . . . . . k . . .
//    9 . . . . r . . . .
//    2 r . . . . . . . .
//    1 . . . K . . . . .
#[test]
fn rule_06_no_legal_move_loses() {
    for rules in BOTH {
        let g = game(rules, "5k3/4r4/9/9/9/9/9/9/r8/3K5 w - - 0 1 P2");
        assert!(!g.position().in_check());
        assert!(g.legal_moves().is_empty(), "{:?}", legal(&g));
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::Second, EndReason::Stalemate))
        );
    }
}

//   10 R . . k . . . . .   Cho's chariots on a10 and a9 mate Han's king on d10.
//    9 R . . . . . . . .
//    1 . . . . K . . . .
#[test]
fn rule_07_checkmate_wins() {
    for rules in BOTH {
        let g = game(rules, "R2k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, EndReason::Checkmate))
        );
        let escape = game(rules, "R2k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1");
        assert_eq!(
            escape.outcome(),
            None,
            "one chariot is no mate: d9/e9 are free"
        );
    }
}

// Rule 8: what starts the judging phase — an accepted draw offer, 100 quiet plies, and
// nothing left but kings and advisors; 98 quiet plies do not.
#[test]
fn rule_08_judging_phase_triggers() {
    for rules in BOTH {
        let mut offer = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1");
        offer.accept_draw();
        assert_eq!(state(&offer), "KkJ0");
        assert_eq!(offer.outcome(), None, "no draw: the phase is judged");

        let mut quiet = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 98 50");
        play(&mut quiet, "a4a5");
        assert_eq!(state(&quiet), "-", "99 quiet plies: not yet");
        play(&mut quiet, "d10d9");
        assert_eq!(state(&quiet), "KkJ0");

        //   10 . . . . . k . . .
        //    3 . . . . p . . . .   Cho's advisor takes Han's last soldier: only kings
        //    2 . . . . A . . . .   and advisors remain.
        //    1 . . . K . . . . .
        let bare_fen = "5k3/9/9/9/9/9/9/4p4/4A4/3K5 w - - 0 1";
        let mut bare = game(rules, bare_fen);
        play(&mut bare, "e2e3");
        assert!(state(&bare).contains('J'), "{}", state(&bare));
        assert!(bare.outcome().is_none());
        let mut not_bare = game(rules, bare_fen);
        play(&mut not_bare, "e2f2");
        assert_eq!(state(&not_bare), "-");
    }
}

//   10 . . . k . . . . .   judging phase, both kings promoted (state KkJ0)
//    4 R . . . . . . . .
//    2 . . . . K . . . .
// The first check of the phase wins, even a sacrificial one; 20 plies without a check
// end the phase and material decides.
#[test]
fn rule_09_first_check_wins_the_judging_phase() {
    for rules in BOTH {
        let mut g = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1 KkJ0");
        play(&mut g, "a4d4");
        assert_eq!(
            g.outcome(),
            Some(Outcome::win(Side::First, EndReason::FirstCheck))
        );
        // The same check outside the phase does not end the game.
        let mut outside = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1");
        play(&mut outside, "a4d4");
        assert_eq!(outside.outcome(), None);
        // Twenty plies of the phase without a check: material decides.
        let mut long = game(rules, "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1 KkJ19");
        play(&mut long, "a4a5");
        assert_eq!(
            long.outcome().map(|o| o.reason()),
            Some(EndReason::Material)
        );
    }
}

//   10 . . . k . . . . .   Han: a horse and two soldiers (5 + 2 + 2 = 9 points, 3 pieces)
//    7 n . p . p . . . .
//    4 R . . . . . . . .   Cho: one chariot (13 points, 1 piece)
//    2 . . . . K . . . .
// By value (gungjanggi) Cho wins 13–9; by count (gungjanggi-dan) Han wins 3–1;
// equal material goes to Han, the second player.
#[test]
fn rule_10_material_then_second_player() {
    let fen = "3k5/9/9/n1p1p4/9/9/R8/9/4K4/9 w - - 0 1 KkJ19";
    let mut by_value = game(JanggiRules::GUNGJANGGI, fen);
    play(&mut by_value, "a4a5");
    assert_eq!(
        by_value.outcome().map(|o| o.to_string()),
        Some("first wins by material 13 9".to_string())
    );
    let mut by_count = game(JanggiRules::GUNGJANGGI_DAN, fen);
    play(&mut by_count, "a4a5");
    assert_eq!(
        by_count.outcome().map(|o| o.to_string()),
        Some("second wins by material 1 3".to_string())
    );
    for rules in BOTH {
        let mut equal = game(rules, "3k5/9/9/r8/9/9/R8/9/4K4/9 w - - 0 1 KkJ19");
        play(&mut equal, "a4a5");
        let totals = if rules == JanggiRules::GUNGJANGGI {
            "13 13"
        } else {
            "1 1"
        };
        assert_eq!(
            equal.outcome().map(|o| o.to_string()),
            Some(format!("second wins by second-player {totals}")),
            "후수승 carries both material totals"
        );
        assert_eq!(
            equal.outcome().map(|o| (o.winner(), o.reason())),
            Some((Some(Side::Second), EndReason::SecondPlayer))
        );
    }
}

//   10 . . . k . . . . .
//    9 P . . . . . . . .   Cho's soldier steps onto Han's back rank.
//    2 . . . . K . . . .
#[test]
fn rule_11_soldier_promotes_on_the_back_rank_in_dan_only() {
    let mut dan = game(
        JanggiRules::GUNGJANGGI_DAN,
        "3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1",
    );
    play(&mut dan, "a9a10 d10d9");
    assert!(
        dan.position().fen().starts_with("+P8/"),
        "{}",
        dan.position().fen()
    );
    // The promoted soldier may step back.
    assert_eq!(refusal(&dan, "a10a9"), None);
    let mut silver = game(
        JanggiRules::GUNGJANGGI,
        "3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1",
    );
    play(&mut silver, "a9a10 d10d9");
    assert!(silver.position().fen().starts_with("P8/"));
    assert_eq!(refusal(&silver, "a10a9"), Some(IllegalMove::NotAMove));
    assert_eq!(PROMOTED, 16);
}

//   10 . . . k a . . . .   Han's advisor on e10, Han's last soldier on a5.
//    5 p . . . . . . . .
//    4 R . . . . . . . .   Cho's chariot takes it: Han has lost all soldiers, so every
//    2 . . . . K . . . .   advisor in a palace promotes (here Cho's e2... and Han's e10).
//    1 . . . . . A . . .
#[test]
fn rule_12_advisors_promote_when_a_side_loses_all_soldiers() {
    let fen = "3ka4/9/9/9/9/p8/R8/9/4K4/5A3 w - - 0 1";
    let mut dan = game(JanggiRules::GUNGJANGGI_DAN, fen);
    play(&mut dan, "a4a5");
    let fen_after = dan.position().fen();
    assert!(fen_after.starts_with("3k+a4/"), "{fen_after}");
    assert!(fen_after.contains("/5+A3 "), "{fen_after}");
    // Han's promoted advisor may now leave the palace: e8 is its edge, e7 outside.
    play(&mut dan, "e10e9 a5a6 e9e8 a6a5 e8e7");
    // In Manual 1 nothing promotes: the advisor stays in the palace.
    let mut silver = game(JanggiRules::GUNGJANGGI, fen);
    play(&mut silver, "a4a5");
    assert!(silver.position().fen().starts_with("3ka4/"));
    play(&mut silver, "e10e9 a5a6 e9e8 a6a5");
    assert_eq!(refusal(&silver, "e8e7"), Some(IllegalMove::NotAMove));
}

/// Every node of the tree to `depth` plies, janggi rules (to find positions where a
/// gungjanggi-only rule could matter).
fn tree_has_facing(position: &qipan::rules::janggi::JanggiPosition, depth: u32) -> bool {
    if position.generals_face() {
        return true;
    }
    if depth == 0 {
        return false;
    }
    let mut moves = qipan::rules::MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut child = position.clone();
        child.play_unchecked(mv);
        tree_has_facing(&child, depth - 1)
    })
}

// Where no gungjanggi-only rule is in play, gungjanggi generates janggi's moves: the
// perft counts of tests/data/janggi.perft (from Fairy-Stockfish) hold for depths 1–2;
// at depth 3 gungjanggi adds exactly the replies after two passes in a row, which end
// a janggi game but not a gungjanggi one.
#[test]
fn perft_equals_janggi_where_no_gungjanggi_rule_is_in_play() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/janggi.perft"
    ))
    .unwrap();
    let mut fen = String::new();
    let mut compared = 0;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_string();
            continue;
        }
        let Some(rest) = line.strip_prefix("perft ") else {
            continue;
        };
        let (depth, count) = rest.split_once(' ').unwrap();
        let depth: u32 = depth.parse().unwrap();
        let count: u64 = count.parse().unwrap();
        if depth > 3 || count > 200_000 {
            continue;
        }
        let janggi =
            qipan::rules::janggi::JanggiPosition::from_fen(&fen, JanggiRules::KJA).unwrap();
        let busy = janggi
            .board()
            .iter()
            .filter(|&&c| c != 0 && !matches!(c & 7, 1 | 2))
            .count();
        if janggi.halfmove_clock() > 90 || busy < 4 || tree_has_facing(&janggi, 2) {
            continue;
        }
        for rules in BOTH {
            let gung = qipan::rules::janggi::JanggiPosition::from_fen(&fen, rules).unwrap();
            let mut expected = count;
            if depth == 3 {
                // Add the replies after pass-pass (a janggi game ends there).
                let mut after = gung.clone();
                if after.can_pass() {
                    after.play_unchecked(after.pass_move());
                    if after.can_pass() {
                        after.play_unchecked(after.pass_move());
                        expected += after.perft(1);
                    }
                }
            }
            assert_eq!(
                gung.perft(depth),
                expected,
                "{} perft {depth}: {fen}",
                rules.id
            );
        }
        compared += 1;
    }
    assert!(compared >= 50, "only {compared} counts compared");
}

mod random_games {
    use super::*;
    use proptest::prelude::*;

    fn play_out(rules: JanggiRules, seed: u64) -> Outcome {
        let mut g = Game::from_variant(Variant::Janggi(rules));
        let mut state = seed | 1;
        for _ in 0..4000 {
            if let Some(outcome) = g.outcome() {
                return outcome;
            }
            let moves = g.legal_moves();
            assert!(
                !moves.is_empty(),
                "no moves but no outcome: {}",
                g.position().fen()
            );
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let mv = moves.as_slice()[(state % moves.len() as u64) as usize];
            g.push_unchecked(mv);
        }
        panic!("game did not end: {}", g.position().fen());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 12, .. ProptestConfig::default() })]

        // Games between random movers always end with a winner, never a draw.
        #[test]
        fn random_games_always_have_a_winner(seed in any::<u64>(), dan in any::<bool>()) {
            let rules = if dan { JanggiRules::GUNGJANGGI_DAN } else { JanggiRules::GUNGJANGGI };
            let outcome = play_out(rules, seed);
            prop_assert!(outcome.winner().is_some(), "{outcome:?}");
        }
    }
}
