//! The tsume solver behind USI `go mate` on the problems of tests/data/tsume.txt
//! (generated problems of 1-11 plies and 13-15-ply mates from real games, lengths from
//! cshogi): every mate is found with cshogi's length (never shorter: that would be a
//! false mate), and each line is legal, all checks, and ends in mate; positions with no
//! mate within 11 plies get no shorter mate, and most are proved to have none; a
//! position with no check is answered at once; node budgets and a deadline end a
//! search without an answer. Problems marked `slow` need more than the test budget and
//! are left to tools/mate_bench.py.

use qipan::engine::mate::{solve, MateAnswer, MateLimits};
use qipan::rules::shogi::ShogiPosition;
use qipan::rules::{MoveList, Position};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The problems qipan's rules accept (a generated position qipan refuses, such as one
/// with a piece that could never move, is named and left out).
fn problems() -> Vec<(String, usize)> {
    include_str!("data/tsume.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .filter(|l| !l.ends_with(";slow"))
        .map(|l| {
            let mut fields = l.split(';');
            let sfen = fields.next().unwrap();
            let plies = fields.next().unwrap();
            (sfen.to_string(), plies.parse().unwrap())
        })
        .filter(|(sfen, _)| match ShogiPosition::from_sfen(sfen) {
            Ok(_) => true,
            Err(error) => {
                println!("left out {sfen}: {error}");
                false
            }
        })
        .collect()
}

const LIMITS: MateLimits = MateLimits {
    nodes: 1_000_000,
    deadline: None,
    table_megabytes: 16,
};

/// Plays `line`, checking each attacker move gives check and the end is mate.
fn check_line(sfen: &str, line: &[qipan::rules::Move]) {
    let mut position = ShogiPosition::from_sfen(sfen).unwrap();
    for (ply, &mv) in line.iter().enumerate() {
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        assert!(legal.contains(mv), "{sfen}: ply {ply} illegal");
        position.play_unchecked(mv);
        if ply % 2 == 0 {
            assert!(position.in_check(), "{sfen}: ply {ply} is not a check");
        }
    }
    let mut legal = MoveList::new();
    position.legal_moves(&mut legal);
    assert!(
        position.in_check() && legal.is_empty(),
        "{sfen}: the line does not end in mate"
    );
}

#[test]
fn known_mates_are_solved_with_the_right_length() {
    let (mut solved, mut exact, mut missed) = (0, 0, Vec::new());
    let known: Vec<_> = problems().into_iter().filter(|(_, n)| *n > 0).collect();
    for (sfen, plies) in &known {
        let position = ShogiPosition::from_sfen(sfen).unwrap();
        let report = solve(&position, LIMITS, &AtomicBool::new(false));
        match report.answer {
            MateAnswer::Mate(line) => {
                // Never shorter than cshogi's exhaustive length (that would be a false
                // mate); longer when the defender's useless interpositions (無駄合),
                // which cshogi does not count, make the line longer.
                assert!(
                    line.len() >= *plies,
                    "{sfen}: mate in {} < {plies}",
                    line.len()
                );
                check_line(sfen, &line);
                solved += 1;
                if line.len() == *plies {
                    exact += 1;
                } else {
                    println!("{sfen}: {} plies against cshogi's {plies}", line.len());
                }
            }
            // A wrong answer fails; running out of budget is a known weakness, counted.
            MateAnswer::NoMate => panic!("{sfen}: a mate in {plies} answered no mate"),
            MateAnswer::Unknown => missed.push(format!("{sfen} (mate in {plies})")),
        }
    }
    println!(
        "solved {solved} of {} ({exact} with cshogi's length); not solved within the budget: {missed:#?}",
        known.len()
    );
    // Every answer given is right, every mate is found within the budget, and every
    // line has exactly cshogi's length (interpositions counted, as cshogi counts them).
    assert_eq!(solved, known.len(), "not solved: {missed:#?}");
    assert_eq!(exact, known.len(), "not all with cshogi's length");
}

#[test]
fn positions_without_a_short_mate_get_none() {
    let mut nomate = 0;
    for (sfen, _) in problems().into_iter().filter(|(_, n)| *n == 0) {
        let position = ShogiPosition::from_sfen(&sfen).unwrap();
        match solve(&position, LIMITS, &AtomicBool::new(false)).answer {
            MateAnswer::NoMate => nomate += 1,
            MateAnswer::Mate(line) => {
                assert!(
                    line.len() > 11,
                    "{sfen}: cshogi finds no mate in {}",
                    line.len()
                );
                check_line(&sfen, &line);
            }
            MateAnswer::Unknown => {}
        }
    }
    // One of them (a defender with a large hand, a king in the open) needs some 1.4M
    // nodes to disprove, past the budget.
    assert!(nomate >= 4, "only {nomate} positions proved without mate");
}

#[test]
fn a_node_budget_ends_the_search_without_an_answer() {
    let (sfen, _) = problems().into_iter().max_by_key(|(_, n)| *n).unwrap();
    let position = ShogiPosition::from_sfen(&sfen).unwrap();
    let limits = MateLimits {
        nodes: 10,
        ..LIMITS
    };
    let report = solve(&position, limits, &AtomicBool::new(false));
    assert_eq!(report.answer, MateAnswer::Unknown);
    assert!(report.nodes <= 11, "{} nodes", report.nodes);
}

#[test]
fn long_mates_are_in_the_set() {
    let count = |plies| problems().iter().filter(|(_, n)| *n == plies).count();
    assert!(
        count(13) >= 5 && count(15) >= 5,
        "{} and {}",
        count(13),
        count(15)
    );
}

#[test]
fn a_position_without_any_check_is_no_mate_at_once() {
    // The start position: Sente has no checking move at all.
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let position = ShogiPosition::from_sfen(sfen).unwrap();
    let report = solve(&position, LIMITS, &AtomicBool::new(false));
    assert_eq!(report.answer, MateAnswer::NoMate);
    assert_eq!(
        report.nodes, 1,
        "one node: the root, with no check to search"
    );
}

#[test]
fn a_deadline_ends_the_search_without_an_answer() {
    // No mate, but a defender's large hand and an open board make the disproof long
    // (some 1.4M nodes, seconds): 100 ms is far too little.
    let sfen = "1g7/1k7/9/9/7L1/9/9/3R5/3+R5 b Bb3g4s4n3l18p 1";
    let position = ShogiPosition::from_sfen(sfen).unwrap();
    let started = Instant::now();
    let limits = MateLimits {
        nodes: u64::MAX,
        deadline: Some(started + Duration::from_millis(100)),
        table_megabytes: 16,
    };
    let report = solve(&position, limits, &AtomicBool::new(false));
    assert_eq!(report.answer, MateAnswer::Unknown);
    // The clock is read every 64 nodes; allow for a loaded machine.
    assert!(
        started.elapsed() < Duration::from_millis(1000),
        "{:?}",
        started.elapsed()
    );
}
