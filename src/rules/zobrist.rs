//! Zobrist keys: fixed pseudo-random numbers, the same on every run and machine,
//! so hashes can key repetition histories and transposition tables.

/// One step of splitmix64: a small, well-mixed generator usable in `const` code.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_14EB);
    (state, z ^ (z >> 31))
}

/// Piece codes hashed per square (a code is below 32 in every game).
pub const PIECE_CODES: usize = 32;
/// Squares hashed (the largest board has 90).
pub const SQUARES: usize = 90;

const fn build_piece_keys() -> [[u64; SQUARES]; PIECE_CODES] {
    let mut keys = [[0u64; SQUARES]; PIECE_CODES];
    let mut state = 0x5149_5041_4E00_0001u64; // "QIPAN"
    let mut piece = 0;
    while piece < PIECE_CODES {
        let mut square = 0;
        while square < SQUARES {
            let (next, value) = splitmix(state);
            state = next;
            keys[piece][square] = value;
            square += 1;
        }
        piece += 1;
    }
    keys
}

/// `PIECE_SQUARE[piece code][square]`.
pub static PIECE_SQUARE: [[u64; SQUARES]; PIECE_CODES] = build_piece_keys();

const fn build_hand_keys() -> [[[u64; 20]; 8]; 2] {
    let mut keys = [[[0u64; 20]; 8]; 2];
    let mut state = 0x4841_4E44_0000_0002u64; // "HAND"
    let mut side = 0;
    while side < 2 {
        let mut kind = 0;
        while kind < 8 {
            let mut count = 0;
            while count < 20 {
                let (next, value) = splitmix(state);
                state = next;
                keys[side][kind][count] = value;
                count += 1;
            }
            kind += 1;
        }
        side += 1;
    }
    keys
}

/// `HAND[side][kind][count]`: XORed in for the count of each piece kind in hand.
pub static HAND: [[[u64; 20]; 8]; 2] = build_hand_keys();

/// XORed in when the second player is to move.
pub const SECOND_TO_MOVE: u64 = 0xA1B2_C3D4_E5F6_0718;

const fn build_state_keys() -> [u64; 64] {
    let mut keys = [0u64; 64];
    let mut state = 0x5354_4154_4500_0003u64; // "STATE"
    let mut index = 0;
    while index < 64 {
        let (next, value) = splitmix(state);
        state = next;
        keys[index] = value;
        index += 1;
    }
    keys
}

/// Keys for extra game state bits (janggi passes, gungjanggi king promotion, …).
pub static STATE: [u64; 64] = build_state_keys();
