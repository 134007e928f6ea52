//! History-aware questions about a gungjanggi game, for the interface to show what the
//! rules depend on: each side's king, bikjang and pass state, the judging phase (why it
//! began, what decides it now, how many plies are left), and what a move just did.
//!
//! Everything here is answered by [`Game`] from its positions and moves (pure: no I/O),
//! so the interface never decides a rule itself.

use super::any::AnyPosition;
use super::game::Game;
use super::janggi::{GungjanggiRules, JanggiPosition, PROMOTED};
use super::xiangqi::{kind, kind_of, owner};
use super::{IllegalMove, Move, MoveList, Position, Scores, Side};

/// Why the judging phase began (rule 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JudgingCause {
    /// A draw offer was accepted (gungjanggi has no draws: the offer asks to judge).
    DrawAgreed,
    /// A bikjang was accepted: material decides at once (rules 3 and 9).
    BikjangAccepted,
    /// This many plies passed without a capture.
    QuietPlies(u32),
    /// Neither side has any piece but its king and advisors.
    OnlyKingsAndAdvisors,
    /// The game was set up already in the judging phase (a position with `J` in its FEN).
    SetUp,
}

/// One side's gungjanggi state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SideState {
    /// The king is promoted: it attacks the enemy king along an open file (rule 4).
    pub king_promoted: bool,
    /// The side has called its one bikjang (rule 1).
    pub bikjang_called: bool,
    /// Passes in a row (rule 6: a third is not allowed).
    pub passes_in_row: u8,
}

impl SideState {
    /// True when another pass would be this side's third in a row, which rule 6 forbids.
    pub fn third_pass_forbidden(&self) -> bool {
        self.passes_in_row >= 2
    }
}

/// The judging phase in progress (rules 8–10).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JudgingStatus {
    /// Why it began.
    pub cause: JudgingCause,
    /// The number of moves before the position where it began.
    pub began_at_ply: usize,
    /// Plies of the phase played so far.
    pub plies_spent: u32,
    /// Plies left before material decides when nobody gives check (0: it decides now).
    pub plies_left: u32,
    /// The material that will decide (rule 10), first player first.
    pub material: Scores,
    /// True when material is counted by pieces (Manual 2), false by value (Manual 1).
    pub by_count: bool,
}

impl JudgingStatus {
    /// The side that would win on material now: more material, or the second player when equal.
    pub fn material_leader(&self) -> Side {
        if self.material.first > self.material.second {
            Side::First
        } else {
            Side::Second
        }
    }
}

/// The gungjanggi state of one position of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GungjanggiStatus {
    /// Each side's state, first player first.
    pub sides: [SideState; 2],
    /// The side to move must answer a called bikjang: accept it (pass) or break the line.
    pub bikjang_pending: bool,
    /// The judging phase, once it has begun.
    pub judging: Option<JudgingStatus>,
    /// Plies without a capture so far, and how many start the judging phase.
    pub quiet_plies: (u32, u32),
    /// Manual 2 (dan): soldiers and advisors promote, material is counted by pieces.
    pub dan: bool,
}

/// Something a gungjanggi move (or an accepted draw offer) just did, for the status line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GungjanggiEvent {
    /// This side's move made the normal kings face: it called its one bikjang.
    BikjangCalled(Side),
    /// This side passed to accept the bikjang: material decides.
    BikjangAccepted(Side),
    /// This side broke the bikjang line and its king promoted.
    KingPromoted(Side),
    /// Both kings promoted together as the judging phase began (rule 5).
    BothKingsPromoted,
    /// A soldier of this side reached the last rank and promoted (Manual 2).
    SoldierPromoted(Side, u8),
    /// The advisors still in their palaces promoted (Manual 2: a side lost all its soldiers).
    AdvisorsPromoted,
    /// The judging phase began.
    JudgingBegan(JudgingCause),
}

fn janggi(position: &AnyPosition) -> Option<(&JanggiPosition, GungjanggiRules)> {
    match position {
        AnyPosition::Janggi(p) => p.rules().gungjanggi.map(|rules| (p, rules)),
        _ => None,
    }
}

fn only_kings_and_advisors(position: &JanggiPosition) -> bool {
    position
        .board()
        .iter()
        .all(|&code| code == 0 || matches!(kind_of(code), kind::KING | kind::ADVISOR))
}

impl Game {
    /// The gungjanggi state of the position after `ply` moves; `None` in other games or
    /// past the end of the game.
    pub fn gungjanggi_status(&self, ply: usize) -> Option<GungjanggiStatus> {
        let (position, rules) = janggi(self.positions().get(ply)?)?;
        let state = position.gungjanggi_state();
        let sides = [0, 1].map(|index| SideState {
            king_promoted: state.king_promoted[index],
            bikjang_called: state.bikjang_called[index],
            passes_in_row: state.passes_in_row[index],
        });
        let judging = state.judging.then(|| {
            let (began_at_ply, cause) = self.judging_began(ply);
            JudgingStatus {
                cause,
                began_at_ply,
                plies_spent: state.judging_plies,
                plies_left: rules.judging_plies.saturating_sub(state.judging_plies),
                material: position.gungjanggi_material(),
                by_count: rules.dan,
            }
        });
        Some(GungjanggiStatus {
            sides,
            bikjang_pending: position.bikjang_pending(),
            judging,
            quiet_plies: (position.halfmove_clock(), rules.quiet_plies_to_judging),
            dan: rules.dan,
        })
    }

    /// Where and why the judging phase in force after `ply` moves began.
    fn judging_began(&self, ply: usize) -> (usize, JudgingCause) {
        let positions = self.positions();
        let judging = |index: usize| {
            janggi(&positions[index]).is_some_and(|(p, _)| p.gungjanggi_state().judging)
        };
        let Some(first) = (0..=ply).find(|&index| judging(index)) else {
            return (ply, JudgingCause::SetUp);
        };
        if self.judging_agreed_at() == Some(first) {
            return (first, JudgingCause::DrawAgreed);
        }
        if first == 0 {
            return (0, JudgingCause::SetUp);
        }
        let before = &positions[first - 1];
        let mv = self.moves()[first - 1];
        let mut replay = before.clone();
        replay.play_unchecked(mv);
        let Some((after, rules)) = janggi(&replay) else {
            return (first, JudgingCause::SetUp);
        };
        let cause = if !after.gungjanggi_state().judging {
            // The move alone did not start it: the draw offer accepted after it did.
            JudgingCause::DrawAgreed
        } else if mv.is_pass() && before.bikjang_pending() {
            JudgingCause::BikjangAccepted
        } else if only_kings_and_advisors(after) {
            JudgingCause::OnlyKingsAndAdvisors
        } else {
            JudgingCause::QuietPlies(rules.quiet_plies_to_judging)
        };
        (first, cause)
    }

    /// What the move that led to the position after `ply` moves did in gungjanggi (calls,
    /// promotions, the judging phase beginning), in the order they happened; empty for
    /// other games and for the start position.
    pub fn gungjanggi_events(&self, ply: usize) -> Vec<GungjanggiEvent> {
        let mut events = Vec::new();
        if ply > self.moves().len() {
            return events;
        }
        if ply == 0 {
            // No move yet: only a draw offer accepted at once can have done something.
            if self.judging_agreed_at() == Some(0) {
                events.push(GungjanggiEvent::BothKingsPromoted);
                events.push(GungjanggiEvent::JudgingBegan(JudgingCause::DrawAgreed));
            }
            return events;
        }
        let positions = self.positions();
        let (Some((before, _)), Some((after, _))) =
            (janggi(&positions[ply - 1]), janggi(&positions[ply]))
        else {
            return events;
        };
        let mv = self.moves()[ply - 1];
        let mover = before.side_to_move();
        let (was, now) = (before.gungjanggi_state(), after.gungjanggi_state());
        if mv.is_pass() && before.bikjang_pending() {
            events.push(GungjanggiEvent::BikjangAccepted(mover));
        }
        if !was.bikjang_called[mover.index()] && now.bikjang_called[mover.index()] {
            events.push(GungjanggiEvent::BikjangCalled(mover));
        }
        let promoted =
            |side: Side| !was.king_promoted[side.index()] && now.king_promoted[side.index()];
        if promoted(Side::First) && promoted(Side::Second) {
            events.push(GungjanggiEvent::BothKingsPromoted);
        } else if promoted(mover) {
            events.push(GungjanggiEvent::KingPromoted(mover));
        }
        if !mv.is_pass() {
            let code = after.piece_at(mv.to);
            if kind_of(code) == kind::SOLDIER
                && code & PROMOTED != 0
                && before.piece_at(mv.from) & PROMOTED == 0
            {
                events.push(GungjanggiEvent::SoldierPromoted(owner(code), mv.to));
            }
        }
        let advisors_promoted = (0..90u8).any(|square| {
            let code = after.piece_at(square);
            square != mv.to
                && kind_of(code) == kind::ADVISOR
                && code & PROMOTED != 0
                && before.piece_at(square) & PROMOTED == 0
        });
        if advisors_promoted {
            events.push(GungjanggiEvent::AdvisorsPromoted);
        }
        if !was.judging && now.judging {
            events.push(GungjanggiEvent::JudgingBegan(self.judging_began(ply).1));
        }
        events
    }

    /// Checks a move against every rule, history included, and says which rule refuses it:
    /// the position's own reason, a second bikjang call (gungjanggi rule 2), or a
    /// repetition the rules forbid (gungjanggi rule 6).
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if self.outcome().is_some() {
            return Err(IllegalMove::GameOver);
        }
        let position = self.position();
        if let Err(reason) = position.check_move(mv) {
            if reason == IllegalMove::LeavesKingInCheck && self.calls_bikjang_again(mv) {
                return Err(IllegalMove::BikjangAlreadyCalled);
            }
            return Err(reason);
        }
        if self.legal_moves().contains(mv) {
            Ok(())
        } else {
            Err(IllegalMove::ForbiddenRepetition)
        }
    }

    /// True when `mv` leaves the mover's king safe but would make the normal kings face
    /// again after this side already called its bikjang.
    fn calls_bikjang_again(&self, mv: Move) -> bool {
        let Some((position, _)) = janggi(self.position()) else {
            return false;
        };
        let side = position.side_to_move();
        let state = position.gungjanggi_state();
        if !state.bikjang_called[side.index()] || state.king_promoted != [false; 2] {
            return false;
        }
        let mut after = position.clone();
        after.play_unchecked(mv);
        after.generals_face() && !after.is_king_attacked(side)
    }

    /// The legal moves from a square, with the history-aware rules applied (a move that
    /// the repetition rule forbids is not among them); the pass is left out.
    pub fn legal_moves_from(&self, from: u8) -> MoveList {
        let mut moves = self.legal_moves();
        moves.retain(|mv| !mv.is_drop() && !mv.is_pass() && mv.from == from);
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::janggi::JanggiRules;

    fn game(rules: JanggiRules, fen: &str) -> Game {
        Game::new(
            Variant::Janggi(rules)
                .position_from_fen(fen)
                .expect("test position"),
        )
    }

    fn play(game: &mut Game, moves: &str) {
        for text in moves.split_whitespace() {
            let mv = game.position().parse_uci(text).expect(text);
            game.play(mv).expect(text);
        }
    }

    //   10 . . . . k . . . .
    //    4 . . . . R . . . .   Cho's chariot leaves the file: bikjang called.
    //    2 . . . . K . . . .
    #[test]
    fn bikjang_called_then_broken_promotes_and_is_reported() {
        let mut g = game(
            JanggiRules::GUNGJANGGI,
            "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1",
        );
        assert_eq!(
            g.gungjanggi_status(0).unwrap().sides[0],
            SideState {
                king_promoted: false,
                bikjang_called: false,
                passes_in_row: 0
            }
        );
        play(&mut g, "e4a4");
        assert_eq!(
            g.gungjanggi_events(1),
            [GungjanggiEvent::BikjangCalled(Side::First)]
        );
        let status = g.gungjanggi_status(1).unwrap();
        assert!(status.bikjang_pending);
        assert!(status.sides[0].bikjang_called);
        play(&mut g, "e10d10");
        assert_eq!(
            g.gungjanggi_events(2),
            [GungjanggiEvent::KingPromoted(Side::Second)]
        );
        let status = g.gungjanggi_status(2).unwrap();
        assert!(!status.bikjang_pending);
        assert!(status.sides[1].king_promoted && !status.sides[0].king_promoted);
    }

    #[test]
    fn other_games_have_no_gungjanggi_state() {
        let mut g = Game::from_variant(Variant::Janggi(JanggiRules::KJA));
        play(&mut g, "a4b4");
        assert_eq!(g.gungjanggi_status(1), None);
        assert!(g.gungjanggi_events(1).is_empty());
        assert_eq!(
            Game::from_variant(Variant::Xiangqi).gungjanggi_status(0),
            None
        );
    }

    #[test]
    fn accepted_bikjang_starts_judging_and_names_why() {
        let mut g = game(
            JanggiRules::GUNGJANGGI,
            "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1",
        );
        play(&mut g, "e4a4 e10e10");
        let events = g.gungjanggi_events(2);
        assert_eq!(events[0], GungjanggiEvent::BikjangAccepted(Side::Second));
        assert!(events.contains(&GungjanggiEvent::JudgingBegan(
            JudgingCause::BikjangAccepted
        )));
        let judging = g.gungjanggi_status(2).unwrap().judging.unwrap();
        assert_eq!(judging.cause, JudgingCause::BikjangAccepted);
        assert_eq!(judging.began_at_ply, 2);
        // Cho's chariot 13 against nothing.
        assert_eq!((judging.material.first, judging.material.second), (13, 0));
        assert_eq!(judging.material_leader(), Side::First);
    }

    #[test]
    fn a_draw_offer_accepted_is_the_cause_and_the_countdown_runs() {
        let mut g = game(
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1",
        );
        play(&mut g, "e2f2");
        g.accept_draw();
        assert!(g
            .gungjanggi_events(1)
            .contains(&GungjanggiEvent::JudgingBegan(JudgingCause::DrawAgreed)));
        assert!(g
            .gungjanggi_events(1)
            .contains(&GungjanggiEvent::BothKingsPromoted));
        let judging = g.gungjanggi_status(1).unwrap().judging.unwrap();
        assert_eq!(
            (judging.cause, judging.plies_spent, judging.plies_left),
            (JudgingCause::DrawAgreed, 0, 20)
        );
        play(&mut g, "d10d9 f2f1");
        let judging = g.gungjanggi_status(3).unwrap().judging.unwrap();
        assert_eq!(
            (judging.cause, judging.began_at_ply, judging.plies_left),
            (JudgingCause::DrawAgreed, 1, 18)
        );
        assert_eq!(g.gungjanggi_status(0).unwrap().judging, None);
        // Taking back the move takes the agreement with it.
        g.undo();
        g.undo();
        g.undo();
        assert_eq!(g.judging_agreed_at(), None);
        assert_eq!(g.gungjanggi_status(0).unwrap().judging, None);
        // Agreed before any move: the start position is where it began, for that reason.
        g.accept_draw();
        let judging = g.gungjanggi_status(0).unwrap().judging.unwrap();
        assert_eq!(judging.cause, JudgingCause::DrawAgreed);
        assert!(g
            .gungjanggi_events(0)
            .contains(&GungjanggiEvent::JudgingBegan(JudgingCause::DrawAgreed)));
    }

    #[test]
    fn quiet_plies_and_bare_kings_are_causes() {
        let mut quiet = game(
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 99 50",
        );
        play(&mut quiet, "e2f2");
        assert_eq!(
            quiet.gungjanggi_status(1).unwrap().judging.unwrap().cause,
            JudgingCause::QuietPlies(100)
        );
        let mut bare = game(
            JanggiRules::GUNGJANGGI_DAN,
            "5k3/9/9/9/9/9/9/4p4/4A4/3K5 w - - 0 1",
        );
        play(&mut bare, "e2e3");
        let status = bare.gungjanggi_status(1).unwrap();
        let judging = status.judging.unwrap();
        assert_eq!(judging.cause, JudgingCause::OnlyKingsAndAdvisors);
        assert!(judging.by_count && status.dan);
        let set_up = game(
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/R8/9/4K4/9 w - - 0 1 KkJ5",
        );
        let judging = set_up.gungjanggi_status(0).unwrap().judging.unwrap();
        assert_eq!(
            (judging.cause, judging.plies_left),
            (JudgingCause::SetUp, 15)
        );
    }

    #[test]
    fn soldier_and_advisor_promotions_are_reported_in_manual_2() {
        let mut soldier = game(
            JanggiRules::GUNGJANGGI_DAN,
            "3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1",
        );
        play(&mut soldier, "a9a10");
        assert_eq!(
            soldier.gungjanggi_events(1),
            [GungjanggiEvent::SoldierPromoted(Side::First, 81)]
        );
        let mut advisors = game(
            JanggiRules::GUNGJANGGI_DAN,
            "3ka4/9/9/9/9/p8/R8/9/4K4/5A3 w - - 0 1",
        );
        play(&mut advisors, "a4a5");
        assert_eq!(
            advisors.gungjanggi_events(1),
            [GungjanggiEvent::AdvisorsPromoted]
        );
        let mut silver = game(
            JanggiRules::GUNGJANGGI,
            "3k5/P8/9/9/9/9/9/9/4K4/9 w - - 0 1",
        );
        play(&mut silver, "a9a10");
        assert!(silver.gungjanggi_events(1).is_empty());
    }

    #[test]
    fn passes_in_row_and_the_third_pass() {
        let g = game(
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1 P2p1",
        );
        let status = g.gungjanggi_status(0).unwrap();
        assert!(status.sides[0].third_pass_forbidden());
        assert!(!status.sides[1].third_pass_forbidden());
        assert_eq!(status.sides[1].passes_in_row, 1);
    }

    //   10 . . . k . . . . .
    //    1 N . . . K . . . .   The horse shuttles a1-b3, Han's king d10-d9: the start
    //                          position may not come a third time.
    #[test]
    fn repetition_forbidden_moves_are_not_legal_from_the_square_and_are_named() {
        let mut g = game(
            JanggiRules::GUNGJANGGI,
            "3k5/9/9/9/9/9/9/9/9/N3K4 w - - 0 1",
        );
        play(&mut g, "a1b3 d10d9 b3a1 d9d10 a1b3 d10d9 b3a1");
        let repeat = g.position().parse_uci("d9d10").unwrap();
        assert!(
            g.position().check_move(repeat).is_ok(),
            "the position alone allows it"
        );
        let king = repeat.from;
        assert!(!g.legal_moves_from(king).contains(repeat));
        assert!(g
            .legal_moves_from(king)
            .contains(g.position().parse_uci("d9e9").unwrap()));
        assert_eq!(g.check_move(repeat), Err(IllegalMove::ForbiddenRepetition));
    }

    #[test]
    fn accepting_bikjang_is_written_and_read_as_its_own_word() {
        use crate::rules::notation::{format_move, parse_move, Notation, ACCEPT_BIKJANG};
        let mut g = game(
            JanggiRules::GUNGJANGGI,
            "4k4/9/9/9/9/9/4R4/9/4K4/9 w - - 0 1",
        );
        let hangul = Notation::Korean { hangul: true };
        let quiet = g.position().clone();
        let pass = quiet.parse_uci("e2e2").unwrap();
        assert_eq!(format_move(&quiet, pass, hangul), "한수쉼");
        assert!(
            parse_move(&quiet, ACCEPT_BIKJANG).is_err(),
            "no bikjang to accept"
        );
        play(&mut g, "e4a4");
        let pending = g.position().clone();
        let accept = pending.parse_uci("e10e10").unwrap();
        assert_eq!(format_move(&pending, accept, hangul), ACCEPT_BIKJANG);
        assert_eq!(format_move(&pending, accept, Notation::Engine), "e10e10");
        for text in [ACCEPT_BIKJANG, "빅장 받음", "accept bikjang", "한수쉼"] {
            assert_eq!(parse_move(&pending, text), Ok(accept), "{text}");
        }
    }

    //   10 . . . . k . . . .
    //    2 . . . K . . . . .   Cho has called bikjang once (B): d2-e2 would call it again.
    //    1 R . . . . . . . .
    #[test]
    fn a_second_bikjang_call_is_named() {
        let g = game(
            JanggiRules::GUNGJANGGI,
            "4k4/9/9/9/9/9/9/9/3K5/R8 w - - 0 1 B",
        );
        let mv = g.position().parse_uci("d2e2").unwrap();
        assert_eq!(
            g.position().check_move(mv),
            Err(IllegalMove::LeavesKingInCheck)
        );
        assert_eq!(g.check_move(mv), Err(IllegalMove::BikjangAlreadyCalled));
        let fresh = game(
            JanggiRules::GUNGJANGGI,
            "4k4/9/9/9/9/9/9/9/3K5/R8 w - - 0 1",
        );
        assert_eq!(fresh.check_move(mv), Ok(()));
    }
}
