//! Live analysis driven by keys, with the real worker: each search is limited by nodes
//! (the test hook), and the tests wait for the worker's answers, never for time.

use super::live::{Waiting, DEFAULT_LINES, MAX_LINES};
use super::*;
use crate::rules::MoveList;
use crate::ui::benchmark::parse_move;
use crate::workers::{spawn_live, EnginePool, LiveSearch};
use std::sync::mpsc::{channel, Receiver, Sender};

/// Enough for a few depths of every game, small enough for a slow machine.
const TEST_NODES: u64 = 4_000;
/// The longest a test waits for a worker before it fails (never reached when it works).
const WORKER_TIMEOUT: Duration = Duration::from_secs(120);

/// The app with the worker wiring of the event loop.
struct Bench {
    app: App,
    pool: EnginePool,
    sender: Sender<Action>,
    receiver: Receiver<Action>,
    /// The stop flags of every live search started, in order.
    started: Vec<(u64, Arc<AtomicBool>, Game, u32)>,
}

impl Bench {
    fn new(app: App) -> Bench {
        let (sender, receiver) = channel();
        let mut bench = Bench {
            app,
            pool: EnginePool::new(),
            sender,
            receiver,
            started: Vec::new(),
        };
        bench.app.live.node_limit = Some(TEST_NODES);
        bench.app.take_effects();
        bench
    }

    fn press(&mut self, actions: &[Action]) {
        for action in actions {
            self.app.update(action.clone());
            self.run_effects();
        }
    }

    /// Starts the live searches the app asked for (other effects are dropped).
    fn run_effects(&mut self) {
        for effect in self.app.take_effects() {
            if let Effect::StartLiveAnalysis {
                id,
                game,
                lines,
                node_limit,
                stop,
                engine,
            } = effect
            {
                assert_eq!(engine, None, "the built-in engine by default");
                self.started
                    .push((id, Arc::clone(&stop), (*game).clone(), lines));
                let search = LiveSearch {
                    id,
                    engine: None,
                    game: *game,
                    lines,
                    node_limit,
                    threads: 2,
                    stop,
                    language: Language::English,
                };
                spawn_live(&self.pool, search, self.sender.clone());
            }
        }
    }

    /// Feeds the worker's messages to the app until the current search has finished.
    fn wait_until_finished(&mut self) {
        let id = self.app.live.search.as_ref().expect("a live search").id;
        loop {
            let action = self
                .receiver
                .recv_timeout(WORKER_TIMEOUT)
                .expect("the worker answers");
            let done = matches!(action, Action::LiveFinished { search, .. } if search == id);
            self.app.update(action);
            self.run_effects();
            if done {
                return;
            }
        }
    }

    fn play(&self) -> &Play {
        self.app.play.as_ref().expect("a game")
    }

    fn last_started(&self) -> &(u64, Arc<AtomicBool>, Game, u32) {
        self.started.last().expect("a live search was started")
    }
}

fn hotseat(kind: GameKind, moves: &[&str]) -> App {
    let mut app = App::with_game(Settings::default(), StartOptions::for_game(kind));
    let play = app.play.as_mut().unwrap();
    for text in moves {
        let mv = parse_move(play.game.position(), text).expect(text);
        play.play_and_record(mv).expect(text);
    }
    app
}

fn legal_in(position: &AnyPosition, mv: Move) -> bool {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.contains(mv)
}

/// Every shown line starts with a legal move of the shown position, no two alike.
fn assert_lines_fit_the_shown_position(bench: &Bench, count: usize) {
    let live = &bench.app.live;
    let shown = bench.play().shown_position();
    assert_eq!(live.subject.as_ref().unwrap().position, *shown);
    assert_eq!(live.shown.len(), count, "{:?}", live.shown);
    let firsts: Vec<Move> = live
        .shown
        .iter()
        .map(|report| report.principal_variation[0])
        .collect();
    for &mv in &firsts {
        assert!(
            legal_in(shown, mv),
            "{mv:?} is not legal in {}",
            shown.fen()
        );
    }
    let mut unique = firsts.clone();
    unique.dedup();
    unique.sort_by_key(|m| (m.from, m.to));
    unique.dedup();
    assert_eq!(
        unique.len(),
        firsts.len(),
        "the same move twice: {firsts:?}"
    );
    assert_eq!(live.best_move(), Some(firsts[0]));
}

#[test]
fn live_analysis_starts_shows_its_lines_and_stops_with_the_key() {
    for kind in [GameKind::Xiangqi, GameKind::Shogi, GameKind::Janggi] {
        let mut bench = Bench::new(hotseat(kind, &[]));
        bench.press(&[Action::ToggleLiveAnalysis]);
        assert!(bench.app.live.on);
        assert!(bench.app.status.as_ref().unwrap().text.contains("qipan"));
        let (_, stop, game, lines) = bench.last_started().clone();
        assert_eq!(lines as usize, DEFAULT_LINES);
        assert_eq!(game.position(), bench.play().shown_position());
        bench.wait_until_finished();
        assert!(bench.app.live.finished);
        assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
        bench.press(&[Action::ToggleLiveAnalysis]);
        assert!(!bench.app.live.on);
        assert!(bench.app.live.shown.is_empty());
        assert_eq!(bench.app.live.best_move(), None);
        assert!(
            !stop.load(Ordering::Relaxed),
            "a finished search needs no stop"
        );
    }
}

#[test]
fn turning_it_off_stops_an_endless_search() {
    let mut bench = Bench::new(hotseat(GameKind::Xiangqi, &["h3e3"]));
    bench.app.live.node_limit = None;
    bench.press(&[Action::ToggleLiveAnalysis]);
    let (_, stop, _, _) = bench.last_started().clone();
    assert!(bench.app.live.searching());
    bench.press(&[Action::ToggleLiveAnalysis]);
    assert!(stop.load(Ordering::Relaxed), "the key stops the search");
    assert!(!bench.app.live.searching());
    // The endless search lets go of the engine: a new search can use it and finish.
    bench.app.live.node_limit = Some(TEST_NODES);
    bench.press(&[Action::ToggleLiveAnalysis]);
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
}

#[test]
fn the_line_count_keys_go_from_one_to_five_and_restart_the_search() {
    let mut bench = Bench::new(hotseat(GameKind::Shogi, &["7g7f", "3c3d"]));
    // Off, the keys only set the count.
    bench.press(&[Action::FewerLines]);
    assert_eq!(bench.app.live.lines, DEFAULT_LINES - 1);
    assert!(bench.started.is_empty());
    bench.press(&[Action::ToggleLiveAnalysis]);
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES - 1);
    for _ in 0..8 {
        bench.press(&[Action::MoreLines]);
    }
    assert_eq!(bench.app.live.lines, MAX_LINES);
    assert!(bench.app.status.as_ref().unwrap().text.contains('5'));
    let (_, _, _, lines) = bench.last_started().clone();
    assert_eq!(
        lines as usize, MAX_LINES,
        "the search starts again for five lines"
    );
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, MAX_LINES);
    for _ in 0..8 {
        bench.press(&[Action::FewerLines]);
    }
    assert_eq!(bench.app.live.lines, 1);
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, 1);
}

#[test]
fn browsing_restarts_the_search_on_the_shown_position() {
    let mut bench = Bench::new(hotseat(
        GameKind::Xiangqi,
        &["h3e3", "h10g8", "h1g3", "i10h10"],
    ));
    bench.press(&[Action::ToggleLiveAnalysis]);
    bench.wait_until_finished();
    assert_eq!(bench.app.live.subject.as_ref().unwrap().ply, 4);
    for (keys, ply) in [
        (vec![Action::HistoryBack], 3),
        (vec![Action::HistoryBack, Action::HistoryBack], 1),
        (vec![Action::HistoryForward], 2),
        (vec![Action::HistoryStart], 0),
        (vec![Action::HistoryEnd], 4),
    ] {
        let count = bench.started.len();
        bench.press(&keys);
        assert_eq!(bench.play().shown_ply(), ply);
        assert_eq!(
            bench.started.len(),
            count + keys.len(),
            "a new search for each of {keys:?}"
        );
        let (_, _, game, _) = bench.last_started().clone();
        assert_eq!(game.moves().len(), ply, "searched with the game's history");
        assert_eq!(game.position(), bench.play().shown_position());
        bench.wait_until_finished();
        assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
    }
    // Two keys at once: the first search is stopped before it is done.
    bench.press(&[Action::HistoryBack]);
    let (_, first, _, _) = bench.last_started().clone();
    bench.press(&[Action::HistoryBack]);
    assert!(first.load(Ordering::Relaxed), "the stale search is stopped");
    bench.wait_until_finished();
    assert_eq!(bench.app.live.subject.as_ref().unwrap().ply, 2);
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
}

#[test]
fn a_move_tried_at_an_earlier_position_makes_a_variation_and_is_analysed() {
    let mut bench = Bench::new(hotseat(GameKind::Janggi, &["a4b4", "i7h7", "b4b5", "h7h6"]));
    bench.press(&[Action::ToggleLiveAnalysis]);
    bench.wait_until_finished();
    bench.press(&[Action::HistoryBack, Action::HistoryBack]);
    bench.wait_until_finished();
    // A different move than the game's third: the tree keeps both.
    let shown = bench.play().shown_position().clone();
    let mv = parse_move(&shown, "e4e5").expect("a soldier step");
    bench.press(&[Action::ClickSquare(mv.from), Action::ClickSquare(mv.to)]);
    assert_eq!(
        bench.play().variations_at(2).len(),
        2,
        "a variation was made"
    );
    assert_eq!(bench.play().game.moves().len(), 3);
    let (_, _, game, _) = bench.last_started().clone();
    assert_eq!(game.moves().last(), Some(&mv));
    bench.wait_until_finished();
    assert_eq!(bench.app.live.subject.as_ref().unwrap().ply, 3);
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
    // Switching back to the old line through the variation list follows too.
    bench.press(&[Action::HistoryBack, Action::Variations, Action::Up]);
    bench.press(&[Action::Select]);
    assert_eq!(
        bench.play().game.moves()[2],
        parse_move(&shown, "b4b5").unwrap()
    );
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
}

#[test]
fn against_the_cpu_it_waits_while_the_cpu_thinks() {
    let options = StartOptions {
        players: [Player::Human, Player::Computer { level: 1 }],
        ..StartOptions::for_game(GameKind::Xiangqi)
    };
    let mut bench = Bench::new(App::with_game(Settings::default(), options));
    bench.press(&[Action::ToggleLiveAnalysis]);
    bench.wait_until_finished();
    // The human moves: the CPU thinks, and live analysis waits without a search.
    let mv = parse_move(bench.play().game.position(), "h3e3").unwrap();
    bench.press(&[Action::ClickSquare(mv.from), Action::ClickSquare(mv.to)]);
    assert!(bench.app.thinking());
    assert!(!bench.app.live.searching());
    assert_eq!(bench.app.live.waiting, Waiting::ForComputer);
    assert_eq!(bench.app.live.best_move(), None);
    let count = bench.started.len();
    bench.press(&[Action::Tick, Action::HistoryBack, Action::HistoryEnd]);
    assert_eq!(bench.started.len(), count, "no search while the CPU thinks");
    // The CPU answers: the analysis picks up on the human's turn.
    let search = bench.play().search.clone().unwrap();
    let reply = parse_move(bench.play().game.position(), "h10g8").unwrap();
    bench.press(&[Action::ComputerMove {
        search: search.id,
        mv: Some(reply),
    }]);
    assert_eq!(bench.play().game.moves().len(), 2);
    assert_eq!(bench.app.live.waiting, Waiting::No);
    bench.wait_until_finished();
    assert_lines_fit_the_shown_position(&bench, DEFAULT_LINES);
}

#[test]
fn a_new_game_an_opened_record_and_quitting_turn_it_off() {
    // A new game.
    let mut bench = Bench::new(hotseat(GameKind::Shogi, &[]));
    bench.app.live.node_limit = None;
    bench.press(&[Action::ToggleLiveAnalysis]);
    let (_, stop, _, _) = bench.last_started().clone();
    bench.press(&[Action::NewGame]);
    assert!(
        stop.load(Ordering::Relaxed),
        "the start screen stops the search"
    );
    bench.press(&[Action::Select]);
    assert_eq!(bench.app.screen, Screen::Game);
    assert!(!bench.app.live.on, "a new game starts without analysis");
    let count = bench.started.len();
    bench.press(&[Action::Tick]);
    assert_eq!(bench.started.len(), count);
    // An opened record.
    bench.press(&[Action::ToggleLiveAnalysis]);
    let (_, stop, _, _) = bench.last_started().clone();
    let record =
        crate::record::GameRecord::new(Game::from_variant(crate::rules::any::Variant::Xiangqi));
    bench.app.open_record(record, None);
    bench.run_effects();
    assert!(
        stop.load(Ordering::Relaxed),
        "opening a record stops the search"
    );
    assert!(!bench.app.live.on);
    // Quitting (nothing played: no question).
    bench.press(&[Action::ToggleLiveAnalysis]);
    let (_, stop, _, _) = bench.last_started().clone();
    bench.press(&[Action::Quit]);
    assert!(bench.app.quit);
    assert!(stop.load(Ordering::Relaxed), "quitting stops the search");
    // Ctrl-C.
    let mut bench = Bench::new(hotseat(GameKind::Janggi, &["a4b4"]));
    bench.app.live.node_limit = None;
    bench.press(&[Action::ToggleLiveAnalysis]);
    let (_, stop, _, _) = bench.last_started().clone();
    bench.press(&[Action::ForceQuit]);
    assert!(stop.load(Ordering::Relaxed), "Ctrl-C stops the search");
}

#[test]
fn reports_reach_the_panel_a_few_times_a_second_and_stale_ones_are_dropped() {
    let mut app = hotseat(GameKind::Xiangqi, &[]);
    app.update(Action::ToggleLiveAnalysis);
    let id = app.live.search.as_ref().unwrap().id;
    let position = app.play.as_ref().unwrap().shown_position().clone();
    let report = |depth: u32, text: &str| SearchReport {
        depth,
        score: crate::engine::Score::Centipawns(20),
        nodes: 1_000,
        nodes_per_second: 50_000,
        principal_variation: vec![parse_move(&position, text).unwrap()],
    };
    let progress = |line: u32, depth: u32, text: &str| Action::LiveProgress {
        search: id,
        line,
        report: Box::new(report(depth, text)),
    };
    // The first report is shown at once.
    app.update(progress(1, 1, "h3e3"));
    assert_eq!(app.live.shown.len(), 1);
    // Later ones wait for the tick after next.
    app.update(progress(2, 1, "b3e3"));
    app.update(progress(1, 2, "b1c3"));
    assert_eq!(app.live.shown[0].depth, 1);
    app.update(Action::Tick);
    app.update(Action::Tick);
    assert_eq!(app.live.shown[0].depth, 1);
    app.update(Action::Tick);
    assert_eq!(app.live.shown[0].depth, 2);
    assert_eq!(app.live.shown.len(), 2);
    // A stopped search's words are ignored.
    app.update(Action::LiveProgress {
        search: id + 100,
        line: 1,
        report: Box::new(report(9, "h3e3")),
    });
    app.update(Action::Tick);
    app.update(Action::Tick);
    app.update(Action::Tick);
    assert_eq!(app.live.shown[0].depth, 2);
    // A line number beyond the count is ignored, not a crash.
    app.update(progress(40, 3, "h3e3"));
    // An engine failure turns the analysis off and says why, cleaned.
    app.update(Action::LiveFailed {
        search: id,
        message: "engine x crashed\u{1b}[2J".to_string(),
    });
    assert!(!app.live.on);
    let status = app.status.clone().unwrap();
    assert!(status.error);
    assert!(!status.text.contains('\u{1b}'), "{}", status.text);
}

#[test]
fn the_hint_engine_analyses_when_it_plays_the_game_and_its_name_is_cleaned() {
    let spec = crate::protocol::client::EngineSpec {
        name: "evil\u{1b}]0;title\u{7}".to_string(),
        command: "/nonexistent/engine".to_string(),
        args: Vec::new(),
        protocol: crate::protocol::client::EngineProtocol::Usi,
        options: Vec::new(),
    };
    let settings = Settings {
        engines: vec![spec],
        hint_engine: Some(0),
        ..Settings::default()
    };
    // A USI engine analyses shogi…
    let mut app = App::with_game(settings.clone(), StartOptions::for_game(GameKind::Shogi));
    app.take_effects();
    app.update(Action::ToggleLiveAnalysis);
    let effects = app.take_effects();
    assert!(
        matches!(
            effects.as_slice(),
            [Effect::StartLiveAnalysis {
                engine: Some(0),
                ..
            }]
        ),
        "{effects:?}"
    );
    assert!(!app.live.engine_name.chars().any(char::is_control));
    assert!(!app
        .status
        .as_ref()
        .unwrap()
        .text
        .chars()
        .any(char::is_control));
    // …but not xiangqi: the built-in engine does.
    let mut app = App::with_game(settings, StartOptions::for_game(GameKind::Xiangqi));
    app.take_effects();
    app.update(Action::ToggleLiveAnalysis);
    assert!(matches!(
        app.take_effects().as_slice(),
        [Effect::StartLiveAnalysis { engine: None, .. }]
    ));
    assert_eq!(app.live.engine_name, "qipan");
}

#[test]
fn the_configured_analysis_engine_analyses_before_the_hint_engine() {
    let engine = |name: &str, protocol| crate::protocol::client::EngineSpec {
        name: name.to_string(),
        command: "/nonexistent/engine".to_string(),
        args: Vec::new(),
        protocol,
        options: Vec::new(),
    };
    use crate::protocol::client::EngineProtocol;
    let settings = Settings {
        engines: vec![
            engine("hint", EngineProtocol::Uci),
            engine("analyst", EngineProtocol::Usi),
        ],
        hint_engine: Some(0),
        analysis_engine: Some(1),
        ..Settings::default()
    };
    let live_engine = |kind| {
        let mut app = App::with_game(settings.clone(), StartOptions::for_game(kind));
        app.take_effects();
        app.update(Action::ToggleLiveAnalysis);
        app.take_effects()
            .into_iter()
            .find_map(|effect| match effect {
                Effect::StartLiveAnalysis { engine, .. } => Some(engine),
                _ => None,
            })
    };
    // Shogi: the USI analysis engine; xiangqi (which it cannot play): the hint engine.
    assert_eq!(live_engine(GameKind::Shogi), Some(Some(1)));
    assert_eq!(live_engine(GameKind::Xiangqi), Some(Some(0)));

    // The whole-game analysis (`A`) asks the same engine as live analysis.
    let game_engine = |kind, first_move: &str| {
        let mut app = App::with_game(settings.clone(), StartOptions::for_game(kind));
        let play = app.play.as_mut().unwrap();
        let mv = parse_move(play.game.position(), first_move).expect(first_move);
        play.play_and_record(mv).expect(first_move);
        app.take_effects();
        app.update(Action::AnalyseGame);
        app.take_effects()
            .into_iter()
            .find_map(|effect| match effect {
                Effect::StartAnalysis(job) => Some(job.engine),
                _ => None,
            })
    };
    assert_eq!(game_engine(GameKind::Shogi, "7g7f"), Some(Some(1)));
    assert_eq!(game_engine(GameKind::Xiangqi, "h3e3"), Some(Some(0)));
}
