//! Scratch folders for the integration tests that write files.

/// A fresh folder under the temp folder, named from `prefix`, removed with what is in it
/// when the returned guard drops (so no test run leaves folders behind).
pub fn folder(prefix: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("{prefix}-"))
        .tempdir()
        .unwrap()
}
