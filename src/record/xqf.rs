//! XQF, the binary xiangqi record of XQStudio (象棋演播室), the most common file
//! xiangqi players exchange (xqbase and most Chinese databases offer it).
//!
//! Layout (little-endian): a 1024-byte header, then the move records.
//!
//! - `0x00` `XQ`; `0x02` the version (`0x0A` = 1.0; later versions are obfuscated).
//! - `0x03..0x10` the obfuscation keys of later versions: mask, product id (4 bytes),
//!   four "or" bytes, the keys' sum, and the keys of the piece places, of the moves'
//!   starts and of their ends.
//! - `0x10..0x30` the 32 pieces' places, Red's 车马相仕帅仕相马车炮炮兵兵兵兵兵 then
//!   Black's, each `file * 10 + rank` counted from Red's lower left (rank 0 is Red's
//!   back rank); a value above 89 is a piece off the board.
//! - `0x33` the result (1 Red won, 2 Black won, 3 or 4 a draw).
//! - Length-prefixed GB18030 strings: title `0x50`, event `0xD0`, date `0x110`, site
//!   `0x120`, Red `0x130`, Black `0x140`, commentator `0x1D0`, author `0x1E0`.
//! - From `0x400`, records of 4 bytes: start + 24, end + 32, flags, a spare byte; then
//!   the comment's length (4 bytes) and its GB18030 text. The first record only carries
//!   the comment on the start position. Version 1.0 always writes the length; its flags
//!   are `0xF0` when a next move follows. Later versions write the length only when flag
//!   `0x20` is set, and mark a next move with `0x80` and a variation with `0x40`.
//!
//! Records are stored depth first: a move's continuation comes right after it, and its
//! alternatives after the whole continuation, so the main line is the run of records
//! from the first until one without a next move.
//!
//! The obfuscation of later versions (worked out from XQStudio's published Pascal reader
//! and walker8088/cchess's description of it): four key bytes are derived from the header
//! by the polynomial of `scramble`; the piece places are shifted by the first (and, from
//! version 12, rotated by it through the 32 slots); the whole move area is shifted byte by
//! byte by a 32-byte key made from a copyright sentence masked with the header's bytes;
//! move starts and ends are further shifted by the second and third key; comment lengths
//! are offset by a fourth.

use super::{text, GameRecord, ImportError};
use crate::rules::any::{AnyPosition, Variant};
use crate::rules::game::Game;
use crate::rules::{Outcome, Position, Side};
use crate::tree::{GameTree, NodeId};

/// The header's size: the move records start here.
const HEADER_SIZE: usize = 0x400;
/// Version 1.0, the last without obfuscation.
const VERSION_PLAIN: u8 = 0x0A;
/// From this version on the piece places are also rotated through their slots.
const VERSION_ROTATED_PLACES: u8 = 12;
/// The sentence the move area's key is made from.
const KEY_SENTENCE: &[u8; 32] = b"[(C) Copyright Mr. Dong Shiwei.]";
/// The FEN letters of the 16 pieces of a side in the file's order (Red; Black is lower case).
const PIECE_ORDER: [char; 16] = [
    'R', 'N', 'B', 'A', 'K', 'A', 'B', 'N', 'R', 'C', 'C', 'P', 'P', 'P', 'P', 'P',
];
/// A comment longer than this is taken as a damaged file rather than read.
const COMMENT_LIMIT: usize = 1 << 20;

/// The keys of an obfuscated file (version above 1.0).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Keys {
    /// Shifts (and from version 12 rotates) the piece places.
    places: u8,
    /// Shifts every move's start.
    start: u8,
    /// Shifts every move's end.
    end: u8,
    /// Offsets every comment length.
    comment_length: u32,
    /// Shifts the move area byte by byte, by file offset modulo 32.
    area: [u8; 32],
}

/// The polynomial XQStudio scrambles a key byte with, times `factor`, modulo 256.
fn scramble(key: u8, factor: u8) -> u8 {
    let key = u32::from(key);
    let value = ((((key * key) * 3 + 9) * 3 + 8) * 2 + 1) * 3 + 8;
    (value.wrapping_mul(u32::from(factor)) & 0xFF) as u8
}

impl Keys {
    /// The keys from the header bytes `0x03..0x10`.
    fn from_header(header: &[u8]) -> Keys {
        let mask = header[0x03];
        let or_bytes = [header[0x08], header[0x09], header[0x0A], header[0x0B]];
        let sum = header[0x0C];
        let (places_key, start_key, end_key) = (header[0x0D], header[0x0E], header[0x0F]);
        let places = scramble(places_key, places_key);
        let start = scramble(start_key, places);
        let end = scramble(end_key, start);
        let comment_length = ((u32::from(sum) * 256 + u32::from(places_key)) % 32000) + 767;
        let factors = [
            (sum & mask) | or_bytes[0],
            (places_key & mask) | or_bytes[1],
            (start_key & mask) | or_bytes[2],
            (end_key & mask) | or_bytes[3],
        ];
        let mut area = *KEY_SENTENCE;
        for (index, byte) in area.iter_mut().enumerate() {
            *byte &= factors[index % 4];
        }
        Keys {
            places,
            start,
            end,
            comment_length,
            area,
        }
    }
}

/// Reads one XQF game: its moves with their variations and comments, the players,
/// event, date, site and stated result.
pub fn read(bytes: &[u8], file: &str) -> Result<GameRecord, ImportError> {
    let fail = |reason: &str| ImportError::new(file, None, "", reason);
    if bytes.len() < HEADER_SIZE || &bytes[..2] != b"XQ" {
        return Err(fail(
            "not an XQF file (it must start with \"XQ\" and a 1024-byte header)",
        ));
    }
    let version = bytes[2];
    let keys = (version > VERSION_PLAIN).then(|| Keys::from_header(bytes));
    let places = piece_places(&bytes[0x10..0x30], version, keys.as_ref());

    let mut moves_area = bytes[HEADER_SIZE..].to_vec();
    if let Some(keys) = &keys {
        for (index, byte) in moves_area.iter_mut().enumerate() {
            *byte = byte.wrapping_sub(keys.area[(HEADER_SIZE + index) % 32]);
        }
    }
    let mut reader = MoveReader {
        area: &moves_area,
        offset: 0,
        keys: keys.as_ref(),
    };
    let opening = reader.record(true).map_err(|reason| fail(&reason))?;
    // Every record, in file order; the main line is the run from the first until one
    // without a next move. Damage past the main line costs only the variations.
    let mut steps: Vec<Step> = Vec::new();
    let mut main_length = None;
    if opening.is_some() {
        loop {
            match reader.record(false) {
                Ok(Some(step)) => {
                    if main_length.is_none() && !step.next {
                        main_length = Some(steps.len() + 1);
                    }
                    steps.push(step);
                }
                Ok(None) => break,
                Err(_) if main_length.is_some() => break,
                Err(reason) => return Err(fail(&reason)),
            }
        }
    }
    let main_length = main_length.unwrap_or(steps.len());

    let board = board_of(&places).map_err(|reason| fail(&reason))?;
    // The file does not say who moves first: the piece on the first move's start does.
    let red_first = steps
        .first()
        .and_then(|step| board[usize::from(step.start % 10)][usize::from(step.start / 10)])
        .is_none_or(|letter| letter.is_ascii_uppercase());
    let fen = format!(
        "{} {} - - 0 1",
        placement_of(&board),
        if red_first { 'w' } else { 'b' }
    );
    let start = Variant::Xiangqi
        .position_from_fen(&fen)
        .map_err(|error| fail(&format!("impossible start position {fen}: {error}")))?;
    let mut record = GameRecord::new(Game::new(start));
    record.headers = headers(bytes);
    if let Some(comment) = opening.and_then(|opening| opening.comment) {
        record.comments.push((0, comment));
    }
    for (index, step) in steps[..main_length].iter().enumerate() {
        let coordinates = step.coordinates();
        let played = record
            .game
            .position()
            .parse_uci(&coordinates)
            .ok_or_else(|| "no legal move goes so".to_string())
            .and_then(|mv| {
                record
                    .game
                    .play(mv)
                    .map_err(|illegal| format!("illegal move: {illegal:?}"))
            });
        if let Err(reason) = played {
            return Err(ImportError {
                file: file.to_string(),
                line: None,
                move_number: Some(index + 1),
                text: coordinates,
                reason,
                partial: Some(Box::new(record)),
                game: None,
            });
        }
        if let Some(comment) = &step.comment {
            record.comments.push((index + 1, comment.clone()));
        }
    }
    record.tree = variations_tree(&record, &steps);
    if let Some(winner) = match bytes[0x33] {
        1 => Some(Some(Side::First)),
        2 => Some(Some(Side::Second)),
        3 | 4 => Some(None),
        _ => None,
    } {
        record.result = Some(stated(winner, record.game.outcome()));
    }
    Ok(record)
}

/// The record's tree with the variations of the file added. Records are depth first: a
/// move with a next move is followed by its continuation, and a move with a variation
/// has that alternative after the whole continuation, so the parents still owed a
/// variation are a stack. A variation with a move the rules refuse is left out with all
/// that hangs from it.
fn variations_tree(record: &GameRecord, steps: &[Step]) -> GameTree {
    let mut tree = record.full_tree();
    let mut parent: Option<(NodeId, AnyPosition)> =
        Some((NodeId::ROOT, record.game.start().clone()));
    let mut owed: Vec<Option<(NodeId, AnyPosition)>> = Vec::new();
    for step in steps {
        let here = parent.clone();
        let child = here.as_ref().and_then(|(id, position)| {
            let mv = position.parse_uci(&step.coordinates())?;
            position.check_move(mv).ok()?;
            let mut after = position.clone();
            after.play_unchecked(mv);
            let (node, _) = tree.add_move(*id, mv);
            if let Some(comment) = &step.comment {
                let comments = &mut tree.annotation_mut(node).comments;
                if !comments.contains(comment) {
                    comments.push(comment.clone());
                }
            }
            Some((node, after))
        });
        if step.variation {
            owed.push(here);
        }
        if step.next {
            parent = child;
        } else {
            match owed.pop() {
                Some(next_parent) => parent = next_parent,
                None => break,
            }
        }
    }
    tree
}

/// The result a file states, kept as the rules' own outcome when they agree.
fn stated(winner: Option<Side>, rules: Option<Outcome>) -> Outcome {
    text::stated_outcome(winner, rules, None)
}

/// One move record.
#[derive(Clone, Debug)]
struct Step {
    /// The start, `file * 10 + rank` from Red's lower left.
    start: u8,
    /// The end, likewise.
    end: u8,
    /// True when the next record continues this line.
    next: bool,
    /// True when an alternative to this move follows its continuation.
    variation: bool,
    /// The comment after the move.
    comment: Option<String>,
}

impl Step {
    /// The move in engine coordinates (`h3e3`).
    fn coordinates(&self) -> String {
        format!(
            "{}{}{}{}",
            char::from(b'a' + self.start / 10),
            self.start % 10 + 1,
            char::from(b'a' + self.end / 10),
            self.end % 10 + 1
        )
    }
}

/// Walks the (already unshifted) move area record by record.
struct MoveReader<'a> {
    area: &'a [u8],
    offset: usize,
    keys: Option<&'a Keys>,
}

impl MoveReader<'_> {
    /// The next record, `None` at the end of the area. The opening record (`opening`)
    /// carries only the first comment: its places are not checked.
    fn record(&mut self, opening: bool) -> Result<Option<Step>, String> {
        let Some(raw) = self.area.get(self.offset..self.offset + 4) else {
            return Ok(None);
        };
        let (raw_start, raw_end, flags) = (raw[0], raw[1], raw[2]);
        self.offset += 4;
        let (next, variation, has_comment_length) = match self.keys {
            None => (flags & 0xF0 != 0, flags & 0x0F != 0, true),
            Some(_) => (flags & 0x80 != 0, flags & 0x40 != 0, flags & 0x20 != 0),
        };
        let mut comment = None;
        if has_comment_length {
            let length_bytes = self
                .area
                .get(self.offset..self.offset + 4)
                .ok_or("the move records end inside a comment length")?;
            self.offset += 4;
            let stored = u32::from_le_bytes([
                length_bytes[0],
                length_bytes[1],
                length_bytes[2],
                length_bytes[3],
            ]);
            let length = match self.keys {
                None => stored,
                Some(keys) => stored.wrapping_sub(keys.comment_length),
            } as usize;
            if length > COMMENT_LIMIT {
                return Err(format!("a comment of {length} bytes: the file is damaged"));
            }
            if length > 0 {
                let text_bytes = self
                    .area
                    .get(self.offset..self.offset + length)
                    .ok_or("the move records end inside a comment")?;
                self.offset += length;
                let decoded = encoding_rs::GB18030
                    .decode_without_bom_handling(text_bytes)
                    .0;
                let trimmed = decoded.trim_end_matches('\0').trim();
                if !trimmed.is_empty() {
                    comment = Some(trimmed.to_string());
                }
            }
        }
        let (start_shift, end_shift) = match self.keys {
            None => (0, 0),
            Some(keys) => (keys.start, keys.end),
        };
        let start = raw_start.wrapping_sub(24).wrapping_sub(start_shift);
        let end = raw_end.wrapping_sub(32).wrapping_sub(end_shift);
        if !opening && (start > 89 || end > 89) {
            return Err(format!(
                "a move from place {start} to {end}: the file is damaged"
            ));
        }
        Ok(Some(Step {
            start,
            end,
            next,
            variation,
            comment,
        }))
    }
}

/// The 32 piece places (`None` off the board), unshifted and unrotated.
fn piece_places(stored: &[u8], version: u8, keys: Option<&Keys>) -> [Option<u8>; 32] {
    let mut places = [0u8; 32];
    match keys {
        None => places.copy_from_slice(stored),
        Some(keys) => {
            for (index, &byte) in stored.iter().enumerate() {
                let slot = if version >= VERSION_ROTATED_PLACES {
                    (usize::from(keys.places) + index + 1) & 0x1F
                } else {
                    index
                };
                places[slot] = byte.wrapping_sub(keys.places);
            }
        }
    }
    places.map(|place| (place <= 89).then_some(place))
}

/// The board, `[rank from Red's side][file from the left]`, with FEN letters.
pub(super) type Board = [[Option<char>; 9]; 10];

/// Puts the pieces on a board; two pieces on one point is an error.
fn board_of(places: &[Option<u8>; 32]) -> Result<Board, String> {
    let mut board: Board = [[None; 9]; 10];
    for (index, place) in places.iter().enumerate() {
        let Some(place) = *place else { continue };
        let (file, rank) = (usize::from(place / 10), usize::from(place % 10));
        let letter = PIECE_ORDER[index % 16];
        let letter = if index < 16 {
            letter
        } else {
            letter.to_ascii_lowercase()
        };
        if let Some(other) = board[rank][file] {
            return Err(format!(
                "two pieces ({other} and {letter}) on one point ({file}, {rank})"
            ));
        }
        board[rank][file] = Some(letter);
    }
    Ok(board)
}

/// The FEN placement of a board, Black's back rank first.
pub(super) fn placement_of(board: &Board) -> String {
    let mut ranks = Vec::new();
    for rank in board.iter().rev() {
        let mut text = String::new();
        let mut empty = 0;
        for point in rank {
            match point {
                Some(letter) => {
                    if empty > 0 {
                        text.push_str(&empty.to_string());
                        empty = 0;
                    }
                    text.push(*letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            text.push_str(&empty.to_string());
        }
        ranks.push(text);
    }
    ranks.join("/")
}

/// The header strings, under the PGN names qipan's writers know.
fn headers(bytes: &[u8]) -> Vec<(String, String)> {
    let mut headers = Vec::new();
    for (offset, capacity, name) in [
        (0x50, 63, "Title"),
        (0xD0, 63, "Event"),
        (0x110, 15, "Date"),
        (0x120, 15, "Site"),
        (0x130, 15, "Red"),
        (0x140, 15, "Black"),
        (0x1D0, 15, "Annotator"),
        (0x1E0, 15, "Author"),
    ] {
        let length = usize::from(bytes[offset]).min(capacity);
        let raw = &bytes[offset + 1..offset + 1 + length];
        let value = encoding_rs::GB18030.decode_without_bom_handling(raw).0;
        let value = value.trim_end_matches('\0').trim();
        if !value.is_empty() {
            headers.push((name.to_string(), value.to_string()));
        }
    }
    headers
}

/// Writes an XQF file of version 1.0 or, for tests of the obfuscated versions, of a later
/// version with the given key bytes: the main line of `record` with its comments.
/// qipan writes PGN; this exists so that the reader is tested on files it did not make
/// by reading them back, including the obfuscation.
#[cfg(test)]
pub(crate) fn write_for_tests(record: &GameRecord, version: u8, key_bytes: [u8; 13]) -> Vec<u8> {
    let mut bytes = vec![0u8; HEADER_SIZE];
    bytes[..2].copy_from_slice(b"XQ");
    bytes[2] = version;
    if version > VERSION_PLAIN {
        bytes[0x03..0x10].copy_from_slice(&key_bytes);
    }
    let keys = (version > VERSION_PLAIN).then(|| Keys::from_header(&bytes));
    // Piece places, from the start position.
    let start = record.game.start();
    let mut places = [0xFFu8; 32];
    let mut used = [false; 32];
    for square in 0..90u8 {
        let Some(piece) = start.piece_on(square) else {
            continue;
        };
        let (file, rank) = (square % 9, square / 9);
        let letter = fen_letter(start, square);
        let base = if piece.side == Side::First { 0 } else { 16 };
        let slot = (0..16)
            .find(|&index| !used[base + index] && PIECE_ORDER[index] == letter.to_ascii_uppercase())
            .expect("a standard piece set");
        used[base + slot] = true;
        places[base + slot] = file * 10 + rank;
    }
    for index in 0..32 {
        bytes[0x10 + index] = match &keys {
            None => places[index],
            Some(keys) => {
                let slot = if version >= VERSION_ROTATED_PLACES {
                    (usize::from(keys.places) + index + 1) & 0x1F
                } else {
                    index
                };
                places[slot].wrapping_add(keys.places)
            }
        };
    }
    let comment_at = |ply: usize| {
        record
            .comments
            .iter()
            .find(|(at, _)| *at == ply)
            .map(|(_, text)| encoding_rs::GB18030.encode(text).0.into_owned())
    };
    let mut area = Vec::new();
    let moves = record.game.moves();
    let positions = record.game.positions();
    let push_record = |area: &mut Vec<u8>, start: u8, end: u8, next: bool, ply: usize| {
        let comment = comment_at(ply).unwrap_or_default();
        match &keys {
            None => {
                area.extend_from_slice(&[start + 24, end + 32, if next { 0xF0 } else { 0 }, 0]);
                area.extend_from_slice(&(comment.len() as u32).to_le_bytes());
            }
            Some(keys) => {
                let mut flags = if next { 0x80 } else { 0 };
                if !comment.is_empty() {
                    flags |= 0x20;
                }
                area.extend_from_slice(&[
                    (start + 24).wrapping_add(keys.start),
                    (end + 32).wrapping_add(keys.end),
                    flags,
                    0,
                ]);
                if !comment.is_empty() {
                    area.extend_from_slice(
                        &(comment.len() as u32)
                            .wrapping_add(keys.comment_length)
                            .to_le_bytes(),
                    );
                }
            }
        }
        area.extend_from_slice(&comment);
    };
    push_record(&mut area, 0, 0, !moves.is_empty(), 0);
    for (index, (position, mv)) in positions.iter().zip(moves).enumerate() {
        let uci = position.move_to_uci(*mv);
        let point = |text: &str| -> u8 {
            let file = text.as_bytes()[0] - b'a';
            let rank: u8 = text[1..].parse().unwrap();
            file * 10 + rank - 1
        };
        let split = uci[1..].find(|c: char| c.is_ascii_lowercase()).unwrap() + 1;
        push_record(
            &mut area,
            point(&uci[..split]),
            point(&uci[split..]),
            index + 1 < moves.len(),
            index + 1,
        );
    }
    if let Some(keys) = &keys {
        for (index, byte) in area.iter_mut().enumerate() {
            *byte = byte.wrapping_add(keys.area[(HEADER_SIZE + index) % 32]);
        }
    }
    for (name, offset) in [("Event", 0xD0), ("Red", 0x130), ("Black", 0x140)] {
        if let Some(value) = record.header(name) {
            let encoded = encoding_rs::GB18030.encode(value).0;
            let length = encoded.len().min(15);
            bytes[offset] = length as u8;
            bytes[offset + 1..offset + 1 + length].copy_from_slice(&encoded[..length]);
        }
    }
    bytes.extend_from_slice(&area);
    bytes
}

/// The FEN letter of the piece on `square` (upper case for Red).
#[cfg(test)]
fn fen_letter(position: &crate::rules::any::AnyPosition, square: u8) -> char {
    let fen = position.fen();
    let placement = fen.split_whitespace().next().unwrap_or("");
    let rank_text = placement
        .split('/')
        .nth(usize::from(9 - square / 9))
        .unwrap();
    let mut file = 0;
    for c in rank_text.chars() {
        if let Some(empty) = c.to_digit(10) {
            file += empty as u8;
        } else {
            if file == square % 9 {
                return c;
            }
            file += 1;
        }
    }
    panic!("no piece on {square}")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A game with comments, played from the opening (§2.3 of FORMATS.md).
    fn sample() -> GameRecord {
        let mut game = Game::new(Variant::Xiangqi.start());
        for uci in ["h3e3", "h10g8", "h1g3", "i10h10", "i1h1", "b10c8", "h1h7"] {
            let mv = game.position().parse_uci(uci).unwrap();
            game.play(mv).unwrap();
        }
        let mut record = GameRecord::new(game);
        record.headers = vec![
            ("Event".to_string(), "全国象棋锦标赛".to_string()),
            ("Red".to_string(), "胡荣华".to_string()),
            ("Black".to_string(), "杨官璘".to_string()),
        ];
        record.comments = vec![(0, "开局".to_string()), (1, "中炮".to_string())];
        record
    }

    fn moves_of(record: &GameRecord) -> Vec<String> {
        record
            .game
            .positions()
            .iter()
            .zip(record.game.moves())
            .map(|(position, mv)| position.move_to_uci(*mv))
            .collect()
    }

    #[test]
    fn a_version_1_file_reads_its_moves_names_and_comments() {
        let record = sample();
        let bytes = write_for_tests(&record, 0x0A, [0; 13]);
        let read = read(&bytes, "game.xqf").unwrap();
        assert_eq!(moves_of(&read), moves_of(&record));
        assert_eq!(read.header("Red"), Some("胡荣华"));
        assert_eq!(read.header("Black"), Some("杨官璘"));
        assert_eq!(read.header("Event"), Some("全国象棋锦标赛"));
        assert_eq!(read.comments, record.comments);
    }

    #[test]
    fn obfuscated_versions_read_the_same_game() {
        let record = sample();
        for (version, keys) in [
            (
                0x0C,
                [
                    0xFF, 1, 2, 3, 4, 0x01, 0x02, 0x04, 0x08, 0x37, 0x5A, 0x91, 0xC3,
                ],
            ),
            (
                0x10,
                [
                    0xA5, 9, 9, 9, 9, 0x10, 0x20, 0x00, 0x41, 0x02, 0x7E, 0x13, 0xEE,
                ],
            ),
            (
                0x12,
                [
                    0x3C, 0, 0, 0, 0, 0xF0, 0x0F, 0x55, 0xAA, 0xFE, 0x01, 0x80, 0x7F,
                ],
            ),
        ] {
            let bytes = write_for_tests(&record, version, keys);
            let read = read(&bytes, "game.xqf").unwrap();
            assert_eq!(moves_of(&read), moves_of(&record), "version {version:#x}");
            assert_eq!(read.comments, record.comments, "version {version:#x}");
            assert_eq!(read.header("Red"), Some("胡荣华"));
        }
    }

    #[test]
    fn black_moves_first_when_the_first_move_is_blacks() {
        let fen = "3k5/9/9/9/9/9/9/9/4R4/4K4 b - - 0 1";
        let mut game = Game::new(Variant::Xiangqi.position_from_fen(fen).unwrap());
        let mv = game.position().parse_uci("d10d9").unwrap();
        game.play(mv).unwrap();
        let bytes = write_for_tests(&GameRecord::new(game), 0x12, [7; 13]);
        let read = read(&bytes, "endgame.xqf").unwrap();
        assert_eq!(read.game.start().side_to_move(), Side::Second);
        assert_eq!(read.game.moves().len(), 1);
    }

    #[test]
    fn a_stated_result_is_kept() {
        let mut bytes = write_for_tests(&sample(), 0x0A, [0; 13]);
        bytes[0x33] = 2;
        let read = read(&bytes, "game.xqf").unwrap();
        assert_eq!(
            read.result.and_then(|outcome| outcome.winner()),
            Some(Side::Second)
        );
    }

    #[test]
    fn damaged_files_are_refused_with_a_reason_and_keep_the_moves_before() {
        assert!(read(b"XQ", "short.xqf").unwrap_err().reason.contains("XQF"));
        assert!(read(&[0u8; 2000], "zero.xqf")
            .unwrap_err()
            .reason
            .contains("XQF"));
        let mut bytes = write_for_tests(&sample(), 0x0A, [0; 13]);
        // Third move (first record is the opening record): its end made impossible.
        let third = HEADER_SIZE
            + 8
            + encoding_rs::GB18030.encode("开局").0.len()
            + 8
            + encoding_rs::GB18030.encode("中炮").0.len()
            + 8;
        bytes[third + 1] = 32 + 44; // e5: not a knight's move from h1
        let error = read(&bytes, "bad.xqf").unwrap_err();
        assert_eq!(error.move_number, Some(3));
        assert_eq!(error.partial.unwrap().game.moves().len(), 2);
    }

    #[test]
    fn variations_come_into_the_tree() {
        let empty = GameRecord::new(Game::new(Variant::Xiangqi.start()));
        let mut bytes = write_for_tests(&empty, 0x0A, [0; 13]);
        bytes.truncate(HEADER_SIZE);
        let record = |start: u8, end: u8, flags: u8| [start + 24, end + 32, flags, 0, 0, 0, 0, 0];
        // The opening record; 炮二平五 with a continuation and an alternative; 马８进７;
        // then the alternative 炮八平五, and a broken alternative to it (left out).
        bytes.extend(record(0, 0, 0xF0));
        bytes.extend(record(72, 42, 0xFF));
        bytes.extend(record(79, 67, 0x00));
        bytes.extend(record(12, 42, 0x0F));
        bytes.extend(record(0, 88, 0x00));
        let read = read(&bytes, "variations.xqf").unwrap();
        assert_eq!(moves_of(&read), ["h3e3", "h10g8"]);
        let first_moves: Vec<String> = read
            .tree
            .children(NodeId::ROOT)
            .iter()
            .map(|&id| {
                read.game
                    .start()
                    .move_to_uci(read.tree.move_of(id).unwrap())
            })
            .collect();
        assert_eq!(first_moves, ["h3e3", "b3e3"]);
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut state = 0x1234_5678_u32;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            state
        };
        let base = write_for_tests(&sample(), 0x12, [3; 13]);
        for round in 0..2000 {
            let mut bytes = base.clone();
            for _ in 0..(1 + round % 8) {
                let at = next() as usize % bytes.len();
                bytes[at] = next() as u8;
            }
            if round % 5 == 0 {
                bytes.truncate(next() as usize % bytes.len());
            }
            let _ = read(&bytes, "fuzz.xqf");
        }
    }
}
