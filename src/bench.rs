//! `qipan bench`: perft speed of the rules engine per game, optionally side by
//! side with Fairy-Stockfish's `go perft` on the same machine in the same run.

use crate::rules::any::Variant;
use crate::rules::Position;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// One benchmark position.
#[derive(Clone, Debug)]
pub struct BenchCase {
    /// The rule set.
    pub variant: Variant,
    /// The position (Fairy-Stockfish FEN, which Fairy-Stockfish reads too).
    pub fen: String,
    /// Perft depth.
    pub depth: u32,
}

/// The standard cases: each game's start position and a busy middlegame.
pub fn cases(quick: bool) -> Vec<BenchCase> {
    let deep = if quick { 4 } else { 5 };
    let case = |variant: Variant, fen: &str, depth: u32| BenchCase {
        variant,
        fen: fen.to_string(),
        depth,
    };
    vec![
        case(Variant::Xiangqi, crate::rules::xiangqi::START_FEN, deep),
        case(
            Variant::Xiangqi,
            "r1bakab1r/9/1cn4c1/p1p1p1p1p/9/6P2/P1P1P1n1P/1C2C1N2/9/RNBAKAB1R w - - 4 4",
            deep - 1,
        ),
        case(
            Variant::Janggi(crate::rules::janggi::JanggiRules::KJA),
            crate::rules::janggi::START_FEN,
            deep,
        ),
        case(
            Variant::Shogi,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL[] w - - 0 1",
            deep,
        ),
        case(
            Variant::Shogi,
            "5g3/l2gk4/r1sp1s1p1/1pp1p1p2/9/2P+b2PP1/1P2PP2+l/2S3KR1/1N2GGS1L[NPbnnlppppp] w - - 0 1",
            3,
        ),
    ]
}

/// What one run measured.
#[derive(Clone, Debug)]
pub struct Measurement {
    /// Leaf nodes counted.
    pub nodes: u64,
    /// Wall-clock time taken.
    pub elapsed: Duration,
}

impl Measurement {
    /// Nodes per second.
    pub fn nodes_per_second(&self) -> f64 {
        self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Runs qipan's perft on a case.
pub fn run_qipan(case: &BenchCase) -> Result<Measurement, String> {
    let position = case
        .variant
        .position_from_fen(&case.fen)
        .map_err(|e| format!("bad bench fen: {e}"))?;
    let started = Instant::now();
    let nodes = position.perft(case.depth);
    Ok(Measurement {
        nodes,
        elapsed: started.elapsed(),
    })
}

/// Finds a Fairy-Stockfish binary: `$QIPAN_FAIRY_STOCKFISH`, the PATH, or Debian's /usr/games.
pub fn find_fairy_stockfish() -> Option<String> {
    if let Ok(path) = std::env::var("QIPAN_FAIRY_STOCKFISH") {
        return Some(path);
    }
    let candidates = ["fairy-stockfish", "/usr/games/fairy-stockfish"];
    candidates
        .iter()
        .find(|c| {
            Command::new(c)
                .stdin(Stdio::piped())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .map(|mut child| {
                    let _ = child.kill();
                    let _ = child.wait();
                    true
                })
                .unwrap_or(false)
        })
        .map(|c| c.to_string())
}

/// Runs Fairy-Stockfish's `go perft` on a case and times it from the command to `Nodes searched`.
pub fn run_fairy_stockfish(binary: &str, case: &BenchCase) -> Result<Measurement, String> {
    let mut child = Command::new(binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start {binary}: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut reader = BufReader::new(stdout);
    let send = |stdin: &mut std::process::ChildStdin, text: &str| {
        stdin
            .write_all(text.as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|e| format!("writing to {binary}: {e}"))
    };
    send(
        &mut stdin,
        &format!(
            "uci\nsetoption name UCI_Variant value {}\nposition fen {}\nisready\n",
            case.variant.protocol_name(),
            case.fen
        ),
    )?;
    let mut line = String::new();
    loop {
        line.clear();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err(format!("{binary} closed before readyok"));
        }
        if line.trim() == "readyok" {
            break;
        }
    }
    let started = Instant::now();
    send(&mut stdin, &format!("go perft {}\n", case.depth))?;
    let nodes = loop {
        line.clear();
        if reader.read_line(&mut line).map_err(|e| e.to_string())? == 0 {
            return Err(format!("{binary} closed during perft"));
        }
        if let Some(count) = line.trim().strip_prefix("Nodes searched:") {
            break count
                .trim()
                .parse::<u64>()
                .map_err(|e| format!("bad node count: {e}"))?;
        }
    };
    let elapsed = started.elapsed();
    let _ = send(&mut stdin, "quit\n");
    let _ = child.wait();
    Ok(Measurement { nodes, elapsed })
}

/// Runs every case, prints a table, and returns false if a count disagreed with Fairy-Stockfish.
pub fn run(quick: bool, compare: bool, out: &mut dyn Write) -> std::io::Result<bool> {
    let fairy = if compare {
        find_fairy_stockfish()
    } else {
        None
    };
    if compare && fairy.is_none() {
        writeln!(
            out,
            "fairy-stockfish not found (apt-get install fairy-stockfish); measuring qipan only"
        )?;
    }
    writeln!(
        out,
        "{:<18} {:>5} {:>13} {:>14} {:>14} {:>7}",
        "position", "depth", "nodes", "qipan nodes/s", "FSF nodes/s", "ratio"
    )?;
    let mut agreed = true;
    for case in cases(quick) {
        let name = format!(
            "{}{}",
            case.variant.protocol_name(),
            if case.fen == case.variant.start().fen() || case.fen.starts_with("lnsgkgsnl/1r5b1/") {
                " start"
            } else {
                " middle"
            }
        );
        let ours = match run_qipan(&case) {
            Ok(m) => m,
            Err(e) => {
                writeln!(out, "{name}: {e}")?;
                agreed = false;
                continue;
            }
        };
        let theirs = fairy
            .as_deref()
            .map(|binary| run_fairy_stockfish(binary, &case));
        let (their_speed, ratio) = match &theirs {
            Some(Ok(m)) => {
                if m.nodes != ours.nodes {
                    agreed = false;
                    writeln!(
                        out,
                        "  count differs: qipan {} vs Fairy-Stockfish {}",
                        ours.nodes, m.nodes
                    )?;
                }
                (
                    format!("{:.0}", m.nodes_per_second()),
                    format!("{:.2}x", ours.nodes_per_second() / m.nodes_per_second()),
                )
            }
            Some(Err(e)) => (format!("error: {e}"), String::new()),
            None => ("-".to_string(), String::new()),
        };
        writeln!(
            out,
            "{:<18} {:>5} {:>13} {:>14.0} {:>14} {:>7}",
            name,
            case.depth,
            ours.nodes,
            ours.nodes_per_second(),
            their_speed,
            ratio
        )?;
    }
    Ok(agreed)
}
