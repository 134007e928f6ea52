//! Gungjanggi in records: an accepted bikjang is written `빅장받음` (one PGN token, never
//! 한수쉼) in both manuals, and reads back as the same pass with the same result.

use qipan::record::{pgn, GameRecord};
use qipan::rules::any::Variant;
use qipan::rules::game::Game;
use qipan::rules::janggi::JanggiRules;
use qipan::rules::notation::{Notation, ACCEPT_BIKJANG};

//   10 . . . . k . . . .
//    4 . . . . R . . . .   Cho's chariot leaves the e-file (bikjang), Han accepts.
//    2 . . . . K . . . .
#[test]
fn an_accepted_bikjang_is_written_by_name_and_read_back() {
    for rules in [JanggiRules::GUNGJANGGI, JanggiRules::GUNGJANGGI_DAN] {
        let start = Variant::Janggi(rules)
            .position_from_fen("4k4/9/9/9/9/9/4N4/9/4K4/9 w - - 0 1")
            .unwrap();
        let mut game = Game::new(start);
        for text in ["e4c5", "e10e10"] {
            let mv = game.position().parse_uci(text).unwrap();
            game.play(mv).unwrap();
        }
        let outcome = game.outcome().expect("accepting ends the game on material");
        for notation in [
            Notation::Korean { hangul: true },
            Notation::Korean { hangul: false },
        ] {
            let text = pgn::write(&GameRecord::new(game.clone()), notation);
            assert!(text.contains(ACCEPT_BIKJANG), "{text}");
            assert!(!text.contains("한수쉼"), "{text}");
            let read =
                pgn::read(text.as_bytes(), "bikjang.pgn").unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(read.game.moves(), game.moves(), "{text}");
            assert_eq!(read.game.outcome(), Some(outcome), "{text}");
        }
    }
}
