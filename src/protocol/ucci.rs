//! `qipan ucci`: UCCI, the protocol of the common Chinese xiangqi GUIs (and of
//! ElephantEye-style engines), so qipan plays xiangqi inside them.
//!
//! What differs from UCI: `ucci`/`ucciok`; options written `option <name> type …` and
//! set by `setoption <name> <value>`; moves in ICCS (`h2e2`, ranks 0–9); `go time …
//! increment …` (the side to move's clock, in seconds unless `usemillisec` is on),
//! `go depth infinite`; `banmoves` (root moves not to play); `probe`; scores written as
//! plain numbers; `nobestmove`; and `bye` after `quit`. Input and output are plain
//! `BufRead`/`Write`; bad input is answered `info string error: …`, never fatal.

use super::{parse_go_in, uci_from_iccs, Dialect, Job, SearchSettings, Searcher, SharedOutput};
use crate::engine::{Engine, MAX_LEVEL};
use crate::rules::any::{AnyPosition, Variant};
use crate::rules::game::Game;
use crate::rules::{Move, Position};
use std::io::{BufRead, Write};
use std::sync::{Arc, Mutex};

pub use super::uci::Flow;

/// The engine's state between UCCI commands.
pub struct UcciSession {
    game: Game,
    /// Level and time margin (UCCI has no MultiPV).
    settings: SearchSettings,
    /// `usemillisec`: clock figures in milliseconds rather than seconds.
    milliseconds: bool,
    /// `banmoves`: root moves the next `go` must not play (cleared by `position`).
    banned: Vec<Move>,
    /// The engine and the running search.
    searcher: Searcher,
}

impl Default for UcciSession {
    fn default() -> Self {
        Self::new()
    }
}

impl UcciSession {
    /// A session on xiangqi's start position; `go` searches before returning.
    pub fn new() -> UcciSession {
        Self::with_searcher(Searcher::new(None))
    }

    /// A session whose searches run on a worker thread writing to `output`.
    pub fn with_output(output: SharedOutput) -> UcciSession {
        Self::with_searcher(Searcher::new(Some(output)))
    }

    fn with_searcher(searcher: Searcher) -> UcciSession {
        UcciSession {
            game: Game::from_variant(Variant::Xiangqi),
            settings: SearchSettings::default(),
            milliseconds: false,
            banned: Vec::new(),
            searcher,
        }
    }

    /// The game as set by the last `position` command.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Handles one command line, writing replies to `out`.
    pub fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        let mut words = line.split_whitespace();
        let Some(command) = words.next() else {
            return Ok(Flow::Continue);
        };
        let rest: Vec<&str> = words.collect();
        match command {
            "isready" | "stop" | "quit" | "ponderhit" => {}
            _ => self.searcher.finish(),
        }
        match command {
            "ucci" => {
                writeln!(out, "id name qipan {}", env!("CARGO_PKG_VERSION"))?;
                writeln!(out, "id author the qipan developers")?;
                writeln!(out, "option usemillisec type check default false")?;
                writeln!(
                    out,
                    "option hashsize type spin min 1 max {} default {}",
                    super::MAX_HASH_MEGABYTES,
                    Engine::DEFAULT_HASH_MEGABYTES
                )?;
                writeln!(out, "option ponder type check default false")?;
                writeln!(
                    out,
                    "option level type spin min 1 max {MAX_LEVEL} default {MAX_LEVEL}"
                )?;
                writeln!(out, "option newgame type button")?;
                writeln!(out, "ucciok")?;
            }
            "isready" => writeln!(out, "readyok")?,
            "setoption" => self.set_option(&rest, out)?,
            "position" => self.set_position(&rest, out)?,
            "banmoves" => self.ban_moves(&rest, out)?,
            "go" => self.go(&rest, out)?,
            "probe" => self.probe(&rest, out)?,
            "ponderhit" => self.searcher.ponderhit(),
            "stop" => self.searcher.stop(),
            "quit" => {
                self.searcher.stop();
                writeln!(out, "bye")?;
                return Ok(Flow::Quit);
            }
            other => writeln!(out, "info string error: unknown command '{other}'")?,
        }
        Ok(Flow::Continue)
    }

    fn set_option(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        // UCCI: `setoption <name> [<value>]`; the UCI form `name … value …` is read too.
        let (name, value) = match words {
            ["name", rest @ ..] => {
                let text = rest.join(" ");
                match text.split_once(" value ") {
                    Some((name, value)) => {
                        (name.trim().to_string(), Some(value.trim().to_string()))
                    }
                    None => (text.trim().to_string(), None),
                }
            }
            [name, rest @ ..] => (name.to_string(), (!rest.is_empty()).then(|| rest.join(" "))),
            [] => return writeln!(out, "info string error: setoption needs a name"),
        };
        let value = value.as_deref();
        match name.to_ascii_lowercase().as_str() {
            // A check option without a value is switched on (ElephantEye's reading).
            "usemillisec" => match value.map_or(Some(true), super::parse_check) {
                Some(on) => self.milliseconds = on,
                None => writeln!(out, "info string error: usemillisec needs true or false")?,
            },
            // ElephantEye reads 0 as "the smallest table".
            "hashsize" => {
                let value = value.map(|v| if v.trim() == "0" { "1" } else { v });
                self.searcher.set_hash_option("hashsize", value, out)?
            }
            "level" => {
                if let Some(Err(message)) = self.settings.set("level", value) {
                    writeln!(out, "info string error: {message}")?;
                }
            }
            "newgame" => {
                self.game = Game::from_variant(Variant::Xiangqi);
                self.banned.clear();
                self.searcher.clear();
            }
            // Settings other UCCI engines have that change nothing here.
            "ponder" => {
                if value.is_some_and(|v| super::parse_check(v).is_none()) {
                    writeln!(out, "info string error: ponder needs true or false")?;
                }
            }
            "batch" | "debug" | "bookfiles" | "evalapi" | "loadbook" | "idle" | "promotion"
            | "pruning" | "knowledge" | "randomness" | "style" | "threads" => {}
            _ => match self.settings.set(&name, value) {
                Some(Ok(())) => {}
                Some(Err(message)) => writeln!(out, "info string error: {message}")?,
                None => writeln!(out, "info string error: unknown option '{name}'")?,
            },
        }
        Ok(())
    }

    /// Reads `fen <fen> | startpos` and `moves <ICCS moves>` into a game.
    fn read_game(&self, words: &[&str], out: &mut dyn Write) -> std::io::Result<Option<Game>> {
        let syntax = super::PositionSyntax {
            setup_words: &["fen"],
            start: &|| Variant::Xiangqi.start(),
            read: &|fen| Variant::Xiangqi.position_from_outside(fen),
            parse_move: &parse_iccs,
        };
        super::read_position_command(words, &syntax, out)
    }

    fn set_position(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        self.banned.clear();
        if let Some(game) = self.read_game(words, out)? {
            self.game = game;
        }
        Ok(())
    }

    fn ban_moves(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        self.banned.clear();
        for text in words {
            match parse_iccs(self.game.position(), text) {
                Some(mv) => self.banned.push(mv),
                None => writeln!(out, "info string error: cannot read banned move '{text}'")?,
            }
        }
        Ok(())
    }

    fn go(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        let unit = if self.milliseconds { 1.0 } else { 1000.0 };
        let go = parse_go_in(words, Dialect::Ucci, unit);
        for problem in &go.problems {
            writeln!(out, "info string error: {problem}")?;
        }
        let side = self.game.position().side_to_move();
        let job = Job::Search {
            limits: go.limits_with(side, self.game.variant().kind(), &self.settings),
            ponder: go.ponder,
            banned: self.banned.clone(),
        };
        self.searcher.start(&self.game, job, Dialect::Ucci, out)
    }

    /// `probe <position>`: what the engine's table knows of a position. qipan's table is
    /// private to its search, so the answer is always the empty `pophash`.
    fn probe(&mut self, words: &[&str], out: &mut dyn Write) -> std::io::Result<()> {
        if self.read_game(words, out)?.is_some() {
            writeln!(out, "pophash")?;
        }
        Ok(())
    }
}

/// Reads an ICCS move (`h2e2`) on a xiangqi position.
fn parse_iccs(position: &AnyPosition, text: &str) -> Option<Move> {
    position.parse_uci(&uci_from_iccs(text)?)
}

/// Runs the UCCI loop until `quit` or the end of input ([`super::command_loop`]).
pub fn run<W: Write + Send + 'static>(
    input: impl BufRead + Send + 'static,
    out: W,
) -> std::io::Result<()> {
    let shared: SharedOutput = Arc::new(Mutex::new(out));
    let mut session = UcciSession::with_output(shared.clone());
    super::command_loop(input, shared, &mut session)?;
    session.searcher.stop();
    Ok(())
}

/// Runs a UCCI session whose first line (`ucci`) was already read by another mode.
pub fn run_after_first_line<W: Write + Send + 'static>(
    input: impl BufRead + Send + 'static,
    out: W,
) -> std::io::Result<()> {
    let shared: SharedOutput = Arc::new(Mutex::new(out));
    let mut session = UcciSession::with_output(shared.clone());
    {
        let mut writer = super::LineWriter::new(shared.clone());
        session.handle("ucci", &mut writer)?;
        writer.flush()?;
    }
    super::command_loop(input, shared, &mut session)?;
    session.searcher.stop();
    Ok(())
}

impl super::Session for UcciSession {
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<Flow> {
        UcciSession::handle(self, line, out)
    }
    fn searcher(&self) -> &super::Searcher {
        &self.searcher
    }
    fn searcher_mut(&mut self) -> &mut super::Searcher {
        &mut self.searcher
    }
}
