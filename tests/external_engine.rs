//! `ExternalEngine` driving qipan itself (`qipan uci`, `qipan usi`) as an outside
//! engine, and the clear errors of engines that are missing, exit at once or stay silent.
//! Every wait is bounded, so a broken engine fails a test instead of hanging it.

use qipan::engine::Limits;
use qipan::protocol::client::{
    EngineError, EngineMove, EngineProtocol, EngineSpec, ExternalEngine, Timeouts,
};
use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::Position;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

fn qipan(protocol: EngineProtocol) -> EngineSpec {
    EngineSpec {
        name: format!("qipan-{}", protocol.name()),
        command: env!("CARGO_BIN_EXE_qipan").to_string(),
        args: vec![protocol.name().to_string()],
        protocol,
        options: vec![("Skill Level".to_string(), "10".to_string())],
    }
}

fn short_timeouts() -> Timeouts {
    Timeouts {
        handshake: Duration::from_secs(2),
        ready: Duration::from_secs(2),
        stop: Duration::from_secs(2),
        grace: Duration::from_secs(2),
    }
}

/// Plays `plies` moves of `variant` with the engine choosing every move; returns the game
/// and how many progress reports came with a principal variation.
fn engine_plays(spec: &EngineSpec, game: Game, plies: usize) -> (Game, usize) {
    let mut engine = ExternalEngine::start(spec).expect("qipan starts as an engine");
    let mut game = game;
    let limits = Limits {
        depth: Some(3),
        movetime: Some(Duration::from_secs(5)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut reports = 0;
    for _ in 0..plies {
        let answer = engine
            .search(&game, &limits, &stop, &mut |report| {
                assert!(!report.principal_variation.is_empty());
                reports += 1;
            })
            .expect("a move");
        let EngineMove::Move(mv) = answer else {
            panic!("expected a move, got {answer:?}");
        };
        game.play(mv).expect("the checked move is legal");
    }
    engine.quit();
    (game, reports)
}

#[test]
fn qipan_as_a_uci_engine_plays_xiangqi_janggi_and_shogi() {
    let spec = qipan(EngineProtocol::Uci);
    for variant in [
        Variant::Xiangqi,
        Variant::Janggi(JanggiRules::KJA),
        Variant::Shogi,
    ] {
        let (game, reports) = engine_plays(&spec, Game::from_variant(variant), 4);
        assert_eq!(game.moves().len(), 4, "{variant:?}");
        assert!(reports >= 4, "{variant:?}: {reports} reports");
    }
}

#[test]
fn qipan_as_a_usi_engine_plays_shogi_from_a_handicap() {
    let spec = qipan(EngineProtocol::Usi);
    let (game, _) = engine_plays(&spec, Game::from_variant(Variant::Shogi), 4);
    assert_eq!(game.moves().len(), 4);
    // A handicap start position goes over as an SFEN, Gote to move.
    let start = Variant::Shogi
        .position_from_fen("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSN1 w - 1")
        .expect("lance handicap");
    let (game, _) = engine_plays(&spec, Game::new(start), 3);
    assert_eq!(game.moves().len(), 3);
}

#[test]
fn the_position_command_uses_the_engines_coordinates() {
    let mut game = Game::from_variant(Variant::Shogi);
    for text in ["7g7f", "3c3d", "8h2b+"] {
        let mv = match game.position() {
            qipan::rules::any::AnyPosition::Shogi(shogi) => shogi.parse_usi(text).unwrap(),
            _ => unreachable!(),
        };
        game.play(mv).unwrap();
    }
    let usi = ExternalEngine::start(&qipan(EngineProtocol::Usi)).unwrap();
    assert!(
        usi.position_command(&game)
            .ends_with("moves 7g7f 3c3d 8h2b+"),
        "{}",
        usi.position_command(&game)
    );
    assert!(usi.position_command(&game).starts_with("position sfen "));
    let uci = ExternalEngine::start(&qipan(EngineProtocol::Uci)).unwrap();
    assert!(
        uci.position_command(&game)
            .ends_with("moves c3c4 g7g6 b2h8+"),
        "{}",
        uci.position_command(&game)
    );
    let limits = Limits {
        movetime: Some(Duration::from_millis(1500)),
        ..Limits::default()
    };
    assert_eq!(uci.go_command(&limits), "go movetime 1500");
    assert_eq!(usi.go_command(&limits), "go btime 0 wtime 0 byoyomi 1500");
}

#[test]
fn stop_ends_a_long_search_at_once() {
    let mut engine = ExternalEngine::start(&qipan(EngineProtocol::Uci)).unwrap();
    let game = Game::from_variant(Variant::Xiangqi);
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        flag.store(true, Ordering::Relaxed);
    });
    let limits = Limits {
        movetime: Some(Duration::from_secs(60)),
        ..Limits::default()
    };
    let started = Instant::now();
    let answer = engine.search(&game, &limits, &stop, &mut |_| {});
    stopper.join().unwrap();
    assert!(matches!(answer, Ok(EngineMove::Move(_))), "{answer:?}");
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_missing_executable_is_named() {
    let spec = EngineSpec {
        name: "ghost".to_string(),
        command: "/nonexistent/qipan-test-engine".to_string(),
        args: Vec::new(),
        protocol: EngineProtocol::Uci,
        options: Vec::new(),
    };
    let error = ExternalEngine::start(&spec).unwrap_err();
    assert!(matches!(error, EngineError::Missing { .. }), "{error:?}");
    let text = error.to_string();
    assert!(
        text.contains("ghost") && text.contains("/nonexistent/qipan-test-engine"),
        "{text}"
    );
}

#[test]
fn an_engine_that_exits_at_once_is_reported_without_hanging() {
    let spec = EngineSpec {
        name: "quitter".to_string(),
        command: "/bin/true".to_string(),
        args: Vec::new(),
        protocol: EngineProtocol::Uci,
        options: Vec::new(),
    };
    let started = Instant::now();
    let error = ExternalEngine::start_with(&spec, short_timeouts()).unwrap_err();
    assert!(matches!(error, EngineError::Crashed { .. }), "{error:?}");
    assert!(error.to_string().contains("quitter"), "{error}");
    assert!(started.elapsed() < Duration::from_secs(2));
}

#[test]
fn a_silent_engine_times_out_at_the_handshake() {
    let spec = EngineSpec {
        name: "sleeper".to_string(),
        command: "sleep".to_string(),
        args: vec!["30".to_string()],
        protocol: EngineProtocol::Usi,
        options: Vec::new(),
    };
    let timeouts = Timeouts {
        handshake: Duration::from_millis(300),
        ..short_timeouts()
    };
    let started = Instant::now();
    let error = ExternalEngine::start_with(&spec, timeouts).unwrap_err();
    assert!(matches!(error, EngineError::Timeout { .. }), "{error:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_usi_engine_does_not_play_xiangqi() {
    let mut engine = ExternalEngine::start(&qipan(EngineProtocol::Usi)).unwrap();
    let error = engine.new_game(Variant::Xiangqi).unwrap_err();
    assert!(
        matches!(error, EngineError::Unsupported { .. }),
        "{error:?}"
    );
}

#[test]
fn fairy_stockfish_plays_every_game_when_installed() {
    let command = "/usr/games/fairy-stockfish";
    if !std::path::Path::new(command).exists() {
        eprintln!("skipped: {command} is not installed");
        return;
    }
    let spec = EngineSpec::from_flag(&format!("fsf={command}")).unwrap();
    let mut engine = ExternalEngine::start(&spec).expect("Fairy-Stockfish starts");
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    for variant in [
        Variant::Xiangqi,
        Variant::Shogi,
        Variant::Janggi(JanggiRules::KJA),
        Variant::Janggi(JanggiRules::CASUAL),
    ] {
        let mut game = Game::from_variant(variant);
        for _ in 0..4 {
            let mut lines = 0;
            let answer = engine
                .search(&game, &limits, &stop, &mut |_| lines += 1)
                .unwrap_or_else(|e| panic!("{variant:?}: {e}"));
            let EngineMove::Move(mv) = answer else {
                panic!("{variant:?}: {answer:?}");
            };
            game.play(mv).unwrap();
            assert!(lines > 0, "{variant:?}: no info lines were read");
        }
    }
}

/// A tiny UCI engine written in sh that answers `go` with `reply` (or exits when it is empty).
fn scripted_engine(name: &str, reply: &str) -> EngineSpec {
    let on_go = if reply.is_empty() {
        "exit 0".to_string()
    } else {
        format!("echo 'info depth 1 score cp 0 pv {reply}'; echo 'bestmove {reply}'")
    };
    let script = format!(
        "while read -r line; do case \"$line\" in \
         uci) echo 'id name scripted'; echo uciok;; \
         isready) echo readyok;; \
         go*) {on_go};; \
         quit) exit 0;; \
         esac; done"
    );
    EngineSpec {
        name: name.to_string(),
        command: "sh".to_string(),
        args: vec!["-c".to_string(), script],
        protocol: EngineProtocol::Uci,
        options: Vec::new(),
    }
}

#[test]
fn an_illegal_bestmove_is_refused_with_the_move_named() {
    let mut engine = ExternalEngine::start_with(&scripted_engine("liar", "a1a9"), short_timeouts())
        .expect("the script starts");
    let game = Game::from_variant(Variant::Xiangqi);
    let limits = Limits {
        movetime: Some(Duration::from_millis(100)),
        ..Limits::default()
    };
    let error = engine
        .search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
        .unwrap_err();
    assert_eq!(
        error,
        EngineError::IllegalMove {
            name: "liar".to_string(),
            text: "a1a9".to_string()
        }
    );
    assert!(error.to_string().contains("a1a9"), "{error}");
    // A resigning engine is read as resigning.
    let mut engine =
        ExternalEngine::start_with(&scripted_engine("quitter", "resign"), short_timeouts())
            .unwrap();
    let answer = engine.search(&game, &limits, &AtomicBool::new(false), &mut |_| {});
    assert_eq!(answer, Ok(EngineMove::Resign));
}

#[test]
fn an_engine_that_dies_while_thinking_is_reported_at_once() {
    let mut engine = ExternalEngine::start_with(&scripted_engine("dies", ""), short_timeouts())
        .expect("the script starts");
    let game = Game::from_variant(Variant::Janggi(JanggiRules::KJA));
    let limits = Limits {
        movetime: Some(Duration::from_secs(30)),
        ..Limits::default()
    };
    let started = Instant::now();
    let error = engine
        .search(&game, &limits, &AtomicBool::new(false), &mut |_| {})
        .unwrap_err();
    assert!(matches!(error, EngineError::Crashed { .. }), "{error:?}");
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn an_external_engine_reports_several_lines_when_it_offers_multipv() {
    // qipan itself, as UCI: the chariot takes the cannon first; three different lines.
    let mut engine = ExternalEngine::start(&qipan(EngineProtocol::Uci)).expect("qipan starts");
    assert!(engine.offers_multipv());
    let position = Variant::Xiangqi
        .position_from_fen("4k1b2/9/7N1/c6Pp/9/9/9/9/9/R2K5 w - - 0 1")
        .unwrap();
    let game = Game::new(position.clone());
    let limits = Limits {
        depth: Some(2),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut heard = Vec::new();
    let (answer, lines) = engine
        .search_lines(&game, &limits, 3, &stop, &mut |k, _| heard.push(k))
        .expect("lines");
    let firsts: Vec<String> = lines
        .iter()
        .map(|line| position.move_to_uci(line.principal_variation[0]))
        .collect();
    assert_eq!(firsts.len(), 3, "{lines:?}");
    assert_eq!(firsts[0], "a1a7", "{firsts:?}");
    assert!(
        firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2],
        "{firsts:?}"
    );
    assert_eq!(answer, EngineMove::Move(lines[0].principal_variation[0]));
    assert!(heard.contains(&3), "{heard:?}");
    // Playing again: one line, and only the best line's progress reaches the caller.
    let mut reports = Vec::new();
    let answer = engine
        .search(&game, &limits, &stop, &mut |report| reports.push(report))
        .expect("a move");
    assert_eq!(answer, EngineMove::Move(lines[0].principal_variation[0]));
    assert!(!reports.is_empty());
    assert!(reports
        .iter()
        .all(|r| position.move_to_uci(r.principal_variation[0]) == "a1a7"));
    engine.quit();
}

/// A USI engine in sh that offers `USI_MultiPV` and, once it is set to 2, reports two
/// lines, then a failed-window (`lowerbound`) report that must not count as a line.
fn multipv_engine() -> EngineSpec {
    let script = "mp=1; while read -r line; do case \"$line\" in \
         usi) echo 'id name twolines'; echo 'option name USI_MultiPV type spin default 1 min 1 max 10'; echo usiok;; \
         isready) echo readyok;; \
         *USI_MultiPV*'value 2'*) mp=2;; \
         go*) echo 'info depth 2 multipv 1 score cp 50 nodes 100 pv 7g7f 3c3d'; \
              if [ \"$mp\" = 2 ]; then echo 'info depth 2 multipv 2 score cp 20 nodes 120 pv 2g2f'; fi; \
              echo 'info depth 3 multipv 1 score cp 400 lowerbound nodes 200 pv 5g5f'; \
              echo 'bestmove 7g7f';; \
         quit) exit 0;; \
         esac; done";
    EngineSpec {
        name: "twolines".to_string(),
        command: "sh".to_string(),
        args: vec!["-c".to_string(), script.to_string()],
        protocol: EngineProtocol::Usi,
        options: Vec::new(),
    }
}

#[test]
fn multipv_lines_of_an_external_engine_are_read_and_bounds_are_not_lines() {
    use qipan::analysis::{analyse, Analyser, Budget, Evaluation, Settings};
    use qipan::engine::Score;
    let mut engine =
        ExternalEngine::start_with(&multipv_engine(), short_timeouts()).expect("the script starts");
    assert!(engine.offers_multipv());
    let game = Game::from_variant(Variant::Shogi);
    let limits = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let (answer, lines) = engine
        .search_lines(&game, &limits, 2, &stop, &mut |_, _| {})
        .expect("lines");
    let scores: Vec<Score> = lines.iter().map(|l| l.score).collect();
    assert_eq!(scores, [Score::Centipawns(50), Score::Centipawns(20)]);
    assert_eq!(lines[0].principal_variation.len(), 2);
    assert_eq!(answer, EngineMove::Move(lines[0].principal_variation[0]));
    // The analysis of the start position through this engine: its score and move.
    let settings = Settings {
        budget: Budget::Nodes(1000),
        lines: 2,
    };
    let analysis = analyse(
        &mut Analyser::External(&mut engine),
        game.start(),
        &[],
        settings,
        &stop,
        &mut |_| {},
    )
    .expect("analysed");
    assert_eq!(analysis.engine, "twolines");
    let position = &analysis.positions[0];
    assert_eq!(position.evaluation, Some(Evaluation::Units(50)));
    assert_eq!(position.lines.len(), 2);
    assert_eq!(position.best, Some(lines[0].principal_variation[0]));
    engine.quit();
}

/// Issue 18 item 16: a folder given as the engine command is named as such, not as
/// "Permission denied".
#[test]
fn a_folder_as_the_engine_command_is_named() {
    let folder = std::env::temp_dir();
    let spec = EngineSpec {
        name: "folder".to_string(),
        command: folder.display().to_string(),
        args: Vec::new(),
        protocol: EngineProtocol::Uci,
        options: Vec::new(),
    };
    let error = ExternalEngine::start(&spec).unwrap_err();
    assert!(
        matches!(error, EngineError::NotAProgram { .. }),
        "{error:?}"
    );
    let text = error.to_string();
    assert!(!text.contains("Permission denied"), "{text}");
    assert!(text.contains(&folder.display().to_string()), "{text}");
}

/// An exercise's check through an external engine: each candidate's position is searched
/// in turn, and the lines come back best first, each starting with its candidate.
#[test]
fn compare_through_an_external_engine_searches_each_candidate() {
    use qipan::analysis::{compare, Analyser, Budget};
    let mut engine =
        ExternalEngine::start_with(&qipan(EngineProtocol::Uci), short_timeouts()).expect("starts");
    let start = Variant::from_name("xiangqi")
        .unwrap()
        .position_from_fen("4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1")
        .unwrap();
    // a1a7 gives the chariot to the horse; d1e1 keeps it.
    let give_away = start.parse_uci("a1a7").unwrap();
    let keep = start.parse_uci("d1e1").unwrap();
    let stop = AtomicBool::new(false);
    let result = compare(
        &mut Analyser::External(&mut engine),
        &start,
        &[],
        &[give_away, keep],
        Budget::Nodes(20_000),
        &stop,
    )
    .expect("compared");
    let report = &result.positions[0];
    let firsts: Vec<_> = report
        .lines
        .iter()
        .map(|line| line.principal_variation[0])
        .collect();
    assert_eq!(firsts, vec![keep, give_away], "{report:#?}");
    assert_eq!(report.best, Some(keep));
    engine.quit();
}
