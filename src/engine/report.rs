//! A search's progress as the interface and the engine protocols' clients share it:
//! the built-in engine's [`SearchInfo`] and an external engine's `info` line both
//! become a [`SearchReport`].

use super::{Score, SearchInfo};
use crate::rules::Move;

/// One progress report of a search (built-in or external engine), from the mover's view.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchReport {
    /// Depth completed.
    pub depth: u32,
    /// The score of the best line, from the side to move's point of view.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Nodes per second.
    pub nodes_per_second: u64,
    /// The best line, first move first.
    pub principal_variation: Vec<Move>,
}

impl SearchReport {
    /// The report of a completed depth of the built-in engine.
    pub fn from_info(info: &SearchInfo) -> SearchReport {
        let millis = info.elapsed.as_millis().max(1) as u64;
        SearchReport {
            depth: info.depth,
            score: info.score,
            nodes: info.nodes,
            nodes_per_second: info.nodes.saturating_mul(1000) / millis,
            principal_variation: info.principal_variation.clone(),
        }
    }
}
