//! Live analysis with an external engine (qipan itself as a UCI engine): `go infinite`
//! with MultiPV until stopped, the engine kept for the next search, and a missing engine
//! reported. Every wait is bounded, so a broken engine fails the test instead of hanging.

use qipan::action::Action;
use qipan::i18n::Language;
use qipan::protocol::client::{EngineProtocol, EngineSpec};
use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::{MoveList, Position};
use qipan::workers::{spawn_live, EnginePool, LiveSearch};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::Arc;
use std::time::Duration;

const WAIT: Duration = Duration::from_secs(60);

fn qipan_uci() -> EngineSpec {
    EngineSpec {
        name: "qipan-uci".to_string(),
        command: env!("CARGO_BIN_EXE_qipan").to_string(),
        args: vec!["uci".to_string()],
        protocol: EngineProtocol::Uci,
        options: Vec::new(),
    }
}

fn search(id: u64, spec: EngineSpec, lines: u32, nodes: Option<u64>) -> LiveSearch {
    LiveSearch {
        id,
        engine: Some((0, Some(spec))),
        game: Game::from_variant(Variant::Xiangqi),
        lines,
        node_limit: nodes,
        threads: 1,
        stop: Arc::new(AtomicBool::new(false)),
        language: Language::English,
    }
}

#[test]
fn an_external_engine_analyses_until_stopped_with_several_lines_and_is_kept() {
    let pool = EnginePool::new();
    let (sender, receiver) = channel();
    let endless = search(1, qipan_uci(), 2, None);
    let stop = Arc::clone(&endless.stop);
    let start = endless.game.position().clone();
    spawn_live(&pool, endless, sender.clone());
    let mut legal = MoveList::new();
    start.legal_moves(&mut legal);
    // Both lines report, each starting with a legal move.
    let mut heard = [false, false];
    while heard != [true, true] {
        match receiver.recv_timeout(WAIT).expect("the engine reports") {
            Action::LiveProgress {
                search: 1,
                line,
                report,
            } => {
                assert!(legal.contains(report.principal_variation[0]));
                heard[line as usize - 1] = true;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    // Stopped, it goes quiet; the same engine then answers a search that ends by itself.
    stop.store(true, Ordering::Relaxed);
    spawn_live(&pool, search(2, qipan_uci(), 1, Some(3_000)), sender);
    loop {
        match receiver
            .recv_timeout(WAIT)
            .expect("the second search answers")
        {
            Action::LiveProgress { .. } => {}
            Action::LiveFinished { search: 2, lines } => {
                assert_eq!(lines.len(), 1);
                assert!(legal.contains(lines[0].principal_variation[0]));
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    pool.shut_down(Duration::from_secs(2));
}

#[test]
fn a_missing_engine_fails_live_analysis_with_its_name() {
    let pool = EnginePool::new();
    let (sender, receiver) = channel();
    let spec = EngineSpec {
        command: "/nonexistent/engine".to_string(),
        ..qipan_uci()
    };
    spawn_live(&pool, search(5, spec, 3, None), sender);
    match receiver.recv_timeout(WAIT).expect("an answer") {
        Action::LiveFailed { search: 5, message } => {
            assert!(message.contains("/nonexistent/engine"), "{message}");
        }
        other => panic!("unexpected {other:?}"),
    }
}
