//! Other programs read what qipan writes (issue 15): cshogi reads qipan's `.kif` and
//! `.ki2` (Shift_JIS), `.kifu` and `.csa` with the same start, moves, players, times and
//! start time; pyffish accepts every move of qipan's xiangqi and janggi PGN as the move
//! qipan played. The checks run `tools/check_other_programs.py` where python3 with
//! cshogi and pyffish is installed (`pip install cshogi pyffish`); elsewhere the test
//! prints why it was skipped and passes.

mod common;
mod scratch;

use qipan::record::{self, Format, GameRecord};
use qipan::rules::any::{AnyPosition, Variant};
use qipan::rules::game::Game;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::notation::{format_move, Notation};
use qipan::rules::Position;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

const SHOGI: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/records/shogi");
const CHECKER: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tools/check_other_programs.py");

fn moves_in(game: &Game, notation: Notation) -> Vec<String> {
    game.moves()
        .iter()
        .enumerate()
        .map(|(index, &mv)| format_move(&game.positions()[index], mv, notation))
        .collect()
}

fn write_file(folder: &Path, name: &str, record: &GameRecord) {
    let bytes = record::write_for_file(record, &folder.join(name))
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    std::fs::write(folder.join(name), bytes).unwrap();
}

/// Writes every file and the manifest the checker reads.
fn write_files(folder: &Path) -> usize {
    let mut manifest = String::new();
    let mut count = 0;
    for source in ["qipan_even", "qipan_two_piece", "qipan_timed"] {
        let bytes = std::fs::read(format!("{SHOGI}/{source}.csa")).unwrap();
        let mut record = record::read_bytes(&bytes, "x.csa", Format::Csa).unwrap();
        record.headers.retain(|(key, _)| !key.contains("TIME"));
        record
            .headers
            .push(("開始日時".to_string(), "2026/12/01 09:30:05".to_string()));
        let AnyPosition::Shogi(start) = record.game.start() else {
            unreachable!()
        };
        let plies = record.game.moves().len();
        let times = if record.move_times.len() >= plies && plies > 0 {
            record.move_times[..plies]
                .iter()
                .map(|time| time.map_or("0".to_string(), |t| t.as_secs().to_string()))
                .collect::<Vec<_>>()
                .join(",")
        } else {
            "-".to_string()
        };
        let names = [
            record.header("N+").unwrap_or_default().to_string(),
            record.header("N-").unwrap_or_default().to_string(),
        ];
        for extension in ["kif", "kifu", "ki2", "csa"] {
            let name = format!("{source}.{extension}");
            write_file(folder, &name, &record);
            let times = if extension == "ki2" { "-" } else { &times };
            writeln!(
                manifest,
                "shogi|{name}|{}|{}|{}|{}|{times}|2026/12/01 09:30:05",
                start.sfen(),
                moves_in(&record.game, Notation::Usi).join(" "),
                names[0],
                names[1],
            )
            .unwrap();
            count += 1;
        }
    }
    for (index, (variant, variant_name)) in [
        (Variant::Xiangqi, "xiangqi"),
        (Variant::Janggi(JanggiRules::KJA), "janggi"),
    ]
    .into_iter()
    .enumerate()
    {
        for seed in 1..=3u64 {
            let mut game = Game::new(variant.start());
            common::play_random(&mut game, 120, seed * 7 + index as u64);
            let record = GameRecord::new(game);
            let name = format!("{variant_name}_{seed}.pgn");
            write_file(folder, &name, &record);
            writeln!(
                manifest,
                "pgn|{name}|{variant_name}|{}|{}",
                record.game.start().fen(),
                moves_in(&record.game, Notation::Engine).join(" "),
            )
            .unwrap();
            count += 1;
        }
    }
    std::fs::write(folder.join("manifest.txt"), manifest).unwrap();
    count
}

#[test]
fn cshogi_and_pyffish_read_what_qipan_writes() {
    let scratch_folder = scratch::folder("qipan-other-programs");
    let folder = scratch_folder.path();
    let count = write_files(folder);
    let run = match Command::new("python3").arg(CHECKER).arg(folder).output() {
        Ok(run) => run,
        Err(error) => {
            println!("skipped: python3 cannot be run ({error})");
            return;
        }
    };
    let stdout = String::from_utf8_lossy(&run.stdout);
    let stderr = String::from_utf8_lossy(&run.stderr);
    if run.status.code() == Some(2) {
        println!(
            "skipped: {}",
            stdout.lines().next().unwrap_or("python packages missing")
        );
        return;
    }
    println!("{stdout}");
    assert!(run.status.success(), "{stdout}\n{stderr}");
    assert_eq!(
        stdout.lines().filter(|l| l.ends_with(": same")).count(),
        count,
        "{stdout}"
    );
}
