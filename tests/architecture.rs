//! Keeps the arrows of ARCHITECTURE.md honest: the rules engine is pure (no
//! terminal, files, printing, threads or clocks), the engine draws nothing and
//! touches no files, and rendering never changes the app.

use std::path::Path;

/// The non-test source of every `.rs` file under `dir` (text before `#[cfg(test)]`).
fn sources(dir: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut stack = vec![root];
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                let code = text.split("#[cfg(test)]").next().unwrap_or("").to_string();
                out.push((path.display().to_string(), code));
            }
        }
    }
    assert!(!out.is_empty(), "no sources under {dir}");
    out
}

fn assert_absent(dir: &str, forbidden: &[&str]) {
    for (file, code) in sources(dir) {
        for word in forbidden {
            assert!(
                !code.contains(word),
                "{file} uses {word}, which {dir} must not"
            );
        }
    }
}

#[test]
fn rules_are_pure() {
    assert_absent(
        "src/rules",
        &[
            "ratatui",
            "crossterm",
            "std::fs",
            "std::io",
            "println!",
            "eprintln!",
            "std::thread",
            "std::time",
            "serde",
        ],
    );
}

#[test]
fn engine_neither_draws_nor_touches_files() {
    assert_absent(
        "src/engine",
        &["ratatui", "crossterm", "std::fs", "println!"],
    );
}

#[test]
fn rendering_never_changes_the_app() {
    assert_absent("src/ui", &["&mut App", "crossterm::event"]);
}

/// Every colour on screen comes from the theme's roles, so NO_COLOR, the colour depth
/// and the user's theme reach every cell.
#[test]
fn rendering_names_no_colour() {
    for (file, code) in sources("src/ui") {
        if file.ends_with("tests.rs") {
            continue; // tests may look at the colours drawn
        }
        for word in ["Color::", "Color,", "style::Color"] {
            assert!(
                !code.contains(word),
                "{file} names a colour ({word}): use a theme role"
            );
        }
    }
}

#[test]
fn records_neither_draw_nor_reach_into_the_client() {
    assert_absent(
        "src/record",
        &[
            "ratatui",
            "crossterm",
            "crate::app",
            "crate::ui",
            "crate::tui",
        ],
    );
}

/// The modules `app` builds on never reach back up into it, so there is no import
/// circle: key bindings (`action`), start choices (`setup`), settings, themes, clocks
/// and strings sit below the model.
#[test]
fn modules_below_the_app_do_not_import_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for file in [
        "src/action.rs",
        "src/setup.rs",
        "src/config.rs",
        "src/theme.rs",
        "src/clock.rs",
        "src/i18n.rs",
    ] {
        let text = std::fs::read_to_string(root.join(file)).unwrap();
        assert!(
            !text.contains("crate::app"),
            "{file} imports crate::app, which is built on it"
        );
    }
    for dir in ["src/config", "src/i18n"] {
        assert_absent(dir, &["crate::app"]);
    }
}

/// Analysis sits below the app: the terminal client runs it on a worker, `qipan analyse`
/// prints what it returns; it draws, prints and reads files itself never.
#[test]
fn analysis_sits_below_the_app() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/analysis.rs");
    let text = std::fs::read_to_string(path).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    for word in [
        "crate::app",
        "crate::ui",
        "crate::tui",
        "ratatui",
        "crossterm",
        "std::fs",
        "println!",
        "eprint",
    ] {
        assert!(!code.contains(word), "src/analysis.rs uses {word}");
    }
}
