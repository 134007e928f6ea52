//! Whole-game analysis: a planted blunder (a chariot or rook left hanging) is marked `??`
//! in each game, the analysis is the same every time under a node budget, the report is
//! exact, and a stop flag cancels it. The built-in engine only: no outside engine needed.

mod scratch;

use qipan::analysis::{
    analyse, annotate, compare, report_text, Analyser, AnalysisError, Budget, Evaluation,
    GameAnalysis, Mark, Settings,
};
use qipan::engine::Engine;
use qipan::i18n::Language;
use qipan::record::{self, Format, GameRecord};
use qipan::rules::any::{AnyPosition, Variant};
use qipan::rules::game::Game;
use qipan::rules::notation::default_notation;
use qipan::rules::{Move, Side};
use std::sync::atomic::AtomicBool;

/// A small budget: quick, and enough to see a piece taken back.
const NODES: u64 = 20_000;

fn line(variant: &str, fen: &str, moves: &[&str]) -> (AnyPosition, Vec<Move>) {
    let variant = Variant::from_name(variant).unwrap();
    let start = variant.position_from_fen(fen).unwrap();
    let mut game = Game::new(start.clone());
    let mut played = Vec::new();
    for text in moves {
        let mv = game
            .position()
            .parse_uci(text)
            .unwrap_or_else(|| panic!("{text}"));
        game.play(mv).unwrap_or_else(|e| panic!("{text}: {e}"));
        played.push(mv);
    }
    (start, played)
}

fn analysed(start: &AnyPosition, moves: &[Move], nodes: u64) -> GameAnalysis {
    let mut engine = Engine::default();
    let settings = Settings {
        budget: Budget::Nodes(nodes),
        lines: 1,
    };
    let stop = AtomicBool::new(false);
    let mut steps = Vec::new();
    let result = analyse(
        &mut Analyser::BuiltIn(&mut engine),
        start,
        moves,
        settings,
        &stop,
        &mut |step| steps.push(step.done),
    )
    .expect("the analysis finishes");
    assert_eq!(steps, (1..=moves.len() + 1).collect::<Vec<_>>());
    assert_eq!(result.positions.len(), moves.len() + 1);
    assert_eq!(result.moves.len(), moves.len());
    result
}

fn marks(analysis: &GameAnalysis) -> Vec<Option<Mark>> {
    analysis.moves.iter().map(|m| m.mark).collect()
}

#[test]
fn a_hanging_chariot_is_a_blunder_in_xiangqi() {
    // Red's chariot goes to a7, where the black horse on c8 takes it.
    //   . . . . k . . . .   10
    //   . . n . . . . . .    8
    //   . . . . p . . . .    7
    //   . . . . P . . . .    4
    //   R . . K . . . . .    1
    let (start, moves) = line(
        "xiangqi",
        "4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1",
        &["a1a7", "c8a7", "d1d2", "a7b5"],
    );
    let analysis = analysed(&start, &moves, NODES);
    assert_eq!(marks(&analysis)[0], Some(Mark::Blunder), "{analysis:#?}");
    // Taking the chariot is the best move: never marked.
    assert_eq!(marks(&analysis)[1], None, "{analysis:#?}");
    assert!(analysis.moves[0].loss.unwrap() > 30.0);
}

#[test]
fn a_hanging_chariot_is_a_blunder_in_janggi() {
    // Cho's chariot goes to a7, where Han's horse on c8 takes it.
    let (start, moves) = line(
        "janggi",
        "9/4k4/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1",
        &["a1a7", "c8a7", "d1d2", "a7b5"],
    );
    let analysis = analysed(&start, &moves, NODES);
    assert_eq!(marks(&analysis)[0], Some(Mark::Blunder), "{analysis:#?}");
    assert_eq!(marks(&analysis)[1], None, "{analysis:#?}");
}

#[test]
fn a_hanging_rook_is_a_blunder_in_shogi() {
    // Sente's rook goes to 5e, on the diagonal of Gote's bishop on 2b, which takes it.
    let (start, moves) = line(
        "shogi",
        "4k4/7b1/4p4/9/R8/9/4P4/9/4K4[] w - - 0 1",
        &["a5e5", "h8e5", "e1d1", "e5h8"],
    );
    let analysis = analysed(&start, &moves, NODES);
    assert_eq!(marks(&analysis)[0], Some(Mark::Blunder), "{analysis:#?}");
    assert_eq!(marks(&analysis)[1], None, "{analysis:#?}");
}

/// Xiangqi's usual start: 炮二平五 馬８進７ 馬二進三 車９平８ 車一平二 炮８進４.
fn short_xiangqi_game() -> (AnyPosition, Vec<Move>) {
    line(
        "xiangqi",
        qipan::rules::xiangqi::START_FEN,
        &["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "h8h4"],
    )
}

#[test]
fn the_analysis_and_its_report_are_the_same_every_time() {
    let (start, moves) = short_xiangqi_game();
    let first = analysed(&start, &moves, NODES);
    let second = analysed(&start, &moves, NODES);
    assert_eq!(first, second);
    let notation = default_notation(Variant::Xiangqi, true);
    let report = report_text(
        &first,
        &start,
        &moves,
        notation,
        Language::English,
        ["Red", "Black"],
    );
    insta::assert_snapshot!("xiangqi_short_game_report", report);
}

#[test]
fn the_analysis_goes_into_the_record_as_comments() {
    let (start, moves) = short_xiangqi_game();
    let analysis = analysed(&start, &moves, NODES);
    let mut game = Game::new(start);
    for &mv in &moves {
        game.play(mv).unwrap();
    }
    let mut original = GameRecord::new(game);
    original
        .comments
        .push((1, "a comment of the player".to_string()));
    let annotated = annotate(
        &original,
        &analysis,
        Format::Pgn,
        "20000 nodes per position",
    );
    let text = record::write(&annotated, Format::Pgn).unwrap();
    assert!(text.contains("[Annotator \"qipan"), "{text}");
    // (Lines wrap at 79 columns wherever the words fall: compare with one space.)
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        one_line.contains("{a comment of the player} {[%eval "),
        "{text}"
    );
    assert!(text.contains("Line: "), "{text}");
    // It reads back: the same moves, every analysis comment kept.
    let read = record::read_bytes(text.as_bytes(), "analysed.pgn", Format::Pgn).unwrap();
    assert_eq!(read.game.moves(), moves.as_slice());
    assert_eq!(read.comments.len(), annotated.comments.len(), "{text}");
    // Shogi: KIF comments with 評価値 and the Japanese mark.
    let (start, moves) = line(
        "shogi",
        "4k4/7b1/4p4/9/R8/9/4P4/9/4K4[] w - - 0 1",
        &["a5e5", "h8e5"],
    );
    let analysis = analysed(&start, &moves, NODES);
    let mut game = Game::new(start);
    for &mv in &moves {
        game.play(mv).unwrap();
    }
    let annotated = annotate(&GameRecord::new(game), &analysis, Format::Kif, "budget");
    let text = record::write(&annotated, Format::Kif).unwrap();
    assert!(text.contains("*評価値 "), "{text}");
    assert!(text.contains("?? 大悪手"), "{text}");
    assert!(text.contains("最善手 "), "{text}");
}

#[test]
fn a_stop_flag_cancels_the_analysis() {
    let (start, moves) = short_xiangqi_game();
    let mut engine = Engine::default();
    let stop = AtomicBool::new(true);
    let result = analyse(
        &mut Analyser::BuiltIn(&mut engine),
        &start,
        &moves,
        Settings::default(),
        &stop,
        &mut |_| panic!("no position is searched once stopped"),
    );
    assert_eq!(result, Err(AnalysisError::Cancelled));
}

/// Runs the `qipan` binary with an empty configuration, in English.
fn qipan(args: &[&str], home: &std::path::Path) -> (bool, String, String) {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_qipan"))
        .args(args)
        .env("XDG_CONFIG_HOME", home)
        .env("HOME", home)
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("qipan runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// A fresh folder for one test, removed when the returned guard drops.
fn scratch(name: &str) -> tempfile::TempDir {
    scratch::folder(&format!("qipan-analyse-{name}"))
}

#[test]
fn qipan_analyse_prints_the_report_and_writes_the_commented_record() {
    let scratch_home = scratch("cli");
    let home = scratch_home.path();
    let file = home.join("blunder.pgn");
    // The planted xiangqi blunder as a PGN with a start position, in ICCS moves.
    std::fs::write(
        &file,
        "[Game \"Chinese Chess\"]\n[SetUp \"1\"]\n[FEN \"4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1\"]\n\
         [Format \"ICCS\"]\n\n1. A0-A6 C7-A6 2. D0-D1 A6-B4 *\n",
    )
    .unwrap();
    let out = home.join("analysed.pgn");
    let file_text = file.display().to_string();
    let out_text = out.display().to_string();
    let args = [
        "analyse", &file_text, "--nodes", "20000", "--out", &out_text,
    ];
    let (ok, stdout, stderr) = qipan(&args, home);
    assert!(ok, "{stderr}");
    let rows: Vec<&str> = stdout.lines().collect();
    assert!(rows[0].starts_with("qipan ") && rows[0].ends_with("20000 nodes per position"));
    assert!(rows[1].starts_with("ply  move"), "{stdout}");
    // Ply 1 (R9+6, the chariot to a7) is the blunder; ply 2 takes it.
    assert!(rows[2].trim_start().starts_with("1  R9+6"), "{stdout}");
    assert!(rows[2].contains(" ?? "), "{stdout}");
    assert!(!rows[3].contains('?'), "{stdout}");
    assert!(stdout.contains("Red: 0 ?!  0 ?  1 ??"), "{stdout}");
    let written = std::fs::read_to_string(&out).unwrap();
    assert!(written.contains("?? Blunder"), "{written}");
    assert!(written.contains("[%eval "), "{written}");
    // The same again: the same report.
    let (_, again, _) = qipan(&args, home);
    assert_eq!(stdout, again);
    // In Korean: Korean column names, the moves in Chinese characters as Korean players
    // read xiangqi, the same marks.
    let korean = ["--lang", "ko", "analyse", &file_text, "--nodes", "20000"];
    let (ok, stdout, stderr) = qipan(&korean, home);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("국면당 20000 노드"), "{stdout}");
    assert!(
        stdout.contains("최선수") && stdout.contains("수순"),
        "{stdout}"
    );
    assert!(stdout.contains("俥九進六"), "{stdout}");
    let marked: Vec<&str> = stdout.lines().filter(|l| l.contains("  ??  ")).collect();
    assert_eq!(marked.len(), 1, "{stdout}");
    assert!(
        marked[0].trim_start().starts_with("1  俥九進六"),
        "{stdout}"
    );
}

#[test]
fn qipan_analyse_refuses_what_it_cannot_do_in_one_line() {
    let scratch_home = scratch("refusals");
    let home = scratch_home.path();
    let file = home.join("game.pgn");
    std::fs::write(&file, "[Game \"Chinese Chess\"]\n\n1. H2-E2 H9-G7 *\n").unwrap();
    let file_text = file.display().to_string();
    let fen_out = home.join("out.fen").display().to_string();
    for (args, expected) in [
        (
            vec!["analyse", &file_text, "--out", &fen_out],
            "FEN cannot hold the analysis",
        ),
        (
            vec!["analyse", &file_text, "--engine", "nobody"],
            "--engine 'nobody': no engine has that name",
        ),
        (vec!["analyse", &file_text, "--time", "0"], "--time 0"),
        (vec!["analyse", &file_text, "--nodes", "0"], "--nodes 0"),
        (vec!["analyse", "/nowhere/game.pgn"], "/nowhere/game.pgn"),
    ] {
        let (ok, stdout, stderr) = qipan(&args, home);
        assert!(!ok, "{args:?}: {stdout}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

/// A record read from a file keeps its own comments and variations, gains the analysis
/// after them, and the blunder becomes a NAG (`$4`) on the move, not only words.
#[test]
fn an_opened_record_keeps_its_comments_and_variations_and_gains_the_marks() {
    let pgn = "[Game \"Chinese Chess\"]\n[FEN \"4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1\"]\n\
               [Format \"ICCS\"]\n\n1. A0-A6 {the player's own note} (1. D0-D1) 1... C7-A6 2. D0-D1 *\n";
    let read = record::read_bytes(pgn.as_bytes(), "own.pgn", Format::Pgn).unwrap();
    let moves = read.game.moves().to_vec();
    let analysis = analysed(read.game.start(), &moves, NODES);
    assert_eq!(marks(&analysis)[0], Some(Mark::Blunder), "{analysis:#?}");
    let annotated = annotate(&read, &analysis, Format::Pgn, "budget");
    let text = record::write(&annotated, Format::Pgn).unwrap();
    assert!(text.contains("$4"), "{text}");
    assert!(text.contains("{the player's own note}"), "{text}");
    assert!(text.contains("( 1. D0-D1"), "{text}");
    assert!(text.contains("Blunder"), "{text}");
    // Written and read again: the same tree (variation and marks included).
    let again = record::read_bytes(text.as_bytes(), "analysed.pgn", Format::Pgn).unwrap();
    assert_eq!(again.game.moves(), moves.as_slice());
    let first = again.tree.main_line()[0];
    assert_eq!(again.tree.node(first).annotation.nags, vec![4]);
    assert_eq!(again.tree.children(qipan::tree::NodeId::ROOT).len(), 2);
}

#[test]
fn compare_judges_the_candidates_by_one_search_best_first() {
    // The hanging-chariot position: a king step keeps the chariot, a1a7 gives it away.
    let (start, _) = line("xiangqi", "4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1", &[]);
    let give_away = start.parse_uci("a1a7").unwrap();
    let keep = start.parse_uci("d1e1").unwrap();
    let mut engine = Engine::default();
    let stop = AtomicBool::new(false);
    let result = compare(
        &mut Analyser::BuiltIn(&mut engine),
        &start,
        &[],
        &[give_away, keep],
        Budget::Nodes(NODES),
        &stop,
    )
    .expect("the comparison finishes");
    assert_eq!(result.positions.len(), 1);
    assert!(result.moves.is_empty());
    let report = &result.positions[0];
    let firsts: Vec<Move> = report
        .lines
        .iter()
        .map(|line| line.principal_variation[0])
        .collect();
    assert_eq!(firsts, vec![keep, give_away], "{report:#?}");
    assert_eq!(report.best, Some(keep));
    // One search: both lines come from the same completed depth.
    assert_eq!(report.lines[0].depth, report.lines[1].depth, "{report:#?}");
    let chance = |evaluation: Evaluation| evaluation.win_percent(start.game(), Side::First);
    assert!(chance(report.lines[0].evaluation) - chance(report.lines[1].evaluation) > 30.0);
}

#[test]
fn compare_refuses_an_illegal_candidate_and_follows_the_moves_before() {
    let (start, moves) = line(
        "xiangqi",
        "4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1",
        &["a1a7"],
    );
    let mut engine = Engine::default();
    let stop = AtomicBool::new(false);
    // After a1a7 it is Black's move: Red's king step is no candidate there.
    let red_step = start.parse_uci("d1e1").unwrap();
    let refused = compare(
        &mut Analyser::BuiltIn(&mut engine),
        &start,
        &moves,
        &[red_step],
        Budget::Nodes(NODES),
        &stop,
    );
    assert!(
        matches!(refused, Err(AnalysisError::IllegalMove { ply: 2, .. })),
        "{refused:?}"
    );
    // Black's horse takes the chariot: one line, won for Black.
    let mut after = Game::new(start.clone());
    after.play(moves[0]).unwrap();
    let take = after.position().parse_uci("c8a7").unwrap();
    let result = compare(
        &mut Analyser::BuiltIn(&mut engine),
        &start,
        &moves,
        &[take],
        Budget::Nodes(NODES),
        &stop,
    )
    .expect("the comparison finishes");
    let report = &result.positions[0];
    assert_eq!(report.lines.len(), 1);
    assert_eq!(report.best, Some(take));
    assert!(
        report.lines[0]
            .evaluation
            .win_percent(start.game(), Side::Second)
            > 80.0
    );
}
