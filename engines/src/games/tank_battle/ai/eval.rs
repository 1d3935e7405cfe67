//! Static evaluation, in centipoints (1/100 of a rule-8 score point), from
//! the side to move's point of view.
//!
//! The terms: the current score of each side (rule 8); for each tank not yet
//! in the opponent's base, how many slides it needs to get there over the
//! terrain (mines block everything, contaminated squares block normal
//! tanks); for each commander, how many slides to the opponent's commander
//! start; a small tempo bonus for the side to move; and, once one side is
//! down to its last few tanks against many more, how closely the many have
//! them confined (see [`HUNT`]).

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

/// The hunt. A side down to at most `prey` tanks, none of them its
/// commander, against at least `margin` more has lost, and the quickest way
/// to end the game is to take those tanks (rule 7: a side with no tanks left
/// is home). But a slider on an open board keeps out of any search's reach,
/// so the many earn `per_square` for each of the few's moves fewer than
/// `free` that lands on a square they do not attack: they close in, move by
/// move, until the capture is in sight and the search sees the win. Without
/// it the winning side banks its tanks in the enemy base while the last
/// enemy tanks run about, for fifty moves and more.
///
/// A commander is never hunted: it may stand on contaminated squares, where
/// nothing captures it, and the hunt would keep the many circling it instead
/// of ending the game by banking their tanks.
struct Hunt {
    prey: u32,
    margin: u32,
    free: u32,
    per_square: i32,
}

const HUNT: Hunt = Hunt {
    prey: 6,
    margin: 4,
    free: 40,
    per_square: 20,
};

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

    /// How closely `side` has the enemy confined, in centipoints: 0 unless
    /// the enemy is down to its last tanks (see [`HUNT`]).
    fn hunt(&self, pos: &Position, side: Side) -> i32 {
        let prey = pos.tanks(!side);
        let count = prey.count();
        if count == 0
            || count > HUNT.prey
            || (prey & pos.commanders()).any()
            || pos.tanks(side).count() < count + HUNT.margin
        {
            return 0;
        }
        let attacked = pos.attacked_by(&self.layout, side);
        let safe: u32 = pos
            .reach(&self.layout, !side)
            .map(|(_, to)| (to & !attacked).count())
            .sum();
        let confined = HUNT.free.saturating_sub(safe);
        HUNT.per_square
            .saturating_mul(i32::try_from(confined).unwrap_or(i32::MAX))
    }

    /// The evaluation from the side to move's point of view.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let us = pos.turn();
        self.side_value(pos, us) - self.side_value(pos, !us) + self.hunt(pos, us)
            - self.hunt(pos, !us)
            + TEMPO
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::Setup;
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

    /// White's tanks from a game between levels 8 and 2 (ply 47) and
    /// Black's last tank on `sq`, Black to move; `None` where a tank cannot
    /// stand.
    fn runner_on(sq: Square) -> Option<Position> {
        let mut setup: Setup = "3t7/11/11/11/8T2/11/10T/10T/10T/8T1T/T2T4TTC b 47"
            .parse()
            .ok()?;
        if setup.tanks[0].contains(sq) {
            return None;
        }
        setup.tanks[1] = Bitboard::from_square(sq);
        Position::from_setup(setup, &Layout::STANDARD).ok()
    }

    #[test]
    fn the_hunt_counts_the_runners_safe_moves_by_the_rules() {
        // Reference: a move of the runner is safe when, after it, no White
        // move captures on its square.
        let layout = Layout::STANDARD;
        let eval = Evaluator::new(&layout);
        let (mut checked, mut confined) = (0, 0);
        for sq in (0..121u8).filter_map(Square::new) {
            let Some(pos) = runner_on(sq) else { continue };
            let mut safe = 0u32;
            let mut ends = false;
            for mv in pos.legal_moves(&layout) {
                let mut after = pos;
                after.play_unchecked(mv);
                ends |= after.is_finished(&layout);
                let taken = after.legal_moves(&layout).iter().any(|w| w.to == mv.to);
                safe += u32::from(!taken);
            }
            if ends {
                // The runner could end the game at once (it reaches
                // White's base): the search's affair, not the hunt's.
                continue;
            }
            let expected = HUNT.per_square * HUNT.free.saturating_sub(safe) as i32;
            assert_eq!(eval.hunt(&pos, Side::White), expected, "runner on {sq}");
            assert_eq!(eval.hunt(&pos, Side::Black), 0, "runner on {sq}");
            checked += 1;
            confined += usize::from(expected > 0);
        }
        assert!(
            checked > 60 && confined > 10,
            "{checked} squares, {confined} confined"
        );
    }

    #[test]
    fn the_hunt_waits_for_the_last_few_tanks_and_spares_a_commander() {
        let layout = Layout::STANDARD;
        let eval = Evaluator::new(&layout);
        let pos = |tbn: &str| {
            let setup: Setup = tbn.parse().unwrap();
            Position::from_setup(setup, &layout).unwrap()
        };
        // Black's last tank on a6 against White's eleven: hunted.
        let one = pos("11/11/11/11/t10/11/11/9TT/8TTT/7TTTT/6TTTTC w 40");
        assert!(eval.hunt(&one, Side::White) > 0);
        // Seven black tanks: not yet.
        let seven = pos("5tttttt/11/11/11/t10/11/11/9TT/8TTT/7TTTT/6TTTTC w 40");
        assert_eq!(eval.hunt(&seven, Side::White), 0);
        // A lone commander (it can hide on contaminated squares): never.
        let commander = pos("11/11/11/11/c10/11/11/9TT/8TTT/7TTTT/6TTTTC w 40");
        assert_eq!(eval.hunt(&commander, Side::White), 0);
        // Three white tanks against one black: too few to hunt.
        let few = pos("11/11/11/11/t10/11/11/11/11/10T/8TTC w 40");
        assert_eq!(eval.hunt(&few, Side::White), 0);
    }

    #[test]
    fn initial_position_is_balanced_but_for_tempo() {
        let layout = Layout::STANDARD;
        let eval = Evaluator::new(&layout);
        assert_eq!(eval.evaluate(&Position::initial(&layout)), TEMPO);
    }
}
