//! Native move notation for every game: writing a legal move in a notation, and reading a
//! move typed in any notation of the game.
//!
//! Writing is direct. Reading works by generation (FORMATS.md §6.2): every legal move of the
//! position is written in every notation of the game (plus accepted aliases), both sides are
//! normalised (full-width to ASCII, traditional to simplified characters, 竜 to 龍, …) and
//! compared. Coordinate forms (ICCS, USI, engine coordinates, Korean digits) are also parsed
//! directly so an illegal coordinate move gets a reason. Pure: no I/O.

use std::fmt;

use super::any::{AnyPosition, GameKind, PieceKind, Variant};
use super::{Move, MoveList, Position, Side};

/// A way of writing moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// Xiangqi Chinese notation (炮二平五, 马８进７), simplified or traditional characters.
    Chinese {
        /// True to write simplified characters (马, 进), false for traditional (馬, 進).
        simplified: bool,
    },
    /// Xiangqi WXF notation (C2.5, H8+7, R+.3).
    Wxf,
    /// Xiangqi ICCS coordinates with ranks 0–9 (H2-E2).
    Iccs,
    /// Shogi Japanese (KI2 style) notation (▲７六歩, △同　銀, ▲５八金右).
    Japanese,
    /// Shogi Western notation after Hodges (P-7f, Bx2b+, S*5e).
    Hodges,
    /// Shogi USI coordinates (7g7f, P*5e, 8h2b+).
    Usi,
    /// Janggi Korean coordinates, row first (79졸78), Hangul or hanja piece names.
    Korean {
        /// True for Hangul piece names (졸), false for hanja (卒).
        hangul: bool,
    },
    /// The engine's coordinates (Fairy-Stockfish UCI mode: h3e3, P@e5, a4b4).
    Engine,
}

impl Notation {
    /// The notations of a game, in the order the interface cycles through them.
    pub fn for_game(game: GameKind) -> &'static [Notation] {
        match game {
            GameKind::Xiangqi => &[
                Notation::Chinese { simplified: false },
                Notation::Chinese { simplified: true },
                Notation::Wxf,
                Notation::Iccs,
                Notation::Engine,
            ],
            GameKind::Shogi => &[
                Notation::Japanese,
                Notation::Hodges,
                Notation::Usi,
                Notation::Engine,
            ],
            GameKind::Janggi => &[
                Notation::Korean { hangul: true },
                Notation::Korean { hangul: false },
                Notation::Engine,
            ],
        }
    }

    /// The notation after this one for the game (wrapping round); the game's first if this
    /// notation does not belong to the game.
    pub fn next(self, game: GameKind) -> Notation {
        let all = Notation::for_game(game);
        match all.iter().position(|&n| n == self) {
            Some(index) => all[(index + 1) % all.len()],
            None => all[0],
        }
    }

    /// A short English name for the status line.
    pub fn name(self) -> &'static str {
        match self {
            Notation::Chinese { simplified: true } => "Chinese (simplified)",
            Notation::Chinese { simplified: false } => "Chinese (traditional)",
            Notation::Wxf => "WXF",
            Notation::Iccs => "ICCS",
            Notation::Japanese => "Japanese",
            Notation::Hodges => "Western (Hodges)",
            Notation::Usi => "USI",
            Notation::Korean { hangul: true } => "Korean (Hangul)",
            Notation::Korean { hangul: false } => "Korean (hanja)",
            Notation::Engine => "engine coordinates",
        }
    }
}

/// The notation the move list uses by default: the game's native script in the Korean
/// interface (Chinese characters for xiangqi, Japanese for shogi, Hangul for janggi), and
/// WXF, Hodges and hanja Korean coordinates otherwise.
pub fn default_notation(variant: Variant, korean_interface: bool) -> Notation {
    match (variant.kind(), korean_interface) {
        (GameKind::Xiangqi, true) => Notation::Chinese { simplified: false },
        (GameKind::Xiangqi, false) => Notation::Wxf,
        (GameKind::Shogi, true) => Notation::Japanese,
        (GameKind::Shogi, false) => Notation::Hodges,
        (GameKind::Janggi, hangul) => Notation::Korean { hangul },
    }
}

/// Why a typed or recorded move could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotationError {
    /// The text is not a move in any notation of the game.
    Unknown(String),
    /// The text names a move, but it is not legal here.
    Illegal {
        /// The text as given.
        text: String,
        /// Why the move is refused, in English.
        reason: String,
        /// Why the move is refused, as data an interface can say in its own language.
        refusal: Refusal,
    },
    /// The text fits more than one legal move.
    Ambiguous {
        /// The text as given.
        text: String,
        /// The moves it could mean, each written unambiguously in the notation of the text.
        candidates: Vec<String>,
    },
}

/// Why a move named in notation is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The rules refuse the move.
    Rule(crate::rules::IllegalMove),
    /// Janggi coordinates name a piece other than the one on the square (`square`,
    /// `piece`: the piece's Korean name).
    WrongPiece {
        /// The square as written (`79`).
        square: String,
        /// The Korean name of the piece that stands there.
        piece: String,
    },
    /// The text looks like a move of the game, but no legal move is written this way.
    NotWrittenHere,
    /// The move exists but is not allowed here for another reason.
    NotAllowed,
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Unknown(text) => write!(f, "not a move: {text}"),
            NotationError::Illegal { text, reason, .. } => write!(f, "{text}: {reason}"),
            NotationError::Ambiguous { text, candidates } => {
                write!(f, "{text} is ambiguous: {}", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Writes a legal move of `position` in `notation`. A notation of another game falls back
/// to the engine's coordinates.
pub fn format_move(position: &AnyPosition, mv: Move, notation: Notation) -> String {
    format_move_after(position, mv, notation, None)
}

/// Like [`format_move`], knowing the previous move so shogi's Japanese notation can write
/// 同 for a move to the square the previous move ended on.
pub fn format_move_after(
    position: &AnyPosition,
    mv: Move,
    notation: Notation,
    previous: Option<Move>,
) -> String {
    let legal = legal_moves(position);
    match (position.game(), notation) {
        (GameKind::Xiangqi, Notation::Chinese { simplified }) => {
            chinese(position, mv, simplified, false)
        }
        (GameKind::Xiangqi, Notation::Wxf) => wxf(position, mv, false),
        (GameKind::Xiangqi, Notation::Iccs) => iccs(mv),
        (GameKind::Shogi, Notation::Japanese) => {
            let same = previous.is_some_and(|p| p.to == mv.to);
            japanese(position, &legal, mv, same, true)
        }
        (GameKind::Shogi, Notation::Hodges) => hodges(position, &legal, mv, RankStyle::Letter),
        (GameKind::Shogi, Notation::Usi) => match position {
            AnyPosition::Shogi(p) => p.move_to_usi(mv),
            _ => position.move_to_uci(mv),
        },
        (GameKind::Janggi, Notation::Korean { hangul }) => korean(position, mv, hangul),
        _ => position.move_to_uci(mv),
    }
}

/// Reads a move written in any notation of the position's game.
///
/// Xiangqi coordinates are read both as ICCS (ranks 0–9) and as engine coordinates (ranks
/// 1–10): when both readings are legal and differ the text is reported as ambiguous, when
/// only one is legal that one is taken. Use [`parse_move_in`] to read one notation only.
pub fn parse_move(position: &AnyPosition, text: &str) -> Result<Move, NotationError> {
    parse_move_after(position, text, None)
}

/// Like [`parse_move`], knowing the previous move so shogi's 同 can be read.
pub fn parse_move_after(
    position: &AnyPosition,
    text: &str,
    previous: Option<Move>,
) -> Result<Move, NotationError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(NotationError::Unknown(text.to_string()));
    }
    let legal = legal_moves(position);
    let game = position.game();

    // Coordinate forms first: they carry a reason when illegal.
    if let Some((reason, refusal)) = direct_piece_mismatch(position, trimmed) {
        return Err(NotationError::Illegal {
            text: trimmed.to_string(),
            reason,
            refusal,
        });
    }
    let mut illegal = None;
    let direct = direct_candidates(position, trimmed);
    let mut direct_legal: Vec<Move> = Vec::new();
    for mv in &direct {
        if legal.contains(mv) {
            if !direct_legal.contains(mv) {
                direct_legal.push(*mv);
            }
        } else if illegal.is_none() {
            illegal = Some(illegal_reason(position, *mv));
        }
    }
    match direct_legal.len() {
        1 => return Ok(direct_legal[0]),
        0 => {}
        _ => {
            return Err(NotationError::Ambiguous {
                text: trimmed.to_string(),
                candidates: direct_legal
                    .iter()
                    .map(|&m| format_move(position, m, Notation::Engine))
                    .collect(),
            })
        }
    }

    // Then by generation: exact forms, then loose forms (qualifiers left out).
    // A KIF origin such as `７六歩(77)` narrows the search to moves from that square.
    let (body, origin) = kif_origin(game, trimmed);
    let wanted = [
        normalise(game, body),
        normalise(game, strip_annotations(game, body)),
    ];
    let rendered: Vec<(Move, Forms)> = legal
        .iter()
        .map(|&mv| (mv, forms(position, &legal, mv, previous)))
        .collect();
    for loose in [false, true] {
        let mut found: Vec<Move> = Vec::new();
        for (mv, forms) in &rendered {
            let list = if loose { &forms.loose } else { &forms.exact };
            let from_origin = origin.is_none_or(|square| !mv.is_drop() && mv.from == square);
            if from_origin && list.iter().any(|f| wanted.contains(f)) && !found.contains(mv) {
                found.push(*mv);
            }
        }
        match found.len() {
            0 => continue,
            1 => return Ok(found[0]),
            _ => {
                let notation = guess_notation(position.game(), trimmed);
                return Err(NotationError::Ambiguous {
                    text: trimmed.to_string(),
                    candidates: found
                        .iter()
                        .map(|&m| format_move_after(position, m, notation, previous))
                        .collect(),
                });
            }
        }
    }
    if let Some((reason, refusal)) = illegal {
        return Err(NotationError::Illegal {
            text: trimmed.to_string(),
            reason,
            refusal,
        });
    }
    if looks_like_notation(game, trimmed) {
        return Err(NotationError::Illegal {
            text: trimmed.to_string(),
            reason: "no legal move is written this way here".to_string(),
            refusal: Refusal::NotWrittenHere,
        });
    }
    Err(NotationError::Unknown(trimmed.to_string()))
}

/// Reads a move written in one given notation only (no guessing between notations whose
/// strings look alike, such as ICCS `h2e2` and engine `h3e3`).
pub fn parse_move_in(
    position: &AnyPosition,
    text: &str,
    notation: Notation,
) -> Result<Move, NotationError> {
    let trimmed = text.trim();
    let legal = legal_moves(position);
    let game = position.game();
    let wanted = [
        normalise(game, trimmed),
        normalise(game, strip_annotations(game, trimmed)),
    ];
    let found: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|&mv| wanted.contains(&normalise(game, &format_move(position, mv, notation))))
        .collect();
    match found.len() {
        1 => Ok(found[0]),
        0 => parse_move(position, trimmed),
        _ => Err(NotationError::Ambiguous {
            text: trimmed.to_string(),
            candidates: found
                .iter()
                .map(|&m| format_move(position, m, notation))
                .collect(),
        }),
    }
}

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

fn legal_moves(position: &AnyPosition) -> Vec<Move> {
    let mut moves = MoveList::new();
    position.legal_moves(&mut moves);
    moves.iter().copied().collect()
}

fn rank_of(square: u8) -> i32 {
    i32::from(square / 9)
}

fn file_of(square: u8) -> i32 {
    i32::from(square % 9)
}

/// +1 when "forward" for `side` means a higher rank index (the first player), else −1.
fn forward_sign(side: Side) -> i32 {
    match side {
        Side::First => 1,
        Side::Second => -1,
    }
}

/// Why a move is refused, in words.
fn illegal_reason(position: &AnyPosition, mv: Move) -> (String, Refusal) {
    match position.check_move(mv) {
        Err(why) => (why.describe().to_string(), Refusal::Rule(why)),
        Ok(()) => (
            "the move is not allowed here".to_string(),
            Refusal::NotAllowed,
        ),
    }
}

/// The written forms of one legal move, normalised: `exact` must match the input exactly,
/// `loose` leaves out qualifiers (so a missing qualifier is reported as ambiguous).
struct Forms {
    exact: Vec<String>,
    loose: Vec<String>,
}

fn forms(position: &AnyPosition, legal: &[Move], mv: Move, previous: Option<Move>) -> Forms {
    let game = position.game();
    let mut exact = Vec::new();
    let mut loose = Vec::new();
    match game {
        GameKind::Xiangqi => {
            exact.push(chinese(position, mv, true, false));
            exact.push(chinese(position, mv, true, true));
            exact.push(wxf(position, mv, false));
            if let Some(indexed) = wxf_indexed(position, mv) {
                exact.push(indexed);
            }
            loose.push(chinese_plain(position, mv, true));
            let plain = wxf(position, mv, true);
            // Some books leave the operator out (`C25`); legality tells which was meant.
            loose.push(format!("{}{}", &plain[..2], &plain[3..]));
            loose.push(plain);
        }
        GameKind::Shogi => {
            let same = previous.is_some_and(|p| p.to == mv.to);
            exact.push(japanese(position, legal, mv, false, true));
            if same {
                exact.push(japanese(position, legal, mv, true, true));
            }
            exact.push(hodges(position, legal, mv, RankStyle::Letter));
            exact.push(hodges(position, legal, mv, RankStyle::Digit));
            exact.push(hodges(position, legal, mv, RankStyle::LetterWithOrigin));
            exact.push(hodges(position, legal, mv, RankStyle::DigitWithOrigin));
            loose.push(japanese(position, legal, mv, false, false));
            if same {
                loose.push(japanese(position, legal, mv, true, false));
            }
            loose.push(hodges_loose(position, mv));
        }
        GameKind::Janggi => {
            exact.push(korean(position, mv, true));
            exact.push(korean(position, mv, false));
        }
    }
    Forms {
        exact: exact.iter().map(|f| normalise(game, f)).collect(),
        loose: loose.iter().map(|f| normalise(game, f)).collect(),
    }
}

/// The notation a text seems to be written in (to word the candidates of an ambiguity).
fn guess_notation(game: GameKind, text: &str) -> Notation {
    let ascii = text.is_ascii();
    match game {
        GameKind::Xiangqi if ascii => Notation::Wxf,
        GameKind::Xiangqi => Notation::Chinese {
            simplified: !text.chars().any(|c| "進後帥將俥車傌馬砲".contains(c)),
        },
        GameKind::Shogi if ascii => Notation::Hodges,
        GameKind::Shogi => Notation::Japanese,
        GameKind::Janggi => Notation::Korean {
            hangul: !text.chars().any(|c| "卒兵馬象車包士將楚漢".contains(c)),
        },
    }
}

/// True when the text uses the characters of one of the game's notations.
fn looks_like_notation(game: GameKind, text: &str) -> bool {
    let text = normalise(game, text);
    match game {
        GameKind::Xiangqi => {
            text.chars().any(|c| "进退平".contains(c))
                || (text.len() >= 4
                    && text.starts_with(|c: char| "KAEHRCP+-123456789".contains(c))
                    && text.chars().any(|c| "+-.".contains(c)))
        }
        GameKind::Shogi => {
            text.chars().any(|c| "歩香桂銀金角飛玉と龍馬成".contains(c))
                || text.contains('-')
                || text.contains('*')
        }
        GameKind::Janggi => text.chars().filter(|c| c.is_ascii_digit()).count() == 4,
    }
}

/// Removes trailing annotations: `!`, `?`, `#`, check words, and (outside shogi, where `+`
/// means promotion) a trailing `+`.
fn strip_annotations(game: GameKind, text: &str) -> &str {
    let mut text = text.trim_end();
    loop {
        let before = text;
        for word in ["장군", "멍군", "将军", "將軍", "王手"] {
            text = text.strip_suffix(word).unwrap_or(text);
        }
        text = text.trim_end_matches(['!', '?', '#']);
        if game != GameKind::Shogi {
            text = text.trim_end_matches('+');
        }
        text = text.trim_end();
        if text == before {
            return text;
        }
    }
}

/// Normalises a move text for comparison: full-width to ASCII, spaces and side marks
/// removed, kanji numerals to digits, and per game: xiangqi traditional to simplified and
/// upper case with `=` read as `.`; shogi 竜→龍, 王→玉, 全/圭/杏 → 成銀/成桂/成香, lower
/// case, `x` read as `-` and `'` as `*`.
fn normalise(game: GameKind, text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        let c = match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        };
        if c.is_whitespace() || "▲△☗☖▼▽".contains(c) {
            continue;
        }
        if let Some(digit) = "一二三四五六七八九".chars().position(|n| n == c) {
            out.push((b'1' + digit as u8) as char);
            continue;
        }
        match game {
            GameKind::Xiangqi => {
                let mapped = match c {
                    '進' | '上' => '进',
                    '下' => '退',
                    '後' => '后',
                    '帥' => '帅',
                    '將' => '将',
                    '俥' | '車' => '车',
                    '傌' | '馬' => '马',
                    '砲' | '包' => '炮',
                    '=' => '.',
                    other => other.to_ascii_uppercase(),
                };
                out.push(mapped);
            }
            GameKind::Shogi => match c {
                '竜' => out.push('龍'),
                '王' => out.push('玉'),
                '全' => out.push_str("成銀"),
                '圭' => out.push_str("成桂"),
                '杏' => out.push_str("成香"),
                'x' | 'X' => out.push('-'),
                '\'' => out.push('*'),
                other => out.push(other.to_ascii_lowercase()),
            },
            GameKind::Janggi => out.push(c.to_ascii_uppercase()),
        }
    }
    if game == GameKind::Xiangqi {
        // WXF letter synonyms: B/M elephant, N horse, G advisor.
        let mut chars: Vec<char> = out.chars().collect();
        if let Some(first) = chars.first_mut() {
            *first = match *first {
                'B' | 'M' => 'E',
                'N' => 'H',
                'G' => 'A',
                other => other,
            };
        }
        out = chars.into_iter().collect();
    }
    out
}

/// Shogi: splits a KIF origin square in brackets (`７六歩(77)`) off the end of a move.
fn kif_origin(game: GameKind, text: &str) -> (&str, Option<u8>) {
    if game != GameKind::Shogi {
        return (text, None);
    }
    let Some(open) = text.rfind('(') else {
        return (text, None);
    };
    let inside = &text[open..];
    let digits: Vec<u8> = inside
        .chars()
        .filter_map(|c| match c {
            '1'..='9' => Some(c as u8 - b'0'),
            '１'..='９' => Some((c as u32 - '１' as u32) as u8 + 1),
            _ => None,
        })
        .collect();
    match (digits.as_slice(), inside.trim_end().ends_with(')')) {
        (&[file, rank], true) => {
            let square = (9 - rank) * 9 + (9 - file);
            (text[..open].trim_end(), Some(square))
        }
        _ => (text, None),
    }
}

/// Moves read straight from coordinates (ICCS, engine, USI, Korean digits), legal or not.
fn direct_candidates(position: &AnyPosition, text: &str) -> Vec<Move> {
    let mut found = Vec::new();
    let ascii: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .map(|c| match c {
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            _ => c,
        })
        .collect();
    match position {
        AnyPosition::Xiangqi(_) => {
            let lower = ascii.to_ascii_lowercase().replace('-', "");
            let bytes = lower.as_bytes();
            if let [f1 @ b'a'..=b'i', r1 @ b'0'..=b'9', f2 @ b'a'..=b'i', r2 @ b'0'..=b'9'] = bytes
            {
                let from = (r1 - b'0') * 9 + (f1 - b'a');
                let to = (r2 - b'0') * 9 + (f2 - b'a');
                found.push(Move::new(from, to));
            }
            if let Some(mv) = position.parse_uci(&lower) {
                found.push(mv);
            }
        }
        AnyPosition::Shogi(p) => {
            if let Some(mv) = p.parse_usi(&ascii) {
                found.push(mv);
            }
            if let Some(mv) = position.parse_uci(&ascii) {
                found.push(mv);
            }
        }
        AnyPosition::Janggi(p) => {
            let trimmed = strip_annotations(GameKind::Janggi, &ascii);
            let accepts_bikjang =
                [ACCEPT_BIKJANG, "acceptbikjang"].contains(&trimmed.to_lowercase().as_str());
            if ["한수쉼", "pass", "패스"].contains(&trimmed)
                || (accepts_bikjang && p.bikjang_pending())
            {
                let king = p.king_square(position.side_to_move());
                found.push(Move::new(king, king));
            }
            let digits: Vec<u8> = trimmed
                .bytes()
                .filter(u8::is_ascii_digit)
                .map(|b| b - b'0')
                .collect();
            if let [r1, f1 @ 1..=9, r2, f2 @ 1..=9] = digits[..] {
                found.push(Move::new(korean_square(r1, f1), korean_square(r2, f2)));
            }
            if let Some(mv) = position.parse_uci(&trimmed.to_ascii_lowercase()) {
                found.push(mv);
            }
        }
    }
    found
}

/// Janggi: when the text is `79卒78`-like and names a piece that is not on the origin
/// square, says so.
fn direct_piece_mismatch(position: &AnyPosition, text: &str) -> Option<(String, Refusal)> {
    let AnyPosition::Janggi(_) = position else {
        return None;
    };
    let text = strip_annotations(GameKind::Janggi, text);
    let digits: Vec<u8> = text
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| b - b'0')
        .collect();
    let [r1, f1 @ 1..=9, _, _] = digits[..] else {
        return None;
    };
    let named: Vec<char> = text
        .chars()
        .filter(|c| !c.is_ascii_digit() && !"-xX楚漢".contains(*c))
        .collect();
    let first = *named.first()?;
    let from = korean_square(r1, f1);
    let piece = position.piece_on(from)?;
    let names = [
        korean_piece_name(piece.kind, piece.side, true),
        korean_piece_name(piece.kind, piece.side, false),
        janggi_letter(piece.kind),
    ];
    let side_names = ['楚', '漢'];
    if names.iter().any(|n| n.starts_with(first)) || side_names.contains(&first) {
        None
    } else {
        let name = korean_piece_name(piece.kind, piece.side, true);
        Some((
            format!("the piece on {r1}{f1} is {name}"),
            Refusal::WrongPiece {
                square: format!("{r1}{f1}"),
                piece: name.to_string(),
            },
        ))
    }
}

// ---------------------------------------------------------------------------
// Xiangqi
// ---------------------------------------------------------------------------

/// A file counted from the mover's right, 1–9.
fn own_file(side: Side, file: i32) -> i32 {
    match side {
        Side::First => 9 - file,
        Side::Second => file + 1,
    }
}

/// Several pieces of one kind on the moving piece's file: its index from the front,
/// how many there are, and whether soldiers stand stacked on two or more files.
struct Tandem {
    index: usize,
    count: usize,
    several_files: bool,
}

fn tandem(position: &AnyPosition, from: u8) -> Option<Tandem> {
    let piece = position.piece_on(from)?;
    if matches!(piece.kind, PieceKind::Advisor | PieceKind::Elephant) {
        return None;
    }
    let on_file = |file: i32| -> Vec<u8> {
        let mut squares: Vec<u8> = (0..10)
            .map(|rank| (rank * 9 + file) as u8)
            .filter(|&sq| position.piece_on(sq) == Some(piece))
            .collect();
        // Front first: the most advanced piece for its owner.
        if piece.side == Side::First {
            squares.reverse();
        }
        squares
    };
    let squares = on_file(file_of(from));
    if squares.len() < 2 {
        return None;
    }
    let several_files = piece.kind == PieceKind::Soldier
        && (0..9).filter(|&file| on_file(file).len() >= 2).count() >= 2;
    Some(Tandem {
        index: squares.iter().position(|&sq| sq == from)?,
        count: squares.len(),
        several_files,
    })
}

fn chinese_piece_name(kind: PieceKind, side: Side, simplified: bool) -> &'static str {
    match (kind, side, simplified) {
        (PieceKind::General, Side::First, true) => "帅",
        (PieceKind::General, Side::First, false) => "帥",
        (PieceKind::General, Side::Second, true) => "将",
        (PieceKind::General, Side::Second, false) => "將",
        (PieceKind::Advisor, Side::First, _) => "仕",
        (PieceKind::Advisor, Side::Second, _) => "士",
        (PieceKind::Elephant, Side::First, _) => "相",
        (PieceKind::Elephant, Side::Second, _) => "象",
        (PieceKind::Horse, _, true) => "马",
        (PieceKind::Horse, Side::First, false) => "傌",
        (PieceKind::Horse, Side::Second, false) => "馬",
        (PieceKind::Chariot, _, true) => "车",
        (PieceKind::Chariot, Side::First, false) => "俥",
        (PieceKind::Chariot, Side::Second, false) => "車",
        (PieceKind::Cannon, Side::Second, false) => "砲",
        (PieceKind::Cannon, _, _) => "炮",
        (_, Side::First, _) => "兵",
        (_, Side::Second, _) => "卒",
    }
}

/// A number as the side writes it: Chinese numerals for Red, full-width digits for Black.
fn side_number(side: Side, number: i32) -> char {
    let index = (number.clamp(1, 9) - 1) as usize;
    match side {
        Side::First => "一二三四五六七八九".chars().nth(index).unwrap_or('一'),
        Side::Second => "１２３４５６７８９".chars().nth(index).unwrap_or('１'),
    }
}

/// Direction word, target number and whether the piece moves diagonally.
fn xiangqi_motion(position: &AnyPosition, mv: Move) -> (i32, i32, Side, PieceKind) {
    let piece = position.piece_on(mv.from).unwrap_or(super::any::Piece {
        side: position.side_to_move(),
        kind: PieceKind::Soldier,
    });
    let side = piece.side;
    let steps = (rank_of(mv.to) - rank_of(mv.from)) * forward_sign(side);
    let diagonal = matches!(
        piece.kind,
        PieceKind::Horse | PieceKind::Elephant | PieceKind::Advisor
    );
    let target = if steps == 0 || diagonal {
        own_file(side, file_of(mv.to))
    } else {
        steps.abs()
    };
    (steps, target, side, piece.kind)
}

fn chinese_direction(steps: i32, simplified: bool) -> char {
    match steps.signum() {
        1 if simplified => '进',
        1 => '進',
        -1 => '退',
        _ => '平',
    }
}

/// Chinese notation. `long` writes the five-character form for stacked pieces (前兵三进一).
fn chinese(position: &AnyPosition, mv: Move, simplified: bool, long: bool) -> String {
    let (steps, target, side, kind) = xiangqi_motion(position, mv);
    let name = chinese_piece_name(kind, side, simplified);
    let file = side_number(side, own_file(side, file_of(mv.from)));
    let direction = chinese_direction(steps, simplified);
    let target = side_number(side, target);
    let Some(tandem) = tandem(position, mv.from) else {
        return format!("{name}{file}{direction}{target}");
    };
    let rear = if simplified { "后" } else { "後" };
    let words: Vec<&str> = match tandem.count {
        2 => vec!["前", rear],
        3 => vec!["前", "中", rear],
        _ => vec!["前", "二", "三", "四", "五"],
    };
    let word = words.get(tandem.index).copied().unwrap_or("前");
    if long {
        format!("{word}{name}{file}{direction}{target}")
    } else if tandem.several_files {
        format!("{word}{file}{direction}{target}")
    } else {
        format!("{word}{name}{direction}{target}")
    }
}

/// Chinese notation without the stacked-piece qualifier (for reporting ambiguity).
fn chinese_plain(position: &AnyPosition, mv: Move, simplified: bool) -> String {
    let (steps, target, side, kind) = xiangqi_motion(position, mv);
    format!(
        "{}{}{}{}",
        chinese_piece_name(kind, side, simplified),
        side_number(side, own_file(side, file_of(mv.from))),
        chinese_direction(steps, simplified),
        side_number(side, target)
    )
}

fn wxf_letter(kind: PieceKind) -> char {
    match kind {
        PieceKind::General => 'K',
        PieceKind::Advisor => 'A',
        PieceKind::Elephant => 'E',
        PieceKind::Horse => 'H',
        PieceKind::Chariot => 'R',
        PieceKind::Cannon => 'C',
        _ => 'P',
    }
}

/// Official WXF notation. `plain` leaves out the tandem forms.
fn wxf(position: &AnyPosition, mv: Move, plain: bool) -> String {
    let (steps, target, side, kind) = xiangqi_motion(position, mv);
    let letter = wxf_letter(kind);
    let file = own_file(side, file_of(mv.from));
    let operator = match steps.signum() {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    let head = match tandem(position, mv.from).filter(|_| !plain) {
        None => format!("{letter}{file}"),
        Some(t) if t.several_files => {
            let mark = match (t.count, t.index) {
                (_, 0) => "+".to_string(),
                (3, 1) => file.to_string(),
                _ => "-".to_string(),
            };
            format!("{file}{mark}")
        }
        Some(t) if kind != PieceKind::Soldier || t.count == 2 => {
            format!("{letter}{}", if t.index == 0 { '+' } else { '-' })
        }
        Some(t) => match (t.count, t.index) {
            (3, 0) | (4, 1) | (5, 1) => "P+".to_string(),
            (3, 1) | (5, 2) => format!("P{file}"),
            (3, 2) | (4, 2) | (5, 3) => "P-".to_string(),
            (_, 0) => "++".to_string(),
            _ => "--".to_string(),
        },
    };
    format!("{head}{operator}{target}")
}

/// Fairy-Stockfish's WXF for stacked soldiers (three or more on a file, or two or more
/// files with two or more): the soldier's index from the front on its file replaces the
/// letter, `15=6` for the front soldier of file 5 (FORMATS.md §2.4). `None` for other moves.
fn wxf_indexed(position: &AnyPosition, mv: Move) -> Option<String> {
    let (steps, target, side, kind) = xiangqi_motion(position, mv);
    let stack = tandem(position, mv.from)?;
    if kind != PieceKind::Soldier || (stack.count < 3 && !stack.several_files) {
        return None;
    }
    let operator = match steps.signum() {
        1 => '+',
        -1 => '-',
        _ => '.',
    };
    let file = own_file(side, file_of(mv.from));
    Some(format!("{}{file}{operator}{target}", stack.index + 1))
}

/// ICCS coordinates with ranks 0–9, upper case with a dash (H2-E2).
fn iccs(mv: Move) -> String {
    let square = |sq: u8| format!("{}{}", (b'A' + sq % 9) as char, sq / 9);
    format!("{}-{}", square(mv.from), square(mv.to))
}

// ---------------------------------------------------------------------------
// Shogi
// ---------------------------------------------------------------------------

fn japanese_piece_name(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "玉",
        PieceKind::Rook => "飛",
        PieceKind::Dragon => "龍",
        PieceKind::Bishop => "角",
        PieceKind::PromotedBishop => "馬",
        PieceKind::Gold => "金",
        PieceKind::Silver => "銀",
        PieceKind::PromotedSilver => "成銀",
        PieceKind::Knight => "桂",
        PieceKind::PromotedKnight => "成桂",
        PieceKind::Lance => "香",
        PieceKind::PromotedLance => "成香",
        PieceKind::Tokin => "と",
        _ => "歩",
    }
}

fn hodges_letter(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::King => "K",
        PieceKind::Rook => "R",
        PieceKind::Dragon => "+R",
        PieceKind::Bishop => "B",
        PieceKind::PromotedBishop => "+B",
        PieceKind::Gold => "G",
        PieceKind::Silver => "S",
        PieceKind::PromotedSilver => "+S",
        PieceKind::Knight => "N",
        PieceKind::PromotedKnight => "+N",
        PieceKind::Lance => "L",
        PieceKind::PromotedLance => "+L",
        PieceKind::Tokin => "+P",
        _ => "P",
    }
}

/// The piece kind a shogi move moves (the hand kind for a drop).
fn shogi_moving_kind(position: &AnyPosition, mv: Move) -> PieceKind {
    if mv.is_drop() {
        super::any::shogi_kind(mv.from)
    } else {
        position
            .piece_on(mv.from)
            .map_or(PieceKind::Pawn, |piece| piece.kind)
    }
}

/// The other board moves of the same piece kind that reach the same square.
fn rivals(position: &AnyPosition, legal: &[Move], mv: Move, kind: PieceKind) -> Vec<u8> {
    let mut origins: Vec<u8> = legal
        .iter()
        .filter(|m| {
            !m.is_drop()
                && m.to == mv.to
                && (mv.is_drop() || m.from != mv.from)
                && position.piece_on(m.from).map(|p| p.kind) == Some(kind)
        })
        .map(|m| m.from)
        .collect();
    origins.dedup();
    origins.sort_unstable();
    origins.dedup();
    origins
}

/// Japanese square: full-width file digit and kanji rank (７六).
fn japanese_square(square: u8) -> String {
    let file = 9 - file_of(square);
    let rank = 9 - rank_of(square);
    format!(
        "{}{}",
        "１２３４５６７８９"
            .chars()
            .nth(file as usize - 1)
            .unwrap_or('１'),
        "一二三四五六七八九"
            .chars()
            .nth(rank as usize - 1)
            .unwrap_or('一')
    )
}

/// Japanese (KI2) notation. `same` writes 同 for the destination; `qualified` adds the
/// 右/左/直/上/寄/引, 打 and 不成 the rules ask for (false gives the loose form).
fn japanese(
    position: &AnyPosition,
    legal: &[Move],
    mv: Move,
    same: bool,
    qualified: bool,
) -> String {
    let side = position.side_to_move();
    let kind = shogi_moving_kind(position, mv);
    let mut text = String::from(if side == Side::First { "▲" } else { "△" });
    if same {
        text.push_str("同\u{3000}");
    } else {
        text.push_str(&japanese_square(mv.to));
    }
    text.push_str(japanese_piece_name(kind));
    if mv.is_drop() {
        if qualified && !rivals(position, legal, mv, kind).is_empty() {
            text.push('打');
        }
        return text;
    }
    if qualified {
        text.push_str(&japanese_qualifier(position, legal, mv, kind));
    }
    if mv.is_promotion() {
        text.push('成');
    } else if qualified
        && legal
            .iter()
            .any(|m| m.from == mv.from && m.to == mv.to && m.is_promotion())
    {
        text.push_str("不成");
    }
    text
}

/// 右/左/直 and 上/寄/引 when another piece of the kind can reach the same square.
fn japanese_qualifier(position: &AnyPosition, legal: &[Move], mv: Move, kind: PieceKind) -> String {
    let side = position.side_to_move();
    let others = rivals(position, legal, mv, kind);
    if others.is_empty() {
        return String::new();
    }
    let sign = forward_sign(side);
    // Vertical: 1 forward (上), 0 sideways (寄), −1 backward (引).
    let vertical = |from: u8| ((rank_of(mv.to) - rank_of(from)) * sign).signum();
    let rightward = |from: u8| ((file_of(mv.to) - file_of(from)) * sign).signum();
    let ranged = matches!(kind, PieceKind::Dragon | PieceKind::PromotedBishop);
    // Horizontal: 右 (the piece on the right), 左, 直 (straight forward), or nothing.
    let horizontal = |from: u8| -> Option<char> {
        if ranged {
            let mine = file_of(from) * sign;
            let group: Vec<i32> = std::iter::once(mv.from)
                .chain(others.iter().copied())
                .filter(|&sq| sq != from)
                .map(|sq| file_of(sq) * sign)
                .collect();
            if group.iter().all(|&x| mine > x) {
                Some('右')
            } else if group.iter().all(|&x| mine < x) {
                Some('左')
            } else {
                None
            }
        } else {
            match rightward(from) {
                0 if vertical(from) > 0 => Some('直'),
                0 => None,
                1 => Some('左'),
                _ => Some('右'),
            }
        }
    };
    let movement = |from: u8| match vertical(from) {
        1 => '上',
        0 => '寄',
        _ => '引',
    };
    let mine_vertical = movement(mv.from);
    if others.iter().all(|&o| movement(o) != mine_vertical) {
        return mine_vertical.to_string();
    }
    match horizontal(mv.from) {
        Some('直') => "直".to_string(),
        Some(h) => {
            let unique = others.iter().all(|&o| horizontal(o) != Some(h));
            if unique {
                h.to_string()
            } else {
                format!("{h}{mine_vertical}")
            }
        }
        None => mine_vertical.to_string(),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum RankStyle {
    Letter,
    Digit,
    LetterWithOrigin,
    DigitWithOrigin,
}

fn western_square(square: u8, style: RankStyle) -> String {
    let file = 9 - file_of(square);
    let rank = 9 - rank_of(square);
    match style {
        RankStyle::Letter | RankStyle::LetterWithOrigin => {
            format!("{file}{}", (b'a' + rank as u8 - 1) as char)
        }
        RankStyle::Digit | RankStyle::DigitWithOrigin => format!("{file}{rank}"),
    }
}

/// Western (Hodges) notation; the digit style writes ranks as numbers (P-76), the origin
/// styles always write the origin square.
fn hodges(position: &AnyPosition, legal: &[Move], mv: Move, style: RankStyle) -> String {
    let kind = shogi_moving_kind(position, mv);
    let letter = hodges_letter(kind);
    if mv.is_drop() {
        return format!("{letter}*{}", western_square(mv.to, style));
    }
    let always_origin = matches!(
        style,
        RankStyle::LetterWithOrigin | RankStyle::DigitWithOrigin
    );
    let origin = if always_origin || !rivals(position, legal, mv, kind).is_empty() {
        western_square(mv.from, style)
    } else {
        String::new()
    };
    let separator = if position.is_capture(mv) { 'x' } else { '-' };
    let promotion = if mv.is_promotion() {
        "+"
    } else if legal
        .iter()
        .any(|m| m.from == mv.from && m.to == mv.to && m.is_promotion())
    {
        "="
    } else {
        ""
    };
    format!(
        "{letter}{origin}{separator}{}{promotion}",
        western_square(mv.to, style)
    )
}

/// Hodges without origin square or `=` (for reporting ambiguity).
fn hodges_loose(position: &AnyPosition, mv: Move) -> String {
    let kind = shogi_moving_kind(position, mv);
    let sep = if mv.is_drop() { '*' } else { '-' };
    format!(
        "{}{sep}{}{}",
        hodges_letter(kind),
        western_square(mv.to, RankStyle::Letter),
        if mv.is_promotion() { "+" } else { "" }
    )
}

// ---------------------------------------------------------------------------
// Janggi
// ---------------------------------------------------------------------------

/// The square of a Korean row (1–9, 0 = Cho's back rank) and file (1–9).
fn korean_square(row: u8, file: u8) -> u8 {
    let rank = (10 - if row == 0 { 10 } else { row }) % 10;
    rank * 9 + (file - 1)
}

/// The Korean coordinates of a square: row digit then file digit.
fn korean_coordinates(square: u8) -> String {
    let row = (10 - rank_of(square)) % 10;
    format!("{row}{}", file_of(square) + 1)
}

fn korean_piece_name(kind: PieceKind, side: Side, hangul: bool) -> &'static str {
    match (kind, side, hangul) {
        (PieceKind::General, _, true) => "장",
        (PieceKind::General, Side::First, false) => "楚",
        (PieceKind::General, Side::Second, false) => "漢",
        (PieceKind::Advisor, _, true) => "사",
        (PieceKind::Advisor, _, false) => "士",
        (PieceKind::Elephant, _, true) => "상",
        (PieceKind::Elephant, _, false) => "象",
        (PieceKind::Horse, _, true) => "마",
        (PieceKind::Horse, _, false) => "馬",
        (PieceKind::Chariot, _, true) => "차",
        (PieceKind::Chariot, _, false) => "車",
        (PieceKind::Cannon, _, true) => "포",
        (PieceKind::Cannon, _, false) => "包",
        (_, Side::First, true) => "졸",
        (_, Side::First, false) => "卒",
        (_, Side::Second, true) => "병",
        (_, Side::Second, false) => "兵",
    }
}

fn janggi_letter(kind: PieceKind) -> &'static str {
    match kind {
        PieceKind::General => "K",
        PieceKind::Advisor => "A",
        PieceKind::Elephant => "E",
        PieceKind::Horse => "H",
        PieceKind::Chariot => "R",
        PieceKind::Cannon => "C",
        _ => "P",
    }
}

/// The Korean record word of a pass that accepts a bikjang, one word so a PGN move stays
/// one token (the move list writes it `빅장 받음`).
pub const ACCEPT_BIKJANG: &str = "빅장받음";

/// Korean coordinates (79졸78); a pass is 한수쉼, or 빅장받음 when it accepts a bikjang.
fn korean(position: &AnyPosition, mv: Move, hangul: bool) -> String {
    if mv.is_pass() {
        let word = if position.bikjang_pending() {
            ACCEPT_BIKJANG
        } else {
            "한수쉼"
        };
        return word.to_string();
    }
    let piece = position.piece_on(mv.from);
    let name = piece.map_or("", |p| korean_piece_name(p.kind, p.side, hangul));
    format!(
        "{}{name}{}",
        korean_coordinates(mv.from),
        korean_coordinates(mv.to)
    )
}
