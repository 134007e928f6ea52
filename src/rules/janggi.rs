//! Janggi (Korean chess): board, move generation, check, bikjang and scoring.
//!
//! Four rule sets match Fairy-Stockfish's janggi variants; they differ only in
//! the small [`JanggiRules`] record. History-aware rules (repetition, double
//! pass) live in [`super::game`].

use super::board9x10::{
    board_move_name, check_piece_counts, moves_of_pieces, nearest, nearest_on_line,
    open_file_between, orthogonal_direction, parse_board_move, split_fen, with_move_made,
    within_reach, PieceMoves, LINES,
};
use super::fen::{parse_placement, write_placement};
use super::geometry::{
    file_of, offset, rank_of, square_at, square_name, BlockableJump, BoardTables, SquareRun,
    SquareSet, DIAGONAL, ORTHOGONAL, TABLES_9X10,
};
use super::xiangqi::{kind, kind_of, owner, piece, piece_from_letter, piece_letter};
use super::zobrist;
use super::{EndReason, FenError, IllegalMove, Move, MoveList, Position, Scores, Side};
use std::sync::LazyLock;

/// What happens when the generals face each other on an open file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BikjangRule {
    /// Facing is just a position (`janggi-modern`, `janggi-casual`).
    None,
    /// The side to move must break the facing or pass; passing accepts it and the game ends.
    Ends,
}

/// How repetition is judged (applied by [`super::game::Game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum JanggiRepetition {
    /// Perpetual check is forbidden: at the third occurrence the checking side loses
    /// (Fairy-Stockfish's reading: the move stays playable and loses); any other
    /// threefold repetition ends the game.
    PerpetualCheckIllegal,
    /// Kakao style: shuttling one piece back and forth loses (Fairy-Stockfish's
    /// `moveRepetitionIllegal`); a fourfold repetition ends the game.
    MoveRepetitionIllegal,
    /// Gungjanggi: a move that would produce the same position for the third time is illegal.
    ThirdOccurrenceIllegal,
}

/// The gungjanggi rule options (seed 002, RULES.md "Gungjanggi").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GungjanggiRules {
    /// Manual 2 (dan tournaments): soldier and advisor promotion, material judged by count.
    pub dan: bool,
    /// Plies without a capture that start the judging phase (rule 8; this project's choice: 100).
    pub quiet_plies_to_judging: u32,
    /// Plies of the judging phase without a check before material decides (rule 9; our choice: 20).
    pub judging_plies: u32,
}

/// A janggi rule set: the handful of switches that separate the four variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct JanggiRules {
    /// Protocol name of the rule set (`janggi`, `janggitraditional`, …).
    pub id: &'static str,
    /// What facing generals mean.
    pub bikjang: BikjangRule,
    /// True when drawn endings (bikjang, repetition, move limit) are decided by KJA points.
    pub scoring: bool,
    /// How repetition is judged.
    pub repetition: JanggiRepetition,
    /// Plies without a capture after which the game ends (0 = never).
    pub move_limit: u32,
    /// Gungjanggi options; `None` for the four janggi rule sets.
    pub gungjanggi: Option<GungjanggiRules>,
}

impl JanggiRules {
    /// Korean Janggi Association rules (Fairy-Stockfish `janggi`).
    pub const KJA: JanggiRules = JanggiRules {
        id: "janggi",
        bikjang: BikjangRule::Ends,
        scoring: true,
        repetition: JanggiRepetition::PerpetualCheckIllegal,
        move_limit: 100,
        gungjanggi: None,
    };
    /// Traditional rules: bikjang and repetition are plain draws (`janggitraditional`).
    pub const TRADITIONAL: JanggiRules = JanggiRules {
        id: "janggitraditional",
        bikjang: BikjangRule::Ends,
        scoring: false,
        repetition: JanggiRepetition::PerpetualCheckIllegal,
        move_limit: 100,
        gungjanggi: None,
    };
    /// Kakao-compatible rules (`janggimodern`).
    pub const MODERN: JanggiRules = JanggiRules {
        id: "janggimodern",
        bikjang: BikjangRule::None,
        scoring: true,
        repetition: JanggiRepetition::MoveRepetitionIllegal,
        move_limit: 200,
        gungjanggi: None,
    };
    /// Casual rules (`janggicasual`).
    pub const CASUAL: JanggiRules = JanggiRules {
        id: "janggicasual",
        bikjang: BikjangRule::None,
        scoring: false,
        repetition: JanggiRepetition::PerpetualCheckIllegal,
        move_limit: 100,
        gungjanggi: None,
    };
    /// Gungjanggi, the seed's Manual 1 (silver tournaments).
    pub const GUNGJANGGI: JanggiRules = JanggiRules {
        id: "gungjanggi",
        bikjang: BikjangRule::Ends,
        scoring: false,
        repetition: JanggiRepetition::ThirdOccurrenceIllegal,
        move_limit: 0,
        gungjanggi: Some(GungjanggiRules {
            dan: false,
            quiet_plies_to_judging: 100,
            judging_plies: 20,
        }),
    };
    /// Gungjanggi, the seed's Manual 2 (dan tournaments): adds soldier and advisor promotion.
    pub const GUNGJANGGI_DAN: JanggiRules = JanggiRules {
        id: "gungjanggi-dan",
        bikjang: BikjangRule::Ends,
        scoring: false,
        repetition: JanggiRepetition::ThirdOccurrenceIllegal,
        move_limit: 0,
        gungjanggi: Some(GungjanggiRules {
            dan: true,
            quiet_plies_to_judging: 100,
            judging_plies: 20,
        }),
    };
}

/// Marks a promoted soldier or advisor (gungjanggi-dan) on top of its piece code.
pub const PROMOTED: u8 = 16;

/// The extra state gungjanggi needs; all zero in the other rule sets.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct GungjanggiState {
    /// Each king normal (false) or promoted (true), first player first.
    pub king_promoted: [bool; 2],
    /// Whether each side has called its one bikjang.
    pub bikjang_called: [bool; 2],
    /// Each side's passes in a row (a third is not allowed).
    pub passes_in_row: [u8; 2],
    /// True once the judging phase has begun (rule 8).
    pub judging: bool,
    /// Plies played in the judging phase.
    pub judging_plies: u32,
}

impl GungjanggiState {
    /// The state written as the extra FEN field: `K`/`k` promoted kings, `B`/`b` bikjang
    /// called, `P<n>`/`p<n>` passes in a row, `J<n>` judging phase with n plies spent; `-` if none.
    pub fn to_field(&self) -> String {
        let mut out = String::new();
        if self.king_promoted[0] {
            out.push('K');
        }
        if self.king_promoted[1] {
            out.push('k');
        }
        if self.bikjang_called[0] {
            out.push('B');
        }
        if self.bikjang_called[1] {
            out.push('b');
        }
        if self.passes_in_row[0] > 0 {
            out.push_str(&format!("P{}", self.passes_in_row[0]));
        }
        if self.passes_in_row[1] > 0 {
            out.push_str(&format!("p{}", self.passes_in_row[1]));
        }
        if self.judging {
            out.push_str(&format!("J{}", self.judging_plies));
        }
        if out.is_empty() {
            out.push('-');
        }
        out
    }

    /// Reads the extra FEN field written by [`GungjanggiState::to_field`].
    pub fn from_field(field: &str) -> Result<GungjanggiState, FenError> {
        let mut state = GungjanggiState::default();
        if field == "-" {
            return Ok(state);
        }
        let mut chars = field.chars().peekable();
        while let Some(c) = chars.next() {
            let mut number = || -> Result<u32, FenError> {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                digits.parse::<u32>().map_err(|_| {
                    FenError::new(format!("gungjanggi state '{field}': '{c}' needs a number"))
                })
            };
            match c {
                'K' => state.king_promoted[0] = true,
                'k' => state.king_promoted[1] = true,
                'B' => state.bikjang_called[0] = true,
                'b' => state.bikjang_called[1] = true,
                'P' | 'p' => {
                    let count = number()?;
                    if count > 2 {
                        return Err(FenError::new(format!(
                            "gungjanggi state '{field}': {count} passes in a row (at most 2)"
                        )));
                    }
                    state.passes_in_row[usize::from(c == 'p')] = count as u8;
                }
                'J' => {
                    state.judging = true;
                    state.judging_plies = number()?;
                }
                other => {
                    return Err(FenError::new(format!(
                        "gungjanggi state '{field}': unknown flag '{other}'"
                    )))
                }
            }
        }
        Ok(state)
    }
}

/// KJA piece values in half points (chariot 13, cannon 7, horse 5, elephant 3, advisor 3, soldier 2).
pub const fn value_in_half_points(piece_kind: u8) -> i32 {
    match piece_kind {
        kind::CHARIOT => 26,
        kind::CANNON => 14,
        kind::HORSE => 10,
        kind::ELEPHANT => 6,
        kind::ADVISOR => 6,
        kind::SOLDIER => 4,
        _ => 0,
    }
}

/// The four horse/elephant setups, named as on the board from Cho's side (files b, c, g, h).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setup {
    /// 마상상마: horses outside, elephants inside (inner elephants).
    HorseElephantElephantHorse,
    /// 상마마상: elephants outside (outer elephants).
    ElephantHorseHorseElephant,
    /// 마상마상.
    HorseElephantHorseElephant,
    /// 상마상마.
    ElephantHorseElephantHorse,
}

impl Setup {
    /// All four setups.
    pub const ALL: [Setup; 4] = [
        Setup::HorseElephantElephantHorse,
        Setup::ElephantHorseHorseElephant,
        Setup::HorseElephantHorseElephant,
        Setup::ElephantHorseElephantHorse,
    ];

    /// The Korean name as written in records (`마상상마`).
    pub const fn korean(self) -> &'static str {
        match self {
            Setup::HorseElephantElephantHorse => "마상상마",
            Setup::ElephantHorseHorseElephant => "상마마상",
            Setup::HorseElephantHorseElephant => "마상마상",
            Setup::ElephantHorseElephantHorse => "상마상마",
        }
    }

    /// The back rank for Cho in FEN letters, files a to i.
    pub const fn back_rank(self) -> &'static str {
        match self {
            Setup::HorseElephantElephantHorse => "RNBA1ABNR",
            Setup::ElephantHorseHorseElephant => "RBNA1ANBR",
            Setup::HorseElephantHorseElephant => "RNBA1ANBR",
            Setup::ElephantHorseElephantHorse => "RBNA1ABNR",
        }
    }

    /// Reads a Korean setup name (`마상상마`) or its board letters.
    pub fn parse(text: &str) -> Option<Setup> {
        Setup::ALL
            .into_iter()
            .find(|s| s.korean() == text || s.back_rank().eq_ignore_ascii_case(text))
    }
}

/// The start FEN for the two chosen setups.
pub fn start_fen(cho: Setup, han: Setup) -> String {
    format!(
        "{}/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/{} w - - 0 1",
        han.back_rank().to_ascii_lowercase(),
        cho.back_rank()
    )
}

/// Fairy-Stockfish's default janggi start (마상상마 for both sides).
pub const START_FEN: &str =
    "rnba1abnr/4k4/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBA1ABNR w - - 0 1";

pub(super) struct JanggiTables {
    palace: [SquareSet; 2],
    /// One-step moves of general and advisors along the palace lines.
    palace_steps: Vec<Vec<u8>>,
    /// Palace-diagonal rays (chariot and cannon) from each diagonal point.
    diagonal_rays: Vec<Vec<SquareRun>>,
    /// Elephant jumps: target, first block (orthogonal), second block (diagonal).
    elephant_jumps: Vec<Vec<BlockableJump>>,
    /// Elephant attackers: for each target, (elephant square, blocks).
    elephant_attackers: Vec<Vec<BlockableJump>>,
    /// Soldier steps per side.
    soldier_steps: [Vec<Vec<u8>>; 2],
    /// For each square and attacking side, the squares from which a soldier attacks it.
    soldier_attackers: [Vec<Vec<u8>>; 2],
    /// Squares where a move can change whether a king on this square is attacked.
    sensitive: Vec<SquareSet>,
    /// One step along the palace diagonals from each square.
    diagonal_neighbours: Vec<Vec<u8>>,
    /// One step along any line (orthogonal, or a palace diagonal): a promoted soldier's or
    /// advisor's moves in gungjanggi-dan, and where such a piece attacks from.
    line_steps: Vec<Vec<u8>>,
    /// `palace_steps`, `soldier_steps` and `line_steps` as square sets, for attack sets.
    palace_step_sets: Vec<u128>,
    soldier_step_sets: [Vec<u128>; 2],
    line_step_sets: Vec<u128>,
}

/// The palace diagonal points and their links: (corner, centre) pairs.
fn diagonal_links() -> Vec<(u8, u8)> {
    let mut links = Vec::new();
    for (centre_rank, _) in [(1u8, Side::First), (8u8, Side::Second)] {
        let centre = square_at(4, centre_rank);
        for (file, rank) in [
            (3, centre_rank - 1),
            (5, centre_rank - 1),
            (3, centre_rank + 1),
            (5, centre_rank + 1),
        ] {
            links.push((square_at(file, rank), centre));
        }
    }
    links
}

static TABLES: LazyLock<JanggiTables> = LazyLock::new(|| {
    let palace = [
        super::xiangqi::palace(Side::First),
        super::xiangqi::palace(Side::Second),
    ];
    let links = diagonal_links();
    let diagonal_neighbours = |square: u8| -> Vec<u8> {
        links
            .iter()
            .filter_map(|&(corner, centre)| {
                if corner == square {
                    Some(centre)
                } else if centre == square {
                    Some(corner)
                } else {
                    None
                }
            })
            .collect()
    };
    let mut palace_steps = vec![Vec::new(); 90];
    let mut diagonal_rays = vec![Vec::new(); 90];
    let mut elephant_jumps = vec![Vec::new(); 90];
    let mut elephant_attackers = vec![Vec::new(); 90];
    let mut soldier_steps = [vec![Vec::new(); 90], vec![Vec::new(); 90]];
    let mut soldier_attackers = [vec![Vec::new(); 90], vec![Vec::new(); 90]];
    let mut sensitive = vec![SquareSet::EMPTY; 90];
    let mut diagonal_neighbour_table = vec![Vec::new(); 90];
    let mut line_steps = vec![Vec::new(); 90];
    for square in 0..90u8 {
        diagonal_neighbour_table[square as usize] = diagonal_neighbours(square);
        for step in ORTHOGONAL {
            if let Some(to) = offset(square, step, 10) {
                line_steps[square as usize].push(to);
            }
        }
        line_steps[square as usize].extend(diagonal_neighbours(square));
        if let Some(p) = palace.iter().find(|p| p.contains(square)) {
            for step in ORTHOGONAL {
                if let Some(to) = offset(square, step, 10).filter(|&t| p.contains(t)) {
                    palace_steps[square as usize].push(to);
                }
            }
            for neighbour in diagonal_neighbours(square) {
                palace_steps[square as usize].push(neighbour);
                // A ray continues through the centre to the opposite corner.
                let mut run = SquareRun::default();
                run.squares[0] = neighbour;
                run.len = 1;
                let is_corner = links.iter().any(|&(corner, _)| corner == square);
                if is_corner {
                    let opposite = 2 * neighbour as i16 - square as i16;
                    run.squares[1] = opposite as u8;
                    run.len = 2;
                }
                diagonal_rays[square as usize].push(run);
            }
        }
        for orthogonal in ORTHOGONAL {
            let Some(first) = offset(square, orthogonal, 10) else {
                continue;
            };
            for diagonal in DIAGONAL {
                if (orthogonal.0 != 0 && diagonal.0 != orthogonal.0)
                    || (orthogonal.1 != 0 && diagonal.1 != orthogonal.1)
                {
                    continue;
                }
                let Some(second) = offset(first, diagonal, 10) else {
                    continue;
                };
                let Some(target) = offset(second, diagonal, 10) else {
                    continue;
                };
                elephant_jumps[square as usize].push(BlockableJump {
                    target,
                    block: first,
                    block2: second,
                });
                elephant_attackers[target as usize].push(BlockableJump {
                    target: square,
                    block: first,
                    block2: second,
                });
            }
        }
        for side in [Side::First, Side::Second] {
            let forward: i8 = if side == Side::First { 1 } else { -1 };
            let mut steps = Vec::new();
            for step in [(0, forward), (-1, 0), (1, 0)] {
                if let Some(to) = offset(square, step, 10) {
                    steps.push(to);
                }
            }
            // Forward along the enemy palace's diagonals.
            let enemy_palace = palace[side.opponent().index()];
            if enemy_palace.contains(square) {
                for neighbour in diagonal_neighbours(square) {
                    let ahead = if side == Side::First {
                        rank_of(neighbour) > rank_of(square)
                    } else {
                        rank_of(neighbour) < rank_of(square)
                    };
                    if ahead {
                        steps.push(neighbour);
                    }
                }
            }
            for &to in &steps {
                soldier_attackers[side.index()][to as usize].push(square);
            }
            soldier_steps[side.index()][square as usize] = steps;
        }
        let mut set = SquareSet::EMPTY;
        for other in 0..90u8 {
            if file_of(other) == file_of(square) || rank_of(other) == rank_of(square) {
                set.insert(other);
            }
        }
        for p in &palace {
            if p.contains(square) {
                set.0 |= p.0;
            }
        }
        for step in DIAGONAL {
            if let Some(near) = offset(square, step, 10) {
                set.insert(near);
                if let Some(far) = offset(near, step, 10) {
                    set.insert(far);
                }
            }
        }
        sensitive[square as usize] = set;
    }
    JanggiTables {
        palace,
        diagonal_rays,
        elephant_jumps,
        elephant_attackers,
        soldier_attackers,
        sensitive,
        diagonal_neighbours: diagonal_neighbour_table,
        palace_step_sets: square_sets(&palace_steps),
        soldier_step_sets: [
            square_sets(&soldier_steps[0]),
            square_sets(&soldier_steps[1]),
        ],
        line_step_sets: square_sets(&line_steps),
        palace_steps,
        soldier_steps,
        line_steps,
    }
});

/// Each square's list of squares as one set (a bit per square).
fn square_sets(lists: &[Vec<u8>]) -> Vec<u128> {
    lists
        .iter()
        .map(|list| {
            list.iter()
                .fold(0u128, |set, &square| set | 1u128 << square)
        })
        .collect()
}

/// A janggi position: board, side to move, counters and the rule set.
#[derive(Clone, PartialEq, Eq)]
pub struct JanggiPosition {
    board: [u8; 90],
    occupied: [u128; 2],
    kings: [u8; 2],
    side: Side,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    rules: JanggiRules,
    /// True when the previous move was a pass (a second pass in a row ends the game).
    previous_pass: bool,
    /// Set when the game ended on the board by rule: bikjang accepted, two passes in a
    /// row (janggi), the first check of the judging phase or its end (gungjanggi).
    ended_by: Option<EndReason>,
    /// Gungjanggi state (all zero otherwise).
    gung: GungjanggiState,
}

impl std::fmt::Debug for JanggiPosition {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "JanggiPosition({} {})", self.rules.id, self.fen())
    }
}

impl JanggiPosition {
    /// The default start (마상상마 both sides) under the given rules.
    pub fn start(rules: JanggiRules) -> JanggiPosition {
        Self::from_fen(START_FEN, rules).expect("the start position is valid")
    }

    /// Reads a Fairy-Stockfish janggi FEN (`w` = Cho, `b` = Han).
    pub fn from_fen(fen: &str, rules: JanggiRules) -> Result<JanggiPosition, FenError> {
        // Gungjanggi adds a seventh field with its state (see GungjanggiState::to_field).
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let (fen_core, gung) = match (rules.gungjanggi, fields.len()) {
            (Some(_), 7) => (
                fields[..6].join(" "),
                GungjanggiState::from_field(fields[6])?,
            ),
            _ => (fen.to_string(), GungjanggiState::default()),
        };
        let dan = rules.gungjanggi.is_some_and(|g| g.dan);
        let (placement, side, halfmove, fullmove) = split_fen(&fen_core)?;
        let cells = parse_placement(placement, 10, &|c, promoted| {
            let code = piece_from_letter(c)?;
            if !promoted {
                Some(code)
            } else if dan && matches!(kind_of(code), kind::SOLDIER | kind::ADVISOR) {
                Some(code | PROMOTED)
            } else {
                None
            }
        })?;
        let mut board = [0u8; 90];
        board.copy_from_slice(&cells);
        let mut kings = [u8::MAX; 2];
        for (square, &code) in board.iter().enumerate() {
            if code == 0 || kind_of(code) != kind::KING {
                continue;
            }
            let who = owner(code);
            let name = if who == Side::First { "Cho" } else { "Han" };
            if kings[who.index()] != u8::MAX {
                return Err(FenError::new(format!("two kings for {name}")));
            }
            if !TABLES.palace[who.index()].contains(square as u8) {
                return Err(FenError::new(format!(
                    "the {name} king on {} is outside its palace",
                    square_name(square as u8)
                )));
            }
            kings[who.index()] = square as u8;
        }
        for (index, name) in ["Cho", "Han"].iter().enumerate() {
            if kings[index] == u8::MAX {
                return Err(FenError::new(format!("no king for {name}")));
            }
        }
        let mut position = JanggiPosition {
            board,
            occupied: [0; 2],
            kings,
            side,
            halfmove,
            fullmove,
            hash: 0,
            rules,
            previous_pass: false,
            ended_by: None,
            gung,
        };
        for (square, &code) in board.iter().enumerate() {
            if code != 0 {
                position.occupied[owner(code).index()] |= 1u128 << square;
            }
        }
        position.hash = position.compute_hash();
        Ok(position)
    }

    /// Refuses a position no game can reach, as a FEN from outside may describe: more
    /// pieces of a kind than a set has, or the side not to move in check (generals facing
    /// each other are bikjang in janggi, not check, and stay allowed).
    pub fn check_reachable(&self) -> Result<(), FenError> {
        check_piece_counts(&self.board, ["Cho", "Han"])?;
        let waiting = self.side.opponent();
        if self.is_king_attacked(waiting) {
            let name = if waiting == Side::First { "Cho" } else { "Han" };
            return Err(FenError::new(format!(
                "the side not to move ({name}) is in check"
            )));
        }
        Ok(())
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = 0;
        for (square, &code) in self.board.iter().enumerate() {
            if code != 0 {
                hash ^= zobrist::PIECE_SQUARE[code as usize][square];
            }
        }
        if self.side == Side::Second {
            hash ^= zobrist::SECOND_TO_MOVE;
        }
        hash
    }

    /// Zobrist keys of the gungjanggi king states (part of repetition).
    #[inline]
    fn king_state_key(&self) -> u64 {
        let mut key = 0;
        if self.gung.king_promoted[0] {
            key ^= zobrist::STATE[0];
        }
        if self.gung.king_promoted[1] {
            key ^= zobrist::STATE[1];
        }
        if self.gung.judging {
            key ^= zobrist::STATE[4];
        }
        key
    }

    /// Zobrist keys of the rest of the gungjanggi state (bikjang calls, passes in a row).
    #[inline]
    fn counter_state_key(&self) -> u64 {
        let mut key = 0;
        if self.gung.bikjang_called[0] {
            key ^= zobrist::STATE[2];
        }
        if self.gung.bikjang_called[1] {
            key ^= zobrist::STATE[3];
        }
        key ^= zobrist::STATE[8 + self.gung.passes_in_row[0].min(3) as usize];
        key ^= zobrist::STATE[12 + self.gung.passes_in_row[1].min(3) as usize];
        key
    }

    /// The gungjanggi state (kings, bikjang calls, passes, judging phase).
    pub fn gungjanggi_state(&self) -> GungjanggiState {
        self.gung
    }

    /// The rule set.
    pub fn rules(&self) -> JanggiRules {
        self.rules
    }

    /// The piece code on a square (0 = empty).
    #[inline]
    pub fn piece_at(&self, square: u8) -> u8 {
        self.board[square as usize]
    }

    /// The whole board, indexed by square.
    pub fn board(&self) -> &[u8; 90] {
        &self.board
    }

    /// The squares holding a side's pieces, one bit per square (bit `square`).
    pub fn occupied_by(&self, side: Side) -> u128 {
        self.occupied[side.index()]
    }

    /// The square of a side's king.
    pub fn king_square(&self, side: Side) -> u8 {
        self.kings[side.index()]
    }

    /// True when the two generals stand on one file with nothing between them.
    pub fn generals_face(&self) -> bool {
        open_file_between(&self.board, self.kings[0], self.kings[1])
    }

    /// True when `square` is attacked by a piece of `attacker` on `board`, whose occupied
    /// squares are `occupied`.
    fn attacked_on(board: &[u8; 90], occupied: u128, square: u8, attacker: Side) -> bool {
        let tables = &*TABLES;
        (0..LINES.len())
            .any(|direction| Self::line_attacked(board, occupied, square, attacker, direction))
            || tables.diagonal_rays[square as usize]
                .iter()
                .any(|ray| Self::diagonal_attacked(board, ray, attacker))
            || TABLES_9X10.horse_attackers[square as usize]
                .iter()
                .any(|jump| Self::jump_attacked(board, jump, piece(attacker, kind::HORSE)))
            || tables.elephant_attackers[square as usize]
                .iter()
                .any(|jump| Self::jump_attacked(board, jump, piece(attacker, kind::ELEPHANT)))
            || Self::stepper_attacked(tables, board, square, attacker)
    }

    /// True when `square`, not attacked by `attacker` before the move `mv` (a move of the
    /// other side's, not off `square`), is attacked on `board` after it (occupied squares
    /// `occupied`): the same answer as [`Self::attacked_on`] there, looking only where the
    /// move can have opened an attack. That is the orthogonal lines and palace diagonals
    /// through either of its squares (a slider freed, a cannon given its one screen or
    /// left with one of two) and the horses and elephants whose way it left; a capture or
    /// a blocked way only takes attacks away. Not for gungjanggi's extra attackers
    /// ([`Self::king_attacked_on`]).
    fn attack_opened(
        board: &[u8; 90],
        occupied: u128,
        square: u8,
        attacker: Side,
        mv: Move,
    ) -> bool {
        let tables = &*TABLES;
        let moved = 1u128 << mv.from | 1u128 << mv.to;
        (0..LINES.len()).any(|direction| {
            LINES[direction][square as usize] & moved != 0
                && Self::line_attacked(board, occupied, square, attacker, direction)
        }) || tables.diagonal_rays[square as usize].iter().any(|ray| {
            ray.as_slice()
                .iter()
                .any(|&on| on == mv.from || on == mv.to)
                && Self::diagonal_attacked(board, ray, attacker)
        }) || TABLES_9X10.horse_attackers[square as usize]
            .iter()
            .any(|jump| {
                jump.block == mv.from
                    && Self::jump_attacked(board, jump, piece(attacker, kind::HORSE))
            })
            || tables.elephant_attackers[square as usize]
                .iter()
                .any(|jump| {
                    (jump.block == mv.from || jump.block2 == mv.from)
                        && Self::jump_attacked(board, jump, piece(attacker, kind::ELEPHANT))
                })
    }

    /// True when the board move or pass `mv`, legal here, leaves the opponent's king
    /// attacked, told without playing it (for the CPU, which asks of every move it
    /// searches). The opponent is not in check before the move, so a check comes only
    /// from the moved piece on its new square or through what the move changed on the
    /// king's lines, palace and horse and elephant ways ([`Self::attack_opened`]). Not for
    /// gungjanggi, whose promoted pieces attack otherwise: `None` there.
    pub fn gives_check(&self, mv: Move) -> Option<bool> {
        if self.rules.gungjanggi.is_some() {
            return None;
        }
        if mv.is_pass() {
            return Some(false);
        }
        let attacker = self.side;
        let king = self.kings[attacker.opponent().index()];
        let moved_kind = kind_of(self.board[mv.from as usize]);
        let sensitive = TABLES.sensitive[king as usize];
        let near_king = sensitive.contains(mv.from) || sensitive.contains(mv.to);
        let jumper = moved_kind == kind::HORSE || moved_kind == kind::ELEPHANT;
        // Soldiers, advisors and generals attack only squares next to them, and those
        // squares' neighbours are all in the king's sensitive set.
        if !near_king && !jumper {
            return Some(false);
        }
        let occupied = self.occupied_after(mv);
        let mut board = self.board;
        Some(with_move_made(&mut board, mv, |board| {
            let direct = match moved_kind {
                kind::HORSE => TABLES_9X10.horse_attackers[king as usize]
                    .iter()
                    .any(|jump| jump.target == mv.to && board[jump.block as usize] == 0),
                kind::ELEPHANT => TABLES.elephant_attackers[king as usize].iter().any(|jump| {
                    jump.target == mv.to
                        && board[jump.block as usize] == 0
                        && board[jump.block2 as usize] == 0
                }),
                kind::SOLDIER => {
                    TABLES.soldier_attackers[attacker.index()][king as usize].contains(&mv.to)
                }
                kind::ADVISOR | kind::KING => {
                    TABLES.diagonal_neighbours[king as usize].contains(&mv.to)
                }
                // Chariots and cannons attack along lines through their new square,
                // which `attack_opened` looks along.
                _ => false,
            };
            direct || (near_king && Self::attack_opened(board, occupied, king, attacker, mv))
        }))
    }

    /// Along the file or rank from `square` in `direction`: a chariot of `attacker`'s
    /// first, or its cannon over one screen that is not a cannon (a cannon can neither
    /// jump nor be jumped by a cannon).
    #[inline(always)]
    fn line_attacked(
        board: &[u8; 90],
        occupied: u128,
        square: u8,
        attacker: Side,
        direction: usize,
    ) -> bool {
        let Some(first) = nearest_on_line(occupied, square, direction) else {
            return false;
        };
        let code = board[first as usize];
        if code == piece(attacker, kind::CHARIOT) {
            return true;
        }
        if kind_of(code) == kind::CANNON {
            return false;
        }
        nearest_on_line(occupied, first, direction)
            .is_some_and(|second| board[second as usize] == piece(attacker, kind::CANNON))
    }

    /// Along one palace diagonal `ray` from the attacked square: a chariot first, or a
    /// cannon over one screen that is not a cannon.
    #[inline(always)]
    fn diagonal_attacked(board: &[u8; 90], ray: &SquareRun, attacker: Side) -> bool {
        let mut screened = false;
        for &next in ray.as_slice() {
            let code = board[next as usize];
            if code == 0 {
                continue;
            }
            if screened {
                return code == piece(attacker, kind::CANNON);
            }
            if code == piece(attacker, kind::CHARIOT) {
                return true;
            }
            if kind_of(code) == kind::CANNON {
                return false;
            }
            screened = true;
        }
        false
    }

    /// True when `attacker` (a horse or elephant code) stands on the jump's far end with
    /// its way (one block, or an elephant's two) empty.
    #[inline(always)]
    fn jump_attacked(board: &[u8; 90], jump: &BlockableJump, attacker: u8) -> bool {
        board[jump.target as usize] == attacker
            && board[jump.block as usize] == 0
            && board[jump.block2 as usize] == 0
    }

    /// The one-step attackers of `square`: soldiers, and generals and advisors along the
    /// palace diagonals. Fairy-Stockfish confines a general's or advisor's orthogonal
    /// steps to its own palace, but not its steps along the palace diagonals: an advisor
    /// that a FEN puts on the other palace's diagonals attacks along them. (In play they
    /// never get there.)
    #[inline(always)]
    fn stepper_attacked(
        tables: &JanggiTables,
        board: &[u8; 90],
        square: u8,
        attacker: Side,
    ) -> bool {
        let soldier = piece(attacker, kind::SOLDIER);
        let advisor = piece(attacker, kind::ADVISOR);
        let general = piece(attacker, kind::KING);
        tables.soldier_attackers[attacker.index()][square as usize]
            .iter()
            .any(|&from| board[from as usize] == soldier)
            || tables.diagonal_neighbours[square as usize]
                .iter()
                .any(|&from| {
                    let code = board[from as usize];
                    code == advisor || code == general
                })
    }

    /// True when `side`'s king is attacked.
    pub fn is_king_attacked(&self, side: Side) -> bool {
        self.king_attacked_on(
            &self.board,
            self.all_occupied(),
            self.kings[side.index()],
            side,
        )
    }

    /// Every occupied square, one bit per square.
    #[inline]
    fn all_occupied(&self) -> u128 {
        self.occupied[0] | self.occupied[1]
    }

    /// True when `side`'s king, standing on `king_square` of `board`, is attacked: by
    /// ordinary pieces, and in gungjanggi also by a promoted enemy king facing it on an open
    /// file (rule 4) and by promoted soldiers and advisors (rules 11 and 12).
    #[inline]
    fn king_attacked_on(
        &self,
        board: &[u8; 90],
        occupied: u128,
        king_square: u8,
        side: Side,
    ) -> bool {
        let attacker = side.opponent();
        if Self::attacked_on(board, occupied, king_square, attacker) {
            return true;
        }
        if self.rules.gungjanggi.is_none() {
            return false;
        }
        let enemy_king = self.kings[attacker.index()];
        if self.gung.king_promoted[attacker.index()]
            && open_file_between(board, king_square, enemy_king)
        {
            return true;
        }
        let promoted_soldier = piece(attacker, kind::SOLDIER) | PROMOTED;
        let promoted_advisor = piece(attacker, kind::ADVISOR) | PROMOTED;
        TABLES.line_steps[king_square as usize].iter().any(|&from| {
            let code = board[from as usize];
            code == promoted_soldier || code == promoted_advisor
        })
    }

    /// True when `square` is attacked by `attacker` (for the interface and the CPU).
    pub fn is_attacked(&self, square: u8, attacker: Side) -> bool {
        Self::attacked_on(&self.board, self.all_occupied(), square, attacker)
    }

    /// The squares the piece on `square` attacks, own pieces included (those it defends),
    /// as a set of square bits; empty for an empty square. For the CPU's evaluation, which
    /// weighs hanging and outnumbered pieces; a general or advisor attacks along its
    /// palace's lines, a promoted gungjanggi piece one step along any line.
    pub fn attacks_from(&self, square: u8) -> u128 {
        let tables = &*TABLES;
        let board_tables = &*TABLES_9X10;
        let board = &self.board;
        let code = board[square as usize];
        let mut attacks = 0u128;
        if code == 0 {
            return 0;
        }
        if code & PROMOTED != 0 {
            return tables.line_step_sets[square as usize];
        }
        match kind_of(code) {
            kind::KING | kind::ADVISOR => attacks = tables.palace_step_sets[square as usize],
            kind::ELEPHANT => {
                for jump in &tables.elephant_jumps[square as usize] {
                    if board[jump.block as usize] == 0 && board[jump.block2 as usize] == 0 {
                        attacks |= 1u128 << jump.target;
                    }
                }
            }
            kind::HORSE => {
                for jump in &board_tables.horse_moves[square as usize] {
                    if board[jump.block as usize] == 0 {
                        attacks |= 1u128 << jump.target;
                    }
                }
            }
            kind::CHARIOT => {
                let occupied = self.all_occupied();
                for (direction, lines) in LINES.iter().enumerate() {
                    let line = lines[square as usize];
                    attacks |= match nearest(line & occupied, direction) {
                        Some(blocker) => line & !LINES[direction][blocker as usize],
                        None => line,
                    };
                }
                for ray in &tables.diagonal_rays[square as usize] {
                    for &to in ray.as_slice() {
                        attacks |= 1u128 << to;
                        if board[to as usize] != 0 {
                            break;
                        }
                    }
                }
            }
            kind::CANNON => {
                // Over one screen that is not a cannon, up to and including the next piece
                // unless that is a cannon.
                let occupied = self.all_occupied();
                for (direction, lines) in LINES.iter().enumerate() {
                    let line = lines[square as usize];
                    let Some(screen) = nearest(line & occupied, direction) else {
                        continue;
                    };
                    if kind_of(board[screen as usize]) == kind::CANNON {
                        continue;
                    }
                    let beyond = LINES[direction][screen as usize];
                    attacks |= match nearest(beyond & occupied, direction) {
                        Some(target) => {
                            let reach = beyond & !LINES[direction][target as usize];
                            if kind_of(board[target as usize]) == kind::CANNON {
                                reach & !(1u128 << target)
                            } else {
                                reach
                            }
                        }
                        None => beyond,
                    };
                }
                for ray in &tables.diagonal_rays[square as usize] {
                    if let [centre, corner] = *ray.as_slice() {
                        let screen = board[centre as usize];
                        let target = board[corner as usize];
                        if screen != 0
                            && kind_of(screen) != kind::CANNON
                            && (target == 0 || kind_of(target) != kind::CANNON)
                        {
                            attacks |= 1u128 << corner;
                        }
                    }
                }
            }
            _ => attacks = tables.soldier_step_sets[owner(code).index()][square as usize],
        }
        attacks
    }

    /// True when the bikjang rule is in force and the generals face: the side to move must answer it.
    #[inline]
    pub fn bikjang_pending(&self) -> bool {
        self.rules.bikjang == BikjangRule::Ends
            && !self.gung.king_promoted[0]
            && !self.gung.king_promoted[1]
            && self.generals_face()
    }

    /// The pass move of the side to move (its king's square twice).
    pub fn pass_move(&self) -> Move {
        let king = self.kings[self.side.index()];
        Move::new(king, king)
    }

    /// Appends every pseudo-legal move (the pass excluded).
    pub fn pseudo_legal_moves(&self, moves: &mut MoveList) {
        self.pseudo_legal_moves_kept(moves, |_| true);
    }

    /// Appends the pseudo-legal moves that `keep` accepts, in the order of
    /// [`Self::pseudo_legal_moves`] (the captures alone, for the quiescence search,
    /// without listing the quiet moves first).
    #[inline(always)]
    fn pseudo_legal_moves_kept(&self, moves: &mut MoveList, keep: impl Fn(Move) -> bool) {
        moves_of_pieces(self, moves, |_| Some(|_: usize| true), keep);
    }

    /// Appends the pseudo-legal moves onto `square`, in the order of
    /// [`Self::pseudo_legal_moves`]: an exchange on one square needs only these, and
    /// generating every move of the side for them cost more than the exchange itself.
    pub fn pseudo_legal_moves_to<const CAPACITY: usize>(
        &self,
        square: u8,
        moves: &mut MoveList<CAPACITY>,
    ) {
        let rays_toward_square = |from: u8| {
            let slider = matches!(
                kind_of(self.board[from as usize]),
                kind::CHARIOT | kind::CANNON
            );
            if !within_reach(from, square, slider, if slider { 2 } else { 3 }) {
                return None;
            }
            // A slider's moves onto `square` lie on the one orthogonal ray toward it
            // (or, in janggi, on a palace diagonal: those rays come after the four).
            let toward = orthogonal_direction(from, square);
            Some(move |ray: usize| ray >= 4 || Some(ray) == toward)
        };
        moves_of_pieces(self, moves, rays_toward_square, |mv| mv.to == square);
    }

    /// True when a pseudo-legal (non-pass) move leaves the mover's king safe.
    #[inline]
    fn is_safe(&self, mv: Move, careful: bool) -> bool {
        let side = self.side;
        let king = self.kings[side.index()];
        if !careful && mv.from != king {
            // Not in check, no bikjang to answer, no gungjanggi (whose promoted kings and
            // pieces attack otherwise, and whose bikjang calls are counted): only a move
            // on the king's lines, palace or horse and elephant ways can attack it, and
            // then only through what the move changed there.
            let sensitive = TABLES.sensitive[king as usize];
            if !sensitive.contains(mv.from) && !sensitive.contains(mv.to) {
                return true;
            }
            let occupied = self.occupied_after(mv);
            let mut board = self.board;
            return with_move_made(&mut board, mv, |board| {
                !Self::attack_opened(board, occupied, king, side.opponent(), mv)
            });
        }
        // Gungjanggi rule 2: a side that called bikjang once may not call it again.
        let no_second_bikjang =
            self.gung.bikjang_called[side.index()] && self.gung.king_promoted == [false; 2];
        let king_square = if mv.from == king { mv.to } else { king };
        let other_king = self.kings[side.opponent().index()];
        let occupied = self.occupied_after(mv);
        let mut board = self.board;
        with_move_made(&mut board, mv, |board| {
            let calls_again =
                no_second_bikjang && open_file_between(board, king_square, other_king);
            !calls_again && !self.king_attacked_on(board, occupied, king_square, side)
        })
    }

    /// True when the pass is legal now: not in check, or answering a pending bikjang; in
    /// gungjanggi also not a side's third pass in a row (accepting bikjang is always allowed).
    pub fn can_pass(&self) -> bool {
        if self.ended_by.is_some() {
            return false;
        }
        let bikjang = self.bikjang_pending();
        if bikjang {
            return true;
        }
        if self.rules.gungjanggi.is_some() && self.gung.passes_in_row[self.side.index()] >= 2 {
            return false;
        }
        !self.in_check()
    }

    /// Set when the last move (a pass) ended the game: bikjang accepted or a second pass in a row.
    ///
    /// Fairy-Stockfish generates no move in such a position; neither do we.
    pub fn ended_by(&self) -> Option<EndReason> {
        self.ended_by
    }

    /// True when the previous move was a pass.
    pub fn previous_move_was_pass(&self) -> bool {
        self.previous_pass
    }

    /// Appends the pseudo-legal moves that leave the king safe (and answer a pending
    /// bikjang), then the pass when it is legal; with `captures_only`, only the captures
    /// (the CPU's quiescence search needs those alone).
    fn legal_moves_filtered(&self, moves: &mut MoveList, captures_only: bool) {
        if self.ended_by.is_some() {
            return;
        }
        let mut pseudo = MoveList::new();
        if captures_only {
            self.pseudo_legal_moves_kept(&mut pseudo, |mv| self.board[mv.to as usize] != 0);
        } else {
            self.pseudo_legal_moves(&mut pseudo);
        }
        let in_check = self.in_check();
        let bikjang = self.bikjang_pending();
        let careful = in_check || bikjang || self.rules.gungjanggi.is_some();
        for &mv in pseudo.iter() {
            let safe = if bikjang {
                self.is_safe_answering_bikjang(mv)
            } else {
                self.is_safe(mv, careful)
            };
            if safe {
                moves.push(mv);
            }
        }
        if !captures_only && self.can_pass() {
            moves.push(self.pass_move());
        }
    }

    /// Appends the legal captures only: the same moves as [`Position::legal_moves`]
    /// keeps when filtered by [`JanggiPosition::is_capture`] (the pass is no capture).
    pub fn legal_captures(&self, moves: &mut MoveList) {
        self.legal_moves_filtered(moves, true);
    }

    fn is_safe_answering_bikjang(&self, mv: Move) -> bool {
        let side = self.side;
        let king = self.kings[side.index()];
        let other = self.kings[side.opponent().index()];
        let king_square = if mv.from == king { mv.to } else { king };
        let occupied = self.occupied_after(mv);
        let mut board = self.board;
        with_move_made(&mut board, mv, |board| {
            !self.king_attacked_on(board, occupied, king_square, side)
                && !open_file_between(board, king_square, other)
        })
    }

    /// The occupied squares once the board move `mv` is made, as [`with_move_made`]
    /// leaves the board (not for the pass, whose square stays occupied).
    #[inline]
    fn occupied_after(&self, mv: Move) -> u128 {
        debug_assert!(mv.from != mv.to, "the pass moves nothing");
        (self.all_occupied() & !(1u128 << mv.from)) | 1u128 << mv.to
    }

    /// Checks a move and says why it is illegal, if it is (history-free rules).
    pub fn check_move(&self, mv: Move) -> Result<(), IllegalMove> {
        if mv.is_drop() || mv.is_promotion() || mv.from >= 90 || mv.to >= 90 {
            return Err(IllegalMove::NotAMove);
        }
        if self.ended_by.is_some() {
            return Err(IllegalMove::GameOver);
        }
        if mv.is_pass() {
            if mv.from != self.kings[self.side.index()] {
                return Err(IllegalMove::NotAMove);
            }
            return if self.can_pass() {
                Ok(())
            } else {
                Err(IllegalMove::CannotPass)
            };
        }
        let code = self.board[mv.from as usize];
        if code == 0 || owner(code) != self.side {
            return Err(IllegalMove::NoPieceToMove);
        }
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        if !pseudo.contains(mv) {
            return Err(IllegalMove::NotAMove);
        }
        let mut legal = MoveList::new();
        self.legal_moves_filtered(&mut legal, false);
        if legal.contains(mv) {
            Ok(())
        } else {
            Err(IllegalMove::LeavesKingInCheck)
        }
    }

    /// Parses a move in Fairy-Stockfish UCI form (`a4b4`, `b10c8`, pass `e2e2`) (not yet checked).
    pub fn parse_uci(&self, text: &str) -> Option<Move> {
        parse_board_move(text)
    }

    /// True when the move captures a piece.
    pub fn is_capture(&self, mv: Move) -> bool {
        !mv.is_pass() && self.board[mv.to as usize] != 0
    }

    /// KJA points on the board in half points, first player first, with Han's 1.5 included.
    pub fn scores(&self) -> Scores {
        let mut totals = [0i32; 2];
        for &code in self.board.iter() {
            if code != 0 {
                totals[owner(code).index()] += value_in_half_points(kind_of(code));
            }
        }
        Scores {
            first: totals[0],
            second: totals[1] + 3,
            halves: true,
        }
    }

    /// Gungjanggi bookkeeping after a move (the board is already updated): passes,
    /// bikjang calls and king promotion (rules 1–3), soldier and advisor promotion
    /// (rules 11–12), the judging phase and its endings (rules 5, 8–10).
    fn after_gungjanggi_move(
        &mut self,
        mv: Move,
        mover: Side,
        bikjang_before: bool,
        moving: u8,
        captured: u8,
        rules: GungjanggiRules,
    ) {
        let me = mover.index();
        if mv.is_pass() {
            if bikjang_before {
                // Rule 3: accepting the bikjang makes the position one to be judged, and
                // rule 9 sends an accepted bikjang straight to material (rule 10).
                self.start_judging();
                self.ended_by = Some(EndReason::Material);
                return;
            }
            self.gung.passes_in_row[me] = self.gung.passes_in_row[me].saturating_add(1);
        } else {
            self.gung.passes_in_row[me] = 0;
            if bikjang_before {
                // Rule 3: breaking the line promotes the breaker's king at once.
                self.gung.king_promoted[me] = true;
            } else if self.gung.king_promoted == [false; 2] && self.generals_face() {
                // Rule 2: this move calls bikjang (legality already refused a second call).
                self.gung.bikjang_called[me] = true;
            }
            if rules.dan {
                self.promote_in_dan(mv, mover, moving, captured);
            }
        }
        if !self.gung.judging {
            let quiet = self.halfmove >= rules.quiet_plies_to_judging;
            let only_kings_and_advisors = self
                .board
                .iter()
                .all(|&code| code == 0 || matches!(kind_of(code), kind::KING | kind::ADVISOR));
            if quiet || only_kings_and_advisors {
                self.start_judging();
            }
        } else {
            self.gung.judging_plies += 1;
        }
        if self.gung.judging && self.ended_by.is_none() {
            // Rule 9 (장군 승): the first check of the phase wins. A check given by the very
            // move that starts the phase counts: the position was already one to be judged.
            if self.in_check() {
                self.ended_by = Some(EndReason::FirstCheck);
            } else if self.gung.judging_plies >= rules.judging_plies {
                self.ended_by = Some(EndReason::Material);
            }
        }
    }

    /// Rules 11 and 12 (gungjanggi-dan): a soldier reaching the enemy back rank promotes;
    /// when either side has no soldier left, every advisor in a palace promotes.
    fn promote_in_dan(&mut self, mv: Move, mover: Side, moving: u8, captured: u8) {
        let back_rank = match mover {
            Side::First => 9,
            Side::Second => 0,
        };
        if kind_of(moving) == kind::SOLDIER && moving & PROMOTED == 0 && rank_of(mv.to) == back_rank
        {
            self.set_piece_code(mv.to, moving | PROMOTED);
        }
        if captured != 0 && kind_of(captured) == kind::SOLDIER {
            let soldiers_left = |side: Side| {
                self.board
                    .iter()
                    .filter(|&&code| {
                        code != 0 && owner(code) == side && kind_of(code) == kind::SOLDIER
                    })
                    .count()
            };
            if soldiers_left(Side::First) == 0 || soldiers_left(Side::Second) == 0 {
                for square in 0..90u8 {
                    let code = self.board[square as usize];
                    if code != 0
                        && kind_of(code) == kind::ADVISOR
                        && code & PROMOTED == 0
                        && TABLES.palace[owner(code).index()].contains(square)
                    {
                        self.set_piece_code(square, code | PROMOTED);
                    }
                }
            }
        }
    }

    fn set_piece_code(&mut self, square: u8, code: u8) {
        let old = self.board[square as usize];
        self.hash ^= zobrist::PIECE_SQUARE[old as usize][square as usize]
            ^ zobrist::PIECE_SQUARE[code as usize][square as usize];
        self.board[square as usize] = code;
    }

    /// Starts the gungjanggi judging phase (rule 8); both kings promote when neither has (rule 5).
    ///
    /// Called by the rules when a trigger is reached, and by the game when a draw offer is accepted.
    pub fn start_judging(&mut self) {
        if self.rules.gungjanggi.is_none() || self.gung.judging {
            return;
        }
        self.gung.judging = true;
        self.gung.judging_plies = 0;
        if self.gung.king_promoted == [false; 2] {
            self.gung.king_promoted = [true; 2];
        }
        if self.in_check() {
            // Promotion itself put the side to move in check: the side that just moved gave it.
            self.ended_by = Some(EndReason::FirstCheck);
        }
    }

    /// Gungjanggi material (rule 10): KJA values in `gungjanggi`, piece counts in
    /// `gungjanggi-dan`; kings not counted, no bonus for the second player.
    pub fn gungjanggi_material(&self) -> Scores {
        let dan = self.rules.gungjanggi.is_some_and(|g| g.dan);
        let mut totals = [0i32; 2];
        for &code in self.board.iter() {
            if code == 0 || kind_of(code) == kind::KING {
                continue;
            }
            totals[owner(code).index()] += if dan {
                1
            } else {
                value_in_half_points(kind_of(code)) / 2
            };
        }
        Scores {
            first: totals[0],
            second: totals[1],
            halves: false,
        }
    }
}

impl PieceMoves for JanggiPosition {
    type Tables = (&'static JanggiTables, &'static BoardTables);

    #[inline(always)]
    fn move_tables() -> Self::Tables {
        (&TABLES, &TABLES_9X10)
    }

    #[inline(always)]
    fn pieces_to_move(&self) -> u128 {
        self.occupied[self.side.index()]
    }

    #[inline(always)]
    fn piece_moves(
        &self,
        &(tables, board_tables): &Self::Tables,
        from: u8,
        ray_wanted: impl Fn(usize) -> bool,
        mut push: impl FnMut(Move),
    ) {
        let side = self.side;
        let own = self.occupied[side.index()];
        let target_ok = |to: u8| own & (1u128 << to) == 0;
        let code = self.board[from as usize];
        match kind_of(code) {
            _ if code & PROMOTED != 0 => {
                for &to in &tables.line_steps[from as usize] {
                    if target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
            kind::KING | kind::ADVISOR => {
                // Only within the own palace (an advisor placed elsewhere by a FEN may not move).
                let own_palace = tables.palace[side.index()];
                for &to in &tables.palace_steps[from as usize] {
                    if target_ok(to) && own_palace.contains(to) {
                        push(Move::new(from, to));
                    }
                }
            }
            kind::ELEPHANT => {
                for jump in &tables.elephant_jumps[from as usize] {
                    if self.board[jump.block as usize] == 0
                        && self.board[jump.block2 as usize] == 0
                        && target_ok(jump.target)
                    {
                        push(Move::new(from, jump.target));
                    }
                }
            }
            kind::HORSE => {
                for jump in &board_tables.horse_moves[from as usize] {
                    if self.board[jump.block as usize] == 0 && target_ok(jump.target) {
                        push(Move::new(from, jump.target));
                    }
                }
            }
            kind::CHARIOT => {
                let rays = board_tables.rays[from as usize]
                    .iter()
                    .chain(tables.diagonal_rays[from as usize].iter());
                for (index, ray) in rays.enumerate() {
                    if !ray_wanted(index) {
                        continue;
                    }
                    for &to in ray.as_slice() {
                        let target = self.board[to as usize];
                        if target == 0 {
                            push(Move::new(from, to));
                        } else {
                            if owner(target) != side {
                                push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
            kind::CANNON => {
                let rays = board_tables.rays[from as usize]
                    .iter()
                    .chain(tables.diagonal_rays[from as usize].iter());
                for (index, ray) in rays.enumerate() {
                    if !ray_wanted(index) {
                        continue;
                    }
                    let mut screened = false;
                    for &to in ray.as_slice() {
                        let target = self.board[to as usize];
                        if !screened {
                            if target != 0 {
                                if kind_of(target) == kind::CANNON {
                                    break;
                                }
                                screened = true;
                            }
                        } else if target == 0 {
                            push(Move::new(from, to));
                        } else {
                            if owner(target) != side && kind_of(target) != kind::CANNON {
                                push(Move::new(from, to));
                            }
                            break;
                        }
                    }
                }
            }
            _ => {
                for &to in &tables.soldier_steps[side.index()][from as usize] {
                    if target_ok(to) {
                        push(Move::new(from, to));
                    }
                }
            }
        }
    }
}

impl Position for JanggiPosition {
    #[inline]
    fn side_to_move(&self) -> Side {
        self.side
    }

    fn legal_moves(&self, moves: &mut MoveList) {
        self.legal_moves_filtered(moves, false);
    }

    #[inline]
    fn play_unchecked(&mut self, mv: Move) {
        let side = self.side;
        let gungjanggi = self.rules.gungjanggi;
        let bikjang_before = gungjanggi.is_some() && self.bikjang_pending();
        self.hash ^= zobrist::SECOND_TO_MOVE;
        if side == Side::Second {
            self.fullmove += 1;
        }
        if mv.is_pass() {
            if gungjanggi.is_none() {
                if self.bikjang_pending() {
                    self.ended_by = Some(EndReason::Bikjang);
                } else if self.previous_pass {
                    self.ended_by = Some(EndReason::DoublePass);
                }
            }
            self.previous_pass = true;
            self.side = side.opponent();
            self.halfmove += 1;
            if let Some(rules) = gungjanggi {
                self.after_gungjanggi_move(mv, side, bikjang_before, 0, 0, rules);
            }
            return;
        }
        self.previous_pass = false;
        self.side = side.opponent();
        let moving = self.board[mv.from as usize];
        let captured = self.board[mv.to as usize];
        let from_bit = 1u128 << mv.from;
        let to_bit = 1u128 << mv.to;
        self.hash ^= zobrist::PIECE_SQUARE[moving as usize][mv.from as usize]
            ^ zobrist::PIECE_SQUARE[moving as usize][mv.to as usize];
        if captured != 0 {
            self.hash ^= zobrist::PIECE_SQUARE[captured as usize][mv.to as usize];
            self.occupied[side.opponent().index()] &= !to_bit;
            self.halfmove = 0;
        } else {
            self.halfmove += 1;
        }
        self.occupied[side.index()] ^= from_bit | to_bit;
        self.board[mv.to as usize] = moving;
        self.board[mv.from as usize] = 0;
        if kind_of(moving) == kind::KING {
            self.kings[side.index()] = mv.to;
        }
        if let Some(rules) = gungjanggi {
            self.after_gungjanggi_move(mv, side, bikjang_before, moving, captured, rules);
        }
    }

    #[inline]
    fn in_check(&self) -> bool {
        self.is_king_attacked(self.side)
    }

    #[inline]
    fn hash(&self) -> u64 {
        if self.rules.gungjanggi.is_none() {
            return self.hash;
        }
        self.hash ^ self.king_state_key() ^ self.counter_state_key()
    }

    /// Gungjanggi repetition compares board, side to move and king states (rule 6), not
    /// the pass counters or bikjang calls.
    #[inline]
    fn repetition_key(&self) -> u64 {
        if self.rules.gungjanggi.is_none() {
            return self.hash;
        }
        self.hash ^ self.king_state_key()
    }

    fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    fn fen(&self) -> String {
        let mut fen = format!(
            "{} {} - - {} {}",
            write_placement(&self.board, 10, &|code| {
                if code & PROMOTED != 0 {
                    format!("+{}", piece_letter(code))
                } else {
                    piece_letter(code).to_string()
                }
            }),
            if self.side == Side::First { 'w' } else { 'b' },
            self.halfmove,
            self.fullmove
        );
        if self.rules.gungjanggi.is_some() {
            fen.push(' ');
            fen.push_str(&self.gung.to_field());
        }
        fen
    }

    fn move_to_uci(&self, mv: Move) -> String {
        board_move_name(mv)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position(fen: &str) -> JanggiPosition {
        JanggiPosition::from_fen(fen, JanggiRules::KJA).unwrap()
    }

    fn uci_moves(p: &JanggiPosition) -> Vec<String> {
        let mut moves = MoveList::new();
        p.legal_moves(&mut moves);
        let mut names: Vec<String> = moves.iter().map(|&m| p.move_to_uci(m)).collect();
        names.sort();
        names
    }

    #[test]
    fn start_position_perft_matches_fairy_stockfish() {
        let start = JanggiPosition::start(JanggiRules::KJA);
        assert_eq!(start.fen(), START_FEN);
        // Fairy-Stockfish 11.1: go perft 4 = 1065277.
        assert_eq!(start.perft(3), start.perft(3));
        assert_eq!(start.perft(4), 1_065_277);
    }

    // Generals facing on the e-file (bikjang). Cho must break the facing or pass:
    //   e10 k
    //   e2  K
    #[test]
    fn bikjang_must_be_answered_or_accepted() {
        let p = position("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1");
        assert_eq!(
            uci_moves(&p),
            ["e2d1", "e2d2", "e2d3", "e2e2", "e2f1", "e2f2", "e2f3"]
        );
        let modern =
            JanggiPosition::from_fen("4k4/9/9/9/9/9/9/9/4K4/9 w - - 0 1", JanggiRules::MODERN)
                .unwrap();
        assert_eq!(uci_moves(&modern).len(), 9);
    }

    // A cannon can neither jump over nor capture a cannon.
    //   e5 c (Han cannon), e4 C (Cho cannon), e3 P, e1 C
    #[test]
    fn cannon_never_jumps_or_takes_a_cannon() {
        let p = position("3k5/9/9/9/9/4c4/9/4P4/9/3K1C3 w - - 0 1");
        let cannon = square_at(5, 0);
        // f1 cannon: nothing to jump along the f-file.
        assert!(p.check_move(Move::new(cannon, square_at(5, 5))).is_err());
        let q = position("3k5/9/9/9/9/4c4/9/4C4/9/3K5 w - - 0 1");
        // e3 cannon may not jump the e5 cannon.
        assert!(q
            .check_move(Move::new(square_at(4, 2), square_at(4, 6)))
            .is_err());
    }

    // A piece on an elephant's way to the general is pinned, on either of the way's two
    // squares (Fairy-Stockfish 11.1 gives the same lists; `e2e2` is the pass).
    //   c5 b (Han elephant): c4, then d3, then the general on e2.
    #[test]
    fn a_piece_on_either_square_of_an_elephants_way_to_the_general_is_pinned() {
        // The chariot on d3, the way's second square, may not leave it.
        let second = position("3k5/9/9/9/9/2b6/9/3R5/4K4/9 w - - 0 1");
        assert_eq!(
            uci_moves(&second),
            ["e2d1", "e2d2", "e2e1", "e2e2", "e2e3", "e2f1", "e2f2"]
        );
        // The soldier on c4, the way's first square, may only take the elephant.
        let first = position("3k5/9/9/9/9/2b6/2P6/9/4K4/9 w - - 0 1");
        assert_eq!(
            uci_moves(&first),
            ["c4c5", "e2d1", "e2d2", "e2d3", "e2e1", "e2e2", "e2e3", "e2f1", "e2f2"]
        );
    }

    /// The perft positions of three janggi rule sets (KJA, modern, casual) and every
    /// position one move on.
    fn perft_positions_and_their_children() -> Vec<JanggiPosition> {
        let files = [
            (
                include_str!("../../tests/data/janggi.perft"),
                JanggiRules::KJA,
            ),
            (
                include_str!("../../tests/data/janggimodern.perft"),
                JanggiRules::MODERN,
            ),
            (
                include_str!("../../tests/data/janggicasual.perft"),
                JanggiRules::CASUAL,
            ),
        ];
        let mut positions = Vec::new();
        for (text, rules) in files {
            for fen in text.lines().filter_map(|line| line.strip_prefix("fen ")) {
                let root = JanggiPosition::from_fen(fen.trim(), rules).unwrap();
                let mut moves = MoveList::new();
                root.legal_moves(&mut moves);
                for &mv in moves.iter() {
                    let mut child = root.clone();
                    child.play_unchecked(mv);
                    positions.push(child);
                }
                positions.push(root);
            }
        }
        positions
    }

    #[test]
    fn gives_check_without_playing_agrees_with_playing_every_legal_move() {
        let mut moves_checked = 0;
        let mut checks = 0;
        let mut discovered = 0;
        for p in perft_positions_and_their_children() {
            if p.in_check() || p.is_king_attacked(p.side_to_move().opponent()) {
                continue;
            }
            let mut legal = MoveList::new();
            p.legal_moves(&mut legal);
            let king = p.kings[p.side_to_move().opponent().index()];
            for &mv in legal.iter() {
                let mut child = p.clone();
                child.play_unchecked(mv);
                assert_eq!(
                    p.gives_check(mv),
                    Some(child.in_check()),
                    "{} {}",
                    p.fen(),
                    p.move_to_uci(mv)
                );
                moves_checked += 1;
                if child.in_check() {
                    checks += 1;
                    if !mv.is_pass() && child.attacks_from(mv.to) & 1u128 << king == 0 {
                        discovered += 1;
                    }
                }
            }
        }
        assert!(moves_checked > 100_000, "{moves_checked} moves");
        assert!(checks > 2_000, "{checks} checks");
        assert!(discovered > 20, "{discovered} discovered checks");
    }

    #[test]
    fn gungjanggi_leaves_gives_check_to_playing_the_move() {
        let start = JanggiPosition::start(JanggiRules::GUNGJANGGI);
        let mut moves = MoveList::new();
        start.legal_moves(&mut moves);
        assert_eq!(start.gives_check(moves.as_slice()[0]), None);
    }

    // The palace diagonal f3–e2–d1 between a Han cannon or chariot on f3 and the Cho
    // general on d1 (lists as Fairy-Stockfish 11.1 gives them).
    #[test]
    fn a_palace_diagonal_carries_a_cannons_screen_and_a_chariots_pin() {
        // The advisor may not step to e2: it would be the cannon's screen.
        let cannon = position("5k3/9/9/9/9/9/9/5c3/9/3KA4 w - - 0 1");
        assert_eq!(uci_moves(&cannon), ["d1d1", "d1d2", "d1e2", "e1f1"]);
        // The advisor on e2 may only take the chariot along the diagonal.
        let chariot = position("5k3/9/9/9/9/9/9/5r3/4A4/3K5 w - - 0 1");
        assert_eq!(uci_moves(&chariot), ["d1d1", "d1d2", "d1e1", "e2f3"]);
    }
}
