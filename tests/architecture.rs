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

/// The game tree sits below both the app and the records: it uses the rules engine only.
#[test]
fn the_game_tree_uses_only_the_rules() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(root.join("src/tree.rs")).unwrap();
    let code = text.split("#[cfg(test)]").next().unwrap_or("");
    for line in code.lines().filter(|l| l.contains("crate::")) {
        assert!(
            line.contains("crate::rules"),
            "src/tree.rs names something above the rules: {line}"
        );
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

/// Calls that exist only on Unix: each must sit inside a `#[cfg(unix)]` item or block
/// (or a narrower `#[cfg(target_os = "linux")]` one), so qipan still builds for Windows.
const UNIX_ONLY: &[&str] = &[
    "std::os::unix",
    "PermissionsExt",
    "MetadataExt",
    "FileTypeExt",
    "signal_hook",
    "libc::",
    "nix::",
    "rustix::",
    "SIGHUP",
    "SIGTERM",
    "SIGKILL",
    "\"/dev/",
    "\"sh\"",
    "\"HOME\"",
];

/// The Unix-only words of `source` outside `#[cfg(unix)]` regions, as (line, word).
/// Comments are skipped; braces inside string and character literals do not count.
fn unix_only_outside_cfg(source: &str) -> Vec<(usize, &'static str)> {
    // Per line: the code without comments (literals kept), and whether a cfg(unix)
    // region covers it.
    let mut found = Vec::new();
    let chars: Vec<char> = source.chars().collect();
    let mut line = 1;
    let mut code = String::new();
    let mut depth = 0usize;
    let mut regions: Vec<usize> = Vec::new();
    let mut pending = false;
    let mut covered = false;
    let mut index = 0;
    let mut finish_line = |code: &mut String, line: usize, covered: bool| {
        if !covered {
            for word in UNIX_ONLY {
                // A whole word: `nix::` is not the end of `unix::`.
                let whole = code.match_indices(word).any(|(at, _)| {
                    let before = code[..at].chars().next_back();
                    !word.starts_with(|c: char| c.is_alphanumeric())
                        || !before.is_some_and(|c| c.is_alphanumeric() || c == '_')
                });
                if whole {
                    found.push((line, *word));
                }
            }
        }
        code.clear();
    };
    while index < chars.len() {
        let c = chars[index];
        let next = chars.get(index + 1).copied();
        if c == '\n' {
            finish_line(&mut code, line, covered);
            line += 1;
            covered = pending || !regions.is_empty();
            index += 1;
            continue;
        }
        if c == '/' && next == Some('/') {
            while index < chars.len() && chars[index] != '\n' {
                index += 1;
            }
            continue;
        }
        if c == '/' && next == Some('*') {
            index += 2;
            while index + 1 < chars.len() && !(chars[index] == '*' && chars[index + 1] == '/') {
                if chars[index] == '\n' {
                    finish_line(&mut code, line, covered);
                    line += 1;
                }
                index += 1;
            }
            index += 2;
            continue;
        }
        if c == '"' {
            code.push(c);
            index += 1;
            while index < chars.len() && chars[index] != '"' {
                if chars[index] == '\\' {
                    code.push(chars[index]);
                    index += 1;
                }
                if chars[index] == '\n' {
                    finish_line(&mut code, line, covered);
                    line += 1;
                } else {
                    code.push(chars[index]);
                }
                index += 1;
            }
            code.push('"');
            index += 1;
            continue;
        }
        if c == '\'' {
            // A character literal ('{', '\n', '\''), not a lifetime ('a).
            let end = if next == Some('\\') {
                (index + 2..chars.len()).find(|&i| chars[i] == '\'')
            } else if chars.get(index + 2) == Some(&'\'') {
                Some(index + 2)
            } else {
                None
            };
            if let Some(end) = end {
                code.extend(&chars[index..=end]);
                index = end + 1;
                continue;
            }
        }
        code.push(c);
        if code.ends_with("#[cfg(unix)]")
            || code.ends_with("#[cfg(all(unix")
            || code.ends_with("#[cfg(target_family = \"unix\")]")
            || code.ends_with("#[cfg(target_os = \"linux\")]")
        {
            pending = true;
            covered = true;
        }
        match c {
            '{' => {
                if pending {
                    regions.push(depth);
                    pending = false;
                }
                depth += 1;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if regions.last() == Some(&depth) {
                    regions.pop();
                }
            }
            ';' if pending => pending = false,
            _ => {}
        }
        index += 1;
    }
    finish_line(&mut code, line, covered);
    found
}

#[test]
fn the_unix_only_check_finds_what_it_should() {
    let source = r#"
//! SIGHUP in a comment is fine.
use std::os::unix::fs::PermissionsExt;
#[cfg(unix)]
use std::os::unix::fs::MetadataExt;
#[cfg(unix)]
fn signals() {
    let braces = ['{', '{'];
    let text = "}}";
    signal_hook::flag::register(SIGHUP, flag);
}
fn elsewhere() {
    #[cfg(unix)]
    {
        let _ = std::fs::read("/dev/null");
    }
    let _ = std::process::Command::new("sh");
}
#[cfg(target_os = "linux")]
fn huge_pages() {
    unsafe { libc::madvise(start, length, libc::MADV_HUGEPAGE) };
}
fn not_linux() {
    libc::getpid();
}
"#;
    assert_eq!(
        unix_only_outside_cfg(source),
        vec![
            (3, "std::os::unix"),
            (3, "PermissionsExt"),
            (17, "\"sh\""),
            (24, "libc::")
        ]
    );
}

/// qipan builds on Windows and macOS too: no Unix-only call outside `#[cfg(unix)]`.
#[test]
fn unix_only_calls_are_inside_cfg_unix() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut stack = vec![root];
    let mut problems = Vec::new();
    let mut files = 0;
    while let Some(path) = stack.pop() {
        for entry in std::fs::read_dir(&path).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                files += 1;
                let text = std::fs::read_to_string(&path).unwrap();
                for (line, word) in unix_only_outside_cfg(&text) {
                    problems.push(format!("{}:{line}: {word}", path.display()));
                }
            }
        }
    }
    assert!(files > 50);
    assert!(
        problems.is_empty(),
        "Unix-only outside #[cfg(unix)]:\n{}",
        problems.join("\n")
    );
}
