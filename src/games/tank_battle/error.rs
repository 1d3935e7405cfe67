//! Rule errors of the Tank Battle engine: notation that breaks a rule (a
//! position that breaks an invariant, an illegal move and its reason).
//! Parse errors (text that is not notation) are apart, in
//! `parse_error.rs`.

use thiserror::Error;

use super::side::Side;
use super::square::Square;

/// A well-formed position that breaks an invariant of the layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub enum PositionError {
    #[error("tanks of both sides stand on {0}")]
    SquareTwice(Square),
    #[error("a tank stands on the mine at {0}")]
    TankOnMine(Square),
    #[error("the normal tank at {0} stands on a contaminated square")]
    TankOnContaminated(Square),
    #[error("{0} has more than one commander")]
    SeveralCommanders(Side),
}

/// Why a move is illegal, in the order the rules check them (SPEC 2.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    GameOver,
    NoTankAtFrom,
    NotYourTank,
    NotALine,
    Mine,
    Contaminated,
    LockedInEnemyBase,
    PathBlocked,
    OwnTankAtTo,
    CaptureInContaminated,
}

impl Reason {
    /// Every reason, in checking order.
    pub const ALL: [Reason; 10] = [
        Reason::GameOver,
        Reason::NoTankAtFrom,
        Reason::NotYourTank,
        Reason::NotALine,
        Reason::Mine,
        Reason::Contaminated,
        Reason::LockedInEnemyBase,
        Reason::PathBlocked,
        Reason::OwnTankAtTo,
        Reason::CaptureInContaminated,
    ];

    /// The stable machine code.
    pub const fn code(self) -> &'static str {
        match self {
            Reason::GameOver => "GAME_OVER",
            Reason::NoTankAtFrom => "NO_TANK_AT_FROM",
            Reason::NotYourTank => "NOT_YOUR_TANK",
            Reason::NotALine => "NOT_A_LINE",
            Reason::Mine => "MINE",
            Reason::Contaminated => "CONTAMINATED",
            Reason::LockedInEnemyBase => "LOCKED_IN_ENEMY_BASE",
            Reason::PathBlocked => "PATH_BLOCKED",
            Reason::OwnTankAtTo => "OWN_TANK_AT_TO",
            Reason::CaptureInContaminated => "CAPTURE_IN_CONTAMINATED",
        }
    }

    /// What the rule says, in one sentence.
    pub const fn rule(self) -> &'static str {
        match self {
            Reason::GameOver => "the game is over",
            Reason::NoTankAtFrom => "there is no tank on the from square",
            Reason::NotYourTank => "the tank on the from square belongs to the opponent",
            Reason::NotALine => "a tank moves along one rank, file or diagonal",
            Reason::Mine => "a tank may not enter or pass a mine",
            Reason::Contaminated => "only a commander may enter or pass a contaminated square",
            Reason::LockedInEnemyBase => "a tank in the opponent's base may not leave it",
            Reason::PathBlocked => "a tank may not pass over another tank",
            Reason::OwnTankAtTo => "a tank may not move onto its own side's tank",
            Reason::CaptureInContaminated => "no capture on a contaminated square",
        }
    }
}

/// A reason in JSON: its stable code (`"PATH_BLOCKED"`).
impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// An illegal move: the rule it breaks and the square where it fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
#[error("{message}", message = self.message())]
pub struct IllegalMove {
    pub reason: Reason,
    pub square: Option<Square>,
}

impl IllegalMove {
    pub(crate) const fn new(reason: Reason, square: Option<Square>) -> IllegalMove {
        IllegalMove { reason, square }
    }

    /// The rule, and the square when there is one.
    pub fn message(&self) -> String {
        match self.square {
            Some(sq) => format!("{} ({sq})", self.reason.rule()),
            None => self.reason.rule().to_owned(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reason_serializes_as_its_code() {
        for reason in Reason::ALL {
            assert_eq!(
                serde_json::to_value(reason).unwrap(),
                serde_json::Value::String(reason.code().to_owned())
            );
        }
    }
}
