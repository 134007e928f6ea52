//! The `qipan` command: the game (default), engine protocols and tools.

use clap::{Parser, Subcommand};
use qipan::app::{App, StartOptions};
use qipan::config;
use qipan::i18n::Key;
use qipan::protocol::client::EngineSpec;
use qipan::record::autosave;
use qipan::rules::any::Variant;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::notation::Notation;
use qipan::rules::Position;
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
    /// The external engine (by NAME) the hint key asks instead of the built-in one.
    #[arg(long, global = true, value_name = "NAME")]
    hint_engine: Option<String>,
    /// Colour theme: wood, dark, contrast, sixteen, or a theme file.
    #[arg(long, global = true, value_name = "THEME")]
    theme: Option<String>,
    /// Read settings from this file instead of ~/.config/qipan/config.toml.
    #[arg(long, global = true, value_name = "FILE")]
    config: Option<std::path::PathBuf>,
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
                let count = loaded.warnings.len().to_string();
                Err(language.format(Key::ConfigCheckProblems, &[&count]))
            }
        }
    }
}

/// The start screen, offering to continue the autosaved game when there is one; an
/// autosave that does not load is reported in the status line, never fatal.
fn app_offering_autosave(app: App) -> App {
    let mut app = app;
    if let Some(path) = autosave::default_path().filter(|path| path.exists()) {
        match autosave::load(&path) {
            Ok(saved) => app.offer_saved_game(saved),
            // The damaged file is moved aside first: the new game's autosave would
            // otherwise write over it. The message says where it went.
            Err(error) => {
                let detail = match autosave::keep_aside(&path) {
                    Ok(aside) => {
                        let language = app.settings.language;
                        let kept = language
                            .format(Key::AutosaveKeptAside, &[&aside.display().to_string()]);
                        format!("{error} — {kept}")
                    }
                    Err(_) => error.to_string(),
                };
                app.show_error(Key::StatusAutosaveUnreadable, &detail)
            }
        }
    }
    app
}

fn run(cli: Cli) -> Result<(), String> {
    let stdout = std::io::stdout();
    let (path, mut loaded) = load_config(&cli)?;
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
    let mut app = App::from_config(loaded.config.clone(), path, &loaded.warnings);
    add_engine_flags(&mut app, &cli.engines, cli.hint_engine.as_deref())?;
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
            Mode::Xiangqi | Mode::Shogi | Mode::Janggi | Mode::Gungjanggi | Mode::Config { .. },
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
            let (chosen, count) = read_chosen_game(&file, game, "opening")?;
            let (record, problem) = match chosen {
                Ok(record) => (record, None),
                Err(mut error) => match error.partial.take() {
                    Some(partial) => {
                        note!("qipan: {error}");
                        (*partial, Some(error.text(app.settings.language)))
                    }
                    None => return Err(error.to_string()),
                },
            };
            app.open_record(record, problem.as_deref());
            app.note_game_of(game.unwrap_or(1), count);
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
        None => qipan::tui::run(app_offering_autosave(app)).map_err(|e| e.to_string()),
    }
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
        Some(path) => record::autosave::write_atomically(path, &text)
            .map_err(|e| format!("{}: {e}", path.display())),
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

fn main() -> ExitCode {
    match run(Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            note!("qipan: {message}");
            ExitCode::FAILURE
        }
    }
}
