//! The CPU: mates found at fixed depth, legal moves only, stop honoured at once,
//! repetition and janggi scoring read from the rules.

use qipan::engine::{best_move, limits_for_level, Engine, Limits, Score, SearchInfo};
use qipan::rules::any::{GameKind, Variant};
use qipan::rules::game::Game;
use qipan::rules::{MoveList, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Mate-in-N positions (side to move mates), each found by the Debian `fairy-stockfish`
/// (`go depth 11` reports `score mate N`; its best move is the last field) with
/// `tools/gen_mates.py`. Janggi mates include palace-diagonal mates; shogi mates
/// include drop mates (`S@h8`, `G@d8`, `L@a3`, …).
const MATES: &[(&str, &str, i32, &str)] = &[
    (
        "xiangqi",
        "3nak3/9/9/9/9/9/5P3/9/C7R/5K3 w - - 0 1",
        2,
        "a2f2",
    ),
    (
        "xiangqi",
        "9/4a4/5kp2/7P1/9/9/6R2/9/2R6/4K4 w - - 0 1",
        1,
        "g4f4",
    ),
    (
        "xiangqi",
        "2p6/3k5/9/9/9/9/3C5/1RN6/5K3/7c1 w - - 0 1",
        2,
        "c3d5",
    ),
    (
        "xiangqi",
        "2a2k3/Pp7/8R/9/2C6/9/9/4K4/9/9 w - - 0 1",
        1,
        "i8f8",
    ),
    (
        "xiangqi",
        "9/C3Pa3/5k3/9/2R6/9/9/3K5/4p4/9 w - - 0 1",
        2,
        "d3e3",
    ),
    (
        "xiangqi",
        "5k3/9/3a5/9/C8/P8/9/4R4/4K4/n8 w - - 0 1",
        1,
        "e3f3",
    ),
    (
        "xiangqi",
        "R2a1k3/2P5P/9/9/9/9/9/4K4/n8/9 w - - 0 1",
        3,
        "a10d10",
    ),
    (
        "janggi",
        "9/5k3/4cb3/9/9/9/9/4K3R/9/3RB4 w - - 0 1",
        2,
        "i3i9",
    ),
    (
        "janggi",
        "R2a1k3/2P5P/9/9/9/9/9/4K4/n8/9 w - - 0 1",
        3,
        "a10d10",
    ),
    (
        "janggi",
        "9/3b5/4kc2C/9/9/9/9/2B6/3P1K3/9 w - - 0 1",
        3,
        "f2e2",
    ),
    (
        "janggi",
        "4k4/2R6/9/7p1/9/2R6/9/5P3/1c7/5K3 w - - 0 1",
        2,
        "c5e5",
    ),
    (
        "janggi",
        "3k5/4b4/3a5/9/9/9/9/9/6N2/3K1R2P w - - 0 1",
        3,
        "f1f10",
    ),
    (
        "shogi",
        "7k1/5p3/9/g8/6LB1/9/1p7/+R4K3/9[GS] w - - 0 1",
        2,
        "S@i7",
    ),
    (
        "shogi",
        "B3p2k1/2+P6/9/2g6/9/8+R/9/4l2K1/9[LSR] w - - 0 1",
        2,
        "R@g6",
    ),
    (
        "shogi",
        "3kB1+R2/9/9/l2n5/9/3N5/6p2/9/8K[G] w - - 0 1",
        1,
        "G@d8",
    ),
    (
        "shogi",
        "2k2p3/9/9/5l3/7p1/4R4/2N6/9/4K2B1[G] w - - 0 1",
        3,
        "e4e9+",
    ),
    (
        "shogi",
        "3k5/7+R1/4+B4/ns4g2/9/9/6S2/1K7/9[LP] w - - 0 1",
        1,
        "e7d8",
    ),
    (
        "shogi",
        "3g4k/8B/2s6/7n1/9/7+RL/9/9/4K4[S] w - - 0 1",
        2,
        "i8h7+",
    ),
    (
        "shogi",
        "9/k8/7G1/1L1n5/6s2/9/8g/K1R6/9[LB] w - - 0 1",
        1,
        "L@a3",
    ),
    (
        "shogi",
        "9/kg6s/9/2+P3S2/1R7/l8/9/5K3/9[SP] w - - 0 1",
        3,
        "S@b7",
    ),
    (
        "xiangqi",
        "9/R1b5p/4k4/9/9/5P3/9/3R5/9/5K3 w - - 0 1",
        2,
        "d3d9",
    ),
    (
        "xiangqi",
        "9/9/3k5/N8/9/2R6/c1p6/4K4/9/C8 w - - 0 1",
        1,
        "c5d5",
    ),
    (
        "xiangqi",
        "5k3/7P1/6a2/9/9/9/2p6/1R1R5/9/3K5 w - - 0 1",
        2,
        "d3f3",
    ),
    (
        "xiangqi",
        "1R2b4/5ka1R/9/8N/9/9/9/9/4K4/9 w - - 0 1",
        2,
        "i9g9",
    ),
    (
        "xiangqi",
        "9/4b4/5k3/c8/9/4R4/P8/9/9/P2K5 w - - 0 1",
        3,
        "d1e1",
    ),
    (
        "xiangqi",
        "4k4/9/9/9/4n4/R6p1/1P7/4K4/4P4/9 w - - 0 1",
        3,
        "a5a6",
    ),
    (
        "xiangqi",
        "n8/1N2kb3/7P1/9/2R6/9/9/9/4K4/9 w - - 0 1",
        2,
        "c6e6",
    ),
    (
        "xiangqi",
        "6P2/6a2/4k4/9/5R3/7c1/9/9/5R3/3K5 w - - 0 1",
        1,
        "f6e6",
    ),
    (
        "xiangqi",
        "2a6/2P1k3N/R3a4/9/9/9/9/5K3/9/9 w - - 0 1",
        3,
        "a8a10",
    ),
    (
        "xiangqi",
        "9/4k4/6c2/R8/2pR5/9/9/9/9/2PK5 w - - 0 1",
        3,
        "a7a9",
    ),
    (
        "xiangqi",
        "2a6/1P2k4/2a6/5R3/9/9/9/9/9/3K4R w - - 0 1",
        1,
        "i1e1",
    ),
    (
        "xiangqi",
        "3a5/5a3/3k5/9/9/4R4/9/9/2N5R/5K3 w - - 0 1",
        1,
        "i2d2",
    ),
    (
        "janggi",
        "2b6/9/3k5/2c6/7P1/9/3C5/9/3K5/5R3 w - - 0 1",
        3,
        "f1f10",
    ),
    (
        "janggi",
        "1C7/2aP5/3k5/7R1/9/9/9/9/5n3/5K3 w - - 0 1",
        3,
        "h7d7",
    ),
    (
        "janggi",
        "3b5/3a5/5k3/9/9/1B7/8R/9/4K4/1P7 w - - 0 1",
        2,
        "i4f4",
    ),
    (
        "janggi",
        "9/2b2k3/4R3B/9/3c5/7C1/9/9/3K5/9 w - - 0 1",
        2,
        "e8d8",
    ),
    (
        "janggi",
        "4k4/1P7/9/9/1C7/1R7/9/9/6p2/2c2K3 w - - 0 1",
        3,
        "f1e2",
    ),
    (
        "janggi",
        "2a6/9/5k3/2B6/2R6/8R/9/9/4K4/3p5 w - - 0 1",
        2,
        "i5f5",
    ),
    (
        "janggi",
        "9/4b4/5k3/9/6c2/7P1/9/9/2R1KN3/9 w - - 0 1",
        2,
        "e2f3",
    ),
    (
        "janggi",
        "2R6/9/3bk4/9/8p/6P2/9/9/3K5/4B4 w - - 0 1",
        3,
        "d2e2",
    ),
    (
        "shogi",
        "9/6L1k/4p4/8n/7sB/9/9/9/6RK1[NPR] w - - 0 1",
        2,
        "i5g7+",
    ),
    (
        "shogi",
        "k8/p2+R5/9/5p3/9/4N4/8s/9/K2G5[B] w - - 0 1",
        1,
        "d8c9",
    ),
    (
        "shogi",
        "2l1k4/1s7/4n4/9/6B2/9/R8/8K/5+B3[R] w - - 0 1",
        3,
        "g5e7+",
    ),
    (
        "shogi",
        "5k3/9/2+R5L/3B1p3/9/2p6/9/4s4/8K[G] w - - 0 1",
        1,
        "G@f8",
    ),
    (
        "shogi",
        "2k6/9/1L7/6g1R/9/+R8/5p3/1l7/5K3[BP] w - - 0 1",
        3,
        "a4a8",
    ),
    (
        "shogi",
        "3p4k/8l/6S2/8+P/s6+R1/9/9/9/1K7[NB] w - - 0 1",
        1,
        "h5h8",
    ),
];

type Searched = (Option<qipan::rules::Move>, Vec<SearchInfo>, Game);

fn search(variant: &str, fen: &str, limits: Limits) -> Searched {
    let variant = Variant::from_name(variant).unwrap();
    let game = Game::new(variant.position_from_fen(fen).unwrap());
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let mv = best_move(&game, limits, &stop, &mut |info| infos.push(info.clone()));
    (mv, infos, game)
}

#[test]
fn finds_every_mate_of_the_suite_at_fixed_depth() {
    let mut failures = Vec::new();
    for &(variant, fen, moves, oracle) in MATES {
        if let Err(error) = Variant::from_name(variant).unwrap().position_from_fen(fen) {
            failures.push(format!("{variant} {fen}: {error}"));
            continue;
        }
        // Two plies of slack over the mate's length: pruning may hide a quiet first move.
        let depth = 2 * moves as u32 + 3;
        let limits = Limits {
            depth: Some(depth),
            ..Limits::default()
        };
        let (mv, infos, game) = search(variant, fen, limits);
        let mv = mv.expect("a move");
        let score = infos.last().map(|i| i.score);
        // A quicker win is fine: Fairy-Stockfish counts a janggi bikjang win a ply later.
        if !matches!(score, Some(Score::Mate(found)) if (1..=moves).contains(&found)) {
            failures.push(format!(
                "{variant} {fen}: expected mate {moves} (oracle {oracle}), got {score:?} with {}",
                game.position().move_to_uci(mv)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        MATES.len(),
        failures.join("\n")
    );
}

/// A small deterministic generator for random playouts.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, bound: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) as usize) % bound.max(1)
    }
}

#[test]
fn never_returns_an_illegal_move_in_random_positions() {
    let mut rng = Lcg(2024);
    for variant in Variant::ALL {
        let mut checked = 0;
        while checked < 12 {
            let mut game = Game::from_variant(variant);
            let plies = 4 + rng.next(60);
            for _ in 0..plies {
                let moves = game.legal_moves();
                if moves.is_empty() {
                    break;
                }
                game.push_unchecked(moves.as_slice()[rng.next(moves.len())]);
            }
            let legal: MoveList = game.legal_moves();
            let stop = AtomicBool::new(false);
            let limits = Limits {
                nodes: Some(3_000),
                ..Limits::default()
            };
            let chosen = best_move(&game, limits, &stop, &mut |_| {});
            match chosen {
                Some(mv) => assert!(
                    legal.contains(mv),
                    "{}: illegal {:?} in {}",
                    variant.id(),
                    mv,
                    game.position().fen()
                ),
                None => assert!(legal.is_empty()),
            }
            checked += 1;
        }
    }
}

/// How long a search takes to return after its stop flag is set.
fn time_to_stop(variant: Variant) -> Duration {
    let game = Game::from_variant(variant);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let thinker = std::thread::spawn(move || {
        let limits = Limits {
            infinite: true,
            ..Limits::default()
        };
        let mv = best_move(&game, limits, &flag, &mut |_| {});
        (mv, Instant::now())
    });
    std::thread::sleep(Duration::from_millis(300));
    let asked = Instant::now();
    stop.store(true, Ordering::Relaxed);
    let (mv, returned) = thinker.join().unwrap();
    assert!(mv.is_some());
    returned.saturating_duration_since(asked)
}

/// The search polls its stop flag often enough to return within 50 ms. The other
/// tests of this binary run on the same cores at the same time, so one slow wake-up
/// of the thread is forgiven: each game gets three tries, and a search that checks
/// its flag too rarely fails all three.
#[test]
fn stop_is_honoured_within_50_ms() {
    for variant in [
        Variant::Xiangqi,
        Variant::Shogi,
        Variant::from_name("janggi").unwrap(),
    ] {
        let tries: Vec<Duration> = (0..3).map(|_| time_to_stop(variant)).collect();
        assert!(
            tries.iter().any(|&took| took < Duration::from_millis(50)),
            "{}: stop took {tries:?}",
            variant.id()
        );
    }
}

// Xiangqi: Red has checked with the chariot on every move (a1a10 e10e9 a10a9 e9e10
// a9a10 e10e9 a10a9 e9e10). a9a10 now would repeat the position a third time by
// perpetual check and lose; the engine must find another move.
//   10 . . . . k . . . .
//    9 R . . . . . . . .
//    1 . . . K . . . . .
#[test]
fn never_walks_into_a_lost_perpetual_check() {
    let variant = Variant::Xiangqi;
    let mut game = Game::new(
        variant
            .position_from_fen("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1")
            .unwrap(),
    );
    for text in "a1a10 e10e9 a10a9 e9e10 a9a10 e10e9 a10a9 e9e10".split_whitespace() {
        let mv = game.position().parse_uci(text).unwrap();
        game.play(mv).unwrap();
    }
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mv = best_move(&game, limits, &stop, &mut |_| {}).unwrap();
    assert_ne!(game.position().move_to_uci(mv), "a9a10");
    game.play(mv).unwrap();
    assert_ne!(
        game.outcome().and_then(|o| o.winner()),
        Some(qipan::rules::Side::Second)
    );
}

// Janggi (KJA): the generals face on the d-file; Cho is ahead on points, so passing
// accepts the bikjang and wins on the rules' score count — a win in one, like a mate.
//    9 . . . k . . . . .
//    8 C . a . . R . . .
//    2 . R . K . . a . .
#[test]
fn janggi_accepts_a_won_bikjang() {
    let (mv, infos, game) = search(
        "janggi",
        "9/3k5/C1a2R3/9/9/9/9/9/1R1K2a2/9 w - - 0 1",
        Limits {
            depth: Some(3),
            ..Limits::default()
        },
    );
    assert_eq!(infos.last().unwrap().score, Score::Mate(1));
    let mut after = game.clone();
    after.play(mv.unwrap()).unwrap();
    assert_eq!(
        after.outcome().and_then(|o| o.winner()),
        Some(qipan::rules::Side::First)
    );
}

#[test]
fn levels_are_named_and_repeatable() {
    assert_eq!(qipan::engine::level_name(1, true), "입문");
    assert_eq!(qipan::engine::level_name(10, true), "고수");
    assert_eq!(qipan::engine::level_name(1, false), "beginner");
    assert_eq!(qipan::engine::level_name(10, false), "expert");
    let game = Game::from_variant(Variant::Xiangqi);
    for level in [1, 4, 8] {
        let limits = limits_for_level(GameKind::Xiangqi, level, Duration::from_secs(30));
        let stop = AtomicBool::new(false);
        let first = Engine::default().search(&game, limits, &stop, &mut |_| {});
        let second = Engine::default().search(&game, limits, &stop, &mut |_| {});
        assert_eq!(first, second, "level {level} is not repeatable");
    }
    assert_eq!(
        limits_for_level(GameKind::Shogi, 10, Duration::from_secs(2)).nodes,
        None
    );
}

/// Searches `fen` for `lines` best lines within `limits`; returns the lines of the last
/// completed depth as "uci-move score" pairs, best first, and every report seen.
fn best_lines(variant: &str, fen: &str, lines: u32, limits: Limits) -> (Vec<SearchInfo>, Game) {
    let variant = Variant::from_name(variant).unwrap();
    let game = Game::new(variant.position_from_fen(fen).unwrap());
    let stop = AtomicBool::new(false);
    let limits = Limits {
        multipv: lines,
        ..limits
    };
    let outcome = Engine::default()
        .search_lines(&game, limits, &stop, &mut |_| {})
        .expect("a legal move");
    (outcome.lines, game)
}

#[test]
fn multipv_lists_three_lines_best_first_in_xiangqi() {
    // Three undefended pieces to take: a cannon (a7) by the chariot, an elephant (g10) by
    // the horse, a soldier (i7) by the red soldier. No red move gives check (checks are
    // searched deeper), and black has nothing to take back with.
    //   . . . . k . b . .   10
    //   . . . . . . . . .    9
    //   . . . . . . . N .    8
    //   c . . . . . . P p    7
    //   …
    //   R . . K . . . . .    1
    let fen = "4k1b2/9/7N1/c6Pp/9/9/9/9/9/R2K5 w - - 0 1";
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let (lines, game) = best_lines("xiangqi", fen, 3, limits);
    let moves: Vec<String> = lines
        .iter()
        .map(|line| game.position().move_to_uci(line.principal_variation[0]))
        .collect();
    // The cannon is the most the position offers; what comes next is the evaluation's
    // call (an elephant taken by a horse that lands on the edge, or the chariot across
    // the river, are within a few dozen centipawns of each other in the fitted model).
    assert_eq!(moves[0], "a1a7", "{lines:?}");
    assert!(
        moves[0] != moves[1] && moves[1] != moves[2] && moves[0] != moves[2],
        "{moves:?}"
    );
    assert_eq!(
        lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
        [1, 2, 3]
    );
    let scores: Vec<i32> = lines
        .iter()
        .map(|l| match l.score {
            Score::Centipawns(cp) => cp,
            Score::Mate(_) => panic!("no mate here: {l:?}"),
        })
        .collect();
    assert!(
        scores[0] > scores[1] + 150 && scores[1] >= scores[2],
        "{scores:?}"
    );
    assert!(lines.iter().all(|l| l.depth == 2));
}

#[test]
fn multipv_in_shogi_puts_the_rook_capture_before_the_pawn_capture() {
    // Sente's rook on 5e takes the rook on 5b (promoting or not) or the pawn on 9e; nothing
    // defends either.
    let fen = "k8/4r4/9/9/p3R4/9/9/9/8K[] w - - 0 1";
    let limits = Limits {
        depth: Some(3),
        ..Limits::default()
    };
    let (lines, game) = best_lines("shogi", fen, 3, limits);
    let moves: Vec<String> = lines
        .iter()
        .map(|line| game.position().move_to_uci(line.principal_variation[0]))
        .collect();
    assert_eq!(moves.len(), 3, "{lines:?}");
    assert!(moves[0].starts_with("e5e8"), "{moves:?}");
    assert!(moves[1].starts_with("e5e8"), "{moves:?}");
    assert_ne!(moves[0], moves[1]);
    assert!(moves[2].starts_with("e5a5"), "{moves:?}");
}

#[test]
fn multipv_is_the_same_twice_under_a_node_budget_and_one_line_is_unchanged() {
    let fen = "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/6P2/P1P1P1n1P/1C2C1N2/9/RNBAKAB1R w - - 4 4";
    let limits = Limits {
        nodes: Some(30_000),
        ..Limits::default()
    };
    let render = |lines: &[SearchInfo]| {
        lines
            .iter()
            .map(|l| {
                format!(
                    "{} {} {:?} {:?}",
                    l.multipv, l.depth, l.score, l.principal_variation
                )
            })
            .collect::<Vec<_>>()
    };
    let (first, _) = best_lines("xiangqi", fen, 3, limits);
    let (second, _) = best_lines("xiangqi", fen, 3, limits);
    assert_eq!(first.len(), 3);
    assert_eq!(render(&first), render(&second));
    let firsts: Vec<_> = first.iter().map(|l| l.principal_variation[0]).collect();
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    // MultiPV 0 and 1 are the same single-line search.
    let (zero, _) = best_lines("xiangqi", fen, 0, limits);
    let (one, _) = best_lines("xiangqi", fen, 1, limits);
    assert_eq!(render(&zero), render(&one));
    assert_eq!(one.len(), 1);
    // More lines than legal moves: one line per legal move.
    // Here the king steps aside or the soldier steps forward.
    let (all, _) = best_lines(
        "xiangqi",
        "4k4/9/9/9/9/9/P8/9/4A4/3AK4 w - - 0 1",
        20,
        limits,
    );
    assert_eq!(all.len(), 2, "{all:?}");
}

// Mate distance: with a mate in one on the board, a deeper search still reports the
// mate in one (not a longer mate it also sees), and the mated side's score says how far
// off its mate is. Xiangqi: Red's chariot a1-a10 mates (the a9 chariot holds rank 9),
// and a9f9 wins as soon (Black is left without a move, which loses in xiangqi): any
// move that ends the game in Red's favour at once will do, as the rules judge it.
#[test]
fn a_deeper_search_reports_the_nearest_mate() {
    let (mv, infos, game) = search(
        "xiangqi",
        "4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1",
        Limits {
            depth: Some(7),
            ..Limits::default()
        },
    );
    let last = infos.last().expect("a completed depth");
    assert_eq!(last.score, Score::Mate(1), "depth {}", last.depth);
    let mv = mv.expect("a move");
    let mut after = game.clone();
    after.play(mv).unwrap();
    assert!(
        matches!(
            after.outcome(),
            Some(qipan::rules::Outcome::Win {
                winner: qipan::rules::Side::First,
                ..
            })
        ),
        "{} does not win at once: {:?}",
        game.position().move_to_uci(mv),
        after.outcome()
    );
    // The mated side, a move earlier: every reply loses; the score is a mate against it.
    let (_, infos, _) = search(
        "xiangqi",
        "4k4/R8/9/9/9/9/9/9/9/R2K5 b - - 0 1",
        Limits {
            depth: Some(7),
            ..Limits::default()
        },
    );
    let last = infos.last().expect("a completed depth");
    assert!(
        matches!(last.score, Score::Mate(n) if n < 0),
        "expected a mate against Black, got {:?}",
        last.score
    );
}

// Repetition inside the search: the game has already been through the root position
// once (both kings stepped aside and back), and every quiet line can repeat it again;
// in xiangqi a repetition without checks is no win for either side. With a horse and
// two advisors each, neither side can force a mate, so the search returns a legal move
// with a plain evaluation, never a mate either way (two advisors alone against a king
// would be a draw by material before any search).
#[test]
fn a_repetition_in_the_search_is_scored_as_the_rules_judge_it() {
    let variant = Variant::Xiangqi;
    let mut game = Game::new(
        variant
            .position_from_fen("3k1a3/4a4/2h6/9/9/9/9/2H6/4A4/3AK4 w - - 0 1")
            .unwrap(),
    );
    // Both kings shuffle along their back ranks: after these four plies the start
    // position stands again (its second occurrence).
    for text in "e1f1 d10e10 f1e1 e10d10".split_whitespace() {
        let mv = game
            .position()
            .parse_uci(text)
            .unwrap_or_else(|| panic!("{text} does not parse"));
        game.play(mv)
            .unwrap_or_else(|error| panic!("{text} is illegal: {error:?}"));
    }
    let positions = game.positions();
    assert_eq!(positions.len(), 5);
    // The same board and side to move (the move counters differ).
    let placement = |fen: String| fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
    assert_eq!(
        placement(positions[0].fen()),
        placement(positions[4].fen()),
        "the line returns to the start"
    );
    let stop = AtomicBool::new(false);
    let mut infos = Vec::new();
    let limits = Limits {
        depth: Some(6),
        ..Limits::default()
    };
    let mv = best_move(&game, limits, &stop, &mut |info| infos.push(info.clone()));
    game.clone()
        .play(mv.expect("a move"))
        .expect("a legal move");
    // With repetitions drawn, the score stays a plain evaluation, never a mate.
    let last = infos.last().expect("a completed depth");
    assert!(
        matches!(last.score, Score::Centipawns(_)),
        "got {:?}",
        last.score
    );
}

/// Janggi's threat terms (elephant mobility, hanging pieces, pieces attacked by a lesser
/// piece) are the ones `tools/tune_eval.py` fits their weights to: the counts of 302
/// positions from Fairy-Stockfish's games, written by `tune_eval.py threat-vectors`.
#[test]
fn janggi_threat_counts_match_the_ones_the_weights_were_fitted_to() {
    use qipan::rules::any::AnyPosition;
    let vectors = include_str!("data/janggi_threat_counts.tsv");
    let variant = Variant::from_name("janggi").unwrap();
    let mut checked = 0;
    let mut nonzero = 0;
    for line in vectors.lines().filter(|line| !line.starts_with('#')) {
        let fields: Vec<&str> = line.split('\t').collect();
        let AnyPosition::Janggi(position) = variant.position_from_fen(fields[0]).unwrap() else {
            panic!("not a janggi position: {line}");
        };
        let expected: Vec<[i32; 2]> = fields[1..]
            .iter()
            .map(|pair| {
                let numbers: Vec<i32> = pair.split(' ').map(|n| n.parse().unwrap()).collect();
                [numbers[0], numbers[1]]
            })
            .collect();
        let counts = qipan::engine::eval::janggi_threat_counts(&position);
        assert_eq!(counts.to_vec(), expected, "{}", fields[0]);
        nonzero += usize::from(counts[1] != [0, 0] || counts[2] != [0, 0]);
        checked += 1;
    }
    assert_eq!(checked, 302);
    assert!(nonzero > 100, "only {nonzero} positions with a threat");
}
