//! The other side of the protocols: qipan driving an external engine process
//! (Fairy-Stockfish, a USI shogi engine, or qipan itself) as an opponent or for hints.
//!
//! [`ExternalEngine`] spawns the command, does the handshake, sends positions in the
//! engine's coordinates (UCI in Fairy-Stockfish's dialect, ranks 1–10; or USI for
//! shogi, see FORMATS.md §1.1 and §3.4), reads `info … pv` and `bestmove`, and checks
//! the move with the rules engine. Every read has a timeout (a reader thread feeds a
//! channel), so a silent, crashed or missing engine is a clear [`EngineError`], never
//! a hang. Dropping the engine sends `quit` and kills the process.

use super::{read_bounded_line, BoundedLine, Dialect, MAX_LINE_BYTES};
use crate::engine::report::SearchReport;
use crate::engine::{Limits, Score};
use crate::i18n::{Key, Language};
use crate::rules::any::{AnyPosition, GameKind, Variant};
use crate::rules::game::Game;
use crate::rules::{Move, MoveList, Position};
use crate::untrusted;
use std::fmt;
use std::io::{BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The protocol an external engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EngineProtocol {
    /// UCI in Fairy-Stockfish's dialect (`UCI_Variant`, ranks 1–10): every game.
    Uci,
    /// USI: shogi only.
    Usi,
}

impl EngineProtocol {
    /// The protocol's name as configs and messages write it.
    pub fn name(self) -> &'static str {
        match self {
            EngineProtocol::Uci => "uci",
            EngineProtocol::Usi => "usi",
        }
    }

    fn dialect(self) -> Dialect {
        match self {
            EngineProtocol::Uci => Dialect::Uci,
            EngineProtocol::Usi => Dialect::Usi,
        }
    }
}

/// How to start and set up an external engine (a config `[[engines]]` entry or `--engine`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// The name shown on the start screen.
    pub name: String,
    /// The executable (a path, or a name looked up in `PATH`).
    pub command: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// UCI or USI.
    pub protocol: EngineProtocol,
    /// `setoption` name/value pairs sent after the handshake.
    pub options: Vec<(String, String)>,
}

impl EngineSpec {
    /// Reads the `--engine` flag: `NAME=COMMAND ARGS…`. The protocol is USI when the
    /// name or the command says `usi`, else UCI.
    pub fn from_flag(text: &str) -> Result<EngineSpec, String> {
        let Some((name, command_line)) = text.split_once('=') else {
            return Err(format!(
                "--engine '{text}': expected NAME=COMMAND [ARGS], e.g. fsf=/usr/games/fairy-stockfish"
            ));
        };
        let name = name.trim();
        let mut words = command_line.split_whitespace().map(str::to_string);
        let Some(command) = words.next() else {
            return Err(format!(
                "--engine '{text}': the command is missing after '='"
            ));
        };
        if name.is_empty() {
            return Err(format!("--engine '{text}': the name before '=' is empty"));
        }
        let says_usi = |s: &str| s.to_ascii_lowercase().contains("usi");
        let protocol = if says_usi(name) || says_usi(command_line) {
            EngineProtocol::Usi
        } else {
            EngineProtocol::Uci
        };
        Ok(EngineSpec {
            name: name.to_string(),
            command,
            args: words.collect(),
            protocol,
            options: Vec::new(),
        })
    }

    /// True when this engine can play the variant (USI engines play shogi only; a UCI
    /// engine's own variant list is checked at the handshake).
    pub fn can_play(&self, variant: Variant) -> bool {
        self.protocol == EngineProtocol::Uci || variant.kind() == GameKind::Shogi
    }
}

/// How long each wait may last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timeouts {
    /// From start to `uciok`/`usiok`.
    pub handshake: Duration,
    /// From `isready` to `readyok`.
    pub ready: Duration,
    /// From `stop` to `bestmove`.
    pub stop: Duration,
    /// Extra time over the move's budget before the engine is told to stop.
    pub grace: Duration,
}

impl Default for Timeouts {
    fn default() -> Self {
        Timeouts {
            handshake: Duration::from_secs(10),
            ready: Duration::from_secs(10),
            stop: Duration::from_secs(3),
            grace: Duration::from_secs(5),
        }
    }
}

/// Why an external engine failed. Every variant names the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// The executable does not exist.
    Missing {
        /// Engine name.
        name: String,
        /// The command that was not found.
        command: String,
    },
    /// The process could not be started for another reason.
    Spawn {
        /// Engine name.
        name: String,
        /// The system's reason.
        reason: String,
    },
    /// The engine exited or closed its output.
    Crashed {
        /// Engine name.
        name: String,
        /// What qipan was waiting for.
        waiting_for: &'static str,
    },
    /// No answer in time.
    Timeout {
        /// Engine name.
        name: String,
        /// What qipan was waiting for.
        waiting_for: &'static str,
        /// How long it waited.
        seconds: u64,
    },
    /// The engine's move is not legal (or not readable) in the position.
    IllegalMove {
        /// Engine name.
        name: String,
        /// The move as the engine wrote it.
        text: String,
    },
    /// The engine wrote a line longer than [`MAX_LINE_BYTES`] (dropped unread).
    LineTooLong {
        /// Engine name.
        name: String,
        /// The line's length in bytes.
        bytes: usize,
    },
    /// The engine command names a folder or a file that cannot be run.
    NotAProgram {
        /// Engine name.
        name: String,
        /// The command.
        command: String,
    },
    /// The engine cannot play this game.
    Unsupported {
        /// Engine name.
        name: String,
        /// The rule set.
        variant: &'static str,
    },
}

impl EngineError {
    /// The message in the interface language.
    pub fn message(&self, language: Language) -> String {
        // Names and commands come from the config, move text from the engine: escaped.
        let message = match self {
            EngineError::Missing { name, command } => {
                language.format(Key::EngineMissing, &[name, command])
            }
            EngineError::Spawn { name, reason } => {
                language.format(Key::EngineSpawnFailed, &[name, reason])
            }
            EngineError::Crashed { name, waiting_for } => {
                language.format(Key::EngineCrashed, &[name, waiting_for])
            }
            EngineError::Timeout {
                name,
                waiting_for,
                seconds,
            } => language.format(
                Key::EngineTimeout,
                &[name, &seconds.to_string(), waiting_for],
            ),
            EngineError::IllegalMove { name, text } => {
                language.format(Key::EngineIllegalMove, &[name, text])
            }
            EngineError::Unsupported { name, variant } => {
                language.format(Key::EngineUnsupported, &[name, variant])
            }
            EngineError::LineTooLong { name, bytes } => {
                language.format(Key::EngineLineTooLong, &[name, &bytes.to_string()])
            }
            EngineError::NotAProgram { name, command } => {
                language.format(Key::EngineNotAProgram, &[name, command])
            }
        };
        untrusted::escape(&message)
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message(Language::English))
    }
}

impl std::error::Error for EngineError {}

/// How many engine lines wait between the reader thread and qipan (then the engine waits).
const LINE_QUEUE: usize = 1024;

/// The most MultiPV lines whose reports are throttled apart (more share the last slot).
const MAX_REPORTED_LINES: usize = 64;

/// The shortest time between two progress reports of one line of a search.
const REPORT_INTERVAL: Duration = Duration::from_millis(50);

/// The engine's answer to `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EngineMove {
    /// A legal move.
    Move(Move),
    /// `bestmove resign`.
    Resign,
    /// `bestmove win` (USI: the entering-king declaration).
    Win,
    /// `bestmove (none)` / `0000`: the engine sees no move.
    NoMove,
}

/// A running external engine process.
pub struct ExternalEngine {
    spec: EngineSpec,
    timeouts: Timeouts,
    child: Child,
    input: ChildStdin,
    lines: Receiver<BoundedLine>,
    /// Values of the engine's `UCI_Variant` combo, when it has one.
    variants: Option<Vec<String>>,
    /// The variant the engine was last set up for.
    variant: Option<Variant>,
    /// The name of the engine's MultiPV option (`MultiPV`, or USI's `USI_MultiPV`), when
    /// it offers one.
    multipv_option: Option<String>,
    /// The MultiPV value qipan last set (`None`: never set, the engine's own or the spec's).
    multipv: Option<u32>,
}

/// One `info` line of an external engine, read.
struct InfoLine {
    /// Which of the best lines it reports (1 when the engine does not say).
    multipv: u32,
    /// True for `lowerbound`/`upperbound` scores (a window failed; not the line's value).
    bound: bool,
    /// The depth, score, nodes and line.
    report: SearchReport,
}

impl fmt::Debug for ExternalEngine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ExternalEngine")
            .field("name", &self.spec.name)
            .field("pid", &self.child.id())
            .finish()
    }
}

impl ExternalEngine {
    /// Starts the engine with the default timeouts and does the handshake.
    pub fn start(spec: &EngineSpec) -> Result<ExternalEngine, EngineError> {
        ExternalEngine::start_with(spec, Timeouts::default())
    }

    /// Starts the engine, does the handshake (`uci`/`uciok` or `usi`/`usiok`), sends the
    /// spec's options and waits for `readyok`.
    pub fn start_with(
        spec: &EngineSpec,
        timeouts: Timeouts,
    ) -> Result<ExternalEngine, EngineError> {
        if Path::new(&spec.command).is_dir() {
            return Err(EngineError::NotAProgram {
                name: spec.name.clone(),
                command: spec.command.clone(),
            });
        }
        log::info!(
            target: "engine",
            "starting {}: {:?} {:?} ({:?})",
            spec.name,
            spec.command,
            spec.args,
            spec.protocol
        );
        let mut child = Command::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .inspect_err(
                |error| log::error!(target: "engine", "{} did not start: {error}", spec.name),
            )
            .map_err(|error| match error.kind() {
                std::io::ErrorKind::NotFound => EngineError::Missing {
                    name: spec.name.clone(),
                    command: spec.command.clone(),
                },
                std::io::ErrorKind::PermissionDenied => EngineError::NotAProgram {
                    name: spec.name.clone(),
                    command: spec.command.clone(),
                },
                _ => EngineError::Spawn {
                    name: spec.name.clone(),
                    reason: error.to_string(),
                },
            })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(EngineError::Spawn {
                name: spec.name.clone(),
                reason: "no pipes to the process".to_string(),
            });
        };
        // A bounded queue: an engine flooding lines waits for qipan to read them instead
        // of filling qipan's memory, and no line is held past MAX_LINE_BYTES.
        let (sender, lines) = sync_channel(LINE_QUEUE);
        let name = spec.name.clone();
        thread::spawn(move || {
            let mut reader = BufReader::new(output);
            while let Ok(Some(line)) = read_bounded_line(&mut reader, MAX_LINE_BYTES) {
                if let BoundedLine::Line(text) = &line {
                    log::debug!(target: "engine", "from {name}: {text}");
                }
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut engine = ExternalEngine {
            spec: spec.clone(),
            timeouts,
            child,
            input,
            lines,
            variants: None,
            variant: None,
            multipv_option: None,
            multipv: None,
        };
        engine.handshake()?;
        Ok(engine)
    }

    /// The spec it was started from.
    pub fn spec(&self) -> &EngineSpec {
        &self.spec
    }

    fn handshake(&mut self) -> Result<(), EngineError> {
        let (hello, ok) = match self.spec.protocol {
            EngineProtocol::Uci => ("uci", "uciok"),
            EngineProtocol::Usi => ("usi", "usiok"),
        };
        self.send(hello, ok)?;
        let deadline = Instant::now() + self.timeouts.handshake;
        loop {
            let line = self.read_line(deadline, ok, self.timeouts.handshake)?;
            if line == ok {
                break;
            }
            if let Some(rest) = line.strip_prefix("option name UCI_Variant ") {
                let values = rest
                    .split_whitespace()
                    .collect::<Vec<_>>()
                    .windows(2)
                    .filter(|pair| pair[0] == "var")
                    .map(|pair| pair[1].to_string())
                    .collect();
                self.variants = Some(values);
            }
            if let Some(rest) = line.strip_prefix("option name ") {
                let name = rest.split_whitespace().next().unwrap_or("");
                if name.eq_ignore_ascii_case("MultiPV") || name.eq_ignore_ascii_case("USI_MultiPV")
                {
                    // YaneuraOu-style `MultiPV` is preferred when both are offered.
                    if self.multipv_option.is_none() || name.eq_ignore_ascii_case("MultiPV") {
                        self.multipv_option = Some(name.to_string());
                    }
                }
            }
        }
        for (name, value) in self.spec.options.clone() {
            self.send(&format!("setoption name {name} value {value}"), ok)?;
        }
        self.wait_ready()
    }

    /// Sends a line; a closed pipe means the engine is gone.
    fn send(&mut self, line: &str, waiting_for: &'static str) -> Result<(), EngineError> {
        log::debug!(target: "engine", "to {}: {line}", self.spec.name);
        let written = writeln!(self.input, "{line}").and_then(|()| self.input.flush());
        written.map_err(|_| self.crashed(waiting_for))
    }

    fn crashed(&self, waiting_for: &'static str) -> EngineError {
        EngineError::Crashed {
            name: self.spec.name.clone(),
            waiting_for,
        }
    }

    /// A line the reader thread passed on, or the fault of a line too long.
    fn accept(&self, line: BoundedLine) -> Result<String, EngineError> {
        match line {
            BoundedLine::Line(line) => Ok(line),
            BoundedLine::TooLong(bytes) => Err(EngineError::LineTooLong {
                name: self.spec.name.clone(),
                bytes,
            }),
        }
    }

    /// The next line before `deadline`.
    fn read_line(
        &mut self,
        deadline: Instant,
        waiting_for: &'static str,
        allowed: Duration,
    ) -> Result<String, EngineError> {
        let left = deadline.saturating_duration_since(Instant::now());
        let result = match self.lines.recv_timeout(left) {
            Ok(line) => self.accept(line),
            Err(RecvTimeoutError::Disconnected) => Err(self.crashed(waiting_for)),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout {
                name: self.spec.name.clone(),
                waiting_for,
                seconds: allowed.as_secs().max(1),
            }),
        };
        if let Err(error) = &result {
            log::error!(target: "engine", "{}: {error:?}", self.spec.name);
        }
        result
    }

    fn wait_ready(&mut self) -> Result<(), EngineError> {
        self.send("isready", "readyok")?;
        let deadline = Instant::now() + self.timeouts.ready;
        while self.read_line(deadline, "readyok", self.timeouts.ready)? != "readyok" {}
        Ok(())
    }

    /// Sets the engine up for a new game of `variant` (UCI: `UCI_Variant` when the engine
    /// offers it, `ucinewgame`; USI: `usinewgame`).
    pub fn new_game(&mut self, variant: Variant) -> Result<(), EngineError> {
        let unsupported = || EngineError::Unsupported {
            name: self.spec.name.clone(),
            variant: variant.protocol_name(),
        };
        match self.spec.protocol {
            EngineProtocol::Usi => {
                if variant.kind() != GameKind::Shogi {
                    return Err(unsupported());
                }
                self.send("usinewgame", "readyok")?;
            }
            EngineProtocol::Uci => {
                if let Some(variants) = &self.variants {
                    if !variants.iter().any(|v| v == variant.protocol_name()) {
                        return Err(unsupported());
                    }
                    let line = format!(
                        "setoption name UCI_Variant value {}",
                        variant.protocol_name()
                    );
                    self.send(&line, "readyok")?;
                }
                self.send("ucinewgame", "readyok")?;
            }
        }
        self.variant = Some(variant);
        self.wait_ready()
    }

    /// The `position` command for the game, in the engine's coordinates.
    pub fn position_command(&self, game: &Game) -> String {
        let dialect = self.spec.protocol.dialect();
        let start = game.start();
        let mut command = match (self.spec.protocol, start) {
            (EngineProtocol::Usi, AnyPosition::Shogi(shogi)) => {
                format!("position sfen {}", shogi.sfen())
            }
            _ => format!("position fen {}", start.fen()),
        };
        if !game.moves().is_empty() {
            command.push_str(" moves");
            for (position, &mv) in game.positions().iter().zip(game.moves()) {
                command.push(' ');
                command.push_str(&dialect.move_text(position, mv));
            }
        }
        command
    }

    /// The `go` command for the limits (`movetime`, clock times, `byoyomi`, nodes, depth).
    pub fn go_command(&self, limits: &Limits) -> String {
        let mut words = vec!["go".to_string()];
        let millis = |d: Duration| d.as_millis().to_string();
        let usi = self.spec.protocol == EngineProtocol::Usi;
        if let Some(left) = limits.time_left {
            // The other side's time is not known here: it gets the same.
            let (first, second, first_inc, second_inc) = if usi {
                ("btime", "wtime", "binc", "winc")
            } else {
                ("wtime", "btime", "winc", "binc")
            };
            for (word, value) in [(first, left), (second, left)] {
                words.push(format!("{word} {}", millis(value)));
            }
            if limits.increment > Duration::ZERO {
                for word in [first_inc, second_inc] {
                    words.push(format!("{word} {}", millis(limits.increment)));
                }
            }
            if limits.byoyomi > Duration::ZERO {
                words.push(format!("byoyomi {}", millis(limits.byoyomi)));
            }
        } else if let Some(movetime) = limits.movetime {
            if usi {
                words.push(format!("btime 0 wtime 0 byoyomi {}", millis(movetime)));
            } else {
                words.push(format!("movetime {}", millis(movetime)));
            }
        }
        if let Some(nodes) = limits.nodes {
            words.push(format!("nodes {nodes}"));
        }
        if let Some(depth) = limits.depth {
            words.push(format!("depth {depth}"));
        }
        if limits.infinite {
            // Live analysis: until `stop`.
            words.truncate(1);
            words.push("infinite".to_string());
        }
        if words.len() == 1 {
            words.push(if usi {
                "btime 0 wtime 0 byoyomi 1000".to_string()
            } else {
                "movetime 1000".to_string()
            });
        }
        words.join(" ")
    }

    /// How long a search may take before the engine is told to stop.
    fn budget(&self, limits: &Limits) -> Duration {
        if limits.infinite {
            // Only the stop flag ends an endless search (a day is as good as never).
            return Duration::from_secs(24 * 60 * 60);
        }
        let own = match (limits.movetime, limits.time_left) {
            (Some(movetime), _) => movetime,
            (None, Some(left)) => left / 10 + limits.byoyomi + limits.increment,
            (None, None) if limits.nodes.is_some() || limits.depth.is_some() => {
                Duration::from_secs(60)
            }
            (None, None) => Duration::from_secs(1),
        };
        own + self.timeouts.grace
    }

    /// Searches the game's position: sends `position` and `go`, reports each `info … pv`
    /// line of the best line, and returns the checked `bestmove`. Setting `stop` sends
    /// `stop` and returns the answer given then (bounded by the stop timeout).
    pub fn search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        report: &mut dyn FnMut(SearchReport),
    ) -> Result<EngineMove, EngineError> {
        if self.multipv.is_some_and(|lines| lines != 1) {
            self.set_multipv(1)?;
        }
        self.run_search(game, limits, stop, &mut |info| {
            if info.multipv == 1 {
                report(info.report);
            }
        })
    }

    /// True when the engine offers a MultiPV option (so [`ExternalEngine::search_lines`]
    /// can ask it for more than one line).
    pub fn offers_multipv(&self) -> bool {
        self.multipv_option.is_some()
    }

    /// Searches like [`ExternalEngine::search`] for the `lines` best lines (MultiPV, when
    /// the engine offers it; one line otherwise). `report` hears every line's progress
    /// with its number (1 = best). Returns the `bestmove` and the last exact report of
    /// each line, best first.
    pub fn search_lines(
        &mut self,
        game: &Game,
        limits: &Limits,
        lines: u32,
        stop: &AtomicBool,
        report: &mut dyn FnMut(u32, &SearchReport),
    ) -> Result<(EngineMove, Vec<SearchReport>), EngineError> {
        let lines = if self.offers_multipv() {
            lines.max(1)
        } else {
            1
        };
        if self.offers_multipv() && self.multipv != Some(lines) {
            self.set_multipv(lines)?;
        }
        let mut last: Vec<Option<SearchReport>> = vec![None; lines as usize];
        let answer = self.run_search(game, limits, stop, &mut |info| {
            report(info.multipv, &info.report);
            if info.bound {
                return;
            }
            if let Some(slot) = last.get_mut(info.multipv as usize - 1) {
                *slot = Some(info.report);
            }
        })?;
        Ok((answer, last.into_iter().map_while(|line| line).collect()))
    }

    /// Sends `setoption name MultiPV value N` (under the engine's own option name).
    fn set_multipv(&mut self, lines: u32) -> Result<(), EngineError> {
        let Some(name) = self.multipv_option.clone() else {
            return Ok(());
        };
        self.send(&format!("setoption name {name} value {lines}"), "readyok")?;
        self.multipv = Some(lines);
        Ok(())
    }

    fn run_search(
        &mut self,
        game: &Game,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(InfoLine),
    ) -> Result<EngineMove, EngineError> {
        if self.variant != Some(game.variant()) {
            self.new_game(game.variant())?;
        }
        let position_line = self.position_command(game);
        self.send(&position_line, "bestmove")?;
        self.wait_ready()?;
        let go = self.go_command(limits);
        self.send(&go, "bestmove")?;
        let started = Instant::now();
        let budget = self.budget(limits);
        let mut stop_sent: Option<Instant> = None;
        // Reports go out at most every REPORT_INTERVAL (the latest one wins), so an
        // engine flooding `info` lines cannot flood the interface.
        // Per MultiPV line (`multipv k`), so every line still gets through.
        let mut last_report: Vec<Option<Instant>> = Vec::new();
        let mut held_back: Vec<Option<String>> = Vec::new();
        loop {
            let now = Instant::now();
            if stop_sent.is_none() && (stop.load(Ordering::Relaxed) || now >= started + budget) {
                self.send("stop", "bestmove")?;
                stop_sent = Some(now);
            }
            if let Some(sent) = stop_sent {
                if now >= sent + self.timeouts.stop {
                    return Err(EngineError::Timeout {
                        name: self.spec.name.clone(),
                        waiting_for: "bestmove",
                        seconds: (budget + self.timeouts.stop).as_secs(),
                    });
                }
            }
            let line = match self.lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => self.accept(line)?,
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return Err(self.crashed("bestmove")),
            };
            if let Some(rest) = line.strip_prefix("bestmove") {
                // The last report of each line, held back by the throttle, still counts.
                for text in held_back.iter_mut().filter_map(Option::take) {
                    if let Some(info) = self.read_info(game.position(), &text, started.elapsed()) {
                        on_info(info);
                    }
                }
                return self.read_bestmove(game, rest.trim());
            }
            if let Some(rest) = line.strip_prefix("info ") {
                let line_index = rest
                    .split_whitespace()
                    .skip_while(|word| *word != "multipv")
                    .nth(1)
                    .and_then(|k| k.parse::<usize>().ok())
                    .unwrap_or(1)
                    .min(MAX_REPORTED_LINES);
                if last_report.len() <= line_index {
                    last_report.resize(line_index + 1, None);
                    held_back.resize(line_index + 1, None);
                }
                let due =
                    last_report[line_index].is_none_or(|last| last.elapsed() >= REPORT_INTERVAL);
                if !due {
                    held_back[line_index] = Some(rest.to_string());
                } else if let Some(info) = self.read_info(game.position(), rest, started.elapsed())
                {
                    last_report[line_index] = Some(Instant::now());
                    held_back[line_index] = None;
                    on_info(info);
                }
            }
        }
    }

    fn parse_move(&self, position: &AnyPosition, text: &str) -> Option<Move> {
        let mv = match (self.spec.protocol, position) {
            (EngineProtocol::Usi, AnyPosition::Shogi(shogi)) => shogi.parse_usi(text),
            _ => position.parse_uci(text),
        }?;
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        legal.contains(mv).then_some(mv)
    }

    fn read_bestmove(&self, game: &Game, rest: &str) -> Result<EngineMove, EngineError> {
        let text = rest.split_whitespace().next().unwrap_or("");
        match text {
            "resign" => return Ok(EngineMove::Resign),
            "win" => return Ok(EngineMove::Win),
            "(none)" | "0000" | "" => return Ok(EngineMove::NoMove),
            _ => {}
        }
        let legal = game.legal_moves();
        match self.parse_move(game.position(), text) {
            Some(mv) if legal.contains(mv) => Ok(EngineMove::Move(mv)),
            _ => Err(EngineError::IllegalMove {
                name: self.spec.name.clone(),
                text: untrusted::quote(text, untrusted::QUOTE_CHARS),
            }),
        }
    }

    /// Reads the words of an `info` line; `None` unless it has a depth, a score and a PV.
    fn read_info(&self, root: &AnyPosition, rest: &str, elapsed: Duration) -> Option<InfoLine> {
        let words: Vec<&str> = rest.split_whitespace().collect();
        let number = |index: usize| words.get(index).and_then(|w| w.parse::<i64>().ok());
        let (mut depth, mut score, mut nodes, mut nps, mut time) = (None, None, 0u64, None, None);
        let (mut multipv, mut bound) = (1u32, false);
        let mut line = Vec::new();
        let mut index = 0;
        while index < words.len() {
            match words[index] {
                "depth" => depth = number(index + 1),
                "nodes" => nodes = number(index + 1).unwrap_or(0).max(0) as u64,
                "nps" => nps = number(index + 1),
                "time" => time = number(index + 1),
                "multipv" => {
                    multipv = number(index + 1).map_or(1, |k| k.clamp(1, 500) as u32);
                }
                "lowerbound" | "upperbound" => bound = true,
                "score" => {
                    let value = number(index + 2);
                    score = match (words.get(index + 1).copied(), value) {
                        (Some("cp"), Some(cp)) => Some(Score::Centipawns(cp as i32)),
                        (Some("mate"), Some(moves)) => Some(Score::Mate(moves as i32)),
                        _ => score,
                    };
                    index += 1;
                }
                "pv" => {
                    let mut position = root.clone();
                    for text in &words[index + 1..] {
                        let Some(mv) = self.parse_move(&position, text) else {
                            break;
                        };
                        line.push(mv);
                        position.play_unchecked(mv);
                    }
                    break;
                }
                "string" => return None,
                _ => {}
            }
            index += 1;
        }
        let millis = time
            .map_or(elapsed.as_millis() as u64, |t| t.max(0) as u64)
            .max(1);
        Some(InfoLine {
            multipv,
            bound,
            report: SearchReport {
                depth: depth?.max(0) as u32,
                score: score?,
                nodes,
                nodes_per_second: nps
                    .map_or(nodes.saturating_mul(1000) / millis, |n| n.max(0) as u64),
                principal_variation: if line.is_empty() { return None } else { line },
            },
        })
    }

    /// Ends the engine: `quit`, a short wait, then a kill.
    pub fn quit(mut self) {
        self.shut_down();
    }

    fn shut_down(&mut self) {
        log::debug!(target: "engine", "to {}: quit", self.spec.name);
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_millis(300);
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                log::info!(target: "engine", "{} ended: {status}", self.spec.name);
                return;
            }
            thread::sleep(Duration::from_millis(10));
        }
        log::warn!(target: "engine", "{} did not quit within 300 ms: ended by force", self.spec.name);
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for ExternalEngine {
    fn drop(&mut self) {
        self.shut_down();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_engine_flag_names_command_arguments_and_protocol() {
        let spec = EngineSpec::from_flag("fsf=/usr/games/fairy-stockfish").unwrap();
        assert_eq!(spec.name, "fsf");
        assert_eq!(spec.command, "/usr/games/fairy-stockfish");
        assert!(spec.args.is_empty());
        assert_eq!(spec.protocol, EngineProtocol::Uci);
        let spec = EngineSpec::from_flag("self=qipan usi").unwrap();
        assert_eq!(spec.args, ["usi"]);
        assert_eq!(spec.protocol, EngineProtocol::Usi);
        assert!(!spec.can_play(Variant::Xiangqi));
        assert!(spec.can_play(Variant::Shogi));
        assert!(EngineSpec::from_flag("no equals sign").is_err());
        assert!(EngineSpec::from_flag("name=").is_err());
        assert!(EngineSpec::from_flag("=cmd").is_err());
    }

    #[test]
    fn errors_read_in_both_languages() {
        let error = EngineError::Missing {
            name: "fsf".into(),
            command: "/nowhere/fsf".into(),
        };
        assert!(error.to_string().contains("/nowhere/fsf"), "{error}");
        assert!(error.message(Language::Korean).contains("/nowhere/fsf"));
        assert_ne!(error.message(Language::Korean), error.to_string());
    }
}
