//! Tank Wars' state notation (docs/TANK-WARS.md, State and orders): a state as one
//! JSON object, written and read by serde from [`StateData`], and its JSON
//! Schema ([`STATE_SCHEMA`], `state.schema.json`), the one text the
//! service's API document and other implementations take it from.
//!
//! A [`StateData`] is only the shape: [`State::from_data`] checks the
//! rules' invariants.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::state::{Player, State};

/// The state's JSON Schema (2020-12): its `$defs` name the state
/// (`CobiTankWarsState`) and every part of it.
pub const STATE_SCHEMA: &str = include_str!("state.schema.json");

/// A vehicle as data, before checking.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VehicleData {
    pub id: String,
    pub owner: Player,
    pub square: String,
    pub armor: i64,
    pub slot: i64,
}

/// A state as data, before checking.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateData {
    pub cols: u32,
    pub rows: u32,
    #[serde(default = "first_player")]
    pub first: Player,
    pub vehicles: Vec<VehicleData>,
    #[serde(default)]
    pub artillery: Vec<String>,
    #[serde(default)]
    pub support: Vec<String>,
    #[serde(default)]
    pub gunfire: Vec<String>,
    /// P1's and P2's support cards, written `{"P1": …, "P2": …}`.
    #[serde(default, with = "per_player")]
    pub support_cards: [u32; 2],
    #[serde(default)]
    pub round: u32,
}

const fn first_player() -> Player {
    Player::P1
}

/// A count per player as the notation writes it: an object by player, 0
/// for a player left out.
mod per_player {
    use super::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct PerPlayer {
        #[serde(rename = "P1", default)]
        p1: u32,
        #[serde(rename = "P2", default)]
        p2: u32,
    }

    pub fn serialize<S: Serializer>(
        &[p1, p2]: &[u32; 2],
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        PerPlayer { p1, p2 }.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[u32; 2], D::Error> {
        let PerPlayer { p1, p2 } = PerPlayer::deserialize(deserializer)?;
        Ok([p1, p2])
    }
}

impl State {
    /// The state as data.
    pub fn to_data(&self) -> StateData {
        let squares =
            |cells: &[crate::games::grid::Cell]| cells.iter().map(ToString::to_string).collect();
        StateData {
            cols: u32::from(self.board.cols),
            rows: u32::from(self.board.rows),
            first: self.first,
            vehicles: self
                .vehicles
                .iter()
                .map(|v| VehicleData {
                    id: v.id.clone(),
                    owner: v.owner,
                    square: v.square.to_string(),
                    armor: i64::from(v.armor),
                    slot: i64::from(v.slot),
                })
                .collect(),
            artillery: squares(&self.artillery),
            support: squares(&self.support),
            gunfire: squares(&self.gunfire),
            support_cards: self.support_cards,
            round: self.round,
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;

    fn defs() -> Value {
        let schema: Value = serde_json::from_str(STATE_SCHEMA).unwrap();
        assert_eq!(schema["$ref"], "#/$defs/CobiTankWarsState");
        schema["$defs"].clone()
    }

    #[test]
    fn the_initial_state_is_written_in_the_schemas_order_and_read_back() {
        let written = serde_json::to_value(State::initial().to_data()).unwrap();
        let fields: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            fields,
            [
                "cols",
                "rows",
                "first",
                "vehicles",
                "artillery",
                "support",
                "gunfire",
                "support_cards",
                "round"
            ]
        );
        assert_eq!(written["support_cards"], json!({"P1": 0, "P2": 0}));
        assert_eq!(
            written["vehicles"][0],
            json!({"id": "P1-1", "owner": "P1", "square": "c1", "armor": 3, "slot": 1})
        );
        let read: StateData = serde_json::from_value(written.clone()).unwrap();
        let state = State::from_data(&read).unwrap();
        assert_eq!(serde_json::to_value(state.to_data()).unwrap(), written);
    }

    #[test]
    fn left_out_fields_take_their_defaults_and_unknown_ones_are_refused() {
        let state = json!({"cols": 2, "rows": 2, "vehicles": [], "support_cards": {"P2": 1}});
        let read: StateData = serde_json::from_value(state.clone()).unwrap();
        assert_eq!(
            (read.first, read.support_cards, read.round),
            (Player::P1, [0, 1], 0)
        );
        assert!(read.artillery.is_empty() && read.support.is_empty() && read.gunfire.is_empty());
        let mut more = state.clone();
        more["turn"] = json!(1);
        assert!(serde_json::from_value::<StateData>(more).is_err());
        let mut cards = state;
        cards["support_cards"] = json!({"P3": 1});
        assert!(serde_json::from_value::<StateData>(cards).is_err());
    }

    /// The schema names what serde writes and requires what serde has
    /// no default for.
    #[test]
    fn the_schema_describes_the_fields_serde_writes() {
        let defs = defs();
        let written = serde_json::to_value(State::initial().to_data()).unwrap();
        crate::games::grid::assert_schema_lists(
            &serde_json::from_str(STATE_SCHEMA).unwrap(),
            &[
                ("CobiTankWarsState", &written),
                ("CobiTankWarsVehicle", &written["vehicles"][0]),
                ("CobiTankWarsPerPlayer", &written["support_cards"]),
            ],
        );
        assert_eq!(
            defs["CobiTankWarsState"]["required"],
            json!(["cols", "rows", "vehicles"])
        );
        assert_eq!(
            defs["CobiTankWarsVehicle"]["required"],
            json!(["id", "owner", "square", "armor", "slot"])
        );
        assert!(defs["CobiTankWarsPerPlayer"].get("required").is_none());
        assert_eq!(defs["CobiTankWarsPlayerName"]["enum"], json!(Player::NAMES));
    }

    /// Both grid games write a square alike: one schema of it.
    #[test]
    fn a_square_is_the_tank_wars_square() {
        let tank_war: Value = serde_json::from_str(crate::games::tank_war::STATE_SCHEMA).unwrap();
        assert_eq!(defs()["GridSquare"], tank_war["$defs"]["GridSquare"]);
    }
}
