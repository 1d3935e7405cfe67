//! The Tank War's state notation (docs/TANK-WAR.md, State): a state as
//! one JSON object, written and read by serde from [`StateData`], and its
//! JSON Schema ([`STATE_SCHEMA`], `state.schema.json`), the one text the
//! service's API document and other implementations take it from.
//!
//! A [`StateData`] is only the shape: [`Setup::from_data`](super::Setup::from_data)
//! checks the rules' invariants.

use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::state::{Player, TankType, INITIAL_CLOCK_MS};

/// The state's JSON Schema (2020-12): its `$defs` name the state
/// (`TankWarState`) and every part of it.
pub const STATE_SCHEMA: &str = include_str!("state.schema.json");

/// The longest tank name, in characters (the schema's `maxLength`; the
/// rules need only a name unique for its owner).
pub const NAME_MAX: usize = 16;

/// A tank as a state lists it, before checking. Its texts are `String` (as
/// [`Setup::to_data`](super::Setup::to_data) writes them) or an inline
/// small string (the service's `CompactString`);
/// [`Setup::from_data`](super::Setup::from_data) reads any `AsRef<str>`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TankData<S = String> {
    pub owner: Player,
    pub name: S,
    #[serde(rename = "type")]
    pub kind: TankType,
    pub track: Vec<S>,
    pub at: usize,
}

/// A whole state as data, before checking.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateData<S = String> {
    pub rows: u32,
    pub cols: u32,
    /// Rows of territory letters, top row (the last row) first.
    pub territory: Vec<S>,
    pub tanks: Vec<TankData<S>>,
    #[serde(default)]
    pub round: u32,
    /// U's and D's remaining time, written `{"U": …, "D": …}`.
    #[serde(default = "initial_clocks", with = "clocks")]
    pub clock_ms: [i64; 2],
}

const fn initial_clocks() -> [i64; 2] {
    [INITIAL_CLOCK_MS; 2]
}

/// `clock_ms` as the notation writes it: an object by player.
mod clocks {
    use super::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Clocks {
        #[serde(rename = "U")]
        u: i64,
        #[serde(rename = "D")]
        d: i64,
    }

    pub fn serialize<S: Serializer>(&[u, d]: &[i64; 2], serializer: S) -> Result<S::Ok, S::Error> {
        Clocks { u, d }.serialize(serializer)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<[i64; 2], D::Error> {
        let Clocks { u, d } = Clocks::deserialize(deserializer)?;
        Ok([u, d])
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use super::*;
    use crate::games::tank_war::default_state;

    fn schema() -> Value {
        serde_json::from_str(STATE_SCHEMA).unwrap()
    }

    #[test]
    fn the_default_state_is_written_in_the_schemas_order() {
        let (setup, position) = default_state();
        let written = serde_json::to_value(setup.to_data(&position)).unwrap();
        let fields: Vec<&str> = written
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            fields,
            ["rows", "cols", "territory", "tanks", "round", "clock_ms"]
        );
        assert_eq!(written["clock_ms"], json!({"U": 120000, "D": 120000}));
        assert_eq!(
            written["tanks"][0]
                .as_object()
                .unwrap()
                .keys()
                .collect::<Vec<_>>(),
            ["owner", "name", "type", "track", "at"]
        );
        let read: StateData = serde_json::from_value(written.clone()).unwrap();
        assert_eq!(serde_json::to_value(read).unwrap(), written);
    }

    #[test]
    fn left_out_fields_take_their_defaults_and_unknown_ones_are_refused() {
        let state = json!({"rows": 1, "cols": 1, "territory": ["U"], "tanks": []});
        let read: StateData = serde_json::from_value(state.clone()).unwrap();
        assert_eq!((read.round, read.clock_ms), (0, [INITIAL_CLOCK_MS; 2]));
        let mut more = state.clone();
        more["turn"] = json!(1);
        assert!(serde_json::from_value::<StateData>(more).is_err());
        let mut clocks = state;
        clocks["clock_ms"] = json!({"U": 1});
        assert!(serde_json::from_value::<StateData>(clocks).is_err());
    }

    /// The schema names what serde writes, requires what serde has no
    /// default for, and limits a tank's name as the service does.
    #[test]
    fn the_schema_describes_the_fields_serde_writes() {
        let schema = schema();
        assert_eq!(schema["$ref"], "#/$defs/TankWarState");
        let defs = &schema["$defs"];
        let (setup, position) = default_state();
        let written = serde_json::to_value(setup.to_data(&position)).unwrap();
        crate::games::grid::assert_schema_lists(
            &schema,
            &[
                ("TankWarState", &written),
                ("TankWarTank", &written["tanks"][0]),
                ("TankWarClocks", &written["clock_ms"]),
            ],
        );
        assert_eq!(
            defs["TankWarState"]["required"],
            json!(["rows", "cols", "territory", "tanks"])
        );
        assert_eq!(defs["TankWarPlayerName"]["enum"], json!(Player::NAMES));
        assert_eq!(defs["TankWarTankTypeName"]["enum"], json!(["A", "B", "C"]));
        let name = &defs["TankWarTank"]["properties"]["name"];
        assert_eq!(name["maxLength"], json!(NAME_MAX));
    }
}
