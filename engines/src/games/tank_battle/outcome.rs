//! End of the game (rule 7) and the score (rule 8).

use serde::Serialize;

use super::layout::Layout;
use super::position::Position;
use super::side::Side;

/// Points of one side, by source; they add up to its score.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct SideScore {
    /// 3 when its commander stands on the opponent's commander start.
    pub commander_on_start: u32,
    /// 2 when its commander stands elsewhere in the opponent's base.
    pub commander_in_base: u32,
    /// 2 for each normal tank in the opponent's base.
    pub tanks_in_base: u32,
    /// 1 for each other surviving tank, commander included.
    pub tanks_on_field: u32,
}

impl SideScore {
    pub const fn total(&self) -> u32 {
        self.commander_on_start + self.commander_in_base + self.tanks_in_base + self.tanks_on_field
    }
}

/// Both sides' current score.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize)]
pub struct Score {
    pub white: SideScore,
    pub black: SideScore,
}

impl Score {
    pub const fn side(&self, side: Side) -> &SideScore {
        match side {
            Side::White => &self.white,
            Side::Black => &self.black,
        }
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    Winner(Side),
    Draw,
}

impl Outcome {
    pub const fn winner(self) -> Option<Side> {
        match self {
            Outcome::Winner(side) => Some(side),
            Outcome::Draw => None,
        }
    }
}

impl Position {
    /// Rule 7: a side has all its remaining tanks in the opponent's base,
    /// or the side to move has no legal move.
    pub fn is_finished(&self, layout: &Layout) -> bool {
        self.a_side_is_home(layout) || !self.can_move(layout)
    }

    /// The result when the game is over (under the rules as written),
    /// `None` while it goes on.
    pub fn outcome(&self, layout: &Layout) -> Option<Outcome> {
        self.is_finished(layout).then(|| self.decided(layout))
    }

    /// The result if the game ended here, whatever ended it: the higher
    /// score wins (rule 7).
    pub fn decided(&self, layout: &Layout) -> Outcome {
        let score = self.score(layout);
        let (white, black) = (score.white.total(), score.black.total());
        match white.cmp(&black) {
            std::cmp::Ordering::Greater => Outcome::Winner(Side::White),
            std::cmp::Ordering::Less => Outcome::Winner(Side::Black),
            std::cmp::Ordering::Equal => Outcome::Draw,
        }
    }

    /// The current score (rule 8), computable at any time.
    pub fn score(&self, layout: &Layout) -> Score {
        let side_score = |side: Side| {
            let tanks = self.tanks(side);
            let commander = tanks & self.commanders();
            let normal = tanks & !self.commanders();
            let enemy_base = layout.base(!side);
            let on_start = commander.contains(layout.commander_start(!side));
            SideScore {
                commander_on_start: if on_start { 3 } else { 0 },
                commander_in_base: if !on_start && (commander & enemy_base).any() {
                    2
                } else {
                    0
                },
                tanks_in_base: 2 * (normal & enemy_base).count(),
                tanks_on_field: (tanks & !enemy_base).count(),
            }
        };
        Score {
            white: side_score(Side::White),
            black: side_score(Side::Black),
        }
    }
}
