//! Static evaluation, in centipoints (1/100 of a rule-8 score point), from
//! the side to move's point of view.
//!
//! The terms: the current score of each side (rule 8); for each tank not yet
//! in the opponent's base, how many slides it needs to get there over the
//! terrain (mines block everything, contaminated squares block normal
//! tanks); for each commander, how many slides to the opponent's commander
//! start; and a small tempo bonus for the side to move.

use super::super::attacks::slider_attacks;
use super::super::{Bitboard, Layout, Position, Side, Square};

/// One score point.
pub const POINT: i32 = 100;
/// Bonus of a normal tank by its distance (in slides) to the enemy base.
const TANK_APPROACH: [i32; 8] = [0, 40, 22, 11, 5, 2, 1, 0];
/// Bonus of a commander outside the enemy base by its distance to the
/// enemy commander start.
const COMMANDER_APPROACH: [i32; 8] = [0, 45, 25, 12, 6, 3, 1, 0];
/// Bonus of a commander in the enemy base that can still reach the start.
const COMMANDER_NEAR_START: i32 = 30;
const TEMPO: i32 = 8;
const UNREACHABLE: u8 = u8::MAX;

/// Distance tables of one layout.
pub struct Evaluator {
    /// [side][is commander][square]: slides to the opponent's base.
    to_base: [[[u8; 121]; 2]; 2],
    /// [side][square]: slides of the commander to the opponent's commander
    /// start.
    to_start: [[u8; 121]; 2],
    layout: Layout,
}

/// Slides needed from each square to reach `targets`, moving through
/// squares outside `walls`, on an empty board.
fn distances(targets: Bitboard, walls: Bitboard) -> [u8; 121] {
    let mut dist = [UNREACHABLE; 121];
    let mut frontier = targets;
    let mut seen = targets;
    for sq in targets {
        if let Some(d) = dist.get_mut(sq.index()) {
            *d = 0;
        }
    }
    let mut level = 0u8;
    while frontier.any() && level < UNREACHABLE - 1 {
        level += 1;
        let mut next = Bitboard::EMPTY;
        for sq in frontier {
            // Slides are reversible on an empty board: the squares that
            // reach `sq` in one slide are those `sq` reaches.
            next |= slider_attacks(sq, walls) & !walls & !seen;
        }
        for sq in next {
            if let Some(d) = dist.get_mut(sq.index()) {
                *d = level;
            }
        }
        seen |= next;
        frontier = next;
    }
    dist
}

impl Evaluator {
    pub fn new(layout: &Layout) -> Evaluator {
        let mines = layout.mines();
        let tank_walls = mines | layout.contaminated();
        let table = |side: Side| {
            let base = layout.base(!side);
            [distances(base, tank_walls), distances(base, mines)]
        };
        let start =
            |side: Side| distances(Bitboard::from_square(layout.commander_start(!side)), mines);
        Evaluator {
            to_base: [table(Side::White), table(Side::Black)],
            to_start: [start(Side::White), start(Side::Black)],
            layout: *layout,
        }
    }

    fn approach(table: &[i32; 8], dist: u8) -> i32 {
        table.get(usize::from(dist)).copied().unwrap_or(0)
    }

    /// `side`'s material, score and progress, in centipoints.
    fn side_value(&self, pos: &Position, side: Side) -> i32 {
        let s = side.index();
        let enemy_base = self.layout.base(!side);
        let enemy_start = self.layout.commander_start(!side);
        let tanks = pos.tanks(side);
        let commanders = tanks & pos.commanders();
        let mut value = 0;
        for sq in tanks & !pos.commanders() {
            if enemy_base.contains(sq) {
                value += 2 * POINT;
            } else {
                value += POINT + Self::approach(&TANK_APPROACH, self.dist(&self.to_base[s][0], sq));
            }
        }
        for sq in commanders {
            if sq == enemy_start {
                value += 3 * POINT;
            } else if enemy_base.contains(sq) {
                value += 2 * POINT;
                if self.dist(&self.to_start[s], sq) != UNREACHABLE {
                    value += COMMANDER_NEAR_START;
                }
            } else {
                value +=
                    POINT + Self::approach(&COMMANDER_APPROACH, self.dist(&self.to_start[s], sq));
            }
        }
        value
    }

    fn dist(&self, table: &[u8; 121], sq: Square) -> u8 {
        table.get(sq.index()).copied().unwrap_or(UNREACHABLE)
    }

    /// The evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.turn();
        self.side_value(pos, us) - self.side_value(pos, !us) + TEMPO
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances_follow_the_terrain() {
        let layout = Layout::STANDARD;
        let eval = Evaluator::new(&layout);
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let white_tank = &eval.to_base[0][0];
        // In Black's base already; one slide up the a-file from a5.
        assert_eq!(white_tank[sq("a8").index()], 0);
        assert_eq!(white_tank[sq("a5").index()], 1);
        // The white start corner needs several slides.
        assert!(white_tank[sq("k1").index()] >= 2);
        // Mines are unreachable; contaminated squares are for commanders.
        assert_eq!(white_tank[sq("d8").index()], UNREACHABLE);
        assert_eq!(white_tank[sq("f6").index()], UNREACHABLE);
        assert_ne!(eval.to_base[0][1][sq("f6").index()], UNREACHABLE);
        assert_eq!(eval.to_start[0][sq("a11").index()], 0);
    }

    #[test]
    fn initial_position_is_balanced_but_for_tempo() {
        let layout = Layout::STANDARD;
        let eval = Evaluator::new(&layout);
        assert_eq!(eval.evaluate(&Position::initial(&layout)), TEMPO);
    }
}
