//! The corpus's positions: seeded random games from the initial position
//! and seeded random placements, on the standard layout and another, and
//! the rules that shape each one's legal moves.

use std::collections::BTreeSet;

use rand::seq::IndexedRandom;
use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use super::tags::tag_of;
use crate::games::tank_battle::{
    Layout, Move, MoveText, Position, Side, Square, STANDARD_NAME, STANDARD_TEXT,
};

/// A layout other than the standard one: other mines, a smaller centre,
/// smaller bases.
pub(super) const OTHER_LAYOUT: &str = "Bbbb......./bbb....#.../bb.~~....../...~~..#.../..#......../....~~~..../........#../...#..~~.../......~~.ww/...#...wwww/.......wwwW";

/// A position and the layout it is played on (`None`: the standard one).
pub(super) struct Board {
    pub(super) position: Position,
    pub(super) layout: Layout,
    pub(super) layout_text: Option<&'static str>,
}

impl Board {
    pub(super) fn layout_field(&self) -> &'static str {
        self.layout_text.unwrap_or(STANDARD_NAME)
    }

    /// The rules that shape the legal moves of the side to move.
    pub(super) fn tags(&self) -> BTreeSet<&'static str> {
        let mut tags = BTreeSet::from(["slide"]);
        if self.layout_text.is_some() {
            tags.insert("layout");
        }
        if self.position.is_finished(&self.layout) {
            tags.insert("end");
            return tags;
        }
        for (from, to) in lines(&self.position) {
            match self.position.validate(&self.layout, MoveText { from, to }) {
                Ok(mv) => {
                    if mv.capture.is_some() {
                        tags.insert("capture");
                    }
                    if self.crosses_contaminated(mv) {
                        tags.insert("contaminated");
                    }
                    let mut next = self.position;
                    next.play_unchecked(mv);
                    if next.is_finished(&self.layout) {
                        tags.insert("end");
                    }
                }
                Err(illegal) => {
                    tags.insert(tag_of(illegal.reason));
                }
            }
        }
        tags
    }

    fn crosses_contaminated(&self, mv: Move) -> bool {
        let Some((df, dr)) = mv.from.direction_to(mv.to) else {
            return false;
        };
        let mut square = mv.from;
        while square != mv.to {
            match square.offset(df, dr) {
                Some(next) => square = next,
                None => return false,
            }
            if self.layout.contaminated().contains(square) {
                return true;
            }
        }
        false
    }
}

/// Every line from a tank of the side to move: 8 directions, 1..10
/// squares, on the board.
pub(super) fn lines(position: &Position) -> Vec<(Square, Square)> {
    let mut lines = Vec::new();
    for from in Square::all() {
        if position
            .piece_at(from)
            .is_none_or(|p| p.side != position.turn())
        {
            continue;
        }
        for (df, dr) in DIRECTIONS {
            let mut square = from;
            while let Some(next) = square.offset(df, dr) {
                lines.push((from, next));
                square = next;
            }
        }
    }
    lines
}

const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The positions of the corpus, from seeded random games and random
/// placements, on the standard layout and on [`OTHER_LAYOUT`].
pub(super) fn boards(rng: &mut ChaCha8Rng) -> Vec<Board> {
    let mut boards = Vec::new();
    for layout_text in [None, Some(OTHER_LAYOUT)] {
        let Ok(layout) = Layout::parse(layout_text.unwrap_or(STANDARD_TEXT)) else {
            continue;
        };
        let (games, placements) = if layout_text.is_none() {
            (6, 30)
        } else {
            (2, 12)
        };
        for _ in 0..games {
            let mut position = Position::initial(&layout);
            for ply in 0..240 {
                if ply % 40 == 17 {
                    boards.push(Board {
                        position,
                        layout,
                        layout_text,
                    });
                }
                let moves = position.legal_moves(&layout);
                let Some(&mv) = moves.choose(rng) else {
                    break;
                };
                position.play_unchecked(mv);
            }
        }
        let mut made = 0;
        while made < placements {
            let placing = match made % 6 {
                1 => Placing::Home(Side::White),
                3 => Placing::Centre,
                4 => Placing::Home(Side::Black),
                _ => Placing::Anywhere,
            };
            if let Some(position) = placement(rng, &layout, placing) {
                boards.push(Board {
                    position,
                    layout,
                    layout_text,
                });
                made += 1;
            }
        }
    }
    boards.extend(boxed());
    boards
}

/// A layout whose corner `a1` is shut in by mines: a normal tank there has
/// no move.
const BOXED_LAYOUT: &str =
    "B........../.........../.........../.........../.........../.........../.........../.........../.........../##........./.#.......wW";

/// Games that end because the side to move has no legal move (rule 6's
/// second half, which random play hardly reaches): White's last tank shut
/// in at `a1` against one Black tank (a draw, 1-1) or two (Black wins);
/// and Black's shut in, White to move: every White move ends the game,
/// drawn unless it reaches Black's base.
fn boxed() -> Vec<Board> {
    let Ok(layout) = Layout::parse(BOXED_LAYOUT) else {
        return Vec::new();
    };
    [
        "11/11/11/11/11/5t5/11/11/11/11/T10 w 30",
        "11/11/11/11/11/5t5/11/3t7/11/11/T10 w 31",
        "11/11/11/11/11/5T5/11/11/11/11/t10 w 32",
        "11/11/1T9/11/11/11/11/11/11/11/t10 w 33",
    ]
    .into_iter()
    .filter_map(|tbn| Position::from_setup(tbn.parse().ok()?, &layout).ok())
    .map(|position| Board {
        position,
        layout,
        layout_text: Some(BOXED_LAYOUT),
    })
    .collect()
}

/// How a random placement places its tanks.
#[derive(Clone, Copy)]
pub(super) enum Placing {
    /// Anywhere a tank may stand.
    Anywhere,
    /// One side's tanks all in the other's base: a finished game.
    Home(Side),
    /// Both commanders in the contaminated centre.
    Centre,
    /// A commander and one or two tanks a side, anywhere.
    Sparse,
}

/// A random placement: a commander and a few tanks a side, placed as
/// `placing` says on squares they may stand on; `None` when the draw
/// breaks an invariant.
pub(super) fn placement(
    rng: &mut ChaCha8Rng,
    layout: &Layout,
    placing: Placing,
) -> Option<Position> {
    let mut cells = [None::<char>; 121];
    for side in Side::ALL {
        let [commander, tank] = match side {
            Side::White => ['C', 'T'],
            Side::Black => ['c', 't'],
        };
        let home = matches!(placing, Placing::Home(s) if s == side);
        let tanks = if home || matches!(placing, Placing::Sparse) {
            rng.random_range(0..3)
        } else {
            rng.random_range(1..8)
        };
        for (i, letter) in std::iter::once(commander)
            .chain(std::iter::repeat_n(tank, tanks))
            .enumerate()
        {
            let is_commander = i == 0;
            let candidates: Vec<Square> = Square::all()
                .filter(|&square| {
                    let free = cells.get(square.index()).is_some_and(Option::is_none);
                    let contaminated = layout.contaminated().contains(square);
                    let allowed =
                        free && !layout.mines().contains(square) && (is_commander || !contaminated);
                    match placing {
                        _ if !allowed => false,
                        Placing::Home(_) if home => layout.base(!side).contains(square),
                        Placing::Centre if is_commander => contaminated,
                        _ => true,
                    }
                })
                .collect();
            let square = *candidates.choose(rng)?;
            if let Some(cell) = cells.get_mut(square.index()) {
                *cell = Some(letter);
            }
        }
    }
    let mut placement = String::new();
    for rank in (0..11u8).rev() {
        let mut empty = 0;
        for file in 0..11u8 {
            let square = Square::from_coords(file, rank)?;
            match cells.get(square.index()).copied().flatten() {
                Some(letter) => {
                    if empty > 0 {
                        placement.push_str(&empty.to_string());
                        empty = 0;
                    }
                    placement.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            placement.push_str(&empty.to_string());
        }
        if rank > 0 {
            placement.push('/');
        }
    }
    let side = if rng.random_bool(0.5) { 'w' } else { 'b' };
    let ply = rng.random_range(0..200u32);
    let setup = format!("{placement} {side} {ply}").parse().ok()?;
    Position::from_setup(setup, layout).ok()
}
