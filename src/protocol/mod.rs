//! Text protocols for other programs: UCI in Fairy-Stockfish's dialect, and USI for shogi.
//!
//! Both dialects share what is here: parsing `go`, running the search on a worker
//! thread (so `stop` and `isready` are read while it thinks), and writing `info`
//! lines from the search's reports.

pub mod client;
pub mod uci;
pub mod usi;

use crate::engine::{limits_for_level, Engine, Limits, Score, SearchInfo, MAX_LEVEL, MAX_LINES};
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::{Move, Position, Side};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The longest line read from an engine or a GUI: far above any real `info` or
/// `position … moves …` line, small enough that a line without end cannot fill memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One line read by [`read_bounded_line`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BoundedLine {
    /// A line (without its end), decoded lossily as UTF-8, control characters escaped.
    Line(String),
    /// A line longer than the limit: dropped unread past the limit; its length in bytes.
    TooLong(usize),
}

/// Reads the next line of `reader`, holding at most `limit` bytes of it: a longer line is
/// skipped up to its newline and answered as [`BoundedLine::TooLong`]. `None` at end of
/// input. The text is trimmed and made safe to print ([`crate::untrusted::escape`]).
pub fn read_bounded_line(
    reader: &mut dyn BufRead,
    limit: usize,
) -> std::io::Result<Option<BoundedLine>> {
    let mut line = Vec::new();
    let mut length = 0usize;
    let mut seen_any = false;
    loop {
        let available = match reader.fill_buf() {
            Ok(bytes) => bytes,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(error),
        };
        if available.is_empty() {
            if !seen_any {
                return Ok(None);
            }
            break;
        }
        seen_any = true;
        let (taken, ended) = match available.iter().position(|&b| b == b'\n') {
            Some(end) => (end + 1, true),
            None => (available.len(), false),
        };
        let content = &available[..if ended { taken - 1 } else { taken }];
        if length + content.len() <= limit {
            line.extend_from_slice(content);
        } else {
            line = Vec::new();
        }
        length += content.len();
        reader.consume(taken);
        if ended {
            break;
        }
    }
    if length > limit {
        return Ok(Some(BoundedLine::TooLong(length)));
    }
    let text = String::from_utf8_lossy(&line);
    Ok(Some(BoundedLine::Line(crate::untrusted::escape(
        text.trim(),
    ))))
}

/// An output shared by the command loop and the search thread.
pub type SharedOutput = Arc<Mutex<dyn Write + Send>>;

/// A writer into a [`SharedOutput`] that hands over whole lines only, so the lines of
/// the command loop and of the search thread never interleave mid-line.
pub struct LineWriter {
    shared: SharedOutput,
    pending: Vec<u8>,
}

impl LineWriter {
    /// A writer into `shared`.
    pub fn new(shared: SharedOutput) -> LineWriter {
        LineWriter {
            shared,
            pending: Vec::new(),
        }
    }
}

impl Write for LineWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.pending.extend_from_slice(bytes);
        if let Some(last) = self.pending.iter().rposition(|&b| b == b'\n') {
            let rest = self.pending.split_off(last + 1);
            let lines = std::mem::replace(&mut self.pending, rest);
            let mut out = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            out.write_all(&lines)?;
            out.flush()?;
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if !self.pending.is_empty() {
            let lines = std::mem::take(&mut self.pending);
            let mut out = self.shared.lock().unwrap_or_else(|e| e.into_inner());
            out.write_all(&lines)?;
        }
        self.shared
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .flush()
    }
}

/// Which dialect a search speaks when it reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// Fairy-Stockfish UCI: moves like `h3e3`, `P@e5`; `bestmove (none)` when there is no move.
    Uci,
    /// USI: moves like `7g7f`, `P*5e`; `bestmove resign` when there is no move.
    Usi,
}

impl Dialect {
    /// A move in this dialect's notation.
    pub fn move_text(self, position: &AnyPosition, mv: Move) -> String {
        match (self, position) {
            (Dialect::Usi, AnyPosition::Shogi(p)) => p.move_to_usi(mv),
            _ => position.move_to_uci(mv),
        }
    }
}

/// The `info` line for a completed depth; `multipv k` is written when the search reports
/// several lines (GUIs read a line without it as the best one).
pub fn info_line(
    dialect: Dialect,
    start: &AnyPosition,
    info: &SearchInfo,
    several_lines: bool,
) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(moves) => format!("mate {moves}"),
    };
    let millis = info.elapsed.as_millis().max(1) as u64;
    let nps = info.nodes * 1000 / millis;
    let multipv = if several_lines {
        format!(" multipv {}", info.multipv)
    } else {
        String::new()
    };
    let mut line = format!(
        "info depth {}{multipv} score {} nodes {} nps {} time {} pv",
        info.depth, score, info.nodes, nps, millis
    );
    let mut position = start.clone();
    for &mv in &info.principal_variation {
        let mut legal = crate::rules::MoveList::new();
        position.legal_moves(&mut legal);
        if !legal.contains(mv) {
            break;
        }
        line.push(' ');
        line.push_str(&dialect.move_text(&position, mv));
        position.play_unchecked(mv);
    }
    line
}

/// The words of a `go` command, read into limits. Unknown words are reported, not fatal.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Depth, nodes, move time, infinite.
    pub limits: Limits,
    /// `wtime` / `btime` (USI: `btime` is Sente's, `wtime` Gote's), first player first.
    pub time: [Option<Duration>; 2],
    /// `winc` / `binc`, first player first.
    pub increment: [Duration; 2],
    /// `byoyomi` (USI).
    pub byoyomi: Duration,
    /// Problems found while reading, for `info string`.
    pub problems: Vec<String>,
}

/// Reads the words after `go` (perft is handled by the caller).
pub fn parse_go(words: &[&str], dialect: Dialect) -> GoCommand {
    let mut go = GoCommand::default();
    // UCI: w = first player (Red, Cho, Sente in FSF); USI: b = Sente = first player.
    let (first_time, second_time, first_inc, second_inc) = match dialect {
        Dialect::Uci => ("wtime", "btime", "winc", "binc"),
        Dialect::Usi => ("btime", "wtime", "binc", "winc"),
    };
    let mut index = 0;
    while index < words.len() {
        let word = words[index];
        let number = words.get(index + 1).and_then(|w| w.parse::<i64>().ok());
        let millis = number.map(|n| Duration::from_millis(n.max(0) as u64));
        let mut takes_number = true;
        match word {
            "infinite" => {
                go.limits.infinite = true;
                takes_number = false;
            }
            "ponder" => takes_number = false,
            "depth" => go.limits.depth = number.map(|n| n.clamp(1, 90) as u32),
            "nodes" => go.limits.nodes = number.map(|n| n.max(1) as u64),
            "movetime" => go.limits.movetime = millis,
            "movestogo" => go.limits.moves_to_go = number.map(|n| n.clamp(1, 1000) as u32),
            "byoyomi" => go.byoyomi = millis.unwrap_or_default(),
            "mate" => {
                go.problems
                    .push("go mate is searched as an ordinary search".to_string());
            }
            w if w == first_time => go.time[0] = millis,
            w if w == second_time => go.time[1] = millis,
            w if w == first_inc => go.increment[0] = millis.unwrap_or_default(),
            w if w == second_inc => go.increment[1] = millis.unwrap_or_default(),
            other => {
                go.problems
                    .push(format!("go: ignored unknown word '{other}'"));
                takes_number = false;
            }
        }
        if takes_number {
            if number.is_none() {
                go.problems.push(format!("go: '{word}' needs a number"));
                index += 1;
            } else {
                index += 2;
            }
        } else {
            index += 1;
        }
    }
    go
}

impl GoCommand {
    /// The limits for the side to move, with the level's node cap and noise applied.
    pub fn limits_for(&self, side: Side, level: u8) -> Limits {
        let mut limits = self.limits;
        limits.time_left = self.time[side.index()];
        limits.increment = self.increment[side.index()];
        limits.byoyomi = self.byoyomi;
        if limits.time_left.is_none() && self.byoyomi > Duration::ZERO && limits.movetime.is_none()
        {
            limits.movetime = Some(self.byoyomi);
        }
        if level < MAX_LEVEL {
            let level_limits = limits_for_level(level, Duration::from_secs(3600));
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(level_limits.nodes.unwrap_or(u64::MAX), |n| {
                        n.min(level_limits.nodes.unwrap_or(u64::MAX))
                    }),
            );
            limits.noise = level_limits.noise;
            limits.seed = level_limits.seed;
        }
        limits
    }
}

/// Searches `game` and writes `info` lines and the `bestmove` line to `out`.
pub fn think(
    engine: &mut Engine,
    game: &Game,
    limits: Limits,
    stop: &AtomicBool,
    dialect: Dialect,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let start = game.position().clone();
    let mut failed = None;
    let several_lines = limits.multipv > 1;
    let best = engine.search(game, limits, stop, &mut |info| {
        let line = info_line(dialect, &start, info, several_lines);
        if let Err(error) = writeln!(out, "{line}") {
            failed = Some(error);
        }
    });
    if let Some(error) = failed {
        return Err(error);
    }
    match best {
        Some(mv) => writeln!(out, "bestmove {}", dialect.move_text(&start, mv))?,
        None => match dialect {
            Dialect::Uci => writeln!(out, "bestmove (none)")?,
            Dialect::Usi => writeln!(out, "bestmove resign")?,
        },
    }
    out.flush()
}

/// Plays the `moves` of a `position … moves …` command on `game`, reading each with
/// `parse`; at the first unreadable or illegal move it says why and keeps the game
/// as it was before that move (unlike Fairy-Stockfish, which stops silently).
pub fn replay_moves(
    game: &mut Game,
    moves: &[&str],
    parse: impl Fn(&AnyPosition, &str) -> Option<Move>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    for text in moves {
        let Some(mv) = parse(game.position(), text) else {
            return writeln!(
                out,
                "info string error: cannot read move '{text}'; position kept before it"
            );
        };
        if let Err(why) = game.play(mv) {
            return writeln!(
                out,
                "info string error: illegal move '{text}': {why}; position kept before it"
            );
        }
    }
    Ok(())
}

/// Starts a search for `go`: on a worker thread when the session has a shared output
/// (the command loop keeps reading `stop` and `isready`), otherwise here, with an
/// infinite search limited to one second so it returns.
pub fn start_search(
    engine: &Arc<Mutex<Engine>>,
    game: &Game,
    limits: Limits,
    dialect: Dialect,
    output: Option<&SharedOutput>,
    worker: &mut Option<Worker>,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match output {
        Some(output) => {
            *worker = Some(Worker::start(
                engine.clone(),
                game.clone(),
                limits,
                dialect,
                output.clone(),
            ));
            Ok(())
        }
        None => {
            let mut limits = limits;
            if limits.infinite {
                limits.infinite = false;
                limits.movetime = Some(Duration::from_secs(1));
            }
            let stop = AtomicBool::new(false);
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            think(&mut engine, game, limits, &stop, dialect, out)
        }
    }
}

/// What the command loop needs of a protocol session (UCI or USI).
pub trait Session {
    /// Handles one command line, writing replies to `out`.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<uci::Flow>;
    /// True while a search (or a perft) runs on the worker.
    fn searching(&self) -> bool;
    /// True when the running search has no end of its own (`go infinite`).
    fn search_is_infinite(&self) -> bool;
    /// Stops the running search at once and waits for its last lines.
    fn stop_search(&mut self);
}

/// Commands answered at once, even while a search runs.
const IMMEDIATE: [&str; 5] = ["quit", "stop", "isready", "ponderhit", "gameover"];

/// How often the loop looks whether a running search has ended.
const SEARCH_POLL: Duration = Duration::from_millis(10);

/// Reads command lines until `quit` or the end of input, answering through a shared line
/// writer. Both dialects run on it. Lines are read on their own thread, so `quit`,
/// `stop` and `isready` are answered at once even during a search or a perft; any other
/// command that arrives while a search runs waits, in order, until it ends (an infinite
/// search is stopped first, as it would never end). At the end of input a running search
/// is stopped (it still writes its `bestmove`) and the loop ends. Lines are bounded
/// ([`MAX_LINE_BYTES`]) and read lossily as UTF-8, never an error.
pub fn command_loop(
    input: impl BufRead + Send + 'static,
    shared: SharedOutput,
    session: &mut dyn Session,
) -> std::io::Result<()> {
    let (sender, receiver) = std::sync::mpsc::sync_channel::<Option<BoundedLine>>(64);
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let line = read_bounded_line(&mut input, MAX_LINE_BYTES).ok().flatten();
            let end = line.is_none();
            if sender.send(line).is_err() || end {
                return;
            }
        }
    });
    let mut writer = LineWriter::new(shared);
    let mut waiting: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut input_ended = false;
    loop {
        if !session.searching() {
            if let Some(line) = waiting.pop_front() {
                let flow = session.handle(&line, &mut writer)?;
                writer.flush()?;
                if flow == uci::Flow::Quit {
                    break;
                }
                continue;
            }
            if input_ended {
                break;
            }
        }
        if input_ended {
            session.stop_search();
            continue;
        }
        let message = if session.searching() {
            match receiver.recv_timeout(SEARCH_POLL) {
                Ok(message) => message,
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => continue,
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => None,
            }
        } else {
            receiver.recv().unwrap_or(None)
        };
        let line = match message {
            None => {
                input_ended = true;
                continue;
            }
            Some(BoundedLine::TooLong(bytes)) => {
                writeln!(
                    writer,
                    "info string error: a line of {bytes} bytes is too long; ignored"
                )?;
                writer.flush()?;
                continue;
            }
            Some(BoundedLine::Line(line)) => line,
        };
        let command = line.split_whitespace().next().unwrap_or("");
        if command.is_empty() {
            continue;
        }
        let busy = session.searching() || !waiting.is_empty();
        if busy && !IMMEDIATE.contains(&command) {
            if session.search_is_infinite() {
                session.stop_search();
            }
            waiting.push_back(line);
            continue;
        }
        let flow = session.handle(&line, &mut writer)?;
        writer.flush()?;
        if flow == uci::Flow::Quit {
            break;
        }
    }
    writer.flush()
}

/// A search running on its own thread.
pub struct Worker {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
    infinite: bool,
}

impl Worker {
    /// Starts searching `game` on a new thread; its lines go to `output`.
    pub fn start(
        engine: Arc<Mutex<Engine>>,
        game: Game,
        limits: Limits,
        dialect: Dialect,
        output: SharedOutput,
    ) -> Worker {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
            let mut writer = LineWriter::new(output);
            // A broken output (the GUI went away) ends the search quietly.
            let _ = think(&mut engine, &game, limits, &flag, dialect, &mut writer);
        });
        Worker {
            stop,
            handle: Some(handle),
            infinite: limits.infinite,
        }
    }

    /// Asks the search to stop at once (it still writes its `bestmove`).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True while the search thread runs.
    pub fn is_running(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// Waits for the search to end (an infinite search is stopped first, or this would never return).
    pub fn finish(&mut self) {
        if self.infinite {
            self.stop();
        }
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl Worker {
    /// Starts `go perft depth` on a new thread: each root move's count is written as it
    /// is known, then the total; [`Worker::stop`] ends it within moments (then no total).
    pub fn start_perft(position: AnyPosition, depth: u32, output: SharedOutput) -> Worker {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let handle = std::thread::spawn(move || {
            let mut writer = LineWriter::new(output);
            // A broken output (the GUI went away) ends the perft quietly.
            let _ = perft_lines(&position, depth, &flag, &mut writer);
        });
        Worker {
            stop,
            handle: Some(handle),
            infinite: false,
        }
    }

    /// True when the search has no end of its own.
    pub fn is_infinite(&self) -> bool {
        self.infinite
    }
}

/// Writes `go perft`'s lines (`h2e2: 44`, …, `Nodes searched: N`) unless stopped.
pub fn perft_lines(
    position: &AnyPosition,
    depth: u32,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut total = 0;
    let mut written = Ok(());
    let finished = if depth == 0 {
        total = 1;
        true
    } else {
        position.divide_stoppable(depth, &|| stop.load(Ordering::Relaxed), &mut |mv, count| {
            total += count;
            if written.is_ok() {
                written = writeln!(out, "{mv}: {count}").and_then(|()| out.flush());
            }
        })
    };
    written?;
    if finished {
        writeln!(out)?;
        writeln!(out, "Nodes searched: {total}")?;
    }
    out.flush()
}

/// Reads a `MultiPV` option value: how many best lines to report, 1 to [`MAX_LINES`].
pub fn parse_multipv(value: &str) -> Option<u32> {
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|n| (1..=MAX_LINES as i64).contains(n))
        .map(|n| n as u32)
}

/// Reads a `Skill Level`-style option value into a level 1–10.
pub fn parse_level(value: &str) -> Option<u8> {
    value
        .trim()
        .parse::<i64>()
        .ok()
        .map(|n| n.clamp(1, MAX_LEVEL as i64) as u8)
}
