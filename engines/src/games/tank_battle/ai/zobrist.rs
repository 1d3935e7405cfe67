//! Zobrist hashing of positions (tanks and side to move; the ply and the
//! layout are the same throughout one search).

use super::super::{Position, Side, Square};

const fn splitmix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Keys for [side][is commander][square].
const fn build_keys() -> [[[u64; 121]; 2]; 2] {
    let mut keys = [[[0u64; 121]; 2]; 2];
    let mut n = 0u64;
    let mut side = 0;
    while side < 2 {
        let mut role = 0;
        while role < 2 {
            let mut sq = 0;
            while sq < 121 {
                n += 1;
                keys[side][role][sq] = splitmix(n);
                sq += 1;
            }
            role += 1;
        }
        side += 1;
    }
    keys
}

static KEYS: [[[u64; 121]; 2]; 2] = build_keys();
const BLACK_TO_MOVE: u64 = splitmix(0xB1AC_C0DE);

/// The key of one piece on one square.
#[inline]
pub fn piece_key(side: Side, commander: bool, sq: Square) -> u64 {
    KEYS[side.index()][usize::from(commander)][sq.index()]
}

/// The key of a position's ply, for a search under a ply limit (where the
/// same tanks are worth what the plies left make them).
pub fn ply_key(ply: u64) -> u64 {
    splitmix(ply ^ 0x0050_4C59_0000_0000)
}

/// The Zobrist key of `pos`.
pub fn hash(pos: &Position) -> u64 {
    let mut key = if pos.turn() == Side::Black {
        BLACK_TO_MOVE
    } else {
        0
    };
    for side in Side::ALL {
        let tanks = pos.tanks(side);
        for sq in tanks & !pos.commanders() {
            key ^= piece_key(side, false, sq);
        }
        for sq in tanks & pos.commanders() {
            key ^= piece_key(side, true, sq);
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::super::super::{Layout, MoveText, Position};
    use super::*;

    #[test]
    fn keys_are_distinct_and_positions_hash_by_content() {
        let mut all: Vec<u64> = KEYS.iter().flatten().flatten().copied().collect();
        all.push(BLACK_TO_MOVE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);

        let layout = Layout::STANDARD;
        let start = Position::initial(&layout);
        let play = |pos: &Position, mv: &str| {
            pos.play(&layout, mv.parse::<MoveText>().unwrap())
                .unwrap()
                .0
        };
        // The same position reached by two move orders has the same key.
        let a = play(&play(&play(&start, "k4-k5"), "a8-a7"), "j4-j5");
        let b = play(&play(&play(&start, "j4-j5"), "a8-a7"), "k4-k5");
        assert_eq!(hash(&a), hash(&b));
        assert_ne!(hash(&a), hash(&start));
        assert_ne!(hash(&play(&start, "k4-k5")), hash(&start));
    }
}
