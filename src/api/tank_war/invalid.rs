//! A Tank War state's broken invariant ([`StateError`]) as a text of
//! the catalogues, the fact it names quoted.

use crate::games::tank_war::{Player, StateError};

/// A state's broken invariant as a text of the catalogues.
pub(super) fn invalid_text(error: &StateError) -> crate::text::Text {
    use crate::games::tank_war::MAX_SIDE;
    use crate::text::Text;
    use StateError as E;
    let tank = |id: &'static str, owner: &Player, name: &str| {
        Text::new(id)
            .with("owner", owner.name())
            .quoting("name", name)
    };
    match error {
        E::BoardSize { rows, cols } => Text::new("invalid-tank-war-board-size")
            .with("max", MAX_SIDE)
            .with("rows", *rows)
            .with("cols", *cols),
        E::Territory { rows, cols } => Text::new("invalid-tank-war-territory")
            .with("rows", *rows)
            .with("cols", *cols),
        E::DuplicateName { owner, name } => tank(
            "invalid-tank-war-duplicate-name",
            owner,
            &format!("{name:?}"),
        ),
        E::EmptyTrack { owner, name } => tank("invalid-tank-war-empty-track", owner, name),
        E::TrackOffBoard {
            owner,
            name,
            square,
        } => tank("invalid-tank-war-track-off-board", owner, name)
            .with("square", format!("{square:?}")),
        E::TrackNotAChain {
            owner,
            name,
            from,
            to,
        } => tank("invalid-tank-war-track-not-a-chain", owner, name)
            .with("from", from.to_string())
            .with("to", to.to_string()),
        E::AtOutOfRange {
            owner,
            name,
            at,
            len,
        } => tank("invalid-tank-war-at-out-of-range", owner, name)
            .with("at", *at)
            .with("len", *len),
        E::SharedSquare(cell) => {
            Text::new("invalid-tank-war-shared-square").with("square", cell.to_string())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::tank_war::{Cell, StateError as E};
    use crate::i18n;

    /// English answers say what the engine says (from `en.ftl`), Czech the
    /// same facts, for every broken invariant.
    #[test]
    fn every_broken_invariant_is_written_from_the_catalogue() {
        let (Some(a), Some(b)) = (Cell::parse("a1"), Cell::parse("c2")) else {
            panic!("cells")
        };
        let name = || "L\"A".to_owned();
        let errors = [
            E::BoardSize { rows: 0, cols: 40 },
            E::Territory { rows: 3, cols: 4 },
            E::DuplicateName {
                owner: Player::U,
                name: name(),
            },
            E::EmptyTrack {
                owner: Player::D,
                name: name(),
            },
            E::TrackOffBoard {
                owner: Player::U,
                name: name(),
                square: "z9".into(),
            },
            E::TrackNotAChain {
                owner: Player::U,
                name: name(),
                from: a,
                to: b,
            },
            E::AtOutOfRange {
                owner: Player::D,
                name: name(),
                at: 7,
                len: 3,
            },
            E::SharedSquare(b),
        ];
        for error in &errors {
            i18n::assert_english_and_czech(&invalid_text(error), &error.to_string());
        }
    }
}
