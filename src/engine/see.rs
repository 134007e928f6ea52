//! Static exchange evaluation: what a capture wins or loses once both sides have
//! recaptured on its square as long as it pays, without searching.
//!
//! The exchange is played out on copies of the position with the rules' own moves
//! ([`EngineRules::captures_to`]), so every game's peculiarities come from the rules
//! engine rather than a second copy of them here: a capture in xiangqi and janggi can
//! open or close a cannon's screen, janggi cannons neither jump over nor take cannons,
//! and a shogi capture puts the piece in hand (drops are not part of an exchange).
//! Pins are ignored, as usual for an exchange estimate.

use super::eval::EngineRules;
use crate::rules::{ExchangeMoves, Move, Side};

/// The longest exchange followed (every piece of both sides that can reach one square).
const MAX_EXCHANGE: usize = 40;

/// The material the side to move gains by `mv` once the exchange on its target square
/// is over, each side stopping when recapturing would lose; 0 for a quiet move that
/// cannot be taken back profitably, negative when the moving piece is lost for less.
/// Played out on copies of the position, or, where
/// [`EngineRules::EXCHANGE_BY_ATTACKERS`] holds, read off the unchanged board.
pub fn exchange_value<P: EngineRules>(position: &P, mv: Move) -> i32 {
    if P::EXCHANGE_BY_ATTACKERS {
        exchange_value_by_attackers(position, mv)
    } else {
        exchange_value_by_playing(position, mv)
    }
}

/// [`exchange_value`] played out on copies of the position with the rules' own moves.
fn exchange_value_by_playing<P: EngineRules>(position: &P, mv: Move) -> i32 {
    let mut current = position.clone();
    current.play_unchecked(mv);
    let mut played = Played {
        current,
        square: mv.to,
        captures: ExchangeMoves::default(),
        cheapest: None,
    };
    settle(position, mv, &mut played)
}

/// [`exchange_value`] without playing: the recaptures are the pieces attacking the square
/// with the spent ones taken off the board (in shogi a capture only empties the
/// capturer's square; a piece taken goes to a hand, and drops are no part of an
/// exchange). The same cheapest recapture as [`exchange_value_by_playing`], the first of
/// equals in square order, so the same value.
fn exchange_value_by_attackers<P: EngineRules>(position: &P, mv: Move) -> i32 {
    let mut remaining = !0u128;
    if !mv.is_drop() {
        remaining &= !(1u128 << mv.from);
    }
    let mut taken_off = TakenOff {
        position,
        square: mv.to,
        side: position.side_to_move().opponent(),
        remaining,
        cheapest: 0,
    };
    settle(position, mv, &mut taken_off)
}

/// The recaptures of an exchange, one side after the other.
trait Recaptures {
    /// The value of the side to move's cheapest recapture, `None` when it has none.
    fn cheapest(&mut self) -> Option<i32>;
    /// Makes the recapture [`Recaptures::cheapest`] found, handing the turn over.
    fn take(&mut self);
}

/// Recaptures found and made on a copy of the position by the rules' own moves.
struct Played<P> {
    current: P,
    square: u8,
    captures: ExchangeMoves,
    cheapest: Option<Move>,
}

impl<P: EngineRules> Recaptures for Played<P> {
    fn cheapest(&mut self) -> Option<i32> {
        self.captures.clear();
        self.current.captures_to(self.square, &mut self.captures);
        let current = &self.current;
        self.cheapest = self
            .captures
            .iter()
            .copied()
            .min_by_key(|&capture| current.exchange_mover_value(capture));
        self.cheapest.map(|mv| current.exchange_mover_value(mv))
    }

    fn take(&mut self) {
        if let Some(mv) = self.cheapest {
            self.current.play_unchecked(mv);
        }
    }
}

/// Recaptures read off the unchanged board, the pieces spent taken off.
struct TakenOff<'a, P> {
    position: &'a P,
    square: u8,
    side: Side,
    /// The squares whose pieces have not moved yet.
    remaining: u128,
    /// The square of the recapture [`Recaptures::cheapest`] found.
    cheapest: u8,
}

impl<P: EngineRules> Recaptures for TakenOff<'_, P> {
    fn cheapest(&mut self) -> Option<i32> {
        let mut attackers = self
            .position
            .attackers_among(self.square, self.side, self.remaining);
        let mut best: Option<i32> = None;
        while attackers != 0 {
            let from = attackers.trailing_zeros() as u8;
            attackers &= attackers - 1;
            let value = self.position.exchange_piece_value(from);
            if best.is_none_or(|best| value < best) {
                best = Some(value);
                self.cheapest = from;
            }
        }
        best
    }

    fn take(&mut self) {
        self.remaining &= !(1u128 << self.cheapest);
        self.side = self.side.opponent();
    }
}

/// The exchange's arithmetic, the same whichever way the recaptures are found.
fn settle<P: EngineRules>(position: &P, mv: Move, recaptures: &mut impl Recaptures) -> i32 {
    let mut gains = [0i32; MAX_EXCHANGE];
    gains[0] = if mv.is_drop() {
        0
    } else {
        position.exchange_piece_value(mv.to)
    };
    // The piece standing on the square after each capture, worth taking next.
    let mut on_square = position.exchange_mover_value(mv);
    let mut depth = 0;
    while depth + 1 < MAX_EXCHANGE {
        let Some(taker) = recaptures.cheapest() else {
            break;
        };
        depth += 1;
        // Taking the piece on the square, with the other side's last gain at stake.
        gains[depth] = on_square - gains[depth - 1];
        if gains[depth].max(-gains[depth - 1]) < 0 {
            break; // Neither taking nor standing pat helps the side to move: stop early.
        }
        on_square = taker;
        recaptures.take();
    }
    while depth > 0 {
        gains[depth - 1] = -(-gains[depth - 1]).max(gains[depth]);
        depth -= 1;
    }
    gains[0]
}

/// True when `mv` loses no material by exchange (its [`exchange_value`] is at least
/// `threshold`), answered cheaply when the captured piece is worth at least the mover.
pub fn exchange_at_least<P: EngineRules>(position: &P, mv: Move, threshold: i32) -> bool {
    if !mv.is_drop() && threshold <= 0 {
        let victim = position.exchange_piece_value(mv.to);
        let mover = position.exchange_mover_value(mv);
        if victim > 0 && victim - mover >= threshold {
            // Even if the mover is lost at once, the exchange ends at or above the threshold.
            return true;
        }
    }
    exchange_value(position, mv) >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::playouts::random_playouts;
    use crate::rules::janggi::{JanggiPosition, JanggiRules};
    use crate::rules::shogi::ShogiPosition;
    use crate::rules::xiangqi::XiangqiPosition;
    use crate::rules::{MoveList, Position};

    fn xiangqi(fen: &str) -> XiangqiPosition {
        XiangqiPosition::from_fen(fen).unwrap()
    }

    fn janggi(fen: &str) -> JanggiPosition {
        JanggiPosition::from_fen(fen, JanggiRules::KJA).unwrap()
    }

    fn uci<P: EngineRules>(position: &P, text: &str) -> Move {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        *moves
            .iter()
            .find(|&&mv| position.move_to_uci(mv) == text)
            .unwrap_or_else(|| panic!("{text} is not legal"))
    }

    #[test]
    fn xiangqi_chariot_taking_an_undefended_soldier_wins_it() {
        // Red chariot e2 takes the soldier on e6; nothing of Black's reaches e6.
        let position = xiangqi("3k5/9/9/9/4p4/9/9/9/4R4/5K3 w - - 0 1");
        assert_eq!(exchange_value(&position, uci(&position, "e2e6")), 100);
    }

    #[test]
    fn xiangqi_cannon_behind_a_screen_defends_and_a_removed_screen_does_not() {
        // Black cannon e9 looks down the e-file over its own horse e8: it retakes on e6.
        let defended = xiangqi("3k5/4c4/4n4/9/4p4/9/9/9/4R4/5K3 w - - 0 1");
        let take = uci(&defended, "e2e6");
        assert_eq!(exchange_value(&defended, take), 100 - 900);
        assert!(!exchange_at_least(&defended, take, 0));
        // Without the screen the cannon cannot retake.
        let unscreened = xiangqi("3k5/9/4c4/9/4p4/9/9/9/4R4/5K3 w - - 0 1");
        assert_eq!(exchange_value(&unscreened, uci(&unscreened, "e2e6")), 100);
    }

    #[test]
    fn xiangqi_a_recapture_is_answered_by_the_next_cheapest_piece() {
        // Red chariot e2 takes the horse on e6, the black chariot e8 retakes, and the
        // red horse on d4 (its leg d5 empty) takes the chariot back.
        let position = xiangqi("3k5/9/4r4/9/4h4/9/3N5/9/4R4/5K3 w - - 0 1");
        // RxN (400), rxR (900), NxR (900): 400 - 900 + 900 = 400.
        assert_eq!(exchange_value(&position, uci(&position, "e2e6")), 400);
    }

    #[test]
    fn janggi_cannon_cannot_retake_over_a_cannon_screen() {
        // Han cannon e9 behind a Han cannon e8: the cannon may not jump a cannon, so
        // the Cho chariot's capture of the soldier on e6 stands.
        let position = janggi("4k4/9/4c4/4c4/9/4p4/9/9/9/4RK3 w - - 0 1");
        assert_eq!(exchange_value(&position, uci(&position, "e1e5")), 200);
        // With a horse as the screen the cannon retakes.
        let screened = janggi("4k4/9/4c4/4n4/9/4p4/9/9/9/4RK3 w - - 0 1");
        assert_eq!(
            exchange_value(&screened, uci(&screened, "e1e5")),
            200 - 1300
        );
    }

    #[test]
    fn shogi_rook_taking_a_pawn_guarded_by_a_gold_loses_the_rook() {
        // Sente rook on 5h takes the pawn on 5d, guarded by Gote's gold on 5c.
        let position = ShogiPosition::from_sfen("4k4/9/4g4/4p4/9/9/9/4R4/4K4 b - 1").unwrap();
        let take = uci(&position, "e2e6");
        assert!(exchange_value(&position, take) < 0);
        // A pawn taking a pawn guarded once is an even trade or better.
        let pawns = ShogiPosition::from_sfen("4k4/9/4g4/4p4/4P4/9/9/9/4K4 b - 1").unwrap();
        assert!(exchange_at_least(&pawns, uci(&pawns, "e5e6"), 0));
    }

    /// Plays `playouts` random games of up to `plies` plies from `start` (a fixed
    /// generator, so a failure repeats) and checks at every position that the moves
    /// onto each square come out of [`EngineRules::captures_to`] exactly as the full
    /// pseudo-legal generation lists them, in its order: the exchange's choice of the
    /// cheapest recapture takes the first of equals, so the order matters too.
    fn captures_to_equal_the_filtered_generation<P: EngineRules>(
        start: &P,
        pseudo_legal: impl Fn(&P, &mut MoveList),
        playouts: usize,
        plies: usize,
    ) -> usize {
        let mut checked = 0;
        random_playouts(
            start,
            0x2545_F491_4F6C_DD1D,
            playouts,
            plies,
            |position, _| {
                let mut all = MoveList::new();
                pseudo_legal(position, &mut all);
                for square in 0..90u8 {
                    let expected: Vec<Move> =
                        all.iter().copied().filter(|mv| mv.to == square).collect();
                    let mut onto = ExchangeMoves::default();
                    position.captures_to(square, &mut onto);
                    assert_eq!(onto.as_slice(), expected.as_slice(), "square {square}");
                    checked += expected.len();
                }
            },
        );
        checked
    }

    #[test]
    fn xiangqi_moves_onto_a_square_are_the_generated_moves_onto_it_in_order() {
        let start = XiangqiPosition::default();
        let checked = captures_to_equal_the_filtered_generation(
            &start,
            XiangqiPosition::pseudo_legal_moves,
            60,
            160,
        );
        assert!(checked > 10_000, "only {checked} moves compared");
    }

    #[test]
    fn janggi_moves_onto_a_square_are_the_generated_moves_onto_it_in_order() {
        for rules in [
            JanggiRules::KJA,
            JanggiRules::GUNGJANGGI,
            JanggiRules::GUNGJANGGI_DAN,
        ] {
            let start = JanggiPosition::start(rules);
            let checked = captures_to_equal_the_filtered_generation(
                &start,
                JanggiPosition::pseudo_legal_moves,
                60,
                160,
            );
            assert!(checked > 10_000, "only {checked} moves compared");
        }
    }

    #[test]
    fn shogi_recaptures_are_the_pieces_whose_reach_holds_the_square_in_board_order() {
        let start = ShogiPosition::default();
        // The old definition: every piece of the side to move, in square order, whose
        // squares reached on the board include `square`.
        let reaching = |position: &ShogiPosition, moves: &mut MoveList| {
            let mut pieces = position.occupied_by(position.side_to_move());
            while pieces != 0 {
                let from = pieces.trailing_zeros() as u8;
                pieces &= pieces - 1;
                let mut reach = position.attacks_from(from);
                while reach != 0 {
                    let to = reach.trailing_zeros() as u8;
                    reach &= reach - 1;
                    moves.push(Move::new(from, to));
                }
            }
        };
        let checked = captures_to_equal_the_filtered_generation(&start, reaching, 60, 200);
        assert!(checked > 10_000, "only {checked} moves compared");
    }

    #[test]
    fn shogi_exchanges_without_playing_equal_the_played_ones() {
        const { assert!(ShogiPosition::EXCHANGE_BY_ATTACKERS) };
        // Every legal move (captures, quiet moves, drops, promotions) of random games:
        // the exchange with the spent pieces taken off must equal the one played out.
        let mut compared = 0;
        let mut nonzero = 0;
        let mut defended_twice = 0;
        random_playouts(
            &ShogiPosition::default(),
            0x5EED_0F5E_E000_0037,
            80,
            220,
            |position, legal| {
                for &mv in legal.iter() {
                    let fast = exchange_value_by_attackers(position, mv);
                    assert_eq!(
                        fast,
                        exchange_value_by_playing(position, mv),
                        "{} {mv:?}",
                        position.sfen()
                    );
                    compared += 1;
                    nonzero += (fast != 0) as usize;
                    // A move onto a square the opponent attacks twice or more: the
                    // exchange goes on past the first recapture.
                    let defenders =
                        position.attackers_of(mv.to, position.side_to_move().opponent());
                    defended_twice += (defenders.count_ones() >= 2) as usize;
                }
            },
        );
        assert!(compared > 100_000, "only {compared} moves compared");
        assert!(
            nonzero > 10_000,
            "only {nonzero} exchanges won or lost material"
        );
        assert!(
            defended_twice > 10_000,
            "only {defended_twice} squares with two defenders"
        );
    }
}
