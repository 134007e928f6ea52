//! `qipan usi`: the USI protocol, so qipan plays shogi inside shogi GUIs
//! (ShogiGUI, Shogidokoro, …) and against other USI engines.
//!
//! Input and output are plain `BufRead`/`Write`, so tests feed it bytes.
//! Bad input never stops the engine: it answers `info string error: …`.

use super::{parse_go, Dialect, Job, SearchSettings, Searcher, SharedOutput};
use crate::engine::{Engine, MAX_LEVEL};
use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::shogi::ShogiPosition;
use crate::rules::Position;
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

pub use super::uci::Flow;

/// The engine's state between USI commands.
pub struct UsiSession {
    game: Game,
    /// Level, lines, time margin and strength limit.
    settings: SearchSettings,
    /// The engine and the running search.
    searcher: Searcher,
}

impl Default for UsiSession {
    fn default() -> Self {
        Self::new()
    }
}

impl UsiSession {
    /// A session on the shogi start position; `go` searches before returning.
    pub fn new() -> UsiSession {
        Self::with_searcher(Searcher::new(None))
    }

    /// A session whose searches run on a worker thread writing to `output`.
    pub fn with_output(output: SharedOutput) -> UsiSession {
        Self::with_searcher(Searcher::new(Some(output)))
    }

    fn with_searcher(searcher: Searcher) -> UsiSession {
        UsiSession {
            game: Game::new(AnyPosition::Shogi(ShogiPosition::start())),
            settings: SearchSettings::default(),
            searcher,
        }
    }

    /// The game as set by the last `position` command.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Waits for a running search to end (stopping it first if it is infinite).
    pub fn finish_search(&mut self) {
        self.searcher.finish();
    }

    /// Stops a running search at once and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        self.searcher.stop();
    }

    /// Handles one command line, writing replies to `out`.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "isready" | "stop" | "quit" | "gameover" | "ponderhit" => {}
            _ => self.finish_search(),
        }
        match command {
            "usi" => {
                writeln!(out, "id name qipan {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the qipan developers")?;
                writeln!(
                    out,
                    "option name USI_Hash type spin default {} min 1 max {}",
                    Engine::DEFAULT_HASH_MEGABYTES,
                    super::MAX_HASH_MEGABYTES
                )?;
                writeln!(
                    out,
                    "option name Threads type spin default 1 min 1 max {}",
                    Engine::MAX_THREADS
                )?;
                writeln!(out, "option name USI_Ponder type check default false")?;
                writeln!(
                    out,
                    "option name Skill_Level type spin default {MAX_LEVEL} min 1 max {MAX_LEVEL}"
                )?;
                for option in self.settings.option_lines("NetworkDelay") {
                    writeln!(out, "{option}")?;
                }
                writeln!(out, "usiok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "usinewgame" => {
                self.game = Game::new(AnyPosition::Shogi(ShogiPosition::start()));
                self.searcher.clear();
            }
            "setoption" => self.set_option(&rest, out)?,
            "position" => self.set_position(&rest, out)?,
            "go" => self.go(&rest, out)?,
            "stop" => self.stop_search(),
            "gameover" => self.stop_search(),
            "ponderhit" => self.searcher.ponderhit(),
            "quit" => {
                self.stop_search();
                return Ok(Flow::Quit);
            }
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
            return Ok(());
        }
        match name {
            "USI_Hash" | "Hash" => self.searcher.set_hash_option("USI_Hash", value, out)?,
            "Threads" => self.searcher.set_threads_option(value, out)?,
            "USI_OwnBook" => {}
            other => writeln!(out, "info string error: unknown option '{other}'")?,
        }
        Ok(())
    }

    fn set_position(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let syntax = super::PositionSyntax {
            setup_words: &["sfen"],
            start: &|| AnyPosition::Shogi(ShogiPosition::start()),
            read: &|sfen| ShogiPosition::from_sfen(sfen).map(AnyPosition::Shogi),
            parse_move: &|position, text| match position {
                AnyPosition::Shogi(shogi) => shogi.parse_usi(text),
                _ => None,
            },
        };
        if let Some(game) = super::read_position_command(words, &syntax, out)? {
            self.game = game;
        }
        Ok(())
    }

    fn go(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let go = parse_go(words, Dialect::Usi);
        for problem in &go.problems {
            writeln!(out, "info string error: {problem}")?;
        }
        if let Some(time) = go.mate {
            return self
                .searcher
                .start(&self.game, Job::Mate(time), Dialect::Usi, out);
        }
        let side = self.game.position().side_to_move();
        if let AnyPosition::Shogi(position) = self.game.position() {
            if self.game.outcome().is_none() && position.declaration_wins(side) && !go.ponder {
                // The CSA 27-point declaration: announce the win instead of moving.
                return writeln!(out, "bestmove win");
            }
        }
        let job = Job::Search {
            limits: go.limits_with(side, self.game.variant().kind(), &self.settings),
            ponder: go.ponder,
            banned: Vec::new(),
        };
        self.searcher.start(&self.game, job, Dialect::Usi, out)
    }
}

/// Runs the USI loop until `quit` or the end of input ([`super::command_loop`]):
/// searches run on a worker thread, so `quit` always ends it at once.
pub fn run<W: Write + Send + 'static>(
    input: impl BufRead + Send + 'static,
    out: W,
) -> std::io::Result<()> {
    let shared: SharedOutput = Arc::new(Mutex::new(out));
    let mut session = UsiSession::with_output(shared.clone());
    super::command_loop(input, shared, &mut session)?;
    session.stop_search();
    Ok(())
}

impl super::Session for UsiSession {
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        UsiSession::handle(self, line, out)
    }
    fn searcher(&self) -> &super::Searcher {
        &self.searcher
    }
    fn searcher_mut(&mut self) -> &mut super::Searcher {
        &mut self.searcher
    }
}
