//! Where qipan keeps its files, by the rules of the platform it runs on (from the
//! `etcetera` crate): the XDG base directories on Linux and the BSDs,
//! `~/Library/Application Support` on macOS, `%APPDATA%` and `%LOCALAPPDATA%` on
//! Windows. The environment overrides (`QIPAN_AUTOSAVE`, `QIPAN_GAMES_DIR`, the XDG
//! variables) and `--config` win over these.
//!
//! | folder | Linux (XDG) | macOS | Windows |
//! |---|---|---|---|
//! | config | `$XDG_CONFIG_HOME/qipan` | `~/Library/Application Support/qipan` | `%APPDATA%\qipan` |
//! | state (autosave, history) | `$XDG_STATE_HOME/qipan` | `~/Library/Application Support/qipan` | `%LOCALAPPDATA%\qipan` |
//! | data (saved games) | `$XDG_DATA_HOME/qipan` | `~/Library/Application Support/qipan` | `%APPDATA%\qipan` |

use etcetera::base_strategy::{self, BaseStrategy};
use std::path::PathBuf;

/// The name of qipan's own folder inside each base folder.
const APPLICATION: &str = "qipan";

/// The environment variable that overrides where the autosave lives (tests, portable setups).
pub const AUTOSAVE_VARIABLE: &str = "QIPAN_AUTOSAVE";

/// The environment variable that overrides the folder the save key writes to.
pub const GAMES_VARIABLE: &str = "QIPAN_GAMES_DIR";

/// The rules a platform follows for a user's folders.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Platform {
    /// The XDG base directories (Linux, the BSDs and other Unix systems).
    Xdg,
    /// macOS: everything under `~/Library/Application Support`.
    Apple,
    /// Windows: roaming settings and games, local state.
    Windows,
}

/// qipan's three folders on one platform.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Folders {
    /// The settings (`config.toml`, `themes/`).
    pub config: PathBuf,
    /// What the program keeps for itself: the autosave and the history of finished games.
    pub state: PathBuf,
    /// The player's own files: saved games (`games/`).
    pub data: PathBuf,
}

impl Platform {
    /// The platform this program was built for.
    pub fn native() -> Platform {
        if cfg!(windows) {
            Platform::Windows
        } else if cfg!(target_os = "macos") {
            Platform::Apple
        } else {
            Platform::Xdg
        }
    }

    /// qipan's folders by this platform's rules, from the home folder and the
    /// platform's environment variables; `None` when no home folder can be found.
    pub fn folders(self) -> Option<Folders> {
        match self {
            Platform::Xdg => {
                let base = base_strategy::Xdg::new().ok()?;
                let state = base
                    .state_dir()
                    .unwrap_or_else(|| base.home_dir().join(".local").join("state"));
                Some(Folders {
                    config: base.config_dir().join(APPLICATION),
                    state: state.join(APPLICATION),
                    data: base.data_dir().join(APPLICATION),
                })
            }
            Platform::Apple => {
                let base = base_strategy::Apple::new().ok()?;
                let support = base.data_dir().join(APPLICATION);
                Some(Folders {
                    config: support.clone(),
                    state: support.clone(),
                    data: support,
                })
            }
            Platform::Windows => {
                let base = base_strategy::Windows::new().ok()?;
                Some(Folders {
                    config: base.config_dir().join(APPLICATION),
                    // The local (not roaming) folder: the autosave belongs to this machine.
                    state: base.cache_dir().join(APPLICATION),
                    data: base.data_dir().join(APPLICATION),
                })
            }
        }
    }
}

/// qipan's folders on this platform.
pub fn current() -> Option<Folders> {
    Platform::native().folders()
}

fn variable(name: &str) -> Option<PathBuf> {
    std::env::var_os(name)
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
}

/// The config folder (the settings file is `config.toml` in it).
pub fn config_folder() -> Option<PathBuf> {
    current().map(|folders| folders.config)
}

/// Where the autosave lives: `$QIPAN_AUTOSAVE`, else `autosave.txt` in the state folder.
pub fn autosave_path() -> Option<PathBuf> {
    variable(AUTOSAVE_VARIABLE)
        .or_else(|| current().map(|folders| folders.state.join("autosave.txt")))
}

/// The folder of the autosave (`.` when the autosave path has none).
pub fn autosave_folder() -> Option<PathBuf> {
    let path = autosave_path()?;
    Some(match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    })
}

/// The folder finished games are recorded in: `history/` beside the autosave.
pub fn history_folder() -> Option<PathBuf> {
    autosave_folder().map(|folder| folder.join("history"))
}

/// The folder the save key writes to: `$QIPAN_GAMES_DIR`, else `games/` in the data folder.
pub fn games_folder() -> Option<PathBuf> {
    variable(GAMES_VARIABLE).or_else(|| current().map(|folders| folders.data.join("games")))
}

/// Where earlier versions put saved games (`games/` beside the autosave), when that is
/// not the games folder now: still offered when browsing, so no saved game goes missing.
pub fn former_games_folder() -> Option<PathBuf> {
    let former = autosave_folder()?.join("games");
    (Some(&former) != games_folder().as_ref()).then_some(former)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    /// The only test of the library that reads or changes these variables (the test
    /// threads share the environment). Unix paths and `HOME`: it runs on Unix, where
    /// each platform's rules can be followed from the variables alone.
    #[cfg(unix)]
    #[test]
    fn each_platform_has_its_folders_and_the_overrides_win() {
        let names = [
            AUTOSAVE_VARIABLE,
            GAMES_VARIABLE,
            "HOME",
            "XDG_CONFIG_HOME",
            "XDG_STATE_HOME",
            "XDG_DATA_HOME",
            "APPDATA",
            "LOCALAPPDATA",
            "USERPROFILE",
        ];
        let saved: Vec<_> = names
            .iter()
            .map(|name| (*name, std::env::var_os(name)))
            .collect();
        for name in names {
            std::env::remove_var(name);
        }
        let home = Path::new("/home/someone");
        std::env::set_var("HOME", home);
        std::env::set_var("USERPROFILE", home);

        // XDG without its variables: the spec's defaults under the home folder.
        let xdg = Platform::Xdg.folders().unwrap();
        assert_eq!(xdg.config, home.join(".config/qipan"));
        assert_eq!(xdg.state, home.join(".local/state/qipan"));
        assert_eq!(xdg.data, home.join(".local/share/qipan"));
        // XDG with them.
        std::env::set_var("XDG_CONFIG_HOME", "/config");
        std::env::set_var("XDG_STATE_HOME", "/state");
        std::env::set_var("XDG_DATA_HOME", "/data");
        let xdg = Platform::Xdg.folders().unwrap();
        assert_eq!(xdg.config, Path::new("/config/qipan"));
        assert_eq!(xdg.state, Path::new("/state/qipan"));
        assert_eq!(xdg.data, Path::new("/data/qipan"));

        // macOS: one folder in Application Support, whatever XDG says.
        let apple = Platform::Apple.folders().unwrap();
        let support = home.join("Library/Application Support/qipan");
        assert_eq!(apple.config, support);
        assert_eq!(apple.state, support);
        assert_eq!(apple.data, support);

        // Windows: without the variables, the folders under the profile…
        let windows = Platform::Windows.folders().unwrap();
        assert_eq!(windows.config, home.join("AppData/Roaming/qipan"));
        assert_eq!(windows.state, home.join("AppData/Local/qipan"));
        assert_eq!(windows.data, home.join("AppData/Roaming/qipan"));
        // …and with them, where they point.
        std::env::set_var("APPDATA", "/roaming");
        std::env::set_var("LOCALAPPDATA", "/local");
        let windows = Platform::Windows.folders().unwrap();
        assert_eq!(windows.config, Path::new("/roaming/qipan"));
        assert_eq!(windows.state, Path::new("/local/qipan"));
        assert_eq!(windows.data, Path::new("/roaming/qipan"));

        // This platform's files, and qipan's own overrides over them.
        let native = Platform::native().folders().unwrap();
        assert_eq!(config_folder(), Some(native.config.clone()));
        assert_eq!(autosave_path(), Some(native.state.join("autosave.txt")));
        assert_eq!(history_folder(), Some(native.state.join("history")));
        assert_eq!(games_folder(), Some(native.data.join("games")));
        if Platform::native() == Platform::Xdg {
            assert_eq!(games_folder(), Some(PathBuf::from("/data/qipan/games")));
            assert_eq!(
                former_games_folder(),
                Some(PathBuf::from("/state/qipan/games"))
            );
        }
        std::env::set_var(AUTOSAVE_VARIABLE, "/somewhere/game.txt");
        std::env::set_var(GAMES_VARIABLE, "/mine");
        assert_eq!(autosave_path(), Some(PathBuf::from("/somewhere/game.txt")));
        assert_eq!(history_folder(), Some(PathBuf::from("/somewhere/history")));
        assert_eq!(games_folder(), Some(PathBuf::from("/mine")));
        std::env::set_var(AUTOSAVE_VARIABLE, "game.txt");
        assert_eq!(history_folder(), Some(PathBuf::from("./history")));
        // An empty variable is no override.
        std::env::set_var(GAMES_VARIABLE, "");
        assert_eq!(games_folder(), Some(native.data.join("games")));

        for (name, value) in saved {
            match value {
                Some(value) => std::env::set_var(name, value),
                None => std::env::remove_var(name),
            }
        }
    }
}
