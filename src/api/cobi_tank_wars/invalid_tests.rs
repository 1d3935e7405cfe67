//! Tank Wars' face: each broken invariant of a state named in the catalogues.

use super::*;
use crate::games::cobi_tank_wars::{Player, StateError as E};
use crate::games::grid::Cell;
use crate::i18n;

/// English answers say what the engine says (from `en.ftl`), Czech the
/// same facts, for every broken invariant.
#[test]
fn every_broken_invariant_is_written_from_the_catalogue() {
    let Some(cell) = Cell::parse("b3") else {
        panic!("cell")
    };
    let errors = [
        E::BoardSize { cols: 1, rows: 99 },
        E::TooManyVehicles(Player::P2),
        E::Slot("P1-1".into()),
        E::DuplicateId("P\"2".into()),
        E::Armor("P1-3".into()),
        E::Square("z0".into()),
        E::SharedSquare(cell),
        E::DuplicateToken {
            kind: "artillery",
            square: cell,
        },
        E::DuplicateToken {
            kind: "support",
            square: cell,
        },
        E::DuplicateToken {
            kind: "gunfire",
            square: cell,
        },
    ];
    for error in &errors {
        i18n::assert_english_and_czech(&invalid_text(error), &error.to_string());
    }
}
