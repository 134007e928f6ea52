//! `qipan uci`: Fairy-Stockfish's UCI dialect, so tools that drive
//! Fairy-Stockfish can drive qipan (variants, positions, searching, perft, `d`).
//!
//! Input and output are plain `BufRead`/`Write`, so tests feed it bytes.
//! Bad input never stops the engine: it answers `info string error: …`.
//! `go` searches on a worker thread when the session has a shared output
//! ([`run`] sets one up), so `stop` and `isready` are answered while it thinks.

use super::{parse_go, Dialect, Job, SearchSettings, Searcher, SharedOutput};
use crate::engine::{Engine, MAX_LEVEL};
use crate::rules::any::Variant;
use crate::rules::game::Game;
use crate::rules::Position;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

/// The engine's state between commands.
pub struct UciSession {
    variant: Variant,
    game: Game,
    /// Level, lines, time margin and strength limit.
    settings: SearchSettings,
    /// The engine and the running search.
    searcher: Searcher,
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
        Self::with_searcher(Searcher::new(None))
    }

    /// A session whose searches run on a worker thread writing to `output`.
    pub fn with_output(output: SharedOutput) -> UciSession {
        Self::with_searcher(Searcher::new(Some(output)))
    }

    fn with_searcher(searcher: Searcher) -> UciSession {
        let variant = Variant::Xiangqi;
        UciSession {
            variant,
            game: Game::from_variant(variant),
            settings: SearchSettings::default(),
            searcher,
        }
    }

    /// Waits for a running search to end (stopping it first if it is infinite).
    pub fn finish_search(&mut self) {
        self.searcher.finish();
    }

    /// Stops a running search at once and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        self.searcher.stop();
    }

    /// True while a search runs.
    pub fn searching(&self) -> bool {
        self.searcher.searching()
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
            "isready" | "stop" | "quit" | "ponderhit" => {}
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
                    "option name Hash type spin default {} min 1 max {}",
                    Engine::DEFAULT_HASH_MEGABYTES,
                    super::MAX_HASH_MEGABYTES
                )?;
                writeln!(
                    out,
                    "option name Threads type spin default 1 min 1 max {}",
                    Engine::MAX_THREADS
                )?;
                writeln!(out, "option name Ponder type check default false")?;
                writeln!(
                    out,
                    "option name Skill Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
                )?;
                for option in self.settings.option_lines("Move Overhead") {
                    writeln!(out, "{option}")?;
                }
                writeln!(out, "uciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "ucinewgame" => {
                self.game = Game::from_variant(self.variant);
                self.searcher.clear();
            }
            "setoption" => self.set_option(&rest, out)?,
            "position" => self.set_position(&rest, out)?,
            "go" => self.go(&rest, out)?,
            "d" => self.display(out)?,
            // The static evaluation of the position, for tuning and checks (FSF has `eval`).
            "eval" => {
                if let Some(terms) = crate::engine::evaluation_terms(self.game.position()) {
                    let terms: Vec<String> = terms.iter().map(i32::to_string).collect();
                    writeln!(out, "info string evaluation terms {}", terms.join(" "))?;
                }
                writeln!(
                    out,
                    "info string static evaluation {} cp for the side to move",
                    crate::engine::static_evaluation(self.game.position())
                )?;
                writeln!(
                    out,
                    "info string levels evaluation {} cp for the side to move",
                    crate::engine::ladder_evaluation(self.game.position())
                )?
            }
            "quit" => {
                self.stop_search();
                return Ok(Flow::Quit);
            }
            "stop" => self.stop_search(),
            "ponderhit" => self.searcher.ponderhit(),
            "debug" | "register" => {}
            other => writeln!(out, "info string error: unknown command '{other}'")?,
        }
        Ok(Flow::Continue)
    }

    fn set_option(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let Some((name, value)) = super::split_setoption(words) else {
            return writeln!(out, "info string error: setoption needs 'name'");
        };
        let (name, value) = (name.as_str(), value.as_deref());
        if let Some(result) = self.settings.set(name, value) {
            if let Err(message) = result {
                writeln!(out, "info string error: {message}")?;
            }
        } else if name.eq_ignore_ascii_case("UCI_Variant") {
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
            self.searcher.set_hash_option("Hash", value, out)?;
        } else if name.eq_ignore_ascii_case("Threads") {
            self.searcher.set_threads_option(value, out)?;
        } else if !["UCI_Chess960", "UCI_AnalyseMode"]
            .iter()
            .any(|known| known.eq_ignore_ascii_case(name))
        {
            writeln!(out, "info string error: unknown option '{name}'")?;
        }
        Ok(())
    }

    fn set_position(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let variant = self.variant;
        let syntax = super::PositionSyntax {
            setup_words: &["fen", "sfen"],
            start: &|| variant.start(),
            read: &|fen| variant.position_from_outside(fen),
            parse_move: &|position, text| position.parse_uci(text),
        };
        if let Some(game) = super::read_position_command(words, &syntax, out)? {
            self.game = game;
        }
        Ok(())
    }

    fn go(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let job = match words {
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
                Job::Perft(depth)
            }
            _ => {
                let go = parse_go(words, Dialect::Uci);
                for problem in &go.problems {
                    writeln!(out, "info string error: {problem}")?;
                }
                let side = self.game.position().side_to_move();
                Job::Search {
                    limits: go.limits_with(side, self.game.variant().kind(), &self.settings),
                    ponder: go.ponder,
                    banned: Vec::new(),
                }
            }
        };
        self.searcher.start(&self.game, job, Dialect::Uci, out)
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
/// searches and perft run on a worker thread, so `quit` always ends it at once. A GUI
/// whose first line is `ucci` gets a UCCI session instead ([`super::ucci`]).
pub fn run<W: Write + Send + 'static>(
    input: impl BufRead + Send + 'static,
    out: W,
) -> std::io::Result<()> {
    let mut input = input;
    let first = loop {
        match super::read_bounded_line(&mut input, super::MAX_LINE_BYTES)? {
            None => return Ok(()),
            Some(super::BoundedLine::Line(line)) if line.is_empty() => continue,
            Some(line) => break line,
        }
    };
    if first == super::BoundedLine::Line("ucci".to_string()) {
        return super::ucci::run_after_first_line(input, out);
    }
    let shared: SharedOutput = Arc::new(Mutex::new(out));
    let mut session = UciSession::with_output(shared.clone());
    let mut writer = super::LineWriter::new(shared.clone());
    let flow = match first {
        super::BoundedLine::Line(line) => session.handle(&line, &mut writer)?,
        super::BoundedLine::TooLong(bytes) => {
            writeln!(
                writer,
                "info string error: a line of {bytes} bytes is too long; ignored"
            )?;
            Flow::Continue
        }
    };
    writer.flush()?;
    if flow == Flow::Continue {
        super::command_loop(input, shared, &mut session)?;
    }
    session.stop_search();
    Ok(())
}

impl super::Session for UciSession {
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        UciSession::handle(self, line, out)
    }
    fn searcher(&self) -> &super::Searcher {
        &self.searcher
    }
    fn searcher_mut(&mut self) -> &mut super::Searcher {
        &mut self.searcher
    }
}
