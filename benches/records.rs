//! `cargo bench --bench records`: how long finding the games of a many-game file takes
//! (issue 18 item 13: the KIF splitter must stay linear). Prints the time to split a KIF,
//! PGN and CSA file of 1k to 100k games and to read its first game.

use qipan::record::{self, games, Format};
use std::time::Instant;

fn kif(count: usize) -> String {
    (0..count)
        .map(|n| format!("# game {n}\n先手：A{n}\n手数----指手--\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n"))
        .collect()
}

fn pgn(count: usize) -> String {
    (0..count)
        .map(|n| format!("[Event \"{n}\"]\n[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7 *\n\n"))
        .collect()
}

fn csa(count: usize) -> String {
    (0..count)
        .map(|_| "V2.2\nPI\n+\n+7776FU\n-3334FU\n/\n".to_string())
        .collect()
}

fn main() {
    type Maker = fn(usize) -> String;
    let files: [(&str, Format, Maker); 3] = [
        ("KIF", Format::Kif, kif),
        ("PGN", Format::Pgn, pgn),
        ("CSA", Format::Csa, csa),
    ];
    for (name, format, make) in files {
        for count in [1_000, 2_000, 4_000, 8_000, 100_000] {
            let text = make(count);
            let started = Instant::now();
            let parts = match format {
                Format::Kif => games::split_kif(&text).len(),
                Format::Pgn => games::split_pgn(&text).len(),
                _ => games::split_csa(&text).len(),
            };
            let split = started.elapsed();
            let started = Instant::now();
            let first = record::read_nth_bytes(text.as_bytes(), "bench", format, 1);
            let first_time = started.elapsed();
            assert_eq!(parts, count);
            assert_eq!(first.count, count);
            println!(
                "{name} {count:>7} games: split {:>8.1} ms, first game read {:>8.1} ms",
                split.as_secs_f64() * 1000.0,
                first_time.as_secs_f64() * 1000.0
            );
        }
    }
}
