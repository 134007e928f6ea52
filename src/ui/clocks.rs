//! The clocks on screen: each side's face beside its name, and time controls
//! written the way players write them (`5m | 30s ×30`, `5분 | 30초 ×30`).

use super::theme::Theme;
use crate::app::{App, Play};
use crate::clock::{format_duration, TimeControl};
use crate::i18n::{Key, Language};
use crate::rules::Side;
use ratatui::text::Span;

/// A time control in the interface language: `unlimited`, `10m`, `5m+3s`, `5m | 30s ×30`
/// (Korean `무제한`, `10분`, `5분+3초`, `5분 | 30초 ×30`; Japanese `10分 秒読み30秒×3`).
pub fn time_control_text(language: Language, control: TimeControl) -> String {
    let duration = |d| localize_units(language, &format_duration(d));
    match control {
        TimeControl::None => language.text(Key::TimeUnlimited).to_string(),
        TimeControl::SuddenDeath { main } => duration(main),
        TimeControl::Fischer { main, increment } => {
            format!("{}+{}", duration(main), duration(increment))
        }
        TimeControl::Byoyomi {
            main,
            periods,
            period,
        } => language.format(
            Key::ByoyomiControl,
            &[&duration(main), &duration(period), &periods.to_string()],
        ),
    }
}

/// Replaces the `h`, `m`, `s` of a written duration with the language's units.
fn localize_units(language: Language, text: &str) -> String {
    let units: Vec<&str> = language.text(Key::TimeUnits).split(' ').collect();
    let [hours, minutes, seconds] = units.as_slice() else {
        return text.to_string();
    };
    text.chars()
        .map(|c| match c {
            'h' => hours.to_string(),
            'm' => minutes.to_string(),
            's' => seconds.to_string(),
            other => other.to_string(),
        })
        .collect()
}

/// A side's clock face styled for the panel: bold while it runs, the warning style in
/// its last seconds or last period; `None` in an untimed game.
pub fn clock_face(app: &App, play: &Play, side: Side, theme: &Theme) -> Option<Span<'static>> {
    let clock = play.clock.as_ref()?;
    let now = app.now();
    // `27s ×29` in the interface's units: `27초 ×29`, `27秒 ×29`.
    let face = localize_units(app.settings.language, &clock.face(side, now));
    let running = clock.running() == Some(side);
    let style = if clock.warning(side, now) && (running || play.in_progress()) {
        theme.warning
    } else if running {
        theme.title
    } else {
        theme.dim
    };
    Some(Span::styled(format!(" {face} "), style))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_players_write_them() {
        let text = |language, control: &str| time_control_text(language, control.parse().unwrap());
        assert_eq!(text(Language::English, "none"), "unlimited");
        assert_eq!(text(Language::English, "5m 30x30s"), "5m | 30s ×30");
        assert_eq!(text(Language::Korean, "5m 30x30s"), "5분 | 30초 ×30");
        assert_eq!(text(Language::Korean, "1h1m30s+3s"), "1시간1분30초+3초");
        assert_eq!(text(Language::English, "10m"), "10m");
        assert_eq!(text(Language::Japanese, "10m 3x30s"), "10分 秒読み30秒×3");
        assert_eq!(text(Language::Chinese, "5m 30x30s"), "5分 读秒 30秒×30");
        assert_eq!(text(Language::Japanese, "1h+10s"), "1時間+10秒");
    }
}
