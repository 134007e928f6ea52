//! The start screen's choices: game, rule set, janggi setups, shogi handicap,
//! players. Adding a game or rule set is one line in [`GAMES`].

use crate::clock::{TimeControl, GUNGJANGGI_DEFAULT};
use crate::i18n::Key;
use crate::rules::any::{AnyPosition, GameKind, Variant};
use crate::rules::janggi::{start_fen, JanggiRules, Setup};
use crate::rules::shogi::Handicap;
use crate::rules::Side;

/// A game on the start screen with its rule sets.
#[derive(Clone, Copy, Debug)]
pub struct GameChoice {
    /// The game.
    pub kind: GameKind,
    /// Its name in the interface.
    pub name: Key,
    /// Its rule sets, each with its interface name; the first is the default.
    pub rule_sets: &'static [(Variant, Key)],
}

/// Every game, in menu order.
pub const GAMES: &[GameChoice] = &[
    GameChoice {
        kind: GameKind::Xiangqi,
        name: Key::GameXiangqi,
        rule_sets: &[(Variant::Xiangqi, Key::RulesStandard)],
    },
    GameChoice {
        kind: GameKind::Shogi,
        name: Key::GameShogi,
        rule_sets: &[(Variant::Shogi, Key::RulesStandard)],
    },
    GameChoice {
        kind: GameKind::Janggi,
        name: Key::GameJanggi,
        rule_sets: &[
            (Variant::Janggi(JanggiRules::KJA), Key::RulesKja),
            (
                Variant::Janggi(JanggiRules::TRADITIONAL),
                Key::RulesTraditional,
            ),
            (Variant::Janggi(JanggiRules::MODERN), Key::RulesModern),
            (Variant::Janggi(JanggiRules::CASUAL), Key::RulesCasual),
        ],
    },
    GameChoice {
        kind: GameKind::Janggi,
        name: Key::GameGungjanggi,
        rule_sets: &[
            (
                Variant::Janggi(JanggiRules::GUNGJANGGI),
                Key::RulesGungjanggiSilver,
            ),
            (
                Variant::Janggi(JanggiRules::GUNGJANGGI_DAN),
                Key::RulesGungjanggiDan,
            ),
        ],
    },
];

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// A person at the keyboard.
    Human,
    /// The CPU at a level from 1 to 10.
    Computer {
        /// 1 (weakest) to 10.
        level: u8,
    },
    /// An external engine from the settings' engine list (`Settings::engines`).
    Engine {
        /// Its index in the settings' engine list.
        index: usize,
    },
}

impl Player {
    /// The next choice in the menu order Human, CPU 1…10, wrapping round.
    fn step(self, delta: i32) -> Player {
        self.step_with_engines(delta, 0)
    }

    /// The next choice in the menu order Human, CPU 1…10, then the `engines` external
    /// engines, wrapping round.
    pub fn step_with_engines(self, delta: i32, engines: usize) -> Player {
        let index = match self {
            Player::Human => 0,
            Player::Computer { level } => i32::from(level),
            Player::Engine { index } => 11 + index as i32,
        };
        match (index + delta).rem_euclid(11 + engines as i32) {
            0 => Player::Human,
            level @ 1..=10 => Player::Computer { level: level as u8 },
            engine => Player::Engine {
                index: engine as usize - 11,
            },
        }
    }

    /// True for a person at the keyboard.
    pub fn is_human(self) -> bool {
        self == Player::Human
    }
}

/// A row of the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StartField {
    /// Which game.
    Game,
    /// Which rule set.
    Rules,
    /// Han's setup (janggi; Han chooses first).
    HanSetup,
    /// Cho's setup (janggi).
    ChoSetup,
    /// Shogi handicap.
    Handicap,
    /// Who plays a side.
    Player(Side),
    /// Time control (see [`TimeControl`]).
    Time,
    /// The start button.
    Start,
    /// Continue the saved game (shown first when an autosave was found).
    Continue,
}

/// The choices made on the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StartOptions {
    /// Index into [`GAMES`].
    pub game: usize,
    /// Index into the game's rule sets.
    pub rules: usize,
    /// Han's setup.
    pub han_setup: Setup,
    /// Cho's setup.
    pub cho_setup: Setup,
    /// Index into [`Handicap::ALL`].
    pub handicap: usize,
    /// Who plays each side, first player first.
    pub players: [Player; 2],
    /// The chosen time control.
    pub time: TimeControl,
    /// Each game's default time control (the settings file may change them).
    pub time_defaults: TimeDefaults,
}

/// The time control each game starts with on the start screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeDefaults {
    /// Xiangqi (none unless configured).
    pub xiangqi: TimeControl,
    /// Shogi (none unless configured).
    pub shogi: TimeControl,
    /// Janggi's four rule sets (none unless configured).
    pub janggi: TimeControl,
    /// Gungjanggi: both manuals prescribe 5 minutes and 30 periods of 30 seconds.
    pub gungjanggi: TimeControl,
}

impl Default for TimeDefaults {
    fn default() -> Self {
        TimeDefaults {
            xiangqi: TimeControl::None,
            shogi: TimeControl::None,
            janggi: TimeControl::None,
            gungjanggi: GUNGJANGGI_DEFAULT,
        }
    }
}

impl TimeDefaults {
    /// The default of a start-screen game.
    pub fn for_choice(&self, choice: &GameChoice) -> TimeControl {
        let gungjanggi = choice.rule_sets.iter().any(
            |(variant, _)| matches!(variant, Variant::Janggi(rules) if rules.gungjanggi.is_some()),
        );
        match choice.kind {
            GameKind::Xiangqi => self.xiangqi,
            GameKind::Shogi => self.shogi,
            GameKind::Janggi if gungjanggi => self.gungjanggi,
            GameKind::Janggi => self.janggi,
        }
    }
}

impl Default for StartOptions {
    fn default() -> Self {
        StartOptions {
            game: 0,
            rules: 0,
            han_setup: Setup::HorseElephantElephantHorse,
            cho_setup: Setup::HorseElephantElephantHorse,
            handicap: 0,
            players: [Player::Human, Player::Human],
            time: TimeDefaults::default().for_choice(&GAMES[0]),
            time_defaults: TimeDefaults::default(),
        }
    }
}

fn cycle(index: usize, delta: i32, count: usize) -> usize {
    (index as i32 + delta).rem_euclid(count as i32) as usize
}

impl StartOptions {
    /// The defaults for a game.
    pub fn for_game(kind: GameKind) -> StartOptions {
        let game = GAMES.iter().position(|g| g.kind == kind).unwrap_or(0);
        StartOptions {
            game,
            time: TimeDefaults::default().for_choice(&GAMES[game]),
            ..StartOptions::default()
        }
    }

    /// Options for a rule set: its game on the menu with that rule set chosen.
    pub fn for_variant(variant: Variant) -> StartOptions {
        for (game, choice) in GAMES.iter().enumerate() {
            if let Some(rules) = choice.rule_sets.iter().position(|(v, _)| *v == variant) {
                return StartOptions {
                    game,
                    rules,
                    time: TimeDefaults::default().for_choice(choice),
                    ..StartOptions::default()
                };
            }
        }
        StartOptions::default()
    }

    /// The chosen game.
    pub fn game(&self) -> &'static GameChoice {
        &GAMES[self.game.min(GAMES.len() - 1)]
    }

    /// The chosen rule set.
    pub fn variant(&self) -> Variant {
        let rule_sets = self.game().rule_sets;
        rule_sets[self.rules.min(rule_sets.len() - 1)].0
    }

    /// The chosen shogi handicap.
    pub fn handicap(&self) -> Handicap {
        Handicap::ALL[self.handicap.min(Handicap::ALL.len() - 1)]
    }

    /// The rows shown for the chosen game.
    pub fn fields(&self) -> Vec<StartField> {
        let mut fields = vec![StartField::Game];
        if self.game().rule_sets.len() > 1 {
            fields.push(StartField::Rules);
        }
        match self.game().kind {
            GameKind::Janggi => {
                fields.push(StartField::HanSetup);
                fields.push(StartField::ChoSetup);
            }
            GameKind::Shogi => fields.push(StartField::Handicap),
            GameKind::Xiangqi => {}
        }
        fields.push(StartField::Player(Side::First));
        fields.push(StartField::Player(Side::Second));
        fields.push(StartField::Time);
        fields.push(StartField::Start);
        fields
    }

    /// Changes a row's value by one step (left: −1, right: +1).
    pub fn change(&mut self, field: StartField, delta: i32) {
        match field {
            StartField::Game => {
                self.game = cycle(self.game, delta, GAMES.len());
                self.rules = 0;
                self.time = self.time_defaults.for_choice(self.game());
            }
            StartField::Rules => {
                self.rules = cycle(self.rules, delta, self.game().rule_sets.len());
            }
            StartField::HanSetup => {
                let index = Setup::ALL
                    .iter()
                    .position(|&s| s == self.han_setup)
                    .unwrap_or(0);
                self.han_setup = Setup::ALL[cycle(index, delta, Setup::ALL.len())];
            }
            StartField::ChoSetup => {
                let index = Setup::ALL
                    .iter()
                    .position(|&s| s == self.cho_setup)
                    .unwrap_or(0);
                self.cho_setup = Setup::ALL[cycle(index, delta, Setup::ALL.len())];
            }
            StartField::Handicap => {
                self.handicap = cycle(self.handicap, delta, Handicap::ALL.len());
            }
            StartField::Player(side) => {
                let player = &mut self.players[side.index()];
                *player = player.step(delta);
            }
            StartField::Time => self.time = self.time.step(delta),
            StartField::Start | StartField::Continue => {}
        }
    }

    /// The start position the choices describe.
    pub fn start_position(&self) -> AnyPosition {
        let variant = self.variant();
        match variant {
            Variant::Janggi(_) => variant
                .position_from_fen(&start_fen(self.cho_setup, self.han_setup))
                .unwrap_or_else(|_| variant.start()),
            Variant::Shogi => AnyPosition::Shogi(self.handicap().position()),
            _ => variant.start(),
        }
    }
}

/// A start position as the title names it: one of the game's standard starts (a janggi
/// setup), a shogi handicap, or a position of its own (a record's or a typed FEN/SFEN),
/// which must not pass for "standard · 平手".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NamedStart {
    /// The standard start (any of janggi's setups).
    Standard,
    /// A shogi handicap start other than 平手.
    Handicap(Handicap),
    /// Any other position.
    Custom,
}

impl NamedStart {
    /// What `start` is. Only the board, side to move and hands count (not move counters).
    pub fn of(start: &AnyPosition) -> NamedStart {
        use crate::rules::Position;
        let key = |position: &AnyPosition| -> String {
            let fen = position.fen();
            fen.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
        };
        let wanted = key(start);
        match start {
            AnyPosition::Shogi(_) => {
                match Handicap::ALL
                    .iter()
                    .find(|h| key(&AnyPosition::Shogi(h.position())) == wanted)
                {
                    Some(Handicap::Even) => NamedStart::Standard,
                    Some(&handicap) => NamedStart::Handicap(handicap),
                    None => NamedStart::Custom,
                }
            }
            AnyPosition::Janggi(_) => {
                let variant = start.variant();
                let standard = Setup::ALL.iter().any(|&cho| {
                    Setup::ALL.iter().any(|&han| {
                        variant
                            .position_from_fen(&start_fen(cho, han))
                            .is_ok_and(|position| key(&position) == wanted)
                    })
                });
                if standard {
                    NamedStart::Standard
                } else {
                    NamedStart::Custom
                }
            }
            AnyPosition::Xiangqi(_) => {
                if key(&start.variant().start()) == wanted {
                    NamedStart::Standard
                } else {
                    NamedStart::Custom
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_is_named_standard_handicap_or_custom() {
        assert_eq!(
            NamedStart::of(&Variant::Shogi.start()),
            NamedStart::Standard
        );
        assert_eq!(
            NamedStart::of(&AnyPosition::Shogi(Handicap::ALL[1].position())),
            NamedStart::Handicap(Handicap::ALL[1])
        );
        let custom = Variant::Shogi
            .position_from_fen("4k4/9/9/9/9/9/9/9/4K4 b G 1")
            .unwrap();
        assert_eq!(NamedStart::of(&custom), NamedStart::Custom);
        assert_eq!(
            NamedStart::of(&Variant::Xiangqi.start()),
            NamedStart::Standard
        );
        let xiangqi = Variant::Xiangqi
            .position_from_fen("4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1")
            .unwrap();
        assert_eq!(NamedStart::of(&xiangqi), NamedStart::Custom);
        let janggi = StartOptions::for_game(GameKind::Janggi);
        let setups = StartOptions {
            han_setup: Setup::ALL[2],
            cho_setup: Setup::ALL[3],
            ..janggi
        };
        assert_eq!(
            NamedStart::of(&setups.start_position()),
            NamedStart::Standard
        );
        // Every start the menu offers is a standard one (gungjanggi's too).
        for (game, choice) in GAMES.iter().enumerate() {
            for rules in 0..choice.rule_sets.len() {
                let options = StartOptions {
                    game,
                    rules,
                    ..StartOptions::default()
                };
                assert_eq!(
                    NamedStart::of(&options.start_position()),
                    NamedStart::Standard,
                    "{:?}",
                    options.variant()
                );
            }
        }
    }
    use crate::rules::Position;

    #[test]
    fn every_choice_builds_a_position() {
        for (game, choice) in GAMES.iter().enumerate() {
            for rules in 0..choice.rule_sets.len() {
                let options = StartOptions {
                    game,
                    rules,
                    ..StartOptions::default()
                };
                assert_eq!(options.start_position().variant(), options.variant());
            }
        }
        let mut options = StartOptions::for_game(GameKind::Shogi);
        options.change(StartField::Handicap, 1);
        assert_eq!(options.handicap(), Handicap::Lance);
        // Gote gives the handicap and moves first.
        assert_eq!(options.start_position().side_to_move(), Side::Second);
    }

    #[test]
    fn each_game_starts_with_its_default_time_control() {
        let mut options = StartOptions::default();
        assert_eq!(options.time, TimeControl::None);
        options.change(StartField::Time, 1);
        assert_eq!(options.time, crate::clock::PRESETS[1]);
        options.time_defaults.shogi = "10m 3x30s".parse().unwrap();
        let mut seen = Vec::new();
        for _ in 0..GAMES.len() {
            options.change(StartField::Game, 1);
            seen.push((options.game().name, options.time));
        }
        assert!(seen.contains(&(Key::GameGungjanggi, GUNGJANGGI_DEFAULT)));
        assert!(seen.contains(&(Key::GameJanggi, TimeControl::None)));
        assert!(seen.contains(&(Key::GameShogi, options.time_defaults.shogi)));
        assert_eq!(
            StartOptions::for_variant(Variant::Janggi(JanggiRules::GUNGJANGGI_DAN)).time,
            GUNGJANGGI_DEFAULT
        );
        assert_eq!(
            StartOptions::for_game(GameKind::Janggi).time,
            TimeControl::None
        );
    }

    #[test]
    fn players_cycle_through_levels() {
        assert_eq!(Player::Human.step(1), Player::Computer { level: 1 });
        assert_eq!(Player::Human.step(-1), Player::Computer { level: 10 });
        assert_eq!(Player::Computer { level: 10 }.step(1), Player::Human);
        let with_two = |player: Player, delta| player.step_with_engines(delta, 2);
        assert_eq!(
            with_two(Player::Computer { level: 10 }, 1),
            Player::Engine { index: 0 }
        );
        assert_eq!(with_two(Player::Engine { index: 1 }, 1), Player::Human);
        assert_eq!(with_two(Player::Human, -1), Player::Engine { index: 1 });
    }
}
