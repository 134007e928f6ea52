//! Move times in records: the time each move took, as KIF's 消費時間 column
//! (`( 0:16/00:01:05)`), CSA's `T16` / `T16.250` lines and PGN's `{[%emt 0:00:16]}`
//! comment command read and write them. Kept apart from the formats so each one only
//! deals with its own spelling.

use std::time::Duration;

/// Stores `time` as the time of the move that made `ply` (1-based) in `times`, where
/// index 0 is ply 1; plies in between that state no time stay `None`.
pub fn set(times: &mut Vec<Option<Duration>>, ply: usize, time: Duration) {
    if ply == 0 {
        return;
    }
    if times.len() < ply {
        times.resize(ply, None);
    }
    times[ply - 1] = Some(time);
}

/// The time of the move that made `ply` (1-based), when the record states one.
pub fn get(times: &[Option<Duration>], ply: usize) -> Option<Duration> {
    ply.checked_sub(1)
        .and_then(|index| times.get(index).copied().flatten())
}

/// Cuts `times` to `plies` moves and drops trailing `None`s, so a record whose moves
/// state no time keeps an empty list.
pub fn tidy(times: &mut Vec<Option<Duration>>, plies: usize) {
    times.truncate(plies);
    while times.last() == Some(&None) {
        times.pop();
    }
}

/// Reads a clock-like time: `ss`, `m:ss`, `h:mm:ss`, each with optional decimals on the
/// seconds (`0:00:05.25`). Spaces around the parts are allowed (` 0:16`).
pub fn parse_clock(text: &str) -> Option<Duration> {
    let parts: Vec<&str> = text.trim().split(':').map(str::trim).collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let (last, whole) = parts.split_last()?;
    let mut seconds = 0u64;
    for part in whole {
        if part.is_empty() || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(part.parse().ok()?)?;
    }
    let last_seconds = parse_seconds(last)?;
    let total = Duration::from_secs(seconds.checked_mul(60)?);
    total.checked_add(last_seconds)
}

/// Reads seconds with optional decimals (`12`, `12.345`); more than three decimals are cut.
pub fn parse_seconds(text: &str) -> Option<Duration> {
    let (whole, fraction) = match text.split_once('.') {
        Some((whole, fraction)) => (whole, fraction),
        None => (text, ""),
    };
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    if text.contains('.') && fraction.is_empty() {
        return None;
    }
    let seconds: u64 = whole.parse().ok()?;
    let millis: String = fraction.chars().chain("000".chars()).take(3).collect();
    let millis: u64 = millis.parse().ok()?;
    Some(Duration::from_secs(seconds) + Duration::from_millis(millis))
}

/// Whole seconds with up to three decimals when the time has a fraction (`12`, `12.25`).
pub fn format_seconds(time: Duration) -> String {
    format!("{}{}", time.as_secs(), fraction(time))
}

/// `.25` for a time with a quarter second, empty for whole seconds.
fn fraction(time: Duration) -> String {
    match time.subsec_millis() {
        0 => String::new(),
        millis => format!(".{}", format!("{millis:03}").trim_end_matches('0')),
    }
}

/// `h:mm:ss` with decimals when the time has a fraction, as PGN's `%emt` writes it.
pub fn format_clock(time: Duration) -> String {
    let seconds = time.as_secs();
    let mut text = format!(
        "{}:{:02}:{:02}",
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    text.push_str(&fraction(time));
    text
}

/// KIF's time column for one move, `( 0:16/00:01:05)`: the move's minutes (space-padded
/// to two) and seconds, then the mover's total so far. Fractions of seconds are dropped,
/// as KIF counts whole seconds.
pub fn kif_column(time: Duration, total: Duration) -> String {
    let seconds = time.as_secs();
    let total = total.as_secs();
    format!(
        "({:>2}:{:02}/{:02}:{:02}:{:02})",
        seconds / 60,
        seconds % 60,
        total / 3600,
        total / 60 % 60,
        total % 60
    )
}

/// Reads the move's own time from a KIF time column (`( 0:16/00:01:05)`, also without
/// the total); `None` when `text` is not one.
pub fn parse_kif_column(text: &str) -> Option<Duration> {
    let inner = text.trim().strip_prefix('(')?.strip_suffix(')')?;
    let own = inner.split('/').next()?;
    parse_clock(own)
}

/// Takes the `[%emt 0:00:05]` command out of a PGN comment: the time and the comment
/// without it (other `[%…]` commands stay in the text). `None` for the time when the
/// comment has no readable `%emt`.
pub fn take_emt(comment: &str) -> (Option<Duration>, String) {
    let Some(start) = comment.find("[%emt") else {
        return (None, comment.to_string());
    };
    let Some(length) = comment[start..].find(']') else {
        return (None, comment.to_string());
    };
    let end = start + length;
    let Some(time) = parse_clock(&comment[start + "[%emt".len()..end]) else {
        return (None, comment.to_string());
    };
    let rest = format!("{} {}", &comment[..start], &comment[end + 1..]);
    (
        Some(time),
        rest.split_whitespace().collect::<Vec<_>>().join(" "),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clocks_read_in_every_shape() {
        assert_eq!(parse_clock("12"), Some(Duration::from_secs(12)));
        assert_eq!(parse_clock(" 1:05"), Some(Duration::from_secs(65)));
        assert_eq!(parse_clock("1:00:05"), Some(Duration::from_secs(3605)));
        assert_eq!(parse_clock("0:00:05.25"), Some(Duration::from_millis(5250)));
        assert_eq!(parse_clock("0:x:05"), None);
        assert_eq!(parse_clock(""), None);
        assert_eq!(parse_clock("1:2:3:4"), None);
        assert_eq!(parse_seconds("12.3456"), Some(Duration::from_millis(12345)));
        assert_eq!(parse_seconds("12."), None);
        assert_eq!(parse_seconds("-1"), None);
    }

    #[test]
    fn writers_spell_times_as_the_formats_do() {
        assert_eq!(format_seconds(Duration::from_millis(12250)), "12.25");
        assert_eq!(format_seconds(Duration::from_secs(7)), "7");
        assert_eq!(format_clock(Duration::from_secs(3725)), "1:02:05");
        assert_eq!(
            kif_column(Duration::from_secs(61), Duration::from_secs(3725)),
            "( 1:01/01:02:05)"
        );
        assert_eq!(
            parse_kif_column("( 1:01/01:02:05)"),
            Some(Duration::from_secs(61))
        );
    }

    #[test]
    fn emt_is_taken_out_of_a_comment() {
        let (time, rest) = take_emt("good [%emt 0:00:05] [%clk 0:10:00] move");
        assert_eq!(time, Some(Duration::from_secs(5)));
        assert_eq!(rest, "good [%clk 0:10:00] move");
        let (time, rest) = take_emt("[%emt soon]");
        assert_eq!((time, rest.as_str()), (None, "[%emt soon]"));
    }

    #[test]
    fn set_pads_and_tidy_trims() {
        let mut times = Vec::new();
        set(&mut times, 3, Duration::from_secs(2));
        assert_eq!(times, vec![None, None, Some(Duration::from_secs(2))]);
        assert_eq!(get(&times, 3), Some(Duration::from_secs(2)));
        assert_eq!(get(&times, 0), None);
        tidy(&mut times, 2);
        assert!(times.is_empty());
    }
}
