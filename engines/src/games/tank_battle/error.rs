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

/// Why a move is illegal, in the order the rules check them (docs/TANK-BATTLE.md, "Rules as implemented").
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
}

/// A reason in JSON: its stable code (`"PATH_BLOCKED"`).
impl serde::Serialize for Reason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.code())
    }
}

/// An illegal move: the rule it breaks and the square where it fails.
/// Its text is its facts (`PATH_BLOCKED at e5`); what the rule says is
/// the catalogues' to write, in the language asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Error)]
pub struct IllegalMove {
    pub reason: Reason,
    pub square: Option<Square>,
}

impl IllegalMove {
    pub(crate) const fn new(reason: Reason, square: Option<Square>) -> IllegalMove {
        IllegalMove { reason, square }
    }
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.square {
            Some(square) => write!(f, "{} at {square}", self.reason.code()),
            None => f.write_str(self.reason.code()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An illegal move's text is its facts: the rule's words are the
    /// catalogues'.
    #[test]
    fn an_illegal_move_says_its_code_and_square() {
        let square: Square = "e5".parse().unwrap();
        for reason in Reason::ALL {
            assert_eq!(IllegalMove::new(reason, None).to_string(), reason.code());
            assert_eq!(
                IllegalMove::new(reason, Some(square)).to_string(),
                format!("{} at e5", reason.code())
            );
        }
    }

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
