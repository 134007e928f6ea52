//! Protocol conformance: drives the built `qipan` binary through a whole GUI session in
//! each protocol (UCI, USI, UCCI) — init, options, new game, position with moves, `go`
//! with each time form, ponder/ponderhit, stop, mate search, quit — and checks every
//! answer as a GUI would. Waits are generous upper bounds (a stuck engine fails the
//! test after them); nothing is asserted about speed. `conformance_script_passes` runs
//! `tools/conformance.py`, which drives the same sessions from outside and also checks
//! every move's legality and the time each answer took.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The longest wait for any one answer.
const PATIENCE: Duration = Duration::from_secs(60);

/// A running engine with its output read line by line on a thread.
struct Engine {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
    /// Everything read so far (for failure messages).
    seen: Vec<String>,
}

impl Engine {
    fn start(mode: &str) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_qipan"))
            .arg(mode)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("qipan starts");
        let input = child.stdin.take().unwrap();
        let output = child.stdout.take().unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { return };
                if sender.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            input,
            lines,
            seen: Vec::new(),
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        self.seen.push(format!("> {line}"));
    }

    /// Reads lines until one starts with `prefix`; returns it and the lines before it.
    fn expect(&mut self, prefix: &str) -> (String, Vec<String>) {
        let deadline = Instant::now() + PATIENCE;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    self.seen.push(line.clone());
                    if line.starts_with(prefix) {
                        return (line, before);
                    }
                    before.push(line);
                }
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "no line starting '{prefix}'; the session:\n{}",
                        self.seen.join("\n")
                    )
                }
            }
        }
    }

    /// Lines that arrive within `wait` (for "nothing must come yet" checks).
    fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        let mut lines = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line.clone());
            lines.push(line);
        }
        lines
    }

    /// `isready` answered `readyok`, with no error on the way.
    fn ready(&mut self) {
        self.send("isready");
        let (_, before) = self.expect("readyok");
        for line in before {
            assert!(
                !line.contains("error"),
                "unexpected error '{line}'; the session:\n{}",
                self.seen.join("\n")
            );
        }
    }

    /// Sends `quit` and checks the process ends by itself.
    fn quit(mut self, farewell: Option<&str>) {
        self.send("quit");
        if let Some(word) = farewell {
            self.expect(word);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "exit status {status}");
                return;
            }
            assert!(Instant::now() < deadline, "qipan did not end after quit");
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The move of a `bestmove` line and its `ponder` move, if any.
fn best_and_ponder(line: &str) -> (String, Option<String>) {
    let words: Vec<&str> = line.split_whitespace().collect();
    let ponder = words
        .iter()
        .position(|w| *w == "ponder")
        .and_then(|i| words.get(i + 1))
        .map(|w| w.to_string());
    (words.get(1).unwrap_or(&"").to_string(), ponder)
}

#[test]
fn uci_full_session() {
    let mut engine = Engine::start("uci");
    engine.send("uci");
    let (_, options) = engine.expect("uciok");
    for wanted in [
        "option name UCI_Variant",
        "option name Hash",
        "option name Threads",
        "option name Ponder",
        "option name MultiPV",
        "option name Move Overhead",
        "option name UCI_LimitStrength",
        "option name UCI_Elo",
    ] {
        assert!(
            options.iter().any(|l| l.starts_with(wanted)),
            "missing {wanted}: {options:?}"
        );
    }
    engine.send("setoption name UCI_Variant value xiangqi");
    engine.send("setoption name Hash value 8");
    engine.send("setoption name Threads value 2");
    engine.send("setoption name Move Overhead value 20");
    engine.send("setoption name UCI_LimitStrength value false");
    engine.send("setoption name UCI_Elo value 1500");
    engine.send("setoption name MultiPV value 1");
    engine.ready();
    engine.send("ucinewgame");
    engine.ready();
    engine.send("position startpos moves h3e3 h10g8");

    // Each time form answers with a bestmove (non-integer clock figures included).
    for go in [
        "go depth 3",
        "go nodes 3000",
        "go movetime 200",
        "go wtime 9058.3 btime 9000 winc 100.7 binc 100",
        "go wtime 3000 btime 3000 movestogo 20",
    ] {
        engine.send(go);
        let (line, before) = engine.expect("bestmove");
        assert!(line.split_whitespace().count() >= 2, "{go}: {line}");
        assert!(
            !before.iter().any(|l| l.contains("error")),
            "{go}: {before:?}"
        );
    }

    // Infinite, stopped.
    engine.send("go infinite");
    engine.expect("info depth");
    engine.send("stop");
    engine.expect("bestmove");

    // Ponder: no bestmove until ponderhit; then a normal timed search answers.
    engine.send("position startpos moves h3e3");
    engine.send("go ponder wtime 2000 btime 2000");
    engine.expect("info depth");
    let early = engine.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {early:?}"
    );
    engine.send("ponderhit");
    let (line, _) = engine.expect("bestmove");
    let (best, _) = best_and_ponder(&line);
    assert!(!best.is_empty(), "{line}");

    // Ponder stopped: the bestmove comes at stop.
    engine.send("go ponder movetime 500");
    engine.expect("info depth");
    engine.send("stop");
    engine.expect("bestmove");

    // A bestmove carries ponder when the line has a reply.
    engine.send("position startpos");
    engine.send("go depth 5");
    let (line, _) = engine.expect("bestmove");
    assert!(best_and_ponder(&line).1.is_some(), "no ponder move: {line}");

    // Mate search (UCI: go mate N is a mate-in-N search).
    engine.send("position fen 4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1");
    engine.send("go mate 1");
    let (line, before) = engine.expect("bestmove");
    assert!(
        before.iter().any(|l| l.contains("score mate 1")),
        "{before:?}"
    );
    assert!(!best_and_ponder(&line).0.is_empty(), "{line}");
    engine.ready();
    engine.quit(None);
}

#[test]
fn usi_full_session() {
    let mut engine = Engine::start("usi");
    engine.send("usi");
    let (_, options) = engine.expect("usiok");
    for wanted in [
        "option name USI_Hash",
        "option name USI_Ponder",
        "option name MultiPV",
        "option name NetworkDelay",
    ] {
        assert!(
            options.iter().any(|l| l.starts_with(wanted)),
            "missing {wanted}: {options:?}"
        );
    }
    engine.send("setoption name USI_Hash value 8");
    engine.send("setoption name USI_Ponder value true");
    engine.send("setoption name NetworkDelay value 50");
    engine.send("setoption name MultiPV value 2");
    engine.ready();
    engine.send("usinewgame");
    engine.send("position startpos moves 7g7f 3c3d");
    for go in [
        "go btime 0 wtime 0 byoyomi 300",
        "go btime 5000 wtime 5000 binc 100 winc 100",
        "go btime 10000.9 wtime 10000 byoyomi 100",
        "go depth 3",
        "go nodes 3000",
        "go movetime 200",
    ] {
        engine.send(go);
        let (line, before) = engine.expect("bestmove");
        assert!(line.split_whitespace().count() >= 2, "{go}: {line}");
        assert!(
            !before.iter().any(|l| l.contains("error")),
            "{go}: {before:?}"
        );
        assert!(
            before.iter().any(|l| l.contains(" multipv 2 ")),
            "{go}: MultiPV 2 not reported: {before:?}"
        );
    }
    engine.send("setoption name MultiPV value 1");
    engine.send("go infinite");
    engine.expect("info depth");
    engine.send("stop");
    engine.expect("bestmove");

    // Ponder, hit.
    engine.send("position startpos moves 7g7f");
    engine.send("go ponder btime 0 wtime 0 byoyomi 500");
    engine.expect("info depth");
    let early = engine.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "bestmove while pondering: {early:?}"
    );
    engine.send("ponderhit");
    engine.expect("bestmove");

    // Ponder, stopped.
    engine.send("go ponder btime 0 wtime 0 byoyomi 500");
    engine.expect("info depth");
    engine.send("stop");
    engine.expect("bestmove");

    // Mate search: a mate, no mate, a time limit, and stop.
    engine.send("position sfen 4k4/9/4S4/9/9/9/9/9/9 b G 1");
    engine.send("go mate 10000");
    assert_eq!(engine.expect("checkmate").0, "checkmate G*5b");
    engine.send("position sfen 4k4/9/9/9/9/9/9/9/9 b P 1");
    engine.send("go mate infinite");
    assert_eq!(engine.expect("checkmate").0, "checkmate nomate");
    engine.send(&format!("position sfen {HARD}"));
    engine.send("go mate 1");
    assert_eq!(engine.expect("checkmate").0, "checkmate timeout");
    engine.send("go mate infinite");
    engine.lines_within(Duration::from_millis(50));
    engine.send("stop");
    let (line, _) = engine.expect("checkmate");
    assert!(
        line == "checkmate timeout" || line == "checkmate nomate" || line.len() > 10,
        "{line}"
    );
    engine.send("gameover win");
    engine.ready();
    engine.quit(None);
}

/// A position with many checks and no quick answer: the solver cannot finish in 1 ms.
const HARD: &str = "9/9/9/9/4k4/9/9/9/9 b RBGSNLPrb3g3s3n3l17p 1";

#[test]
fn ucci_full_session() {
    let mut engine = Engine::start("ucci");
    engine.send("ucci");
    let (_, options) = engine.expect("ucciok");
    for wanted in ["option usemillisec", "option hashsize", "option ponder"] {
        assert!(
            options.iter().any(|l| l.starts_with(wanted)),
            "missing {wanted}: {options:?}"
        );
    }
    engine.send("setoption usemillisec true");
    engine.send("setoption hashsize 8");
    engine.send("setoption newgame");
    engine.ready();
    engine.send(
        "position fen rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7",
    );
    for go in [
        "go time 3000 increment 100 opptime 3000 oppincrement 100",
        "go time 5000 movestogo 20",
        "go depth 3",
        "go nodes 3000",
    ] {
        engine.send(go);
        let (line, before) = engine.expect("bestmove");
        let (best, _) = best_and_ponder(&line);
        assert!(
            best.len() == 4 && best.chars().nth(1).unwrap().is_ascii_digit(),
            "{go}: not ICCS: {line}"
        );
        assert!(
            !before.iter().any(|l| l.contains("error")),
            "{go}: {before:?}"
        );
        let info = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .unwrap_or_else(|| panic!("no info: {before:?}"));
        let score = info.split_whitespace().skip_while(|w| *w != "score").nth(1);
        assert!(
            score.is_some_and(|s| s.parse::<i32>().is_ok()),
            "UCCI score is a plain number: {info}"
        );
    }
    // banmoves: the best move of the start position for Red is not played when banned.
    engine.send("position startpos");
    engine.send("go depth 3");
    let (first, _) = best_and_ponder(&engine.expect("bestmove").0);
    engine.send(&format!("banmoves {first}"));
    engine.send("go depth 3");
    let (second, _) = best_and_ponder(&engine.expect("bestmove").0);
    assert_ne!(first, second, "a banned move was played");
    // Ponder and stop; depth infinite and stop.
    engine.send("position startpos moves h2e2");
    engine.send("go ponder time 2000 increment 0");
    engine.expect("info depth");
    let early = engine.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "{early:?}"
    );
    engine.send("ponderhit");
    engine.expect("bestmove");
    engine.send("go depth infinite");
    engine.expect("info depth");
    engine.send("stop");
    engine.expect("bestmove");
    engine.send("probe startpos moves h2e2");
    engine.expect("pophash");
    // Mated side: no move.
    engine.send("position fen 3k5/4R4/3R5/9/9/9/9/9/9/4K4 b - - 0 1");
    engine.send("go depth 2");
    engine.expect("nobestmove");
    engine.ready();
    engine.quit(Some("bye"));
}

#[test]
fn uci_mode_answers_ucci_as_first_line() {
    let mut engine = Engine::start("uci");
    engine.send("ucci");
    engine.expect("ucciok");
    engine.send("position startpos");
    engine.send("go depth 2");
    let (line, _) = engine.expect("bestmove");
    let (best, _) = best_and_ponder(&line);
    // ICCS ranks are 0-9: a Red move from the start position never names rank 10.
    assert!(!best.contains("10"), "{line}");
    engine.quit(Some("bye"));
}

/// `tools/conformance.py` (standard-library Python) drives the built binary through the
/// same sessions as a GUI and checks every answer, legality included. Skipped, with the
/// reason printed, when `python3` is not installed or the script is not there (the
/// published package leaves `tools/` out).
#[test]
fn conformance_script_passes() {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/conformance.py");
    if !script.exists() {
        println!("skipped: {} is not there", script.display());
        return;
    }
    let output = match Command::new("python3")
        .arg(&script)
        .arg("--binary")
        .arg(env!("CARGO_BIN_EXE_qipan"))
        .arg("--quiet")
        // Other tests run beside it: a little more slack than the script's own default.
        .args(["--margin", "2"])
        .stdin(Stdio::null())
        .output()
    {
        Ok(output) => output,
        Err(error) => {
            println!("skipped: python3 cannot be run ({error})");
            return;
        }
    };
    let report = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "tools/conformance.py failed ({}):\n{report}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        report
            .lines()
            .last()
            .is_some_and(|l| l.ends_with(" 0 failed")),
        "{report}"
    );
}
