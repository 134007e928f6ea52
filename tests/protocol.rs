//! The engine protocols with scripted input and expected output: UCI (Fairy-Stockfish
//! dialect) and USI. Searches run on the worker thread exactly as in `qipan uci`/`qipan usi`.

use qipan::protocol::{uci, usi, LineWriter, SharedOutput};
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// An output the test can read while the engine still holds it.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Captured {
    fn text(&self) -> String {
        String::from_utf8_lossy(&self.0.lock().unwrap()).into_owned()
    }
}

/// A GUI's input: the script, then (like a GUI waiting for its answers) no end of input
/// until every `go` has been answered (a `bestmove` or a perft total) or 30 s passed.
struct Script {
    bytes: Cursor<Vec<u8>>,
    answers_due: usize,
    out: Captured,
}

impl std::io::Read for Script {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        let read = self.bytes.read(buffer)?;
        if read > 0 {
            return Ok(read);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            let text = self.out.text();
            let answers = text.matches("bestmove").count()
                + text.matches("Nodes searched").count()
                + text.matches("checkmate").count();
            if answers >= self.answers_due {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        Ok(0)
    }
}

fn script(text: &str, out: &Captured) -> std::io::BufReader<Script> {
    std::io::BufReader::new(Script {
        bytes: Cursor::new(text.as_bytes().to_vec()),
        answers_due: text
            .lines()
            .filter(|l| l.trim_start().starts_with("go"))
            .count(),
        out: out.clone(),
    })
}

fn run_uci(text: &str) -> String {
    let out = Captured::default();
    uci::run(script(text, &out), out.clone()).unwrap();
    out.text()
}

fn run_usi(text: &str) -> String {
    let out = Captured::default();
    usi::run(script(text, &out), out.clone()).unwrap();
    out.text()
}

/// The move of the first `bestmove` line (its `ponder` part left off).
fn bestmove(text: &str) -> &str {
    text.lines()
        .find_map(|l| l.strip_prefix("bestmove "))
        .and_then(|rest| rest.split_whitespace().next())
        .expect("a bestmove line")
}

#[test]
fn uci_announces_its_options() {
    let out = run_uci("uci\nisready\n");
    for expected in [
        "id name qipan",
        "option name UCI_Variant type combo",
        "option name Hash type spin",
        "option name Skill Level type spin default 10 min 1 max 10",
        "uciok",
        "readyok",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
}

#[test]
fn uci_searches_to_a_depth_and_reports() {
    let out = run_uci(
        "setoption name UCI_Variant value xiangqi\nposition startpos moves h3e3\ngo depth 4\n",
    );
    let info = out
        .lines()
        .find(|l| l.starts_with("info depth 4 "))
        .unwrap_or_else(|| panic!("no depth 4 info in:\n{out}"));
    for word in [" score cp ", " nodes ", " nps ", " pv "] {
        assert!(info.contains(word), "'{word}' missing from {info}");
    }
    assert!(bestmove(&out).len() >= 4, "{out}");
}

#[test]
fn uci_finds_a_mate_and_says_so() {
    let out = run_uci(
        "setoption name UCI_Variant value xiangqi\nposition fen 4k4/R8/9/9/9/9/9/9/9/R2K5 w - - 0 1\ngo depth 3\n",
    );
    assert!(out.contains("score mate 1"), "{out}");
    // a1a10 and a9f9 both mate.
    assert!(["a1a10", "a9f9"].contains(&bestmove(&out)), "{out}");
}

#[test]
fn uci_keeps_running_on_bad_input() {
    let out = run_uci(
        "frobnicate\nposition fen not-a-fen\nposition startpos moves z9z9\ngo depth x\nsetoption name Hash value lots\nisready\n",
    );
    assert!(
        out.contains("info string error: unknown command 'frobnicate'"),
        "{out}"
    );
    assert!(out.contains("info string error: bad fen"), "{out}");
    assert!(
        out.contains("info string error: cannot read move 'z9z9'"),
        "{out}"
    );
    assert!(
        out.contains("info string error: go: 'depth' needs a number"),
        "{out}"
    );
    assert!(
        out.contains("info string error: Hash needs a size"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
}

#[test]
fn threads_is_an_option_of_both_protocols_and_a_two_thread_search_answers() {
    for (run, hello, variant) in [
        (
            run_uci as fn(&str) -> String,
            "uci",
            "setoption name UCI_Variant value janggi\n",
        ),
        (run_usi, "usi", ""),
    ] {
        let out = run(&format!(
            "{hello}\n{variant}setoption name Threads value 0\nsetoption name Threads value many\nsetoption name Threads value 2\nposition startpos\ngo depth 6\n"
        ));
        assert!(
            out.contains("option name Threads type spin default 1 min 1 max 64"),
            "{out}"
        );
        assert_eq!(
            out.matches("info string error: Threads needs a count from 1 to 64")
                .count(),
            2,
            "0 and 'many' are refused, 2 is taken: {out}"
        );
        assert!(out.contains("info depth 6 "), "{out}");
        assert!(bestmove(&out).len() >= 4, "{out}");
    }
}

#[test]
fn uci_answers_isready_and_stop_while_searching() {
    let out = Captured::default();
    let shared: SharedOutput = Arc::new(Mutex::new(out.clone()));
    let mut session = uci::UciSession::with_output(shared.clone());
    let mut writer = LineWriter::new(shared);
    session
        .handle("setoption name UCI_Variant value janggi", &mut writer)
        .unwrap();
    session.handle("go infinite", &mut writer).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    session.handle("isready", &mut writer).unwrap();
    writer.flush().unwrap();
    assert!(out.text().contains("readyok"));
    assert!(
        !out.text().contains("bestmove"),
        "an infinite search waits for stop"
    );
    // `stop` must end an infinite search (it would otherwise never answer); how fast is
    // a benchmark's question, so the bound here only catches a search that ignores it.
    let asked = Instant::now();
    session.handle("stop", &mut writer).unwrap();
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "stop took {:?}",
        asked.elapsed()
    );
    assert!(out.text().contains("bestmove "), "{}", out.text());
}

#[test]
fn uci_skill_level_and_clock_limits_work() {
    let out = run_uci(
        "setoption name UCI_Variant value shogi\nsetoption name Skill Level value 1\nposition startpos\ngo wtime 2000 btime 2000 winc 100 binc 100\n",
    );
    assert!(bestmove(&out).len() >= 4, "{out}");
}

#[test]
fn usi_plays_shogi_in_usi_notation() {
    let out = run_usi(
        "usi\nisready\nusinewgame\nposition startpos moves 7g7f 3c3d\ngo btime 1000 wtime 1000 byoyomi 200\n",
    );
    assert!(out.contains("usiok") && out.contains("readyok"), "{out}");
    let mv = bestmove(&out);
    // USI squares are digit-letter: 2g2f, 8h2b+, P*5e.
    let bytes = mv.as_bytes();
    assert!(
        bytes[0].is_ascii_digit() || bytes[1] == b'*',
        "not a USI move: {mv}"
    );
    assert!(out.contains("info depth 1 score cp "), "{out}");
}

#[test]
fn usi_drop_mate_resign_and_bad_input() {
    // Gote king on 1a, Sente gold in hand and a silver on 2c: G*1b and G*2b mate, and
    // G*3b leaves Gote no legal move, which loses in shogi just the same (the rules say
    // "first wins by stalemate").
    let out = run_usi("position sfen 8k/9/7S1/9/9/9/9/9/K8 b G 1\ngo byoyomi 1000\n");
    assert!(["G*1b", "G*2b", "G*3b"].contains(&bestmove(&out)), "{out}");
    assert!(out.contains("score mate 1"), "{out}");
    // Mated already: nothing to play.
    let out = run_usi("position sfen 7Gk/7G1/9/9/9/9/9/9/K8 w - 1\ngo byoyomi 100\n");
    assert_eq!(bestmove(&out), "resign", "{out}");
    let out = run_usi(
        "position startpos moves 7g7f 7g7f\nsetoption name Nonsense value 1\nfoo\nisready\n",
    );
    assert!(
        out.contains("info string error: illegal move '7g7f'"),
        "{out}"
    );
    assert!(
        out.contains("info string error: unknown option 'Nonsense'"),
        "{out}"
    );
    assert!(
        out.contains("info string error: unknown command 'foo'"),
        "{out}"
    );
    assert!(out.contains("readyok"), "{out}");
}

/// Runs a protocol loop on its own thread fed through a pipe the test writes `lines`
/// into (with a pause after each), keeping the pipe open unless `close` says to end the
/// input; returns the output once the loop has ended, or `None` if it had not ended 10 s
/// after the last line (a hang, not a timing measure).
fn interrupted(usi_mode: bool, lines: &[&str], close: bool) -> Option<String> {
    let (reader, mut writer) = std::io::pipe().unwrap();
    let out = Captured::default();
    let (done_sender, done) = std::sync::mpsc::channel();
    let output = out.clone();
    std::thread::spawn(move || {
        let input = std::io::BufReader::new(reader);
        let result = if usi_mode {
            usi::run(input, output)
        } else {
            uci::run(input, output)
        };
        let _ = done_sender.send(result.is_ok());
    });
    for line in lines {
        writeln!(writer, "{line}").unwrap();
        std::thread::sleep(Duration::from_millis(150));
    }
    let kept_open = if close {
        drop(writer);
        None
    } else {
        Some(writer)
    };
    let ended = done.recv_timeout(Duration::from_secs(10)).ok();
    drop(kept_open);
    ended.map(|ok| {
        assert!(ok);
        out.text()
    })
}

/// Issue 18 item 10: `quit` is read and obeyed during an unbounded search, a huge clock
/// and a deep perft, even when other commands were sent before it.
#[test]
fn quit_ends_a_search_or_perft_that_would_not_end() {
    let cases: [&[&str]; 4] = [
        &["position startpos", "go depth 1000", "quit"],
        &[
            "go wtime 99999999999 btime 99999999999",
            "position startpos moves h3e3",
            "d",
            "quit",
        ],
        &["go perft 12", "isready", "quit"],
        &["go infinite", "position startpos", "quit"],
    ];
    for lines in cases {
        let out = interrupted(false, lines, false).unwrap_or_else(|| panic!("{lines:?} hung"));
        if lines[0].contains("perft") {
            assert!(out.contains("readyok"), "{out}");
            assert!(!out.contains("Nodes searched"), "{out}");
        }
    }
    let usi = [
        "position startpos",
        "go btime 9223372036854775807 wtime 9223372036854775807",
        "usinewgame",
        "quit",
    ];
    assert!(interrupted(true, &usi, false).is_some(), "usi hung");
}

/// `stop` ends a perft; commands sent during a search run after it, in order; the end of
/// input ends a long search (which still says its `bestmove`).
#[test]
fn stop_ends_a_perft_and_the_end_of_input_ends_a_search() {
    let out = interrupted(
        false,
        &["go perft 12", "stop", "go perft 2", "isready"],
        true,
    )
    .expect("the loop ends");
    assert_eq!(out.matches("Nodes searched").count(), 1, "{out}");
    assert!(out.contains("Nodes searched: 1920"), "{out}");
    let out = interrupted(false, &["position startpos", "go depth 1000"], true)
        .expect("the end of input ends the search");
    assert!(out.contains("bestmove "), "{out}");
    let out = interrupted(
        false,
        &["go depth 1000", "position startpos moves h3e3", "d", "stop"],
        true,
    )
    .expect("the loop ends");
    let board = out.find("Fen: ").expect("d ran after the search");
    assert!(out.find("bestmove").unwrap() < board, "{out}");
    assert!(out[board..].contains("1C2C4"), "{out}");
}

/// Words the protocol fuzz builds its command lines from.
const FUZZ_WORDS: [&str; 28] = [
    "uci",
    "usi",
    "isready",
    "ucinewgame",
    "usinewgame",
    "position",
    "startpos",
    "fen",
    "sfen",
    "moves",
    "go",
    "depth",
    "perft",
    "infinite",
    "wtime",
    "btime",
    "byoyomi",
    "movetime",
    "stop",
    "setoption",
    "name",
    "value",
    "UCI_Variant",
    "janggi",
    "shogi",
    "d",
    "h3e3",
    "7g7f",
];

fn fuzz_line() -> impl proptest::strategy::Strategy<Value = Vec<u8>> {
    use proptest::prelude::*;
    prop_oneof![
        3 => proptest::collection::vec(
            prop_oneof![
                proptest::sample::select(FUZZ_WORDS.to_vec()).prop_map(str::to_string),
                (0u64..30).prop_map(|n| n.to_string()),
                Just("9223372036854775807".to_string()),
                Just("-5".to_string()),
            ],
            0..6,
        )
        .prop_map(|words| words.join(" ").into_bytes()),
        1 => proptest::collection::vec(any::<u8>(), 0..40),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// Random command sequences into both loops: never a panic or a hang, every output
    /// line free of control characters, and each loop ends at the end of its input.
    #[test]
    fn random_command_sequences_end_cleanly(
        lines in proptest::collection::vec(fuzz_line(), 0..12),
        usi_mode in proptest::prelude::any::<bool>(),
    ) {
        let mut input = Vec::new();
        for line in &lines {
            // A perft deeper than 3 would only make the test slow before `stop`.
            let text = String::from_utf8_lossy(line);
            if text.contains("perft") && !text.contains("perft 1") {
                continue;
            }
            input.extend_from_slice(line);
            input.push(b'\n');
        }
        let out = Captured::default();
        let reader = std::io::BufReader::new(Cursor::new(input));
        if usi_mode {
            usi::run(reader, out.clone()).unwrap();
        } else {
            uci::run(reader, out.clone()).unwrap();
        }
        let text = out.text();
        let raw: Vec<char> = text.chars().filter(|&c| c.is_control() && c != '\n').collect();
        proptest::prop_assert!(raw.is_empty(), "{raw:?} in {text}");
    }
}

/// The `info` lines of depth `depth` that carry `multipv`, as (k, first PV move).
fn multipv_lines(out: &str, depth: u32) -> Vec<(u32, String)> {
    out.lines()
        .filter(|l| l.starts_with(&format!("info depth {depth} multipv ")))
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            let k = words[4].parse().unwrap();
            let pv = words.iter().position(|w| *w == "pv").unwrap();
            (k, words[pv + 1].to_string())
        })
        .collect()
}

#[test]
fn uci_multipv_reports_the_best_lines_each_depth() {
    let out = run_uci("uci\n");
    assert!(
        out.contains("option name MultiPV type spin default 1 min 1 max 500"),
        "{out}"
    );
    // The red chariot takes the cannon (a7) first; three different lines follow.
    let out = run_uci(
        "setoption name UCI_Variant value xiangqi\nsetoption name MultiPV value 3\n\
         position fen 4k1b2/9/7N1/c6Pp/9/9/9/9/9/R2K5 w - - 0 1\ngo depth 2\n",
    );
    let lines = multipv_lines(&out, 2);
    assert_eq!(lines.len(), 3, "{out}");
    assert_eq!(lines[0], (1, "a1a7".to_string()), "{out}");
    assert_eq!(lines[1].0, 2);
    assert_eq!(lines[2].0, 3);
    assert!(
        lines[0].1 != lines[1].1 && lines[1].1 != lines[2].1 && lines[0].1 != lines[2].1,
        "{out}"
    );
    assert_eq!(bestmove(&out).split_whitespace().next(), Some("a1a7"));
    // Every depth reports its three lines in order, after the depth's first line.
    for depth in 1..=2 {
        let ks: Vec<u32> = multipv_lines(&out, depth).iter().map(|l| l.0).collect();
        assert_eq!(ks, [1, 2, 3], "depth {depth}:\n{out}");
    }
    // Back to one line: no multipv word, as before.
    let out = run_uci(
        "setoption name MultiPV value 3\nsetoption name MultiPV value 1\nposition startpos\ngo depth 2\n",
    );
    assert!(!out.contains("multipv"), "{out}");
    assert!(out.contains("info depth 2 score "), "{out}");
}

#[test]
fn uci_multipv_refuses_values_out_of_range() {
    for value in ["0", "501", "many"] {
        let out = run_uci(&format!("setoption name MultiPV value {value}\nisready\n"));
        assert!(
            out.contains("info string error: MultiPV needs a number from 1 to 500"),
            "{value}: {out}"
        );
    }
}

#[test]
fn usi_multipv_reports_lines_in_usi_notation() {
    let out = run_usi("usi\n");
    assert!(
        out.contains("option name MultiPV type spin default 1 min 1 max 500"),
        "{out}"
    );
    // Sente's rook on 5e takes the rook on 5b (promoting or not) or the pawn on 9e.
    let out = run_usi(
        "setoption name MultiPV value 3\nposition sfen k8/4r4/9/9/p3R4/9/9/9/8K b - 1\ngo depth 3\n",
    );
    let lines = multipv_lines(&out, 3);
    assert_eq!(lines.len(), 3, "{out}");
    assert!(lines[0].1.starts_with("5e5b"), "{out}");
    assert!(lines[1].1.starts_with("5e5b"), "{out}");
    assert!(lines[2].1.starts_with("5e9e"), "{out}");
    assert!(bestmove(&out).starts_with("5e5b"), "{out}");
    let out = run_usi("setoption name USI_MultiPV value 2\nposition startpos\ngo depth 2\n");
    assert_eq!(multipv_lines(&out, 2).len(), 2, "{out}");
}

#[test]
fn clock_figures_with_decimals_are_truncated_not_refused() {
    use qipan::protocol::{parse_go, Dialect};
    let go = parse_go(
        &["wtime", "9058.3", "btime", "100.9", "winc", "7.5"],
        Dialect::Uci,
    );
    assert!(go.problems.is_empty(), "{:?}", go.problems);
    assert_eq!(go.time[0], Some(Duration::from_millis(9058)));
    assert_eq!(go.time[1], Some(Duration::from_millis(100)));
    assert_eq!(go.increment[0], Duration::from_millis(7));
    let go = parse_go(&["btime", "abc"], Dialect::Usi);
    assert!(!go.problems.is_empty());
}

#[test]
fn the_time_margin_is_taken_off_every_clock_figure_and_movetime_is_searched_whole() {
    use qipan::protocol::{parse_go, Dialect, SearchSettings};
    use qipan::rules::any::GameKind;
    use qipan::rules::Side;
    let mut settings = SearchSettings::default();
    assert_eq!(settings.set("Move Overhead", Some("50")), Some(Ok(())));
    let go = parse_go(
        &["wtime", "1000", "btime", "2000", "movetime", "30"],
        Dialect::Uci,
    );
    let limits = go.limits_with(Side::First, GameKind::Xiangqi, &settings);
    assert_eq!(limits.time_left, Some(Duration::from_millis(950)));
    // A movetime is a search time, not a clock: searched whole, as Stockfish does.
    assert_eq!(limits.movetime, Some(Duration::from_millis(30)));
    // A byoyomi is a clock: the margin comes off it, also where it stands in for a movetime.
    let go = parse_go(&["byoyomi", "1000"], Dialect::Usi);
    let limits = go.limits_with(Side::First, GameKind::Shogi, &settings);
    assert_eq!(limits.movetime, Some(Duration::from_millis(950)));
    assert_eq!(limits.byoyomi, Duration::from_millis(950));
    assert!(settings.set("NetworkDelay", Some("-3")).unwrap().is_err());
    assert!(settings.set("Threads", Some("2")).is_none());
}

#[test]
fn uci_elo_maps_onto_the_levels_of_each_game() {
    use qipan::protocol::{
        elo_for_level, level_for_elo, SearchSettings, ELO_FOR_LEVEL, HIGHEST_ELO, LOWEST_ELO,
    };
    use qipan::rules::any::GameKind;
    let games = [GameKind::Xiangqi, GameKind::Janggi, GameKind::Shogi];
    assert_eq!(ELO_FOR_LEVEL.len(), games.len());
    for game in games {
        let ratings = elo_for_level(game);
        assert!(
            ELO_FOR_LEVEL
                .iter()
                .any(|(kind, row)| *kind == game && row == ratings),
            "{game:?} has its own row"
        );
        assert!(
            ratings.windows(2).all(|pair| pair[0] < pair[1]),
            "{game:?}: every level is rated above the one below"
        );
        assert!(LOWEST_ELO <= ratings[0] && ratings[8] <= HIGHEST_ELO);
        assert_eq!(level_for_elo(game, 0), 1);
        assert_eq!(level_for_elo(game, ratings[0]), 1);
        assert_eq!(level_for_elo(game, ratings[4]), 5);
        assert_eq!(level_for_elo(game, ratings[8] - 1), 8);
        assert_eq!(level_for_elo(game, ratings[8]), 9);
        assert_eq!(
            level_for_elo(game, u32::MAX),
            9,
            "a limited strength is never full strength"
        );
    }
    assert!(
        ELO_FOR_LEVEL.iter().any(|(_, row)| row[0] == LOWEST_ELO)
            && ELO_FOR_LEVEL.iter().any(|(_, row)| row[8] == HIGHEST_ELO),
        "the option's range is the games' widest"
    );
    // One rating means the level measured at that strength in each game: shogi's level 5
    // is rated above xiangqi's, so xiangqi's level-5 rating asks shogi for a lower level.
    let xiangqi_5 = elo_for_level(GameKind::Xiangqi)[4];
    assert!(elo_for_level(GameKind::Shogi)[4] > xiangqi_5);
    assert!(level_for_elo(GameKind::Shogi, xiangqi_5) < 5);

    let mut settings = SearchSettings::default();
    settings
        .set("UCI_Elo", Some(&xiangqi_5.to_string()))
        .unwrap()
        .unwrap();
    assert_eq!(
        settings.effective_level(GameKind::Xiangqi),
        10,
        "only with UCI_LimitStrength"
    );
    settings
        .set("UCI_LimitStrength", Some("true"))
        .unwrap()
        .unwrap();
    assert_eq!(settings.effective_level(GameKind::Xiangqi), 5);
    assert_eq!(
        settings.effective_level(GameKind::Shogi),
        level_for_elo(GameKind::Shogi, xiangqi_5)
    );
}

#[test]
fn iccs_and_fairy_stockfish_coordinates_convert() {
    use qipan::protocol::{iccs_from_uci, uci_from_iccs};
    assert_eq!(iccs_from_uci("h3e3"), "h2e2");
    assert_eq!(iccs_from_uci("b10c8"), "b9c7");
    assert_eq!(uci_from_iccs("h2e2").as_deref(), Some("h3e3"));
    assert_eq!(uci_from_iccs("H2-E2").as_deref(), Some("h3e3"));
    assert_eq!(uci_from_iccs("b9c7").as_deref(), Some("b10c8"));
    assert_eq!(uci_from_iccs("z9c7"), None);
    assert_eq!(uci_from_iccs("h2e"), None);
}

#[test]
fn usi_go_mate_answers_in_the_spec_forms_in_process() {
    let out = run_usi(
        "position sfen 4k4/9/4S4/9/9/9/9/9/9 b G 1\ngo mate 5000\nposition sfen 4k4/9/9/9/9/9/9/9/9 b P 1\ngo mate infinite\n",
    );
    let answers: Vec<&str> = out.lines().filter(|l| l.starts_with("checkmate")).collect();
    assert_eq!(answers, ["checkmate G*5b", "checkmate nomate"], "{out}");
}

#[test]
fn readyok_never_overtakes_a_command_waiting_for_the_search() {
    // The `position` waits for the depth-30 search (stopped by `stop`); its error must
    // come before the `readyok` of the `isready` sent after it.
    let out =
        run_uci("position startpos\ngo depth 30\nposition startpos moves z9z9\nisready\nstop\n");
    let error = out.find("cannot read move 'z9z9'").expect("the error line");
    let ready = out.find("readyok").expect("readyok");
    assert!(error < ready, "readyok came first:\n{out}");
}

#[test]
fn spin_options_outside_their_range_are_refused_and_kept() {
    use qipan::protocol::{SearchSettings, HIGHEST_ELO, LOWEST_ELO};
    let mut settings = SearchSettings::default();
    let (below, above) = ((LOWEST_ELO - 1).to_string(), (HIGHEST_ELO + 1).to_string());
    for (name, value) in [
        ("Skill Level", "0"),
        ("Skill Level", "11"),
        ("UCI_Elo", below.as_str()),
        ("UCI_Elo", above.as_str()),
    ] {
        assert!(
            settings.set(name, Some(value)).unwrap().is_err(),
            "{name} {value} was taken"
        );
    }
    assert_eq!(
        settings,
        SearchSettings::default(),
        "a refused value changed nothing"
    );
    assert_eq!(settings.set("Skill Level", Some("1")), Some(Ok(())));
    assert_eq!(settings.level, 1);
    let out = run_uci("setoption name Skill Level value 11\nisready\n");
    assert!(
        out.contains("info string error: Skill Level needs a number from 1 to 10"),
        "{out}"
    );
}

#[test]
fn check_options_take_only_true_or_false() {
    let out =
        run_uci("setoption name Ponder value maybe\nsetoption name Ponder value true\nisready\n");
    assert_eq!(out.matches("info string error").count(), 1, "{out}");
    assert!(out.contains("Ponder needs true or false"), "{out}");
    let out = run_usi(
        "setoption name USI_Ponder value maybe\nsetoption name USI_Ponder value false\nisready\n",
    );
    assert_eq!(out.matches("info string error").count(), 1, "{out}");
    let mut session = qipan::protocol::ucci::UcciSession::new();
    let mut out = Vec::new();
    for line in [
        "setoption usemillisec maybe",
        "setoption ponder maybe",
        "setoption usemillisec on",
        "setoption ponder false",
    ] {
        session.handle(line, &mut out).unwrap();
    }
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.matches("info string error").count(), 2, "{out}");
}

#[test]
fn ucci_names_its_own_level_option_when_refusing_a_value() {
    let mut session = qipan::protocol::ucci::UcciSession::new();
    let mut out = Vec::new();
    for line in [
        "setoption level 0",
        "setoption level 11",
        "setoption level 5",
    ] {
        session.handle(line, &mut out).unwrap();
    }
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.matches("info string error").count(), 2, "{out}");
    assert!(out.contains("level needs a number from 1 to"), "{out}");
    assert!(
        !out.contains("Skill Level"),
        "UCCI has no Skill Level: {out}"
    );
}

#[test]
fn uci_eval_prints_the_shogi_terms_whose_weighted_sum_is_the_evaluation() {
    // tools/tune_eval.py fits the shogi weights to these terms: they must be the ones the
    // evaluation sums, in the order of `tuned::SHOGI_WEIGHTS`.
    let out = run_uci(
        "setoption name UCI_Variant value shogi\nposition startpos moves c3c4 g7g6 b1c3\neval\n",
    );
    let terms: Vec<i32> = out
        .lines()
        .find_map(|l| l.strip_prefix("info string evaluation terms "))
        .unwrap_or_else(|| panic!("no terms line in {out}"))
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    let weights: Vec<i32> = qipan::engine::tuned::SHOGI_WEIGHTS
        .iter()
        .chain(qipan::engine::tuned::SHOGI_SQUARE_WEIGHTS.iter().flatten())
        .copied()
        .chain(qipan::engine::eval::shogi_relation_weights())
        .collect();
    assert_eq!(terms.len(), weights.len(), "{out}");
    // The centipawns after `prefix` in the output, and the terms' weighted sum (of the
    // first `count` terms) in the weights' sixteenths of a centipawn.
    let reported = |prefix: &str| -> i32 {
        out.lines()
            .find_map(|l| l.strip_prefix(prefix))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no {prefix:?} in {out}"))
    };
    let weighted_sum = |count: usize| -> i32 {
        terms[..count]
            .iter()
            .zip(weights.iter())
            .map(|(term, weight)| term * weight)
            .sum()
    };
    let evaluation = reported("info string static evaluation ");
    assert_eq!(evaluation, weighted_sum(terms.len()) / 16, "{out}");
    // The levels' evaluation leaves the relations and hand steps (the last terms) out.
    let levels = reported("info string levels evaluation ");
    let relations_count = qipan::engine::eval::SHOGI_RELATION_TERMS;
    assert_eq!(
        levels,
        weighted_sum(terms.len() - relations_count) / 16,
        "{out}"
    );
    assert_ne!(
        levels, evaluation,
        "the relations count for something here: {out}"
    );
    // Xiangqi's fitted features are computed by the script itself: no terms line.
    let out = run_uci("setoption name UCI_Variant value xiangqi\nposition startpos\neval\n");
    assert!(!out.contains("evaluation terms"), "{out}");
    assert!(out.contains("info string static evaluation"), "{out}");
}
