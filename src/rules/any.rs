//! Game-neutral access: one enum over every game, for the interface, the
//! protocols and the records. The hot paths (search, perft) use the concrete
//! position types instead.

use super::janggi::{JanggiPosition, JanggiRules};
use super::shogi::ShogiPosition;
use super::xiangqi::XiangqiPosition;
use super::{FenError, IllegalMove, Move, MoveList, Position, Side};

/// The games (families of rule sets).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Chinese chess.
    Xiangqi,
    /// Japanese chess.
    Shogi,
    /// Korean chess (all four rule sets).
    Janggi,
}

/// A rule set: the game and its rules. The id is what the config, the CLI and saved games use.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Xiangqi (`xiangqi`).
    Xiangqi,
    /// Shogi (`shogi`).
    Shogi,
    /// One of the janggi rule sets.
    Janggi(JanggiRules),
}

impl Variant {
    /// Every rule set, in menu order.
    pub const ALL: [Variant; 8] = [
        Variant::Xiangqi,
        Variant::Shogi,
        Variant::Janggi(JanggiRules::KJA),
        Variant::Janggi(JanggiRules::TRADITIONAL),
        Variant::Janggi(JanggiRules::MODERN),
        Variant::Janggi(JanggiRules::CASUAL),
        Variant::Janggi(JanggiRules::GUNGJANGGI),
        Variant::Janggi(JanggiRules::GUNGJANGGI_DAN),
    ];

    /// The Fairy-Stockfish `UCI_Variant` name.
    pub fn protocol_name(self) -> &'static str {
        match self {
            Variant::Xiangqi => "xiangqi",
            Variant::Shogi => "shogi",
            Variant::Janggi(rules) => rules.id,
        }
    }

    /// qipan's own id (hyphenated): `janggi-traditional`, ….
    pub fn id(self) -> &'static str {
        match self.protocol_name() {
            "janggitraditional" => "janggi-traditional",
            "janggimodern" => "janggi-modern",
            "janggicasual" => "janggi-casual",
            other => other,
        }
    }

    /// Reads a rule-set name: the Fairy-Stockfish name or qipan's hyphenated id, any case.
    pub fn from_name(name: &str) -> Option<Variant> {
        let normal = |text: &str| text.trim().to_ascii_lowercase().replace(['-', '_'], "");
        let wanted = normal(name);
        Variant::ALL
            .into_iter()
            .find(|v| normal(v.protocol_name()) == wanted)
    }

    /// True for the two gungjanggi rule sets.
    pub fn is_gungjanggi(self) -> bool {
        matches!(self, Variant::Janggi(rules) if rules.gungjanggi.is_some())
    }

    /// The game this rule set belongs to.
    pub fn kind(self) -> GameKind {
        match self {
            Variant::Xiangqi => GameKind::Xiangqi,
            Variant::Shogi => GameKind::Shogi,
            Variant::Janggi(_) => GameKind::Janggi,
        }
    }

    /// The standard start position.
    pub fn start(self) -> AnyPosition {
        match self {
            Variant::Xiangqi => AnyPosition::Xiangqi(XiangqiPosition::default()),
            Variant::Shogi => AnyPosition::Shogi(ShogiPosition::start()),
            Variant::Janggi(rules) => AnyPosition::Janggi(JanggiPosition::start(rules)),
        }
    }

    /// Reads a position of this rule set (FSF FEN; for shogi also SFEN).
    pub fn position_from_fen(self, fen: &str) -> Result<AnyPosition, FenError> {
        Ok(match self {
            Variant::Xiangqi => AnyPosition::Xiangqi(XiangqiPosition::from_fen(fen)?),
            Variant::Shogi => AnyPosition::Shogi(ShogiPosition::from_any(fen)?),
            Variant::Janggi(rules) => AnyPosition::Janggi(JanggiPosition::from_fen(fen, rules)?),
        })
    }

    /// Reads a position from outside (a record, an engine protocol, the command line)
    /// and refuses one no game can reach: the side not to move in check, too many pieces
    /// of a kind, a xiangqi soldier behind its start line ([`AnyPosition::check_reachable`]).
    pub fn position_from_outside(self, fen: &str) -> Result<AnyPosition, FenError> {
        let position = self.position_from_fen(fen)?;
        position.check_reachable()?;
        Ok(position)
    }
}

/// A position of any game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyPosition {
    /// Xiangqi.
    Xiangqi(XiangqiPosition),
    /// Shogi.
    Shogi(ShogiPosition),
    /// Janggi (any rule set).
    Janggi(JanggiPosition),
}

macro_rules! dispatch {
    ($self:expr, $p:ident => $body:expr) => {
        match $self {
            AnyPosition::Xiangqi($p) => $body,
            AnyPosition::Shogi($p) => $body,
            AnyPosition::Janggi($p) => $body,
        }
    };
}

impl AnyPosition {
    /// The rule set of this position.
    pub fn variant(&self) -> Variant {
        match self {
            AnyPosition::Xiangqi(_) => Variant::Xiangqi,
            AnyPosition::Shogi(_) => Variant::Shogi,
            AnyPosition::Janggi(p) => Variant::Janggi(p.rules()),
        }
    }

    /// Reads a move in Fairy-Stockfish's UCI form for this game (not yet checked for legality).
    pub fn parse_uci(&self, text: &str) -> Option<Move> {
        match self {
            AnyPosition::Xiangqi(p) => p.parse_uci(text),
            AnyPosition::Shogi(p) => p.parse_uci(text),
            AnyPosition::Janggi(p) => p.parse_uci(text),
        }
    }

    /// Checks a move against the history-free rules and says why it is illegal.
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        dispatch!(self, p => p.check_move(mv))
    }

    /// True when the move takes a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        dispatch!(self, p => p.is_capture(mv))
    }

    /// Refuses a position no game can reach (see [`Variant::position_from_outside`]);
    /// shogi's SFEN reader already refuses its impossible positions.
    pub fn check_reachable(&self) -> Result<(), FenError> {
        match self {
            AnyPosition::Xiangqi(position) => position.check_reachable(),
            AnyPosition::Janggi(position) => position.check_reachable(),
            AnyPosition::Shogi(_) => Ok(()),
        }
    }

    /// Perft split by root move.
    pub fn divide(&self, depth: u32) -> Vec<(String, u64)> {
        dispatch!(self, p => super::perft::divide(p, depth))
    }

    /// Perft split by root move, each handed to `each` as it is counted, stopped as soon
    /// as `should_stop` says so (then `false`): `go perft` on a worker that `stop` ends.
    pub fn divide_stoppable(
        &self,
        depth: u32,
        should_stop: &dyn Fn() -> bool,
        each: &mut dyn FnMut(String, u64),
    ) -> bool {
        dispatch!(self, p => super::perft::divide_stoppable(p, depth, should_stop, each))
    }
}

impl Position for AnyPosition {
    fn side_to_move(&self) -> Side {
        dispatch!(self, p => p.side_to_move())
    }
    fn legal_moves(&self, moves: &mut MoveList) {
        dispatch!(self, p => p.legal_moves(moves))
    }
    fn play_unchecked(&mut self, mv: Move) {
        dispatch!(self, p => p.play_unchecked(mv))
    }
    fn in_check(&self) -> bool {
        dispatch!(self, p => p.in_check())
    }
    fn hash(&self) -> u64 {
        dispatch!(self, p => p.hash())
    }
    fn repetition_key(&self) -> u64 {
        dispatch!(self, p => p.repetition_key())
    }
    fn halfmove_clock(&self) -> u32 {
        dispatch!(self, p => p.halfmove_clock())
    }
    fn fen(&self) -> String {
        dispatch!(self, p => p.fen())
    }
    fn move_to_uci(&self, mv: Move) -> String {
        dispatch!(self, p => p.move_to_uci(mv))
    }
    fn perft(&self, depth: u32) -> u64 {
        dispatch!(self, p => p.perft(depth))
    }
}

/// A game-neutral piece kind, for display and notation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PieceKind {
    /// Xiangqi/janggi general (帥/將, 楚/漢).
    General,
    /// Advisor (仕/士).
    Advisor,
    /// Elephant (相/象).
    Elephant,
    /// Horse (傌/馬).
    Horse,
    /// Chariot (俥/車).
    Chariot,
    /// Cannon (炮/砲, 包).
    Cannon,
    /// Soldier (兵/卒).
    Soldier,
    /// Shogi king (玉/王).
    King,
    /// Rook (飛).
    Rook,
    /// Bishop (角).
    Bishop,
    /// Gold (金).
    Gold,
    /// Silver (銀).
    Silver,
    /// Knight (桂).
    Knight,
    /// Lance (香).
    Lance,
    /// Pawn (歩).
    Pawn,
    /// Promoted pawn (と).
    Tokin,
    /// Promoted lance (杏).
    PromotedLance,
    /// Promoted knight (圭).
    PromotedKnight,
    /// Promoted silver (全).
    PromotedSilver,
    /// Promoted bishop (馬).
    PromotedBishop,
    /// Promoted rook (龍).
    Dragon,
}

impl PieceKind {
    /// What a shogi piece becomes when it promotes (歩 → と, 角 → 馬 …); `None` for a
    /// piece that does not promote.
    pub fn promoted(self) -> Option<PieceKind> {
        Some(match self {
            PieceKind::Pawn => PieceKind::Tokin,
            PieceKind::Lance => PieceKind::PromotedLance,
            PieceKind::Knight => PieceKind::PromotedKnight,
            PieceKind::Silver => PieceKind::PromotedSilver,
            PieceKind::Bishop => PieceKind::PromotedBishop,
            PieceKind::Rook => PieceKind::Dragon,
            _ => return None,
        })
    }

    /// True for a promoted shogi piece.
    pub fn is_promoted(self) -> bool {
        matches!(
            self,
            PieceKind::Tokin
                | PieceKind::PromotedLance
                | PieceKind::PromotedKnight
                | PieceKind::PromotedSilver
                | PieceKind::PromotedBishop
                | PieceKind::Dragon
        )
    }
}

/// A piece on the board or in hand: whose and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The owner.
    pub side: Side,
    /// The kind.
    pub kind: PieceKind,
}

fn xiangqi_family_kind(code: u8) -> PieceKind {
    use super::xiangqi::kind;
    match super::xiangqi::kind_of(code) {
        kind::KING => PieceKind::General,
        kind::ADVISOR => PieceKind::Advisor,
        kind::ELEPHANT => PieceKind::Elephant,
        kind::HORSE => PieceKind::Horse,
        kind::CHARIOT => PieceKind::Chariot,
        kind::CANNON => PieceKind::Cannon,
        _ => PieceKind::Soldier,
    }
}

/// The game-neutral kind of a shogi kind number (hand kinds included).
pub(crate) fn shogi_kind(kind_number: u8) -> PieceKind {
    use super::shogi::kind;
    match kind_number {
        kind::PAWN => PieceKind::Pawn,
        kind::LANCE => PieceKind::Lance,
        kind::KNIGHT => PieceKind::Knight,
        kind::SILVER => PieceKind::Silver,
        kind::GOLD => PieceKind::Gold,
        kind::BISHOP => PieceKind::Bishop,
        kind::ROOK => PieceKind::Rook,
        kind::KING => PieceKind::King,
        kind::PROMOTED_PAWN => PieceKind::Tokin,
        kind::PROMOTED_LANCE => PieceKind::PromotedLance,
        kind::PROMOTED_KNIGHT => PieceKind::PromotedKnight,
        kind::PROMOTED_SILVER => PieceKind::PromotedSilver,
        kind::HORSE => PieceKind::PromotedBishop,
        _ => PieceKind::Dragon,
    }
}

/// The shogi hand kind number of a droppable piece kind.
pub fn shogi_hand_kind(kind: PieceKind) -> Option<u8> {
    use super::shogi::kind;
    Some(match kind {
        PieceKind::Pawn => kind::PAWN,
        PieceKind::Lance => kind::LANCE,
        PieceKind::Knight => kind::KNIGHT,
        PieceKind::Silver => kind::SILVER,
        PieceKind::Gold => kind::GOLD,
        PieceKind::Bishop => kind::BISHOP,
        PieceKind::Rook => kind::ROOK,
        _ => return None,
    })
}

impl AnyPosition {
    /// The game this position belongs to.
    pub fn game(&self) -> GameKind {
        self.variant().kind()
    }

    /// Ranks on the board: 10 for xiangqi and janggi, 9 for shogi.
    pub fn ranks(&self) -> u8 {
        match self {
            AnyPosition::Shogi(_) => 9,
            _ => 10,
        }
    }

    /// The piece on a square, if any.
    pub fn piece_on(&self, square: u8) -> Option<Piece> {
        if square >= self.ranks() * 9 {
            return None;
        }
        match self {
            AnyPosition::Xiangqi(p) => {
                Some(p.piece_at(square)).filter(|&c| c != 0).map(|c| Piece {
                    side: super::xiangqi::owner(c),
                    kind: xiangqi_family_kind(c),
                })
            }
            AnyPosition::Janggi(p) => Some(p.piece_at(square)).filter(|&c| c != 0).map(|c| Piece {
                side: super::xiangqi::owner(c),
                kind: xiangqi_family_kind(c),
            }),
            AnyPosition::Shogi(p) => Some(p.piece_at(square)).filter(|&c| c != 0).map(|c| Piece {
                side: super::shogi::owner(c),
                kind: shogi_kind(super::shogi::kind_of(c)),
            }),
        }
    }

    /// The pieces in a side's hand with their counts, rook first (shogi; empty elsewhere).
    pub fn hand(&self, side: Side) -> Vec<(PieceKind, u8)> {
        match self {
            AnyPosition::Shogi(p) => super::shogi::HAND_KINDS
                .iter()
                .filter_map(|&k| {
                    let count = p.hand_count(side, k);
                    (count > 0).then(|| (shogi_kind(k), count))
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    /// The square of the side to move's king when it is in check (for highlighting).
    pub fn checked_king(&self) -> Option<u8> {
        if !self.in_check() {
            return None;
        }
        let side = self.side_to_move();
        Some(match self {
            AnyPosition::Xiangqi(p) => p.king_square(side),
            AnyPosition::Janggi(p) => p.king_square(side),
            AnyPosition::Shogi(p) => p.king_square(side),
        })
    }

    /// The legal moves (history-free) that start on `from` (a pass has `to == from`).
    pub fn moves_from(&self, from: u8) -> Vec<Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .filter(|m| !m.is_drop() && m.from == from)
            .collect()
    }

    /// The legal drops of a piece kind from the side to move's hand.
    pub fn drops_of(&self, kind: PieceKind) -> Vec<Move> {
        let Some(hand_kind) = shogi_hand_kind(kind) else {
            return Vec::new();
        };
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .filter(|m| m.is_drop() && m.from == hand_kind)
            .collect()
    }
}

// ---------------------------------------------------------------------------
// Game-neutral queries added for the terminal client (additive only).
// ---------------------------------------------------------------------------

impl AnyPosition {
    /// Janggi's running KJA points (half points, Han's 1.5 included); `None` for other games.
    pub fn janggi_scores(&self) -> Option<super::Scores> {
        match self {
            // Gungjanggi judges material without Han's 1.5 (by count in the dan manual).
            AnyPosition::Janggi(p) if p.rules().gungjanggi.is_some() => {
                Some(p.gungjanggi_material())
            }
            AnyPosition::Janggi(p) => Some(p.scores()),
            _ => None,
        }
    }

    /// Gungjanggi: true when the piece on `square` is promoted — a king promoted by
    /// breaking a bikjang or by the judging phase, or a soldier or advisor promoted in
    /// Manual 2 — so the board can mark it. Always false in other games.
    pub fn gungjanggi_promoted(&self, square: u8) -> bool {
        let AnyPosition::Janggi(p) = self else {
            return false;
        };
        if p.rules().gungjanggi.is_none() || square >= 90 {
            return false;
        }
        let code = p.piece_at(square);
        if code == 0 {
            return false;
        }
        let side = super::xiangqi::owner(code);
        if super::xiangqi::kind_of(code) == super::xiangqi::kind::KING {
            p.gungjanggi_state().king_promoted[side.index()]
        } else {
            code & super::janggi::PROMOTED != 0
        }
    }

    /// Janggi: true when the generals face each other and the side to move must
    /// break the facing or pass to accept the bikjang. Always false in other games.
    pub fn bikjang_pending(&self) -> bool {
        match self {
            AnyPosition::Janggi(p) => p.bikjang_pending(),
            _ => false,
        }
    }
}

#[cfg(test)]
mod interface_query_tests {
    use super::*;

    #[test]
    fn janggi_scores_and_bikjang_through_any_position() {
        let janggi = Variant::Janggi(JanggiRules::KJA).start();
        let scores = janggi.janggi_scores().expect("janggi has scores");
        // 2 chariots 26, 2 cannons 14, 2 horses 10, 2 elephants 6, 2 advisors 6, 5 soldiers 4 (half points).
        assert_eq!(scores.first, 2 * (26 + 14 + 10 + 6 + 6) + 5 * 4);
        assert_eq!(scores.second, scores.first + 3);
        assert!(!janggi.bikjang_pending());
        assert_eq!(Variant::Xiangqi.start().janggi_scores(), None);
        assert!(!Variant::Shogi.start().bikjang_pending());
    }

    #[test]
    fn promoted_gungjanggi_pieces_are_found_by_square() {
        let gung = |fen: &str, dan: bool| {
            let rules = if dan {
                JanggiRules::GUNGJANGGI_DAN
            } else {
                JanggiRules::GUNGJANGGI
            };
            Variant::Janggi(rules).position_from_fen(fen).unwrap()
        };
        // Han's king (d10 = 84) promoted, Cho's (e2 = 13) not; a promoted soldier on a10 (81).
        let position = gung("+P2k5/9/9/9/9/9/9/9/4K4/9 w - - 0 1 k", true);
        assert!(position.gungjanggi_promoted(84));
        assert!(!position.gungjanggi_promoted(13));
        assert!(position.gungjanggi_promoted(81));
        assert!(!position.gungjanggi_promoted(0), "an empty point");
        let plain = Variant::Janggi(JanggiRules::KJA).start();
        assert!((0..90).all(|square| !plain.gungjanggi_promoted(square)));
    }
}
