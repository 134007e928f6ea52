//! Gungjanggi on screen: the state its rules depend on, drawn from the questions
//! [`Game`] answers (each side's king, bikjang and passes; the judging phase with its
//! cause, countdown and material; what a move just did) so the screen teaches the
//! rules as they happen. The rules are never decided here.

use super::glyphs;
use super::theme::Theme;
use super::{board, side_name};
use crate::app::{side_key, GlyphSet, Play};
use crate::i18n::{Key, Language};
use crate::rules::any::{AnyPosition, GameKind, Piece, PieceKind};
use crate::rules::game::Game;
use crate::rules::gungjanggi::{GungjanggiEvent, GungjanggiStatus, JudgingCause, JudgingStatus};
use crate::rules::notation::Notation;
use crate::rules::{EndReason, Move, Outcome, Scores, Side};
use ratatui::style::Modifier;
use ratatui::text::Line;

const GAME: GameKind = GameKind::Janggi;

/// The gungjanggi state of the position the screen shows, if the game is gungjanggi.
pub(super) fn shown_status(play: &Play) -> Option<GungjanggiStatus> {
    play.game.gungjanggi_status(play.shown_ply())
}

/// Words joined by ` · `, wrapped to `width` columns; continuation lines indented like the first.
fn wrapped(parts: &[String], indent: usize, width: u16) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = " ".repeat(indent);
    let mut empty = true;
    for part in parts {
        let candidate = if empty {
            format!("{line}{part}")
        } else {
            format!("{line} · {part}")
        };
        if !empty && board::text_width(&candidate, false) > width {
            lines.push(line);
            line = format!("{}{part}", " ".repeat(indent));
        } else {
            line = candidate;
        }
        empty = false;
    }
    lines.push(line);
    lines
}

/// A text wrapped to `width` columns, at its ` · ` separators first and between words
/// where a part alone is too wide; continuation lines indented by two.
pub(super) fn word_wrap(text: &str, width: u16) -> Vec<String> {
    let parts: Vec<String> = text.split(" · ").map(String::from).collect();
    let mut lines = Vec::new();
    for (index, line) in wrapped(&parts, 0, width).into_iter().enumerate() {
        let line = if index == 0 {
            line
        } else {
            format!("  {line}")
        };
        lines.extend(words_wrapped(&line, width));
    }
    lines
}

/// A text wrapped between words to `width` columns, continuation lines indented by two.
fn words_wrapped(text: &str, width: u16) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split(' ') {
        let line = lines.last_mut().expect("one line at least");
        let candidate = if line.trim().is_empty() {
            format!("{line}{word}")
        } else {
            format!("{line} {word}")
        };
        if board::text_width(&candidate, false) > width && !line.trim().is_empty() {
            lines.push(format!("  {word}"));
        } else {
            *line = candidate;
        }
    }
    lines
}

/// One side's state under its player line: king, bikjang, passes in a row.
pub(super) fn side_lines(
    language: Language,
    status: &GungjanggiStatus,
    side: Side,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let state = status.sides[side.index()];
    let king = if state.king_promoted {
        Key::GungKingPromoted
    } else {
        Key::GungKingNormal
    };
    let bikjang = if state.bikjang_called {
        Key::GungBikjangUsed
    } else {
        Key::GungBikjangLeft
    };
    let passes = if state.third_pass_forbidden() {
        language.text(Key::GungNoThirdPass).to_string()
    } else {
        language.format(Key::GungPasses, &[&state.passes_in_row.to_string()])
    };
    let parts = [
        language.text(king).to_string(),
        language.text(bikjang).to_string(),
        passes,
    ];
    wrapped(&parts, 4, width)
        .into_iter()
        .map(|text| {
            let style = if state.king_promoted {
                theme.side_label(side).add_modifier(Modifier::BOLD)
            } else {
                theme.dim
            };
            Line::styled(text, style)
        })
        .collect()
}

/// The two answers to a pending bikjang, for the panel.
pub(super) fn pending_lines(language: Language, theme: &Theme) -> Vec<Line<'static>> {
    vec![
        Line::styled(language.text(Key::GungPendingAccept), theme.error),
        Line::styled(
            format!("  {}", language.text(Key::GungPendingBreak)),
            theme.error,
        ),
    ]
}

fn cause_text(language: Language, cause: JudgingCause) -> String {
    match cause {
        JudgingCause::DrawAgreed => language.text(Key::GungCauseDraw).to_string(),
        JudgingCause::BikjangAccepted => language.text(Key::GungCauseBikjang).to_string(),
        JudgingCause::QuietPlies(plies) => {
            language.format(Key::GungCauseQuiet, &[&plies.to_string()])
        }
        JudgingCause::OnlyKingsAndAdvisors => language.text(Key::GungCauseBare).to_string(),
        JudgingCause::SetUp => language.text(Key::GungCauseSetUp).to_string(),
    }
}

/// Who wins on material now: the leader, or the second player when equal (rule 10).
fn leader_text(language: Language, judging: &JudgingStatus) -> String {
    let material = judging.material;
    let side = language.text(side_key(GAME, judging.material_leader()));
    if material.first == material.second {
        language.format(Key::GungEqual, &[side])
    } else {
        language.format(Key::GungLeader, &[side])
    }
}

/// The judging-phase banner: that it began and why, what wins now, the countdown to the
/// material decision and who that decision favours.
pub(super) fn judging_lines(
    language: Language,
    judging: &JudgingStatus,
    width: u16,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let banner = language.format(
        Key::GungJudgingBanner,
        &[&cause_text(language, judging.cause)],
    );
    let mut lines = vec![Line::styled(
        format!(" {banner} "),
        theme
            .warning
            .add_modifier(Modifier::REVERSED | Modifier::BOLD),
    )];
    let parts = [
        language.text(Key::GungFirstCheckWins).to_string(),
        language.format(Key::GungMaterialIn, &[&judging.plies_left.to_string()]),
    ];
    for text in wrapped(&parts, 0, width) {
        lines.push(Line::styled(text, theme.warning));
    }
    lines.push(Line::styled(leader_text(language, judging), theme.warning));
    lines
}

/// The heading of the material line: by value (Manual 1) or by count (Manual 2).
pub(super) fn material_heading(status: &GungjanggiStatus) -> Key {
    if status.dan {
        Key::GungMaterialByCount
    } else {
        Key::GungMaterialByValue
    }
}

/// The status-line text for what the move into the shown position did, if anything.
pub(super) fn event_text(language: Language, play: &Play) -> Option<String> {
    let ply = play.shown_ply();
    let events = play.game.gungjanggi_events(ply);
    let name = |side: Side| language.text(side_key(GAME, side));
    // The judging phase says the most: it comes first.
    if let Some(cause) = events.iter().find_map(|event| match event {
        GungjanggiEvent::JudgingBegan(cause) => Some(*cause),
        _ => None,
    }) {
        let plies = play
            .game
            .gungjanggi_status(ply)
            .and_then(|status| status.judging)
            .map_or(0, |judging| judging.plies_left);
        return Some(language.format(
            Key::GungEventJudging,
            &[&cause_text(language, cause), &plies.to_string()],
        ));
    }
    let texts: Vec<String> = events
        .iter()
        .filter_map(|event| match *event {
            GungjanggiEvent::BikjangCalled(side) => Some(language.format(
                Key::GungEventBikjangCalled,
                &[name(side), name(side.opponent())],
            )),
            GungjanggiEvent::BikjangAccepted(side) => {
                Some(language.format(Key::GungEventBikjangAccepted, &[name(side)]))
            }
            GungjanggiEvent::KingPromoted(side) => {
                Some(language.format(Key::GungEventKingPromoted, &[name(side)]))
            }
            GungjanggiEvent::SoldierPromoted(side, _) => {
                Some(language.format(Key::GungEventSoldierPromoted, &[name(side)]))
            }
            GungjanggiEvent::AdvisorsPromoted => {
                Some(language.text(Key::GungEventAdvisorsPromoted).to_string())
            }
            GungjanggiEvent::BothKingsPromoted | GungjanggiEvent::JudgingBegan(_) => None,
        })
        .collect();
    (!texts.is_empty()).then(|| texts.join(" · "))
}

/// The move-list word of a janggi pass in Korean notation, in the interface language:
/// `빅장 받음` / `accept bikjang` when it accepts a bikjang, else `한수쉼` / `pass`.
pub(super) fn pass_word(
    language: Language,
    position: &AnyPosition,
    mv: Move,
    notation: Notation,
) -> Option<&'static str> {
    if !mv.is_pass() || position.game() != GAME || !matches!(notation, Notation::Korean { .. }) {
        return None;
    }
    Some(language.text(if position.bikjang_pending() {
        Key::MoveAcceptBikjang
    } else {
        Key::MovePass
    }))
}

/// Both material totals after a gungjanggi result decided by material (기물승, 후수승).
pub(super) fn outcome_totals(language: Language, outcome: &Outcome) -> Option<String> {
    let Outcome::Win {
        reason: EndReason::Material | EndReason::SecondPlayer,
        scores: Some(Scores { first, second, .. }),
        ..
    } = *outcome
    else {
        return None;
    };
    Some(language.format(
        Key::MaterialTotals,
        &[
            language.text(side_key(GAME, Side::First)),
            &first.to_string(),
            language.text(side_key(GAME, Side::Second)),
            &second.to_string(),
        ],
    ))
}

/// The help's lines on promoted pieces: both king forms (and in Manual 2 the promoted
/// soldier and advisor), each with what promotion changes.
pub(super) fn help_piece_entries(glyphs: GlyphSet, dan: bool) -> Vec<(Vec<(String, Side)>, Key)> {
    let forms = |kind: PieceKind| -> Vec<(String, Side)> {
        let mut forms = Vec::new();
        for side in [Side::First, Side::Second] {
            forms.push((
                glyphs::piece(GAME, Piece { side, kind }, glyphs).to_string(),
                side,
            ));
        }
        forms.push(("→".to_string(), Side::First));
        for side in [Side::First, Side::Second] {
            forms.push((
                glyphs::promoted_piece(GAME, Piece { side, kind }, glyphs),
                side,
            ));
        }
        forms
    };
    let mut entries = vec![(forms(PieceKind::General), Key::HelpGungKing)];
    if dan {
        entries.push((forms(PieceKind::Soldier), Key::HelpGungSoldier));
        entries.push((forms(PieceKind::Advisor), Key::HelpGungAdvisor));
    }
    entries
}

/// The question of the request to judge, gungjanggi's draw-offer key: asker, then answerer.
pub(super) fn judge_offer_text(language: Language, glyphs: GlyphSet, side: Side) -> String {
    language.format(
        Key::JudgeOffer,
        &[
            &side_name(language, glyphs, GAME, side),
            &side_name(language, glyphs, GAME, side.opponent()),
        ],
    )
}

/// True when the game on screen is gungjanggi.
pub(super) fn is_gungjanggi(game: &Game) -> bool {
    game.variant().is_gungjanggi()
}
