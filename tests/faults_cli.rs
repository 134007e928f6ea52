//! Faults at the command line (issue 18): hostile record files, closed pipes and full
//! disks, empty files. The binary runs as a user runs it; every output is checked for
//! raw control characters.

mod scratch;

use std::path::Path;
use std::process::{Command, Output, Stdio};

/// The binary with `args`, an empty configuration folder `config_home` and English messages.
fn qipan_command(args: &[&str], config_home: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_qipan"));
    command
        .args(args)
        .env("XDG_CONFIG_HOME", config_home)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES");
    command
}

fn qipan(args: &[&str]) -> Output {
    let config_home = scratch("config-home");
    qipan_command(args, config_home.path())
        .stdin(Stdio::null())
        .output()
        .expect("qipan runs")
}

/// A fresh folder for one test, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    scratch::folder(&format!("qipan-faults-{name}"))
}

/// No control character but a newline in the text (C0, DEL, C1).
fn assert_clean(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    let raw: Vec<char> = text
        .chars()
        .filter(|&c| c.is_control() && c != '\n')
        .collect();
    assert!(
        raw.is_empty(),
        "{what} has raw control characters {raw:?}: {text}"
    );
}

fn write(path: &Path, bytes: &[u8]) {
    std::fs::write(path, bytes).unwrap();
}

#[test]
fn escape_sequences_in_a_record_never_reach_the_terminal() {
    let scratch_folder = scratch("evil");
    let folder = scratch_folder.path();
    let csa = folder.join("evil.csa");
    write(
        &csa,
        b"V2.2\nN+\x1b]0;owned\x07Sente\nN-\x1b[2J\x9bGote\n$EVENT:\x1bc\nPI\n+\n+7776FU\n'\x1b[31mred comment\n%TORYO\n",
    );
    for format in ["fen", "csa", "kif", "usi"] {
        let output = qipan(&["convert", csa.to_str().unwrap(), "--to", format]);
        assert!(output.status.success(), "{format}: {output:?}");
        assert_clean(format, &output.stdout);
        assert_clean(format, &output.stderr);
    }
    let kif = qipan(&["convert", csa.to_str().unwrap(), "--to", "kif"]);
    let text = String::from_utf8_lossy(&kif.stdout);
    assert!(text.contains("\\x1b]0;owned\\x07Sente"), "{text}");
    // An error quoting the file's text escapes it too, and cuts it.
    let bad = folder.join("bad.csa");
    let mut bytes = b"V2.2\nPI\n+\n+7776FU\n+99\x1b]0;t\x07ZZ".to_vec();
    bytes.extend(std::iter::repeat_n(b'A', 5000));
    bytes.push(b'\n');
    write(&bad, &bytes);
    let output = qipan(&["convert", bad.to_str().unwrap(), "--to", "fen"]);
    assert!(!output.status.success());
    assert_clean("error", &output.stderr);
    assert!(output.stderr.len() < 2000, "{}", output.stderr.len());
    let named = folder.join("name\x1b[2J.pgn");
    write(&named, b"");
    let output = qipan(&["convert", named.to_str().unwrap(), "--to", "fen"]);
    assert_clean("error naming the file", &output.stderr);
}

#[cfg(unix)]
#[test]
fn a_full_disk_is_a_clear_error_and_never_a_panic() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for args in [
        &["show", "xiangqi"][..],
        &["config", "example"],
        &["perft", "xiangqi", "1"],
    ] {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let config_home = scratch("config-home");
        let output = qipan_command(args, config_home.path())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(1), "{args:?}: {error}");
        assert!(!error.contains("panicked"), "{error}");
        assert!(error.contains("No space left"), "{error}");
    }
}

#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_quietly_like_unix_tools() {
    for args in [
        &["show", "xiangqi"][..],
        &["config", "example"],
        &["perft", "xiangqi", "2"],
    ] {
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let config_home = scratch("config-home");
        let output = qipan_command(args, config_home.path())
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(141), "{args:?}: {error}");
        assert!(error.is_empty(), "{args:?}: {error}");
    }
}

/// Issue 18 items 8 and 12: a device, a FIFO or a folder is refused before anything is
/// read, as a record (`convert`, `open`) and as a config or theme file.
#[cfg(unix)]
#[test]
fn devices_and_folders_are_refused_as_records_and_settings() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    let output = qipan(&["convert", "/dev/zero", "--to", "fen"]);
    assert_eq!(output.status.code(), Some(1));
    let error = String::from_utf8_lossy(&output.stderr);
    assert!(error.contains("not a regular file"), "{error}");
    let output = qipan(&["convert", "/dev/zero", "--to", "pgn", "--all"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("not a regular file"));
    let scratch_folder = scratch("folder-record");
    let folder = scratch_folder.path();
    let output = qipan(&["convert", folder.to_str().unwrap(), "--to", "fen"]);
    assert!(String::from_utf8_lossy(&output.stderr).contains("folder"));
    // `qipan open` says so before the terminal client starts (which would then read on
    // a worker): a FIFO never blocks it, /dev/zero never fills memory.
    let fifo = folder.join("pipe.pgn");
    let _ = std::fs::remove_file(&fifo);
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .is_ok_and(|status| status.success());
    let mut refused = vec!["/dev/zero".to_string()];
    if made {
        refused.push(fifo.display().to_string());
    }
    for name in refused {
        let output = qipan(&["open", &name]);
        assert_eq!(output.status.code(), Some(1), "{name}");
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("not a regular file"), "{name}: {error}");
    }
    let output = qipan(&["--config", "/dev/zero", "config", "check"]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(text.contains("not a regular file"), "{text}");
    let output = qipan(&["--theme", "/dev/zero", "config", "check"]);
    let text = String::from_utf8_lossy(&output.stdout).into_owned()
        + &String::from_utf8_lossy(&output.stderr);
    assert!(text.contains("not a regular file"), "{text}");
}

/// `convert --all` writes every game, in order, to standard output as it reads them.
#[test]
fn convert_all_streams_every_game() {
    let scratch_folder = scratch("all");
    let folder = scratch_folder.path();
    let path = folder.join("many.pgn");
    let mut text = String::new();
    for n in 0..300 {
        text.push_str(&format!(
            "[Event \"g{n}\"]\n[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n\n"
        ));
    }
    write(&path, text.as_bytes());
    let output = qipan(&["convert", path.to_str().unwrap(), "--to", "pgn", "--all"]);
    assert!(output.status.success(), "{output:?}");
    let out = String::from_utf8_lossy(&output.stdout);
    assert_eq!(out.matches("[Event ").count(), 300);
    assert!(out.find("\"g0\"").unwrap() < out.find("\"g299\"").unwrap());
}
