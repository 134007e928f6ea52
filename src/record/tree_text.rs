//! The game tree as one line of text, for the autosave: moves in the engine's
//! coordinates, a variation in `( … )` after the move it replaces (nested as deep as
//! needed), and after a move its time `@<ms>`, marks `$<n>` and comments `{…}` (spaces,
//! backslashes and control characters escaped so the line stays one line).
//!
//! ```text
//! h3e3 @3000 h10g8 $5 {a\sfine\sreply} ( b10c8 b1c3 ) b1c3
//! ```
//!
//! Annotations before the first move belong to the start position. Reading replays
//! every move through the rules engine, so a damaged line is an error, never a panic,
//! and it uses no recursion however deep the nesting.

use crate::rules::any::AnyPosition;
use crate::rules::Position;
use crate::tree::{Annotation, GameTree, NodeId};
use std::time::Duration;

/// The most words the tree line may hold (a damaged or hostile file is refused, not
/// read without end).
const MOST_WORDS: usize = 200_000;

/// What the writer does next (an explicit stack instead of recursion).
enum Task {
    /// Write the continuation after this node, from this position.
    Continue(NodeId, AnyPosition),
    /// Open a variation: `(`, its first move (from this position), its continuation, `)`.
    Variation(NodeId, AnyPosition),
    /// Close a variation.
    Close,
}

/// The tree as text (see the module documentation).
pub fn write(tree: &GameTree) -> String {
    let mut words: Vec<String> = Vec::new();
    annotation_words(&tree.node(NodeId::ROOT).annotation, &mut words);
    let mut stack = vec![Task::Continue(NodeId::ROOT, tree.start().clone())];
    while let Some(task) = stack.pop() {
        match task {
            Task::Close => words.push(")".to_string()),
            Task::Variation(id, mut position) => {
                words.push("(".to_string());
                move_words(tree, id, &mut position, &mut words);
                stack.push(Task::Close);
                stack.push(Task::Continue(id, position));
            }
            Task::Continue(at, before) => {
                let children = tree.children(at);
                let Some(&main) = children.first() else {
                    continue;
                };
                let mut position = before.clone();
                move_words(tree, main, &mut position, &mut words);
                // Variations come right after the main move, then the main line goes on.
                stack.push(Task::Continue(main, position));
                for &alternative in children[1..].iter().rev() {
                    stack.push(Task::Variation(alternative, before.clone()));
                }
            }
        }
    }
    words.join(" ")
}

fn move_words(tree: &GameTree, id: NodeId, position: &mut AnyPosition, words: &mut Vec<String>) {
    let Some(mv) = tree.move_of(id) else { return };
    words.push(position.move_to_uci(mv));
    position.play_unchecked(mv);
    annotation_words(&tree.node(id).annotation, words);
}

/// Reads a tree line from `start`; the error says which word is wrong and why.
pub fn read(text: &str, start: &AnyPosition) -> Result<GameTree, String> {
    match read_partly(text, start) {
        (tree, None) => Ok(tree),
        (_, Some(error)) => Err(error),
    }
}

/// Reads a tree line from `start` as far as it is sound: the tree up to the first bad
/// word (every node before it, with its annotations), and what was wrong, if anything.
/// A damaged autosave keeps what came before the damage.
pub fn read_partly(text: &str, start: &AnyPosition) -> (GameTree, Option<String>) {
    let mut tree = GameTree::new(start.clone());
    let problem = read_into(&mut tree, text, start).err();
    (tree, problem)
}

/// Reads the words of a tree line into `tree` until the first bad one.
fn read_into(tree: &mut GameTree, text: &str, start: &AnyPosition) -> Result<(), String> {
    // Where the next move attaches, the position there, and the last move read at this
    // level (its parent and the position before it), which a `(` replaces.
    let mut at = NodeId::ROOT;
    let mut position = start.clone();
    let mut last: Option<(NodeId, AnyPosition)> = None;
    type Frame = (NodeId, AnyPosition, Option<(NodeId, AnyPosition)>);
    let mut stack: Vec<Frame> = Vec::new();
    for (index, word) in text.split_whitespace().enumerate() {
        let number = index + 1;
        if number > MOST_WORDS {
            return Err(format!("more than {MOST_WORDS} words"));
        }
        let shown: String = word.chars().take(24).collect();
        match word {
            "(" => {
                let Some((parent, before)) = last.clone() else {
                    return Err(format!("word {number}: '(' with no move before it"));
                };
                stack.push((at, position, last));
                at = parent;
                position = before;
                last = None;
            }
            ")" => {
                let Some(frame) = stack.pop() else {
                    return Err(format!("word {number}: ')' closes no variation"));
                };
                (at, position, last) = frame;
            }
            _ if word.starts_with('@') => {
                let millis: u64 = word[1..]
                    .parse()
                    .map_err(|_| format!("word {number}: bad time '{shown}'"))?;
                tree.annotation_mut(at).time = Some(Duration::from_millis(millis));
            }
            _ if word.starts_with('$') => {
                let nag: u8 = word[1..]
                    .parse()
                    .map_err(|_| format!("word {number}: bad mark '{shown}'"))?;
                tree.annotation_mut(at).nags.push(nag);
            }
            _ if word.starts_with('{') && word.ends_with('}') && word.len() >= 2 => {
                let comment = unescape(&word[1..word.len() - 1])
                    .map_err(|reason| format!("word {number}: {reason}"))?;
                tree.annotation_mut(at).comments.push(comment);
            }
            _ => {
                let mv = position
                    .parse_uci(word)
                    .ok_or_else(|| format!("word {number}: '{shown}' is not a move here"))?;
                position
                    .check_move(mv)
                    .map_err(|reason| format!("word {number}: '{shown}' is illegal: {reason}"))?;
                let (node, _) = tree.add_move(at, mv);
                last = Some((at, position.clone()));
                position.play_unchecked(mv);
                at = node;
            }
        }
    }
    if !stack.is_empty() {
        return Err(format!("{} variation(s) not closed with ')'", stack.len()));
    }
    Ok(())
}

fn annotation_words(annotation: &Annotation, words: &mut Vec<String>) {
    if let Some(time) = annotation.time {
        words.push(format!("@{}", time.as_millis()));
    }
    for nag in &annotation.nags {
        words.push(format!("${nag}"));
    }
    for comment in &annotation.comments {
        words.push(format!("{{{}}}", escape(comment)));
    }
}

/// Escapes a comment into one word.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            ' ' => out.push_str("\\s"),
            '\n' => out.push_str("\\n"),
            '}' => out.push_str("\\r"),
            c if c.is_control() => out.push_str(&format!("\\u{:x};", c as u32)),
            c => out.push(c),
        }
    }
    out
}

/// Reverses [`escape`].
fn unescape(word: &str) -> Result<String, String> {
    let mut out = String::with_capacity(word.len());
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('s') => out.push(' '),
            Some('n') => out.push('\n'),
            Some('r') => out.push('}'),
            Some('u') => {
                let hex: String = chars.by_ref().take_while(|&c| c != ';').collect();
                let code = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| format!("bad escape '\\u{hex}' in a comment"))?;
                out.push(code);
            }
            other => {
                return Err(format!(
                    "bad escape '\\{}' in a comment",
                    other.unwrap_or(' ')
                ))
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::janggi::JanggiRules;
    use crate::tree::tests::generated_tree;
    use proptest::prelude::*;

    #[test]
    fn nested_variations_and_awkward_comments_round_trip() {
        let tree = generated_tree(
            Variant::Xiangqi,
            &[
                (0, 1),
                (1, 2),
                (0, 4),
                (2, 5),
                (3, 7),
                (1, 9),
                (5, 3),
                (4, 11),
            ],
        );
        let mut tree = tree;
        let nodes = tree.preorder();
        assert!(
            tree.children(NodeId::ROOT).len() > 1,
            "a variation at the start"
        );
        let awkward = "a } b {c} \\ d\nline two\t\u{1b}[31m 한국어 ";
        tree.annotation_mut(NodeId::ROOT)
            .comments
            .push("before".into());
        tree.annotation_mut(nodes[2]).comments.push(awkward.into());
        tree.annotation_mut(nodes[2]).nags.extend([2, 146]);
        let text = write(&tree);
        assert!(!text.contains('\n') && text.contains(" ( "), "{text}");
        let read = read(&text, tree.start()).unwrap();
        assert_eq!(read, tree);
        assert_eq!(
            read.node(read.preorder()[2]).annotation.comments,
            vec![awkward]
        );
    }

    #[test]
    fn damaged_lines_are_errors() {
        let start = Variant::Xiangqi.start();
        for (text, expected) in [
            ("h3e3 (", "not closed"),
            ("h3e3 )", "closes no variation"),
            ("( h3e3", "with no move"),
            ("h3e3 h3e3", "is illegal"),
            ("h3e3 zz", "is not a move here"),
            ("h3e3 @x", "bad time"),
            ("h3e3 $999", "bad mark"),
            ("h3e3 {a\\q}", "bad escape"),
            ("h3e3 {a\\uzz;}", "bad escape"),
        ] {
            let error = read(text, &start).unwrap_err();
            assert!(error.contains(expected), "{text}: {error}");
        }
        assert!(read("", &start).unwrap().is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn generated_trees_round_trip(
            kind in 0usize..3,
            choices in prop::collection::vec((0usize..64, 0usize..200), 0..40),
        ) {
            let variant = [Variant::Xiangqi, Variant::Shogi, Variant::Janggi(JanggiRules::KJA)][kind];
            let tree = generated_tree(variant, &choices);
            let read = read(&write(&tree), tree.start());
            prop_assert_eq!(read, Ok(tree));
        }
    }
}
