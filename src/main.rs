//! The `qipan` command: the game (default), engine protocols and tools.

use clap::{Parser, Subcommand};
use qipan::rules::any::Variant;
use qipan::rules::Position;
use std::io::Write;
use std::process::ExitCode;

/// qipan (棋盤): xiangqi, shogi and janggi in the terminal.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// Speak Fairy-Stockfish's UCI dialect on standard input and output.
    Uci,
    /// Speak USI (shogi) on standard input and output, for shogi GUIs.
    Usi,
    /// Measure perft speed per game, next to Fairy-Stockfish when it is installed.
    Bench {
        /// Shallower depths: a few seconds in all.
        #[arg(long)]
        quick: bool,
        /// Do not run Fairy-Stockfish even when it is installed.
        #[arg(long)]
        no_compare: bool,
    },
    /// Count the legal move tree of a position (per root move, like `go perft`).
    Perft {
        /// The rule set: xiangqi, shogi, janggi, janggi-traditional, janggi-modern, janggi-casual.
        variant: String,
        /// Depth in plies.
        depth: u32,
        /// A FEN (Fairy-Stockfish form; SFEN also for shogi). Default: the start position.
        fen: Option<String>,
    },
    /// Print the start position of a game.
    Show {
        /// The rule set.
        variant: String,
    },
}

fn variant_or_error(name: &str) -> Result<Variant, String> {
    Variant::from_name(name).ok_or_else(|| {
        format!("unknown game '{name}': use xiangqi, shogi, janggi, janggi-traditional, janggi-modern or janggi-casual")
    })
}

fn run(cli: Cli) -> Result<(), String> {
    let stdout = std::io::stdout();
    match cli.command {
        Some(Mode::Uci) => {
            let stdin = std::io::stdin();
            qipan::protocol::uci::run(&mut stdin.lock(), std::io::stdout())
                .map_err(|e| e.to_string())
        }
        Some(Mode::Usi) => {
            let stdin = std::io::stdin();
            qipan::protocol::usi::run(&mut stdin.lock(), std::io::stdout())
                .map_err(|e| e.to_string())
        }
        Some(Mode::Bench { quick, no_compare }) => {
            let agreed = qipan::bench::run(quick, !no_compare, &mut stdout.lock())
                .map_err(|e| e.to_string())?;
            if agreed {
                Ok(())
            } else {
                Err("perft counts differ from Fairy-Stockfish".to_string())
            }
        }
        Some(Mode::Perft {
            variant,
            depth,
            fen,
        }) => {
            let variant = variant_or_error(&variant)?;
            let position = match fen {
                Some(fen) => variant
                    .position_from_fen(&fen)
                    .map_err(|e| format!("bad FEN: {e}"))?,
                None => variant.start(),
            };
            let mut out = stdout.lock();
            let mut total = 0;
            for (mv, count) in position.divide(depth) {
                writeln!(out, "{mv}: {count}").map_err(|e| e.to_string())?;
                total += count;
            }
            writeln!(out, "\nNodes searched: {total}").map_err(|e| e.to_string())
        }
        Some(Mode::Show { variant }) => {
            let variant = variant_or_error(&variant)?;
            println!("{}", variant.start().fen());
            Ok(())
        }
        None => {
            println!("qipan {}", env!("CARGO_PKG_VERSION"));
            println!("The terminal board is on its way; meanwhile:");
            println!("  qipan uci      engine protocol (Fairy-Stockfish dialect)");
            println!("  qipan usi      shogi engine protocol (USI)");
            println!("  qipan bench    perft speed next to Fairy-Stockfish");
            println!("  qipan perft janggi 3");
            for variant in Variant::ALL {
                println!("  {:<20} {}", variant.id(), variant.start().fen());
            }
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("qipan: {message}");
            ExitCode::FAILURE
        }
    }
}
