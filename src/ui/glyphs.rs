//! Piece glyphs and line characters for each glyph set.

use crate::app::GlyphSet;
use crate::rules::any::{GameKind, Piece, PieceKind};
use crate::rules::Side;

/// The text of a piece: two columns in the CJK sets, one or two letters in the Latin set.
pub fn piece(game: GameKind, piece: Piece, glyphs: GlyphSet) -> &'static str {
    if glyphs == GlyphSet::Latin {
        return latin(piece);
    }
    let first = piece.side == Side::First;
    match (game, piece.kind) {
        (GameKind::Xiangqi, PieceKind::General) => pick(first, "帥", "將"),
        (GameKind::Xiangqi, PieceKind::Advisor) => pick(first, "仕", "士"),
        (GameKind::Xiangqi, PieceKind::Elephant) => pick(first, "相", "象"),
        (GameKind::Xiangqi, PieceKind::Horse) => pick(first, "傌", "馬"),
        (GameKind::Xiangqi, PieceKind::Chariot) => pick(first, "俥", "車"),
        (GameKind::Xiangqi, PieceKind::Cannon) => pick(first, "炮", "砲"),
        (GameKind::Xiangqi, _) => pick(first, "兵", "卒"),
        (GameKind::Janggi, PieceKind::General) => pick(first, "楚", "漢"),
        (GameKind::Janggi, PieceKind::Advisor) => "士",
        (GameKind::Janggi, PieceKind::Elephant) => "象",
        (GameKind::Janggi, PieceKind::Horse) => "馬",
        (GameKind::Janggi, PieceKind::Chariot) => "車",
        (GameKind::Janggi, PieceKind::Cannon) => "包",
        (GameKind::Janggi, _) => pick(first, "卒", "兵"),
        (GameKind::Shogi, kind) => shogi_kanji(kind, first),
    }
}

fn pick(first: bool, a: &'static str, b: &'static str) -> &'static str {
    if first {
        a
    } else {
        b
    }
}

fn shogi_kanji(kind: PieceKind, first: bool) -> &'static str {
    match kind {
        PieceKind::King => pick(first, "玉", "王"),
        PieceKind::Rook => "飛",
        PieceKind::Bishop => "角",
        PieceKind::Gold => "金",
        PieceKind::Silver => "銀",
        PieceKind::Knight => "桂",
        PieceKind::Lance => "香",
        PieceKind::Pawn => "歩",
        PieceKind::Tokin => "と",
        PieceKind::PromotedLance => "杏",
        PieceKind::PromotedKnight => "圭",
        PieceKind::PromotedSilver => "全",
        PieceKind::PromotedBishop => "馬",
        PieceKind::Dragon => "龍",
        _ => "?",
    }
}

fn latin(piece: Piece) -> &'static str {
    let first = piece.side == Side::First;
    match piece.kind {
        PieceKind::General | PieceKind::King => pick(first, "K", "k"),
        PieceKind::Advisor => pick(first, "A", "a"),
        PieceKind::Elephant => pick(first, "E", "e"),
        PieceKind::Horse => pick(first, "H", "h"),
        PieceKind::Chariot => pick(first, "R", "r"),
        PieceKind::Cannon => pick(first, "C", "c"),
        PieceKind::Soldier => pick(first, "P", "p"),
        PieceKind::Rook => pick(first, "R", "r"),
        PieceKind::Bishop => pick(first, "B", "b"),
        PieceKind::Gold => pick(first, "G", "g"),
        PieceKind::Silver => pick(first, "S", "s"),
        PieceKind::Knight => pick(first, "N", "n"),
        PieceKind::Lance => pick(first, "L", "l"),
        PieceKind::Pawn => pick(first, "P", "p"),
        PieceKind::Tokin => pick(first, "+P", "+p"),
        PieceKind::PromotedLance => pick(first, "+L", "+l"),
        PieceKind::PromotedKnight => pick(first, "+N", "+n"),
        PieceKind::PromotedSilver => pick(first, "+S", "+s"),
        PieceKind::PromotedBishop => pick(first, "+B", "+b"),
        PieceKind::Dragon => pick(first, "+R", "+r"),
    }
}

/// The mark drawn right after a promoted gungjanggi piece (king, soldier or advisor): `+`
/// beside a CJK glyph (the grid there is box-drawing, so it never reads as a junction), `*`
/// beside a Latin letter (whose grid junctions are `+`). Colourless, so it shows in every
/// theme; `wide` asks for the two-column form that fills a wide-lines gap.
pub fn promotion_mark(glyphs: GlyphSet, wide: bool) -> &'static str {
    match glyphs {
        GlyphSet::Latin => "*",
        _ if wide => "＋",
        _ => "+",
    }
}

/// A piece's text with its promotion mark, as the help and the panel show a promoted piece.
pub fn promoted_piece(game: GameKind, piece: Piece, glyphs: GlyphSet) -> String {
    format!(
        "{}{}",
        self::piece(game, piece, glyphs),
        promotion_mark(glyphs, false)
    )
}

/// Line characters for the boards.
#[derive(Clone, Copy, Debug)]
pub struct Lines {
    /// Horizontal line.
    pub horizontal: &'static str,
    /// Vertical line.
    pub vertical: &'static str,
    /// Corners and junctions: ┌ ┬ ┐ ├ ┼ ┤ └ ┴ ┘.
    pub junctions: [&'static str; 9],
    /// Rising diagonal (╱).
    pub rising: &'static str,
    /// Falling diagonal (╲).
    pub falling: &'static str,
    /// An empty legal target.
    pub target: &'static str,
    /// The Gote mark before a shogi piece.
    pub gote_mark: &'static str,
}

/// The line characters of a glyph set.
pub fn lines(glyphs: GlyphSet) -> Lines {
    match glyphs {
        GlyphSet::Latin => Lines {
            horizontal: "-",
            vertical: "|",
            junctions: ["+", "+", "+", "+", "+", "+", "+", "+", "+"],
            rising: "/",
            falling: "\\",
            target: "o",
            gote_mark: "v",
        },
        _ => Lines {
            horizontal: "─",
            vertical: "│",
            junctions: ["┌", "┬", "┐", "├", "┼", "┤", "└", "┴", "┘"],
            rising: "╱",
            falling: "╲",
            target: "・",
            gote_mark: "v",
        },
    }
}

/// Full-width digits for coordinates.
pub const FULL_WIDTH_DIGITS: [&str; 10] =
    ["０", "１", "２", "３", "４", "５", "６", "７", "８", "９"];

/// Chinese numerals one to nine (xiangqi Red files, shogi ranks).
pub const CHINESE_NUMERALS: [&str; 9] = ["一", "二", "三", "四", "五", "六", "七", "八", "九"];
