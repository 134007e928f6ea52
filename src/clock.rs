//! Game clocks: time controls (sudden death, Fischer increment, byoyomi) and a
//! two-sided [`Clock`] that is told the time rather than reading it.
//!
//! Every method that depends on the time takes `now: Instant`, so the clock is pure
//! and tests are exact: they advance a start instant by whole durations. The event
//! loop passes the system time through a [`TimeSource`]; tests pass a manual one.
//!
//! Time controls have one text form, read by [`TimeControl::from_str`] and written by
//! its `Display` (the settings file stores these strings):
//!
//! | text | meaning |
//! |---|---|
//! | `none` | no clock |
//! | `10m` | sudden death: 10 minutes for the whole game |
//! | `5m+3s` | Fischer: 5 minutes, 3 seconds added after each move |
//! | `10m 3x30s` | byoyomi: 10 minutes, then 3 periods of 30 seconds |
//! | `5m 30x30s` | the gungjanggi default |
//!
//! Durations are whole seconds written with the units `h`, `m` and `s`, alone or
//! combined largest first (`1m30s`, `1h5m`).

use crate::rules::Side;
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// How much time each side has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum TimeControl {
    /// No clock.
    #[default]
    None,
    /// A fixed time for the whole game.
    SuddenDeath {
        /// The time for the whole game.
        main: Duration,
    },
    /// A main time plus an increment added after every move.
    Fischer {
        /// The starting time.
        main: Duration,
        /// Added to the mover's time after each move.
        increment: Duration,
    },
    /// A main time, then a number of periods: a move made within a period costs none
    /// of them, a move that overruns a period spends it.
    Byoyomi {
        /// The starting time before the periods (may be zero).
        main: Duration,
        /// How many periods each side has.
        periods: u32,
        /// The length of a period.
        period: Duration,
    },
}

/// The gungjanggi default: 5 minutes, then 30 periods of 30 seconds (both manuals).
pub const GUNGJANGGI_DEFAULT: TimeControl = TimeControl::Byoyomi {
    main: Duration::from_secs(300),
    periods: 30,
    period: Duration::from_secs(30),
};

/// The choices the start screen cycles through (a configured control outside this
/// list is offered as well).
pub const PRESETS: [TimeControl; 9] = [
    TimeControl::None,
    TimeControl::SuddenDeath {
        main: Duration::from_secs(300),
    },
    TimeControl::SuddenDeath {
        main: Duration::from_secs(600),
    },
    TimeControl::Fischer {
        main: Duration::from_secs(180),
        increment: Duration::from_secs(2),
    },
    TimeControl::Fischer {
        main: Duration::from_secs(300),
        increment: Duration::from_secs(3),
    },
    TimeControl::Fischer {
        main: Duration::from_secs(900),
        increment: Duration::from_secs(10),
    },
    TimeControl::Byoyomi {
        main: Duration::from_secs(600),
        periods: 3,
        period: Duration::from_secs(30),
    },
    GUNGJANGGI_DEFAULT,
    TimeControl::Byoyomi {
        main: Duration::ZERO,
        periods: 1,
        period: Duration::from_secs(10),
    },
];

impl TimeControl {
    /// True when there is a clock at all.
    pub fn is_timed(self) -> bool {
        self != TimeControl::None
    }

    /// A side's time before its first move.
    pub fn initial(self) -> SideTime {
        match self {
            TimeControl::None => SideTime::default(),
            TimeControl::SuddenDeath { main } | TimeControl::Fischer { main, .. } => SideTime {
                main,
                ..SideTime::default()
            },
            TimeControl::Byoyomi {
                main,
                periods,
                period,
            } => SideTime {
                main,
                periods,
                period,
            },
        }
    }

    /// The next control in [`PRESETS`] (with `self` in the cycle when it is not a preset).
    pub fn step(self, delta: i32) -> TimeControl {
        let mut choices: Vec<TimeControl> = PRESETS.to_vec();
        let index = match choices.iter().position(|&c| c == self) {
            Some(index) => index,
            None => {
                choices.insert(1, self);
                1
            }
        };
        let next = (index as i32 + delta).rem_euclid(choices.len() as i32) as usize;
        choices[next]
    }
}

/// Writes a duration as `1h5m`, `1m30s`, `30s` (`0s` for zero); whole seconds.
pub fn format_duration(duration: Duration) -> String {
    let total = duration.as_secs();
    if total == 0 {
        return "0s".to_string();
    }
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    let mut text = String::new();
    for (value, unit) in [(hours, 'h'), (minutes, 'm'), (seconds, 's')] {
        if value > 0 {
            text.push_str(&format!("{value}{unit}"));
        }
    }
    text
}

/// Reads a duration such as `10m`, `1m30s`, `1h`, `45s`.
pub fn parse_duration(text: &str) -> Result<Duration, TimeControlError> {
    let bad = || TimeControlError::BadDuration(text.to_string());
    if text.is_empty() {
        return Err(bad());
    }
    let mut total: u64 = 0;
    let mut number = String::new();
    let mut last_unit = 0; // 3 = h, 2 = m, 1 = s: units must come largest first, once each
    for c in text.chars() {
        if c.is_ascii_digit() {
            number.push(c);
            continue;
        }
        let (rank, seconds) = match c {
            'h' => (3, 3600),
            'm' => (2, 60),
            's' => (1, 1),
            _ => return Err(bad()),
        };
        if number.is_empty() || (last_unit != 0 && rank >= last_unit) {
            return Err(bad());
        }
        let value: u64 = number.parse().map_err(|_| bad())?;
        total = value
            .checked_mul(seconds)
            .and_then(|v| total.checked_add(v))
            .filter(|&t| t <= MAX_SECONDS)
            .ok_or_else(|| TimeControlError::TooLong(text.to_string()))?;
        number.clear();
        last_unit = rank;
    }
    if !number.is_empty() {
        return Err(bad());
    }
    Ok(Duration::from_secs(total))
}

/// The longest time accepted anywhere (100 hours): enough for any game, far from overflow.
const MAX_SECONDS: u64 = 100 * 3600;

/// Why a time control could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// Not one of the shapes `none`, `10m`, `5m+3s`, `10m 3x30s`.
    BadShape(String),
    /// A duration that is not like `10m`, `1m30s`, `45s`.
    BadDuration(String),
    /// A period count that is not a whole number from 1.
    BadPeriods(String),
    /// A duration over 100 hours.
    TooLong(String),
    /// A main time or period of zero where it must be positive.
    Zero(String),
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControlError::BadShape(text) => write!(
                f,
                "bad time control '{text}': expected 'none', '10m' (sudden death), \
                 '5m+3s' (Fischer) or '10m 3x30s' (byoyomi)"
            ),
            TimeControlError::BadDuration(text) => write!(
                f,
                "bad time '{text}': expected numbers with units h, m, s, largest first \
                 (e.g. 10m, 1m30s, 45s)"
            ),
            TimeControlError::BadPeriods(text) => write!(
                f,
                "bad byoyomi periods '{text}': expected a count from 1 then x and a time \
                 (e.g. 3x30s)"
            ),
            TimeControlError::TooLong(text) => {
                write!(f, "bad time '{text}': longer than 100 hours")
            }
            TimeControlError::Zero(text) => {
                write!(f, "bad time '{text}': expected a time longer than 0s")
            }
        }
    }
}

impl std::error::Error for TimeControlError {}

fn positive(text: &str) -> Result<Duration, TimeControlError> {
    let duration = parse_duration(text)?;
    if duration.is_zero() {
        Err(TimeControlError::Zero(text.to_string()))
    } else {
        Ok(duration)
    }
}

impl FromStr for TimeControl {
    type Err = TimeControlError;

    fn from_str(text: &str) -> Result<TimeControl, TimeControlError> {
        let lowered = text.trim().to_ascii_lowercase();
        let words: Vec<&str> = lowered.split_whitespace().collect();
        match words.as_slice() {
            ["none"] => Ok(TimeControl::None),
            [single] => match single.split_once('+') {
                Some((main, increment)) => Ok(TimeControl::Fischer {
                    main: positive(main)?,
                    increment: parse_duration(increment)?,
                }),
                None => Ok(TimeControl::SuddenDeath {
                    main: positive(single)?,
                }),
            },
            [main, byoyomi] => {
                let main = parse_duration(main)?;
                let (count, period) = byoyomi
                    .split_once(['x', '×'])
                    .ok_or_else(|| TimeControlError::BadPeriods(byoyomi.to_string()))?;
                let periods: u32 = count
                    .parse()
                    .ok()
                    .filter(|&n| (1..=1000).contains(&n))
                    .ok_or_else(|| TimeControlError::BadPeriods(byoyomi.to_string()))?;
                Ok(TimeControl::Byoyomi {
                    main,
                    periods,
                    period: positive(period)?,
                })
            }
            _ => Err(TimeControlError::BadShape(text.trim().to_string())),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::None => write!(f, "none"),
            TimeControl::SuddenDeath { main } => write!(f, "{}", format_duration(main)),
            TimeControl::Fischer { main, increment } => {
                write!(
                    f,
                    "{}+{}",
                    format_duration(main),
                    format_duration(increment)
                )
            }
            TimeControl::Byoyomi {
                main,
                periods,
                period,
            } => write!(
                f,
                "{} {periods}x{}",
                format_duration(main),
                format_duration(period)
            ),
        }
    }
}

/// One side's time at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct SideTime {
    /// Main time left.
    pub main: Duration,
    /// Byoyomi periods left, the current one included (0 without byoyomi).
    pub periods: u32,
    /// Time left in the current byoyomi period (zero without byoyomi).
    pub period: Duration,
}

impl SideTime {
    /// True once the main time is used up and the periods are counting.
    pub fn in_byoyomi(&self) -> bool {
        self.main.is_zero() && self.periods > 0
    }

    /// The time this side has before it loses if it does not move.
    pub fn until_flag(&self) -> Duration {
        if self.periods == 0 {
            self.main
        } else {
            self.main + self.period
        }
    }

    /// This time after `elapsed` more thinking; the flag is `true` once it has run out.
    fn spend(mut self, control: TimeControl, elapsed: Duration) -> (SideTime, bool) {
        match control {
            TimeControl::None => (self, false),
            TimeControl::SuddenDeath { .. } | TimeControl::Fischer { .. } => {
                if elapsed < self.main {
                    self.main -= elapsed;
                    (self, false)
                } else {
                    self.main = Duration::ZERO;
                    (self, true)
                }
            }
            TimeControl::Byoyomi { period, .. } => {
                if elapsed < self.main {
                    self.main -= elapsed;
                    return (self, false);
                }
                let mut overrun = elapsed - self.main;
                self.main = Duration::ZERO;
                // A period runs out when its time reaches zero; the next one starts full.
                while self.periods > 0 {
                    if overrun < self.period {
                        self.period -= overrun;
                        return (self, false);
                    }
                    overrun -= self.period;
                    self.periods -= 1;
                    self.period = if self.periods > 0 {
                        period
                    } else {
                        Duration::ZERO
                    };
                }
                (self, true)
            }
        }
    }
}

/// The clocks of both sides: which one runs, since when, and what each has left.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    control: TimeControl,
    /// Each side's time as of `since` (the running side's is charged from then).
    times: [SideTime; 2],
    /// The side whose clock runs (or would run, while paused).
    running: Option<Side>,
    /// When the running side's clock was last charged; `None` while paused or stopped.
    since: Option<Instant>,
    /// The side whose time ran out.
    flagged: Option<Side>,
    /// What the running side has been charged for its current turn (pauses excluded),
    /// for the record's move times.
    turn_spent: Duration,
}

impl Clock {
    /// Both sides at the control's starting time; no clock running.
    pub fn new(control: TimeControl) -> Clock {
        Clock::with_times(control, [control.initial(); 2])
    }

    /// A clock with the given times left (a resumed game); no clock running.
    pub fn with_times(control: TimeControl, times: [SideTime; 2]) -> Clock {
        Clock {
            control,
            times,
            running: None,
            since: None,
            flagged: None,
            turn_spent: Duration::ZERO,
        }
    }

    /// The time control.
    pub fn control(&self) -> TimeControl {
        self.control
    }

    /// The side whose clock runs (also while paused).
    pub fn running(&self) -> Option<Side> {
        self.running
    }

    /// True while paused.
    pub fn is_paused(&self) -> bool {
        self.running.is_some() && self.since.is_none()
    }

    /// Charges the running side for the time since the last charge.
    fn charge(&mut self, now: Instant) {
        if let (Some(side), Some(since)) = (self.running, self.since) {
            let elapsed = now.saturating_duration_since(since);
            self.turn_spent += elapsed;
            let (time, flagged) = self.times[side.index()].spend(self.control, elapsed);
            self.times[side.index()] = time;
            if flagged && self.flagged.is_none() {
                self.flagged = Some(side);
            }
            self.since = Some(now);
        }
    }

    /// Runs `side`'s clock from `now` (the game starts, or a move was taken back), charging
    /// the side that was running but giving it no increment and no new period.
    pub fn start(&mut self, side: Side, now: Instant) {
        let paused = self.is_paused();
        self.charge(now);
        self.running = Some(side);
        self.since = (!paused).then_some(now);
        self.turn_spent = Duration::ZERO;
    }

    /// How long the running side has thought on its current turn by `now`, paused time
    /// excluded: the time a record gives the move it is about to make.
    pub fn turn_time(&self, now: Instant) -> Duration {
        let live = match (self.running, self.since) {
            (Some(_), Some(since)) => now.saturating_duration_since(since),
            _ => Duration::ZERO,
        };
        self.turn_spent + live
    }

    /// The running side completed a move at `now`: it is charged, gets its Fischer
    /// increment or a fresh byoyomi period, and the opponent's clock starts.
    pub fn complete_move(&mut self, now: Instant) {
        let Some(side) = self.running else { return };
        self.charge(now);
        if self.flagged.is_some() {
            return;
        }
        let time = &mut self.times[side.index()];
        match self.control {
            TimeControl::Fischer { increment, .. } => {
                time.main = (time.main + increment).min(Duration::from_secs(MAX_SECONDS))
            }
            TimeControl::Byoyomi { period, .. } if time.main.is_zero() => time.period = period,
            _ => {}
        }
        self.running = Some(side.opponent());
        self.since = Some(now);
        self.turn_spent = Duration::ZERO;
    }

    /// Stops both clocks for good (the game ended).
    pub fn stop(&mut self, now: Instant) {
        self.charge(now);
        self.running = None;
        self.since = None;
    }

    /// Stops the running clock until [`Clock::resume`].
    pub fn pause(&mut self, now: Instant) {
        self.charge(now);
        self.since = None;
    }

    /// Restarts the clock that ran before [`Clock::pause`].
    pub fn resume(&mut self, now: Instant) {
        if self.running.is_some() && self.since.is_none() {
            self.since = Some(now);
        }
    }

    /// A side's time at `now` (the running side's counts down live).
    pub fn time(&self, side: Side, now: Instant) -> SideTime {
        let time = self.times[side.index()];
        match (self.running, self.since) {
            (Some(running), Some(since)) if running == side => {
                time.spend(self.control, now.saturating_duration_since(since))
                    .0
            }
            _ => time,
        }
    }

    /// The side whose time has run out by `now`, if any.
    pub fn flag_fall(&self, now: Instant) -> Option<Side> {
        if self.flagged.is_some() {
            return self.flagged;
        }
        let side = self.running?;
        let since = self.since?;
        let (_, flagged) =
            self.times[side.index()].spend(self.control, now.saturating_duration_since(since));
        flagged.then_some(side)
    }

    /// True when a side's clock should catch the eye: 10 seconds or less on the shown
    /// time, or the last byoyomi period.
    pub fn warning(&self, side: Side, now: Instant) -> bool {
        if !self.control.is_timed() {
            return false;
        }
        let time = self.time(side, now);
        let shown = if time.in_byoyomi() {
            time.period
        } else {
            time.main
        };
        shown <= Duration::from_secs(10) || (time.in_byoyomi() && time.periods == 1)
    }

    /// A side's time as the clock face shows it: `4:59` (`1:04:59` from an hour) in main
    /// time, `27s ×29` in byoyomi (seconds of this period, periods left).
    pub fn face(&self, side: Side, now: Instant) -> String {
        let time = self.time(side, now);
        // Rounded up, so a clock shows 0 only when it has run out.
        let seconds = |d: Duration| d.as_millis().div_ceil(1000) as u64;
        if time.in_byoyomi() {
            format!("{}s ×{}", seconds(time.period), time.periods)
        } else {
            let total = seconds(time.main);
            if total >= 3600 {
                format!("{}:{:02}:{:02}", total / 3600, total / 60 % 60, total % 60)
            } else {
                format!("{}:{:02}", total / 60, total % 60)
            }
        }
    }
}

/// Where the app reads the time: the system clock, or a hand-set instant (tests).
#[derive(Clone, Copy, Debug)]
pub enum TimeSource {
    /// `Instant::now()`.
    System,
    /// A fixed instant that only [`TimeSource::advance`] moves.
    Manual(Instant),
}

impl TimeSource {
    /// A manual source starting now.
    pub fn manual() -> TimeSource {
        TimeSource::Manual(Instant::now())
    }

    /// The current time.
    pub fn now(&self) -> Instant {
        match self {
            TimeSource::System => Instant::now(),
            TimeSource::Manual(instant) => *instant,
        }
    }

    /// Moves a manual source forward (the system clock moves by itself).
    pub fn advance(&mut self, by: Duration) {
        if let TimeSource::Manual(instant) = self {
            *instant += by;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seconds(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn control(text: &str) -> TimeControl {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    #[test]
    fn every_written_form_round_trips() {
        for text in [
            "none",
            "10m",
            "5m+3s",
            "10m 3x30s",
            "5m 30x30s",
            "1m30s",
            "1h5m+10s",
            "0s 1x10s",
            "2h",
        ] {
            assert_eq!(control(text).to_string(), text);
        }
        for preset in PRESETS {
            assert_eq!(control(&preset.to_string()), preset);
        }
        assert_eq!(control("5m 30x30s"), GUNGJANGGI_DEFAULT);
        assert_eq!(
            control("10m 3x30s"),
            TimeControl::Byoyomi {
                main: seconds(600),
                periods: 3,
                period: seconds(30)
            }
        );
        assert_eq!(
            control("5m+3s"),
            TimeControl::Fischer {
                main: seconds(300),
                increment: seconds(3)
            }
        );
        // Other spellings read, then written canonically.
        assert_eq!(control("  90s ").to_string(), "1m30s");
        assert_eq!(control("None").to_string(), "none");
        assert_eq!(control("10m  3×30s").to_string(), "10m 3x30s");
    }

    #[test]
    fn bad_text_says_what_was_expected() {
        let error = |text: &str| text.parse::<TimeControl>().unwrap_err().to_string();
        assert!(
            error("").contains("expected 'none', '10m'"),
            "{}",
            error("")
        );
        assert!(error("1m 2x3s 4s").starts_with("bad time control '1m 2x3s 4s'"));
        assert!(error("10q").starts_with("bad time '10q': expected numbers"));
        assert!(error("m").starts_with("bad time 'm'"));
        assert!(
            error("30s1m").starts_with("bad time '30s1m'"),
            "units largest first"
        );
        assert!(error("1m1m").starts_with("bad time '1m1m'"));
        assert!(error("10").starts_with("bad time '10'"));
        assert!(error("0s").contains("longer than 0s"));
        assert!(error("0s+5s").contains("longer than 0s"));
        assert!(error("10m 0x30s").starts_with("bad byoyomi periods '0x30s'"));
        assert!(error("10m 30s").starts_with("bad byoyomi periods '30s'"));
        assert!(error("10m 3x0s").contains("longer than 0s"));
        assert!(error("101h").contains("longer than 100 hours"));
        assert!(error("99999999999999999999h").contains("bad time"));
    }

    #[test]
    fn sudden_death_counts_down_and_flags() {
        let start = Instant::now();
        let mut clock = Clock::new(control("1m"));
        clock.start(Side::First, start);
        assert_eq!(
            clock.time(Side::First, start + seconds(20)).main,
            seconds(40)
        );
        assert_eq!(
            clock.time(Side::Second, start + seconds(20)).main,
            seconds(60)
        );
        clock.complete_move(start + seconds(20));
        // Second's clock runs; First's stands still.
        let later = start + seconds(50);
        assert_eq!(clock.time(Side::First, later).main, seconds(40));
        assert_eq!(clock.time(Side::Second, later).main, seconds(30));
        assert_eq!(clock.flag_fall(later), None);
        assert_eq!(clock.flag_fall(start + seconds(79)), None);
        assert_eq!(clock.flag_fall(start + seconds(80)), Some(Side::Second));
        assert_eq!(clock.face(Side::Second, start + seconds(80)), "0:00");
        assert_eq!(clock.face(Side::First, later), "0:40");
    }

    #[test]
    fn fischer_adds_the_increment_after_each_move() {
        let start = Instant::now();
        let mut clock = Clock::new(control("1m+5s"));
        clock.start(Side::First, start);
        clock.complete_move(start + seconds(10));
        assert_eq!(
            clock.time(Side::First, start + seconds(10)).main,
            seconds(55)
        );
        clock.complete_move(start + seconds(12));
        assert_eq!(
            clock.time(Side::Second, start + seconds(12)).main,
            seconds(63)
        );
        // The increment comes after the move: an overrun still loses.
        let mut clock = Clock::new(control("10s+5s"));
        clock.start(Side::First, start);
        clock.complete_move(start + seconds(10));
        assert_eq!(clock.flag_fall(start + seconds(10)), Some(Side::First));
        assert_eq!(clock.running(), Some(Side::First));
    }

    #[test]
    fn byoyomi_spends_a_period_only_on_an_overrun() {
        let start = Instant::now();
        let mut clock = Clock::new(control("1m 3x30s"));
        let mut now = start;
        let first_moves = |clock: &mut Clock, think: u64, now: &mut Instant| {
            clock.start(Side::First, *now);
            *now += seconds(think);
            clock.complete_move(*now);
            clock.start(Side::First, *now); // Second's turn is not under test
        };
        // 50 s of main time used: still in main time, all periods.
        first_moves(&mut clock, 50, &mut now);
        let time = clock.time(Side::First, now);
        assert_eq!(
            (time.main, time.periods, time.period),
            (seconds(10), 3, seconds(30))
        );
        // 35 s: 10 s of main time, then 25 s of the first period — finished within it.
        first_moves(&mut clock, 35, &mut now);
        let time = clock.time(Side::First, now);
        assert_eq!(
            (time.main, time.periods, time.period),
            (Duration::ZERO, 3, seconds(30))
        );
        assert_eq!(clock.face(Side::First, now), "30s ×3");
        // 29 s within the period: it is reset, no period spent.
        first_moves(&mut clock, 29, &mut now);
        assert_eq!(clock.time(Side::First, now).periods, 3);
        assert_eq!(clock.time(Side::First, now).period, seconds(30));
        // Live: 12 s into the period the face says 18s.
        assert_eq!(clock.face(Side::First, now + seconds(12)), "18s ×3");
        // 45 s: overruns one period (spent), finishes 15 s into the next, which resets.
        first_moves(&mut clock, 45, &mut now);
        let time = clock.time(Side::First, now);
        assert_eq!((time.periods, time.period), (2, seconds(30)));
        assert!(!clock.warning(Side::First, now));
        // 30 s exactly runs the period out.
        first_moves(&mut clock, 30, &mut now);
        assert_eq!(clock.time(Side::First, now).periods, 1);
        assert!(
            clock.warning(Side::First, now),
            "the last period is a warning"
        );
        assert_eq!(clock.flag_fall(now + seconds(29)), None);
        assert_eq!(clock.flag_fall(now + seconds(30)), Some(Side::First));
    }

    #[test]
    fn byoyomi_loses_when_the_last_period_runs_out_in_one_long_think() {
        let start = Instant::now();
        let mut clock = Clock::new(control("10s 3x5s"));
        clock.start(Side::Second, start);
        // 10 + 3·5 = 25 s in all.
        assert_eq!(clock.flag_fall(start + Duration::from_millis(24_999)), None);
        assert_eq!(clock.face(Side::Second, start + seconds(21)), "4s ×1");
        assert_eq!(clock.flag_fall(start + seconds(25)), Some(Side::Second));
        clock.complete_move(start + seconds(26));
        assert_eq!(clock.flag_fall(start + seconds(26)), Some(Side::Second));
    }

    #[test]
    fn a_paused_clock_stands_still() {
        let start = Instant::now();
        let mut clock = Clock::new(control("1m"));
        clock.start(Side::First, start);
        clock.pause(start + seconds(10));
        assert!(clock.is_paused());
        assert_eq!(
            clock.time(Side::First, start + seconds(500)).main,
            seconds(50)
        );
        assert_eq!(clock.flag_fall(start + seconds(500)), None);
        clock.resume(start + seconds(500));
        assert!(!clock.is_paused());
        assert_eq!(
            clock.time(Side::First, start + seconds(505)).main,
            seconds(45)
        );
        // Taking a move back while paused keeps the clock paused.
        clock.pause(start + seconds(505));
        clock.start(Side::Second, start + seconds(600));
        assert!(clock.is_paused());
        assert_eq!(
            clock.time(Side::First, start + seconds(700)).main,
            seconds(45)
        );
    }

    #[test]
    fn a_taken_back_move_gives_no_increment_or_fresh_period() {
        let start = Instant::now();
        let mut clock = Clock::new(control("0s 2x30s"));
        clock.start(Side::First, start);
        // Undo after 20 s: the same side runs on with 10 s of its period.
        clock.start(Side::First, start + seconds(20));
        assert_eq!(
            clock.time(Side::First, start + seconds(20)).period,
            seconds(10)
        );
        assert_eq!(clock.face(Side::First, start + seconds(25)), "5s ×2");
    }

    #[test]
    fn faces_and_warnings() {
        let start = Instant::now();
        let mut clock = Clock::new(control("1h5m"));
        clock.start(Side::First, start);
        assert_eq!(clock.face(Side::First, start), "1:05:00");
        assert_eq!(
            clock.face(Side::First, start + Duration::from_millis(500)),
            "1:05:00"
        );
        let mut clock = Clock::new(control("11s"));
        clock.start(Side::First, start);
        assert!(!clock.warning(Side::First, start));
        assert!(clock.warning(Side::First, start + seconds(1)));
        assert!(!clock.warning(Side::Second, start + seconds(1)));
        assert!(!Clock::new(TimeControl::None).warning(Side::First, start));
    }

    #[test]
    fn presets_cycle_and_keep_a_configured_control() {
        assert_eq!(TimeControl::None.step(1), PRESETS[1]);
        assert_eq!(TimeControl::None.step(-1), PRESETS[PRESETS.len() - 1]);
        let custom = control("7m+7s");
        assert_eq!(custom.step(-1), TimeControl::None);
        assert_eq!(custom.step(1), PRESETS[1]);
    }

    #[test]
    fn a_manual_time_source_moves_only_when_told() {
        let mut time = TimeSource::manual();
        let before = time.now();
        assert_eq!(time.now(), before);
        time.advance(seconds(3));
        assert_eq!(time.now() - before, seconds(3));
    }
}
