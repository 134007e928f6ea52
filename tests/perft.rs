//! Perft against Fairy-Stockfish (and cshogi for shogi): every record in
//! `tests/data/*.perft` is checked. Counts above a node limit are skipped in
//! the ordinary run and checked by `cargo test --release -- --ignored`.

use qipan::rules::any::Variant;
use qipan::rules::Position;
use std::path::Path;

/// The largest count checked in the ordinary `cargo test` run.
const NODE_LIMIT: u64 = 400_000;

struct Record {
    id: String,
    fen: String,
    counts: Vec<(u32, u64)>,
    line: usize,
}

fn read_records(path: &Path) -> Vec<Record> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut records = Vec::new();
    let mut current: Option<Record> = None;
    for (index, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(' ').unwrap_or((line, ""));
        match key {
            "id" => {
                if let Some(record) = current.take() {
                    records.push(record);
                }
                current = Some(Record {
                    id: value.to_string(),
                    fen: String::new(),
                    counts: Vec::new(),
                    line: index + 1,
                });
            }
            "fen" | "epd" => current.as_mut().expect("fen before id").fen = value.to_string(),
            "perft" => {
                let (depth, count) = value.split_once(' ').expect("perft DEPTH COUNT");
                current
                    .as_mut()
                    .expect("perft before id")
                    .counts
                    .push((depth.parse().unwrap(), count.trim().parse().unwrap()));
            }
            other => panic!("{}:{}: unknown key '{other}'", path.display(), index + 1),
        }
    }
    records.extend(current);
    records
}

fn check_file(name: &str, limit: u64) -> (usize, usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(format!("{name}.perft"));
    let variant = Variant::from_name(name).unwrap_or_else(|| panic!("no variant for {name}"));
    let mut checked = 0;
    let mut skipped = 0;
    let mut failures = Vec::new();
    for record in read_records(&path) {
        let position = match variant.position_from_fen(&record.fen) {
            Ok(position) => position,
            Err(error) => {
                failures.push(format!(
                    "{} (line {}): bad fen: {error}",
                    record.id, record.line
                ));
                continue;
            }
        };
        for &(depth, expected) in &record.counts {
            if expected > limit {
                skipped += 1;
                continue;
            }
            let actual = position.perft(depth);
            checked += 1;
            if actual != expected {
                failures.push(format!(
                    "{} (line {}): perft {depth} = {actual}, expected {expected}; fen {}",
                    record.id, record.line, record.fen
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} perft failures in {name}:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(checked > 0, "no perft record checked in {name}");
    (checked, skipped)
}

macro_rules! perft_tests {
    ($($test:ident, $deep:ident => $file:expr;)*) => {
        $(
            #[test]
            fn $test() {
                let (checked, skipped) = check_file($file, NODE_LIMIT);
                eprintln!("{}: {checked} counts checked, {skipped} left for --ignored", $file);
            }

            #[test]
            #[ignore]
            fn $deep() {
                check_file($file, u64::MAX);
            }
        )*
    };
}

perft_tests! {
    xiangqi_perft, xiangqi_perft_deep => "xiangqi";
    janggi_perft, janggi_perft_deep => "janggi";
    janggi_traditional_perft, janggi_traditional_perft_deep => "janggitraditional";
    janggi_modern_perft, janggi_modern_perft_deep => "janggimodern";
    janggi_casual_perft, janggi_casual_perft_deep => "janggicasual";
    shogi_perft, shogi_perft_deep => "shogi";
}
