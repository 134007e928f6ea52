//! `cargo bench`: perft speed per game, next to Fairy-Stockfish when installed
//! (the same measurement as `qipan bench`, at full depth).

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let stdout = std::io::stdout();
    match qipan::bench::run(quick, true, &mut stdout.lock()) {
        Ok(true) => {}
        Ok(false) => {
            eprintln!("perft counts differ from Fairy-Stockfish");
            std::process::exit(1);
        }
        Err(error) => {
            eprintln!("bench failed: {error}");
            std::process::exit(1);
        }
    }
}
