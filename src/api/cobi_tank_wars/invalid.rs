//! Tank Wars' states: each broken invariant named in the catalogues.

use crate::games::cobi_tank_wars::StateError as E;
use crate::games::grid::MAX_SIDE;
use crate::text::Text;

/// A state's broken invariant as a text of the catalogues.
pub(super) fn invalid_text(error: &E) -> Text {
    let vehicle = |id: &'static str, name: &str| Text::new(id).with("vehicle", format!("{name:?}"));
    match error {
        E::BoardSize { cols, rows } => Text::new("invalid-tank-wars-board-size")
            .with("max", MAX_SIDE)
            .with("cols", *cols)
            .with("rows", *rows),
        E::TooManyVehicles(player) => {
            Text::new("invalid-tank-wars-too-many-vehicles").with("player", player.name())
        }
        E::Slot(name) => vehicle("invalid-tank-wars-slot", name),
        E::DuplicateId(name) => vehicle("invalid-tank-wars-duplicate-id", name),
        E::Armor(name) => vehicle("invalid-tank-wars-armor", name),
        E::Square(text) => {
            Text::new("invalid-tank-wars-square").with("square", format!("{text:?}"))
        }
        E::SharedSquare(cell) => {
            Text::new("invalid-tank-wars-shared-square").with("square", cell.to_string())
        }
        E::DuplicateToken { kind, square } => Text::new("invalid-tank-wars-duplicate-token")
            .with("kind", *kind)
            .with("square", square.to_string()),
    }
}
