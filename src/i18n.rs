//! Every string the interface shows, one table per language.
//!
//! The language follows `LANG` (`ko*` → Korean, `zh*` → Chinese, `ja*` → Japanese,
//! anything else → English). A test checks that every [`Key`] has a text in every
//! language, with the same `{}` placeholders as English.

use crate::rules::any::{GameKind, Variant};
use crate::rules::notation::{default_notation, Notation};
use std::env;

mod chinese;
mod japanese;

use chinese::CHINESE;
use japanese::JAPANESE;

/// An interface language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// English (the default).
    English,
    /// Korean (한국어).
    Korean,
    /// Simplified Chinese (简体中文), for xiangqi players above all.
    Chinese,
    /// Japanese (日本語), for shogi players above all.
    Japanese,
}

impl Language {
    /// Every language, in menu order.
    pub const ALL: [Language; 4] = [
        Language::English,
        Language::Korean,
        Language::Chinese,
        Language::Japanese,
    ];

    /// The language asked for by the environment: `LC_ALL`, then `LC_MESSAGES`, then `LANG`.
    pub fn from_environment() -> Language {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Ok(value) = env::var(name) {
                if !value.is_empty() {
                    return Language::from_locale(&value);
                }
            }
        }
        Language::English
    }

    /// The language of a locale name such as `ko_KR.UTF-8` (English when unknown).
    pub fn from_locale(locale: &str) -> Language {
        Language::from_code(locale).unwrap_or(Language::English)
    }

    /// The language a code or locale names: `en`, `ko`, `zh`, `ja`, with or without a
    /// region (`zh-CN`, `ja_JP.UTF-8`), or the English name (`japanese`); `None` otherwise.
    pub fn from_code(name: &str) -> Option<Language> {
        let name = name.trim().to_ascii_lowercase();
        let primary = name.split(['-', '_', '.', '@']).next().unwrap_or("");
        match primary {
            "en" | "eng" | "english" => Some(Language::English),
            "ko" | "kor" | "korean" => Some(Language::Korean),
            "zh" | "zho" | "chi" | "chinese" => Some(Language::Chinese),
            "ja" | "jpn" | "japanese" => Some(Language::Japanese),
            _ => None,
        }
    }

    /// The short code the config file and `--lang` use: `en`, `ko`, `zh`, `ja`.
    pub fn code(self) -> &'static str {
        match self {
            Language::English => "en",
            Language::Korean => "ko",
            Language::Chinese => "zh",
            Language::Japanese => "ja",
        }
    }

    /// The language's name in its own script, as the settings screen lists it
    /// (a player who cannot read the current language still finds their own).
    pub fn native_name(self) -> &'static str {
        match self {
            Language::English => "English",
            Language::Korean => "한국어",
            Language::Chinese => "中文",
            Language::Japanese => "日本語",
        }
    }

    /// Whether the language writes its words for the sides in Chinese characters
    /// (红方, 先手), so that the board's own side name beside them would say it twice.
    pub fn names_sides_in_hanzi(self) -> bool {
        matches!(self, Language::Chinese | Language::Japanese)
    }

    /// Several phrases as one list, joined as this language joins them (`a, b`; `a、b`).
    pub fn list(self, phrases: &[String]) -> String {
        let separator = match self {
            Language::English | Language::Korean => ", ",
            Language::Chinese | Language::Japanese => "、",
        };
        phrases.join(separator)
    }

    /// `qipan config check`'s last line: how many problems, in the singular for one.
    pub fn config_problems(self, count: usize) -> String {
        if count == 1 {
            self.text(Key::ConfigCheckOneProblem).to_string()
        } else {
            self.format(Key::ConfigCheckProblems, &[&count.to_string()])
        }
    }

    /// The game the start screen offers first when the config names none: the one this
    /// language's players play (Korean → janggi, Chinese → xiangqi, Japanese → shogi).
    pub fn default_variant(self) -> Variant {
        match self {
            Language::Korean => Variant::Janggi(crate::rules::janggi::JanggiRules::KJA),
            Language::Japanese => Variant::Shogi,
            Language::Chinese | Language::English => Variant::Xiangqi,
        }
    }

    /// The move list's notation when the player has not chosen one: the game's native
    /// script for the readers of that script (simplified Chinese characters for xiangqi
    /// in Chinese, kanji for shogi in Chinese and Japanese, Hangul for janggi in Korean;
    /// Japanese readers get xiangqi in traditional characters, the forms kanji keep),
    /// and WXF, Hodges and hanja Korean coordinates in English.
    pub fn default_notation(self, variant: Variant) -> Notation {
        match (self, variant.kind()) {
            (Language::English, _) => default_notation(variant, false),
            (Language::Korean, _) => default_notation(variant, true),
            (Language::Chinese, GameKind::Xiangqi) => Notation::Chinese { simplified: true },
            (Language::Japanese, GameKind::Xiangqi) => Notation::Chinese { simplified: false },
            (Language::Chinese | Language::Japanese, GameKind::Shogi) => Notation::Japanese,
            (Language::Chinese | Language::Japanese, GameKind::Janggi) => {
                Notation::Korean { hangul: false }
            }
        }
    }

    fn table(self) -> &'static [(Key, &'static str)] {
        match self {
            Language::English => ENGLISH,
            Language::Korean => KOREAN,
            Language::Chinese => CHINESE,
            Language::Japanese => JAPANESE,
        }
    }

    /// The text of a key in this language (English when missing, which a test forbids).
    pub fn text(self, key: Key) -> &'static str {
        lookup(self.table(), key)
            .or_else(|| lookup(ENGLISH, key))
            .unwrap_or("?")
    }

    /// A CPU level's number and name, such as `CPU 10 Expert` or `컴퓨터 10단계 고수`
    /// (levels outside 1–10 are shown as the nearest one).
    pub fn computer_level(self, level: u8) -> String {
        let level = level.clamp(1, 10);
        self.format(
            Key::ComputerLevel,
            &[&level.to_string(), self.level_name(level)],
        )
    }

    /// A CPU level's name alone: 1 `Beginner`/`입문` … 10 `Expert`/`고수`.
    pub fn level_name(self, level: u8) -> &'static str {
        const NAMES: [Key; 10] = [
            Key::Level1,
            Key::Level2,
            Key::Level3,
            Key::Level4,
            Key::Level5,
            Key::Level6,
            Key::Level7,
            Key::Level8,
            Key::Level9,
            Key::Level10,
        ];
        self.text(NAMES[usize::from(level.clamp(1, 10) - 1)])
    }

    /// The text of a key with each `{}` replaced by the next argument.
    pub fn format(self, key: Key, arguments: &[&str]) -> String {
        let mut result = String::new();
        let mut rest = self.text(key);
        let mut arguments = arguments.iter();
        while let Some(index) = rest.find("{}") {
            result.push_str(&rest[..index]);
            result.push_str(arguments.next().copied().unwrap_or(""));
            rest = &rest[index + 2..];
        }
        result.push_str(rest);
        result
    }
}

fn lookup(table: &'static [(Key, &'static str)], key: Key) -> Option<&'static str> {
    table.iter().find(|(k, _)| *k == key).map(|(_, text)| *text)
}

macro_rules! keys {
    ($($(#[$doc:meta])* $name:ident,)*) => {
        /// The name of one interface string.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Key {
            $($(#[$doc])* $name,)*
        }
        impl Key {
            /// Every key.
            pub const ALL: &'static [Key] = &[$(Key::$name,)*];
        }
    };
}

keys! {
    /// Window title.
    AppTitle,
    /// Start screen heading.
    NewGameHeading,
    /// Settings screen title.
    SettingsTitle,
    /// Settings row: interface language.
    SettingLanguage,
    /// Settings row: glyph set.
    SettingGlyphs,
    /// Settings row: ambiguous-width characters.
    SettingWidth,
    /// Settings row: colour theme.
    SettingTheme,
    /// Settings row: move notation of the game on screen.
    SettingNotation,
    /// Settings row: CPU level.
    SettingCpuLevel,
    /// Settings row: bell when the CPU moves.
    SettingBell,
    /// Settings screen key hints.
    SettingsHints,
    /// Language value: follow the environment.
    LanguageAuto,
    /// Glyphs value: CJK.
    GlyphsCjk,
    /// Hangul (janggi, xiangqi)
    GlyphsHangul,
    /// Glyphs value: Latin.
    GlyphsLatin,
    /// Width value: narrow.
    WidthNarrow,
    /// Width value: wide.
    WidthWide,
    /// Notation value: follow the language.
    NotationAuto,
    /// A switch that is on.
    On,
    /// A switch that is off.
    Off,
    /// Status: settings written to {path}.
    SettingsSaved,
    /// Status: settings not written ({reason}).
    SettingsSaveFailed,
    /// Status: nothing to save.
    SettingsUnchanged,
    /// Help: the settings key.
    KeySettings,
    /// Help: the name of the mouse in the key column.
    MouseLabel,
    /// Start screen: the first config problem and how many more there are.
    ConfigMoreProblems,
    /// Settings save error: there is no config folder.
    NoConfigFolder,
    /// A config or theme problem's place: file, line, column.
    ProblemLineColumn,
    /// Config problem: place, key, what the key needs, what it holds.
    ProblemExpected,
    /// Config problem: place, a key nobody reads.
    ProblemUnknownKey,
    /// Config problem: place, the TOML parser's message (as it is), what is used instead.
    ProblemInvalidToml,
    /// Config problem: place, the field an `[[engines]]` table lacks.
    ProblemEngineNeeds,
    /// Config problem: the file, the system's error, what is used instead.
    ProblemUnreadable,
    /// Theme problem: where the name came from, a theme name that is nowhere.
    ProblemUnknownTheme,
    /// A config problem: two engines with one name.
    ProblemDuplicateEngine,
    /// A config problem: an action left with no key.
    ProblemActionWithoutKey,
    /// A config problem: an action given the key that quits.
    ProblemQuitKeyTaken,
    /// Theme problem: place, a field a role does not have.
    ProblemUnknownRoleField,
    /// What replaces an unusable config: every default.
    FallbackEveryDefault,
    /// What replaces an unusable theme: wood.
    FallbackWood,
    /// A config section that does not parse is skipped; the rest is read.
    FallbackSectionSkipped,
    /// What a bad key holds: a table.
    FoundTable,
    /// What a bad key holds: nothing.
    FoundNothing,
    /// What a key needs: one of a list (Korean ends with its subject particle).
    ExpectedOneOf,
    /// What a key needs: a theme name from the list or a theme file path.
    ExpectedOneOfOrThemePath,
    /// What a key needs: a string.
    ExpectedString,
    /// What a key needs: true or false.
    ExpectedTrueOrFalse,
    /// What a key needs: a table.
    ExpectedTable,
    /// What a key needs: a whole number from A to B.
    ExpectedWholeNumber,
    /// What a key needs: a colour.
    ExpectedColour,
    /// What a key needs: a list of strings.
    ExpectedStringList,
    /// What a key needs: a list of key names.
    ExpectedKeyNames,
    /// What a key needs: a time control.
    ExpectedTimeControl,
    /// What a key needs: `[[engines]]` tables.
    ExpectedEngineTables,
    /// What a key needs: any value.
    ExpectedValue,
    /// What a key needs: a table of engine options.
    ExpectedOptionsTable,
    /// What a key needs: a theme role's table.
    ExpectedRoleTable,
    /// What a key needs: a text modifier's name.
    ExpectedModifier,
    /// What a key needs: a list of modifiers.
    ExpectedModifierList,
    /// `qipan config check`: the file (or the defaults) has no problem.
    ConfigCheckOk,
    /// `qipan config check`: the name of the settings used when there is no file.
    ConfigCheckDefaults,
    /// `qipan config check`: how many problems were found.
    ConfigCheckProblems,
    /// 1 problem in the configuration
    ConfigCheckOneProblem,
    /// `qipan config path`: the file does not exist.
    ConfigPathMissing,
    /// Error: `--lang` names no language we have.
    ConfigUnknownLanguage,
    /// Theme name: wood.
    ThemeWood,
    /// Theme name: dark.
    ThemeDark,
    /// Theme name: high contrast.
    ThemeContrast,
    /// Theme name: 16 colours.
    ThemeSixteen,
    /// Notation name: Chinese, traditional characters.
    NotationChineseTraditional,
    /// Notation name: Chinese, simplified characters.
    NotationChineseSimplified,
    /// Notation name: WXF.
    NotationWxf,
    /// Notation name: ICCS.
    NotationIccs,
    /// Notation name: Japanese.
    NotationJapanese,
    /// Notation name: Western (Hodges).
    NotationHodges,
    /// Notation name: USI.
    NotationUsi,
    /// Notation name: Korean, Hangul pieces.
    NotationKoreanHangul,
    /// Notation name: Korean, hanja pieces.
    NotationKoreanHanja,
    /// Notation name: engine coordinates.
    NotationEngine,
    /// Field label: which game.
    FieldGame,
    /// Field label: rule set.
    FieldRules,
    /// Field label: Han's setup.
    FieldHanSetup,
    /// Field label: Cho's setup.
    FieldChoSetup,
    /// Field label: shogi handicap.
    FieldHandicap,
    /// Field label: time control.
    FieldTime,
    /// Time control value while clocks do not exist.
    TimeUnlimited,
    /// The status line when the clocks are paused.
    StatusPausedHint,
    /// Computers stopped after the takeback: P lets them play on
    StatusComputersHeld,
    /// Board flipped
    StatusBoardFlipped,
    /// Turning the board after every move: on
    StatusFlipEveryTurnOn,
    /// Turning the board after every move: off
    StatusFlipEveryTurnOff,
    /// That piece has no move
    StatusNoMoves,
    /// That piece has no move: the king is in check and it cannot help
    StatusNoMovesCheck,
    /// That piece has no move: moving it would leave the king in check
    StatusNoMovesPinned,
    /// That piece has no move: answer the bikjang first (p accepts it)
    StatusNoMovesBikjang,
    /// … wins by checkmate
    WinsByCheckmate,
    /// … wins by resignation
    WinsByResignation,
    /// … wins on points
    WinsOnPoints,
    /// … wins as second player on equal points
    WinsAsSecondOnEqualPoints,
    /// Draw …
    DrawBy,
    /// Pause asked for in an untimed game.
    StatusNoClock,
    /// Undo asked for after a loss on time.
    StatusLostOnTime,
    /// The panel's state line while paused.
    Paused,
    /// The hotseat undo question in a timed game.
    ConfirmUndo,
    /// The hotseat redo question in a timed game.
    ConfirmRedo,
    /// Save prompt: the file exists; replace it? (full path)
    ConfirmOverwrite,
    /// Who ran out of time: the side's name.
    RanOutOfTime,
    /// Help: the pause key.
    KeyPause,
    /// Units of a written time: hours, minutes, seconds (`h m s`; `시간 분 초`).
    TimeUnits,
    /// A byo-yomi time control: main time, period, number of periods
    /// (`5m | 30s ×30`; Japanese says 秒読み, Chinese 读秒).
    ByoyomiControl,
    /// The start button.
    StartButton,
    /// Start screen key hints.
    StartHints,
    /// Human player.
    Human,
    /// CPU player with a level: its number and its name.
    ComputerLevel,
    /// Name of CPU level 1 (the weakest).
    Level1,
    /// Name of CPU level 2.
    Level2,
    /// Name of CPU level 3.
    Level3,
    /// Name of CPU level 4.
    Level4,
    /// Name of CPU level 5.
    Level5,
    /// Name of CPU level 6.
    Level6,
    /// Name of CPU level 7.
    Level7,
    /// Name of CPU level 8.
    Level8,
    /// Name of CPU level 9.
    Level9,
    /// Name of CPU level 10 (the strongest).
    Level10,
    /// Xiangqi's name.
    GameXiangqi,
    /// Shogi's name.
    GameShogi,
    /// Janggi's name.
    GameJanggi,
    GameGungjanggi,
    /// Standard rules.
    RulesStandard,
    /// Janggi KJA rules.
    RulesKja,
    /// Janggi traditional rules.
    RulesTraditional,
    /// Janggi modern (Kakao) rules.
    RulesModern,
    /// Janggi casual rules.
    RulesCasual,
    RulesGungjanggiSilver,
    RulesGungjanggiDan,
    /// Setup preview heading.
    SetupPreview,
    /// Xiangqi first side.
    SideRed,
    /// Xiangqi second side.
    SideBlack,
    /// Shogi first side.
    SideSente,
    /// Shogi second side.
    SideGote,
    /// Janggi first side.
    SideCho,
    /// Janggi second side.
    SideHan,
    /// `qipan analyse` report column: the ply number.
    AnalysisPly,
    /// Report column: the move played.
    AnalysisMove,
    /// Report column: the evaluation after the move (first player's view).
    AnalysisScore,
    /// Report column: the engine's best move in the position before.
    AnalysisBest,
    /// Report column: the mark (?!, ?, ??).
    AnalysisMark,
    /// Report column: the engine's principal variation.
    AnalysisLine,
    /// The analysis budget: {} is a node count.
    AnalysisNodesPerPosition,
    /// The analysis budget: {} is seconds.
    AnalysisSecondsPerPosition,
    /// "{side} to move".
    ToMove,
    /// Move list heading.
    MovesHeading,
    /// Captured pieces heading.
    CapturedHeading,
    /// KJA score heading.
    ScoreHeading,
    /// Hand heading.
    HandHeading,
    /// Check warning.
    InCheck,
    /// Bikjang warning.
    BikjangPending,
    /// CPU thinking.
    Thinking,
    /// Reviewing a position of the history.
    Reviewing,
    /// Game over marker in the panel.
    GameFinished,
    /// Status: choose a piece.
    StatusChoosePiece,
    /// Status: choose a target.
    StatusChooseTarget,
    /// Status: choose where to drop.
    StatusChooseDrop,
    /// Status: refused move.
    StatusIllegal,
    /// Status: empty hand.
    StatusHandEmpty,
    /// Status: no pass in this game.
    StatusNoPass,
    /// Status: nothing to undo.
    StatusNothingToUndo,
    /// Status: nothing to redo.
    StatusNothingToRedo,
    /// Status: unreadable typed move.
    StatusUnknownMove,
    /// Status: draw declined.
    StatusDrawDeclined,
    /// Status: while reviewing.
    StatusReviewOnly,
    /// Status: wait for the CPU.
    StatusWaitComputer,
    /// Status: the game is over.
    StatusGameOver,
    /// Prompt label.
    PromptLabel,
    /// Prompt hint.
    PromptHint,
    /// `#N` named a move the game does not have.
    StatusNoSuchMove,
    /// Promotion popup title.
    PromoteTitle,
    /// Promote choice.
    PromoteYes,
    /// Do not promote choice.
    PromoteNo,
    /// Quit confirmation.
    ConfirmQuit,
    /// Resign confirmation.
    ConfirmResign,
    /// Draw offer.
    DrawOffer,
    /// Yes/no hint.
    YesNo,
    /// Game over title.
    GameOverTitle,
    /// "{side} wins".
    Wins,
    /// Draw.
    Draw,
    /// Final scores line.
    FinalScores,
    /// Game over choice: review.
    ChoiceReview,
    /// Game over choice: new game.
    ChoiceNewGame,
    /// Game over choice: quit.
    ChoiceQuit,
    /// Game-over choice: analyse the game.
    ChoiceAnalyse,
    /// Reason.
    ReasonCheckmate,
    /// Reason.
    ReasonStalemate,
    /// Reason.
    ReasonPerpetualCheck,
    /// Reason.
    ReasonRepetition,
    /// Reason.
    ReasonBikjang,
    /// Reason.
    ReasonMoveLimit,
    /// Reason.
    ReasonInsufficientMaterial,
    /// Reason.
    ReasonImpasse,
    /// Reason.
    ReasonDoublePass,
    /// Reason.
    ReasonResignation,
    /// Result reason: a foul recorded off the board (a record's 反則負け).
    ReasonFoul,
    /// Reason.
    ReasonTimeout,
    /// Reason.
    ReasonAgreement,
    /// Reason.
    ReasonFirstCheck,
    /// Reason.
    ReasonMaterial,
    /// Reason.
    ReasonSecondPlayer,
    /// Gungjanggi panel: the side's king is not promoted.
    GungKingNormal,
    /// Gungjanggi panel: the side's king is promoted.
    GungKingPromoted,
    /// Gungjanggi panel: the side may still call its one bikjang.
    GungBikjangLeft,
    /// Gungjanggi panel: the side has called its one bikjang.
    GungBikjangUsed,
    /// Gungjanggi panel: passes in a row (count).
    GungPasses,
    /// Gungjanggi panel: two passes in a row, a third is not allowed.
    GungNoThirdPass,
    /// Gungjanggi panel: a bikjang is pending; what accepting does.
    GungPendingAccept,
    /// Gungjanggi panel: a bikjang is pending; what breaking the line does.
    GungPendingBreak,
    /// Gungjanggi panel: the judging phase has begun (why).
    GungJudgingBanner,
    /// Why judging began: the request to judge was accepted.
    GungCauseDraw,
    /// Why judging began: a bikjang was accepted.
    GungCauseBikjang,
    /// Why judging began: plies without a capture (count).
    GungCauseQuiet,
    /// Why judging began: only kings and advisors are left.
    GungCauseBare,
    /// Why judging began: the game was set up in the judging phase.
    GungCauseSetUp,
    /// Gungjanggi panel: what wins now in the judging phase.
    GungFirstCheckWins,
    /// Gungjanggi panel: plies left before material decides (count).
    GungMaterialIn,
    /// Gungjanggi: material heading, Manual 1 (by value).
    GungMaterialByValue,
    /// Gungjanggi: material heading, Manual 2 (by count).
    GungMaterialByCount,
    /// Gungjanggi: who is ahead on material (side).
    GungLeader,
    /// Gungjanggi: equal material, the second player wins (side).
    GungEqual,
    /// Status: a side called bikjang (caller, answerer).
    GungEventBikjangCalled,
    /// Status: a side's king promoted (side).
    GungEventKingPromoted,
    /// Status: a soldier promoted (side).
    GungEventSoldierPromoted,
    /// Status: the advisors in the palaces promoted.
    GungEventAdvisorsPromoted,
    /// Status: the judging phase began (cause, plies).
    GungEventJudging,
    /// Status: a side accepted the bikjang (side).
    GungEventBikjangAccepted,
    /// Key help: the draw-offer key in gungjanggi, which asks to judge.
    KeyJudge,
    /// Key help: the pass key in gungjanggi.
    KeyPassGungjanggi,
    /// Help: the promoted king in gungjanggi.
    HelpGungKing,
    /// Help: the promoted soldier (Manual 2).
    HelpGungSoldier,
    /// Help: the promoted advisor (Manual 2).
    HelpGungAdvisor,
    /// Dialog: a gungjanggi request to judge (asker, answerer).
    JudgeOffer,
    /// Status: the CPU accepted the request to judge.
    StatusJudgeAccepted,
    /// Illegal move reason: a third pass in a row (gungjanggi).
    IllegalThirdPass,
    /// Move list: a janggi pass.
    MovePass,
    /// Move list: a pass that accepts a bikjang.
    MoveAcceptBikjang,
    /// End reason detail: both material totals (side, total, side, total).
    MaterialTotals,
    /// Illegal move reason.
    IllegalNoPiece,
    /// Illegal move reason.
    IllegalNotAMove,
    /// A typed janggi coordinate move names another piece: the square, the piece there.
    IllegalWrongPiece,
    /// A typed move looks like the game's notation but no legal move is written so.
    IllegalNotWrittenHere,
    /// A typed move exists but is not allowed here.
    IllegalNotAllowed,
    /// Illegal move reason.
    IllegalLeavesInCheck,
    /// Illegal move reason.
    IllegalFlyingGeneral,
    /// Illegal move reason.
    IllegalTwoPawns,
    /// Illegal move reason.
    IllegalDropPawnMate,
    /// Illegal move reason.
    IllegalDeadPiece,
    /// Illegal move reason.
    IllegalCannotPromote,
    /// Illegal move reason.
    IllegalMustPromote,
    /// Illegal move reason.
    IllegalNotInHand,
    /// Illegal move reason.
    IllegalCannotPass,
    /// Illegal move reason.
    IllegalRepetition,
    /// Illegal move reason.
    IllegalBikjangCalled,
    /// Illegal move reason.
    IllegalGameOver,
    /// Help title.
    HelpTitle,
    /// Help keys heading.
    HelpKeys,
    /// Help pieces heading.
    HelpPieces,
    /// Help rules heading.
    HelpRules,
    /// Help close hint.
    HelpClose,
    /// Key help.
    KeyMoveCursor,
    /// Key help.
    KeySelect,
    /// Key help.
    KeyCancel,
    /// Key help.
    KeyHand,
    /// Key help.
    KeyPrompt,
    /// Key help.
    KeyPass,
    /// Key help.
    KeyUndo,
    /// Key help.
    KeyRedo,
    /// Key help.
    KeyHistory,
    /// Key help.
    KeyHistoryEnds,
    /// Key help.
    KeyFlip,
    KeyFlipEveryTurn,
    /// Help: the key that switches the move notation.
    KeyNotation,
    /// Status: the move list now uses this notation.
    StatusNotation,
    /// Start screen: continue the saved game (game name, plies played: shogi, janggi).
    ContinueSavedGame,
    /// Start screen: continue the saved xiangqi game (game name, the round it reached,
    /// as its move list numbers it).
    ContinueSavedGameRounds,
    /// Title: the game starts from a position of its own, not a standard start or handicap.
    CustomStart,
    /// Status: the autosave could not be read (the error follows).
    StatusAutosaveUnreadable,
    /// The damaged autosave was moved aside (new path).
    AutosaveKeptAside,
    /// Status: the autosave was damaged; the game resumes without what is listed
    /// (what was dropped, where the damaged file was kept).
    AutosaveRestoredPartly,
    /// Dropped from a damaged autosave: who plays each side.
    DroppedPlayers,
    /// Dropped from a damaged autosave: the clocks.
    DroppedClock,
    /// Dropped from a damaged autosave: the time of each move.
    DroppedMoveTimes,
    /// Dropped from a damaged autosave: the moves from this move on.
    DroppedMovesFrom,
    /// Dropped from a damaged autosave: variations and comments after the damage.
    DroppedTree,
    /// Dropped from a damaged autosave: a setting (its key).
    DroppedSetting,
    /// Dropped from a damaged autosave: a line qipan does not know (its key).
    DroppedUnknownLine,
    /// Dropped from a damaged autosave: a line given twice (its key).
    DroppedSecondLine,
    /// A folder qipan writes in is a file (path).
    FolderIsAFile,
    /// Status: the autosave could not be written (the error follows).
    StatusAutosaveFailed,
    /// Help: the save key.
    KeySave,
    /// Help: the open key.
    KeyOpen,
    /// The open prompt's title.
    OpenPromptTitle,
    /// The open prompt's hint line.
    OpenPromptHint,
    /// The open prompt found no saved games.
    OpenNoRecords,
    /// A record could not be opened.
    StatusOpenFailed,
    /// Opening a record needs the game in progress to end first.
    StatusOpenNeedsNoGame,
    /// Help: the key that shows the position's FEN.
    KeyShowFen,
    /// Save prompt label.
    SavePromptLabel,
    /// Save prompt hint.
    SavePromptHint,
    /// Status: the save prompt was left empty.
    SaveNameMissing,
    /// Status: the record was written (the path follows).
    StatusSaved,
    /// Saved under the UTF-8 name because a character has no Shift_JIS form: path, character.
    StatusSavedAsUtf8,
    /// Save prompt: the name is a folder (full path).
    SaveIsFolder,
    /// Save prompt: the folder of the name does not exist (folder).
    SaveFolderMissing,
    /// Status: the record could not be written (the error follows).
    StatusSaveFailed,
    /// Status: the position's FEN (the FEN follows).
    StatusFen,
    /// Status: a record was opened (number of moves).
    StatusOpened,
    /// A game picked from a file of several: its number, the count, its moves.
    StatusOpenedGameOf,
    /// The open prompt named a game number the file does not have: file, number, count.
    StatusNoSuchGame,
    /// Status: a record was opened up to a problem (the problem follows).
    StatusOpenedPartly,
    /// Status: a record is being read (its name); Esc cancels.
    StatusOpening,
    /// Status: a record is being read: name, MiB read, MiB in all.
    StatusOpeningBytes,
    /// Status: a record is being read: name, games found in it.
    StatusOpeningGames,
    /// Status: reading the record was cancelled (its name); nothing changed.
    StatusOpeningCancelled,
    /// Where in a record file a problem is: the game of several.
    ImportGame,
    /// Where in a record file a problem is: the line.
    ImportLine,
    /// Where in a record file a problem is: the move number.
    ImportMove,
    /// Status: play goes on from an earlier position (move number).
    StatusBranched,
    /// Key help: the variation list.
    KeyVariations,
    /// Status: a move at an earlier position made a new variation (move number).
    StatusVariationMade,
    /// Status: switched to a variation (its first move).
    StatusVariationSwitched,
    /// Status: a variation became the main line (its first move).
    StatusVariationPromoted,
    /// Status: a variation was deleted (its first move).
    StatusVariationDeleted,
    /// Status: the last deleted variation is back (its first move).
    StatusVariationRestored,
    /// Status: no deleted variation to bring back.
    StatusNothingToRestore,
    /// Key help: analyse the game.
    KeyAnalyse,
    /// Key help: jump to the previous / next marked move of either side.
    KeyMistakes,
    /// Key help: jump to the previous / next marked move of one side.
    KeyMistakesOfSide,
    /// Key help: learn from your mistakes.
    KeyLearn,
    /// Status: the analysis has searched {} of {} positions.
    StatusAnalysing,
    /// Status: the analysis ended: engine, then the counts of ?!, ? and ??.
    StatusAnalysisDone,
    /// Status: the analysis was stopped.
    StatusAnalysisStopped,
    /// Status: the analysis failed (why).
    StatusAnalysisFailed,
    /// Status: an analysis is already running.
    StatusAnalysisBusy,
    /// Status: no move to analyse.
    StatusNothingToAnalyse,
    /// Status: no marked move that way.
    StatusNoMoreMistakes,
    /// Status: the game has no marks yet.
    StatusNotAnalysed,
    /// Status: a marked move (number, move with its mark) and the engine's best.
    StatusMistakeAt,
    /// Heading of the learn-from-your-mistakes panel.
    LearnTitle,
    /// Which exercise: number and count.
    LearnExercise,
    /// The move played in the game at this position (move number, move with mark).
    LearnPlayed,
    /// What to do: find a better move for the side named.
    LearnFind,
    /// The keys of the learn panel.
    LearnKeys,
    /// How many exercises are solved: solved and count.
    LearnSolvedCount,
    /// The engine's answer (its move and line).
    LearnAnswer,
    /// Status: the tried move is good (the move).
    StatusLearnRight,
    /// Status: the tried move is not better (the move).
    StatusLearnWrong,
    /// Status: the tried move is the one played in the game.
    StatusLearnSame,
    /// Status: the engine is checking the tried move.
    StatusLearnChecking,
    /// Status: the hint highlights the piece to move.
    StatusLearnHint,
    /// Status: no marked move of the human side to retry.
    StatusNoExercises,
    /// Status: back from the exercises to the game.
    StatusLearnLeft,
    /// Heading of the evaluation graph.
    GraphHeading,
    /// Title of the variation list (the move number after which they branch).
    VariationsTitle,
    /// The variation list when no move follows the shown position.
    VariationsEmpty,
    /// The keys of the variation list.
    VariationsHint,
    /// Label of the main continuation in the variation list.
    VariationMainLine,
    /// Status: a typed move names a move that is not legal, and why.
    StatusMoveRefused,
    /// Status: a typed move fits several moves, which are listed.
    StatusAmbiguousMove,
    /// Key help.
    KeyResign,
    /// Key help.
    KeyDraw,
    /// Key help.
    KeyNewGame,
    /// Key help.
    KeyHelp,
    /// Key help.
    KeyQuit,
    /// Key help.
    KeyForceQuit,
    /// Key help.
    KeyMouse,
    /// Piece help.
    PieceXiangqiGeneral,
    /// Piece help.
    PieceXiangqiAdvisor,
    /// Piece help.
    PieceXiangqiElephant,
    /// Piece help.
    PieceXiangqiHorse,
    /// Piece help.
    PieceXiangqiChariot,
    /// Piece help.
    PieceXiangqiCannon,
    /// Piece help.
    PieceXiangqiSoldier,
    /// Piece help.
    PieceJanggiGeneral,
    /// Piece help.
    PieceJanggiAdvisor,
    /// Piece help.
    PieceJanggiElephant,
    /// Piece help.
    PieceJanggiHorse,
    /// Piece help.
    PieceJanggiChariot,
    /// Piece help.
    PieceJanggiCannon,
    /// Piece help.
    PieceJanggiSoldier,
    /// Piece help.
    PieceShogiKing,
    /// Piece help.
    PieceShogiRook,
    /// Piece help.
    PieceShogiBishop,
    /// Piece help.
    PieceShogiGold,
    /// Piece help.
    PieceShogiSilver,
    /// Piece help.
    PieceShogiKnight,
    /// Piece help.
    PieceShogiLance,
    /// Piece help.
    PieceShogiPawn,
    /// Piece help.
    PieceShogiPromoted,
    /// Rules help.
    RulesXiangqi,
    /// Rules help.
    RulesShogi,
    /// Rules help.
    RulesJanggi,
    RulesGungjanggi,
    /// Too-small terminal message.
    TooSmall,
    /// Footer hint during a game.
    GameHints,
    /// The thinking line: depth, score, speed, principal variation.
    ThinkingLine,
    /// Status: the thinking line is shown.
    StatusThinkingShown,
    /// Status: the thinking line is hidden.
    StatusThinkingHidden,
    /// Help: the thinking-line key.
    KeyThinking,
    /// Help: the hint key.
    KeyHint,
    /// Status: the hint search runs.
    StatusHintSearching,
    /// Status: the hinted move.
    StatusHint,
    /// Help: the live analysis keys.
    KeyLiveAnalysis,
    /// Status: live analysis started (the engine's name).
    StatusLiveOn,
    /// Status: live analysis stopped by the player.
    StatusLiveOff,
    /// Status: how many lines live analysis shows (count).
    StatusLiveLines,
    /// Status: the live analysis engine failed (message).
    StatusLiveFailed,
    /// Analysis panel heading (the engine's name).
    LiveHeading,
    /// Analysis panel: which side a positive score favours (side name).
    LiveScoreView,
    /// Analysis panel: depth, nodes, nodes per second.
    LiveStats,
    /// Analysis panel: the search ended by itself.
    LiveDone,
    /// Analysis panel: searching, no line yet.
    LiveSearching,
    /// Analysis panel: waiting while the CPU (or the hint) thinks.
    LiveWaiting,
    /// Analysis panel: the shown position has no legal move.
    LiveNoMoves,
    /// External engine: the executable does not exist (name, command).
    EngineMissing,
    /// External engine: could not start (name, reason).
    EngineSpawnFailed,
    /// External engine: exited (name, what qipan waited for).
    EngineCrashed,
    /// External engine: no answer in time (name, seconds, what qipan waited for).
    EngineTimeout,
    /// External engine: an illegal or unreadable move (name, move).
    EngineIllegalMove,
    /// External engine: cannot play this game (name, variant).
    EngineUnsupported,
    /// An engine wrote a line too long to read (name, bytes).
    EngineLineTooLong,
    /// The engine command names a folder or a file that cannot run (name, command).
    EngineNotAProgram,
    /// An engine answered no move where there are legal moves (name).
    EngineNoMove,
    /// External engine: declared a win that the rules do not give.
    EngineFalseDeclaration,
    /// Status: an engine failed, the human takes its side (message).
    StatusEngineFailed,
    /// Status: the hint engine failed (message).
    StatusHintFailed,
    /// Player label for an engine missing from the settings (index).
    EngineNumber,
    /// Status: the CPU accepted the draw offer.
    StatusDrawAccepted,
}

const ENGLISH: &[(Key, &str)] = &[
    (Key::AppTitle, "qipan 棋盤"),
    (Key::NewGameHeading, "New game"),
    (Key::SettingsTitle, "Settings"),
    (Key::SettingLanguage, "Language"),
    (Key::SettingGlyphs, "Pieces"),
    (Key::SettingWidth, "Line width"),
    (Key::SettingTheme, "Theme"),
    (Key::SettingNotation, "Notation"),
    (Key::SettingCpuLevel, "CPU level"),
    (Key::SettingBell, "Bell"),
    (Key::SettingsHints, "↑↓ setting  ←→ change  s save  Esc close"),
    (Key::LanguageAuto, "auto (from LANG)"),
    (Key::GlyphsCjk, "CJK characters"),
    (Key::GlyphsHangul, "Hangul (not shogi)"),
    (Key::GlyphsLatin, "Latin letters"),
    (Key::WidthNarrow, "narrow"),
    (Key::WidthWide, "wide"),
    (Key::NotationAuto, "auto (by language)"),
    (Key::On, "on"),
    (Key::Off, "off"),
    (Key::SettingsSaved, "Settings saved to {}"),
    (Key::SettingsSaveFailed, "Settings not saved: {}"),
    (Key::SettingsUnchanged, "No setting has changed since the last save"),
    (Key::KeySettings, "settings: language, pieces, theme, notation…"),
    (Key::MouseLabel, "mouse"),
    (Key::ConfigMoreProblems, "{} (and {} more: qipan config check)"),
    (Key::NoConfigFolder, "no config folder: no home folder was found (use --config FILE)"),
    (Key::ProblemLineColumn, "{}: line {}, column {}"),
    (Key::ProblemExpected, "{}: key \"{}\": expected {}, found {}"),
    (Key::ProblemUnknownKey, "{}: unknown key \"{}\" (ignored)"),
    (Key::ProblemInvalidToml, "{}: invalid TOML: {}; {}"),
    (Key::ProblemEngineNeeds, "{}: [[engines]] needs \"{}\"; engine ignored"),
    (Key::ProblemUnreadable, "{}: cannot read: {}; {}"),
    (Key::ProblemUnknownTheme, "{}: unknown theme \"{}\"; using wood"),
    (Key::ProblemDuplicateEngine, "{}: a second engine named \"{}\"; the later one is ignored"),
    (Key::ProblemActionWithoutKey, "{}: \"{}\" is left with no key"),
    (Key::ProblemQuitKeyTaken, "{}: \"{}\" takes \"{}\", the key that quits; quit keeps only Ctrl-C"),
    (Key::ProblemUnknownRoleField, "{}: key \"{}\": expected fg, bg or modifiers"),
    (Key::FallbackEveryDefault, "using every default"),
    (Key::FallbackWood, "using wood"),
    (Key::FallbackSectionSkipped, "that section keeps its defaults, the rest of the file is read"),
    (Key::FoundTable, "a table"),
    (Key::FoundNothing, "nothing"),
    (Key::ExpectedOneOf, "one of {}"),
    (Key::ExpectedOneOfOrThemePath, "one of {} or a theme file path"),
    (Key::ExpectedString, "a string"),
    (Key::ExpectedTrueOrFalse, "true or false"),
    (Key::ExpectedTable, "a table"),
    (Key::ExpectedWholeNumber, "a whole number from {} to {}"),
    (Key::ExpectedColour, "a colour: \"#rrggbb\", a name such as \"red\" or \"darkgray\", or 0-255"),
    (Key::ExpectedStringList, "a list of strings"),
    (Key::ExpectedKeyNames, "a list of key names such as [\"u\", \"Ctrl-z\", \"F2\"]"),
    (Key::ExpectedTimeControl, "a time control: none, 10m, 5m+3s or 10m 3x30s"),
    (Key::ExpectedEngineTables, "[[engines]] tables"),
    (Key::ExpectedValue, "a value"),
    (Key::ExpectedOptionsTable, "a table of name = value"),
    (Key::ExpectedRoleTable, "a table such as { fg = \"#c81e1e\", modifiers = [\"bold\"] }"),
    (Key::ExpectedModifier, "bold, dim, italic, underlined, reversed or crossed_out"),
    (Key::ExpectedModifierList, "a list such as [\"bold\"]"),
    (Key::ConfigCheckOk, "{}: ok"),
    (Key::ConfigCheckDefaults, "defaults"),
    (Key::ConfigCheckProblems, "{} problems in the configuration"),
    (Key::ConfigCheckOneProblem, "1 problem in the configuration"),
    (Key::ConfigPathMissing, "(not there: defaults are used)"),
    (Key::ConfigUnknownLanguage, "unknown language '{}': use en, ko, zh or ja"),
    (Key::ThemeWood, "wood"),
    (Key::ThemeDark, "dark"),
    (Key::ThemeContrast, "high contrast"),
    (Key::ThemeSixteen, "16 colours"),
    (Key::NotationChineseTraditional, "Chinese (traditional)"),
    (Key::NotationChineseSimplified, "Chinese (simplified)"),
    (Key::NotationWxf, "WXF"),
    (Key::NotationIccs, "ICCS"),
    (Key::NotationJapanese, "Japanese"),
    (Key::NotationHodges, "Western (Hodges)"),
    (Key::NotationUsi, "USI"),
    (Key::NotationKoreanHangul, "Korean (Hangul)"),
    (Key::NotationKoreanHanja, "Korean (hanja)"),
    (Key::NotationEngine, "engine coordinates"),
    (Key::FieldGame, "Game"),
    (Key::FieldRules, "Rules"),
    (Key::FieldHanSetup, "Han setup"),
    (Key::FieldChoSetup, "Cho setup"),
    (Key::FieldHandicap, "Handicap"),
    (Key::FieldTime, "Time"),
    (Key::TimeUnlimited, "unlimited"),
    (Key::StatusPausedHint, "Clocks paused: P resumes"),
    (Key::StatusComputersHeld, "Computers stopped after the takeback: P lets them play on"),
    (Key::StatusBoardFlipped, "Board flipped"),
    (Key::StatusFlipEveryTurnOn, "Turning the board after every move: on"),
    (Key::StatusFlipEveryTurnOff, "Turning the board after every move: off"),
    (Key::StatusNoMoves, "That piece has no move"),
    (Key::StatusNoMovesCheck, "That piece has no move: the king is in check and it cannot help"),
    (Key::StatusNoMovesPinned, "That piece has no move: moving it would leave the king in check"),
    (Key::StatusNoMovesBikjang, "That piece has no move: answer the bikjang first (p accepts it)"),
    (Key::WinsByCheckmate, "{} wins by checkmate"),
    (Key::WinsByResignation, "{} wins by resignation"),
    (Key::WinsOnPoints, "{} wins on points"),
    (Key::WinsAsSecondOnEqualPoints, "{} wins as second player on equal points"),
    (Key::DrawBy, "Draw {}"),
    (Key::StatusNoClock, "This game has no clock to pause"),
    (Key::StatusLostOnTime, "The game was lost on time; it cannot be taken back"),
    (Key::Paused, "PAUSED"),
    (Key::ConfirmUndo, "Both players agree to undo?"),
    (Key::ConfirmRedo, "Both players agree to replay the move?"),
    (Key::ConfirmOverwrite, "{} exists. Replace it?"),
    (Key::RanOutOfTime, "{} ran out of time"),
    (Key::KeyPause, "pause the clocks"),
    (Key::TimeUnits, "h m s"),
    (Key::ByoyomiControl, "{} | {} ×{}"),
    (Key::StartButton, "Start the game"),
    (Key::StartHints, "↑↓ field  ←→ change  Enter start  L open  o settings  ? help  q quit"),
    (Key::Human, "Human"),
    (Key::ComputerLevel, "CPU {} {}"),
    (Key::Level1, "Beginner"),
    (Key::Level2, "Novice"),
    (Key::Level3, "Elementary"),
    (Key::Level4, "Casual"),
    (Key::Level5, "Intermediate"),
    (Key::Level6, "Club"),
    (Key::Level7, "Advanced"),
    (Key::Level8, "Strong"),
    (Key::Level9, "Very strong"),
    (Key::Level10, "Expert"),
    (Key::GameXiangqi, "Xiangqi 象棋"),
    (Key::GameShogi, "Shogi 将棋"),
    (Key::GameJanggi, "Janggi 장기"),
    (Key::GameGungjanggi, "Gungjanggi 궁장기"),
    (Key::RulesStandard, "standard"),
    (Key::RulesKja, "KJA (scored)"),
    (Key::RulesTraditional, "traditional"),
    (Key::RulesModern, "modern (Kakao)"),
    (Key::RulesCasual, "casual"),
    (Key::RulesGungjanggiSilver, "Manual 1 (silver)"),
    (Key::RulesGungjanggiDan, "Manual 2 (dan)"),
    (Key::SetupPreview, "Back ranks"),
    (Key::SideRed, "Red"),
    (Key::SideBlack, "Black"),
    (Key::SideSente, "Sente"),
    (Key::SideGote, "Gote"),
    (Key::SideCho, "Cho"),
    (Key::SideHan, "Han"),
    (Key::AnalysisPly, "ply"),
    (Key::AnalysisMove, "move"),
    (Key::AnalysisScore, "score"),
    (Key::AnalysisBest, "best"),
    (Key::AnalysisMark, "mark"),
    (Key::AnalysisLine, "line"),
    (Key::AnalysisNodesPerPosition, "{} nodes per position"),
    (Key::AnalysisSecondsPerPosition, "{} s per position"),
    (Key::ToMove, "{} to move"),
    (Key::MovesHeading, "Moves"),
    (Key::CapturedHeading, "Captured"),
    (Key::ScoreHeading, "Score"),
    (Key::HandHeading, "Hand"),
    (Key::InCheck, "Check!"),
    (Key::BikjangPending, "Bikjang! Pass (p) to accept, or break it"),
    (Key::Thinking, "CPU is thinking…"),
    (Key::Reviewing, "Reviewing {} / {}  (End returns)"),
    (Key::GameFinished, "Game over: {}"),
    (Key::StatusChoosePiece, "Choose a piece"),
    (Key::StatusChooseTarget, "Choose where to move"),
    (Key::StatusChooseDrop, "Choose where to drop"),
    (Key::StatusIllegal, "Illegal: {}"),
    (Key::StatusHandEmpty, "The hand is empty"),
    (Key::StatusNoPass, "There is no pass in this game"),
    (Key::StatusNothingToUndo, "Nothing to undo"),
    (Key::StatusNothingToRedo, "Nothing to redo"),
    (Key::StatusUnknownMove, "Cannot read the move '{}'"),
    (Key::StatusDrawDeclined, "The draw was declined"),
    (Key::StatusReviewOnly, "Reviewing: pick a piece of the side to move to play on from here, or End to return"),
    (Key::StatusWaitComputer, "The CPU is to move"),
    (Key::StatusGameOver, "The game is over: n new game, q quit"),
    (Key::PromptLabel, "Move: "),
    (Key::PromptHint, "any notation: C2.5, P-7f, 79졸78, h2e2 · #12 goes to move 12 · Esc cancels"),
    (Key::StatusNoSuchMove, "'{}': the game has moves 0 to {}"),
    (Key::PromoteTitle, "Promote?"),
    (Key::PromoteYes, "Promote (y)"),
    (Key::PromoteNo, "Do not promote (n)"),
    (Key::ConfirmQuit, "The game is kept. Quit?"),
    (Key::ConfirmResign, "{} resigns?"),
    (Key::DrawOffer, "{} offers a draw. {}, do you accept?"),
    (Key::YesNo, "y yes · n no"),
    (Key::GameOverTitle, "Game over"),
    (Key::Wins, "{} wins"),
    (Key::Draw, "Draw"),
    (Key::FinalScores, "Score {} {} · {} {}"),
    (Key::ChoiceReview, "Review the game"),
    (Key::ChoiceNewGame, "New game"),
    (Key::ChoiceQuit, "Quit"),
    (Key::ChoiceAnalyse, "Analyse the game"),
    (Key::ReasonCheckmate, "by checkmate"),
    (Key::ReasonStalemate, "by stalemate (no legal move)"),
    (Key::ReasonPerpetualCheck, "by perpetual check"),
    (Key::ReasonRepetition, "by repetition"),
    (Key::ReasonBikjang, "by bikjang"),
    (Key::ReasonMoveLimit, "by the move limit"),
    (Key::ReasonInsufficientMaterial, "by insufficient material"),
    (Key::ReasonImpasse, "by impasse"),
    (Key::ReasonDoublePass, "by double pass"),
    (Key::ReasonResignation, "by resignation"),
    (Key::ReasonFoul, "by a foul"),
    (Key::ReasonTimeout, "on time"),
    (Key::ReasonAgreement, "by agreement"),
    (Key::ReasonFirstCheck, "by first check (judging phase)"),
    (Key::ReasonMaterial, "on material"),
    (Key::ReasonSecondPlayer, "as second player on equal material"),
    (Key::GungKingNormal, "king normal"),
    (Key::GungKingPromoted, "king promoted"),
    (Key::GungBikjangLeft, "bikjang unused"),
    (Key::GungBikjangUsed, "bikjang used"),
    (Key::GungPasses, "passes {}/2"),
    (Key::GungNoThirdPass, "passes 2/2: no third"),
    (Key::GungPendingAccept, "Bikjang! p accepts: material decides"),
    (Key::GungPendingBreak, "step aside or block: king promotes"),
    (Key::GungJudgingBanner, "JUDGING PHASE · {}"),
    (Key::GungCauseDraw, "asked to judge"),
    (Key::GungCauseBikjang, "bikjang accepted"),
    (Key::GungCauseQuiet, "no capture in {} plies"),
    (Key::GungCauseBare, "kings and advisors only"),
    (Key::GungCauseSetUp, "set-up position"),
    (Key::GungFirstCheckWins, "first check wins"),
    (Key::GungMaterialIn, "plies to material: {}"),
    (Key::GungMaterialByValue, "Material (value)"),
    (Key::GungMaterialByCount, "Material (count)"),
    (Key::GungLeader, "→ {} ahead"),
    (Key::GungEqual, "→ equal: {} wins as second"),
    (Key::GungEventBikjangCalled, "{} calls bikjang! {}: p accepts (material decides) · break it: king promotes"),
    (Key::GungEventKingPromoted, "{}'s king promoted: it attacks the enemy king along an open file"),
    (Key::GungEventSoldierPromoted, "{}'s soldier promoted: it steps forward, back or sideways"),
    (Key::GungEventAdvisorsPromoted, "Advisors promoted (soldiers gone): they also move like promoted soldiers"),
    (Key::GungEventJudging, "Judging ({}): first check wins; {} plies, then material"),
    (Key::GungEventBikjangAccepted, "{} accepts the bikjang: material decides"),
    (Key::KeyJudge, "ask to judge (gungjanggi has no draws: starts the judging phase)"),
    (Key::KeyPassGungjanggi, "pass (no third in a row; when bikjang is called: accept it)"),
    (Key::HelpGungKing, "promoted king: takes the enemy king along an open file like a chariot; facing it is check. Breaking a bikjang promotes your king; both promote when judging begins."),
    (Key::HelpGungSoldier, "promoted soldier (Manual 2): on reaching the last rank it steps forward, back or sideways (palace diagonals too)."),
    (Key::HelpGungAdvisor, "promoted advisor (Manual 2): when a side has lost all soldiers, advisors in a palace promote: advisor moves plus a promoted soldier's, and may leave the palace."),
    (Key::JudgeOffer, "{} asks to judge (no draws: first check wins, then material). {}, accept?"),
    (Key::StatusJudgeAccepted, "The request to judge was accepted: the judging phase begins"),
    (Key::IllegalThirdPass, "pass rule: no third pass in a row"),
    (Key::MovePass, "pass"),
    (Key::MoveAcceptBikjang, "accept bikjang"),
    (Key::MaterialTotals, "{} {} : {} {}"),
    (Key::IllegalNoPiece, "no piece of yours on that square"),
    (Key::IllegalNotAMove, "that piece cannot move there"),
    (Key::IllegalWrongPiece, "the piece on {} is {}"),
    (Key::IllegalNotWrittenHere, "no legal move is written this way here"),
    (Key::IllegalNotAllowed, "the move is not allowed here"),
    (Key::IllegalLeavesInCheck, "leaves the king in check"),
    (Key::IllegalFlyingGeneral, "the generals would face each other"),
    (Key::IllegalTwoPawns, "nifu: a second pawn on this file"),
    (Key::IllegalDropPawnMate, "uchifuzume: a pawn drop may not give mate"),
    (Key::IllegalDeadPiece, "the piece could never move again"),
    (Key::IllegalCannotPromote, "this move cannot promote"),
    (Key::IllegalMustPromote, "the piece must promote here"),
    (Key::IllegalNotInHand, "no such piece in hand"),
    (Key::IllegalCannotPass, "passing is not allowed now"),
    (Key::IllegalRepetition, "repetition rule: the position would occur a third time"),
    (Key::IllegalBikjangCalled, "bikjang was already called once"),
    (Key::IllegalGameOver, "the game is over"),
    (Key::HelpTitle, "Help"),
    (Key::HelpKeys, "Keys"),
    (Key::HelpPieces, "Pieces"),
    (Key::HelpRules, "Special rules"),
    (Key::HelpClose, "↑↓ scroll · Esc closes"),
    (Key::KeyMoveCursor, "move the cursor"),
    (Key::KeySelect, "pick a piece, then its target"),
    (Key::KeyCancel, "cancel the selection or popup"),
    (Key::KeyHand, "cursor into the hand (shogi drops)"),
    (Key::KeyPrompt, "type a move (h3e3, 7g7f, P*5e)"),
    (Key::KeyPass, "pass (janggi)"),
    (Key::KeyUndo, "undo"),
    (Key::KeyRedo, "redo"),
    (Key::KeyHistory, "step back / forward through the game"),
    (Key::KeyHistoryEnds, "first / last position"),
    (Key::KeyFlip, "flip the board"),
    (Key::KeyFlipEveryTurn, "hotseat: turn the board after every move (on/off)"),
    (Key::KeyNotation, "switch the move notation"),
    (Key::StatusNotation, "Move list in {}"),
    (Key::ContinueSavedGame, "Continue: {}, move {}"),
    (Key::ContinueSavedGameRounds, "Continue: {}, move {}"),
    (Key::CustomStart, "custom position"),
    (Key::StatusAutosaveUnreadable, "Saved game not restored: {}"),
    (Key::AutosaveKeptAside, "kept as {}"),
    (Key::AutosaveRestoredPartly, "The saved game was damaged: continuing without {}; the damaged file is kept as {}"),
    (Key::DroppedPlayers, "the players (both human now)"),
    (Key::DroppedClock, "the clocks (untimed now)"),
    (Key::DroppedMoveTimes, "the move times"),
    (Key::DroppedMovesFrom, "the moves from move {} on"),
    (Key::DroppedTree, "the variations and comments after the damage"),
    (Key::DroppedSetting, "the setting '{}'"),
    (Key::DroppedUnknownLine, "an unknown line '{}'"),
    (Key::DroppedSecondLine, "a second '{}' line"),
    (Key::FolderIsAFile, "{} is a file, but qipan needs a folder there"),
    (Key::StatusAutosaveFailed, "Autosave failed: {}"),
    (Key::KeySave, "save the game to a file (PGN, KIF for shogi)"),
    (Key::KeyOpen, "open a record: your saved and finished games, or any PGN/KIF/CSA/.gib file"),
    (Key::OpenPromptTitle, "Open a record"),
    (Key::OpenPromptHint, "type a file name or path, or ↑↓ through your games · Enter opens · Esc cancels"),
    (Key::OpenNoRecords, "(no saved or finished games yet)"),
    (Key::StatusOpenFailed, "Not opened: {}"),
    (Key::StatusOpenNeedsNoGame, "A game is in progress: finish it or start a new one (n) before opening a record"),
    (Key::KeyShowFen, "show the position's FEN (SFEN for shogi)"),
    (Key::SavePromptLabel, "Save as: "),
    (Key::SavePromptHint, "file name (games folder unless a path) · Enter saves · Esc cancels"),
    (Key::SaveNameMissing, "no file name given"),
    (Key::StatusSaved, "Saved to {}"),
    (
        Key::StatusSavedAsUtf8,
        "Saved to {} as UTF-8: '{}' cannot be written in Shift_JIS (.kif)",
    ),
    (Key::SaveIsFolder, "{} is a folder: type a file name"),
    (Key::SaveFolderMissing, "folder {} does not exist"),
    (Key::StatusSaveFailed, "Not saved: {}"),
    (Key::StatusFen, "FEN: {}"),
    (Key::StatusOpened, "Record opened: {} moves · [ ] to step through, play on from any position"),
    (Key::StatusOpenedGameOf, "Game {} of {} opened ({} moves) · add #N to the name for another"),
    (Key::StatusNoSuchGame, "{}: no game {} (the file holds {})"),
    (Key::StatusOpenedPartly, "Record read up to a problem: {}"),
    (Key::StatusOpening, "Reading {}… (Esc cancels)"),
    (Key::StatusOpeningBytes, "Reading {}: {} of {} MiB… (Esc cancels)"),
    (Key::StatusOpeningGames, "Reading {}: {} games found… (Esc cancels)"),
    (Key::StatusOpeningCancelled, "Opening {} cancelled; nothing changed"),
    (Key::ImportGame, "game {}"),
    (Key::ImportLine, "line {}"),
    (Key::ImportMove, "move {}"),
    (Key::StatusBranched, "Playing on from move {}: the later moves stay (r replays them; another move makes a variation)"),
    (Key::KeyVariations, "variations here: Enter switch, + main line, x delete, u undo delete"),
    (Key::StatusVariationMade, "Move {} starts a new variation; the old line is kept (b lists them)"),
    (Key::StatusVariationSwitched, "Now following the variation {}"),
    (Key::StatusVariationPromoted, "{} is now the main line"),
    (Key::StatusVariationDeleted, "Variation {} deleted (u in the list brings it back)"),
    (Key::StatusVariationRestored, "Variation {} is back"),
    (Key::StatusNothingToRestore, "No deleted variation to bring back"),
    (Key::KeyAnalyse, "analyse this game on the worker (Esc stops it)"),
    (Key::KeyMistakes, "previous / next mistake (?! ? ??) of either side"),
    (Key::KeyMistakesOfSide, "previous / next mistake of your side"),
    (Key::KeyLearn, "learn from your mistakes: find better moves (Esc leaves)"),
    (Key::StatusAnalysing, "Analysing: {}/{} positions · Esc stops"),
    (Key::StatusAnalysisDone, "Analysed by {}: {} ?!  {} ?  {} ?? · { } jump to the mistakes, M to retry yours"),
    (Key::StatusAnalysisStopped, "Analysis stopped"),
    (Key::StatusAnalysisFailed, "Analysis failed: {}"),
    (Key::StatusAnalysisBusy, "The analysis is already running (Esc stops it)"),
    (Key::StatusNothingToAnalyse, "No moves to analyse yet"),
    (Key::StatusNoMoreMistakes, "No more marked moves that way"),
    (Key::StatusNotAnalysed, "No marks yet: press A to analyse the game"),
    (Key::StatusMistakeAt, "Move {}: {} · best was {}"),
    (Key::LearnTitle, "Learn from your mistakes"),
    (Key::LearnExercise, "Exercise {} of {}"),
    (Key::LearnPlayed, "In the game, move {} was {}"),
    (Key::LearnFind, "Find a better move for {}"),
    (Key::LearnKeys, "H hint · { } exercises · Esc back"),
    (Key::LearnSolvedCount, "Solved {} of {}"),
    (Key::LearnAnswer, "Engine's answer: {}"),
    (Key::StatusLearnRight, "{} is good! Press } for the next exercise"),
    (Key::StatusLearnWrong, "{} is not better · try again (H for a hint)"),
    (Key::StatusLearnSame, "That is the game's move · try another"),
    (Key::StatusLearnChecking, "Checking {}…"),
    (Key::StatusLearnHint, "Hint: move the highlighted piece (H again shows the answer)"),
    (Key::StatusNoExercises, "No mistakes of yours to retry (press A to analyse first)"),
    (Key::StatusLearnLeft, "Back to the game"),
    (Key::GraphHeading, "Evaluation"),
    (Key::VariationsTitle, "Variations after move {}"),
    (Key::VariationsEmpty, "No move follows this position yet"),
    (Key::VariationsHint, "Enter switch · + main line · x delete · u undo delete · Esc close"),
    (Key::VariationMainLine, "main line"),
    (Key::StatusMoveRefused, "'{}': {}"),
    (Key::StatusAmbiguousMove, "'{}' could be {}"),
    (Key::KeyResign, "resign"),
    (Key::KeyDraw, "offer a draw"),
    (Key::KeyNewGame, "new game"),
    (Key::KeyHelp, "this help"),
    (Key::KeyQuit, "quit (asks during a game)"),
    (Key::KeyForceQuit, "quit at once"),
    (Key::KeyMouse, "click a piece, then its target"),
    (Key::PieceXiangqiGeneral, "General: one step orthogonally, inside the palace"),
    (Key::PieceXiangqiAdvisor, "Advisor: one step diagonally, inside the palace"),
    (Key::PieceXiangqiElephant, "Elephant: two steps diagonally, not blocked, never across the river"),
    (Key::PieceXiangqiHorse, "Horse: one step straight then one diagonally; blocked next to it"),
    (Key::PieceXiangqiChariot, "Chariot: any distance orthogonally"),
    (Key::PieceXiangqiCannon, "Cannon: moves like a chariot, captures by jumping exactly one piece"),
    (Key::PieceXiangqiSoldier, "Soldier: one step forward; also sideways after the river"),
    (Key::PieceJanggiGeneral, "General: one step along the palace lines, diagonals included"),
    (Key::PieceJanggiAdvisor, "Advisor: one step along the palace lines, like the general"),
    (Key::PieceJanggiElephant, "Elephant: one straight then two diagonally; blocked on the way"),
    (Key::PieceJanggiHorse, "Horse: one straight then one diagonally; blocked next to it"),
    (Key::PieceJanggiChariot, "Chariot: any distance straight, and along palace diagonals"),
    (Key::PieceJanggiCannon, "Cannon: must jump exactly one piece (never a cannon) to move or capture"),
    (Key::PieceJanggiSoldier, "Soldier: one step forward or sideways; diagonally forward in the palace"),
    (Key::PieceShogiKing, "King: one step in any direction"),
    (Key::PieceShogiRook, "Rook: any distance orthogonally; as Dragon 龍 (promoted) also one step diagonally"),
    (Key::PieceShogiBishop, "Bishop: any distance diagonally; as Horse 馬 (promoted) also one step orthogonally"),
    (Key::PieceShogiGold, "Gold: one step orthogonally or diagonally forward"),
    (Key::PieceShogiSilver, "Silver: one step diagonally or straight forward"),
    (Key::PieceShogiKnight, "Knight: two forward and one sideways, jumping"),
    (Key::PieceShogiLance, "Lance: any distance straight forward"),
    (Key::PieceShogiPawn, "Pawn: one step forward"),
    (Key::PieceShogiPromoted, "Promoted silver, knight, lance and pawn move like a gold"),
    (Key::RulesXiangqi, "The generals may not face each other on an open file. Stalemate loses. Perpetual check loses; other threefold repetitions draw; 60 moves each without a capture draw."),
    (Key::RulesShogi, "Pieces reaching, leaving or inside the far three ranks may promote. Captured pieces join your hand and may be dropped. No two unpromoted pawns on a file (nifu); no mate by a pawn drop (uchifuzume). Fourfold repetition draws, perpetual check loses."),
    (Key::RulesJanggi, "Cho moves first. You may pass (p) when not in check. Facing generals (bikjang) must be broken or accepted by passing; it is then scored. Points: chariot 13, cannon 7, horse 5, elephant 3, advisor 3, soldier 2, Han +1.5."),
    (Key::RulesGungjanggi, "Gungjanggi: no draws. Each side may call bikjang once; breaking it promotes your king (marked beside it on the board), which then attacks the enemy king along an open file. No third pass in a row, no position a third time. When the game cannot be won (a request to judge (D) accepted, an accepted bikjang, 100 quiet plies, only kings and advisors) the judging phase begins: the first check wins (장군승); after 20 plies or an accepted bikjang, more material wins (기물승: by value; by count in Manual 2); equal material: Han, the second player (후수승)."),
    (Key::TooSmall, "The terminal is too small: {}×{} needed, {}×{} now"),
    (Key::GameHints, "Enter pick/move · : type · u undo · r redo · f flip · ? help · q quit"),
    (Key::ThinkingLine, "depth {}  {}  {} nps  PV: {}"),
    (Key::StatusThinkingShown, "Thinking line shown (t hides it)"),
    (Key::StatusThinkingHidden, "Thinking line hidden (t shows it)"),
    (Key::KeyThinking, "show or hide the CPU's thinking line"),
    (Key::KeyHint, "hint: the best move for you, shown on the board"),
    (Key::StatusHintSearching, "Looking for a good move…"),
    (Key::StatusHint, "Hint: {}"),
    (Key::KeyLiveAnalysis, "live analysis: the engine's best lines for the shown position; < > fewer/more lines"),
    (Key::StatusLiveOn, "Live analysis on ({}) — a stops it"),
    (Key::StatusLiveOff, "Live analysis off"),
    (Key::StatusLiveLines, "Analysis lines: {}"),
    (Key::StatusLiveFailed, "Live analysis stopped: {}"),
    (Key::LiveHeading, "Analysis · {}"),
    (Key::LiveScoreView, "+ favours {}"),
    (Key::LiveStats, "depth {} · {} nodes · {} nps"),
    (Key::LiveDone, "done"),
    (Key::LiveSearching, "Thinking…"),
    (Key::LiveWaiting, "Waiting: the CPU is thinking"),
    (Key::LiveNoMoves, "No legal move here: the game is over"),
    (Key::EngineMissing, "engine {}: the program '{}' was not found"),
    (Key::EngineSpawnFailed, "engine {} could not be started: {}"),
    (Key::EngineCrashed, "engine {} stopped running (while waiting for {})"),
    (Key::EngineTimeout, "engine {} did not answer within {} s (waiting for {})"),
    (Key::EngineIllegalMove, "engine {} played an illegal move '{}'"),
    (Key::EngineUnsupported, "engine {} cannot play {}"),
    (Key::EngineLineTooLong, "engine {} wrote a line of {} bytes, too long to read"),
    (Key::EngineNotAProgram, "engine {}: '{}' is a folder or not a program that can run"),
    (Key::EngineNoMove, "engine {} gave no move in a position with legal moves"),
    (Key::EngineFalseDeclaration, "the engine declared a win the rules do not give"),
    (Key::StatusEngineFailed, "{} — take over, or n for another opponent"),
    (Key::StatusHintFailed, "No hint: {}"),
    (Key::EngineNumber, "engine {}"),
    (Key::StatusDrawAccepted, "The draw offer was accepted"),
];

const KOREAN: &[(Key, &str)] = &[
    (Key::AppTitle, "qipan 棋盤"),
    (Key::NewGameHeading, "새 대국"),
    (Key::SettingsTitle, "설정"),
    (Key::SettingLanguage, "언어"),
    (Key::SettingGlyphs, "기물 글자"),
    (Key::SettingWidth, "선 너비"),
    (Key::SettingTheme, "테마"),
    (Key::SettingNotation, "기보 표기"),
    (Key::SettingCpuLevel, "컴퓨터 수준"),
    (Key::SettingBell, "알림음"),
    (Key::SettingsHints, "↑↓ 항목  ←→ 바꾸기  s 저장  Esc 닫기"),
    (Key::LanguageAuto, "자동 (LANG)"),
    (Key::GlyphsCjk, "한자"),
    (Key::GlyphsHangul, "한글"),
    (Key::GlyphsLatin, "로마자"),
    (Key::WidthNarrow, "좁게"),
    (Key::WidthWide, "넓게"),
    (Key::NotationAuto, "자동 (언어에 따라)"),
    (Key::On, "켬"),
    (Key::Off, "끔"),
    (Key::SettingsSaved, "설정을 {}에 저장했습니다"),
    (Key::SettingsSaveFailed, "설정을 저장하지 못했습니다: {}"),
    (Key::SettingsUnchanged, "마지막 저장 뒤 바뀐 설정이 없습니다"),
    (Key::KeySettings, "설정: 언어, 기물 글자, 테마, 기보 표기…"),
    (Key::MouseLabel, "마우스"),
    (Key::ConfigMoreProblems, "{} (외 {}개: qipan config check)"),
    (Key::NoConfigFolder, "설정 폴더가 없습니다: 홈 폴더를 찾지 못했습니다 (--config 파일을 쓰세요)"),
    (Key::ProblemLineColumn, "{}: {}행 {}열"),
    (Key::ProblemExpected, "{}: 키 \"{}\": {} 필요한데 적힌 값은 {}입니다"),
    (Key::ProblemUnknownKey, "{}: 알 수 없는 키 \"{}\" (무시함)"),
    (Key::ProblemInvalidToml, "{}: TOML 문법 오류: {} ({})"),
    (Key::ProblemEngineNeeds, "{}: [[engines]]에 \"{}\" 항목이 없어 이 엔진은 무시합니다"),
    (Key::ProblemUnreadable, "{}: 읽을 수 없습니다: {} ({})"),
    (Key::ProblemUnknownTheme, "{}: 알 수 없는 테마 \"{}\" (wood 테마를 씁니다)"),
    (Key::ProblemDuplicateEngine, "{}: 엔진 이름 \"{}\"이 두 번 나옵니다 (뒤의 것은 무시합니다)"),
    (Key::ProblemActionWithoutKey, "{}: \"{}\"에 키가 하나도 없습니다"),
    (Key::ProblemQuitKeyTaken, "{}: \"{}\"이 종료 키 \"{}\"를 가져갑니다 (종료는 Ctrl-C만 남습니다)"),
    (Key::ProblemUnknownRoleField, "{}: 키 \"{}\": 역할에는 fg, bg, modifiers만 쓸 수 있습니다"),
    (Key::FallbackEveryDefault, "모든 설정을 기본값으로 씁니다"),
    (Key::FallbackWood, "wood 테마를 씁니다"),
    (Key::FallbackSectionSkipped, "그 부분만 기본값으로 두고 나머지는 읽습니다"),
    (Key::FoundTable, "테이블"),
    (Key::FoundNothing, "빈 값"),
    (Key::ExpectedOneOf, "{} 중 하나가"),
    (Key::ExpectedOneOfOrThemePath, "{} 중 하나나 테마 파일 경로가"),
    (Key::ExpectedString, "문자열이"),
    (Key::ExpectedTrueOrFalse, "true나 false가"),
    (Key::ExpectedTable, "테이블이"),
    (Key::ExpectedWholeNumber, "{}부터 {}까지의 정수가"),
    (Key::ExpectedColour, "색 값(\"#rrggbb\", \"red\"·\"darkgray\" 같은 이름, 또는 0-255)이"),
    (Key::ExpectedStringList, "문자열 목록이"),
    (Key::ExpectedKeyNames, "[\"u\", \"Ctrl-z\", \"F2\"] 같은 키 이름 목록이"),
    (Key::ExpectedTimeControl, "제한 시간(none, 10m, 5m+3s, 10m 3x30s 같은 형식)이"),
    (Key::ExpectedEngineTables, "[[engines]] 테이블이"),
    (Key::ExpectedValue, "값이"),
    (Key::ExpectedOptionsTable, "이름 = 값 형식의 테이블이"),
    (Key::ExpectedRoleTable, "{ fg = \"#c81e1e\", modifiers = [\"bold\"] } 같은 테이블이"),
    (Key::ExpectedModifier, "bold, dim, italic, underlined, reversed, crossed_out 중 하나가"),
    (Key::ExpectedModifierList, "[\"bold\"] 같은 목록이"),
    (Key::ConfigCheckOk, "{}: 이상 없음"),
    (Key::ConfigCheckDefaults, "기본값"),
    (Key::ConfigCheckProblems, "설정에 문제가 {}개 있습니다"),
    (Key::ConfigCheckOneProblem, "설정에 문제가 1개 있습니다"),
    (Key::ConfigPathMissing, "(파일이 없어 기본값을 씁니다)"),
    (Key::ConfigUnknownLanguage, "알 수 없는 언어 '{}': en, ko, zh, ja 중 하나를 쓰세요"),
    (Key::ThemeWood, "나무"),
    (Key::ThemeDark, "어두운"),
    (Key::ThemeContrast, "고대비"),
    (Key::ThemeSixteen, "16색"),
    (Key::NotationChineseTraditional, "중국식 (번체)"),
    (Key::NotationChineseSimplified, "중국식 (간체)"),
    (Key::NotationWxf, "WXF"),
    (Key::NotationIccs, "ICCS"),
    (Key::NotationJapanese, "일본식"),
    (Key::NotationHodges, "서양식 (Hodges)"),
    (Key::NotationUsi, "USI"),
    (Key::NotationKoreanHangul, "한국식 (한글)"),
    (Key::NotationKoreanHanja, "한국식 (한자)"),
    (Key::NotationEngine, "엔진 좌표"),
    (Key::FieldGame, "게임"),
    (Key::FieldRules, "규칙"),
    (Key::FieldHanSetup, "한 상차림"),
    (Key::FieldChoSetup, "초 상차림"),
    (Key::FieldHandicap, "치수(핸디캡)"),
    (Key::FieldTime, "시간"),
    (Key::TimeUnlimited, "무제한"),
    (Key::StatusPausedHint, "시계 멈춤: P 다시 시작"),
    (Key::StatusComputersHeld, "무르기 뒤 컴퓨터 멈춤: P로 다시 두기"),
    (Key::StatusBoardFlipped, "판 뒤집음"),
    (Key::StatusFlipEveryTurnOn, "매 수 판 돌리기 켬"),
    (Key::StatusFlipEveryTurnOff, "매 수 판 돌리기 끔"),
    (Key::StatusNoMoves, "그 기물은 둘 수 있는 수가 없습니다"),
    (Key::StatusNoMovesCheck, "그 기물은 둘 수 있는 수가 없습니다: 장군을 받고 있어 막을 수 없습니다"),
    (Key::StatusNoMovesPinned, "그 기물은 둘 수 있는 수가 없습니다: 움직이면 장군을 받게 됩니다"),
    (Key::StatusNoMovesBikjang, "그 기물은 둘 수 있는 수가 없습니다: 먼저 빅장에 답하세요 (p로 받기)"),
    (Key::WinsByCheckmate, "{} 외통승"),
    (Key::WinsByResignation, "{} 기권승"),
    (Key::WinsOnPoints, "점수 우세로 {} 승"),
    (Key::WinsAsSecondOnEqualPoints, "동점이라 후수 {} 승 (후수승)"),
    (Key::DrawBy, "{} 무승부"),
    (Key::StatusNoClock, "이 대국에는 멈출 시계가 없습니다"),
    (Key::StatusLostOnTime, "시간패로 끝난 대국은 무를 수 없습니다"),
    (Key::Paused, "일시 정지"),
    (Key::ConfirmUndo, "두 사람 모두 무르기에 동의합니까?"),
    (Key::ConfirmRedo, "두 사람 모두 무른 수를 다시 두는 데 동의합니까?"),
    (Key::ConfirmOverwrite, "{} 파일이 이미 있습니다. 바꿀까요?"),
    (Key::RanOutOfTime, "{} 시간 초과"),
    (Key::KeyPause, "시계 멈춤"),
    (Key::TimeUnits, "시간 분 초"),
    (Key::ByoyomiControl, "{} | {} ×{}"),
    (Key::StartButton, "대국 시작"),
    (Key::StartHints, "↑↓ 항목  ←→ 바꾸기  Enter 시작  L 기보 열기  o 설정  ? 도움말  q 종료"),
    (Key::Human, "사람"),
    (Key::ComputerLevel, "컴퓨터 {}단계 {}"),
    (Key::Level1, "입문"),
    (Key::Level2, "초보"),
    (Key::Level3, "초급"),
    (Key::Level4, "초중급"),
    (Key::Level5, "중급"),
    (Key::Level6, "중상급"),
    (Key::Level7, "상급"),
    (Key::Level8, "유단자"),
    (Key::Level9, "상수"),
    (Key::Level10, "고수"),
    (Key::GameXiangqi, "샹치 象棋"),
    (Key::GameShogi, "쇼기 将棋"),
    (Key::GameJanggi, "장기 將棋"),
    (Key::GameGungjanggi, "궁장기"),
    (Key::RulesStandard, "표준"),
    (Key::RulesKja, "장기협회 (점수제)"),
    (Key::RulesTraditional, "전통"),
    (Key::RulesModern, "현대 (카카오)"),
    (Key::RulesCasual, "친선"),
    (Key::RulesGungjanggiSilver, "매뉴얼 1 (실버)"),
    (Key::RulesGungjanggiDan, "매뉴얼 2 (유단자)"),
    (Key::SetupPreview, "상차림 미리보기"),
    (Key::SideRed, "홍"),
    (Key::SideBlack, "흑"),
    (Key::SideSente, "선수"),
    (Key::SideGote, "후수"),
    (Key::SideCho, "초"),
    (Key::SideHan, "한"),
    (Key::AnalysisPly, "수"),
    (Key::AnalysisMove, "둔 수"),
    (Key::AnalysisScore, "형세"),
    (Key::AnalysisBest, "최선수"),
    (Key::AnalysisMark, "평가"),
    (Key::AnalysisLine, "수순"),
    (Key::AnalysisNodesPerPosition, "국면당 {} 노드"),
    (Key::AnalysisSecondsPerPosition, "국면당 {}초"),
    (Key::ToMove, "{} 차례"),
    (Key::MovesHeading, "기보"),
    (Key::CapturedHeading, "잡은 기물"),
    (Key::ScoreHeading, "점수"),
    (Key::HandHeading, "손에 든 기물"),
    (Key::InCheck, "장군!"),
    (Key::BikjangPending, "빅장! 한수쉼(p)으로 받거나 피하세요"),
    (Key::Thinking, "컴퓨터가 생각 중…"),
    (Key::Reviewing, "복기 {} / {}  (End: 돌아가기)"),
    (Key::GameFinished, "대국 종료: {}"),
    (Key::StatusChoosePiece, "기물을 고르세요"),
    (Key::StatusChooseTarget, "옮길 곳을 고르세요"),
    (Key::StatusChooseDrop, "놓을 곳을 고르세요"),
    (Key::StatusIllegal, "둘 수 없음: {}"),
    (Key::StatusHandEmpty, "가진 기물이 없습니다"),
    (Key::StatusNoPass, "이 게임에는 한수쉼이 없습니다"),
    (Key::StatusNothingToUndo, "무를 수가 없습니다"),
    (Key::StatusNothingToRedo, "다시 둘 수가 없습니다"),
    (Key::StatusUnknownMove, "'{}' 수를 읽을 수 없습니다"),
    (Key::StatusDrawDeclined, "무승부 제안이 거절되었습니다"),
    (Key::StatusReviewOnly, "복기 중: 둘 차례인 쪽 기물을 고르면 여기서 이어 두고, End 키는 대국으로 돌아갑니다"),
    (Key::StatusWaitComputer, "컴퓨터 차례입니다"),
    (Key::StatusGameOver, "대국이 끝났습니다: n 새 대국, q 종료"),
    (Key::PromptLabel, "수: "),
    (Key::PromptHint, "어느 표기든: 炮二平五, ７六歩, 79졸78 · #12는 12수째로 · Esc 취소"),
    (Key::StatusNoSuchMove, "'{}': 이 대국은 0수부터 {}수까지 있습니다"),
    (Key::PromoteTitle, "승격할까요?"),
    (Key::PromoteYes, "승격 (y)"),
    (Key::PromoteNo, "승격 안 함 (n)"),
    (Key::ConfirmQuit, "대국은 저장됩니다. 종료할까요?"),
    (Key::ConfirmResign, "{} 기권할까요?"),
    (Key::DrawOffer, "{} 무승부 제안. {}, 받겠습니까?"),
    (Key::YesNo, "y 예 · n 아니오"),
    (Key::GameOverTitle, "대국 종료"),
    (Key::Wins, "{} 승"),
    (Key::Draw, "무승부"),
    (Key::FinalScores, "점수 {} {} · {} {}"),
    (Key::ChoiceReview, "복기하기"),
    (Key::ChoiceNewGame, "새 대국"),
    (Key::ChoiceQuit, "종료"),
    (Key::ChoiceAnalyse, "대국 분석"),
    (Key::ReasonCheckmate, "외통"),
    (Key::ReasonStalemate, "둘 수가 없음"),
    (Key::ReasonPerpetualCheck, "연속 장군"),
    (Key::ReasonRepetition, "반복"),
    (Key::ReasonBikjang, "빅장"),
    (Key::ReasonMoveLimit, "수 제한"),
    (Key::ReasonInsufficientMaterial, "기물 부족"),
    (Key::ReasonImpasse, "입옥 점수"),
    (Key::ReasonDoublePass, "연속 한수쉼"),
    (Key::ReasonResignation, "기권"),
    (Key::ReasonFoul, "반칙"),
    (Key::ReasonTimeout, "시간 초과"),
    (Key::ReasonAgreement, "합의"),
    (Key::ReasonFirstCheck, "장군승 (판정 단계의 첫 장군)"),
    (Key::ReasonMaterial, "기물승"),
    (Key::ReasonSecondPlayer, "후수승 (기물 같음)"),
    (Key::GungKingNormal, "궁 보통"),
    (Key::GungKingPromoted, "궁 진급"),
    (Key::GungBikjangLeft, "빅장 남음"),
    (Key::GungBikjangUsed, "빅장 씀"),
    (Key::GungPasses, "연속 쉼 {}/2"),
    (Key::GungNoThirdPass, "연속 쉼 2/2: 더 못 쉼"),
    (Key::GungPendingAccept, "빅장! p 받기 = 기물로 판정"),
    (Key::GungPendingBreak, "피하거나 막기 = 내 궁 진급"),
    (Key::GungJudgingBanner, "판정 단계 · {}"),
    (Key::GungCauseDraw, "판정 요청 합의"),
    (Key::GungCauseBikjang, "빅장 받음"),
    (Key::GungCauseQuiet, "{}수 동안 잡지 않음"),
    (Key::GungCauseBare, "궁과 사만 남음"),
    (Key::GungCauseSetUp, "시작 국면부터"),
    (Key::GungFirstCheckWins, "첫 장군이 이깁니다"),
    (Key::GungMaterialIn, "{}수 뒤 기물 판정"),
    (Key::GungMaterialByValue, "기물(값)"),
    (Key::GungMaterialByCount, "기물(수)"),
    (Key::GungLeader, "→ {} 우세"),
    (Key::GungEqual, "→ 같음: 후수 {} 승"),
    (Key::GungEventBikjangCalled, "{} 빅장! {}: p로 받으면 기물 판정 · 피하거나 막으면 궁 진급"),
    (Key::GungEventKingPromoted, "{} 궁 진급: 이제 열린 줄의 상대 궁을 잡습니다 (마주 보면 장군)"),
    (Key::GungEventSoldierPromoted, "{} 졸 진급: 이제 앞·뒤·옆으로 한 칸씩 움직입니다"),
    (Key::GungEventAdvisorsPromoted, "사 진급 (한쪽 졸이 모두 잡힘): 진급한 졸처럼도 움직이고 궁성을 나갈 수 있습니다"),
    (Key::GungEventJudging, "판정 단계 ({}): 첫 장군이 이깁니다, 없으면 {}수 뒤 기물 판정"),
    (Key::GungEventBikjangAccepted, "{} 빅장 받음: 기물로 판정합니다"),
    (Key::KeyJudge, "판정 요청 (궁장기는 비김이 없어 판정 단계로 갑니다)"),
    (Key::KeyPassGungjanggi, "한수쉼 (세 번 연속 금지; 빅장일 때는 빅장 받기)"),
    (Key::HelpGungKing, "진급한 궁: 열린 줄에서 상대 궁을 차처럼 잡습니다. 진급한 궁과 마주 보면 장군입니다. 빅장을 피하거나 막으면 내 궁이, 판정 단계가 되면 두 궁이 모두 진급합니다."),
    (Key::HelpGungSoldier, "진급한 졸 (매뉴얼 2): 끝 줄에 닿으면 진급해 앞·뒤·옆으로 한 칸씩 (궁성 대각선 포함) 움직입니다."),
    (Key::HelpGungAdvisor, "진급한 사 (매뉴얼 2): 한쪽의 졸이 모두 잡히면 궁성 안의 사가 진급해 사의 길에 더해 진급한 졸처럼 움직이고 궁성을 나갈 수 있습니다."),
    (Key::JudgeOffer, "{} 판정 요청 (비김 없음: 첫 장군 승, 그다음 기물). {}, 받겠습니까?"),
    (Key::StatusJudgeAccepted, "판정 요청을 받아들였습니다: 판정 단계 시작"),
    (Key::IllegalThirdPass, "한수쉼 반복 금지: 세 번 연속 쉴 수 없습니다"),
    (Key::MovePass, "한수쉼"),
    (Key::MoveAcceptBikjang, "빅장 받음"),
    (Key::MaterialTotals, "{} {} : {} {}"),
    (Key::IllegalNoPiece, "그 자리에 내 기물이 없습니다"),
    (Key::IllegalNotAMove, "그 기물은 거기로 갈 수 없습니다"),
    (Key::IllegalWrongPiece, "{} 자리의 기물은 {}입니다"),
    (Key::IllegalNotWrittenHere, "그렇게 적는 수가 지금 국면에는 없습니다"),
    (Key::IllegalNotAllowed, "지금은 둘 수 없는 수입니다"),
    (Key::IllegalLeavesInCheck, "장군을 받게 됩니다"),
    (Key::IllegalFlyingGeneral, "두 장수가 마주보게 됩니다"),
    (Key::IllegalTwoPawns, "니후: 같은 줄에 두 번째 보"),
    (Key::IllegalDropPawnMate, "우치후즈메: 보를 놓아 외통을 만들 수 없습니다"),
    (Key::IllegalDeadPiece, "그 기물은 다시 움직일 수 없게 됩니다"),
    (Key::IllegalCannotPromote, "이 수로는 승격할 수 없습니다"),
    (Key::IllegalMustPromote, "여기서는 반드시 승격해야 합니다"),
    (Key::IllegalNotInHand, "그 기물을 갖고 있지 않습니다"),
    (Key::IllegalCannotPass, "지금은 한수쉼을 할 수 없습니다"),
    (Key::IllegalRepetition, "반복 수 금지: 같은 국면이 세 번째로 나오게 됩니다"),
    (Key::IllegalBikjangCalled, "빅장은 이미 한 번 불렀습니다"),
    (Key::IllegalGameOver, "대국이 끝났습니다"),
    (Key::HelpTitle, "도움말"),
    (Key::HelpKeys, "키"),
    (Key::HelpPieces, "기물"),
    (Key::HelpRules, "특별 규칙"),
    (Key::HelpClose, "↑↓ 스크롤 · Esc 닫기"),
    (Key::KeyMoveCursor, "커서 이동"),
    (Key::KeySelect, "기물을 고르고 옮길 곳 고르기"),
    (Key::KeyCancel, "선택이나 창 취소"),
    (Key::KeyHand, "커서를 손 기물로 (쇼기 놓기)"),
    (Key::KeyPrompt, "수 입력 (h3e3, 7g7f, P*5e)"),
    (Key::KeyPass, "한수쉼 (장기)"),
    (Key::KeyUndo, "무르기"),
    (Key::KeyRedo, "다시 두기"),
    (Key::KeyHistory, "기보 앞뒤로 보기"),
    (Key::KeyHistoryEnds, "처음 / 마지막 국면"),
    (Key::KeyFlip, "판 뒤집기"),
    (Key::KeyFlipEveryTurn, "같은 자리 대국: 수마다 판 돌리기 (켜기/끄기)"),
    (Key::KeyNotation, "기보 표기 바꾸기"),
    (Key::StatusNotation, "기보 표기: {}"),
    (Key::ContinueSavedGame, "이어 두기: {}, {}수"),
    (Key::ContinueSavedGameRounds, "이어 두기: {}, {}번째 수"),
    (Key::CustomStart, "임의 국면"),
    (Key::StatusAutosaveUnreadable, "저장된 대국을 불러오지 못함: {}"),
    (Key::AutosaveKeptAside, "{}(으)로 보관했습니다"),
    (Key::AutosaveRestoredPartly, "저장된 대국 파일이 손상되어 {}을(를) 빼고 이어 갑니다. 손상된 파일은 {}(으)로 보관했습니다"),
    (Key::DroppedPlayers, "대국자 설정(이제 둘 다 사람)"),
    (Key::DroppedClock, "시계(이제 시간 제한 없음)"),
    (Key::DroppedMoveTimes, "수마다 쓴 시간"),
    (Key::DroppedMovesFrom, "{}수째부터의 수"),
    (Key::DroppedTree, "손상된 곳 뒤의 변화수와 주석"),
    (Key::DroppedSetting, "'{}' 설정"),
    (Key::DroppedUnknownLine, "알 수 없는 줄 '{}'"),
    (Key::DroppedSecondLine, "두 번 나온 '{}' 줄"),
    (Key::FolderIsAFile, "{}은(는) 파일입니다: 그 자리에 폴더가 있어야 합니다"),
    (Key::StatusAutosaveFailed, "자동 저장 실패: {}"),
    (Key::KeySave, "기보를 파일로 저장(PGN, 쇼기는 KIF)"),
    (Key::KeyOpen, "기보 열기: 저장한 대국과 끝난 대국, 또는 PGN/KIF/CSA/.gib 파일"),
    (Key::OpenPromptTitle, "기보 열기"),
    (Key::OpenPromptHint, "파일 이름이나 경로를 입력하거나 ↑↓로 내 대국 고르기 · Enter 열기 · Esc 취소"),
    (Key::OpenNoRecords, "(아직 저장했거나 끝난 대국이 없습니다)"),
    (Key::StatusOpenFailed, "열지 못함: {}"),
    (Key::StatusOpenNeedsNoGame, "대국 중입니다: 기보를 열려면 대국을 끝내거나 새 대국(n)을 고르세요"),
    (Key::KeyShowFen, "현재 국면의 FEN 보기(쇼기는 SFEN)"),
    (Key::SavePromptLabel, "저장할 이름: "),
    (Key::SavePromptHint, "파일 이름(경로가 없으면 games 폴더) · Enter 저장 · Esc 취소"),
    (Key::SaveNameMissing, "파일 이름이 없습니다"),
    (Key::StatusSaved, "저장했습니다: {}"),
    (
        Key::StatusSavedAsUtf8,
        "UTF-8로 저장했습니다: {} ('{}'은(는) Shift_JIS(.kif)로 쓸 수 없습니다)",
    ),
    (Key::SaveIsFolder, "{}은(는) 폴더입니다: 파일 이름을 입력하세요"),
    (Key::SaveFolderMissing, "{} 폴더가 없습니다"),
    (Key::StatusSaveFailed, "저장하지 못함: {}"),
    (Key::StatusFen, "FEN: {}"),
    (Key::StatusOpened, "기보를 열었습니다: {}수 · [ ]로 넘겨 보고, 어느 국면에서든 이어 둘 수 있습니다"),
    (Key::StatusOpenedGameOf, "{}번째 대국을 열었습니다 (전체 {}판, {}수) · 다른 대국은 이름 뒤에 #번호"),
    (Key::StatusNoSuchGame, "{}: {}번째 대국이 없습니다 (전체 {}판)"),
    (Key::StatusOpenedPartly, "기보를 문제가 있는 곳까지 읽었습니다: {}"),
    (Key::StatusOpening, "{} 읽는 중… (Esc: 취소)"),
    (Key::StatusOpeningBytes, "{} 읽는 중: {} / {} MiB… (Esc: 취소)"),
    (Key::StatusOpeningGames, "{} 읽는 중: 대국 {}판을 찾았습니다… (Esc: 취소)"),
    (Key::StatusOpeningCancelled, "{} 열기를 취소했습니다. 바뀐 것은 없습니다"),
    (Key::ImportGame, "{}번째 대국"),
    (Key::ImportLine, "{}행"),
    (Key::ImportMove, "{}수째"),
    (Key::StatusBranched, "{}수째부터 이어 둡니다: 뒤의 수는 남습니다(r로 다시 두기, 다른 수는 변화수가 됩니다)"),
    (Key::KeyVariations, "여기의 변화수: Enter 바꾸기, + 본선으로, x 지우기, u 지우기 취소"),
    (Key::StatusVariationMade, "{}수째에 새 변화수를 만들었습니다. 원래 수순은 남아 있습니다(b로 보기)"),
    (Key::StatusVariationSwitched, "변화수 {}(으)로 바꿨습니다"),
    (Key::StatusVariationPromoted, "{}을(를) 본선으로 올렸습니다"),
    (Key::StatusVariationDeleted, "변화수 {}을(를) 지웠습니다(목록에서 u로 되살림)"),
    (Key::StatusVariationRestored, "변화수 {}을(를) 되살렸습니다"),
    (Key::StatusNothingToRestore, "되살릴 변화수가 없습니다"),
    (Key::KeyAnalyse, "이 대국 분석하기 (Esc로 멈춤)"),
    (Key::KeyMistakes, "앞 / 다음 실수 (?! ? ??), 양쪽 모두"),
    (Key::KeyMistakesOfSide, "앞 / 다음 실수, 내 쪽만"),
    (Key::KeyLearn, "실수에서 배우기: 더 나은 수 찾기 (Esc로 나감)"),
    (Key::StatusAnalysing, "분석 중: {}/{} 국면 · Esc로 멈춤"),
    (Key::StatusAnalysisDone, "{} 분석 끝: ?! {}개  ? {}개  ?? {}개 · { }로 실수 찾기, M으로 다시 두어 보기"),
    (Key::StatusAnalysisStopped, "분석을 멈췄습니다"),
    (Key::StatusAnalysisFailed, "분석 실패: {}"),
    (Key::StatusAnalysisBusy, "이미 분석 중입니다 (Esc로 멈춤)"),
    (Key::StatusNothingToAnalyse, "아직 분석할 수가 없습니다"),
    (Key::StatusNoMoreMistakes, "그쪽으로는 표시된 수가 더 없습니다"),
    (Key::StatusNotAnalysed, "아직 표시가 없습니다: A를 눌러 분석하세요"),
    (Key::StatusMistakeAt, "{}수: {} · 최선은 {}"),
    (Key::LearnTitle, "실수에서 배우기"),
    (Key::LearnExercise, "문제 {} / {}"),
    (Key::LearnPlayed, "대국에서 {}수째에 둔 수: {}"),
    (Key::LearnFind, "{}의 더 나은 수를 찾아 보세요"),
    (Key::LearnKeys, "H 힌트 · { } 문제 이동 · Esc 돌아가기"),
    (Key::LearnSolvedCount, "{} / {} 해결"),
    (Key::LearnAnswer, "엔진의 답: {}"),
    (Key::StatusLearnRight, "{} 좋은 수입니다! }로 다음 문제"),
    (Key::StatusLearnWrong, "{}은(는) 더 낫지 않습니다 · 다시 해 보세요 (H 힌트)"),
    (Key::StatusLearnSame, "대국에서 둔 수입니다 · 다른 수를 찾아 보세요"),
    (Key::StatusLearnChecking, "{} 확인 중…"),
    (Key::StatusLearnHint, "힌트: 표시된 기물을 움직이세요 (H를 다시 누르면 답)"),
    (Key::StatusNoExercises, "다시 둘 내 실수가 없습니다 (먼저 A로 분석)"),
    (Key::StatusLearnLeft, "대국으로 돌아왔습니다"),
    (Key::GraphHeading, "형세"),
    (Key::VariationsTitle, "{}수 뒤의 변화수"),
    (Key::VariationsEmpty, "이 국면 뒤에 둔 수가 아직 없습니다"),
    (Key::VariationsHint, "Enter 바꾸기 · + 본선으로 · x 지우기 · u 지우기 취소 · Esc 닫기"),
    (Key::VariationMainLine, "본선"),
    (Key::StatusMoveRefused, "'{}': {}"),
    (Key::StatusAmbiguousMove, "'{}' 수가 여럿입니다: {}"),
    (Key::KeyResign, "기권"),
    (Key::KeyDraw, "무승부 제안"),
    (Key::KeyNewGame, "새 대국"),
    (Key::KeyHelp, "이 도움말"),
    (Key::KeyQuit, "종료 (대국 중에는 묻습니다)"),
    (Key::KeyForceQuit, "바로 종료"),
    (Key::KeyMouse, "기물을 누르고 옮길 곳 누르기"),
    (Key::PieceXiangqiGeneral, "장(將): 궁 안에서 가로세로 한 칸"),
    (Key::PieceXiangqiAdvisor, "사(士): 궁 안에서 대각선 한 칸"),
    (Key::PieceXiangqiElephant, "상(象): 대각선 두 칸, 막히면 못 감, 강을 못 건넘"),
    (Key::PieceXiangqiHorse, "마(馬): 한 칸 직진 후 대각선 한 칸, 바로 옆이 막히면 못 감"),
    (Key::PieceXiangqiChariot, "차(車): 가로세로 몇 칸이든"),
    (Key::PieceXiangqiCannon, "포(砲): 차처럼 움직이고, 기물 하나를 넘어서만 잡음"),
    (Key::PieceXiangqiSoldier, "졸(卒): 앞으로 한 칸, 강을 건너면 옆으로도"),
    (Key::PieceJanggiGeneral, "궁(楚/漢): 궁 안의 선을 따라 한 칸 (대각선 포함)"),
    (Key::PieceJanggiAdvisor, "사(士): 궁 안의 선을 따라 한 칸"),
    (Key::PieceJanggiElephant, "상(象): 직진 한 칸 후 대각선 두 칸, 길이 막히면 못 감"),
    (Key::PieceJanggiHorse, "마(馬): 직진 한 칸 후 대각선 한 칸, 길이 막히면 못 감"),
    (Key::PieceJanggiChariot, "차(車): 가로세로 몇 칸이든, 궁의 대각선도"),
    (Key::PieceJanggiCannon, "포(包): 기물 하나(포 제외)를 넘어야 움직이거나 잡음"),
    (Key::PieceJanggiSoldier, "졸/병: 앞이나 옆으로 한 칸, 궁 안에서는 대각선 앞으로도"),
    (Key::PieceShogiKing, "왕(玉/王): 어느 방향으로든 한 칸"),
    (Key::PieceShogiRook, "비차(飛): 가로세로 몇 칸이든, 승격한 龍은 대각선 한 칸 더"),
    (Key::PieceShogiBishop, "각(角): 대각선 몇 칸이든, 승격한 馬는 가로세로 한 칸 더"),
    (Key::PieceShogiGold, "금(金): 가로세로 한 칸 또는 대각선 앞 한 칸"),
    (Key::PieceShogiSilver, "은(銀): 대각선 한 칸 또는 바로 앞 한 칸"),
    (Key::PieceShogiKnight, "계마(桂): 앞으로 두 칸, 옆으로 한 칸, 뛰어넘음"),
    (Key::PieceShogiLance, "향차(香): 앞으로 몇 칸이든"),
    (Key::PieceShogiPawn, "보(歩): 앞으로 한 칸"),
    (Key::PieceShogiPromoted, "승격한 은·계마·향차·보는 금처럼 움직임"),
    (Key::RulesXiangqi, "두 장수는 열린 줄에서 마주볼 수 없습니다. 둘 수가 없으면 집니다. 연속 장군은 지고, 다른 세 번 반복은 무승부, 잡지 않고 각 60수면 무승부."),
    (Key::RulesShogi, "상대 진영 세 줄에 들어가거나, 나오거나, 그 안에서 움직이면 승격할 수 있습니다. 잡은 기물은 손에 들어와 놓을 수 있습니다. 같은 줄에 보 두 개(니후)와 보를 놓아 외통(우치후즈메)은 금지. 네 번 반복은 무승부, 연속 장군은 패."),
    (Key::RulesJanggi, "초가 먼저 둡니다. 장군이 아닐 때 한수쉼(p)을 할 수 있습니다. 빅장은 피하거나 한수쉼으로 받으며, 그러면 점수로 가립니다. 점수: 차 13, 포 7, 마 5, 상 3, 사 3, 졸 2, 한 +1.5."),
    (Key::RulesGungjanggi, "궁장기: 비기는 일이 없습니다. 빅장은 한 번씩만 부를 수 있고, 빅장을 피하거나 막으면 궁이 진급해(판에 표시) 열린 줄의 상대 궁을 잡을 수 있습니다. 한수쉼 세 번 연속, 같은 국면 세 번은 금지. 비기는 국면(판정 요청(D) 합의, 빅장 받기, 100수 동안 잡지 않음, 궁과 사만 남음)이 되면 판정 단계: 먼저 장군을 부르는 쪽이 이기고(장군승), 20수가 지나거나 빅장을 받으면 기물이 많은 쪽이 이기며(기물승, 매뉴얼 2는 기물 수), 같으면 후수인 한이 이깁니다(후수승)."),
    (Key::TooSmall, "터미널이 너무 작습니다: {}×{} 필요, 지금 {}×{}"),
    (Key::GameHints, "Enter 고르기/두기 · : 입력 · u 무르기 · r 다시 · f 뒤집기 · ? 도움말 · q 종료"),
    (Key::ThinkingLine, "깊이 {}  {}  {} nps  수읽기: {}"),
    (Key::StatusThinkingShown, "수읽기 줄을 보입니다 (t로 숨김)"),
    (Key::StatusThinkingHidden, "수읽기 줄을 숨깁니다 (t로 보임)"),
    (Key::KeyThinking, "컴퓨터의 수읽기 줄 보이기/숨기기"),
    (Key::KeyHint, "훈수: 내게 좋은 수를 판에 표시"),
    (Key::StatusHintSearching, "좋은 수를 찾는 중…"),
    (Key::StatusHint, "훈수: {}"),
    (Key::KeyLiveAnalysis, "실시간 분석: 보이는 국면에서 엔진이 읽은 좋은 수순; < > 줄 수 줄이기/늘리기"),
    (Key::StatusLiveOn, "실시간 분석 시작 ({}) — a를 누르면 끝"),
    (Key::StatusLiveOff, "실시간 분석 끝"),
    (Key::StatusLiveLines, "분석 수순 수: {}"),
    (Key::StatusLiveFailed, "실시간 분석 중단: {}"),
    (Key::LiveHeading, "분석 · {}"),
    (Key::LiveScoreView, "+는 {} 유리"),
    (Key::LiveStats, "깊이 {} · {} 노드 · {} nps"),
    (Key::LiveDone, "완료"),
    (Key::LiveSearching, "읽는 중…"),
    (Key::LiveWaiting, "대기: 컴퓨터가 생각하는 중"),
    (Key::LiveNoMoves, "둘 수 있는 수가 없음: 대국 끝"),
    (Key::EngineMissing, "엔진 {}: 프로그램 '{}'을(를) 찾을 수 없습니다"),
    (Key::EngineSpawnFailed, "엔진 {}을(를) 시작할 수 없습니다: {}"),
    (Key::EngineCrashed, "엔진 {}이(가) 멈췄습니다 ({} 기다리는 중)"),
    (Key::EngineTimeout, "엔진 {}이(가) {}초 안에 답하지 않았습니다 ({} 기다리는 중)"),
    (Key::EngineIllegalMove, "엔진 {}이(가) 둘 수 없는 수 '{}'을(를) 두었습니다"),
    (Key::EngineUnsupported, "엔진 {}은(는) {}을(를) 둘 수 없습니다"),
    (Key::EngineLineTooLong, "엔진 {}이(가) 읽기에 너무 긴 줄({}바이트)을 보냈습니다"),
    (Key::EngineNotAProgram, "엔진 {}: '{}'은(는) 폴더이거나 실행할 수 있는 프로그램이 아닙니다"),
    (Key::EngineNoMove, "엔진 {}이(가) 둘 수 있는 수가 있는데 수를 내지 않았습니다"),
    (Key::EngineFalseDeclaration, "엔진이 규칙에 맞지 않는 승리를 선언했습니다"),
    (Key::StatusEngineFailed, "{} — 직접 두거나 n으로 상대를 바꾸세요"),
    (Key::StatusHintFailed, "훈수 없음: {}"),
    (Key::EngineNumber, "엔진 {}"),
    (Key::StatusDrawAccepted, "무승부 제안을 받아들였습니다"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_has_a_text_in_every_language() {
        for language in Language::ALL {
            for &key in Key::ALL {
                let found = lookup(language.table(), key);
                assert!(
                    found.is_some_and(|t| !t.is_empty()),
                    "{key:?} missing in {language:?}"
                );
            }
            assert_eq!(
                language.table().len(),
                Key::ALL.len(),
                "{language:?} has duplicates"
            );
        }
    }

    #[test]
    fn placeholders_agree_between_languages() {
        for language in Language::ALL {
            for &key in Key::ALL {
                let count = |language: Language| language.text(key).matches("{}").count();
                assert_eq!(
                    count(language),
                    count(Language::English),
                    "{key:?} in {language:?}"
                );
            }
        }
    }

    /// Translations are not English left in place: every key whose English text has
    /// letters reads differently in Chinese and Japanese, apart from names such as USI.
    #[test]
    fn chinese_and_japanese_are_translated() {
        let same_everywhere = [
            Key::AppTitle,
            Key::NotationWxf,
            Key::NotationIccs,
            Key::NotationUsi,
            Key::StatusFen,
            Key::StatusMoveRefused,
        ];
        for language in [Language::Chinese, Language::Japanese] {
            for &key in Key::ALL {
                if same_everywhere.contains(&key) {
                    continue;
                }
                let text = language.text(key);
                assert_ne!(text, Language::English.text(key), "{key:?} in {language:?}");
                let hangul = |c: char| ('\u{AC00}'..='\u{D7A3}').contains(&c);
                assert!(!text.chars().any(hangul), "{key:?} in {language:?}: {text}");
                // Kana belong to Japanese only.
                let kana = |c: char| ('\u{3041}'..='\u{30FF}').contains(&c);
                if language == Language::Chinese {
                    assert!(!text.chars().any(kana), "{key:?} in Chinese: {text}");
                }
            }
        }
    }

    #[test]
    fn locale_names() {
        assert_eq!(Language::from_locale("ko_KR.UTF-8"), Language::Korean);
        assert_eq!(Language::from_locale("en_US.UTF-8"), Language::English);
        assert_eq!(Language::from_locale("C"), Language::English);
        assert_eq!(Language::from_locale("zh_CN.UTF-8"), Language::Chinese);
        assert_eq!(Language::from_locale("zh_TW.UTF-8"), Language::Chinese);
        assert_eq!(Language::from_locale("ja_JP.UTF-8"), Language::Japanese);
        assert_eq!(Language::from_locale("japanese"), Language::Japanese);
        assert_eq!(Language::from_locale("jam"), Language::English);
        assert_eq!(Language::from_code("zh-CN"), Some(Language::Chinese));
        assert_eq!(Language::from_code("JA-jp"), Some(Language::Japanese));
        assert_eq!(Language::from_code("fr"), None);
        for language in Language::ALL {
            assert_eq!(Language::from_code(language.code()), Some(language));
        }
        assert_eq!(Language::Korean.computer_level(3), "컴퓨터 3단계 초급");
    }

    #[test]
    fn each_language_defaults_to_the_notation_its_readers_use() {
        use crate::rules::janggi::JanggiRules;
        let janggi = Variant::Janggi(JanggiRules::KJA);
        let chinese = Language::Chinese;
        let japanese = Language::Japanese;
        assert_eq!(
            chinese.default_notation(Variant::Xiangqi),
            Notation::Chinese { simplified: true }
        );
        assert_eq!(
            japanese.default_notation(Variant::Shogi),
            Notation::Japanese
        );
        assert_eq!(chinese.default_notation(Variant::Shogi), Notation::Japanese);
        assert_eq!(
            japanese.default_notation(Variant::Xiangqi),
            Notation::Chinese { simplified: false }
        );
        assert_eq!(
            japanese.default_notation(janggi),
            Notation::Korean { hangul: false }
        );
        assert_eq!(
            Language::Korean.default_notation(janggi),
            Notation::Korean { hangul: true }
        );
        assert_eq!(
            Language::English.default_notation(Variant::Xiangqi),
            Notation::Wxf
        );
        assert_eq!(
            Language::English.default_notation(Variant::Shogi),
            Notation::Hodges
        );
    }
}
