//! The terminal client's search threads: the built-in engine or an external engine
//! thinks on a worker and answers with actions (progress reports, the move, or an
//! engine failure), so keys, clocks and resizing stay live.
//!
//! External engines are kept in an [`EnginePool`]: started on first use in a game,
//! reused for every later move of that game (both sides may share one), ended on a
//! new game and when the pool is dropped (quitting).

use crate::action::AnalysisAnswer;
use crate::action::Delivery;
use crate::analysis::{self, Analyser, AnalysisError, GameAnalysis};
use crate::app::review::AnalysisJob;
use crate::app::{Action, SearchReport};
use crate::engine::{self, Engine, Limits, SearchInfo};
use crate::i18n::Language;
use crate::protocol::client::{EngineError, EngineMove, EngineSpec, ExternalEngine};
use crate::record::games::ReadProgress;
use crate::record::library::{self, OpenRequest as RecordRequest};
use crate::rules::game::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// A started external engine and the game generation it belongs to.
struct Held {
    generation: u64,
    engine: ExternalEngine,
}

/// One slot per configured engine: the running process, if any.
type Slot = Arc<Mutex<Option<Held>>>;

/// The external engines of the current game, started when first asked for.
#[derive(Default)]
pub struct EnginePool {
    slots: Mutex<Vec<Slot>>,
    generation: Arc<AtomicU64>,
    /// The built-in engine of live analysis, made on first use; its transposition table
    /// is kept while the player browses, so a position seen before is answered deeper.
    live_engine: Arc<Mutex<Option<Engine>>>,
    /// The built-in CPU player and the game generation it has played in: its table and
    /// move-ordering memory carry from one of its moves to the next, as a protocol
    /// engine's do, and are forgotten when a new game starts.
    cpu_engine: Arc<Mutex<Option<(u64, Engine)>>>,
}

impl EnginePool {
    /// An empty pool.
    pub fn new() -> EnginePool {
        EnginePool::default()
    }

    /// Ends the engines of the last game. An engine busy on a worker is ended by that
    /// worker when it finishes (its generation is stale).
    pub fn reset(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        for slot in slots.iter() {
            if let Ok(mut held) = slot.try_lock() {
                *held = None;
            }
        }
    }

    fn slot(&self, index: usize) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        while slots.len() <= index {
            slots.push(Arc::new(Mutex::new(None)));
        }
        Arc::clone(&slots[index])
    }
}

impl EnginePool {
    /// Ends every engine, waiting up to `wait` for busy ones (their searches were told
    /// to stop and answer within moments); an engine still busy after that ends when its
    /// worker lets go of it, or at the latest when qipan's pipes close.
    pub fn shut_down(&self, wait: Duration) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        let deadline = Instant::now() + wait;
        let slots: Vec<Slot> = self.slots.lock().unwrap_or_else(|e| e.into_inner()).clone();
        for slot in slots {
            loop {
                if let Ok(mut held) = slot.try_lock() {
                    *held = None;
                    break;
                }
                if Instant::now() >= deadline {
                    break;
                }
                thread::sleep(Duration::from_millis(10));
            }
        }
    }
}

impl Drop for EnginePool {
    fn drop(&mut self) {
        self.shut_down(Duration::from_secs(2));
    }
}

/// Waits this long at least before a move is sent, so a very fast reply is seen as a move.
const SHOWN_AFTER: Duration = Duration::from_millis(250);

/// Searches `game` on a new thread with the pool's built-in CPU engine (kept from move to
/// move within a game) and answers on `sender`; `threads` search together when the level
/// has no node budget (level 10).
pub fn spawn_builtin(
    pool: &EnginePool,
    id: u64,
    game: Game,
    limits: Limits,
    threads: usize,
    stop: Arc<AtomicBool>,
    sender: Sender<Action>,
) {
    let kept = Arc::clone(&pool.cpu_engine);
    let generation = Arc::clone(&pool.generation);
    thread::spawn(move || {
        let started = Instant::now();
        let mut report = |info: &SearchInfo| {
            let report = Box::new(SearchReport::from_info(info));
            let _ = sender.send(Action::SearchProgress { search: id, report });
        };
        // A search stopped a moment ago (an undo) lets go of the engine within moments.
        let mut held = kept.lock().unwrap_or_else(|e| e.into_inner());
        let now = generation.load(Ordering::SeqCst);
        if held
            .as_ref()
            .is_some_and(|(played_in, _)| *played_in != now)
        {
            *held = None; // the engine of an earlier game
        }
        let (_, engine) = held.get_or_insert_with(|| (now, Engine::default()));
        engine.set_threads(threads);
        let mv = engine.search(&game, limits, &stop, &mut report);
        drop(held);
        if let Some(rest) = SHOWN_AFTER.checked_sub(started.elapsed()) {
            thread::sleep(rest);
        }
        if !stop.load(Ordering::Relaxed) {
            let _ = sender.send(Action::ComputerMove { search: id, mv });
        }
    });
}

/// What a worker needs to ask an external engine.
pub struct ExternalSearch {
    /// The search id to answer with.
    pub id: u64,
    /// The engine's index in the settings (its pool slot).
    pub index: usize,
    /// Its spec; `None` when the settings have no engine at that index.
    pub spec: Option<EngineSpec>,
    /// The game to search.
    pub game: Game,
    /// How much to think.
    pub limits: Limits,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
    /// The language of error messages.
    pub language: Language,
}

/// Searches on a new thread with an external engine from the pool (started if needed)
/// and answers on `sender`; a failure ends that engine and answers
/// [`Action::EngineFailed`].
pub fn spawn_external(pool: &EnginePool, search: ExternalSearch, sender: Sender<Action>) {
    let slot = pool.slot(search.index);
    let generation = Arc::clone(&pool.generation);
    thread::spawn(move || {
        let id = search.id;
        let answer = run_external(&slot, &generation, &search, &sender);
        if search.stop.load(Ordering::Relaxed) {
            return;
        }
        let action = match answer {
            Ok(EngineMove::Move(mv)) => Action::ComputerMove {
                search: id,
                mv: Some(mv),
            },
            Ok(EngineMove::NoMove) => Action::ComputerMove {
                search: id,
                mv: None,
            },
            Ok(EngineMove::Resign) => Action::EngineResigns { search: id },
            Ok(EngineMove::Win) => Action::EngineDeclaresWin { search: id },
            Err(error) => Action::EngineFailed {
                search: id,
                message: error.message(search.language),
            },
        };
        let _ = sender.send(action);
    });
}

fn run_external(
    slot: &Slot,
    generation: &AtomicU64,
    search: &ExternalSearch,
    sender: &Sender<Action>,
) -> Result<EngineMove, EngineError> {
    let Some(spec) = &search.spec else {
        return Err(EngineError::Missing {
            name: format!("#{}", search.index + 1),
            command: String::new(),
        });
    };
    let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
    let now = generation.load(Ordering::SeqCst);
    if held.as_ref().is_some_and(|h| h.generation != now) {
        *held = None; // an engine of an earlier game
    }
    if held.is_none() {
        let engine = ExternalEngine::start(spec)?;
        *held = Some(Held {
            generation: now,
            engine,
        });
    }
    let Some(current) = held.as_mut() else {
        unreachable!("the engine was just started");
    };
    let id = search.id;
    let started = Instant::now();
    let result = current
        .engine
        .search(&search.game, &search.limits, &search.stop, &mut |report| {
            let report = Box::new(report);
            let _ = sender.send(Action::SearchProgress { search: id, report });
        });
    if result.is_err() {
        *held = None; // a failed engine is ended; the next use starts it afresh
    }
    drop(held);
    if let Some(rest) = SHOWN_AFTER.checked_sub(started.elapsed()) {
        thread::sleep(rest);
    }
    result
}

/// The least time between two progress reports of a record being read: often enough
/// to look alive, rarely enough not to flood the event loop.
const PROGRESS_EVERY: Duration = Duration::from_millis(100);

/// Reads the record `request` names on a new thread: [`Action::RecordProgress`] now and
/// then (bytes read, then the games found; at most one per `PROGRESS_EVERY`, the
/// first at once), then [`Action::RecordRead`]. When `stop` is set the reader stops at
/// its next check (every 256 KiB, and between reading, splitting and parsing) and
/// sends nothing more. Returns the thread, for tests that wait for it.
pub fn spawn_record_reader(
    id: u64,
    request: RecordRequest,
    stop: Arc<AtomicBool>,
    sender: Sender<Action>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut last_report: Option<Instant> = None;
        let mut watch = |progress: ReadProgress| {
            if stop.load(Ordering::Relaxed) {
                return false;
            }
            let due = last_report.is_none_or(|at| at.elapsed() >= PROGRESS_EVERY);
            // The count of games is worth a report whenever it comes.
            if due || matches!(progress, ReadProgress::Games(_)) {
                last_report = Some(Instant::now());
                let _ = sender.send(Action::RecordProgress {
                    opening: id,
                    progress,
                });
            }
            true
        };
        let read = library::read_for_opening(&request, &mut watch);
        if stop.load(Ordering::Relaxed) {
            return;
        }
        if let Some(file) = read {
            let _ = sender.send(Action::RecordRead {
                opening: id,
                file: Delivery::new(file),
            });
        }
    })
}

/// Runs a whole-game analysis on a new thread and answers on `sender` (see
/// [`run_analysis`]).
pub fn spawn_analysis(
    job: AnalysisJob,
    spec: Option<EngineSpec>,
    language: Language,
    sender: Sender<Action>,
) {
    thread::spawn(move || {
        run_analysis(job, spec, language, &mut |action| {
            let _ = sender.send(action);
        })
    });
}

/// The analysis of `job` with the built-in engine (a transposition table of
/// [`ANALYSIS_HASH_MEGABYTES`] kept along the line, as `qipan analyse` does) or, given
/// its spec, an external engine started for it and ended after. Progress goes to `send`
/// as [`Action::AnalysisProgress`], the result as [`Action::AnalysisFinished`]; a
/// stopped analysis says nothing more.
pub fn run_analysis(
    job: AnalysisJob,
    spec: Option<EngineSpec>,
    language: Language,
    send: &mut dyn FnMut(Action),
) {
    let id = job.id;
    let finished = |answer: Result<GameAnalysis, String>| Action::AnalysisFinished {
        analysis: id,
        answer: Box::new(AnalysisAnswer(answer)),
    };
    let mut builtin;
    let mut external;
    let mut analyser = match spec {
        None => {
            builtin = engine::Engine::new(ANALYSIS_HASH_MEGABYTES);
            Analyser::BuiltIn(&mut builtin)
        }
        Some(spec) => match ExternalEngine::start(&spec) {
            Ok(started) => {
                external = started;
                Analyser::External(&mut external)
            }
            Err(error) => {
                send(finished(Err(error.message(language))));
                return;
            }
        },
    };
    let result = if job.candidates.is_empty() {
        analysis::analyse(
            &mut analyser,
            &job.start,
            &job.moves,
            job.settings,
            &job.stop,
            &mut |step| {
                send(Action::AnalysisProgress {
                    analysis: id,
                    done: step.done,
                    total: step.total,
                })
            },
        )
    } else {
        analysis::compare(
            &mut analyser,
            &job.start,
            &job.moves,
            &job.candidates,
            job.settings.budget,
            &job.stop,
        )
    };
    if job.stop.load(Ordering::Relaxed) {
        return;
    }
    let answer = result.map_err(|error| match error {
        AnalysisError::Engine(error) => error.message(language),
        other => other.to_string(),
    });
    send(finished(answer));
}

/// The transposition table of the client's analysis, as `qipan analyse` has it.
pub const ANALYSIS_HASH_MEGABYTES: usize = 64;

/// What a worker needs for a live analysis search.
pub struct LiveSearch {
    /// The search id to answer with.
    pub id: u64,
    /// The external engine's index in the settings and its spec; `None` for the built-in engine.
    pub engine: Option<(usize, Option<EngineSpec>)>,
    /// The game up to the position to analyse.
    pub game: Game,
    /// How many best lines (MultiPV).
    pub lines: u32,
    /// A node limit (tests); `None` searches until stopped.
    pub node_limit: Option<u64>,
    /// Threads of the built-in engine (`cpu.threads`).
    pub threads: usize,
    /// Set to stop.
    pub stop: Arc<AtomicBool>,
    /// The language of error messages.
    pub language: Language,
}

/// Runs a live analysis search on a new thread: every line's progress goes out as
/// [`Action::LiveProgress`]; a search that ends by itself (its node limit, a mate seen
/// to the end) answers [`Action::LiveFinished`]; a failed external engine answers
/// [`Action::LiveFailed`] and is ended. A stopped search goes quiet.
pub fn spawn_live(pool: &EnginePool, search: LiveSearch, sender: Sender<Action>) {
    let limits = Limits {
        infinite: search.node_limit.is_none(),
        nodes: search.node_limit,
        multipv: search.lines.max(1),
        ..Limits::default()
    };
    let id = search.id;
    match &search.engine {
        None => {
            let engine = Arc::clone(&pool.live_engine);
            thread::spawn(move || {
                let mut held = engine.lock().unwrap_or_else(|e| e.into_inner());
                let engine = held.get_or_insert_with(Engine::default);
                engine.set_threads(search.threads);
                let mut report = |info: &SearchInfo| {
                    let _ = sender.send(Action::LiveProgress {
                        search: id,
                        line: info.multipv,
                        report: Box::new(SearchReport::from_info(info)),
                    });
                };
                let outcome = engine.search_lines(&search.game, limits, &search.stop, &mut report);
                drop(held);
                if !search.stop.load(Ordering::Relaxed) {
                    let lines = outcome.map_or_else(Vec::new, |outcome| {
                        outcome.lines.iter().map(SearchReport::from_info).collect()
                    });
                    let _ = sender.send(Action::LiveFinished { search: id, lines });
                }
            });
        }
        Some((index, _)) => {
            let slot = pool.slot(*index);
            let generation = Arc::clone(&pool.generation);
            thread::spawn(move || {
                let answer = run_external_live(&slot, &generation, &search, limits, &sender);
                if search.stop.load(Ordering::Relaxed) {
                    return;
                }
                let action = match answer {
                    Ok(lines) => Action::LiveFinished { search: id, lines },
                    Err(error) => Action::LiveFailed {
                        search: id,
                        message: error.message(search.language),
                    },
                };
                let _ = sender.send(action);
            });
        }
    }
}

fn run_external_live(
    slot: &Slot,
    generation: &AtomicU64,
    search: &LiveSearch,
    limits: Limits,
    sender: &Sender<Action>,
) -> Result<Vec<SearchReport>, EngineError> {
    let Some((index, spec)) = &search.engine else {
        return Ok(Vec::new());
    };
    let Some(spec) = spec else {
        return Err(EngineError::Missing {
            name: format!("#{}", index + 1),
            command: String::new(),
        });
    };
    let mut held = slot.lock().unwrap_or_else(|e| e.into_inner());
    let now = generation.load(Ordering::SeqCst);
    if held.as_ref().is_some_and(|h| h.generation != now) {
        *held = None; // an engine of an earlier game
    }
    if held.is_none() {
        *held = Some(Held {
            generation: now,
            engine: ExternalEngine::start(spec)?,
        });
    }
    let Some(current) = held.as_mut() else {
        unreachable!("the engine was just started");
    };
    let id = search.id;
    let result = current.engine.search_lines(
        &search.game,
        &limits,
        search.lines,
        &search.stop,
        &mut |line, report| {
            let _ = sender.send(Action::LiveProgress {
                search: id,
                line,
                report: Box::new(report.clone()),
            });
        },
    );
    if result.is_err() {
        *held = None; // a failed engine is ended; the next use starts it afresh
    }
    result.map(|(_, lines)| lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::client::EngineProtocol;
    use crate::rules::any::Variant;
    use std::sync::mpsc::channel;

    #[test]
    fn a_missing_engine_answers_engine_failed_and_a_stopped_search_stays_silent() {
        let pool = EnginePool::new();
        let (sender, receiver) = channel();
        let spec = EngineSpec {
            name: "ghost".to_string(),
            command: "/nonexistent/ghost-engine".to_string(),
            args: Vec::new(),
            protocol: EngineProtocol::Uci,
            options: Vec::new(),
        };
        let search = |id, stop: bool| ExternalSearch {
            id,
            index: 0,
            spec: Some(spec.clone()),
            game: Game::from_variant(Variant::Xiangqi),
            limits: Limits::default(),
            stop: Arc::new(AtomicBool::new(stop)),
            language: Language::English,
        };
        spawn_external(&pool, search(7, false), sender.clone());
        let answer = receiver.recv_timeout(Duration::from_secs(5)).unwrap();
        let Action::EngineFailed { search: 7, message } = answer else {
            panic!("{answer:?}");
        };
        assert!(message.contains("/nonexistent/ghost-engine"), "{message}");
        spawn_external(&pool, search(8, true), sender);
        assert!(receiver.recv_timeout(Duration::from_millis(500)).is_err());
        pool.shut_down(Duration::from_secs(1));
    }

    #[test]
    fn the_cpu_engine_keeps_its_table_between_its_moves_and_forgets_it_in_a_new_game() {
        let pool = EnginePool::new();
        let (sender, receiver) = channel();
        let game = Game::from_variant(Variant::Janggi(crate::rules::janggi::JanggiRules::KJA));
        let limits = Limits {
            depth: Some(6),
            ..Limits::default()
        };
        // The nodes of the last depth reported before the move comes.
        let search = |id: u64| -> u64 {
            let stop = Arc::new(AtomicBool::new(false));
            spawn_builtin(&pool, id, game.clone(), limits, 1, stop, sender.clone());
            let mut nodes = 0;
            loop {
                match receiver.recv_timeout(Duration::from_secs(60)).unwrap() {
                    Action::SearchProgress { search, report } if search == id => {
                        nodes = report.nodes
                    }
                    Action::ComputerMove { search, mv } if search == id => {
                        assert!(mv.is_some());
                        return nodes;
                    }
                    other => panic!("{other:?}"),
                }
            }
        };
        let first = search(1);
        let again = search(2);
        assert!(
            again < first,
            "the table answers the same position sooner: {again} vs {first}"
        );
        pool.reset();
        assert_eq!(search(3), first, "a new game starts from nothing");
    }
}
