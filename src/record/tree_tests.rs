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

/// A KIF with variations: the main line, a variation at move 2 with one of its own at
/// move 3, and a second variation at move 2 (blocks deepest first, each branching from
/// the line before it, as Kakinoki's program writes them).
const KIF_WITH_VARIATIONS: &str = "#KIF version=2.0 encoding=UTF-8
手合割：平手
先手：A
後手：B
手数----指手---------消費時間--
*対局前
   1 ７六歩(77)   ( 0:03/00:00:03)
   2 ３四歩(33)   ( 0:05/00:00:05)+
*角道を開ける
   3 ２六歩(27)   ( 0:02/00:00:05)
   4 ８四歩(83)   ( 0:01/00:00:06)
   5 ２五歩(26)   ( 0:04/00:00:09)
まで5手で中断

変化：2手
   2 ８四歩(83)   ( 0:07/00:00:07)+
   3 ２六歩(27)   ( 0:01/00:00:04)
*居飛車
   4 ８五歩(84)   ( 0:02/00:00:09)

変化：3手
   3 ７八金(69)   ( 0:09/00:00:12)
   4 ８五歩(84)   ( 0:01/00:00:08)

変化：2手
   2 ４四歩(43)   ( 0:30/00:00:30)
";

#[test]
fn a_kif_with_variation_blocks_reads_into_the_tree_and_back() {
    let record = read(KIF_WITH_VARIATIONS, Format::Kif);
    let tree = &record.tree;
    let start = tree.start().clone();
    assert_eq!(
        record.game.moves(),
        &moves(&start, &["7g7f", "3c3d", "2g2f", "8c8d", "2f2e"])[..]
    );
    assert_eq!(tree.len(), 11);
    assert_eq!(tree.node(NodeId::ROOT).annotation.comments, vec!["対局前"]);
    let first = child(tree, NodeId::ROOT, "7g7f");
    let replies = tree.children(first).to_vec();
    assert_eq!(
        tree.moves_of(&replies),
        moves(
            &tree.game_along(&[first]).unwrap().position().clone(),
            &["3c3d"]
        )
        .into_iter()
        .chain(moves(
            &tree.game_along(&[first]).unwrap().position().clone(),
            &["8c8d"]
        ))
        .chain(moves(
            &tree.game_along(&[first]).unwrap().position().clone(),
            &["4c4d"]
        ))
        .collect::<Vec<_>>()
    );
    assert_eq!(
        tree.node(replies[0]).annotation.comments,
        vec!["角道を開ける"]
    );
    let rook_pawn = replies[1];
    assert_eq!(
        tree.node(rook_pawn).annotation.time,
        Some(std::time::Duration::from_secs(7))
    );
    let after = tree.children(rook_pawn).to_vec();
    assert_eq!(after.len(), 2);
    let gold = child(tree, rook_pawn, "6i7h");
    assert_eq!(after[1], gold);
    child(tree, gold, "8d8e");
    let pawn = child(tree, after[0], "8d8e");
    assert!(tree.children(pawn).is_empty());
    assert_eq!(tree.node(after[0]).annotation.comments, vec!["居飛車"]);
    // Written and read again: the same tree, in the same block order.
    let written = write(&record, Format::Kif).unwrap();
    let blocks: Vec<&str> = written.lines().filter(|l| l.starts_with("変化")).collect();
    assert_eq!(
        blocks,
        vec!["変化：2手", "変化：3手", "変化：2手"],
        "{written}"
    );
    assert_eq!(&read(&written, Format::Kif).tree, tree, "{written}");
}

#[test]
fn a_variation_that_branches_past_the_line_before_it_is_an_error() {
    let text = KIF_WITH_VARIATIONS.replace("変化：3手", "変化：9手");
    let error = read_bytes(text.as_bytes(), "bad.kif", Format::Kif).unwrap_err();
    assert!(error.reason.contains("variation"), "{error}");
    assert!(error.line.is_some());
    let text = KIF_WITH_VARIATIONS.replace("   3 ７八金(69)", "   3 ７八飛(69)");
    let error = read_bytes(text.as_bytes(), "bad.kif", Format::Kif).unwrap_err();
    assert!(error.reason.contains("in a variation"), "{error}");
}

/// A tree with no variations: the formats without them keep its comments (and, for
/// CSA, its times).
fn single_line(choices: &[(usize, usize)]) -> GameTree {
    let tree = generated_tree(Variant::Shogi, choices);
    let main = tree.main_line();
    let mut line = GameTree::new(tree.start().clone());
    let mut at = NodeId::ROOT;
    for id in main {
        at = line.add_move(at, tree.move_of(id).unwrap()).0;
        let comments = tree.node(id).annotation.comments.clone();
        line.annotation_mut(at).comments = comments;
    }
    line
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn kif_keeps_generated_shogi_trees(choices in choices()) {
        let tree = generated_tree(Variant::Shogi, &choices);
        // KIF has no marks: the tree without them.
        let mut tree = tree;
        for id in tree.preorder() {
            tree.annotation_mut(id).nags.clear();
        }
        let (text, back) = round_trip(&tree, Format::Kif);
        prop_assert_eq!(&back.tree, &tree, "{}", text);
    }

    #[test]
    fn ki2_and_csa_keep_the_comments_of_a_line(choices in choices()) {
        let tree = single_line(&choices);
        for format in [Format::Ki2, Format::Csa] {
            let (text, back) = round_trip(&tree, format);
            prop_assert_eq!(&back.tree, &tree, "{}", text);
        }
    }
}
