//! Shared pieces of FEN reading and writing: the board placement field.
//!
//! Every error names the field and why, and no input can make these functions panic.

use super::FenError;

/// What a placement letter means: a piece code, or an error message.
pub type LetterMap<'a> = dyn Fn(char, bool) -> Option<u8> + 'a;

/// Reads the placement field (`rnbakabnr/9/…`): ranks from the top, files from `a`.
///
/// `piece_code(letter, promoted)` maps a letter (and a preceding `+`) to a non-zero piece code.
/// Returns the board indexed by square (`rank * 9 + file`, rank 0 at the bottom).
pub fn parse_placement(
    text: &str,
    ranks: usize,
    piece_code: &LetterMap<'_>,
) -> Result<Vec<u8>, FenError> {
    let rows: Vec<&str> = text.split('/').collect();
    if rows.len() != ranks {
        return Err(FenError::new(format!(
            "board has {} ranks, expected {ranks}",
            rows.len()
        )));
    }
    let mut board = vec![0u8; ranks * 9];
    for (row_index, row) in rows.iter().enumerate() {
        let rank = ranks - 1 - row_index;
        let rank_label = rank + 1;
        let mut file = 0usize;
        let mut chars = row.chars().peekable();
        let mut promoted = false;
        while let Some(c) = chars.next() {
            if c.is_ascii_digit() {
                if promoted {
                    return Err(FenError::new(format!(
                        "rank {rank_label}: '+' must be followed by a piece"
                    )));
                }
                let mut count = c.to_digit(10).unwrap_or(0) as usize;
                if let Some(next) = chars.peek().copied() {
                    if next.is_ascii_digit() {
                        count = count * 10 + next.to_digit(10).unwrap_or(0) as usize;
                        chars.next();
                    }
                }
                if count == 0 {
                    return Err(FenError::new(format!(
                        "rank {rank_label}: empty count 0 is not allowed"
                    )));
                }
                file += count;
                if file > 9 {
                    return Err(FenError::new(format!("rank {rank_label} has {file} files")));
                }
            } else if c == '+' {
                if promoted {
                    return Err(FenError::new(format!("rank {rank_label}: '++'")));
                }
                promoted = true;
            } else if c == '~' {
                // Crazyhouse-style promoted marker: not used by these games.
                return Err(FenError::new(format!("rank {rank_label}: unexpected '~'")));
            } else {
                let Some(code) = piece_code(c, promoted) else {
                    return Err(FenError::new(if promoted {
                        format!("unknown piece '+{c}' on rank {rank_label}")
                    } else {
                        format!("unknown piece '{c}' on rank {rank_label}")
                    }));
                };
                promoted = false;
                if file >= 9 {
                    let mut total = file + 1;
                    for rest in chars.by_ref() {
                        if let Some(d) = rest.to_digit(10) {
                            total += d as usize;
                        } else if rest != '+' {
                            total += 1;
                        }
                    }
                    return Err(FenError::new(format!(
                        "rank {rank_label} has {total} files"
                    )));
                }
                board[rank * 9 + file] = code;
                file += 1;
            }
        }
        if promoted {
            return Err(FenError::new(format!(
                "rank {rank_label}: '+' at the end of the rank"
            )));
        }
        if file != 9 {
            return Err(FenError::new(format!("rank {rank_label} has {file} files")));
        }
    }
    Ok(board)
}

/// Writes the placement field from a board; `piece_text(code)` gives a piece's letters (`r`, `+B`).
pub fn write_placement(board: &[u8], ranks: usize, piece_text: &dyn Fn(u8) -> String) -> String {
    let mut out = String::with_capacity(100);
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..9 {
            let code = board[rank * 9 + file];
            if code == 0 {
                empty += 1;
            } else {
                if empty > 0 {
                    out.push_str(&empty.to_string());
                    empty = 0;
                }
                out.push_str(&piece_text(code));
            }
        }
        if empty > 0 {
            out.push_str(&empty.to_string());
        }
        if rank > 0 {
            out.push('/');
        }
    }
    out
}

/// Reads a non-negative counter field, naming it in the error.
pub fn parse_counter(text: &str, name: &str) -> Result<u32, FenError> {
    text.parse::<u32>()
        .map_err(|_| FenError::new(format!("{name} '{text}' is not a number")))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letters(c: char, promoted: bool) -> Option<u8> {
        if promoted {
            return None;
        }
        "KAkap".find(c).map(|i| i as u8 + 1)
    }

    #[test]
    fn errors_name_the_rank() {
        let error = parse_placement("9/9/4K5", 3, &letters).unwrap_err();
        assert_eq!(error.message, "rank 1 has 10 files");
        let error = parse_placement("9/9/4x4", 3, &letters).unwrap_err();
        assert_eq!(error.message, "unknown piece 'x' on rank 1");
        let error = parse_placement("9/9", 3, &letters).unwrap_err();
        assert_eq!(error.message, "board has 2 ranks, expected 3");
        let error = parse_placement("9/9/9KA", 3, &letters).unwrap_err();
        assert_eq!(error.message, "rank 1 has 11 files");
    }
}
