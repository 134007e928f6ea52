//! A game as a tree of moves: the main line and its variations, each move with its
//! comments, marks (NAGs: `$1` = `!` … `$6` = `?!`, and any other `$N`) and the time it
//! took. The app plays and browses it, the record formats read and write it, and
//! analysis writes its scores and marks into it as comments and NAGs.
//!
//! The tree sits below both `app` and `record` and uses only `rules`. Nodes live in an
//! arena ([`NodeId`] indexes it), so a very long game never recurses deeply. A node's
//! children are ordered with the main continuation first. A move is not checked here;
//! [`GameTree::game_along`] replays a line through the rules engine.

use crate::rules::any::AnyPosition;
use crate::rules::game::Game;
use crate::rules::{IllegalMove, Move, Outcome};
use std::time::Duration;

/// A node of a [`GameTree`]: an index into its arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(u32);

impl NodeId {
    /// The root: the start position, before any move.
    pub const ROOT: NodeId = NodeId(0);

    fn index(self) -> usize {
        self.0 as usize
    }
}

/// What is said about a move (or, on the root, about the start position).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Annotation {
    /// Comments after the move, in order (PGN `{…}`, KIF `*…`, CSA `'*…`).
    pub comments: Vec<String>,
    /// Numeric annotation glyphs, in order: 1 `!`, 2 `?`, 3 `!!`, 4 `??`, 5 `!?`, 6 `?!`, others `$N`.
    pub nags: Vec<u8>,
    /// The time the move took, when known.
    pub time: Option<Duration>,
}

impl Annotation {
    /// True when nothing is said.
    pub fn is_empty(&self) -> bool {
        self.comments.is_empty() && self.nags.is_empty() && self.time.is_none()
    }
}

/// The move marks and their NAG numbers, as PGN writes them after a move.
pub const MARKS: [(&str, u8); 6] = [
    ("!!", 3),
    ("??", 4),
    ("!?", 5),
    ("?!", 6),
    ("!", 1),
    ("?", 2),
];

/// The short mark of a NAG (`!`, `?`, `!!`, `??`, `!?`, `?!`), for NAGs 1–6.
pub fn mark_of(nag: u8) -> Option<&'static str> {
    MARKS.iter().find(|(_, n)| *n == nag).map(|(mark, _)| *mark)
}

/// The NAG of a short mark (`!?` → 5); `None` for anything else.
pub fn nag_of_mark(mark: &str) -> Option<u8> {
    MARKS.iter().find(|(m, _)| *m == mark).map(|(_, nag)| *nag)
}

/// One node: the move that reached it (none on the root), its annotation and children.
#[derive(Clone, Debug)]
pub struct Node {
    mv: Option<Move>,
    parent: Option<NodeId>,
    children: Vec<NodeId>,
    /// What is said about the move.
    pub annotation: Annotation,
    /// A result declared off the board when the game stood here (a resignation, a time
    /// loss, a record's stated result): it belongs to the lines through this node.
    result: Option<Outcome>,
}

impl Node {
    /// The move that reached this node; `None` on the root.
    pub fn mv(&self) -> Option<Move> {
        self.mv
    }

    /// The node before; `None` on the root.
    pub fn parent(&self) -> Option<NodeId> {
        self.parent
    }

    /// The moves that follow, main continuation first.
    pub fn children(&self) -> &[NodeId] {
        &self.children
    }
}

/// A deleted variation, kept so the deletion can be undone.
#[derive(Clone, Debug)]
struct Deleted {
    parent: NodeId,
    index: usize,
    node: NodeId,
}

/// How many deletions [`GameTree::undo_delete`] can take back.
const DELETIONS_KEPT: usize = 32;

/// A game as a tree of moves from a start position.
#[derive(Clone, Debug)]
pub struct GameTree {
    start: AnyPosition,
    nodes: Vec<Node>,
    deleted: Vec<Deleted>,
}

impl GameTree {
    /// A tree with no moves.
    pub fn new(start: AnyPosition) -> GameTree {
        GameTree {
            start,
            nodes: vec![Node {
                mv: None,
                parent: None,
                children: Vec::new(),
                annotation: Annotation::default(),
                result: None,
            }],
            deleted: Vec::new(),
        }
    }

    /// A tree holding one line: the moves played in `game`.
    pub fn from_game(game: &Game) -> GameTree {
        let mut tree = GameTree::new(game.start().clone());
        let mut at = NodeId::ROOT;
        for &mv in game.moves() {
            at = tree.add_move(at, mv).0;
        }
        tree
    }

    /// The start position.
    pub fn start(&self) -> &AnyPosition {
        &self.start
    }

    /// A node. Panics on an id from another tree.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.index()]
    }

    /// A node's annotation, to change it.
    pub fn annotation_mut(&mut self, id: NodeId) -> &mut Annotation {
        &mut self.nodes[id.index()].annotation
    }

    /// The result declared at a node (see [`GameTree::set_result`]).
    pub fn result_of(&self, id: NodeId) -> Option<Outcome> {
        self.node(id).result
    }

    /// Keeps a result declared off the board at node `id`, so a line through it shows the
    /// result again when the game comes back to it.
    pub fn set_result(&mut self, id: NodeId, result: Option<Outcome>) {
        self.nodes[id.index()].result = result;
    }

    /// The move that reached a node; `None` on the root.
    pub fn move_of(&self, id: NodeId) -> Option<Move> {
        self.node(id).mv
    }

    /// The moves that can follow a node (its variations), main continuation first.
    pub fn children(&self, id: NodeId) -> &[NodeId] {
        &self.node(id).children
    }

    /// The child of `id` reached by `mv`, if there is one.
    pub fn child_with(&self, id: NodeId, mv: Move) -> Option<NodeId> {
        self.children(id)
            .iter()
            .copied()
            .find(|&child| self.move_of(child) == Some(mv))
    }

    /// Adds `mv` after node `at`, reusing the child that already has it. Returns the
    /// child and whether it is new. A new child goes last (the main continuation stays).
    pub fn add_move(&mut self, at: NodeId, mv: Move) -> (NodeId, bool) {
        if let Some(child) = self.child_with(at, mv) {
            return (child, false);
        }
        let id = NodeId(self.nodes.len() as u32);
        self.nodes.push(Node {
            mv: Some(mv),
            parent: Some(at),
            children: Vec::new(),
            annotation: Annotation::default(),
            result: None,
        });
        self.nodes[at.index()].children.push(id);
        (id, true)
    }

    /// The nodes from the first move down to `id` (empty for the root).
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            path.push(at);
            at = parent;
        }
        path.reverse();
        path
    }

    /// The main continuation after `id`: first children down to a leaf (`id` not included).
    pub fn main_continuation(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(&first) = self.children(at).first() {
            line.push(first);
            at = first;
        }
        line
    }

    /// The whole line through `id`: the path to it, then its main continuation.
    pub fn line_through(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = self.path_to(id);
        line.extend(self.main_continuation(id));
        line
    }

    /// The main line: first children from the root.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.main_continuation(NodeId::ROOT)
    }

    /// The moves of a line of nodes.
    pub fn moves_of(&self, line: &[NodeId]) -> Vec<Move> {
        line.iter().filter_map(|&id| self.move_of(id)).collect()
    }

    /// The node a line of moves leads to from the root, following existing children;
    /// `None` when some move is not in the tree.
    pub fn find(&self, moves: &[Move]) -> Option<NodeId> {
        let mut at = NodeId::ROOT;
        for &mv in moves {
            at = self.child_with(at, mv)?;
        }
        Some(at)
    }

    /// Replays a line through the rules engine: the game after its moves, or the index
    /// of the first move that is not legal with the reason.
    pub fn game_along(&self, line: &[NodeId]) -> Result<Game, (usize, IllegalMove)> {
        let mut game = Game::new(self.start.clone());
        for (index, mv) in self.moves_of(line).into_iter().enumerate() {
            game.play(mv).map_err(|reason| (index, reason))?;
        }
        Ok(game)
    }

    /// Makes `id` the main continuation of its parent (first among its siblings).
    /// Returns false for the root or when it already is.
    pub fn promote(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.node(id).parent else {
            return false;
        };
        let siblings = &mut self.nodes[parent.index()].children;
        match siblings.iter().position(|&child| child == id) {
            Some(index) if index > 0 => {
                siblings.remove(index);
                siblings.insert(0, id);
                true
            }
            _ => false,
        }
    }

    /// Removes the variation starting at `id` (with everything after it); the last
    /// deletions can be taken back with [`GameTree::undo_delete`]. False for the root
    /// or a node already removed.
    pub fn delete(&mut self, id: NodeId) -> bool {
        let Some(parent) = self.node(id).parent else {
            return false;
        };
        let siblings = &mut self.nodes[parent.index()].children;
        let Some(index) = siblings.iter().position(|&child| child == id) else {
            return false;
        };
        siblings.remove(index);
        if self.deleted.len() == DELETIONS_KEPT {
            self.deleted.remove(0);
        }
        self.deleted.push(Deleted {
            parent,
            index,
            node: id,
        });
        true
    }

    /// True when a deletion can be taken back.
    pub fn can_undo_delete(&self) -> bool {
        !self.deleted.is_empty()
    }

    /// Puts the last deleted variation back where it was; returns its first node.
    pub fn undo_delete(&mut self) -> Option<NodeId> {
        let Deleted {
            parent,
            index,
            node,
        } = self.deleted.pop()?;
        let siblings = &mut self.nodes[parent.index()].children;
        siblings.insert(index.min(siblings.len()), node);
        Some(node)
    }

    /// True when `id` is still reachable from the root (not inside a deleted variation).
    pub fn contains(&self, id: NodeId) -> bool {
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            if !self.children(parent).contains(&at) {
                return false;
            }
            at = parent;
        }
        true
    }

    /// The number of moves reachable from the root.
    pub fn len(&self) -> usize {
        self.preorder().len() - 1
    }

    /// True when the tree has no moves.
    pub fn is_empty(&self) -> bool {
        self.children(NodeId::ROOT).is_empty()
    }

    /// Every reachable node, the root first, each node before its children and the
    /// children in order (without recursion).
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut order = Vec::new();
        let mut stack = vec![NodeId::ROOT];
        while let Some(id) = stack.pop() {
            order.push(id);
            stack.extend(self.children(id).iter().rev());
        }
        order
    }

    /// The number of moves from the root to `id`.
    pub fn depth(&self, id: NodeId) -> usize {
        let mut depth = 0;
        let mut at = id;
        while let Some(parent) = self.node(at).parent {
            depth += 1;
            at = parent;
        }
        depth
    }
}

impl PartialEq for GameTree {
    /// Same start, and the same moves with the same annotations in the same order
    /// (node ids and deleted variations do not matter).
    fn eq(&self, other: &GameTree) -> bool {
        if self.start != other.start {
            return false;
        }
        let mut stack = vec![(NodeId::ROOT, NodeId::ROOT)];
        while let Some((mine, theirs)) = stack.pop() {
            let (a, b) = (self.node(mine), other.node(theirs));
            if a.mv != b.mv || a.annotation != b.annotation || a.children.len() != b.children.len()
            {
                return false;
            }
            stack.extend(a.children.iter().copied().zip(b.children.iter().copied()));
        }
        true
    }
}

impl Eq for GameTree {}

#[cfg(test)]
pub mod tests {
    use super::*;
    use crate::rules::any::Variant;
    use crate::rules::Position;
    use proptest::prelude::*;

    fn first_moves(position: &AnyPosition, count: usize) -> Vec<Move> {
        let mut moves = crate::rules::MoveList::new();
        position.legal_moves(&mut moves);
        moves.iter().copied().take(count).collect()
    }

    /// A tree from random legal playouts: `choices` picks, at each step, a node of the
    /// tree so far and one of its legal moves (an existing child is reused).
    pub fn generated_tree(variant: Variant, choices: &[(usize, usize)]) -> GameTree {
        let mut tree = GameTree::new(variant.start());
        for &(node_pick, move_pick) in choices {
            let nodes = tree.preorder();
            let at = nodes[node_pick % nodes.len()];
            let Ok(game) = tree.game_along(&tree.path_to(at)) else {
                continue;
            };
            let moves = game.legal_moves();
            if moves.is_empty() {
                continue;
            }
            let mv = moves.as_slice()[move_pick % moves.len()];
            let (child, _) = tree.add_move(at, mv);
            if move_pick % 3 == 0 {
                let annotation = tree.annotation_mut(child);
                annotation.comments.push(format!("note {move_pick}"));
                annotation.nags.push((move_pick % 6) as u8 + 1);
                annotation.time = Some(Duration::from_millis(move_pick as u64 * 1000));
            }
        }
        tree
    }

    #[test]
    fn adding_a_move_reuses_an_existing_child() {
        let start = Variant::Xiangqi.start();
        let [a, b] = first_moves(&start, 2)[..] else {
            panic!("two moves")
        };
        let mut tree = GameTree::new(start);
        let (first, new) = tree.add_move(NodeId::ROOT, a);
        assert!(new);
        let (again, new) = tree.add_move(NodeId::ROOT, a);
        assert_eq!((again, new), (first, false));
        let (second, new) = tree.add_move(NodeId::ROOT, b);
        assert!(new);
        assert_eq!(tree.children(NodeId::ROOT), &[first, second]);
        assert_eq!(tree.len(), 2);
        assert_eq!(tree.move_of(second), Some(b));
    }

    #[test]
    fn the_line_through_a_node_follows_its_main_continuation() {
        let mut game = Game::from_variant(Variant::Shogi);
        let mut tree = GameTree::new(game.start().clone());
        let mut at = NodeId::ROOT;
        let mut nodes = Vec::new();
        for _ in 0..4 {
            let mv = game.legal_moves().as_slice()[0];
            game.play(mv).unwrap();
            at = tree.add_move(at, mv).0;
            nodes.push(at);
        }
        assert_eq!(tree.main_line(), nodes);
        assert_eq!(tree.line_through(nodes[1]), nodes);
        assert_eq!(tree.path_to(nodes[1]), nodes[..2]);
        assert_eq!(tree.depth(nodes[3]), 4);
        assert_eq!(tree.find(game.moves()), Some(nodes[3]));
        assert_eq!(tree.game_along(&nodes).unwrap().moves(), game.moves());
        assert_eq!(GameTree::from_game(&game), tree);
    }

    #[test]
    fn switching_to_a_variation_gives_its_line() {
        let start = Variant::Xiangqi.start();
        let moves = first_moves(&start, 2);
        let mut tree = GameTree::new(start);
        let (main, _) = tree.add_move(NodeId::ROOT, moves[0]);
        let reply = tree.game_along(&[main]).unwrap().legal_moves().as_slice()[0];
        let (main_reply, _) = tree.add_move(main, reply);
        let (side, _) = tree.add_move(NodeId::ROOT, moves[1]);
        assert_eq!(tree.main_line(), vec![main, main_reply]);
        assert_eq!(tree.line_through(side), vec![side]);
        assert_eq!(tree.children(NodeId::ROOT), &[main, side]);
    }

    #[test]
    fn promoting_a_variation_makes_it_the_main_line() {
        let start = Variant::Janggi(crate::rules::janggi::JanggiRules::KJA).start();
        let moves = first_moves(&start, 3);
        let mut tree = GameTree::new(start);
        let ids: Vec<NodeId> = moves
            .iter()
            .map(|&mv| tree.add_move(NodeId::ROOT, mv).0)
            .collect();
        assert!(tree.promote(ids[2]));
        assert_eq!(tree.children(NodeId::ROOT), &[ids[2], ids[0], ids[1]]);
        assert_eq!(tree.main_line(), vec![ids[2]]);
        assert!(!tree.promote(ids[2]), "already the main line");
        assert!(!tree.promote(NodeId::ROOT));
    }

    #[test]
    fn deleting_a_variation_can_be_undone() {
        let start = Variant::Xiangqi.start();
        let moves = first_moves(&start, 3);
        let mut tree = GameTree::new(start);
        let ids: Vec<NodeId> = moves
            .iter()
            .map(|&mv| tree.add_move(NodeId::ROOT, mv).0)
            .collect();
        let reply = tree.game_along(&[ids[1]]).unwrap().legal_moves().as_slice()[0];
        let (deep, _) = tree.add_move(ids[1], reply);
        let before = tree.clone();
        assert!(!tree.can_undo_delete());
        assert!(tree.delete(ids[1]));
        assert_eq!(tree.children(NodeId::ROOT), &[ids[0], ids[2]]);
        assert!(!tree.contains(deep));
        assert!(!tree.delete(ids[1]), "already deleted");
        assert_eq!(tree.len(), 2);
        assert_ne!(tree, before);
        assert_eq!(tree.undo_delete(), Some(ids[1]));
        assert_eq!(tree, before);
        assert!(tree.contains(deep));
        assert_eq!(tree.undo_delete(), None);
        assert!(!tree.delete(NodeId::ROOT));
    }

    #[test]
    fn variations_at_a_node_are_its_children_main_first() {
        let start = Variant::Shogi.start();
        let moves = first_moves(&start, 4);
        let mut tree = GameTree::new(start);
        for &mv in &moves {
            tree.add_move(NodeId::ROOT, mv);
        }
        let listed: Vec<Move> = tree
            .children(NodeId::ROOT)
            .iter()
            .map(|&id| tree.move_of(id).unwrap())
            .collect();
        assert_eq!(listed, moves);
    }

    #[test]
    fn marks_and_nags_match() {
        for nag in 1..=6 {
            assert_eq!(nag_of_mark(mark_of(nag).unwrap()), Some(nag));
        }
        assert_eq!(mark_of(7), None);
        assert_eq!(nag_of_mark("!?"), Some(5));
        assert_eq!(nag_of_mark("x"), None);
    }

    #[test]
    fn trees_differ_by_annotation_and_order() {
        let start = Variant::Xiangqi.start();
        let moves = first_moves(&start, 2);
        let mut tree = GameTree::new(start);
        let (a, _) = tree.add_move(NodeId::ROOT, moves[0]);
        let (b, _) = tree.add_move(NodeId::ROOT, moves[1]);
        let mut commented = tree.clone();
        commented.annotation_mut(a).comments.push("good".into());
        assert_ne!(commented, tree);
        let mut reordered = tree.clone();
        reordered.promote(b);
        assert_ne!(reordered, tree);
    }

    fn variants() -> impl Strategy<Value = Variant> {
        prop_oneof![
            Just(Variant::Xiangqi),
            Just(Variant::Shogi),
            Just(Variant::Janggi(crate::rules::janggi::JanggiRules::KJA)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]

        #[test]
        fn every_line_of_a_generated_tree_is_legal_and_leads_back(
            variant in variants(),
            choices in prop::collection::vec((0usize..64, 0usize..200), 0..40),
        ) {
            let tree = generated_tree(variant, &choices);
            for id in tree.preorder() {
                let path = tree.path_to(id);
                prop_assert_eq!(path.len(), tree.depth(id));
                let game = tree.game_along(&path);
                prop_assert!(game.is_ok());
                let moves = tree.moves_of(&path);
                prop_assert_eq!(tree.find(&moves), Some(id));
                let line = tree.line_through(id);
                prop_assert_eq!(&line[..path.len()], &path[..]);
                prop_assert!(tree.game_along(&line).is_ok());
                // Children are distinct moves.
                let mut children = tree.moves_of(tree.children(id));
                let count = children.len();
                children.sort_by_key(|m| (m.from, m.to, m.flags));
                children.dedup();
                prop_assert_eq!(children.len(), count);
            }
        }

        #[test]
        fn promote_keeps_the_moves_and_delete_undo_restores(
            variant in variants(),
            choices in prop::collection::vec((0usize..64, 0usize..200), 1..30),
            pick in 0usize..64,
        ) {
            let tree = generated_tree(variant, &choices);
            let nodes = tree.preorder();
            let id = nodes[pick % nodes.len()];
            let mut promoted = tree.clone();
            promoted.promote(id);
            prop_assert_eq!(promoted.len(), tree.len());
            if id != NodeId::ROOT {
                prop_assert_eq!(promoted.main_continuation(promoted.node(id).parent().unwrap())[0], id);
            }
            let mut deleted = tree.clone();
            if deleted.delete(id) {
                let removed = tree.preorder().iter().filter(|&&n| tree.path_to(n).contains(&id)).count();
                prop_assert_eq!(deleted.len(), tree.len() - removed);
                prop_assert!(!deleted.contains(id));
                deleted.undo_delete();
            }
            prop_assert_eq!(&deleted, &tree);
        }
    }
}
