//! The things users and packagers look for first: shell completions and a manual page
//! that name every subcommand, the log (off unless asked for; on, it records engine
//! traffic and how records were read), saves that two qipan processes cannot corrupt,
//! and no stale temporary files after a save was killed.
//!
//! Every test runs the real binary with its folders in a fresh temporary folder, so
//! nothing here reads or writes the user's own files.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const QIPAN: &str = env!("CARGO_BIN_EXE_qipan");

/// A fresh, empty folder for one test.
fn folder(name: &str) -> PathBuf {
    let folder = std::env::temp_dir().join(format!("qipan-portable-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

/// `qipan ARGS` with every folder it may use inside `home`.
fn qipan(home: &Path, args: &[&str]) -> Output {
    command(home, args).output().unwrap()
}

/// The command `qipan ARGS` with every folder it may use inside `home`.
fn command(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(QIPAN);
    command
        .args(args)
        .env_clear()
        .env("PATH", std::env::var_os("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("USERPROFILE", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("APPDATA", home.join("roaming"))
        .env("LOCALAPPDATA", home.join("local"));
    command
}

fn stdout_of(output: &Output) -> String {
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// Every file under `folder`, relative to it.
fn files_under(folder: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack = vec![folder.to_path_buf()];
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                files.push(path.strip_prefix(folder).unwrap().to_path_buf());
            }
        }
    }
    files.sort();
    files
}

/// The subcommands `qipan --help` lists (the lines under `Commands:`).
fn subcommands(home: &Path) -> Vec<String> {
    let help = stdout_of(&qipan(home, &["--help"]));
    let commands: Vec<String> = help
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| !line.trim().is_empty())
        .filter_map(|line| line.split_whitespace().next().map(str::to_string))
        .filter(|name| name != "help")
        .collect();
    for expected in ["janggi", "uci", "convert", "config", "completions", "man"] {
        assert!(
            commands.iter().any(|name| name == expected),
            "{expected} missing from {commands:?}"
        );
    }
    commands
}

#[test]
fn completions_and_the_manual_name_every_subcommand() {
    let home = folder("shell");
    let commands = subcommands(&home);
    assert!(commands.len() >= 15, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let script = stdout_of(&qipan(&home, &["completions", shell]));
        for command in &commands {
            assert!(
                script.contains(command.as_str()),
                "the {shell} completions lack {command}"
            );
        }
        // The options too.
        let (log, config) = match shell {
            "fish" => ("-l log", "-l config"),
            _ => ("--log", "--config"),
        };
        assert!(script.contains(log), "{shell}: {log}");
        assert!(script.contains(config), "{shell}: {config}");
    }
    assert!(!qipan(&home, &["completions", "tcsh"]).status.success());
    let manual = stdout_of(&qipan(&home, &["man"]));
    assert!(manual.contains(".TH qipan 1"), "not a roff page: {manual}");
    assert!(manual.contains(r"\fB\-\-log\fR"), "{manual}");
    for command in &commands {
        let reference = format!(r"qipan\-{}(1)", command.replace('-', r"\-"));
        assert!(manual.contains(&reference), "the manual lacks {reference}");
    }
    // Neither wrote any file.
    assert_eq!(files_under(&home), Vec::<PathBuf>::new());
    // `--dir` writes the page of every subcommand the main page refers to.
    let pages = home.join("man1");
    stdout_of(&qipan(&home, &["man", "--dir", pages.to_str().unwrap()]));
    let written = files_under(&pages);
    assert!(written.contains(&PathBuf::from("qipan.1")), "{written:?}");
    let check = PathBuf::from("qipan-config-check.1");
    assert!(written.contains(&check), "{written:?}");
    for command in &commands {
        let page = PathBuf::from(format!("qipan-{command}.1"));
        assert!(written.contains(&page), "no {page:?} in {written:?}");
    }
    std::fs::remove_dir_all(home).unwrap();
}

/// A Shift_JIS KIF from the test data, copied into `home`.
fn shift_jis_kif(home: &Path) -> PathBuf {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/records/shogi/hand_sjis.kif");
    let path = home.join("game.kif");
    std::fs::copy(data, &path).unwrap();
    path
}

#[test]
fn without_a_log_nothing_is_written() {
    let home = folder("no-log");
    let kif = shift_jis_kif(&home);
    let usi = stdout_of(&qipan(
        &home,
        &["convert", kif.to_str().unwrap(), "--to", "usi"],
    ));
    assert!(usi.starts_with("position sfen"), "{usi}");
    // An engine session too: `qipan uci` answers on standard output only.
    let mut engine = command(&home, &["uci"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write;
    engine
        .stdin
        .take()
        .unwrap()
        .write_all(b"uci\nisready\nquit\n")
        .unwrap();
    assert!(engine.wait_with_output().unwrap().status.success());
    assert_eq!(files_under(&home), vec![PathBuf::from("game.kif")]);
    std::fs::remove_dir_all(home).unwrap();
}

#[test]
fn the_log_says_how_a_record_was_read_from_the_flag_or_the_config() {
    let home = folder("log");
    let kif = shift_jis_kif(&home);
    let log = home.join("logs").join("qipan.log");
    let flag = ["--log", log.to_str().unwrap()];
    let mut args = vec!["convert", kif.to_str().unwrap(), "--to", "usi"];
    args.extend(flag);
    stdout_of(&qipan(&home, &args));
    let text = std::fs::read_to_string(&log).unwrap();
    assert!(text.contains("Kif by its extension"), "{text}");
    assert!(text.contains("encoding: Shift_JIS/CP932"), "{text}");
    // Each line starts with a date and time.
    for line in text.lines() {
        let stamp = line.split(' ').next().unwrap();
        assert!(
            stamp.len() >= 23 && stamp.as_bytes()[4] == b'-' && stamp.as_bytes()[10] == b'T',
            "{line}"
        );
    }
    // A missing game is an error the log keeps; the second run appends.
    let missing = home.join("missing.pgn");
    let mut args = vec!["convert", missing.to_str().unwrap(), "--to", "fen"];
    args.extend(flag);
    assert!(!qipan(&home, &args).status.success());
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("started").count(), 2, "{text}");
    assert!(
        text.contains("ERROR qipan: ") && text.contains("missing.pgn"),
        "{text}"
    );

    // The config's `log` key does the same.
    let config = home.join("qipan.toml");
    let from_config = home.join("from-config.log");
    std::fs::write(
        &config,
        format!("log = {:?}\n", from_config.to_str().unwrap()),
    )
    .unwrap();
    let args = [
        "--config",
        config.to_str().unwrap(),
        "convert",
        kif.to_str().unwrap(),
        "--to",
        "usi",
    ];
    stdout_of(&qipan(&home, &args));
    let text = std::fs::read_to_string(&from_config).unwrap();
    assert!(text.contains("encoding: Shift_JIS/CP932"), "{text}");
    std::fs::remove_dir_all(home).unwrap();
}

/// Two qipan processes write the same file again and again (`convert … OUT`, the same
/// atomic save as the autosave and the settings) while it is read: every read finds
/// one whole record, and no temporary file is left.
#[test]
fn two_processes_saving_at_once_never_corrupt_a_file() {
    let home = folder("race");
    let first = home.join("first.fen");
    let second = home.join("second.fen");
    std::fs::write(
        &first,
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1\n",
    )
    .unwrap();
    std::fs::write(
        &second,
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1\n",
    )
    .unwrap();
    let output = home.join("out").join("game.usi");
    let expected: Vec<String> = [&first, &second]
        .iter()
        .map(|input| {
            stdout_of(&qipan(
                &home,
                &["convert", input.to_str().unwrap(), "--to", "usi"],
            ))
        })
        .collect();
    assert_ne!(expected[0], expected[1]);
    let finished = std::sync::atomic::AtomicUsize::new(0);
    let mut reads = 0;
    std::thread::scope(|scope| {
        for input in [&first, &second] {
            let (home, output, finished) = (&home, &output, &finished);
            scope.spawn(move || {
                for _ in 0..15 {
                    let args = [input.to_str().unwrap(), output.to_str().unwrap()];
                    stdout_of(&qipan(home, &["convert", args[0], args[1]]));
                }
                finished.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            });
        }
        // Read for as long as either process still writes.
        while finished.load(std::sync::atomic::Ordering::SeqCst) < 2 {
            if let Ok(text) = std::fs::read_to_string(&output) {
                assert!(
                    expected
                        .iter()
                        .any(|whole| whole.trim_end() == text.trim_end()),
                    "a damaged file: {text:?}"
                );
                reads += 1;
            }
        }
    });
    assert!(reads > 0);
    let names = files_under(output.parent().unwrap());
    assert_eq!(names, vec![PathBuf::from("game.usi")]);
    std::fs::remove_dir_all(home).unwrap();
}

/// A save killed half-way leaves `.NAME.RANDOM.qipan-tmp` (or, before, `.NAME.PID.tmp`);
/// the next start of qipan removes its own stale ones from its folders.
#[test]
fn a_start_removes_stale_temporary_files_of_killed_saves() {
    let home = folder("stale");
    let state = home.join("state").join("qipan");
    let config = home.join("config").join("qipan");
    let games = home.join("data").join("qipan").join("games");
    let old = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
    let mut stale = Vec::new();
    for (folder, name) in [
        (&state, ".autosave.txt.31337.tmp"),
        (&state, ".autosave.txt.k2Jd8sQa.qipan-tmp"),
        (&config, ".config.toml.Qw3rTy12.qipan-tmp"),
        (&games, ".mine.pgn.AbCdEfGh.qipan-tmp"),
    ] {
        std::fs::create_dir_all(folder).unwrap();
        let path = folder.join(name);
        std::fs::write(&path, "half").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&path)
            .unwrap()
            .set_modified(old)
            .unwrap();
        stale.push(path);
    }
    let mine = state.join("notes.tmp");
    std::fs::write(&mine, "the player's").unwrap();
    stdout_of(&qipan(&home, &["show", "janggi"]));
    for path in &stale {
        assert!(!path.exists(), "{} is still there", path.display());
    }
    assert!(mine.exists());
    std::fs::remove_dir_all(home).unwrap();
}

/// With the log on, an engine session is in it: what was sent, what came back, how it
/// ended. (The only test of this binary that starts the log in its own process.)
#[test]
fn the_log_records_an_engine_session() {
    use qipan::protocol::client::{EngineMove, EngineProtocol, EngineSpec, ExternalEngine};
    let home = folder("engine-log");
    let log = home.join("engine.log");
    assert_eq!(log::max_level(), log::LevelFilter::Off, "off until started");
    qipan::logging::start(&log).unwrap();
    assert!(qipan::logging::start(&log).is_err(), "one log per process");
    let spec = EngineSpec {
        name: "self".to_string(),
        command: QIPAN.to_string(),
        args: vec!["uci".to_string()],
        protocol: EngineProtocol::Uci,
        options: vec![("Skill Level".to_string(), "1".to_string())],
    };
    let mut engine = ExternalEngine::start(&spec).unwrap();
    let game = qipan::rules::game::Game::new(qipan::rules::any::Variant::Xiangqi.start());
    let limits = qipan::engine::Limits {
        depth: Some(1),
        ..Default::default()
    };
    let stop = std::sync::atomic::AtomicBool::new(false);
    let answer = engine.search(&game, &limits, &stop, &mut |_| {}).unwrap();
    let EngineMove::Move(_) = answer else {
        panic!("{answer:?}");
    };
    engine.quit();
    let missing = EngineSpec {
        name: "ghost".to_string(),
        command: home.join("no-such-engine").to_string_lossy().into_owned(),
        ..spec.clone()
    };
    assert!(ExternalEngine::start(&missing).is_err());
    log::logger().flush();
    let text = std::fs::read_to_string(&log).unwrap();
    for expected in [
        "INFO  engine: starting self",
        "DEBUG engine: to self: uci",
        "DEBUG engine: from self: uciok",
        "DEBUG engine: to self: setoption name Skill Level value 1",
        "DEBUG engine: to self: isready",
        "DEBUG engine: from self: readyok",
        "DEBUG engine: to self: go depth 1",
        "DEBUG engine: from self: bestmove ",
        "DEBUG engine: to self: quit",
        "ERROR engine: ghost did not start",
    ] {
        assert!(text.contains(expected), "{expected:?} not in\n{text}");
    }
    std::fs::remove_dir_all(home).unwrap();
}
