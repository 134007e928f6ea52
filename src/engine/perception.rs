//! What a weaker level fails to see: the mistakes people make.
//!
//! A person does not misjudge every position a little (evaluation noise); they miss
//! things. A distant chariot or rook sliding in, a cannon jumping over a screen, a
//! horse's fork, a piece dropped from the hand, the recapture after a greedy capture.
//! [`Perceived`] wraps a game's position for the search and hides some moves from it:
//! the moves a level does not "see" this turn. Which moves are hidden is decided by a
//! hash of the turn's seed and the move, so within one search a blind spot stays the
//! same everywhere in the tree (a person who has not noticed the cannon has not noticed
//! it in any line), and the next turn has other blind spots. How often each kind of move
//! is missed grows with the move's distance and oddness ([`Salience`]) and with the
//! level's `blindness`.
//!
//! Nothing here decides a rule: the hidden moves stay legal and the wrapped position
//! still answers check, mate and game ends exactly. When hiding would leave a side
//! without a move, or the side to move is in check, every move is seen.

use super::eval::{EngineRules, RepetitionRule};
use crate::rules::any::AnyPosition;
use crate::rules::{ExchangeMoves, Move, MoveList, Position, Side};

/// How noticeable a move is to a person, by its shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Salience {
    /// A one- or two-square step that jumps nothing: almost always seen.
    Near,
    /// A line move of three squares or more (chariot, rook, lance, bishop).
    Distant,
    /// A move over a screen (a cannon's capture or move across pieces).
    OverScreen,
    /// A leaper's move (horse, elephant, shogi knight): forks hide here.
    Leap,
    /// A piece dropped from the hand (shogi).
    Drop,
}

impl Salience {
    /// The share of the level's blindness that applies to a move of this shape, in percent.
    fn weight(self) -> u32 {
        match self {
            Salience::Near => 25,
            Salience::Distant => 100,
            Salience::OverScreen => 120,
            Salience::Leap => 80,
            Salience::Drop => 80,
        }
    }
}

/// The blind spots of one search: who is searching, how blind, and this turn's seed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Perception {
    /// The side the search plays for (its own moves are missed less often).
    pub side: Side,
    /// How often the most easily missed moves are missed, in per mille (0 sees all).
    pub blindness: u32,
    /// This turn's seed: the level's seed mixed with the root position's key.
    pub seed: u64,
}

/// Own moves are missed this share (percent) as often as the opponent's: people look
/// at their own ideas and overlook the replies.
const OWN_SHARE: u32 = 50;

/// The most that any move is missed, in per mille, however blind the level.
const MOST_MISSED: u32 = 900;

impl Perception {
    /// The shape of `mv` in `position`: its distance, whether it passes over pieces.
    pub fn salience<P: EngineRules>(position: &P, mv: Move) -> Salience {
        if mv.is_drop() {
            return Salience::Drop;
        }
        let (from_file, from_rank) = (mv.from as i32 % 9, mv.from as i32 / 9);
        let (to_file, to_rank) = (mv.to as i32 % 9, mv.to as i32 / 9);
        let (files, ranks) = ((to_file - from_file).abs(), (to_rank - from_rank).abs());
        let straight = files == 0 || ranks == 0;
        let diagonal = files == ranks;
        if !straight && !diagonal {
            return Salience::Leap;
        }
        let steps = files.max(ranks);
        // Any piece on the squares between means the move passes over a screen; the
        // squares of a two-square diagonal step of an elephant are not "between" for it,
        // but an elephant cannot pass an occupied eye, so the test is exact there too.
        let (step_file, step_rank) = (
            (to_file - from_file).signum(),
            (to_rank - from_rank).signum(),
        );
        for step in 1..steps {
            let square = (from_rank + step * step_rank) * 9 + from_file + step * step_file;
            if position.exchange_piece_value(square as u8) != 0 {
                return Salience::OverScreen;
            }
        }
        if steps >= 3 {
            Salience::Distant
        } else if diagonal && steps == 2 {
            // A xiangqi elephant's two-square diagonal: a leap for the eye.
            Salience::Leap
        } else {
            Salience::Near
        }
    }

    /// True when the searching side does not see `mv` in `position` this turn.
    pub fn misses<P: EngineRules>(&self, position: &P, mv: Move) -> bool {
        if self.blindness == 0 || mv.is_pass() {
            return false;
        }
        let mut chance = self.blindness * Self::salience(position, mv).weight() / 100;
        if position.side_to_move() == self.side {
            chance = chance * OWN_SHARE / 100;
        }
        let chance = chance.min(MOST_MISSED) as u64;
        let word = u64::from(mv.from) | u64::from(mv.to) << 8 | u64::from(mv.flags) << 16;
        let mixed = (self.seed ^ word.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .wrapping_mul(0xBF58_476D_1CE4_E5B9)
            .rotate_left(31)
            .wrapping_mul(0x94D0_49BB_1331_11EB);
        (mixed >> 32) % 1000 < chance
    }

    /// The moves of `moves` that are seen (none may be).
    fn seen<P: EngineRules>(&self, position: &P, moves: &MoveList) -> MoveList {
        let mut seen = MoveList::new();
        for &mv in moves.iter() {
            if !self.misses(position, mv) {
                seen.push(mv);
            }
        }
        seen
    }

    /// Removes from `moves` what is not seen, unless that would leave nothing or the
    /// side to move is in check (a person in check looks at every way out).
    pub fn filter<P: EngineRules>(&self, position: &P, moves: &mut MoveList) {
        if self.blindness == 0 || moves.is_empty() || position.in_check() {
            return;
        }
        let seen = self.seen(position, moves);
        if !seen.is_empty() {
            *moves = seen;
        }
    }
}

/// A position as a weaker level perceives it: the same game, with some moves unseen.
/// Its search keeps no correction history (see the `EngineRules` impl below).
#[derive(Clone, Debug)]
pub struct Perceived<P> {
    /// The real position.
    pub position: P,
    /// What this search fails to see.
    pub perception: Perception,
}

impl<P: EngineRules> Perceived<P> {
    /// Appends the moves `generate` gives for the real position that the level sees (all of
    /// them when in check). The quiescence search's moves have no fallback: a capture or
    /// check nobody sees leaves the position standing pat.
    fn push_seen(&self, moves: &mut MoveList, generate: impl FnOnce(&P, &mut MoveList)) {
        let mut own = MoveList::new();
        generate(&self.position, &mut own);
        if self.perception.blindness > 0 && !self.position.in_check() {
            own = self.perception.seen(&self.position, &own);
        }
        for &mv in own.iter() {
            moves.push(mv);
        }
    }

    /// True when the level sees none of the legal moves here (then it is shown them all).
    fn every_move_unseen(&self) -> bool {
        let mut all = MoveList::new();
        self.position.legal_moves(&mut all);
        self.perception.seen(&self.position, &all).is_empty()
    }
}

impl<P: EngineRules> Position for Perceived<P> {
    fn side_to_move(&self) -> Side {
        self.position.side_to_move()
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        let mut own = MoveList::new();
        self.position.legal_moves(&mut own);
        self.perception.filter(&self.position, &mut own);
        for &mv in own.iter() {
            moves.push(mv);
        }
    }
    fn play_unchecked(&mut self, mv: Move) {
        self.position.play_unchecked(mv);
    }
    fn in_check(&self) -> bool {
        self.position.in_check()
    }
    fn hash(&self) -> u64 {
        self.position.hash()
    }
    fn repetition_key(&self) -> u64 {
        self.position.repetition_key()
    }
    fn halfmove_clock(&self) -> u32 {
        self.position.halfmove_clock()
    }
    fn fen(&self) -> String {
        self.position.fen()
    }
    fn move_to_uci(&self, mv: Move) -> String {
        self.position.move_to_uci(mv)
    }
}

impl<P: EngineRules> EngineRules for Perceived<P> {
    fn from_any(_any: &AnyPosition) -> Option<&Self> {
        // A perceived position exists only inside a search; the game holds real ones.
        None
    }
    fn evaluate(&self) -> i32 {
        self.position.ladder_evaluate()
    }
    fn search_key(&self) -> u64 {
        self.position.search_key()
    }
    fn victim_value(&self, mv: Move) -> i32 {
        self.position.victim_value(mv)
    }
    fn attacker_value(&self, mv: Move) -> i32 {
        self.position.attacker_value(mv)
    }
    fn losing_capture(&self, mv: Move) -> bool {
        self.position.losing_capture(mv)
    }
    fn is_tactical(&self, mv: Move) -> bool {
        self.position.is_tactical(mv)
    }
    fn position_end(&self) -> Option<i32> {
        self.position.position_end()
    }
    fn repetition_rule(&self) -> RepetitionRule {
        self.position.repetition_rule()
    }
    fn drawn_end_value(&self) -> i32 {
        self.position.drawn_end_value()
    }
    fn null_move(&self) -> Option<Self> {
        self.position.null_move().map(|position| Perceived {
            position,
            perception: self.perception,
        })
    }
    fn null_move_safe(&self) -> bool {
        self.position.null_move_safe()
    }
    fn exchange_piece_value(&self, square: u8) -> i32 {
        self.position.exchange_piece_value(square)
    }
    fn exchange_mover_value(&self, mv: Move) -> i32 {
        self.position.exchange_mover_value(mv)
    }
    fn captures_to(&self, square: u8, moves: &mut ExchangeMoves) {
        // Exchanges are counted exactly: the blind spot is in which moves are looked at.
        self.position.captures_to(square, moves);
    }
    fn capture_moves(&self, moves: &mut MoveList) {
        let mut own = MoveList::new();
        self.position.capture_moves(&mut own);
        if self.perception.blindness > 0 && !self.position.in_check() && !own.is_empty() {
            let seen = self.perception.seen(&self.position, &own);
            // The captures of the perceived legal moves: the seen ones, unless every legal
            // move is unseen, when `legal_moves` shows them all (a side is never left
            // without a move by its blind spots).
            if !seen.is_empty() || !self.every_move_unseen() {
                own = seen;
            }
        }
        for &mv in own.iter() {
            moves.push(mv);
        }
    }
    fn quick_legality(&self, mv: Move) -> Option<bool> {
        match self.position.quick_legality(mv) {
            // An unseen move is not tried early (as a hash move or killer): when every
            // move is unseen and so all are shown, the picker still meets it when it
            // generates the moves.
            Some(true) => {
                Some(self.position.in_check() || !self.perception.misses(&self.position, mv))
            }
            other => other,
        }
    }
    fn quiet_checks(&self, moves: &mut MoveList) {
        self.push_seen(moves, |position, own| position.quiet_checks(own));
    }
    fn gives_check_unplayed(&self, mv: Move) -> Option<bool> {
        self.position.gives_check_unplayed(mv)
    }
    const EAGER_LATE_MOVE_PRUNING: bool = P::EAGER_LATE_MOVE_PRUNING;
    const STAGED_MOVE_ORDER: bool = P::STAGED_MOVE_ORDER;
    const ROOT_REDUCTIONS: bool = P::ROOT_REDUCTIONS;
    // Telling a check before playing changes the work, not the tree.
    const CHECK_TOLD_BEFORE_PLAYING: bool = P::CHECK_TOLD_BEFORE_PLAYING;
    // `CHECK_EXTENSION_BY_EXCHANGE` and `INTERNAL_ITERATIVE_REDUCTION` keep their default
    // false: the levels search the tree their ladder was measured with (session 40).
    // `correction_key` keeps its default `None` and `CONTINUATION_CORRECTION` its default
    // false: a level's search learns no correction history. The ladder and the `UCI_Elo`
    // anchors were measured so (tools/STRENGTH.md, session 34); forwarding them would move
    // every level. `mate_in_one` keeps its default `None` for the same reason (session
    // 36): a level that misjudges or overlooks moves would not see every mate in one.
    fn tactical_moves(&self, moves: &mut MoveList) {
        self.push_seen(moves, |position, own| position.tactical_moves(own));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::janggi::JanggiPosition;
    use crate::rules::shogi::ShogiPosition;
    use crate::rules::xiangqi::XiangqiPosition;

    fn xiangqi(fen: &str) -> XiangqiPosition {
        XiangqiPosition::from_fen(fen).unwrap()
    }

    fn perception(side: Side, blindness: u32, seed: u64) -> Perception {
        Perception {
            side,
            blindness,
            seed,
        }
    }

    #[test]
    fn each_shape_of_move_is_named_by_its_distance_and_what_it_passes() {
        let position = xiangqi(START);
        let shape = |text: &str| Perception::salience(&position, position.parse_uci(text).unwrap());
        assert_eq!(
            shape("h3h10"),
            Salience::OverScreen,
            "cannon takes the horse over a screen"
        );
        assert_eq!(
            shape("h3h7"),
            Salience::Distant,
            "cannon slides four points"
        );
        assert_eq!(shape("b1c3"), Salience::Leap, "horse");
        assert_eq!(shape("c1e3"), Salience::Leap, "elephant");
        assert_eq!(shape("a4a5"), Salience::Near, "soldier step");
        assert_eq!(shape("a1a2"), Salience::Near, "chariot step");
        let shogi = ShogiPosition::from_any(
            "lnsgkgsnl/1r5b1/1pppppp1p/9/7p1/2P6/PP1PPPPPP/1B5R1/LNS1KGSNL b Gp 5",
        )
        .unwrap();
        let mut moves = MoveList::new();
        shogi.legal_moves(&mut moves);
        let drop = moves.iter().copied().find(|mv| mv.is_drop()).unwrap();
        assert_eq!(Perception::salience(&shogi, drop), Salience::Drop);
    }

    const START: &str = "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1";

    #[test]
    fn a_level_learns_no_correction_history_as_its_ladder_was_measured() {
        // The real shogi position keeps corrections under a key and under the last move;
        // the level's view of it keeps neither (levels 1-9 were measured without them).
        let shogi = ShogiPosition::from_any(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        )
        .unwrap();
        assert!(shogi.correction_key().is_some());
        const { assert!(<ShogiPosition as EngineRules>::CONTINUATION_CORRECTION) };
        let perceived = Perceived {
            position: shogi,
            perception: perception(Side::First, 300, 1),
        };
        assert_eq!(perceived.correction_key(), None);
        const { assert!(!<Perceived<ShogiPosition> as EngineRules>::CONTINUATION_CORRECTION) };
        const { assert!(!<Perceived<XiangqiPosition> as EngineRules>::CONTINUATION_CORRECTION) };
    }

    #[test]
    fn a_level_extends_every_check_and_reduces_no_node_without_a_table_move() {
        // Full strength extends only checks that lose nothing and reduces nodes the table
        // knows no move for (shogi from session 40, janggi from 41); levels 1-9 keep the tree their ladder was
        // measured with.
        const {
            assert!(<ShogiPosition as EngineRules>::CHECK_EXTENSION_BY_EXCHANGE);
            assert!(<ShogiPosition as EngineRules>::INTERNAL_ITERATIVE_REDUCTION);
            assert!(<JanggiPosition as EngineRules>::CHECK_EXTENSION_BY_EXCHANGE);
            assert!(<JanggiPosition as EngineRules>::INTERNAL_ITERATIVE_REDUCTION);
            assert!(!<Perceived<XiangqiPosition> as EngineRules>::CHECK_EXTENSION_BY_EXCHANGE);
            assert!(!<Perceived<JanggiPosition> as EngineRules>::CHECK_EXTENSION_BY_EXCHANGE);
            assert!(!<Perceived<ShogiPosition> as EngineRules>::CHECK_EXTENSION_BY_EXCHANGE);
            assert!(!<Perceived<XiangqiPosition> as EngineRules>::INTERNAL_ITERATIVE_REDUCTION);
            assert!(!<Perceived<JanggiPosition> as EngineRules>::INTERNAL_ITERATIVE_REDUCTION);
            assert!(!<Perceived<ShogiPosition> as EngineRules>::INTERNAL_ITERATIVE_REDUCTION);
        };
    }

    #[test]
    fn no_blindness_sees_every_move_and_the_perceived_moves_are_real_ones() {
        let position = xiangqi(START);
        let mut all = MoveList::new();
        position.legal_moves(&mut all);
        for blindness in [0, 300, 1_000] {
            for seed in 0..50 {
                let perceived = Perceived {
                    position: position.clone(),
                    perception: perception(Side::Second, blindness, seed),
                };
                let mut seen = MoveList::new();
                perceived.legal_moves(&mut seen);
                assert!(!seen.is_empty());
                assert!(seen.iter().all(|mv| all.as_slice().contains(mv)));
                if blindness == 0 {
                    assert_eq!(seen.len(), all.len());
                }
            }
        }
    }

    #[test]
    fn in_check_every_way_out_is_seen() {
        // Black's general is checked by the red chariot on the open file.
        let position = xiangqi("3k5/9/9/9/9/9/9/9/9/3RK4 b - - 0 1");
        assert!(position.in_check());
        let mut all = MoveList::new();
        position.legal_moves(&mut all);
        let perceived = Perceived {
            position: position.clone(),
            perception: perception(Side::First, 1_000, 7),
        };
        let mut seen = MoveList::new();
        perceived.legal_moves(&mut seen);
        assert_eq!(seen.len(), all.len());
    }

    #[test]
    fn distant_moves_are_missed_about_as_often_as_the_blindness_says_and_own_moves_less() {
        let position = xiangqi(START);
        let distant = position.parse_uci("h3h7").unwrap();
        let near = position.parse_uci("a4a5").unwrap();
        let count = |mv: Move, side: Side| {
            (0..4_000u64)
                .filter(|&seed| perception(side, 300, seed).misses(&position, mv))
                .count()
        };
        // Red is to move: as the opponent's move (Black searching) a distant move is
        // missed 30% of the time, as Red's own move half as often, a step a quarter as often.
        let theirs = count(distant, Side::Second);
        let own = count(distant, Side::First);
        let step = count(near, Side::Second);
        assert!((1_050..1_350).contains(&theirs), "{theirs} of 4000");
        assert!((450..750).contains(&own), "{own} of 4000");
        assert!((200..400).contains(&step), "{step} of 4000");
        // The same seed misses the same moves: a blind spot holds for the whole search.
        let eye = perception(Side::Second, 300, 99);
        assert_eq!(
            eye.misses(&position, distant),
            eye.misses(&position, distant)
        );
    }
}
