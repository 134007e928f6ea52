//! `qipan uci`: Fairy-Stockfish's UCI dialect, so tools that drive
//! Fairy-Stockfish can drive qipan (variants, positions, searching, perft, `d`).
//!
//! Input and output are plain `BufRead`/`Write`, so tests feed it bytes.
//! Bad input never stops the engine: it answers `info string error: …`.
//! `go` searches on a worker thread when the session has a shared output
//! ([`run`] sets one up), so `stop` and `isready` are answered while it thinks.

use super::{parse_go, parse_level, parse_multipv, perft_lines, Dialect, SharedOutput, Worker};
use crate::engine::{Engine, MAX_LEVEL, MAX_LINES};
use crate::rules::any::Variant;
use crate::rules::game::Game;
use crate::rules::Position;
use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};

/// The engine's state between commands.
pub struct UciSession {
    variant: Variant,
    game: Game,
    engine: Arc<Mutex<Engine>>,
    level: u8,
    /// How many best lines `go` reports (`MultiPV`).
    multipv: u32,
    /// Where a background search writes; without it `go` searches before returning.
    output: Option<SharedOutput>,
    worker: Option<Worker>,
}

impl Default for UciSession {
    fn default() -> Self {
        Self::new()
    }
}

/// What the caller should do after a command.
#[derive(Debug, PartialEq, Eq)]
pub enum Flow {
    /// Read the next command.
    Continue,
    /// `quit` was received.
    Quit,
}

impl UciSession {
    /// A session on xiangqi's start position (Fairy-Stockfish starts in chess; we have no chess).
    pub fn new() -> UciSession {
        let variant = Variant::Xiangqi;
        UciSession {
            variant,
            game: Game::from_variant(variant),
            engine: Arc::new(Mutex::new(Engine::default())),
            level: MAX_LEVEL,
            multipv: 1,
            output: None,
            worker: None,
        }
    }

    /// A session whose searches run on a worker thread writing to `output`.
    pub fn with_output(output: SharedOutput) -> UciSession {
        UciSession {
            output: Some(output),
            ..UciSession::new()
        }
    }

    /// Waits for a running search to end (stopping it first if it is infinite).
    pub fn finish_search(&mut self) {
        if let Some(mut worker) = self.worker.take() {
            worker.finish();
        }
    }

    /// Stops a running search at once and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        if let Some(mut worker) = self.worker.take() {
            worker.stop();
            worker.finish();
        }
    }

    /// True while a search runs.
    pub fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_running)
    }

    /// The game as set by the last `position` command.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command line, writing replies to `out`.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "isready" | "stop" | "quit" => {}
            // Everything else waits for the current search to finish.
            _ => self.finish_search(),
        }
        match command {
            "uci" => {
                writeln!(out, "id name qipan {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the qipan developers")?;
                write!(
                    out,
                    "option name UCI_Variant type combo default {}",
                    self.variant.protocol_name()
                )?;
                for variant in Variant::ALL {
                    write!(out, " var {}", variant.protocol_name())?;
                }
                writeln!(out)?;
                writeln!(
                    out,
                    "option name Hash type spin default {} min 1 max 4096",
                    Engine::DEFAULT_HASH_MEGABYTES
                )?;
                writeln!(
                    out,
                    "option name Skill Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
                )?;
                writeln!(
                    out,
                    "option name MultiPV type spin default 1 min 1 max {MAX_LINES}"
                )?;
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => {
                self.game = Game::from_variant(self.variant);
                self.engine
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .clear();
            }
            "setoption" => self.set_option(&rest, out)?,
            "position" => self.set_position(&rest, out)?,
            "go" => self.go(&rest, out)?,
            "d" => self.display(out)?,
            "quit" => {
                self.stop_search();
                return Ok(Flow::Quit);
            }
            "stop" => self.stop_search(),
            "ponderhit" | "debug" | "register" => {}
            other => writeln!(out, "info string error: unknown command '{other}'")?,
        }
        Ok(Flow::Continue)
    }

    fn set_option(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        // setoption name <id words> [value <words>]
        let text = words.join(" ");
        let Some(after_name) = text.strip_prefix("name ") else {
            return writeln!(out, "info string error: setoption needs 'name'");
        };
        let (name, value) = match after_name.split_once(" value ") {
            Some((name, value)) => (name.trim(), Some(value.trim())),
            None => (after_name.trim(), None),
        };
        if name.eq_ignore_ascii_case("UCI_Variant") {
            let Some(value) = value else {
                return writeln!(out, "info string error: UCI_Variant needs a value");
            };
            match Variant::from_name(value) {
                Some(variant) => {
                    self.variant = variant;
                    self.game = Game::from_variant(variant);
                }
                None => {
                    writeln!(out, "info string error: unknown variant '{value}'")?;
                }
            }
        } else if name.eq_ignore_ascii_case("Hash") {
            match value.and_then(|v| v.parse::<usize>().ok()) {
                Some(megabytes) if (1..=4096).contains(&megabytes) => self
                    .engine
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .set_hash_megabytes(megabytes),
                _ => writeln!(
                    out,
                    "info string error: Hash needs a size from 1 to 4096 MB"
                )?,
            }
        } else if name.eq_ignore_ascii_case("Skill Level") {
            match value.and_then(parse_level) {
                Some(level) => self.level = level,
                None => writeln!(
                    out,
                    "info string error: Skill Level needs a number from 1 to 10"
                )?,
            }
        } else if name.eq_ignore_ascii_case("MultiPV") {
            match value.and_then(parse_multipv) {
                Some(lines) => self.multipv = lines,
                None => writeln!(
                    out,
                    "info string error: MultiPV needs a number from 1 to {MAX_LINES}"
                )?,
            }
        } else if !["Threads", "Ponder", "UCI_Chess960", "UCI_AnalyseMode"]
            .iter()
            .any(|known| known.eq_ignore_ascii_case(name))
        {
            writeln!(out, "info string error: unknown option '{name}'")?;
        }
        Ok(())
    }

    fn set_position(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let moves_at = words.iter().position(|w| *w == "moves");
        let (setup, moves) = match moves_at {
            Some(index) => (&words[..index], &words[index + 1..]),
            None => (words, &[][..]),
        };
        let start = match setup.first().copied() {
            Some("startpos") => self.variant.start(),
            Some("fen") | Some("sfen") => {
                let fen = setup[1..].join(" ");
                match self.variant.position_from_outside(&fen) {
                    Ok(position) => position,
                    Err(error) => {
                        return writeln!(out, "info string error: bad fen '{fen}': {error}");
                    }
                }
            }
            _ => {
                return writeln!(
                    out,
                    "info string error: position needs 'startpos' or 'fen <fen>'"
                );
            }
        };
        let mut game = Game::new(start);
        let result = super::replay_moves(&mut game, moves, |p, t| p.parse_uci(t), out);
        self.game = game;
        result
    }

    fn go(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        match words {
            ["perft", depth] => {
                let Ok(depth) = depth.parse::<u32>() else {
                    return writeln!(
                        out,
                        "info string error: perft depth '{depth}' is not a number"
                    );
                };
                if depth > 12 {
                    return writeln!(out, "info string error: perft depth {depth} is too deep");
                }
                let position = self.game.position().clone();
                match &self.output {
                    // On the worker, where `stop` and `quit` can end it.
                    Some(output) => {
                        self.worker = Some(Worker::start_perft(position, depth, output.clone()));
                    }
                    None => perft_lines(&position, depth, &AtomicBool::new(false), out)?,
                }
            }
            _ => {
                let go = parse_go(words, Dialect::Uci);
                for problem in &go.problems {
                    writeln!(out, "info string error: {problem}")?;
                }
                let mut limits = go.limits_for(self.game.position().side_to_move(), self.level);
                limits.multipv = self.multipv;
                super::start_search(
                    &self.engine,
                    &self.game,
                    limits,
                    Dialect::Uci,
                    self.output.as_ref(),
                    &mut self.worker,
                    out,
                )?;
            }
        }
        Ok(())
    }

    fn display(&self, out: &mut dyn Write) -> std::io::Result<()> {
        let position = self.game.position();
        writeln!(out)?;
        let fen = position.fen();
        let placement = fen.split([' ', '[']).next().unwrap_or("");
        for row in placement.split('/') {
            let mut line = String::from(" |");
            let mut pending_plus = false;
            for c in row.chars() {
                if let Some(d) = c.to_digit(10) {
                    for _ in 0..d {
                        line.push_str(" . ");
                    }
                } else if c == '+' {
                    pending_plus = true;
                } else {
                    if pending_plus {
                        line.push('+');
                        line.push(c);
                        line.push(' ');
                    } else {
                        line.push(' ');
                        line.push(c);
                        line.push(' ');
                    }
                    pending_plus = false;
                }
            }
            line.push('|');
            writeln!(out, "{line}")?;
        }
        writeln!(out)?;
        writeln!(out, "Fen: {fen}")?;
        writeln!(out, "Variant: {}", self.variant.protocol_name())?;
        writeln!(
            out,
            "Checkers: {}",
            if position.in_check() { "yes" } else { "no" }
        )?;
        match self.game.outcome() {
            None => writeln!(out, "Outcome: ongoing")?,
            Some(outcome) => writeln!(out, "Outcome: {outcome}")?,
        }
        Ok(())
    }
}

/// Runs the UCI loop until `quit` or the end of input ([`super::command_loop`]):
/// searches and perft run on a worker thread, so `quit` always ends it at once.
pub fn run<W: Write + Send + 'static>(
    input: impl BufRead + Send + 'static,
    out: W,
) -> std::io::Result<()> {
    let shared: SharedOutput = Arc::new(Mutex::new(out));
    let mut session = UciSession::with_output(shared.clone());
    super::command_loop(input, shared, &mut session)?;
    session.stop_search();
    Ok(())
}

impl super::Session for UciSession {
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        UciSession::handle(self, line, out)
    }
    fn searching(&self) -> bool {
        UciSession::searching(self)
    }
    fn search_is_infinite(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_infinite)
    }
    fn stop_search(&mut self) {
        UciSession::stop_search(self)
    }
}
