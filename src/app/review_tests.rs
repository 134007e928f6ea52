//! Key-sequence tests of the review (issue 13): "analyse this game" on the worker with
//! a small node budget (the answers are fed back in order, so the result is the same
//! every time), the planted blunder marked `??` in the tree, the mistake keys, the
//! result kept by the autosave and the record, Esc stopping it, and the exercises of
//! "learn from your mistakes".

use super::learn::Verdict;
use super::test_support::{play, press, status};
use super::*;
use crate::analysis::Budget;
use crate::record::{autosave, Format};
use crate::ui::benchmark::parse_move;

/// The budget of `tests/analysis.rs`: quick, and enough to see a piece taken back.
const NODES: u64 = 20_000;

/// Clicks a move's squares (engine coordinates, e.g. `a1a7`) on the shown position.
fn click_move(app: &mut App, text: &str) -> Move {
    let mv = parse_move(play(app).shown_position(), text).expect(text);
    app.update(Action::ClickSquare(mv.from));
    app.update(Action::ClickSquare(mv.to));
    mv
}

/// Runs the analyses the app asked for, one after the other on this thread, feeding
/// every answer back as the event loop would. Returns how many ran.
fn run_analyses(app: &mut App) -> usize {
    let mut ran = 0;
    loop {
        let jobs: Vec<_> = app
            .take_effects()
            .into_iter()
            .filter_map(|effect| match effect {
                Effect::StartAnalysis(job) => Some(job),
                _ => None,
            })
            .collect();
        if jobs.is_empty() {
            return ran;
        }
        for job in jobs {
            ran += 1;
            let mut answers = Vec::new();
            crate::workers::run_analysis(*job, None, Language::English, &mut |action| {
                answers.push(action)
            });
            for action in answers {
                app.update(action);
            }
        }
    }
}

/// Red's chariot goes to a7, where the black horse on c8 takes it (the position of
/// `tests/analysis.rs`):
///   . . . . k . . . .   10
///   . . n . . . . . .    8
///   . . . . p . . . .    7
///   . . . . P . . . .    4
///   R . . K . . . . .    1
fn planted_blunder() -> App {
    let start = crate::rules::any::Variant::Xiangqi
        .position_from_fen("4k4/9/2n6/4p4/9/9/4P4/9/9/R2K5 w - - 0 1")
        .unwrap();
    let mut app = App::from_position(Settings::default(), start);
    app.analysis_budget = Budget::Nodes(NODES);
    for text in ["a1a7", "c8a7", "d1d2", "a7b5"] {
        click_move(&mut app, text);
    }
    assert_eq!(play(&app).game.moves().len(), 4);
    app.take_effects();
    app
}

fn analysed_planted_blunder() -> App {
    let mut app = planted_blunder();
    app.update(Action::AnalyseGame);
    assert!(app.analysis_running());
    assert!(status(&app).contains("Analysing: 0/5"), "{}", status(&app));
    assert_eq!(run_analyses(&mut app), 1);
    assert!(!app.analysis_running());
    app
}

#[test]
fn a_planted_blunder_is_marked_and_the_mistake_key_lands_on_it() {
    let mut app = analysed_planted_blunder();
    assert!(
        status(&app).starts_with("Analysed by qipan"),
        "{}",
        status(&app)
    );
    let play_now = play(&app);
    let first = play_now.line[0];
    assert_eq!(play_now.tree.node(first).annotation.nags, vec![4]);
    // Taking the chariot is the best move: never marked.
    assert!(play_now
        .tree
        .node(play_now.line[1])
        .annotation
        .nags
        .is_empty());
    // The scores are in the tree, in the record's words, and read back for the graph.
    assert!(play_now.line_evaluations().iter().all(Option::is_some));
    assert!(play_now.tree.node(first).annotation.comments[0].starts_with("[%eval"));
    // From the start, the mistake key shows the position after the blunder.
    press(&mut app, &[Action::HistoryStart, Action::NextMistake]);
    assert_eq!(play(&app).review, Some(1));
    assert!(
        status(&app).starts_with("Move 1: R9+6??") && status(&app).contains("best was"),
        "{}",
        status(&app)
    );
    // Back from the end lands there too; beyond it there is none.
    press(&mut app, &[Action::HistoryEnd, Action::PreviousMistake]);
    assert_eq!(play(&app).review, Some(1));
    app.update(Action::PreviousMistake);
    assert_eq!(play(&app).review, Some(1));
    assert!(
        status(&app).contains("No more marked moves"),
        "{}",
        status(&app)
    );
}

#[test]
fn the_side_mistake_keys_follow_the_one_person_against_the_cpu() {
    let mut app = analysed_planted_blunder();
    if let Some(play) = &mut app.play {
        play.players = [Player::Computer { level: 1 }, Player::Human];
    }
    // Black (the person) made no marked move: Red's blunder is not theirs.
    press(&mut app, &[Action::HistoryStart, Action::NextMistakeOfSide]);
    assert_eq!(play(&app).review, Some(0));
    assert!(
        status(&app).contains("No more marked moves"),
        "{}",
        status(&app)
    );
    if let Some(play) = &mut app.play {
        play.players = [Player::Human, Player::Computer { level: 1 }];
    }
    app.update(Action::NextMistakeOfSide);
    assert_eq!(play(&app).review, Some(1));
}

#[test]
fn the_marks_and_scores_survive_the_autosave_and_the_record() {
    let app = analysed_planted_blunder();
    let saved = app.saved_game().expect("a game");
    let text = autosave::to_text(&saved);
    let resumed = autosave::from_text(&text, "autosave").expect("it reads back");
    let mut again = App::from_saved(Settings::default(), resumed);
    let play_again = play(&again);
    assert_eq!(
        play_again.tree.node(play_again.line[0]).annotation.nags,
        vec![4]
    );
    assert_eq!(play_again.line_evaluations(), play(&app).line_evaluations());
    // The resumed game jumps to its mistake too (the best move is not known any more).
    press(&mut again, &[Action::HistoryStart, Action::NextMistake]);
    assert_eq!(play(&again).review, Some(1));
    let record = app.game_record().expect("a record");
    let pgn = crate::record::write(&record, Format::Pgn).expect("PGN");
    assert!(pgn.contains("$4") || pgn.contains("??"), "{pgn}");
    assert!(pgn.contains("[%eval"), "{pgn}");
    assert!(pgn.contains("Blunder"), "{pgn}");
}

#[test]
fn analysing_again_replaces_the_comments_instead_of_adding_to_them() {
    let mut app = analysed_planted_blunder();
    let once = play(&app).tree.node(play(&app).line[0]).annotation.clone();
    app.update(Action::AnalyseGame);
    run_analyses(&mut app);
    let twice = play(&app).tree.node(play(&app).line[0]).annotation.clone();
    assert_eq!(once, twice);
    assert_eq!(
        play(&app).tree.node(NodeId::ROOT).annotation.comments.len(),
        1
    );
}

#[test]
fn esc_stops_the_analysis_and_nothing_of_it_is_kept() {
    let mut app = planted_blunder();
    app.update(Action::AnalyseGame);
    app.update(Action::AnalyseGame);
    assert!(status(&app).contains("already running"), "{}", status(&app));
    app.update(Action::Cancel);
    assert!(!app.analysis_running());
    assert_eq!(status(&app), "Analysis stopped");
    // The worker sees its stop flag and answers nothing.
    assert_eq!(run_analyses(&mut app), 1);
    assert!(play(&app).line_evaluations().iter().all(Option::is_none));
    assert!(play(&app)
        .tree
        .node(play(&app).line[0])
        .annotation
        .nags
        .is_empty());
}

#[test]
fn the_analysis_runs_on_a_worker_thread_while_keys_go_on() {
    let mut app = planted_blunder();
    app.update(Action::AnalyseGame);
    let job = app
        .take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::StartAnalysis(job) => Some(job),
            _ => None,
        })
        .expect("an analysis job");
    let (sender, receiver) = std::sync::mpsc::channel();
    crate::workers::spawn_analysis(*job, None, Language::English, sender);
    // Keys work while it runs.
    app.update(Action::HistoryBack);
    assert_eq!(play(&app).review, Some(3));
    // Every answer is fed in; the last one is the result (recv waits, no timing).
    loop {
        let action = receiver.recv().expect("the worker answers");
        let done = matches!(action, Action::AnalysisFinished { .. });
        app.update(action);
        if done {
            break;
        }
    }
    assert_eq!(
        play(&app).tree.node(play(&app).line[0]).annotation.nags,
        vec![4]
    );
}

#[test]
fn the_game_over_popup_offers_the_analysis() {
    let mut app = planted_blunder();
    press(&mut app, &[Action::Resign, Action::Yes]);
    assert!(matches!(app.overlay, Some(Overlay::GameOver { .. })));
    app.update(Action::AnalyseGame);
    assert_eq!(app.overlay, None);
    assert!(app.analysis_running());
    // It is the popup's fourth choice too.
    app.update(Action::Cancel);
    assert!(!app.analysis_running());
    app.overlay = Some(Overlay::GameOver { choice: 0 });
    press(
        &mut app,
        &[Action::Down, Action::Down, Action::Down, Action::Down],
    );
    assert_eq!(app.overlay, Some(Overlay::GameOver { choice: 3 }));
    app.update(Action::Select);
    assert!(app.analysis_running());
}

#[test]
fn learning_accepts_the_best_move_and_refuses_the_blunder() {
    let mut app = analysed_planted_blunder();
    app.update(Action::Learn);
    assert!(app.learning());
    let learn = play(&app).learn.clone().expect("exercises");
    // Both players are people: every marked move is an exercise; the first is the blunder.
    assert_eq!(learn.exercise().ply, 0);
    assert_eq!(play(&app).review, Some(0));
    let best = learn.exercise().best.expect("a best move");
    assert!(
        status(&app).contains("Find a better move for Red"),
        "{}",
        status(&app)
    );
    // The blunder again: refused.
    let blunder = click_move(&mut app, "a1a7");
    assert_eq!(blunder, learn.exercise().played);
    let verdict = play(&app).learn.as_ref().and_then(|l| l.verdict);
    assert_eq!(verdict, Some(Verdict::Same));
    assert!(app.status.as_ref().is_some_and(|s| s.error));
    // Nothing was played: the game is as it was.
    assert_eq!(play(&app).game.moves().len(), 4);
    // The hint picks the piece, a second hint shows the answer on the board.
    app.update(Action::Hint);
    assert_eq!(play(&app).selection, Some(Selection::Square(best.from)));
    app.update(Action::Hint);
    assert_eq!(play(&app).hint, Some(best));
    assert!(
        status(&app).starts_with("Engine's answer:"),
        "{}",
        status(&app)
    );
    // The best move: accepted.
    app.update(Action::ClickSquare(best.from));
    app.update(Action::ClickSquare(best.to));
    let learn = play(&app).learn.clone().expect("exercises");
    assert_eq!(learn.verdict, Some(Verdict::Right(best)));
    assert!(learn.solved[learn.index]);
    // Esc leaves for the game as it was.
    app.update(Action::Cancel);
    assert!(!app.learning());
    assert_eq!(play(&app).review, None);
    assert_eq!(play(&app).game.moves().len(), 4);
    assert_eq!(status(&app), "Back to the game");
}

#[test]
fn a_move_outside_the_analysis_is_judged_by_a_short_search() {
    let mut app = analysed_planted_blunder();
    app.update(Action::Learn);
    let learn = play(&app).learn.clone().expect("exercises");
    let exercise = learn.exercise().clone();
    // A quiet chariot step keeps the extra chariot: checked on the worker, then accepted.
    let tried = click_move(&mut app, "a1a2");
    assert_ne!(Some(tried), exercise.best);
    assert!(status(&app).starts_with("Checking"), "{}", status(&app));
    assert_eq!(run_analyses(&mut app), 1);
    let verdict = play(&app).learn.as_ref().and_then(|l| l.verdict);
    assert_eq!(verdict, Some(Verdict::Right(tried)), "{}", status(&app));
    // Giving the chariot away another way: refused.
    let tried = click_move(&mut app, "a1a9");
    assert_eq!(run_analyses(&mut app), 1);
    let verdict = play(&app).learn.as_ref().and_then(|l| l.verdict);
    assert_eq!(verdict, Some(Verdict::Wrong(tried)), "{}", status(&app));
}

#[test]
fn learning_needs_an_analysis_first() {
    let mut app = planted_blunder();
    app.update(Action::Learn);
    assert!(!app.learning());
    assert!(status(&app).contains("press A"), "{}", status(&app));
    app.update(Action::NextMistake);
    assert!(status(&app).contains("press A"), "{}", status(&app));
}
