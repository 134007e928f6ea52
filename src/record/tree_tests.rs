//! Records keep the game tree: variations, comments, marks and times survive reading
//! and writing, for every format that can hold them (property tests over generated
//! trees), and hand-written files with nested variations read as the tree they say.

use super::{read_bytes, write, Format, GameRecord};
use crate::rules::any::{AnyPosition, Variant};
use crate::rules::janggi::JanggiRules;
use crate::rules::Move;
use crate::tree::tests::generated_tree;
use crate::tree::{GameTree, NodeId};
use proptest::prelude::*;

/// A move in the engine's coordinates (USI for shogi).
fn parse_move(position: &AnyPosition, text: &str) -> Option<Move> {
    position.parse_uci(text).or_else(|| match position {
        AnyPosition::Shogi(shogi) => shogi.parse_usi(text),
        _ => None,
    })
}

/// Reads `text` as `format`; panics with the error.
fn read(text: &str, format: Format) -> GameRecord {
    read_bytes(text.as_bytes(), "test", format).unwrap_or_else(|error| panic!("{error}\n{text}"))
}

/// The record of a tree, written and read back.
fn round_trip(tree: &GameTree, format: Format) -> (String, GameRecord) {
    let record = GameRecord::from_tree(tree.clone()).expect("a legal tree");
    let text = write(&record, format).expect("a format of the game");
    let back = read(&text, format);
    (text, back)
}

/// The moves of a line given in engine coordinates from `position`.
fn moves(position: &AnyPosition, texts: &[&str]) -> Vec<Move> {
    let mut position = position.clone();
    texts
        .iter()
        .map(|text| {
            let mv = parse_move(&position, text).expect(text);
            crate::rules::Position::play_unchecked(&mut position, mv);
            mv
        })
        .collect()
}

/// The child of `at` reached by the move written `text` (engine coordinates).
fn child(tree: &GameTree, at: NodeId, text: &str) -> NodeId {
    let position = tree
        .game_along(&tree.path_to(at))
        .expect("a legal line")
        .position()
        .clone();
    let mv = parse_move(&position, text).expect(text);
    tree.child_with(at, mv)
        .unwrap_or_else(|| panic!("{text} follows the node"))
}

#[test]
fn a_hand_written_xiangqi_pgn_with_nested_variations() {
    let text = "[Game \"Chinese Chess\"]\n[Format \"ICCS\"]\n\n\
        1. h2e2 {central cannon} h9g7 (1... b9c7 2. b0c2 (2. h0g2 $5 {also}) c6c5)\n\
        2. h0g2 !? i9h9 ; the end\n*\n";
    let record = read(text, Format::Pgn);
    let tree = &record.tree;
    let start = tree.start().clone();
    // The checks name moves in the engine's coordinates (ranks 1–10, ICCS's 0–9 plus one).
    assert_eq!(
        record.game.moves(),
        &moves(&start, &["h3e3", "h10g8", "h1g3", "i10h10"])[..]
    );
    let cannon = child(tree, NodeId::ROOT, "h3e3");
    assert_eq!(
        tree.node(cannon).annotation.comments,
        vec!["central cannon"]
    );
    assert_eq!(tree.children(cannon).len(), 2);
    let side = child(tree, cannon, "b10c8");
    assert_eq!(tree.children(cannon)[1], side);
    let horse = child(tree, side, "b1c3");
    let other = child(tree, side, "h1g3");
    assert_eq!(tree.children(side), &[horse, other]);
    assert_eq!(tree.node(other).annotation.nags, vec![5]);
    assert_eq!(tree.node(other).annotation.comments, vec!["also"]);
    child(tree, horse, "c7c6");
    let main_horse = child(tree, child(tree, cannon, "h10g8"), "h1g3");
    assert_eq!(tree.node(main_horse).annotation.nags, vec![5]);
    assert_eq!(tree.len(), 8);
    // Written and read again: the same tree.
    let written = write(&record, Format::Pgn).unwrap();
    assert!(written.contains("( 1..."), "{written}");
    assert_eq!(&read(&written, Format::Pgn).tree, tree, "{written}");
}

#[test]
fn a_hand_written_janggi_pgn_with_nested_variations() {
    let text = "[Game \"Janggi\"]\n\n\
        1. 79졸78 {flank} 41병42 (1... 49병48 2. 71졸72 (2. 73졸74 $2) 43병44 ) 2. 77졸76 $1 *\n";
    let record = read(text, Format::Pgn);
    let tree = &record.tree;
    assert_eq!(record.game.moves().len(), 3);
    let first = tree.children(NodeId::ROOT)[0];
    assert_eq!(tree.node(first).annotation.comments, vec!["flank"]);
    let replies = tree.children(first);
    assert_eq!(replies.len(), 2);
    let variation = replies[1];
    let answers = tree.children(variation);
    assert_eq!(answers.len(), 2);
    assert_eq!(tree.node(answers[1]).annotation.nags, vec![2]);
    assert_eq!(tree.children(answers[0]).len(), 1);
    let main_second = tree.children(replies[0])[0];
    assert_eq!(tree.node(main_second).annotation.nags, vec![1]);
    assert_eq!(tree.len(), 7);
    let written = write(&record, Format::Pgn).unwrap();
    assert_eq!(&read(&written, Format::Pgn).tree, tree, "{written}");
}

#[test]
fn a_bad_move_inside_a_variation_is_an_error_with_its_line() {
    let text = "[Game \"Chinese Chess\"]\n\n1. h2e2 h9g7\n(1... zz9) *\n";
    let error = read_bytes(text.as_bytes(), "bad.pgn", Format::Pgn).unwrap_err();
    assert_eq!(error.line, Some(4));
    assert!(error.reason.contains("variation"), "{error}");
    assert_eq!(error.partial.unwrap().game.moves().len(), 2);
    // A variation before any move replaces nothing.
    let text = "[Game \"Chinese Chess\"]\n\n( 1. h2e2 ) 1. h2e2 *\n";
    assert!(read_bytes(text.as_bytes(), "bad.pgn", Format::Pgn).is_err());
}

fn choices() -> impl Strategy<Value = Vec<(usize, usize)>> {
    prop::collection::vec((0usize..64, 0usize..200), 0..30)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn pgn_keeps_generated_xiangqi_trees(choices in choices()) {
        let tree = generated_tree(Variant::Xiangqi, &choices);
        let (text, back) = round_trip(&tree, Format::Pgn);
        prop_assert_eq!(&back.tree, &tree, "{}", text);
    }

    #[test]
    fn pgn_keeps_generated_janggi_trees(choices in choices()) {
        let tree = generated_tree(Variant::Janggi(JanggiRules::KJA), &choices);
        let (text, back) = round_trip(&tree, Format::Pgn);
        prop_assert_eq!(&back.tree, &tree, "{}", text);
    }
}
