//! Sliding moves on bitboards by the *obstruction difference* method.
//!
//! Each square lies on four lines (rank, file, diagonal, anti-diagonal).
//! With squares indexed `rank * 11 + file`, the part of a line "above" a
//! square (east, north, north-east, north-west) has higher indices and the
//! part "below" lower ones. Given the blockers on a line, the reachable
//! squares up to and including the nearest blocker on each side are
//! `line & (2 * lowest(upper blockers) - highest(lower blockers))`, a handful
//! of instructions per line with tables computed at compile time.

use super::bitboard::Bitboard;
use super::square::{Square, SIZE, SQUARES};

#[derive(Clone, Copy)]
struct LineMask {
    lower: u128,
    upper: u128,
    line: u128,
}

/// Steps (file, rank) whose positive direction increases the square index.
const UPPER_STEPS: [(i8, i8); 4] = [(1, 0), (0, 1), (1, 1), (-1, 1)];

const fn ray(sq: usize, df: i8, dr: i8) -> u128 {
    let mut bits = 0u128;
    let mut file = (sq % SIZE as usize) as i8 + df;
    let mut rank = (sq / SIZE as usize) as i8 + dr;
    while file >= 0 && file < SIZE as i8 && rank >= 0 && rank < SIZE as i8 {
        bits |= 1u128 << (rank as usize * SIZE as usize + file as usize);
        file += df;
        rank += dr;
    }
    bits
}

const fn build_masks() -> [[LineMask; 4]; SQUARES] {
    let empty = LineMask {
        lower: 0,
        upper: 0,
        line: 0,
    };
    let mut table = [[empty; 4]; SQUARES];
    let mut sq = 0;
    while sq < SQUARES {
        let mut l = 0;
        while l < 4 {
            let (df, dr) = UPPER_STEPS[l];
            let upper = ray(sq, df, dr);
            let lower = ray(sq, -df, -dr);
            table[sq][l] = LineMask {
                lower,
                upper,
                line: lower | upper,
            };
            l += 1;
        }
        sq += 1;
    }
    table
}

static MASKS: [[LineMask; 4]; SQUARES] = build_masks();

#[inline(always)]
fn line_attacks(occupied: u128, m: &LineMask) -> u128 {
    let lower = m.lower & occupied;
    let upper = m.upper & occupied;
    let highest_lower = u128::MAX << (127 - (lower | 1).leading_zeros());
    let lowest_upper = upper & upper.wrapping_neg();
    m.line & (lowest_upper << 1).wrapping_add(highest_lower)
}

/// Squares a slider on `sq` reaches in the 8 directions, stopping at (and
/// including) the first square of `blockers` in each direction.
#[inline]
pub fn slider_attacks(sq: Square, blockers: Bitboard) -> Bitboard {
    let masks = &MASKS[sq.index()];
    Bitboard(
        line_attacks(blockers.0, &masks[0])
            | line_attacks(blockers.0, &masks[1])
            | line_attacks(blockers.0, &masks[2])
            | line_attacks(blockers.0, &masks[3]),
    )
}

/// Squares of file a, and of file k.
const FILE_A: u128 = {
    let mut bits = 0u128;
    let mut rank = 0;
    while rank < SIZE as usize {
        bits |= 1 << (rank * SIZE as usize);
        rank += 1;
    }
    bits
};
const FILE_K: u128 = FILE_A << (SIZE - 1);
const BOARD: u128 = (1u128 << SQUARES) - 1;

/// The 8 directions as (index shift, squares a step may land on): a step
/// east lands on any file but a, a step north anywhere on the board, ….
const DIRECTIONS: [(i32, u128); 8] = [
    (1, BOARD & !FILE_A),
    (-1, BOARD & !FILE_K),
    (SIZE as i32, BOARD),
    (-(SIZE as i32), BOARD),
    (SIZE as i32 + 1, BOARD & !FILE_A),
    (SIZE as i32 - 1, BOARD & !FILE_K),
    (-(SIZE as i32) + 1, BOARD & !FILE_A),
    (-(SIZE as i32) - 1, BOARD & !FILE_K),
];

#[inline(always)]
fn step(bits: u128, shift: i32) -> u128 {
    if shift > 0 {
        bits << shift
    } else {
        bits >> -shift
    }
}

/// Kogge-Stone occluded fill: `sliders` extended through `empty` squares in
/// one direction, in 4 doubling steps (enough for 10 squares).
#[inline(always)]
fn occluded_fill(mut sliders: u128, empty: u128, shift: i32, landing: u128) -> u128 {
    let mut open = empty & landing;
    sliders |= open & step(sliders, shift);
    open &= step(open, shift);
    sliders |= open & step(sliders, 2 * shift);
    open &= step(open, 2 * shift);
    sliders |= open & step(sliders, 4 * shift);
    open &= step(open, 4 * shift);
    sliders | (open & step(sliders, 8 * shift))
}

/// The number of moves of all `sliders` together: in each direction, the
/// squares up to and including the first blocker, minus `forbidden`.
///
/// Exact because, in one direction, two sliders never reach the same
/// square: the nearer one blocks the farther (sliders must be blockers).
#[inline]
pub fn count_slider_moves(sliders: Bitboard, blockers: Bitboard, forbidden: Bitboard) -> u32 {
    let empty = !blockers.0 & BOARD;
    let allowed = !forbidden.0;
    DIRECTIONS
        .iter()
        .map(|&(shift, landing)| {
            let reach = step(occluded_fill(sliders.0, empty, shift, landing), shift) & landing;
            (reach & allowed).count_ones()
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Reference: walk each direction square by square.
    fn walk(sq: Square, blockers: Bitboard) -> Bitboard {
        let mut out = Bitboard::EMPTY;
        for (df, dr) in [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (1, 1),
            (-1, -1),
            (1, -1),
            (-1, 1),
        ] {
            let mut cur = sq;
            while let Some(next) = cur.offset(df, dr) {
                out.insert(next);
                if blockers.contains(next) {
                    break;
                }
                cur = next;
            }
        }
        out
    }

    #[test]
    fn empty_board_lines() {
        let a1 = Square::new(0).unwrap();
        assert_eq!(slider_attacks(a1, Bitboard::EMPTY).count(), 30);
        let f6 = "f6".parse().unwrap();
        assert_eq!(slider_attacks(f6, Bitboard::EMPTY).count(), 40);
    }

    proptest! {
        #[test]
        fn fills_count_what_per_square_attacks_count(sliders in any::<u128>(), others in any::<u128>(), forbidden in any::<u128>()) {
            let sliders = Bitboard(sliders) & Bitboard::FULL;
            let blockers = sliders | (Bitboard(others) & Bitboard::FULL);
            let forbidden = Bitboard(forbidden) & Bitboard::FULL;
            let expected: u32 = sliders
                .into_iter()
                .map(|sq| (slider_attacks(sq, blockers) & !forbidden).count())
                .sum();
            prop_assert_eq!(count_slider_moves(sliders, blockers, forbidden), expected);
        }

        #[test]
        fn matches_square_by_square_walk(index in 0u8..121, bits in any::<u128>()) {
            let sq = Square::new(index).unwrap();
            let blockers = Bitboard(bits) & Bitboard::FULL;
            prop_assert_eq!(slider_attacks(sq, blockers), walk(sq, blockers));
        }
    }
}
