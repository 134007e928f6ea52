//! Staged move generation for the search: the hash move is tried before any move is
//! generated, then the captures that do not lose material by exchange, the killers and
//! the counter-move, the losing captures, and last the quiet moves by history (the
//! order of the one-generation scoring it replaces). Each stage generates only what it
//! needs, so a cut by the hash move or a good capture saves generating (and testing the
//! king's safety of) every quiet move. Games that keep the one-generation order
//! ([`EngineRules::STAGED_MOVE_ORDER`] false) fill the picker with every move and its
//! score ([`MovePicker::fill`]) and take them best first.
//!
//! Legality is the rules' business throughout: captures come from
//! [`EngineRules::capture_moves`], the quiet moves from [`EngineRules::quiet_moves`], and a
//! hash move or killer tried before generation is checked by
//! [`EngineRules::quick_legality`] (games without a quick check generate every legal
//! move first and take those moves from the list).

use super::eval::EngineRules;
use super::see::exchange_at_least;
use crate::rules::{Move, MoveList, MAX_MOVES};

/// Added to the ordering score of a capture that does not lose material by exchange.
const GOOD_CAPTURE: i32 = 1 << 24;

/// The ordering score's tier of a capture that does not lose material by exchange, in
/// lists the caller scores ([`MovePicker::fill`]): above promotions, killers and quiet
/// moves.
pub const FILLED_GOOD_CAPTURE: i32 = 1 << 28;
/// The tier of a capture that loses material by exchange in such lists: after the
/// killers, before the quiet moves.
pub const FILLED_LOSING_CAPTURE: i32 = 1 << 25;

/// What is known of a listed move's exchange. A caller that scores a list marks its
/// captures `ToAsk` in the good tier ([`FILLED_GOOD_CAPTURE`]) instead of asking at once;
/// the exchange is asked only when the capture would come out next, and a losing one
/// drops to [`FILLED_LOSING_CAPTURE`] there. The order is the one asking every capture
/// first would give, but a node that a move cuts before its captures come out never asks.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum ExchangeVerdict {
    /// Not a capture scored so, or nothing known.
    #[default]
    Unknown,
    /// A capture scored as if it lost nothing, to ask before it comes out.
    ToAsk,
    /// Asked: the capture loses no material by exchange.
    NoLoss,
    /// Asked: the capture loses material by exchange (its score was lowered).
    Loss,
}

/// Asks the exchange of `mv`, a listed move with `score` and `verdict`, if the verdict is
/// `ToAsk`, lowering the score from the good captures' tier to the losing ones' when it
/// loses material; true when the score changed (the best must be looked for again).
#[inline]
pub fn settle_exchange<P: EngineRules>(
    position: &P,
    mv: Move,
    score: &mut i32,
    verdict: &mut ExchangeVerdict,
) -> bool {
    settle_exchange_dropping(
        position,
        mv,
        score,
        verdict,
        FILLED_GOOD_CAPTURE - FILLED_LOSING_CAPTURE,
    )
}

/// [`settle_exchange`] for a list whose losing captures score `drop` below the good ones.
#[inline]
fn settle_exchange_dropping<P: EngineRules>(
    position: &P,
    mv: Move,
    score: &mut i32,
    verdict: &mut ExchangeVerdict,
    drop: i32,
) -> bool {
    if *verdict != ExchangeVerdict::ToAsk {
        return false;
    }
    if exchange_at_least(position, mv, 0) {
        *verdict = ExchangeVerdict::NoLoss;
        false
    } else {
        *verdict = ExchangeVerdict::Loss;
        *score -= drop;
        true
    }
}

/// A list to fill: the moves, their ordering scores and their exchange verdicts, index
/// by index.
pub type FilledList<'a> = (
    &'a mut MoveList,
    &'a mut [i32; MAX_MOVES],
    &'a mut [ExchangeVerdict; MAX_MOVES],
);

/// Where the picker is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Stage {
    Hash,
    GenerateCaptures,
    GoodCaptures,
    Refutations,
    GenerateQuiets,
    Quiets,
    BadCaptures,
    /// Moves generated and scored by the caller ([`MovePicker::fill`]), best first.
    Ordered,
    Done,
}

/// Hands out a node's legal moves one at a time, best first, each exactly once.
///
/// One picker serves a node; the search keeps one per ply and reuses it (the move and
/// score arrays are large, and filling them with zeros at every node cost time).
pub struct MovePicker {
    stage: Stage,
    hash: Move,
    refutations: [Move; 3],
    refutation_index: usize,
    /// Moves handed out before the stage that generates them (hash move, killers):
    /// skipped when that stage meets them.
    tried: [Move; 4],
    tried_count: usize,
    /// Every legal move was generated at the hash stage (no quick legality check).
    generated_all: bool,
    moves: MoveList,
    scores: [i32; MAX_MOVES],
    /// In a filled list, what is known of each move's exchange (valid up to its length).
    verdicts: [ExchangeVerdict; MAX_MOVES],
    cursor: usize,
    /// `moves[..captures_end]` are the captures, `moves[captures_end..]` the quiet moves.
    captures_end: usize,
    /// The first losing capture (the good ones were handed out before it).
    bad_cursor: usize,
    /// What [`MovePicker::best_from`] last found, kept so that moves of equal score are
    /// found without scanning for the maximum again (see there).
    level: Level,
}

/// The highest score among the moves not yet handed out in the current stage's range,
/// and a place from which to look for the next move of that score: no move between the
/// cursor and `from` has it. `None` when unknown (a new stage or node).
#[derive(Clone, Copy, Debug, Default)]
struct Level {
    known: Option<i32>,
    from: usize,
}

impl Default for MovePicker {
    fn default() -> Self {
        Self::new()
    }
}

impl MovePicker {
    /// An empty picker (call [`MovePicker::reset`] before use).
    pub fn new() -> MovePicker {
        MovePicker {
            stage: Stage::Done,
            hash: Move::default(),
            refutations: [Move::default(); 3],
            refutation_index: 0,
            tried: [Move::default(); 4],
            tried_count: 0,
            generated_all: false,
            moves: MoveList::new(),
            scores: [0; MAX_MOVES],
            verdicts: [ExchangeVerdict::Unknown; MAX_MOVES],
            cursor: 0,
            captures_end: 0,
            bad_cursor: 0,
            level: Level::default(),
        }
    }

    /// Starts a node: `hash` is the table's move (`None` when there is none), and
    /// `refutations` the two killers and the counter-move (`Move::default()` for none).
    pub fn reset(&mut self, hash: Option<Move>, refutations: [Move; 3]) {
        self.stage = Stage::Hash;
        self.hash = hash.unwrap_or_default();
        self.refutations = refutations;
        self.refutation_index = 0;
        self.tried_count = 0;
        self.generated_all = false;
        self.moves.clear();
        self.cursor = 0;
        self.captures_end = 0;
        self.bad_cursor = 0;
        self.level = Level::default();
    }

    /// The next move to search, or `None` when every legal move was handed out.
    /// `score_quiet` orders the quiet moves (higher first).
    pub fn next<P: EngineRules>(
        &mut self,
        position: &P,
        score_quiet: impl Fn(Move) -> i32,
    ) -> Option<Move> {
        loop {
            match self.stage {
                Stage::Hash => {
                    self.stage = Stage::GenerateCaptures;
                    let hash = self.hash;
                    let legal = match position.quick_legality(hash) {
                        _ if hash == Move::default() => false,
                        Some(legal) => legal,
                        None => {
                            self.generate_all(position);
                            self.moves.contains(hash)
                        }
                    };
                    if legal {
                        self.remember(hash);
                        return Some(hash);
                    }
                }
                Stage::GenerateCaptures => {
                    if !self.generated_all {
                        position.capture_moves(&mut self.moves);
                        self.captures_end = self.moves.len();
                    }
                    // Every capture starts among the good ones; its exchange is asked when
                    // it would come out, and a losing one drops to the losing captures.
                    for index in 0..self.captures_end {
                        let mv = self.moves.as_slice()[index];
                        let value = position.victim_value(mv) * 64 - position.attacker_value(mv);
                        self.scores[index] = value + GOOD_CAPTURE;
                        self.verdicts[index] = ExchangeVerdict::ToAsk;
                    }
                    self.cursor = 0;
                    self.level = Level::default();
                    self.stage = Stage::GoodCaptures;
                }
                Stage::GoodCaptures => {
                    if self.cursor < self.captures_end {
                        let pick = self.best_from(self.cursor, self.captures_end);
                        if self.scores[pick] >= GOOD_CAPTURE {
                            let mv = self.moves.as_slice()[pick];
                            if settle_exchange_dropping(
                                position,
                                mv,
                                &mut self.scores[pick],
                                &mut self.verdicts[pick],
                                GOOD_CAPTURE,
                            ) {
                                self.level = Level::default();
                                continue;
                            }
                            let mv = self.take(pick);
                            if !self.was_tried(mv) {
                                return Some(mv);
                            }
                            continue;
                        }
                    }
                    self.bad_cursor = self.cursor;
                    self.stage = Stage::Refutations;
                }
                Stage::Refutations => {
                    if self.refutation_index >= self.refutations.len() {
                        self.cursor = self.bad_cursor;
                        self.level = Level::default();
                        self.stage = Stage::BadCaptures;
                        continue;
                    }
                    let mv = self.refutations[self.refutation_index];
                    self.refutation_index += 1;
                    if mv == Move::default() || self.was_tried(mv) || position.victim_value(mv) > 0
                    {
                        continue;
                    }
                    let legal = if self.generated_all {
                        self.moves.as_slice()[self.captures_end..].contains(&mv)
                    } else {
                        position.quick_legality(mv) == Some(true)
                    };
                    if legal {
                        self.remember(mv);
                        return Some(mv);
                    }
                }
                Stage::GenerateQuiets => {
                    if !self.generated_all {
                        // Appended after the captures.
                        position.quiet_moves(&mut self.moves);
                    }
                    for index in self.captures_end..self.moves.len() {
                        self.scores[index] = score_quiet(self.moves.as_slice()[index]);
                    }
                    self.cursor = self.captures_end;
                    self.level = Level::default();
                    self.stage = Stage::Quiets;
                }
                Stage::Quiets => {
                    if self.cursor < self.moves.len() {
                        let pick = self.best_from(self.cursor, self.moves.len());
                        let mv = self.take(pick);
                        if !self.was_tried(mv) {
                            return Some(mv);
                        }
                        continue;
                    }
                    self.stage = Stage::Done;
                }
                Stage::BadCaptures => {
                    if self.cursor < self.captures_end {
                        let pick = self.best_from(self.cursor, self.captures_end);
                        let mv = self.take(pick);
                        if !self.was_tried(mv) {
                            return Some(mv);
                        }
                        continue;
                    }
                    self.stage = Stage::GenerateQuiets;
                }
                Stage::Ordered => {
                    if self.cursor < self.moves.len() {
                        let pick = self.best_from(self.cursor, self.moves.len());
                        let mv = self.moves.as_slice()[pick];
                        if settle_exchange(
                            position,
                            mv,
                            &mut self.scores[pick],
                            &mut self.verdicts[pick],
                        ) {
                            self.level = Level::default();
                            continue;
                        }
                        return Some(self.take(pick));
                    }
                    self.stage = Stage::Done;
                }
                Stage::Done => return None,
            }
        }
    }

    /// Every legal move, the captures first (for games without a quick legality check).
    fn generate_all<P: EngineRules>(&mut self, position: &P) {
        self.moves.clear();
        position.legal_moves(&mut self.moves);
        let list = self.moves.as_mut_slice();
        let mut captures = 0;
        for index in 0..list.len() {
            if position.victim_value(list[index]) > 0 {
                list.swap(captures, index);
                captures += 1;
            }
        }
        self.captures_end = captures;
        self.generated_all = true;
    }

    /// The index of the best-scored move in `start..end` (the first of equals), where
    /// `start` is the cursor. The maximum is found once for all the moves that share it:
    /// the next move of that score lies at or after the last one found, because
    /// [`MovePicker::take`] puts only the cursor's move (a lower score, or the found move
    /// itself) in its place. A scan for the maximum is two passes, the highest score and
    /// then where it first stands (the first pass vectorises); the many equal scores of
    /// quiet moves without history are then handed out in one pass between them, in the
    /// order the full scans would give.
    #[inline]
    fn best_from(&mut self, start: usize, end: usize) -> usize {
        if let Some(level) = self.level.known {
            let from = self.level.from.max(start);
            let rest = self.scores.get(from..end).unwrap_or_default();
            if let Some(offset) = rest.iter().position(|&score| score == level) {
                self.level.from = from + offset;
                return from + offset;
            }
        }
        let scores = &self.scores[start..end];
        let best = scores.iter().copied().max().unwrap_or(i32::MIN);
        let pick = start + scores.iter().position(|&score| score == best).unwrap_or(0);
        self.level = Level {
            known: Some(best),
            from: pick,
        };
        pick
    }

    /// Brings the move at `pick` to the cursor and steps past it.
    #[inline]
    fn take(&mut self, pick: usize) -> Move {
        let cursor = self.cursor;
        self.moves.as_mut_slice().swap(cursor, pick);
        self.scores.swap(cursor, pick);
        self.verdicts.swap(cursor, pick);
        self.cursor += 1;
        self.moves.as_slice()[cursor]
    }

    #[inline]
    fn remember(&mut self, mv: Move) {
        if self.tried_count < self.tried.len() {
            self.tried[self.tried_count] = mv;
            self.tried_count += 1;
        }
    }

    #[inline]
    fn was_tried(&self, mv: Move) -> bool {
        self.tried[..self.tried_count].contains(&mv)
    }

    /// Starts a node whose moves the caller generates and scores itself (the games
    /// without [`EngineRules::STAGED_MOVE_ORDER`]): fill the list, a score and an
    /// exchange verdict for each, then [`MovePicker::next`] hands them out highest score
    /// first, asking the exchanges marked `ToAsk` on the way ([`ExchangeVerdict`]).
    pub fn fill(&mut self) -> FilledList<'_> {
        self.stage = Stage::Ordered;
        self.moves.clear();
        self.cursor = 0;
        self.level = Level::default();
        (&mut self.moves, &mut self.scores, &mut self.verdicts)
    }

    /// The picker's move list as plain storage (the quiescence search fills and orders it
    /// itself), emptied.
    pub fn buffers(&mut self) -> FilledList<'_> {
        self.stage = Stage::Done;
        self.moves.clear();
        (&mut self.moves, &mut self.scores, &mut self.verdicts)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::perception::{Perceived, Perception};
    use crate::rules::janggi::{JanggiPosition, JanggiRules};
    use crate::rules::shogi::ShogiPosition;
    use crate::rules::xiangqi::XiangqiPosition;
    use crate::rules::{Position, Side};

    /// Every move the picker hands out at `position`, in order.
    fn picked<P: EngineRules>(
        position: &P,
        hash: Option<Move>,
        refutations: [Move; 3],
    ) -> Vec<Move> {
        let mut picker = MovePicker::new();
        picker.reset(hash, refutations);
        let mut out = Vec::new();
        while let Some(mv) = picker.next(position, |mv| (mv.to as i32 * 7 + mv.from as i32) % 13) {
            out.push(mv);
        }
        out
    }

    /// Walks the move tree to `depth` checking, at every node, that the picker hands out
    /// exactly the legal moves (none lost, none twice) whatever hash move and killers it
    /// is given: the first legal move, a capture, moves of the parent (often illegal
    /// here) and nothing. Returns the leaf count, which must equal the plain perft.
    fn staged_perft<P: EngineRules>(
        position: &P,
        depth: u32,
        parent: &[Move],
        seen: &mut Coverage,
    ) -> u64 {
        let mut legal = MoveList::new();
        position.legal_moves(&mut legal);
        seen.nodes += 1;
        seen.in_check += position.in_check() as u64;
        seen.with_drops += legal.iter().any(|mv| mv.is_drop()) as u64;
        let mut expected: Vec<Move> = legal.iter().copied().collect();
        expected.sort_by_key(|m| (m.from, m.to, m.flags));
        let capture = legal
            .iter()
            .copied()
            .find(|&m| position.victim_value(m) > 0);
        let pick_parent = |i: usize| parent.get(i).copied().unwrap_or_default();
        let trials = [
            (legal.iter().next().copied(), [Move::default(); 3]),
            (
                capture,
                [
                    pick_parent(0),
                    pick_parent(3),
                    legal.iter().last().copied().unwrap_or_default(),
                ],
            ),
            (
                Some(pick_parent(1)),
                [pick_parent(2), pick_parent(5), pick_parent(1)],
            ),
            (None, [Move::default(); 3]),
        ];
        for (hash, refutations) in trials {
            let mut got = picked(position, hash, refutations);
            if let Some(first) = hash.filter(|h| legal.contains(*h)) {
                assert_eq!(got.first(), Some(&first), "the legal hash move goes first");
            }
            got.sort_by_key(|m| (m.from, m.to, m.flags));
            assert_eq!(got, expected, "staged moves differ at {}", position.fen());
        }
        if depth <= 1 {
            return legal.len() as u64;
        }
        let siblings: Vec<Move> = legal.iter().copied().collect();
        let mut count = 0;
        for &mv in legal.iter() {
            let mut child = position.clone();
            child.play_unchecked(mv);
            count += staged_perft(&child, depth - 1, &siblings, seen);
        }
        count
    }

    /// What kinds of node a staged perft walked through.
    #[derive(Default, Debug)]
    struct Coverage {
        nodes: u64,
        in_check: u64,
        with_drops: u64,
    }

    /// The FENs of the committed perft positions of `game` (`tests/data/GAME.perft`).
    fn perft_positions(game: &str) -> Vec<String> {
        let path = format!("{}/tests/data/{game}.perft", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("the committed perft positions");
        let fens: Vec<String> = text
            .lines()
            .filter_map(|line| line.trim().strip_prefix("fen "))
            .map(str::to_string)
            .collect();
        assert!(fens.len() > 100, "{path}: too few positions");
        fens
    }

    #[test]
    fn staged_generation_equals_plain_perft_in_xiangqi() {
        let mut seen = Coverage::default();
        for fen in perft_positions("xiangqi") {
            let position = XiangqiPosition::from_fen(&fen).unwrap();
            assert_eq!(
                staged_perft(&position, 2, &[], &mut seen),
                position.perft(2)
            );
        }
        assert!(seen.in_check > 50, "{seen:?}");
    }

    #[test]
    fn staged_generation_equals_plain_perft_in_janggi() {
        let mut seen = Coverage::default();
        for fen in perft_positions("janggi") {
            let position = JanggiPosition::from_fen(&fen, JanggiRules::KJA).unwrap();
            assert_eq!(
                staged_perft(&position, 2, &[], &mut seen),
                position.perft(2)
            );
        }
        assert!(seen.in_check > 50, "{seen:?}");
    }

    #[test]
    fn staged_generation_equals_plain_perft_in_shogi_with_drops_and_checks() {
        let mut seen = Coverage::default();
        for fen in perft_positions("shogi") {
            let position = ShogiPosition::from_any(&fen).unwrap();
            assert_eq!(
                staged_perft(&position, 2, &[], &mut seen),
                position.perft(2)
            );
        }
        assert!(seen.in_check > 100 && seen.with_drops > 1_000, "{seen:?}");
    }

    /// The legal moves of `position` in a fixed order, for comparing move sets.
    fn sorted_moves<P: EngineRules>(position: &P) -> Vec<Move> {
        let mut moves = MoveList::new();
        position.legal_moves(&mut moves);
        let mut moves: Vec<Move> = moves.iter().copied().collect();
        moves.sort_by_key(|m| (m.from, m.to, m.flags));
        moves
    }

    /// For many turns' blind spots, offers the picker unseen moves as the hash move and
    /// killers and checks that it hands out exactly the perceived moves.
    fn hidden_moves_never_come_out<P: EngineRules>(position: P) -> usize {
        let real = sorted_moves(&position);
        let mut offered = 0;
        for seed in 0..200 {
            for side in [Side::First, Side::Second] {
                let perceived = Perceived {
                    position: position.clone(),
                    perception: Perception {
                        side,
                        blindness: 1_000,
                        seed,
                    },
                };
                let visible = sorted_moves(&perceived);
                let hidden: Vec<Move> = real
                    .iter()
                    .copied()
                    .filter(|mv| !visible.contains(mv))
                    .collect();
                let hidden_quiets: Vec<Move> = hidden
                    .iter()
                    .copied()
                    .filter(|&mv| position.victim_value(mv) == 0)
                    .collect();
                let hidden_capture = hidden
                    .iter()
                    .copied()
                    .find(|&mv| position.victim_value(mv) > 0);
                let quiet = |i: usize| hidden_quiets.get(i).copied().unwrap_or_default();
                for hash in [hidden.first().copied(), hidden_capture] {
                    offered += hash.is_some() as usize;
                    let mut got = picked(&perceived, hash, [quiet(0), quiet(1), quiet(2)]);
                    assert!(
                        got.iter().all(|mv| !hidden.contains(mv)),
                        "an unseen move came out at {} (seed {seed})",
                        position.fen()
                    );
                    got.sort_by_key(|m| (m.from, m.to, m.flags));
                    assert_eq!(got, visible, "seed {seed}");
                }
            }
        }
        offered
    }

    #[test]
    fn a_move_the_level_does_not_see_never_comes_out_of_the_picker() {
        // A xiangqi middlegame with captures on both sides, and a shogi position with
        // pieces in hand: unseen captures, quiet moves and drops offered as hash moves.
        let xiangqi = XiangqiPosition::from_fen(
            "r1eakae1r/9/1ch4c1/p1p1p1p1p/9/2P6/P3P1P1P/1C2C1H2/9/RHEAKAE1R b - - 0 1",
        )
        .unwrap();
        assert!(hidden_moves_never_come_out(xiangqi) > 200);
        let shogi = ShogiPosition::from_any(
            "lnsgkgsnl/1r5b1/1pppppp1p/9/7p1/2P6/PP1PPPPPP/1B5R1/LNS1KGSNL b Gp 5",
        )
        .unwrap();
        assert!(hidden_moves_never_come_out(shogi) > 200);
    }

    #[test]
    fn filled_moves_come_out_highest_score_first_each_once() {
        let position = XiangqiPosition::from_fen(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        )
        .unwrap();
        let mut picker = MovePicker::new();
        let (moves, scores, verdicts) = picker.fill();
        position.legal_moves(moves);
        let count = moves.len();
        verdicts[..count].fill(ExchangeVerdict::Unknown);
        for (index, score) in scores.iter_mut().take(count).enumerate() {
            *score = (index as i32 * 37) % 11;
        }
        let expected = sorted_moves(&position);
        let mut order = Vec::new();
        while let Some(mv) = picker.next(&position, |_| 0) {
            order.push(mv);
        }
        assert_eq!(order.len(), count);
        let mut got = order.clone();
        got.sort_by_key(|m| (m.from, m.to, m.flags));
        assert_eq!(got, expected);
    }

    /// The order of the selection [`MovePicker::best_from`] replaced: at each step the
    /// first of the highest scores from the cursor on, swapped to the cursor.
    fn order_by_full_scans(moves: &[Move], scores: &[i32]) -> Vec<Move> {
        let mut moves = moves.to_vec();
        let mut scores = scores.to_vec();
        for cursor in 0..moves.len() {
            let best = *scores[cursor..].iter().max().unwrap();
            let pick = cursor + scores[cursor..].iter().position(|&s| s == best).unwrap();
            moves.swap(cursor, pick);
            scores.swap(cursor, pick);
        }
        moves
    }

    #[test]
    fn equal_scores_come_out_in_the_order_of_full_scans() {
        // Quiet moves without history share a score: the picker finds the next move of
        // the same score without scanning again, and must hand out what full scans would.
        let xiangqi = XiangqiPosition::from_fen(
            "rheakaehr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RHEAKAEHR w - - 0 1",
        )
        .unwrap();
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut random = move |bound: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound) as i32
        };
        for trial in 0..200 {
            let mut picker = MovePicker::new();
            let (moves, scores, verdicts) = picker.fill();
            xiangqi.legal_moves(moves);
            let count = moves.len();
            verdicts[..count].fill(ExchangeVerdict::Unknown);
            let distinct = 1 + (trial % 6) as u64;
            for score in scores.iter_mut().take(count) {
                *score = if random(3) == 0 {
                    0
                } else {
                    random(distinct) - 2
                };
            }
            let expected = order_by_full_scans(moves.as_slice(), &scores[..count]);
            let mut got = Vec::new();
            while let Some(mv) = picker.next(&xiangqi, |_| 0) {
                got.push(mv);
            }
            assert_eq!(got, expected, "trial {trial}");
        }
        // The staged quiet moves of a shogi position with drops, scored with many ties.
        let shogi = ShogiPosition::from_any(
            "lnsgkgsnl/1r5b1/1pppppp1p/9/7p1/2P6/PP1PPPPPP/1B5R1/LNS1KGSNL b Gp 5",
        )
        .unwrap();
        let score_quiet = |mv: Move| ((mv.to as i32 * 7 + mv.from as i32) % 5).min(2);
        let mut quiets = MoveList::new();
        shogi.quiet_moves(&mut quiets);
        let quiet_scores: Vec<i32> = quiets.iter().map(|&mv| score_quiet(mv)).collect();
        let expected = order_by_full_scans(quiets.as_slice(), &quiet_scores);
        let mut picker = MovePicker::new();
        picker.reset(None, [Move::default(); 3]);
        let mut got = Vec::new();
        while let Some(mv) = picker.next(&shogi, score_quiet) {
            if shogi.victim_value(mv) == 0 {
                got.push(mv);
            }
        }
        assert!(expected.len() > 50, "{} quiet moves", expected.len());
        assert_eq!(got, expected);
    }

    /// A filled list's order when every capture's exchange is asked before filling.
    fn order_asking_first<P: EngineRules>(
        position: &P,
        moves: &[Move],
        quiet: &[i32],
    ) -> Vec<Move> {
        let scores: Vec<i32> = moves
            .iter()
            .zip(quiet)
            .map(|(&mv, &quiet)| {
                let victim = position.victim_value(mv);
                let value = victim * 64 - position.attacker_value(mv);
                match victim > 0 {
                    true if exchange_at_least(position, mv, 0) => FILLED_GOOD_CAPTURE + value,
                    true => FILLED_LOSING_CAPTURE + value,
                    false => quiet,
                }
            })
            .collect();
        order_by_full_scans(moves, &scores)
    }

    /// Fills the picker with `position`'s moves, the captures' exchanges left to ask,
    /// checks the order against asking first, and says whether a capture loses material.
    fn late_order_equals_early<P: EngineRules>(position: &P) -> bool {
        let mut picker = MovePicker::new();
        let (moves, scores, verdicts) = picker.fill();
        position.legal_moves(moves);
        // Quiet moves in few classes, so that ties are many.
        let quiet: Vec<i32> = moves.iter().map(|mv| (mv.to as i32 * 7) % 3).collect();
        for (index, &mv) in moves.iter().enumerate() {
            let victim = position.victim_value(mv);
            if victim > 0 {
                scores[index] = FILLED_GOOD_CAPTURE + victim * 64 - position.attacker_value(mv);
                verdicts[index] = ExchangeVerdict::ToAsk;
            } else {
                scores[index] = quiet[index];
                verdicts[index] = ExchangeVerdict::Unknown;
            }
        }
        let expected = order_asking_first(position, moves.as_slice(), &quiet);
        let losing = moves
            .iter()
            .any(|&mv| position.victim_value(mv) > 0 && !exchange_at_least(position, mv, 0));
        let mut got = Vec::new();
        while let Some(mv) = picker.next(position, |_| 0) {
            got.push(mv);
        }
        assert_eq!(got, expected, "{}", position.fen());
        losing
    }

    #[test]
    fn exchanges_asked_late_give_the_order_of_asking_first() {
        let mut with_losing_captures = 0;
        for fen in perft_positions("janggi") {
            let position = JanggiPosition::from_fen(&fen, JanggiRules::KJA).unwrap();
            with_losing_captures += late_order_equals_early(&position) as usize;
        }
        for fen in perft_positions("xiangqi") {
            let position = XiangqiPosition::from_fen(&fen).unwrap();
            with_losing_captures += late_order_equals_early(&position) as usize;
        }
        assert!(with_losing_captures > 20, "{with_losing_captures}");
    }

    /// The captures the staged picker hands out at `position` (no hash move, no
    /// refutations), checked against asking every exchange when they are generated; says
    /// whether a capture loses material.
    fn staged_captures_in_early_order<P: EngineRules>(position: &P) -> bool {
        let mut captures = MoveList::new();
        position.capture_moves(&mut captures);
        let early: Vec<i32> = captures
            .iter()
            .map(|&mv| {
                let value = position.victim_value(mv) * 64 - position.attacker_value(mv);
                value + GOOD_CAPTURE * exchange_at_least(position, mv, 0) as i32
            })
            .collect();
        let expected = order_by_full_scans(captures.as_slice(), &early);
        let mut picker = MovePicker::new();
        picker.reset(None, [Move::default(); 3]);
        let mut got = Vec::new();
        while let Some(mv) = picker.next(position, |_| 0) {
            if position.victim_value(mv) > 0 {
                got.push(mv);
            }
        }
        assert_eq!(got, expected, "{}", position.fen());
        early.iter().any(|&score| score < GOOD_CAPTURE)
    }

    #[test]
    fn staged_captures_asked_late_come_out_in_the_order_of_asking_first() {
        let mut with_losing_captures = 0;
        for fen in perft_positions("xiangqi") {
            let position = XiangqiPosition::from_fen(&fen).unwrap();
            with_losing_captures += staged_captures_in_early_order(&position) as usize;
        }
        for fen in perft_positions("shogi") {
            let position = ShogiPosition::from_any(&fen).unwrap();
            with_losing_captures += staged_captures_in_early_order(&position) as usize;
        }
        assert!(with_losing_captures > 20, "{with_losing_captures}");
    }
}
