//! What an opened record is, as its headers say: the players, the event and the date,
//! read alike from every format's own header names (PGN's `Red`/`Black`, KIF's
//! `先手`/`後手`, CSA's `N+`/`N-`, .gib's `[초대국자 …]`…), bounded and made safe for the
//! terminal ([`crate::untrusted`]) so the screen can show them as they are.

use super::GameRecord;
use crate::rules::Side;

/// The most characters of one header value the screen is given.
const VALUE_LIMIT: usize = 40;

/// Header names that give the first player (Red, Cho, Sente), in every format.
const FIRST_PLAYER: &[&str] = &[
    "Red",
    "White",
    "Cho",
    "Sente",
    "先手",
    "下手",
    "N+",
    "초대국자",
];
/// Header names that give the second player (Black, Han, Gote).
const SECOND_PLAYER: &[&str] = &["Black", "Han", "Gote", "後手", "上手", "N-", "한대국자"];
/// Header names that give the event.
const EVENT: &[&str] = &["Event", "棋戦", "$EVENT", "대회명", "Title", "表題"];
/// Header names that give the date.
const DATE: &[&str] = &["Date", "開始日時", "$START_TIME", "대국일자", "対局日"];
/// Header names that give the site.
const SITE: &[&str] = &["Site", "場所", "$SITE", "대국장소"];

/// The headers that say who played, at what event, where and when, exactly as the
/// record has them (names and values, placeholders included): what saving an opened
/// record writes again, so the writers map them into the format saved to (`초대국자` →
/// `Cho`, `Date` → `開始日時` …) instead of the app naming the players by their kind.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordIdentity {
    /// The first player's header, then the second's (`None` when the record has none).
    pub players: [Option<(String, String)>; 2],
    /// The event's header.
    pub event: Option<(String, String)>,
    /// The site's header.
    pub site: Option<(String, String)>,
    /// The date's header.
    pub date: Option<(String, String)>,
}

impl RecordIdentity {
    /// The identity headers of a record.
    pub fn of(record: &GameRecord) -> RecordIdentity {
        let find = |names: &[&str]| {
            names.iter().find_map(|name| {
                record
                    .header(name)
                    .map(|value| (name.to_string(), value.trim().to_string()))
            })
        };
        RecordIdentity {
            players: [find(FIRST_PLAYER), find(SECOND_PLAYER)],
            event: find(EVENT),
            site: find(SITE),
            date: find(DATE),
        }
    }
}

/// The players, event and date of a record, each `None` when the file does not say
/// (a missing header, or a placeholder such as `?`, `????.??.??` or `미상`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordSummary {
    /// The players' names, first player first.
    pub players: [Option<String>; 2],
    /// The event (tournament, match, title).
    pub event: Option<String>,
    /// The date as the file writes it.
    pub date: Option<String>,
    /// The same headers as the file has them, uncut, with the site: for saving.
    pub identity: RecordIdentity,
}

impl RecordSummary {
    /// The summary of a record's headers.
    pub fn of(record: &GameRecord) -> RecordSummary {
        let find = |names: &[&str]| {
            names
                .iter()
                .find_map(|name| record.header(name).and_then(shown_value))
        };
        RecordSummary {
            players: [find(FIRST_PLAYER), find(SECOND_PLAYER)],
            event: find(EVENT),
            date: find(DATE),
            identity: RecordIdentity::of(record),
        }
    }

    /// The name the record gives a side's player.
    pub fn player(&self, side: Side) -> Option<&str> {
        self.players[side.index()].as_deref()
    }

    /// The event and date on one line (`친선대국 · 2016-12-06`), if the record has either.
    pub fn event_line(&self) -> Option<String> {
        let parts: Vec<&str> = [self.event.as_deref(), self.date.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// A header value as the screen may show it: trimmed, one line, no control characters,
/// at most [`VALUE_LIMIT`] characters; `None` for an empty value or a placeholder.
fn shown_value(value: &str) -> Option<String> {
    let value = value.trim();
    let placeholder = value.is_empty()
        || value.chars().all(|c| matches!(c, '?' | '.' | '-' | '*'))
        || matches!(value, "미상" | "不明" | "未知" | "Unknown" | "unknown");
    (!placeholder).then(|| crate::untrusted::quote(value, VALUE_LIMIT))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{read_bytes, Format};

    fn summary(text: &str, format: Format) -> RecordSummary {
        let record = read_bytes(text.as_bytes(), "test", format).expect("a record");
        RecordSummary::of(&record)
    }

    #[test]
    fn every_format_names_its_players_event_and_date() {
        let pgn = summary(
            "[Event \"全国象棋锦标赛\"]\n[Date \"1960.??.??\"]\n[Red \"胡荣华\"]\n[Black \"杨官璘\"]\n[Result \"1-0\"]\n\n1. h2e2 h9g7 1-0\n",
            Format::Pgn,
        );
        assert_eq!(pgn.player(Side::First), Some("胡荣华"));
        assert_eq!(pgn.player(Side::Second), Some("杨官璘"));
        assert_eq!(
            pgn.event_line().as_deref(),
            Some("全国象棋锦标赛 · 1960.??.??")
        );
        let kif = summary(
            "開始日時：2024/05/01\n棋戦：名人戦\n手合割：平手\n先手：羽生善治\n後手：藤井聡太\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 投了\nまで1手で先手の勝ち\n",
            Format::Kif,
        );
        assert_eq!(
            kif.players,
            [Some("羽生善治".into()), Some("藤井聡太".into())]
        );
        assert_eq!(kif.event_line().as_deref(), Some("名人戦 · 2024/05/01"));
        let csa = summary(
            "V2.2\nN+Sente Player\nN-Gote Player\n$EVENT:Floodgate\n$START_TIME:2024/01/02 10:00:00\nPI\n+\n+7776FU\n%TORYO\n",
            Format::Csa,
        );
        assert_eq!(csa.player(Side::First), Some("Sente Player"));
        assert_eq!(csa.player(Side::Second), Some("Gote Player"));
        assert_eq!(
            csa.event_line().as_deref(),
            Some("Floodgate · 2024/01/02 10:00:00")
        );
        let gib = summary(
            "[대회명 \"친선대국\"]\n[대국일자 \"2016-12-06\"]\n[대국장소 \"미상\"]\n[초대국자 \"하여명\"]\n[한대국자 \"전동하\"]\n[초차림 \"상마상마\"]\n[한차림 \"상마상마\"]\n[대국결과 \"한 완승\"]\n\n1. 71졸72 2. 49병48\n",
            Format::Gib,
        );
        assert_eq!(gib.players, [Some("하여명".into()), Some("전동하".into())]);
        assert_eq!(gib.event_line().as_deref(), Some("친선대국 · 2016-12-06"));
    }

    #[test]
    fn placeholders_say_nothing_and_values_are_made_safe() {
        let pgn = summary(
            "[Event \"?\"]\n[Date \"????.??.??\"]\n[Red \"evil\u{1b}[2Jname that goes on and on and on and on and on\"]\n[Black \"미상\"]\n\n1. h2e2 *\n",
            Format::Pgn,
        );
        assert_eq!(pgn.event_line(), None);
        assert_eq!(pgn.player(Side::Second), None);
        let red = pgn.player(Side::First).unwrap();
        assert!(
            red.chars().all(|c| !crate::untrusted::is_control(c)),
            "{red}"
        );
        assert!(red.chars().count() <= VALUE_LIMIT + 1, "{red}");
    }
}
