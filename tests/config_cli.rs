//! `qipan config check|path|example` as a user runs them.

use std::process::Command;

fn qipan(args: &[&str], config_home: &std::path::Path) -> (bool, String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_qipan"))
        .args(args)
        .env("XDG_CONFIG_HOME", config_home)
        .env_remove("NO_COLOR")
        // `language = "auto"` reads these: English unless a test's file says otherwise.
        .env("LANG", "C")
        .env_remove("LC_ALL")
        .env_remove("LC_MESSAGES")
        .output()
        .expect("qipan runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn scratch(name: &str) -> std::path::PathBuf {
    let folder = std::env::temp_dir().join(format!("qipan-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&folder);
    std::fs::create_dir_all(&folder).unwrap();
    folder
}

#[test]
fn check_reports_each_problem_on_its_own_line() {
    let home = scratch("check");
    let file = home.join("bad.toml");
    std::fs::write(
        &file,
        "language = \"ko\"\nbell = true\n\ntheme = \"blu\"\ncolour = 1\n",
    )
    .unwrap();
    // The file asks for Korean, so the check answers in Korean; names stay as written.
    let (ok, stdout, stderr) = qipan(
        &["--config", file.to_str().unwrap(), "config", "check"],
        &home,
    );
    assert!(!ok);
    assert_eq!(
        stdout,
        "bad.toml: 4행 9열: 키 \"theme\": wood, dark, contrast, sixteen 중 하나나 테마 파일 경로가 필요한데 적힌 값은 \"blu\"입니다\n\
         bad.toml: 5행 1열: 알 수 없는 키 \"colour\" (무시함)\n"
    );
    assert!(stderr.contains("설정에 문제가 2개 있습니다"), "{stderr}");
    // `--lang` beats the file.
    let (ok, stdout, stderr) = qipan(
        &[
            "--config",
            file.to_str().unwrap(),
            "--lang",
            "en",
            "config",
            "check",
        ],
        &home,
    );
    assert!(!ok);
    assert_eq!(
        stdout,
        "bad.toml: line 4, column 9: key \"theme\": expected one of wood, dark, contrast, sixteen or a theme file path, found \"blu\"\n\
         bad.toml: line 5, column 1: unknown key \"colour\" (ignored)\n"
    );
    assert!(stderr.contains("2 problems"), "{stderr}");
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn the_example_checks_clean_and_path_follows_xdg() {
    let home = scratch("example");
    let (ok, example, _) = qipan(&["config", "example"], &home);
    assert!(ok);
    std::fs::create_dir_all(home.join("qipan")).unwrap();
    std::fs::write(home.join("qipan").join("config.toml"), &example).unwrap();
    let (ok, stdout, _) = qipan(&["config", "check"], &home);
    assert!(ok, "{stdout}");
    assert!(stdout.ends_with("config.toml: ok\n"), "{stdout}");
    let (ok, stdout, _) = qipan(&["config", "path"], &home);
    assert!(ok);
    assert_eq!(
        stdout.trim(),
        home.join("qipan").join("config.toml").display().to_string()
    );
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn a_user_theme_beside_the_config_is_found() {
    let home = scratch("theme");
    let folder = home.join("qipan");
    std::fs::create_dir_all(folder.join("themes")).unwrap();
    std::fs::write(
        folder.join("themes").join("paper.toml"),
        "base = \"wood\"\nboard = { bg = \"#ffffff\" }\n",
    )
    .unwrap();
    std::fs::write(folder.join("config.toml"), "theme = \"paper\"\n").unwrap();
    let (ok, stdout, _) = qipan(&["config", "check"], &home);
    assert!(ok, "{stdout}");
    // A broken user theme is reported by the check too.
    std::fs::write(
        folder.join("themes").join("paper.toml"),
        "board = { bg = \"#fffff\" }\n",
    )
    .unwrap();
    let (ok, stdout, _) = qipan(&["config", "check"], &home);
    assert!(!ok);
    assert!(
        stdout.contains("paper.toml: line 1, column 16: key \"board.bg\": expected a colour"),
        "{stdout}"
    );
    std::fs::remove_dir_all(&home).unwrap();
}
