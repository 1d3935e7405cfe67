//! Legal move generation on bitboards.
//!
//! For each tank of the side to move, the squares it may reach are the
//! slider attacks through the *blockers* (terrain it may not pass plus every
//! tank), minus the squares it may not *enter* (that terrain, own tanks and
//! enemy tanks on contaminated squares). Tanks standing in the enemy base
//! treat every square outside that base as terrain they may not pass.

use super::attacks::{count_slider_moves, slider_attacks};
use super::bitboard::Bitboard;
use super::layout::Layout;
use super::moves::Move;
use super::piece::Role;
use super::position::Position;
use super::side::Side;
use super::square::Square;

/// Per-node masks shared by all tanks of the side to move.
struct Masks {
    own: Bitboard,
    enemy: Bitboard,
    commanders: Bitboard,
    enemy_base: Bitboard,
    /// Terrain a free normal tank may not pass, plus all tanks.
    tank_blockers: Bitboard,
    tank_forbidden: Bitboard,
    commander_blockers: Bitboard,
    commander_forbidden: Bitboard,
    locked_blockers: Bitboard,
    locked_forbidden: Bitboard,
}

impl Masks {
    #[inline]
    fn new(pos: &Position, layout: &Layout) -> Masks {
        Masks::of(pos, layout, pos.turn(), Bitboard::EMPTY)
    }

    /// The masks of `us` (to move or not), with the tanks on `absent` taken
    /// off the board.
    #[inline]
    fn of(pos: &Position, layout: &Layout, us: Side, absent: Bitboard) -> Masks {
        let own = pos.tanks(us) & !absent;
        let enemy = pos.tanks(!us) & !absent;
        let occupied = own | enemy;
        let mines = layout.mines();
        let contaminated = layout.contaminated();
        let enemy_base = layout.base(!us);
        let never = own | (enemy & contaminated);
        Masks {
            own,
            enemy,
            commanders: pos.commanders(),
            enemy_base,
            tank_blockers: occupied | mines | contaminated,
            tank_forbidden: never | mines | contaminated,
            commander_blockers: occupied | mines,
            commander_forbidden: never | mines,
            locked_blockers: occupied | !enemy_base,
            locked_forbidden: own | !enemy_base,
        }
    }

    /// The move from `from` to one of its targets.
    #[inline(always)]
    fn make_move(&self, from: Square, to: Square) -> Move {
        let capture = self.enemy.contains(to).then(|| {
            if self.commanders.contains(to) {
                Role::Commander
            } else {
                Role::Tank
            }
        });
        Move { from, to, capture }
    }

    /// The blockers and forbidden squares of the tank on `from`.
    #[inline(always)]
    fn rules(&self, from: Square) -> (Bitboard, Bitboard) {
        if self.enemy_base.contains(from) {
            (self.locked_blockers, self.locked_forbidden)
        } else if self.commanders.contains(from) {
            (self.commander_blockers, self.commander_forbidden)
        } else {
            (self.tank_blockers, self.tank_forbidden)
        }
    }

    /// The squares the tank on `from` may move to.
    #[inline(always)]
    fn targets(&self, from: Square) -> Bitboard {
        let (blockers, forbidden) = self.rules(from);
        Bitboard(slider_attacks(from, blockers).0 & !forbidden.0)
    }

    /// The squares the tank on `from` could capture on: its targets and the
    /// squares of the own tanks it guards.
    #[inline]
    fn guards(&self, from: Square) -> Bitboard {
        let (blockers, forbidden) = self.rules(from);
        Bitboard(slider_attacks(from, blockers).0 & !(forbidden.0 & !self.own.0))
    }
}

impl Position {
    /// The legal moves, in generation order (by `from` index, then `to`
    /// index). Empty when the game is over.
    pub fn legal_moves(&self, layout: &Layout) -> Vec<Move> {
        let mut moves = Vec::with_capacity(64);
        self.legal_moves_into(layout, &mut moves);
        moves
    }

    /// Appends the legal moves to `out` (see [`Position::legal_moves`]).
    pub fn legal_moves_into(&self, layout: &Layout, out: &mut Vec<Move>) {
        if self.a_side_is_home(layout) {
            return;
        }
        let masks = Masks::new(self, layout);
        for from in masks.own {
            for to in masks.targets(from) {
                out.push(masks.make_move(from, to));
            }
        }
    }

    /// Whether the side to move has a legal move (the game not over and a
    /// tank with somewhere to go): `!legal_moves().is_empty()`, without
    /// listing them.
    #[inline]
    pub fn has_legal_move(&self, layout: &Layout) -> bool {
        !self.a_side_is_home(layout) && self.can_move(layout)
    }

    /// Appends the legal captures to `out`, in generation order (the
    /// captures of [`Position::legal_moves`], in its order), only those
    /// landing on `on` when it is given. The search's quiescence looks at
    /// captures alone at most of its nodes: listing every move there to
    /// keep the captures was most of its time.
    pub fn legal_captures_into(&self, layout: &Layout, on: Option<Square>, out: &mut Vec<Move>) {
        if self.a_side_is_home(layout) {
            return;
        }
        let masks = Masks::new(self, layout);
        let victims = match on {
            Some(square) => masks.enemy & Bitboard::from_square(square),
            None => masks.enemy,
        };
        if victims.is_empty() {
            return;
        }
        for from in masks.own {
            for to in masks.targets(from) & victims {
                out.push(masks.make_move(from, to));
            }
        }
    }

    /// The legal moves sorted by `from`, then `to`, each square by file and
    /// then rank (the order of the HTTP API). Empty when the game is over.
    pub fn legal_moves_file_major(&self, layout: &Layout) -> Vec<Move> {
        let mut out = Vec::with_capacity(64);
        if self.a_side_is_home(layout) {
            return out;
        }
        let masks = Masks::new(self, layout);
        for from in masks.own.file_major() {
            let targets = masks.targets(from);
            if (targets & masks.enemy).is_empty() {
                // No capture among them (the usual case): no square to test.
                let quiet = |to| Move {
                    from,
                    to,
                    capture: None,
                };
                out.extend(targets.file_major().map(quiet));
            } else {
                out.extend(targets.file_major().map(|to| masks.make_move(from, to)));
            }
        }
        out
    }

    /// The legal moves of the tank on `from` (empty if it is not a tank of
    /// the side to move, or the game is over).
    pub fn legal_moves_from(&self, layout: &Layout, from: Square) -> Vec<Move> {
        let mut moves = self.legal_moves(layout);
        moves.retain(|mv| mv.from == from);
        moves
    }

    /// The number of legal moves (0 when the game is over), without
    /// listing them: tanks that share blockers are counted together.
    #[inline]
    pub fn count_legal_moves(&self, layout: &Layout) -> u64 {
        if self.a_side_is_home(layout) {
            return 0;
        }
        let m = Masks::new(self, layout);
        let locked = m.own & m.enemy_base;
        let free = m.own & !m.enemy_base;
        let mut count = count_slider_moves(free & !m.commanders, m.tank_blockers, m.tank_forbidden);
        for commander in free & m.commanders {
            count += (m.targets(commander)).count();
        }
        if locked.any() {
            count += count_slider_moves(locked, m.locked_blockers, m.locked_forbidden);
        }
        u64::from(count)
    }

    /// The squares where `side`'s tanks could capture an enemy tank if one
    /// stood there, the enemy's tanks taken off the board: an enemy tank
    /// that slides to one of these squares (along an attacker's line, or
    /// taking a guarded tank) can be taken next move. Contaminated squares
    /// are never among them (rule 5).
    pub(crate) fn attacked_by(&self, layout: &Layout, side: Side) -> Bitboard {
        let masks = Masks::of(self, layout, side, self.tanks(!side));
        let reach = masks
            .own
            .into_iter()
            .fold(Bitboard::EMPTY, |acc, from| acc | masks.guards(from));
        reach & !layout.contaminated()
    }

    /// Each of `side`'s tanks with the squares it could move to were it
    /// `side`'s turn (rule 7's first condition ignored).
    pub(crate) fn reach(
        &self,
        layout: &Layout,
        side: Side,
    ) -> impl Iterator<Item = (Square, Bitboard)> {
        let masks = Masks::of(self, layout, side, Bitboard::EMPTY);
        masks
            .own
            .into_iter()
            .map(move |from| (from, masks.targets(from)))
    }

    /// Whether the side to move has any move, ignoring rule 7's first
    /// condition.
    pub(crate) fn can_move(&self, layout: &Layout) -> bool {
        let masks = Masks::new(self, layout);
        masks.own.into_iter().any(|from| masks.targets(from).any())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Walks 200 random games of at most 150 plies from the start (each
    /// move drawn from the list `visit` answers for its position, a
    /// xorshift's choice from `seed`), and asserts that they met over
    /// 10,000 positions and 1,000 captures (`visit` counts those it saw).
    fn random_games(mut seed: u64, mut visit: impl FnMut(&Position) -> (Vec<Move>, usize)) {
        let layout = Layout::STANDARD;
        let (mut positions, mut captures) = (0, 0);
        for _ in 0..200 {
            let mut pos = Position::initial(&layout);
            for _ in 0..150 {
                let (moves, seen) = visit(&pos);
                positions += 1;
                captures += seen;
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let Some(&mv) = moves.get(seed as usize % moves.len().max(1)) else {
                    break;
                };
                pos.play_unchecked(mv);
            }
        }
        assert!(
            positions > 10_000 && captures > 1_000,
            "{positions} {captures}"
        );
    }

    /// The captures listed alone are the legal moves' captures in their
    /// order (those on one square too), and a side has a move exactly
    /// when the legal moves are not empty, in positions of random games.
    #[test]
    fn captures_alone_are_the_legal_moves_captures() {
        let layout = Layout::STANDARD;
        random_games(0x9E37_79B9_7F4A_7C15, |pos| {
            let legal = pos.legal_moves(&layout);
            assert_eq!(pos.has_legal_move(&layout), !legal.is_empty());
            let expected: Vec<Move> = legal.iter().copied().filter(|m| m.is_capture()).collect();
            let mut listed = Vec::new();
            pos.legal_captures_into(&layout, None, &mut listed);
            assert_eq!(listed, expected, "{}", pos.to_setup());
            for on in expected.iter().map(|m| m.to) {
                let mut alone = Vec::new();
                pos.legal_captures_into(&layout, Some(on), &mut alone);
                let there: Vec<Move> = expected.iter().copied().filter(|m| m.to == on).collect();
                assert_eq!(alone, there, "{}", pos.to_setup());
            }
            (legal, listed.len())
        });
    }

    /// The API's order is the generation order sorted by file-major keys,
    /// in positions of random games (captures, locked tanks and ends among
    /// them).
    #[test]
    fn file_major_listing_is_the_legal_moves_sorted() {
        let layout = Layout::STANDARD;
        random_games(0x2545_F491_4F6C_DD1D, |pos| {
            let mut expected = pos.legal_moves(&layout);
            expected.sort_by_key(|mv| (mv.from.file_major_key(), mv.to.file_major_key()));
            let listed = pos.legal_moves_file_major(&layout);
            assert_eq!(listed, expected, "{}", pos.to_setup());
            let captures = listed.iter().filter(|mv| mv.capture.is_some()).count();
            (expected, captures)
        });
    }
}
