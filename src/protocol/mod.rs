//! Text protocols for other programs: UCI in Fairy-Stockfish's dialect, USI for shogi,
//! and UCCI for xiangqi GUIs.
//!
//! The dialects share what is here: parsing `go`, the options every dialect has, running
//! the search on a worker thread (so `stop`, `ponderhit` and `isready` are read while it
//! thinks), pondering, USI's mate search, and writing `info` and `bestmove` lines.

pub mod client;
pub mod ucci;
pub mod uci;
pub mod usi;

use crate::engine::{limits_for_level, Engine, Limits, Score, SearchInfo, MAX_LEVEL, MAX_LINES};
use crate::rules::any::{AnyPosition, GameKind};
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
    /// UCCI (xiangqi GUIs): ICCS moves like `h2e2` (ranks 0–9), plain scores,
    /// `nobestmove` when there is no move.
    Ucci,
}

impl Dialect {
    /// A move in this dialect's notation.
    pub fn move_text(self, position: &AnyPosition, mv: Move) -> String {
        match (self, position) {
            (Dialect::Usi, AnyPosition::Shogi(p)) => p.move_to_usi(mv),
            (Dialect::Ucci, _) => iccs_from_uci(&position.move_to_uci(mv)),
            _ => position.move_to_uci(mv),
        }
    }

    /// The `bestmove` line when there is no move to play.
    fn no_move(self) -> &'static str {
        match self {
            Dialect::Uci => "bestmove (none)",
            Dialect::Usi => "bestmove resign",
            Dialect::Ucci => "nobestmove",
        }
    }
}

/// A Fairy-Stockfish move on a ten-rank board (`h3e3`, ranks 1–10) in ICCS (`h2e2`,
/// ranks 0–9), as UCCI writes it.
pub fn iccs_from_uci(text: &str) -> String {
    shift_ranks(text, -1)
}

/// An ICCS move (`h2e2`, `H2-E2`) in Fairy-Stockfish's notation (`h3e3`); `None` when it
/// is not two squares.
pub fn uci_from_iccs(text: &str) -> Option<String> {
    let plain: String = text
        .chars()
        .filter(|c| *c != '-')
        .map(|c| c.to_ascii_lowercase())
        .collect();
    let bytes = plain.as_bytes();
    let square = |b: &[u8]| b.len() == 2 && (b'a'..=b'i').contains(&b[0]) && b[1].is_ascii_digit();
    (bytes.len() == 4 && square(&bytes[..2]) && square(&bytes[2..])).then(|| shift_ranks(&plain, 1))
}

/// Adds `by` to every rank number of a move text (letters kept, numbers rewritten).
fn shift_ranks(text: &str, by: i32) -> String {
    let mut out = String::new();
    let mut number = String::new();
    let flush = |number: &mut String, out: &mut String| {
        if let Ok(n) = number.parse::<i32>() {
            out.push_str(&(n + by).to_string());
        }
        number.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
        } else {
            flush(&mut number, &mut out);
            out.push(c);
        }
    }
    flush(&mut number, &mut out);
    out
}

/// UCCI's score for a mate: this minus the plies to it (ElephantEye's convention).
const UCCI_MATE: i32 = 10_000;

/// The `info` line for a completed depth; `multipv k` is written when the search reports
/// several lines (GUIs read a line without it as the best one).
pub fn info_line(
    dialect: Dialect,
    start: &AnyPosition,
    info: &SearchInfo,
    several_lines: bool,
) -> String {
    let score = match (dialect, info.score) {
        (Dialect::Ucci, Score::Centipawns(cp)) => cp.to_string(),
        (Dialect::Ucci, Score::Mate(moves)) if moves > 0 => {
            (UCCI_MATE - (2 * moves - 1)).to_string()
        }
        (Dialect::Ucci, Score::Mate(moves)) => (-UCCI_MATE - 2 * moves).to_string(),
        (_, Score::Centipawns(cp)) => format!("cp {cp}"),
        (_, Score::Mate(moves)) => format!("mate {moves}"),
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

/// How long a USI `go mate` may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MateTime {
    /// `go mate infinite` (or no time given): until solved or stopped.
    Infinite,
    /// `go mate <ms>`.
    Limited(Duration),
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
    /// UCCI's `time` / `increment`: the side to move's, whichever side that is.
    pub own_time: Option<Duration>,
    /// UCCI's `increment`.
    pub own_increment: Option<Duration>,
    /// `byoyomi` (USI).
    pub byoyomi: Duration,
    /// `go ponder`: think on the opponent's time, holding `bestmove` until `ponderhit` or `stop`.
    pub ponder: bool,
    /// USI `go mate …`: a tsume search instead of a game search.
    pub mate: Option<MateTime>,
    /// Problems found while reading, for `info string`.
    pub problems: Vec<String>,
}

/// Reads a clock or count number: integers, and decimals truncated (`9058.3` → 9058), as
/// Fairy-Stockfish does; negative numbers count as 0.
fn read_number(word: Option<&&str>, unit: f64) -> Option<i64> {
    let word = word?;
    let value = match word.parse::<i64>() {
        Ok(n) => n as f64,
        Err(_) => word.parse::<f64>().ok().filter(|v| v.is_finite())?,
    };
    Some((value * unit).trunc().clamp(0.0, 1e15) as i64)
}

/// Reads the words after `go` (perft is handled by the caller).
pub fn parse_go(words: &[&str], dialect: Dialect) -> GoCommand {
    parse_go_in(words, dialect, 1.0)
}

/// Reads the words after `go`, clock numbers counted in `unit` milliseconds (UCCI counts
/// seconds unless `usemillisec` is on).
pub fn parse_go_in(words: &[&str], dialect: Dialect, unit: f64) -> GoCommand {
    let mut go = GoCommand::default();
    // UCI: w = first player (Red, Cho, Sente in FSF); USI: b = Sente = first player.
    let (first_time, second_time, first_inc, second_inc) = match dialect {
        Dialect::Uci | Dialect::Ucci => ("wtime", "btime", "winc", "binc"),
        Dialect::Usi => ("btime", "wtime", "binc", "winc"),
    };
    let mut index = 0;
    while index < words.len() {
        let word = words[index];
        let count = read_number(words.get(index + 1), 1.0);
        let number = read_number(words.get(index + 1), unit);
        let millis = number.map(|n| Duration::from_millis(n as u64));
        let mut takes_number = true;
        match word {
            "infinite" => {
                go.limits.infinite = true;
                takes_number = false;
            }
            "ponder" => {
                go.ponder = true;
                takes_number = false;
            }
            // UCCI: the opponent offers a draw; qipan plays on.
            "draw" if dialect == Dialect::Ucci => takes_number = false,
            "depth" if words.get(index + 1) == Some(&"infinite") => {
                go.limits.infinite = true;
                index += 1;
                takes_number = false;
            }
            "depth" => go.limits.depth = count.map(|n| n.clamp(1, 90) as u32),
            "nodes" => go.limits.nodes = count.map(|n| n.max(1) as u64),
            "movetime" => go.limits.movetime = millis,
            "movestogo" => go.limits.moves_to_go = count.map(|n| n.clamp(1, 1000) as u32),
            "byoyomi" => go.byoyomi = millis.unwrap_or_default(),
            "mate" if dialect == Dialect::Usi => {
                go.mate = Some(match words.get(index + 1) {
                    Some(&"infinite") | None => MateTime::Infinite,
                    Some(_) => match millis {
                        Some(limit) => MateTime::Limited(limit),
                        None => MateTime::Infinite,
                    },
                });
                if words.get(index + 1).is_none() || millis.is_none() {
                    takes_number = false;
                    index += usize::from(words.get(index + 1) == Some(&"infinite"));
                }
            }
            "mate" => {
                // UCI `go mate N`: look for a mate in N moves (a search deep enough to see
                // the mated side's last position).
                go.limits.depth = count.map(|n| (2 * n + 1).clamp(1, 90) as u32);
            }
            "time" if dialect == Dialect::Ucci => go.own_time = millis,
            "increment" if dialect == Dialect::Ucci => go.own_increment = millis,
            "opptime" | "oppincrement" | "oppmovestogo" if dialect == Dialect::Ucci => {}
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

/// Engine settings every dialect shares: level, lines, the time margin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSettings {
    /// The level 1–10 (`Skill Level`, or `UCI_Elo` when `UCI_LimitStrength` is on).
    pub level: u8,
    /// How many best lines `go` reports (`MultiPV`).
    pub multipv: u32,
    /// Taken off every time budget for the GUI and the network (`Move Overhead`, `NetworkDelay`).
    pub overhead: Duration,
    /// `UCI_LimitStrength`: play at the level `UCI_Elo` maps to.
    pub limit_strength: bool,
    /// `UCI_Elo`.
    pub elo: u32,
}

impl Default for SearchSettings {
    fn default() -> Self {
        SearchSettings {
            level: MAX_LEVEL,
            multipv: 1,
            overhead: Duration::from_millis(DEFAULT_OVERHEAD_MS),
            limit_strength: false,
            elo: HIGHEST_ELO,
        }
    }
}

/// The default `Move Overhead` / `NetworkDelay` in milliseconds.
pub const DEFAULT_OVERHEAD_MS: u64 = 10;

/// The largest `Move Overhead` / `NetworkDelay` accepted, in milliseconds.
pub const MAX_OVERHEAD_MS: u64 = 5_000;

/// The rating `UCI_Elo` gives each limited level 1–9 in each game, measured: a ladder of
/// matches between adjacent levels (100 games a step), anchored on Fairy-Stockfish's own
/// `UCI_Elo` scale by level 5's matches against it at 1350 and 1800 (tools/STRENGTH.md
/// "Session 16", anchors for janggi and shogi measured again in "Session 23", shogi's
/// steps from level 5 up in "Session 24", shogi's to level 3 and janggi's to level 7 in
/// "Session 25", janggi's level 5 with its anchors, janggi's 8 and 9 and shogi's 4 and 5
/// in "Session 26", shogi's whole ladder and anchors on the engine with root reductions,
/// level 9 at its own row, in "Session 27";
/// `python3 tools/ladder_ratings.py`, which reads tools/results/ladder-now.txt).
/// The games differ because a node budget buys different strength in each. Level 10, full
/// strength, is what `UCI_LimitStrength` off gives.
pub const ELO_FOR_LEVEL: [(GameKind, [u32; MAX_LEVEL as usize - 1]); 3] = [
    (
        GameKind::Xiangqi,
        [910, 1010, 1220, 1420, 1610, 1710, 1870, 1980, 2110],
    ),
    (
        GameKind::Janggi,
        [1040, 1240, 1440, 1570, 1660, 1820, 1920, 2110, 2180],
    ),
    (
        GameKind::Shogi,
        [1240, 1400, 1560, 1660, 1820, 1990, 2090, 2220, 2330],
    ),
];

/// The ratings of levels 1–9 in `game` ([`ELO_FOR_LEVEL`]).
pub fn elo_for_level(game: GameKind) -> &'static [u32; MAX_LEVEL as usize - 1] {
    let index = match game {
        GameKind::Xiangqi => 0,
        GameKind::Janggi => 1,
        GameKind::Shogi => 2,
    };
    &ELO_FOR_LEVEL[index].1
}

/// The lowest (`lowest`) or highest rating any game gives level `level_index + 1`.
const fn widest_rating(level_index: usize, lowest: bool) -> u32 {
    let mut found = ELO_FOR_LEVEL[0].1[level_index];
    let mut index = 1;
    while index < ELO_FOR_LEVEL.len() {
        let rating = ELO_FOR_LEVEL[index].1[level_index];
        if (lowest && rating < found) || (!lowest && rating > found) {
            found = rating;
        }
        index += 1;
    }
    found
}

/// The weakest rating `UCI_Elo` takes: the lowest level 1 of any game. The option is
/// declared once, before the GUI picks a variant, so its range covers every game.
pub const LOWEST_ELO: u32 = widest_rating(0, true);

/// The strongest rating `UCI_Elo` takes: the highest level 9 of any game.
pub const HIGHEST_ELO: u32 = widest_rating(MAX_LEVEL as usize - 2, false);

/// The level `UCI_Elo` maps to in `game`: the strongest level (1–9) rated at or below
/// `elo` (level 1 below all, level 9 above all).
pub fn level_for_elo(game: GameKind, elo: u32) -> u8 {
    elo_for_level(game)
        .iter()
        .rposition(|&rating| rating <= elo)
        .map_or(1, |index| index as u8 + 1)
}

impl SearchSettings {
    /// The level in force in `game`: `UCI_Elo`'s when strength is limited, else `Skill Level`'s.
    pub fn effective_level(&self, game: GameKind) -> u8 {
        if self.limit_strength {
            level_for_elo(game, self.elo).min(self.level)
        } else {
            self.level
        }
    }

    /// Reads the options every dialect shares (`MultiPV`, `Move Overhead`/`NetworkDelay`,
    /// `UCI_LimitStrength`, `UCI_Elo`, skill level). `None` when the name is not one of
    /// them; `Some(Err(message))` when the value is wrong.
    pub fn set(&mut self, name: &str, value: Option<&str>) -> Option<Result<(), String>> {
        let lower = name.to_ascii_lowercase().replace(['_', ' '], "");
        let result = match lower.as_str() {
            "multipv" | "usimultipv" => match value.and_then(parse_multipv) {
                Some(lines) => {
                    self.multipv = lines;
                    Ok(())
                }
                None => Err(format!("{name} needs a number from 1 to {MAX_LINES}")),
            },
            "moveoverhead" | "networkdelay" | "networkdelay2" => {
                match value.and_then(|v| v.trim().parse::<u64>().ok()) {
                    Some(ms) if ms <= MAX_OVERHEAD_MS => {
                        self.overhead = Duration::from_millis(ms);
                        Ok(())
                    }
                    _ => Err(format!(
                        "{name} needs a number of ms from 0 to {MAX_OVERHEAD_MS}"
                    )),
                }
            }
            "ucilimitstrength" => match value.and_then(parse_check) {
                Some(on) => {
                    self.limit_strength = on;
                    Ok(())
                }
                None => Err(format!("{name} needs true or false")),
            },
            // Pondering is the GUI's choice (it sends `go ponder`); the value is only checked.
            "ponder" | "usiponder" => match value.and_then(parse_check) {
                Some(_) => Ok(()),
                None => Err(format!("{name} needs true or false")),
            },
            "ucielo" => {
                let (lowest, highest) = (LOWEST_ELO, HIGHEST_ELO);
                match value.and_then(|v| v.trim().parse::<u32>().ok()) {
                    Some(elo) if (lowest..=highest).contains(&elo) => {
                        self.elo = elo;
                        Ok(())
                    }
                    _ => Err(format!("{name} needs a number from {lowest} to {highest}")),
                }
            }
            // `level` is UCCI's name for it.
            "skilllevel" | "level" => match value.and_then(parse_level) {
                Some(level) => {
                    self.level = level;
                    Ok(())
                }
                None => Err(format!("{name} needs a number from 1 to {MAX_LEVEL}")),
            },
            _ => return None,
        };
        Some(result)
    }

    /// The option lines for these settings in UCI/USI form (`option name … type …`).
    pub fn option_lines(&self, overhead_name: &str) -> Vec<String> {
        vec![
            format!("option name MultiPV type spin default 1 min 1 max {MAX_LINES}"),
            format!(
                "option name {overhead_name} type spin default {DEFAULT_OVERHEAD_MS} min 0 max {MAX_OVERHEAD_MS}"
            ),
            "option name UCI_LimitStrength type check default false".to_string(),
            format!(
                "option name UCI_Elo type spin default {} min {} max {}",
                HIGHEST_ELO, LOWEST_ELO, HIGHEST_ELO
            ),
        ]
    }
}

impl GoCommand {
    /// The limits for the side to move in `game`, with the level's node cap and noise applied.
    pub fn limits_for(&self, side: Side, game: GameKind, level: u8) -> Limits {
        let mut limits = self.limits;
        limits.time_left = self.own_time.or(self.time[side.index()]);
        limits.increment = self.own_increment.unwrap_or(self.increment[side.index()]);
        limits.byoyomi = self.byoyomi;
        if limits.time_left.is_none() && self.byoyomi > Duration::ZERO && limits.movetime.is_none()
        {
            limits.movetime = Some(self.byoyomi);
        }
        if level < MAX_LEVEL {
            let level_limits = limits_for_level(game, level, Duration::from_secs(3600));
            limits.nodes = Some(
                limits
                    .nodes
                    .map_or(level_limits.nodes.unwrap_or(u64::MAX), |n| {
                        n.min(level_limits.nodes.unwrap_or(u64::MAX))
                    }),
            );
            limits.noise = level_limits.noise;
            limits.seed = level_limits.seed;
            limits.blindness = level_limits.blindness;
        }
        limits
    }

    /// [`GoCommand::limits_for`] with the session's settings: level, lines, and the
    /// overhead taken off every clock figure (never below 1 ms). A `movetime` the GUI
    /// asked for is a search time, not a clock, and is searched whole (as Stockfish does);
    /// a `movetime` that stands for a byoyomi keeps the margin.
    pub fn limits_with(&self, side: Side, game: GameKind, settings: &SearchSettings) -> Limits {
        let mut limits = self.limits_for(side, game, settings.effective_level(game));
        limits.multipv = settings.multipv;
        let less = |time: Duration| {
            time.saturating_sub(settings.overhead)
                .max(Duration::from_millis(1))
        };
        limits.time_left = limits.time_left.map(less);
        if self.limits.movetime.is_none() {
            limits.movetime = limits.movetime.map(less);
        }
        if limits.byoyomi > Duration::ZERO {
            limits.byoyomi = less(limits.byoyomi);
        }
        limits
    }
}

/// The search's answer, written once the search (and any pondering) is over.
struct Answer {
    best: Option<Move>,
    ponder: Option<Move>,
}

/// Searches `game`, writing `info` lines; returns the move and the expected reply.
fn search_and_report(
    engine: &mut Engine,
    game: &Game,
    banned: &[Move],
    limits: Limits,
    stop: &AtomicBool,
    dialect: Dialect,
    out: &mut dyn Write,
) -> std::io::Result<Answer> {
    let start = game.position().clone();
    let mut failed = None;
    let several_lines = limits.multipv > 1;
    let mut root_moves = game.legal_moves();
    root_moves.retain(|mv| !banned.contains(&mv));
    let outcome = engine.search_among(game, root_moves.as_slice(), limits, stop, &mut |info| {
        let line = info_line(dialect, &start, info, several_lines);
        if let Err(error) = writeln!(out, "{line}") {
            failed = Some(error);
        }
    });
    if let Some(error) = failed {
        return Err(error);
    }
    Ok(match outcome {
        None => Answer {
            best: None,
            ponder: None,
        },
        Some(outcome) => {
            let ponder = outcome
                .lines
                .first()
                .filter(|line| line.principal_variation.first() == Some(&outcome.best))
                .and_then(|line| line.principal_variation.get(1).copied());
            Answer {
                best: Some(outcome.best),
                ponder,
            }
        }
    })
}

/// Writes the `bestmove` line (with `ponder <move>` when the line has a reply).
fn write_answer(
    answer: &Answer,
    start: &AnyPosition,
    dialect: Dialect,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match answer.best {
        Some(mv) => {
            let mut line = format!("bestmove {}", dialect.move_text(start, mv));
            if let Some(reply) = answer.ponder {
                let mut after = start.clone();
                after.play_unchecked(mv);
                let mut legal = crate::rules::MoveList::new();
                after.legal_moves(&mut legal);
                if legal.contains(reply) {
                    line.push_str(" ponder ");
                    line.push_str(&dialect.move_text(&after, reply));
                }
            }
            writeln!(out, "{line}")?;
        }
        None => writeln!(out, "{}", dialect.no_move())?,
    }
    out.flush()
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
    think_among(engine, game, &[], limits, stop, dialect, out)
}

/// [`think`] leaving the `banned` root moves out.
fn think_among(
    engine: &mut Engine,
    game: &Game,
    banned: &[Move],
    limits: Limits,
    stop: &AtomicBool,
    dialect: Dialect,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let answer = search_and_report(engine, game, banned, limits, stop, dialect, out)?;
    write_answer(&answer, game.position(), dialect, out)
}

/// A search while pondering: searched without end until `ponderhit` or `stop`; after
/// `ponderhit` a new search with the real limits starts from that moment (the table keeps
/// what pondering learned), and only then is `bestmove` written. A ponder search that
/// ends on its own (a forced line, a level's node cap) holds its answer until then.
fn ponder_and_think(
    engine: &mut Engine,
    game: &Game,
    banned: &[Move],
    limits: Limits,
    signals: &Signals,
    dialect: Dialect,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let mut ponder_limits = limits;
    ponder_limits.infinite = true;
    let answer = search_and_report(
        engine,
        game,
        banned,
        ponder_limits,
        &signals.interrupt,
        dialect,
        out,
    )?;
    let ended_alone = !signals.interrupt.load(Ordering::Relaxed);
    while !signals.stop.load(Ordering::Relaxed) && !signals.ponderhit.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(2));
    }
    signals.pondering.store(false, Ordering::Relaxed);
    if signals.stop.load(Ordering::Relaxed) || ended_alone {
        return write_answer(&answer, game.position(), dialect, out);
    }
    think_among(engine, game, banned, limits, &signals.stop, dialect, out)
}

/// Runs USI's `go mate` on a shogi position and writes `checkmate …` (with an `info`
/// line of the nodes and time spent first).
pub fn mate_lines(
    game: &Game,
    time: MateTime,
    table_megabytes: usize,
    stop: &AtomicBool,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    let AnyPosition::Shogi(position) = game.position() else {
        writeln!(out, "checkmate notimplemented")?;
        return out.flush();
    };
    let limits = crate::engine::mate::MateLimits {
        nodes: u64::MAX,
        deadline: match time {
            MateTime::Infinite => None,
            MateTime::Limited(limit) => Some(std::time::Instant::now() + limit),
        },
        table_megabytes,
    };
    let report = crate::engine::mate::solve(position, limits, stop);
    let millis = report.elapsed.as_millis().max(1) as u64;
    writeln!(
        out,
        "info time {millis} nodes {} nps {}",
        report.nodes,
        report.nodes * 1000 / millis
    )?;
    match report.answer {
        crate::engine::mate::MateAnswer::Mate(line) => {
            let mut text = String::from("checkmate");
            let mut after = position.clone();
            for mv in line {
                text.push(' ');
                text.push_str(&after.move_to_usi(mv));
                after.play_unchecked(mv);
            }
            writeln!(out, "{text}")?;
        }
        crate::engine::mate::MateAnswer::NoMate => writeln!(out, "checkmate nomate")?,
        crate::engine::mate::MateAnswer::Unknown => writeln!(out, "checkmate timeout")?,
    }
    out.flush()
}

/// How a dialect's `position` command names and reads a set-up position.
pub struct PositionSyntax<'a> {
    /// The words that may introduce a position (`fen`, `sfen`); the first names it in
    /// error messages.
    pub setup_words: &'a [&'a str],
    /// The position `startpos` means.
    pub start: &'a dyn Fn() -> AnyPosition,
    /// Reads the position after the setup word.
    pub read: &'a dyn Fn(&str) -> Result<AnyPosition, crate::rules::FenError>,
    /// Reads one of the moves after `moves`.
    pub parse_move: &'a dyn Fn(&AnyPosition, &str) -> Option<Move>,
}

/// Reads a `position (startpos | <setup word> <position>) [moves …]` command, the same
/// in every dialect. A position that cannot be read is refused (`None`, after an `info
/// string error`); a bad move keeps the game as it was before it (see [`replay_moves`]).
pub fn read_position_command(
    words: &[&str],
    syntax: &PositionSyntax,
    out: &mut dyn Write,
) -> std::io::Result<Option<Game>> {
    let (setup, moves) = match words.iter().position(|w| *w == "moves") {
        Some(index) => (&words[..index], &words[index + 1..]),
        None => (words, &[][..]),
    };
    let name = syntax.setup_words.first().copied().unwrap_or("fen");
    let start = match setup.first().copied() {
        Some("startpos") => (syntax.start)(),
        Some(word) if syntax.setup_words.contains(&word) => {
            let text = setup[1..].join(" ");
            match (syntax.read)(&text) {
                Ok(position) => position,
                Err(error) => {
                    writeln!(out, "info string error: bad {name} '{text}': {error}")?;
                    return Ok(None);
                }
            }
        }
        _ => {
            writeln!(
                out,
                "info string error: position needs 'startpos' or '{name} <{name}>'"
            )?;
            return Ok(None);
        }
    };
    let mut game = Game::new(start);
    replay_moves(&mut game, moves, syntax.parse_move, out)?;
    Ok(Some(game))
}

/// Splits UCI's and USI's `setoption name <name words> [value <value words>]` into the
/// name and the value; `None` when `name` is missing.
pub fn split_setoption(words: &[&str]) -> Option<(String, Option<String>)> {
    let text = words.join(" ");
    let after_name = text.strip_prefix("name ")?;
    Some(match after_name.split_once(" value ") {
        Some((name, value)) => (name.trim().to_string(), Some(value.trim().to_string())),
        None => (after_name.trim().to_string(), None),
    })
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

/// The largest transposition table a GUI may ask for, in MB.
pub const MAX_HASH_MEGABYTES: usize = 4096;

/// What a `go` asks the worker to do.
pub enum Job {
    /// A game search (`ponder`: hold `bestmove` until `ponderhit` or `stop`).
    Search {
        /// The limits once the move is really ours to play.
        limits: Limits,
        /// Started by `go ponder`.
        ponder: bool,
        /// Root moves not to play (UCCI `banmoves`).
        banned: Vec<Move>,
    },
    /// USI `go mate`.
    Mate(MateTime),
    /// `go perft <depth>`.
    Perft(u32),
}

/// The search side of a session, shared by every dialect: the engine, where background
/// searches write, and the running worker. `stop`, `ponderhit` and waiting for the end
/// live here once.
pub struct Searcher {
    /// The engine (its table survives from move to move).
    pub engine: Arc<Mutex<Engine>>,
    output: Option<SharedOutput>,
    worker: Option<Worker>,
}

impl Searcher {
    /// A searcher writing background searches to `output`; without one, `go` searches
    /// before returning.
    pub fn new(output: Option<SharedOutput>) -> Searcher {
        Searcher {
            engine: Arc::new(Mutex::new(Engine::default())),
            output,
            worker: None,
        }
    }

    /// Waits for a running search to end (stopping it first if it has no end of its own).
    pub fn finish(&mut self) {
        if let Some(mut worker) = self.worker.take() {
            worker.finish();
        }
    }

    /// Stops a running search at once and waits for its answer.
    pub fn stop(&mut self) {
        if let Some(mut worker) = self.worker.take() {
            worker.stop();
            worker.finish();
        }
    }

    /// `ponderhit`: the expected move was played; the ponder search becomes a timed one.
    pub fn ponderhit(&mut self) {
        if let Some(worker) = &self.worker {
            worker.ponderhit();
        }
    }

    /// True while a search (or a perft) runs.
    pub fn searching(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_running)
    }

    /// True when the running search has no end of its own (`go infinite`, or pondering).
    pub fn is_infinite(&self) -> bool {
        self.worker.as_ref().is_some_and(Worker::is_infinite)
    }

    /// Forgets what the engine learned (a new game).
    pub fn clear(&mut self) {
        self.engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
    }

    /// Resizes the engine's table (`Hash`, `USI_Hash`, UCCI `hashsize`).
    pub fn set_hash_megabytes(&mut self, megabytes: usize) {
        self.engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .set_hash_megabytes(megabytes);
    }

    /// Sets how many threads a search uses from an option value (1 to
    /// [`Engine::MAX_THREADS`]); anything else gets an `info string error`.
    pub fn set_threads_option(
        &mut self,
        value: Option<&str>,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        match value.and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(threads) if (1..=Engine::MAX_THREADS).contains(&threads) => {
                self.engine
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .set_threads(threads);
                Ok(())
            }
            _ => writeln!(
                out,
                "info string error: Threads needs a count from 1 to {}",
                Engine::MAX_THREADS
            ),
        }
    }

    /// Sets the table size from an option value in MB (1 to [`MAX_HASH_MEGABYTES`]); anything else gets an
    /// `info string error` naming the option as the dialect calls it.
    pub fn set_hash_option(
        &mut self,
        name: &str,
        value: Option<&str>,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        match value.and_then(|v| v.trim().parse::<usize>().ok()) {
            Some(megabytes) if (1..=MAX_HASH_MEGABYTES).contains(&megabytes) => {
                self.set_hash_megabytes(megabytes);
                Ok(())
            }
            _ => writeln!(
                out,
                "info string error: {name} needs a size from 1 to {MAX_HASH_MEGABYTES} MB"
            ),
        }
    }

    /// Starts `job` on `game`: on the worker thread when there is a shared output (the
    /// command loop keeps reading `stop`, `ponderhit` and `isready`), otherwise here,
    /// with an endless search limited to one second (and pondering ignored) so it returns.
    pub fn start(
        &mut self,
        game: &Game,
        job: Job,
        dialect: Dialect,
        out: &mut dyn Write,
    ) -> std::io::Result<()> {
        self.finish();
        match self.output.clone() {
            Some(output) => {
                self.worker = Some(Worker::start(
                    self.engine.clone(),
                    game.clone(),
                    job,
                    dialect,
                    output,
                ));
                Ok(())
            }
            None => {
                let stop = AtomicBool::new(false);
                match job {
                    Job::Search {
                        mut limits, banned, ..
                    } => {
                        if limits.infinite {
                            limits.infinite = false;
                            limits.movetime = Some(Duration::from_secs(1));
                        }
                        let mut engine = self.engine.lock().unwrap_or_else(|e| e.into_inner());
                        think_among(&mut engine, game, &banned, limits, &stop, dialect, out)
                    }
                    Job::Mate(time) => {
                        let time = match time {
                            MateTime::Infinite => MateTime::Limited(Duration::from_secs(10)),
                            limited => limited,
                        };
                        let megabytes = self.hash_megabytes();
                        mate_lines(game, time, megabytes, &stop, out)
                    }
                    Job::Perft(depth) => perft_lines(game.position(), depth, &stop, out),
                }
            }
        }
    }

    fn hash_megabytes(&self) -> usize {
        self.engine
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .hash_megabytes()
    }
}

impl Drop for Searcher {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The flags a worker's thread reads.
#[derive(Default)]
struct Signals {
    /// `stop` (or `quit`): end now and answer.
    stop: AtomicBool,
    /// `ponderhit`: the pondered move was played.
    ponderhit: AtomicBool,
    /// What the running search polls: set by `stop`, and by `ponderhit` while pondering.
    interrupt: AtomicBool,
    /// True until a ponder search has been hit or stopped.
    pondering: AtomicBool,
}

/// A search running on its own thread.
pub struct Worker {
    signals: Arc<Signals>,
    handle: Option<JoinHandle<()>>,
    infinite: bool,
}

impl Worker {
    /// Starts `job` on `game` on a new thread; its lines go to `output`.
    pub fn start(
        engine: Arc<Mutex<Engine>>,
        game: Game,
        job: Job,
        dialect: Dialect,
        output: SharedOutput,
    ) -> Worker {
        let signals = Arc::new(Signals::default());
        let infinite = match &job {
            Job::Search { limits, ponder, .. } => {
                signals.pondering.store(*ponder, Ordering::Relaxed);
                limits.infinite
            }
            Job::Mate(time) => *time == MateTime::Infinite,
            Job::Perft(_) => false,
        };
        let flags = signals.clone();
        let handle = std::thread::spawn(move || {
            let mut writer = LineWriter::new(output);
            // A broken output (the GUI went away) ends the job quietly.
            let _ = match job {
                Job::Search {
                    limits,
                    ponder,
                    banned,
                } => {
                    let mut engine = engine.lock().unwrap_or_else(|e| e.into_inner());
                    if ponder {
                        let (g, b) = (&game, &banned[..]);
                        ponder_and_think(&mut engine, g, b, limits, &flags, dialect, &mut writer)
                    } else {
                        let stop = &flags.stop;
                        think_among(
                            &mut engine,
                            &game,
                            &banned,
                            limits,
                            stop,
                            dialect,
                            &mut writer,
                        )
                    }
                }
                Job::Mate(time) => {
                    let megabytes = engine
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .hash_megabytes();
                    mate_lines(&game, time, megabytes, &flags.stop, &mut writer)
                }
                Job::Perft(depth) => perft_lines(game.position(), depth, &flags.stop, &mut writer),
            };
        });
        Worker {
            signals,
            handle: Some(handle),
            infinite,
        }
    }

    /// Asks the search to stop at once (it still writes its answer).
    pub fn stop(&self) {
        self.signals.stop.store(true, Ordering::Relaxed);
        self.signals.interrupt.store(true, Ordering::Relaxed);
    }

    /// `ponderhit`: ends pondering; the search goes on as a timed one.
    pub fn ponderhit(&self) {
        self.signals.ponderhit.store(true, Ordering::Relaxed);
        self.signals.interrupt.store(true, Ordering::Relaxed);
    }

    /// True while the search thread runs.
    pub fn is_running(&self) -> bool {
        self.handle.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// True when the search has no end of its own (`go infinite`, or pondering).
    pub fn is_infinite(&self) -> bool {
        self.infinite || self.signals.pondering.load(Ordering::Relaxed)
    }

    /// Waits for the search to end (an endless search is stopped first, or this would never return).
    pub fn finish(&mut self) {
        if self.is_infinite() {
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

/// What the command loop needs of a protocol session (UCI, USI or UCCI).
pub trait Session {
    /// Handles one command line, writing replies to `out`.
    fn handle(&mut self, line: &str, out: &mut dyn Write) -> std::io::Result<uci::Flow>;
    /// The session's engine and running search.
    fn searcher(&self) -> &Searcher;
    /// The same, to stop it.
    fn searcher_mut(&mut self) -> &mut Searcher;
    /// True while a search (or a perft) runs on the worker.
    fn searching(&self) -> bool {
        self.searcher().searching()
    }
    /// True when the running search has no end of its own (`go infinite`).
    fn search_is_infinite(&self) -> bool {
        self.searcher().is_infinite()
    }
    /// Stops the running search at once and waits for its last lines.
    fn stop_search(&mut self) {
        self.searcher_mut().stop()
    }
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
/// is stopped (it still writes its `bestmove`) and the loop ends. `isready` waits behind
/// commands already waiting, so `readyok` always follows their answers. Lines are bounded
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
        // `isready` is answered at once during a search, but never ahead of commands
        // still waiting: its `readyok` says everything sent before it was handled.
        let overtakes = command == "isready" && !waiting.is_empty();
        let busy = session.searching() || !waiting.is_empty();
        if busy && (!IMMEDIATE.contains(&command) || overtakes) {
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

/// Reads a `check` option value: `true` or `false` (any case; UCCI's `on`/`off` too).
pub fn parse_check(value: &str) -> Option<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "true" | "on" => Some(true),
        "false" | "off" => Some(false),
        _ => None,
    }
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

/// Reads a `Skill Level`-style option value: a level 1–10; `None` outside that range
/// (the option is advertised `min 1 max 10`, so a value outside it is an error, not
/// silently moved to the nearest end).
pub fn parse_level(value: &str) -> Option<u8> {
    value
        .trim()
        .parse::<i64>()
        .ok()
        .filter(|n| (1..=MAX_LEVEL as i64).contains(n))
        .map(|n| n as u8)
}
