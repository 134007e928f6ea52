//! The clocks driven through `App::update` with a manual time source.

use super::test_support::play;
use super::*;
use crate::clock::{SideTime, TimeControl};
use crate::rules::any::Variant;
use crate::rules::janggi::JanggiRules;
use crate::ui::benchmark::parse_move;

fn seconds(s: u64) -> Duration {
    Duration::from_secs(s)
}

/// A game of `variant` under `control` with a manual clock, `players` first player first.
fn timed_game(variant: Variant, control: &str, players: [Player; 2]) -> App {
    let mut app = App::new(Settings::default());
    app.time = TimeSource::manual();
    app.options = StartOptions {
        players,
        time: control.parse().unwrap(),
        ..StartOptions::for_variant(variant)
    };
    app.start_game();
    app
}

fn hotseat(control: &str) -> App {
    timed_game(
        Variant::Janggi(JanggiRules::KJA),
        control,
        [Player::Human, Player::Human],
    )
}

fn clock(app: &App) -> &Clock {
    play(app).clock.as_ref().expect("a timed game")
}

fn time_of(app: &App, side: Side) -> SideTime {
    clock(app).time(side, app.now())
}

fn wait(app: &mut App, by: Duration) {
    app.time.advance(by);
    app.update(Action::Tick);
}

fn move_text(app: &mut App, text: &str) {
    let mv = parse_move(play(app).game.position(), text).expect(text);
    app.play_move(mv);
}

fn search_of(app: &mut App) -> Option<(u64, Limits)> {
    app.take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::StartSearch { id, limits, .. } => Some((id, limits)),
            _ => None,
        })
}

#[test]
fn gungjanggi_starts_with_its_byoyomi_and_others_untimed() {
    let mut app = App::new(Settings::default());
    while app.options.game().name != Key::GameGungjanggi {
        app.options.change(StartField::Game, 1);
    }
    app.start_game();
    let control = clock(&app).control();
    assert_eq!(control.to_string(), "5m 30x30s");
    assert_eq!(clock(&app).running(), Some(Side::First));
    let app = App::with_game(
        Settings::default(),
        StartOptions::for_game(GameKind::Janggi),
    );
    assert!(play(&app).clock.is_none());
}

#[test]
fn a_flag_fall_on_a_tick_ends_the_game_on_time() {
    let mut app = hotseat("10s");
    wait(&mut app, seconds(4));
    move_text(&mut app, "a4b4");
    // Cho used 4 s; Han's clock runs now.
    assert_eq!(time_of(&app, Side::First).main, seconds(6));
    wait(&mut app, Duration::from_millis(9_900));
    assert!(play(&app).in_progress());
    wait(&mut app, Duration::from_millis(100));
    let outcome = play(&app).game.outcome().expect("Han flagged");
    assert_eq!(outcome.reason(), EndReason::Timeout);
    assert_eq!(outcome.winner(), Some(Side::First));
    assert_eq!(app.overlay, Some(Overlay::GameOver { choice: 0 }));
    assert_eq!(clock(&app).running(), None, "the clocks stop at the end");
    // A finished game on time cannot be taken back.
    app.update(Action::Cancel);
    app.update(Action::Undo);
    assert!(!play(&app).in_progress());
    assert!(app.status.as_ref().unwrap().text.contains("lost on time"));
}

#[test]
fn a_move_after_the_flag_fell_does_not_count() {
    let mut app = hotseat("10s");
    // No tick came between the flag fall and the move.
    app.time.advance(seconds(11));
    move_text(&mut app, "a4b4");
    assert!(play(&app).game.moves().is_empty());
    let outcome = play(&app).game.outcome().expect("Cho flagged");
    assert_eq!(
        (outcome.reason(), outcome.winner()),
        (EndReason::Timeout, Some(Side::Second))
    );
}

#[test]
fn byoyomi_and_increment_through_the_app() {
    let mut app = hotseat("10s 2x5s");
    wait(&mut app, seconds(13));
    // 3 s into Cho's first period.
    assert_eq!(clock(&app).face(Side::First, app.now()), "2s ×2");
    move_text(&mut app, "a4b4");
    assert_eq!(
        time_of(&app, Side::First).period,
        seconds(5),
        "period reset"
    );
    assert_eq!(time_of(&app, Side::First).periods, 2);
    let mut app = hotseat("1m+10s");
    wait(&mut app, seconds(20));
    move_text(&mut app, "a4b4");
    assert_eq!(time_of(&app, Side::First).main, seconds(50));
}

#[test]
fn pause_stops_both_clocks_in_hotseat() {
    let mut app = hotseat("1m");
    wait(&mut app, seconds(10));
    app.update(Action::Pause);
    assert!(app.paused());
    wait(&mut app, seconds(3600));
    assert!(play(&app).in_progress());
    assert_eq!(time_of(&app, Side::First).main, seconds(50));
    // No moves while paused.
    let a4 = parse_move(play(&app).game.position(), "a4b4").unwrap();
    app.play.as_mut().unwrap().cursor = a4.from;
    app.update(Action::Select);
    assert_eq!(play(&app).selection, None);
    assert!(app.status.as_ref().unwrap().text.contains("paused"));
    app.update(Action::Pause);
    assert!(!app.paused());
    wait(&mut app, seconds(5));
    assert_eq!(time_of(&app, Side::First).main, seconds(45));
    // Without a clock there is nothing to pause.
    let mut app = hotseat("none");
    app.update(Action::Pause);
    assert!(app.status.as_ref().unwrap().text.contains("no clock"));
}

#[test]
fn pause_against_the_cpu_stops_its_search_and_resume_starts_it_again() {
    let mut app = timed_game(
        Variant::Xiangqi,
        "1m",
        [Player::Computer { level: 3 }, Player::Human],
    );
    let (first, _) = search_of(&mut app).expect("the CPU moves first");
    wait(&mut app, seconds(2));
    app.update(Action::Pause);
    assert!(app.paused());
    assert!(play(&app).search.is_none(), "the search is stopped");
    // Its answer, arriving after the pause, is ignored.
    let reply = parse_move(play(&app).game.position(), "h3e3").unwrap();
    app.update(Action::ComputerMove {
        search: first,
        mv: Some(reply),
    });
    assert!(play(&app).game.moves().is_empty());
    wait(&mut app, seconds(600));
    assert_eq!(time_of(&app, Side::First).main, seconds(58));
    assert!(search_of(&mut app).is_none(), "no search while paused");
    app.update(Action::Pause);
    assert!(!app.paused());
    let (second, _) = search_of(&mut app).expect("thinking again after the pause");
    assert_ne!(first, second);
    app.update(Action::ComputerMove {
        search: second,
        mv: Some(reply),
    });
    assert_eq!(play(&app).game.moves().len(), 1);
}

#[test]
fn redo_in_a_timed_hotseat_game_needs_both_players() {
    let mut app = hotseat("1m");
    move_text(&mut app, "a4b4");
    app.update(Action::Undo);
    app.update(Action::Yes);
    assert!(play(&app).game.moves().is_empty());
    app.update(Action::Redo);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Redo)));
    app.update(Action::No);
    assert!(play(&app).game.moves().is_empty());
    app.update(Action::Redo);
    app.update(Action::Yes);
    assert_eq!(play(&app).game.moves().len(), 1);
    assert_eq!(clock(&app).running(), Some(Side::Second));
    // Nothing to replay: no question.
    app.update(Action::Redo);
    assert!(app.overlay.is_none());
}

#[test]
fn undo_in_a_timed_hotseat_game_needs_both_players() {
    let mut app = hotseat("1m");
    move_text(&mut app, "a4b4");
    app.update(Action::Undo);
    assert_eq!(app.overlay, Some(Overlay::Confirm(Question::Undo)));
    app.update(Action::No);
    assert_eq!(play(&app).game.moves().len(), 1);
    app.update(Action::Undo);
    wait(&mut app, seconds(7));
    app.update(Action::Yes);
    assert!(play(&app).game.moves().is_empty());
    // Cho's clock runs again; the question paused the clocks, so the 7 s spent
    // deciding cost Han nothing (issue 12: any question pauses the clocks).
    assert_eq!(clock(&app).running(), Some(Side::First));
    assert_eq!(time_of(&app, Side::Second).main, seconds(60));
    // Untimed hotseat: undo at once.
    let mut app = hotseat("none");
    move_text(&mut app, "a4b4");
    app.update(Action::Undo);
    assert!(app.overlay.is_none());
    assert!(play(&app).game.moves().is_empty());
}

#[test]
fn undo_against_the_cpu_needs_no_question_and_its_clock_limits_its_search() {
    let mut app = timed_game(
        Variant::Xiangqi,
        "0s 3x10s",
        [Player::Human, Player::Computer { level: 10 }],
    );
    move_text(&mut app, "h3e3");
    let (id, limits) = search_of(&mut app).expect("the CPU thinks");
    // The CPU never plans past its period: a full safety margin kept back.
    assert_eq!(limits.byoyomi, seconds(10) - CPU_SAFETY_MARGIN);
    assert_eq!(limits.time_left, Some(Duration::ZERO));
    wait(&mut app, seconds(2));
    let reply = parse_move(play(&app).game.position(), "h10g8").unwrap();
    app.update(Action::ComputerMove {
        search: id,
        mv: Some(reply),
    });
    assert_eq!(play(&app).game.moves().len(), 2);
    app.update(Action::Undo);
    assert!(app.overlay.is_none());
    assert!(play(&app).game.moves().is_empty());
    assert_eq!(clock(&app).running(), Some(Side::First));
}

#[test]
fn the_cpu_loses_on_time_while_thinking_and_its_late_move_is_ignored() {
    let mut app = timed_game(
        Variant::Xiangqi,
        "5s",
        [Player::Computer { level: 3 }, Player::Human],
    );
    let (id, limits) = search_of(&mut app).expect("the CPU moves first");
    assert_eq!(limits.time_left, Some(seconds(4)));
    wait(&mut app, seconds(5));
    let outcome = play(&app).game.outcome().expect("flagged");
    assert_eq!(outcome.winner(), Some(Side::Second));
    assert!(app.play.as_ref().unwrap().search.is_none());
    let mv = parse_move(play(&app).game.position(), "h3e3").unwrap();
    app.update(Action::ComputerMove {
        search: id,
        mv: Some(mv),
    });
    assert!(play(&app).game.moves().is_empty());
}

#[test]
fn clock_limits_keep_a_margin_in_every_control() {
    let level = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    let time = |main: u64, periods: u32, period: u64| SideTime {
        main: Duration::from_millis(main),
        periods,
        period: Duration::from_millis(period),
    };
    let untimed = clock_limits(level, TimeControl::None, time(0, 0, 0));
    assert_eq!(untimed, level);
    let fischer = clock_limits(level, "1m+2s".parse().unwrap(), time(30_000, 0, 0));
    assert_eq!(fischer.time_left, Some(seconds(29)));
    assert_eq!(fischer.increment, seconds(2));
    assert_eq!(fischer.nodes, Some(1000));
    // Little time left: a quarter of it is kept back.
    let short = clock_limits(level, "1m".parse().unwrap(), time(400, 0, 0));
    assert_eq!(short.time_left, Some(Duration::from_millis(300)));
    let byoyomi = clock_limits(level, "1m 3x2s".parse().unwrap(), time(0, 2, 2000));
    assert_eq!(byoyomi.byoyomi, Duration::from_millis(1500));
}

#[test]
fn the_cpu_search_finishes_inside_its_time() {
    // Real searches at full strength must answer before the flag falls: a 2-second
    // byoyomi period, 3 seconds of sudden death, 2 seconds with a 1-second increment.
    let game = Game::from_variant(Variant::Xiangqi);
    for (text, deadline) in [
        ("0s 1x2s", seconds(2)),
        ("3s", seconds(3)),
        ("2s+1s", seconds(2)),
    ] {
        let control: TimeControl = text.parse().unwrap();
        let limits = clock_limits(
            crate::app::cpu_limits(GameKind::Xiangqi, 10),
            control,
            control.initial(),
        );
        let stop = AtomicBool::new(false);
        let started = std::time::Instant::now();
        let mv = crate::engine::best_move(&game, limits, &stop, &mut |_| {});
        let elapsed = started.elapsed();
        eprintln!("{text}: the CPU thought {elapsed:?}");
        assert!(mv.is_some());
        assert!(elapsed < deadline, "{text}: thought {elapsed:?}");
    }
}

#[test]
fn a_resumed_game_continues_with_its_clocks() {
    let mut app = timed_game(
        Variant::Janggi(JanggiRules::GUNGJANGGI),
        "5m 30x30s",
        [Player::Human, Player::Human],
    );
    wait(&mut app, seconds(310));
    move_text(&mut app, "a4b4");
    wait(&mut app, seconds(40));
    // Quitting saves the time Han has used since Cho's move.
    app.take_effects();
    app.update(Action::Quit);
    app.update(Action::Yes);
    let text = app
        .take_effects()
        .into_iter()
        .find_map(|effect| match effect {
            Effect::Autosave(text) => Some(text),
            _ => None,
        })
        .expect("saved on quit");
    assert!(
        text.contains("\nclock 5m 30x30s | 0 30 30000 | 260000 30 30000\n"),
        "{text}"
    );
    let saved = autosave::from_text(&text, "autosave.txt").unwrap();
    let mut resumed = App::new(Settings::default());
    resumed.time = TimeSource::manual();
    resumed.offer_saved_game(saved);
    resumed.update(Action::Select);
    assert_eq!(play(&resumed).game.moves().len(), 1);
    assert_eq!(clock(&resumed).running(), Some(Side::Second));
    assert_eq!(time_of(&resumed, Side::First).periods, 30);
    assert_eq!(time_of(&resumed, Side::Second).main, seconds(260));
    wait(&mut resumed, seconds(260 + 30 * 30 - 1));
    assert!(play(&resumed).in_progress());
    wait(&mut resumed, seconds(1));
    assert_eq!(
        play(&resumed).game.outcome().map(|o| o.reason()),
        Some(EndReason::Timeout)
    );
}

#[test]
fn the_start_screen_time_row_chooses_the_control() {
    let mut app = App::new(Settings::default());
    app.time = TimeSource::manual();
    let row = app
        .start_fields()
        .iter()
        .position(|&f| f == StartField::Time)
        .expect("a time row");
    for _ in 0..row {
        app.update(Action::Down);
    }
    app.update(Action::Right);
    app.update(Action::Right);
    assert_eq!(app.options.time, crate::clock::PRESETS[2]);
    app.update(Action::Left);
    assert_eq!(app.options.time.to_string(), "5m");
    // Enter on any row starts the game with that clock.
    app.update(Action::Select);
    assert_eq!(clock(&app).control().to_string(), "5m");
    // Changing the game brings that game's default back.
    let mut app = App::new(Settings::default());
    app.options.time = "1m".parse().unwrap();
    app.update(Action::Right);
    assert_eq!(app.options.game().name, Key::GameShogi);
    assert_eq!(app.options.time, TimeControl::None);
}
