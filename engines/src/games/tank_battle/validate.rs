//! Checking one move against the rules, with the first reason it breaks
//! (docs/TANK-BATTLE.md, "Rules as implemented"). This walks the path square by square; it is the reference
//! that the bitboard generator is tested against.

use super::error::{IllegalMove, Reason};
use super::layout::Layout;
use super::moves::{Move, MoveText};
use super::piece::Role;
use super::position::Position;

impl Position {
    /// The move `text` as a legal [`Move`], or the first rule it breaks.
    pub fn validate(&self, layout: &Layout, text: MoveText) -> Result<Move, IllegalMove> {
        // The game being over is the first rule a move breaks. A move that
        // breaks none of the others shows that the side to move has a
        // move, so that only the first half of rule 7 is left to check
        // then: the search for any move is made only for a refusal.
        let game_over = || IllegalMove::new(Reason::GameOver, None);
        match self.check_move(layout, text) {
            Ok(_) if self.a_side_is_home(layout) => Err(game_over()),
            Ok(mv) => Ok(mv),
            Err(_) if self.is_finished(layout) => Err(game_over()),
            Err(illegal) => Err(illegal),
        }
    }

    /// The move `text` as a [`Move`] that breaks no rule but (maybe) the
    /// game being over, or the first rule it breaks.
    fn check_move(&self, layout: &Layout, text: MoveText) -> Result<Move, IllegalMove> {
        let MoveText { from, to } = text;
        let fail = |reason, square| Err(IllegalMove::new(reason, square));
        let Some(mover) = self.piece_at(from) else {
            return fail(Reason::NoTankAtFrom, Some(from));
        };
        if mover.side != self.turn() {
            return fail(Reason::NotYourTank, Some(from));
        }
        let Some((df, dr)) = from.direction_to(to) else {
            return fail(Reason::NotALine, None);
        };
        let enemy_base = layout.base(!mover.side);
        let locked = enemy_base.contains(from);
        let commander = mover.role == Role::Commander;
        let mut square = from;
        while square != to {
            let Some(next) = square.offset(df, dr) else {
                // Unreachable: `to` lies on the line from `from`.
                return fail(Reason::NotALine, None);
            };
            square = next;
            if layout.mines().contains(square) {
                return fail(Reason::Mine, Some(square));
            }
            let contaminated = layout.contaminated().contains(square);
            if contaminated && !commander {
                return fail(Reason::Contaminated, Some(square));
            }
            if locked && !enemy_base.contains(square) {
                return fail(Reason::LockedInEnemyBase, Some(square));
            }
            if let Some(piece) = self.piece_at(square) {
                if square != to {
                    return fail(Reason::PathBlocked, Some(square));
                }
                if piece.side == mover.side {
                    return fail(Reason::OwnTankAtTo, Some(square));
                }
                if contaminated {
                    return fail(Reason::CaptureInContaminated, Some(square));
                }
            }
        }
        let capture = self.piece_at(to).map(|piece| piece.role);
        Ok(Move { from, to, capture })
    }

    /// Plays the move `text` if it is legal: the position after it, and the
    /// move in canonical form.
    pub fn play(&self, layout: &Layout, text: MoveText) -> Result<(Position, Move), IllegalMove> {
        let mv = self.validate(layout, text)?;
        let mut next = *self;
        next.play_unchecked(mv);
        Ok((next, mv))
    }
}
