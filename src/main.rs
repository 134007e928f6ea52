//! The `qipan` command: the game (default), engine protocols and tools.

use clap::{CommandFactory, Parser, Subcommand};
use qipan::analysis::Budget;
use qipan::app::{App, StartOptions};
use qipan::config;
use qipan::i18n::Key;
use qipan::protocol::client::EngineSpec;
use qipan::record::autosave;
use qipan::rules::any::Variant;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::notation::Notation;
use qipan::rules::{Position, Side};
use std::io::Write;
use std::path::Path;
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
    /// Interface language: en, ko, zh or ja (default: from LANG).
    #[arg(long, global = true, value_name = "LANGUAGE")]
    lang: Option<String>,
    /// An external engine to offer as an opponent: 'NAME=COMMAND ARGS' (UCI, or USI when
    /// the name or command says usi). May be given more than once; adds to the config's.
    #[arg(long = "engine", global = true, value_name = "NAME=COMMAND")]
    engines: Vec<String>,
    /// The external engine (by NAME) the hint key and live analysis ask instead of the
    /// built-in one (in the games it plays).
    #[arg(long, global = true, value_name = "NAME")]
    hint_engine: Option<String>,
    /// Colour theme: wood, dark, contrast, sixteen, or a theme file.
    #[arg(long, global = true, value_name = "THEME")]
    theme: Option<String>,
    /// Read settings from this file instead of config.toml in qipan's config folder
    /// (`qipan config path` names it).
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
    /// Append a log to FILE: engine traffic, how records were read, errors, with
    /// timestamps (also the config's `log` key). Off by default.
    #[arg(long, global = true, value_name = "FILE")]
    log: Option<std::path::PathBuf>,
}

#[derive(Subcommand, Debug)]
enum ConfigCommand {
    /// Print where the configuration is read from.
    Path,
    /// Print an example configuration with every option at its default.
    Example,
    /// Read the configuration and report every problem in it.
    Check,
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
    /// Speak UCCI (xiangqi) on standard input and output, for Chinese xiangqi GUIs.
    Ucci,
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
    /// Open a game record (PGN, .gib, FEN, USI line) in the terminal client, at its
    /// last position: step back through it or play on.
    Open {
        /// The record file.
        file: std::path::PathBuf,
        /// Which game of a file holding several to open (1 = the first).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
    },
    /// Convert a game record: `convert IN OUT` (formats from the extensions) or
    /// `convert IN --to FORMAT` (to standard output).
    Convert {
        /// The record to read.
        input: std::path::PathBuf,
        /// The file to write; its extension names the format.
        output: Option<std::path::PathBuf>,
        /// The format to print: pgn, fen, usi, kif or csa.
        #[arg(long, value_name = "FORMAT", conflicts_with = "output")]
        to: Option<String>,
        /// PGN moves in: iccs (xiangqi default), wxf, chinese, chinese-traditional,
        /// korean (janggi default), korean-hanja or uci.
        #[arg(long, value_name = "NOTATION")]
        notation: Option<String>,
        /// Which game of a file holding several to convert (1 = the first).
        #[arg(long, value_name = "N", conflicts_with = "all")]
        game: Option<usize>,
        /// Convert every game of the file into one PGN.
        #[arg(long)]
        all: bool,
    },
    /// Analyse every position of a record's main line and print each move's score, the
    /// best move, the engine's line and a mark (?! inaccuracy, ? mistake, ?? blunder).
    /// `--engine NAME` picks a configured engine (or one given as NAME=COMMAND).
    Analyse {
        /// The record file (PGN, KIF, KI2, CSA, .gib, FEN/USI line).
        file: std::path::PathBuf,
        /// Which game of a file holding several to analyse (1 = the first).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// Seconds per position (default: a node budget, the same on every machine).
        #[arg(long, value_name = "S", conflicts_with = "nodes")]
        time: Option<f64>,
        /// Nodes per position.
        #[arg(long, value_name = "N")]
        nodes: Option<u64>,
        /// Also write the record with the analysis as comments (format from the extension).
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
    },
    /// The configuration file: where it is, an example, a check.
    Config {
        #[command(subcommand)]
        command: ConfigCommand,
    },
    /// Print the start position of a game.
    Show {
        /// The rule set.
        variant: String,
    },
    /// Print a completion script for a shell: bash, zsh, fish, powershell or elvish.
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Print qipan's manual page (roff), e.g. `qipan man > qipan.1`; with `--dir`, write
    /// it and a page for each subcommand (qipan-convert.1, …) into a folder.
    Man {
        /// The folder to write every page into (e.g. ~/.local/share/man/man1).
        #[arg(long, value_name = "FOLDER")]
        dir: Option<std::path::PathBuf>,
    },
}

/// Writes a line to standard output ([`write_out`]); `?` passes its error on.
macro_rules! say {
    ($($argument:tt)*) => {
        write_out(&format!("{}\n", format_args!($($argument)*)))
    };
}

/// Writes text to standard output as it is ([`write_out`]).
macro_rules! say_raw {
    ($($argument:tt)*) => {
        write_out(&format!($($argument)*))
    };
}

/// Writes a line to standard error, escaped ([`qipan::untrusted`]); a standard error
/// that cannot be written to is no reason to stop.
macro_rules! note {
    ($($argument:tt)*) => {
        write_note(&format!($($argument)*))
    };
}

/// Writes `text` to standard output. A closed pipe (`qipan show xiangqi | head -0`) ends
/// qipan at once and quietly, with the status a shell gives a process a broken pipe ended
/// (141), as Unix tools do; any other failure (a full disk) is an error to report.
fn write_out(text: &str) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(output_error)
}

/// The error of a failed write to standard output; a broken pipe ends qipan quietly.
fn output_error(error: std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(BROKEN_PIPE_STATUS);
    }
    format!("standard output: {error}")
}

/// The exit status of a process a broken pipe ended (128 + SIGPIPE).
const BROKEN_PIPE_STATUS: i32 = 141;

/// Writes one line to standard error, control characters escaped; failures are ignored.
fn write_note(text: &str) {
    let _ = writeln!(std::io::stderr(), "{}", qipan::untrusted::escape(text));
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

/// The config file's path and its settings merged with the command-line flags.
fn load_config(cli: &Cli) -> Result<(Option<std::path::PathBuf>, config::Loaded), String> {
    let flags = config::Flags {
        language: cli.lang.clone(),
        ascii: cli.ascii,
        wide_lines: cli.wide_lines,
        theme: cli.theme.clone(),
    };
    let path = config::path(cli.config.as_deref());
    let loaded = config::load(path.as_deref(), &flags)?;
    Ok((path, loaded))
}

/// `qipan config path|example|check`, speaking the configured language (the file's
/// `language`, then `--lang`; `auto` follows the environment).
fn config_command(
    command: &ConfigCommand,
    path: Option<&Path>,
    loaded: &config::Loaded,
) -> Result<(), String> {
    let language = loaded.config.language.resolve();
    match command {
        ConfigCommand::Path => match path {
            Some(path) if path.exists() => {
                say!("{}", path.display())?;
                Ok(())
            }
            Some(path) => {
                say!(
                    "{} {}",
                    path.display(),
                    language.text(Key::ConfigPathMissing)
                )?;
                Ok(())
            }
            None => Err(language.text(Key::NoConfigFolder).to_string()),
        },
        ConfigCommand::Example => {
            say_raw!("{}", config::EXAMPLE)?;
            Ok(())
        }
        ConfigCommand::Check => {
            for warning in &loaded.warnings {
                say!("{}", warning.text(language))?;
            }
            if loaded.warnings.is_empty() {
                let checked = path.map_or_else(
                    || language.text(Key::ConfigCheckDefaults).to_string(),
                    |path| path.display().to_string(),
                );
                say!("{}", language.format(Key::ConfigCheckOk, &[&checked]))?;
                Ok(())
            } else {
                Err(language.config_problems(loaded.warnings.len()))
            }
        }
    }
}

/// The start screen, offering to continue the autosaved game when there is one (what
/// can be read of a damaged one: [`qipan::tui::offer_autosave`]), never fatal.
fn app_offering_autosave(app: App) -> App {
    let mut app = app;
    if let Some(path) = autosave::default_path() {
        qipan::tui::offer_autosave(&mut app, &path);
    }
    app
}

fn run(cli: Cli) -> Result<(), String> {
    let stdout = std::io::stdout();
    // Shell integration needs no settings, so a broken config cannot stop it.
    match &cli.command {
        Some(Mode::Completions { shell }) => {
            let mut out = Vec::new();
            clap_complete::generate(*shell, &mut Cli::command(), "qipan", &mut out);
            return stdout.lock().write_all(&out).map_err(|e| e.to_string());
        }
        Some(Mode::Man { dir: Some(dir) }) => {
            std::fs::create_dir_all(dir)
                .and_then(|()| clap_mangen::generate_to(Cli::command(), dir))
                .map_err(|e| format!("{}: {e}", dir.display()))?;
            println!("{}", dir.display());
            return Ok(());
        }
        Some(Mode::Man { dir: None }) => {
            let mut out = Vec::new();
            clap_mangen::Man::new(Cli::command())
                .render(&mut out)
                .map_err(|e| e.to_string())?;
            return stdout.lock().write_all(&out).map_err(|e| e.to_string());
        }
        _ => {}
    }
    let (path, mut loaded) = load_config(&cli)?;
    if let Some(file) = cli.log.as_ref().or(loaded.config.log_file.as_ref()) {
        qipan::logging::start(file).map_err(|e| format!("{}: {e}", file.display()))?;
        log::info!(target: "qipan", "arguments: {:?}", std::env::args().collect::<Vec<_>>());
        log::info!(
            target: "qipan",
            "config: {}",
            path.as_deref().map_or("(none)".to_string(), |p| p.display().to_string())
        );
        for warning in &loaded.warnings {
            log::warn!(target: "config", "{}", warning.text(qipan::i18n::Language::English));
        }
    }
    let folder = path.as_deref().and_then(Path::parent);
    let (user_theme, theme_warnings) = qipan::theme::load_configured(&loaded.config.theme, folder);
    if user_theme.is_none() && !theme_warnings.is_empty() {
        loaded.config.theme = "wood".to_string();
    }
    loaded.warnings.extend(theme_warnings);
    let settings = loaded.config.settings();
    if let Some(Mode::Config { command }) = &cli.command {
        return config_command(command, path.as_deref(), &loaded);
    }
    // The configured games folder, unless QIPAN_GAMES_DIR names one already.
    if let Some(folder) = &loaded.config.games_folder {
        let variable = qipan::record::library::GAMES_VARIABLE;
        if std::env::var_os(variable).is_none_or(|v| v.is_empty()) {
            std::env::set_var(variable, folder);
        }
    }
    // The configured autosave folder, unless QIPAN_AUTOSAVE names a file already (set
    // here, before any thread starts, so every autosave path lookup sees it).
    if let Some(folder) = &loaded.config.autosave_folder {
        if std::env::var_os(autosave::PATH_VARIABLE).is_none_or(|v| v.is_empty()) {
            std::env::set_var(autosave::PATH_VARIABLE, folder.join("autosave.txt"));
        }
    }
    remove_stale_temporary_files(path.as_deref());
    let mut app = App::from_config(loaded.config.clone(), path, &loaded.warnings);
    // `qipan analyse --engine NAME` names an engine; NAME=COMMAND adds one everywhere.
    let analysing = matches!(cli.command, Some(Mode::Analyse { .. }));
    let (engine_flags, engine_names): (Vec<String>, Vec<String>) = if analysing {
        cli.engines
            .iter()
            .cloned()
            .partition(|flag| flag.contains('='))
    } else {
        (cli.engines.clone(), Vec::new())
    };
    add_engine_flags(&mut app, &engine_flags, cli.hint_engine.as_deref())?;
    // The flags may have moved the engines: the `[analysis] engine` is found again by name.
    app.settings.analysis_engine = loaded.config.analysis_engine_index(&app.settings.engines);
    let mode = qipan::theme::ColorMode::from_environment();
    app.set_theme(&loaded.config.theme, user_theme, mode);
    if let Some(game) = cli.command.as_ref().and_then(game_of) {
        app.options = StartOptions {
            players: app.options.players,
            ..StartOptions::for_variant(game)
        };
        app.start_game();
        return qipan::tui::run(app).map_err(|e| e.to_string());
    }
    match cli.command {
        Some(
            Mode::Xiangqi
            | Mode::Shogi
            | Mode::Janggi
            | Mode::Gungjanggi
            | Mode::Config { .. }
            | Mode::Completions { .. }
            | Mode::Man { .. },
        ) => Ok(()),
        Some(Mode::RenderBench { width, height }) => {
            for (name, micros) in qipan::ui::benchmark::frame_times(settings, width, height) {
                say!("{name:<24} {micros:>8.1} µs per frame at {width}×{height}")?;
            }
            Ok(())
        }
        Some(Mode::Uci) => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            qipan::protocol::uci::run(stdin, std::io::stdout()).map_err(output_error)
        }
        Some(Mode::Usi) => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            qipan::protocol::usi::run(stdin, std::io::stdout()).map_err(output_error)
        }
        Some(Mode::Ucci) => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            qipan::protocol::ucci::run(stdin, std::io::stdout()).map_err(output_error)
        }
        Some(Mode::Bench { quick, no_compare }) => {
            let agreed =
                qipan::bench::run(quick, !no_compare, &mut stdout.lock()).map_err(output_error)?;
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
                    .position_from_outside(&fen)
                    .map_err(|e| format!("bad FEN: {e}"))?,
                None => variant.start(),
            };
            let mut out = stdout.lock();
            let mut total = 0;
            for (mv, count) in position.divide(depth) {
                writeln!(out, "{mv}: {count}").map_err(output_error)?;
                total += count;
            }
            writeln!(out, "\nNodes searched: {total}").map_err(output_error)
        }
        Some(Mode::Show { variant }) => {
            let variant = variant_or_error(&variant)?;
            say!("{}", variant.start().fen())?;
            Ok(())
        }
        Some(Mode::Open { file, game }) => {
            // What can be told at once is told before the terminal client starts; the
            // reading itself happens on a worker there, with progress and Esc to cancel.
            qipan::record::games::check_record_file(&file)
                .map_err(|reason| format!("{}: {reason}", file.display()))?;
            let number = game.unwrap_or(1);
            if number == 0 {
                return Err(format!(
                    "{}: games are numbered from 1; there is no game 0",
                    file.display()
                ));
            }
            app.start_opening(qipan::record::library::OpenRequest::File { path: file, number });
            qipan::tui::run(app).map_err(|e| e.to_string())
        }
        Some(Mode::Convert {
            input,
            output,
            to,
            notation,
            game,
            all,
        }) => convert(
            &input,
            output.as_deref(),
            to.as_deref(),
            notation.as_deref(),
            if all {
                GamesToConvert::All
            } else {
                GamesToConvert::One(game)
            },
        ),
        Some(Mode::Analyse {
            file,
            game,
            time,
            nodes,
            out,
        }) => {
            // The engine named last, else the last one given as NAME=COMMAND, else qipan's own.
            let engine = engine_names.last().cloned().or_else(|| {
                engine_flags
                    .last()
                    .and_then(|flag| flag.split_once('='))
                    .map(|(name, _)| name.trim().to_string())
            });
            let budget = match (time, nodes) {
                (Some(seconds), _) => {
                    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
                        return Err(format!(
                            "--time {seconds}: give the seconds per position, more than 0 and at most 3600"
                        ));
                    }
                    Budget::Time(std::time::Duration::from_secs_f64(seconds))
                }
                (None, Some(0)) => return Err("--nodes 0: give at least 1 node".to_string()),
                (None, Some(nodes)) => Budget::Nodes(nodes),
                (None, None) => Budget::default(),
            };
            analyse_command(&app, &file, game, engine.as_deref(), budget, out.as_deref())
        }
        None => qipan::tui::run(app_offering_autosave(app)).map_err(|e| e.to_string()),
    }
}

/// `qipan analyse`: reads the record, analyses its main line with a progress bar on
/// standard error, prints the per-move report, and writes the commented record to `out`.
fn analyse_command(
    app: &App,
    file: &Path,
    number: Option<usize>,
    engine_name: Option<&str>,
    budget: Budget,
    out: Option<&Path>,
) -> Result<(), String> {
    use qipan::analysis::{self, Analyser, Settings};
    use std::io::IsTerminal;
    let language = app.settings.language;
    let out_format = match out {
        Some(path) => Some(analysis_out_format(path)?),
        None => None,
    };
    let record = match read_chosen_game(file, number, "analysing")?.0 {
        Ok(record) => record,
        Err(mut error) => match error.partial.take() {
            Some(partial) => {
                eprintln!("qipan: {error}; analysing the moves before it");
                *partial
            }
            None => return Err(error.to_string()),
        },
    };
    let game = &record.game;
    let variant = game.variant();
    let mut builtin;
    let mut external;
    let mut analyser = match engine_name {
        None => {
            builtin = qipan::engine::Engine::new(64);
            Analyser::BuiltIn(&mut builtin)
        }
        Some(name) => {
            let spec = app
                .settings
                .engines
                .iter()
                .find(|spec| spec.name == name)
                .ok_or_else(|| {
                    format!("--engine '{name}': no engine has that name (configure it in [[engines]] or give NAME=COMMAND)")
                })?;
            if !spec.can_play(variant) {
                return Err(format!(
                    "--engine '{name}': a {} engine cannot analyse {}",
                    spec.protocol.name(),
                    variant.id()
                ));
            }
            external = qipan::protocol::client::ExternalEngine::start(spec)
                .map_err(|error| error.message(language))?;
            Analyser::External(&mut external)
        }
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let show_bar = std::io::stderr().is_terminal();
    let mut progress = |step: analysis::Progress| {
        if show_bar {
            eprint!("\r{}", progress_bar(step.done, step.total));
            if step.done == step.total {
                eprintln!();
            }
        }
    };
    let settings = Settings { budget, lines: 1 };
    let result = analysis::analyse(
        &mut analyser,
        game.start(),
        game.moves(),
        settings,
        &stop,
        &mut progress,
    )
    .map_err(|error| format!("{}: {error}", file.display()))?;
    let kind = variant.kind();
    let notation = qipan::rules::notation::default_notation(
        variant,
        language == qipan::i18n::Language::Korean,
    );
    let names = [Side::First, Side::Second]
        .map(|side| language.text(qipan::app::side_key(kind, side)).to_string());
    let budget_text = match budget {
        Budget::Nodes(nodes) => {
            language.format(Key::AnalysisNodesPerPosition, &[&nodes.to_string()])
        }
        Budget::Time(time) => language.format(
            Key::AnalysisSecondsPerPosition,
            &[&format!("{:.2}", time.as_secs_f64())],
        ),
    };
    println!("{} · {budget_text}", result.engine);
    print!(
        "{}",
        analysis::report_text(
            &result,
            game.start(),
            game.moves(),
            notation,
            language,
            [&names[0], &names[1]]
        )
    );
    if let (Some(path), Some(format)) = (out, out_format) {
        let annotated = analysis::annotate(&record, &result, format, &budget_text);
        let bytes =
            qipan::record::write_for_file(&annotated, path).map_err(|error| error.to_string())?;
        qipan::record::autosave::write_bytes_atomically(path, &bytes)
            .map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

/// The record format `--out` names by its extension; only formats with comments fit.
fn analysis_out_format(path: &Path) -> Result<qipan::record::Format, String> {
    use qipan::record::Format;
    match Format::from_extension(&path.display().to_string()) {
        Some(format @ (Format::Pgn | Format::Kif | Format::Ki2 | Format::Csa)) => Ok(format),
        Some(format) => Err(format!(
            "{}: {} cannot hold the analysis; use .pgn, .kifu, .ki2 or .csa",
            path.display(),
            format.name()
        )),
        None => Err(format!(
            "{}: unknown record extension (use .pgn, .kifu, .ki2 or .csa)",
            path.display()
        )),
    }
}

/// `analysing [██████░░░░░░░░░░░░░░]  37/101`, for standard error.
fn progress_bar(done: usize, total: usize) -> String {
    const WIDTH: usize = 30;
    let filled = (done * WIDTH)
        .checked_div(total)
        .unwrap_or(WIDTH)
        .min(WIDTH);
    format!(
        "analysing [{}{}] {done:>4}/{total}",
        "█".repeat(filled),
        "░".repeat(WIDTH - filled)
    )
}

/// Adds the `--engine` flags to the config's engines and picks the `--hint-engine`.
fn add_engine_flags(app: &mut App, flags: &[String], hint: Option<&str>) -> Result<(), String> {
    for flag in flags {
        let spec = EngineSpec::from_flag(flag)?;
        app.settings.engines.retain(|known| known.name != spec.name);
        app.settings.engines.push(spec);
    }
    if let Some(name) = hint {
        let index = app
            .settings
            .engines
            .iter()
            .position(|spec| spec.name == name)
            .ok_or_else(|| format!("--hint-engine '{name}': no engine has that name"))?;
        app.settings.hint_engine = Some(index);
    }
    Ok(())
}

/// Reads game `number` (default 1) of a record file; when the file holds several, says
/// so in one line on standard error (`big.pgn: 37 games; opening game 1 (use --game N)`).
fn read_chosen_game(
    path: &std::path::Path,
    number: Option<usize>,
    verb: &str,
) -> Result<ChosenGame, String> {
    let chosen = number.unwrap_or(1);
    let picked = qipan::record::read_nth_file(path, chosen).map_err(|e| e.to_string())?;
    let count = picked.count;
    let Some(game) = picked.game else {
        let games_word = if count == 1 { "game" } else { "games" };
        return Err(format!(
            "{}: {count} {games_word}; there is no game {chosen}",
            path.display()
        ));
    };
    if count > 1 {
        let hint = match (number, verb) {
            (Some(_), _) => "",
            (None, "converting") => " (use --game N, or --all for PGN)",
            (None, _) => " (use --game N)",
        };
        note!(
            "{}: {count} games; {verb} game {chosen}{hint}",
            path.display()
        );
    }
    Ok((game, count))
}

/// The game `--game N` chose (read, or why not) and how many games its file holds.
type ChosenGame = (
    Result<qipan::record::GameRecord, qipan::record::ImportError>,
    usize,
);

/// Which games of a file `qipan convert` writes.
enum GamesToConvert {
    /// One game: `--game N`, or the first.
    One(Option<usize>),
    /// Every game, into one PGN (`--all`).
    All,
}

/// `qipan convert`: reads any record, writes it in the format an extension or `--to` names.
fn convert(
    input: &std::path::Path,
    output: Option<&std::path::Path>,
    to: Option<&str>,
    notation: Option<&str>,
    games: GamesToConvert,
) -> Result<(), String> {
    use qipan::record::{self, pgn, Format};
    let notation = match notation {
        Some(name) => Some(pgn::notation_from_name(name).ok_or_else(|| {
            format!("unknown notation '{name}': use iccs, wxf, chinese, chinese-traditional, korean, korean-hanja or uci")
        })?),
        None => None,
    };
    let format = match (output, to) {
        (Some(path), _) => {
            Format::from_extension(&path.display().to_string()).ok_or_else(|| {
                format!(
                    "{}: unknown record extension (use .pgn, .fen, .usi, .kifu or .csa)",
                    path.display()
                )
            })?
        }
        (None, Some(name)) => Format::from_name(name)
            .ok_or_else(|| format!("unknown format '{name}': use pgn, fen, usi, kif or csa"))?,
        (None, None) => {
            return Err("say where to: convert IN OUT, or convert IN --to FORMAT".to_string())
        }
    };
    let render = |record: &record::GameRecord| match (format, notation) {
        (Format::Pgn, Some(notation)) => {
            if !Notation::for_game(record.game.variant().kind()).contains(&notation) {
                return Err(format!(
                    "{} is not a notation of {}",
                    notation.name(),
                    record.game.variant().id()
                ));
            }
            Ok(pgn::write(record, notation))
        }
        (_, Some(_)) => Err("--notation applies to PGN output only".to_string()),
        (_, None) => record::write(record, format),
    };
    let mut unreadable = 0;
    let mut written_games = 0;
    // Standard output gets each game as soon as it is read (`--all` of a big file never
    // holds its games); a file gets the whole text at once, atomically.
    let mut text = String::new();
    let emit = |game_text: &str, text: &mut String| -> Result<(), String> {
        match output {
            Some(_) => {
                text.push_str(game_text);
                Ok(())
            }
            None => write_out(game_text),
        }
    };
    match games {
        GamesToConvert::One(number) => {
            let record = read_chosen_game(input, number, "converting")?
                .0
                .map_err(|e| e.to_string())?;
            emit(&render(&record)?, &mut text)?;
        }
        GamesToConvert::All => {
            if format != Format::Pgn {
                return Err("--all writes PGN only: every game in one file".to_string());
            }
            let name = input.display().to_string();
            let bytes = record::games::read_record_bytes(input)
                .map_err(|reason| format!("{name}: {reason}"))?;
            let source = Format::from_extension(&name)
                .or_else(|| Format::sniff(&bytes))
                .unwrap_or(Format::Pgn);
            for result in record::games::games_of(&bytes, &name, source) {
                match result {
                    Ok(record) => {
                        let separator = if written_games > 0 { "\n" } else { "" };
                        emit(&format!("{separator}{}", render(&record)?), &mut text)?;
                        written_games += 1;
                    }
                    Err(error) => {
                        note!("qipan: {error}");
                        unreadable += 1;
                    }
                }
            }
            if written_games == 0 {
                return Err(format!("{}: no game could be read", input.display()));
            }
        }
    }
    let written = match output {
        // The bytes the name promises: Shift_JIS for .kif/.ki2, UTF-8 otherwise; a name
        // Shift_JIS cannot hold is an error that says to use .kifu/.ki2u, never mojibake.
        Some(path) => record::encode_for_file(&text, path)
            .map_err(|error| error.to_string())
            .and_then(|bytes| {
                record::autosave::write_bytes_atomically(path, &bytes)
                    .map_err(|e| format!("{}: {e}", path.display()))
            }),
        None => Ok(()),
    };
    if unreadable > 0 {
        written?;
        let games_word = if unreadable == 1 { "game" } else { "games" };
        return Err(format!(
            "{}: {unreadable} {games_word} could not be read; the others were written",
            input.display()
        ));
    }
    written
}

/// Removes what saves killed half-way left in qipan's own folders (the autosave's,
/// the history, the games and the config's): see
/// [`autosave::remove_stale_temporary_files`].
fn remove_stale_temporary_files(config_file: Option<&Path>) {
    let folders = [
        qipan::folders::autosave_folder(),
        qipan::folders::history_folder(),
        qipan::folders::games_folder(),
        config_file.and_then(Path::parent).map(Path::to_path_buf),
    ];
    for folder in folders.into_iter().flatten() {
        autosave::remove_stale_temporary_files(&folder);
    }
}

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            log::error!(target: "qipan", "{message}");
            note!("qipan: {message}");
            ExitCode::FAILURE
        }
    }
}
