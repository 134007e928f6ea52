//! The `qipan` command: the game (default), engine protocols and tools.

use clap::{Parser, Subcommand};
use qipan::app::{App, GlyphSet, Settings, StartOptions};
use qipan::i18n::{Key, Language};
use qipan::protocol::client::EngineSpec;
use qipan::record::autosave;
use qipan::rules::any::Variant;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::Position;
use std::io::Write;
use std::process::ExitCode;

/// qipan (棋盤): xiangqi, shogi and janggi in the terminal.
#[derive(Parser, Debug)]
#[command(version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Option<Mode>,
    /// Latin letters and plain ASCII lines, for terminals without CJK fonts.
    #[arg(long, global = true)]
    ascii: bool,
    /// For terminals that draw box-drawing characters two columns wide.
    #[arg(long, global = true, conflicts_with = "ascii")]
    wide_lines: bool,
    /// Interface language: en or ko (default: from LANG).
    #[arg(long, global = true, value_name = "LANGUAGE")]
    lang: Option<String>,
    /// An external engine to offer as an opponent: 'NAME=COMMAND ARGS' (UCI, or USI when
    /// the name or command says usi). May be given more than once.
    #[arg(long = "engine", global = true, value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// The external engine (by NAME) the hint key asks instead of the built-in one.
    #[arg(long, global = true, value_name = "NAME")]
    hint_engine: Option<String>,
}

#[derive(Subcommand, Debug)]
enum Mode {
    /// Play xiangqi (Chinese chess) at once, with the default settings.
    Xiangqi,
    /// Play shogi (Japanese chess) at once, with the default settings.
    Shogi,
    /// Play janggi (Korean chess) at once, with the default settings.
    Janggi,
    /// Play gungjanggi (Manual 1) at once, with the default settings.
    Gungjanggi,
    /// Measure how long the terminal client takes to draw a full frame.
    RenderBench {
        /// Terminal width.
        #[arg(long, default_value_t = 120)]
        width: u16,
        /// Terminal height.
        #[arg(long, default_value_t = 40)]
        height: u16,
    },
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

/// The rule set a game subcommand starts (adding a game is one line here).
fn game_of(mode: &Mode) -> Option<Variant> {
    match mode {
        Mode::Xiangqi => Some(Variant::Xiangqi),
        Mode::Shogi => Some(Variant::Shogi),
        Mode::Janggi => Some(Variant::Janggi(JanggiRules::KJA)),
        Mode::Gungjanggi => Some(Variant::Janggi(JanggiRules::GUNGJANGGI)),
        _ => None,
    }
}

fn settings(cli: &Cli) -> Result<Settings, String> {
    let language = match cli.lang.as_deref() {
        None => Language::from_environment(),
        Some(name) if name.starts_with("ko") => Language::Korean,
        Some(name) if name.starts_with("en") => Language::English,
        Some(other) => return Err(format!("unknown language '{other}': use en or ko")),
    };
    let glyphs = if cli.ascii {
        GlyphSet::Latin
    } else if cli.wide_lines {
        GlyphSet::CjkWideLines
    } else {
        GlyphSet::Cjk
    };
    let engines = cli
        .engines
        .iter()
        .map(|flag| EngineSpec::from_flag(flag))
        .collect::<Result<Vec<_>, _>>()?;
    let hint_engine = match &cli.hint_engine {
        None => None,
        Some(name) => Some(
            engines
                .iter()
                .position(|spec| &spec.name == name)
                .ok_or_else(|| format!("--hint-engine '{name}': no --engine has that name"))?,
        ),
    };
    Ok(Settings {
        language,
        glyphs,
        engines,
        hint_engine,
    })
}

/// The start screen, offering to continue the autosaved game when there is one; an
/// autosave that does not load is reported in the status line, never fatal.
fn app_offering_autosave(settings: Settings) -> App {
    let mut app = App::new(settings);
    if let Some(path) = autosave::default_path().filter(|path| path.exists()) {
        match autosave::load(&path) {
            Ok(saved) => app.offer_saved_game(saved),
            Err(error) => app.show_error(Key::StatusAutosaveUnreadable, &error.to_string()),
        }
    }
    app
}

fn run(cli: Cli) -> Result<(), String> {
    let stdout = std::io::stdout();
    let settings = settings(&cli)?;
    if let Some(game) = cli.command.as_ref().and_then(game_of) {
        let app = App::with_game(settings, StartOptions::for_variant(game));
        return qipan::tui::run(app).map_err(|e| e.to_string());
    }
    match cli.command {
        Some(Mode::Xiangqi | Mode::Shogi | Mode::Janggi | Mode::Gungjanggi) => Ok(()),
        Some(Mode::RenderBench { width, height }) => {
            for (name, micros) in qipan::ui::benchmark::frame_times(settings, width, height) {
                println!("{name:<24} {micros:>8.1} µs per frame at {width}×{height}");
            }
            Ok(())
        }
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
        None => qipan::tui::run(app_offering_autosave(settings)).map_err(|e| e.to_string()),
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
