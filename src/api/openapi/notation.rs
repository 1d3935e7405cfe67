//! The notations of the games as named OpenAPI schemas: a string with the
//! pattern of its syntax, so that a generated client can check a request
//! before it sends it; and [`string_enum`] for the stable codes answers
//! carry, so that a client can switch on them; and the JSON-state games'
//! schemas (`TankWarState`, `CobiTankWarsState`, their players,
//! `GridSquare`), taken whole from the engines' `state.schema.json`
//! (`defined!`). A pattern accepts everything the engine's parser
//! accepts; what it cannot say (a rank's squares adding up to 11, exactly
//! one commander start a side) is refused by the service with the
//! notation's 400 code.

use serde_json::Value;
use utoipa::openapi::schema::{ObjectBuilder, Schema, Type};
use utoipa::openapi::RefOr;

/// ASCII white space, which the parsers skip around a notation.
const WS: &str = r"[\t\n\f\r ]*";

/// Declares a documentation-only type `$name`, named `$as` in the
/// document, whose schema is `$schema` (and whose schemas it refers to are
/// `$refs`).
macro_rules! schema_type {
    ($(#[$doc:meta])* $name:ident as $as:expr => $schema:expr $(, refs: $refs:expr)?) => {
        $(#[$doc])*
        pub struct $name;

        impl utoipa::PartialSchema for $name {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                $schema
            }
        }

        impl utoipa::ToSchema for $name {
            fn name() -> std::borrow::Cow<'static, str> {
                std::borrow::Cow::Borrowed($as)
            }

            $(fn schemas(
                schemas: &mut Vec<(String, utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>)>,
            ) {
                schemas.extend($refs);
            })?
        }
    };
}
pub(crate) use schema_type;

/// Declares a string schema with a pattern, a description and an example,
/// named in the document as `$schema` (with its game's prefix).
macro_rules! notation {
    ($(#[$doc:meta])* $name:ident as $schema:literal, pattern = $pattern:expr, example = $example:expr, $description:expr) => {
        schema_type! {
            $(#[$doc])*
            $name as $schema => ObjectBuilder::new()
                .schema_type(Type::String)
                .pattern(Some($pattern))
                .description(Some($description))
                .examples([serde_json::json!($example)])
                .into()
        }
    };
}

/// A string schema that is one of `values` (a code a client can switch
/// on), in their order.
pub fn string_enum<'a>(
    values: impl IntoIterator<Item = &'a str>,
    description: &str,
) -> RefOr<Schema> {
    let values: Vec<&str> = values.into_iter().collect();
    let example = values.first().map(|v| serde_json::json!(v));
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(values))
        .description(Some(description))
        .examples(example)
        .into()
}

/// Declares a documentation-only type whose schema is a string enum of
/// stable codes (a rule's refusals): `$name`, named `$as` in the
/// document, its values `$codes` (the engine's own list), described.
macro_rules! code_enum {
    ($(#[$doc:meta])* $name:ident as $as:literal: $codes:expr, $description:expr $(,)?) => {
        $crate::api::openapi::notation::schema_type! {
            $(#[$doc])*
            $name as $as => $crate::api::openapi::notation::string_enum($codes, $description)
        }
    };
}
pub(crate) use code_enum;

/// A Tank Battle rank: pieces and runs of 1 to 11 empty squares.
const RANK: &str = "(?:[TtCc]|1[01]|[1-9])+";

notation! {
    /// Tank Battle's position notation.
    Tbn as "TankBattleTbn",
    pattern = format!("^{WS}(?:{RANK}/){{10}}{RANK}[\\t\\n\\f\\r ]+[wb][\\t\\n\\f\\r ]+[0-9]{{1,20}}{WS}$"),
    example = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0",
    "A Tank Battle position (TBN): `<placement> <side> <ply>`. The placement \
is 11 ranks separated by `/`, rank 11 first; within a rank, files a..k: `T` \
white tank, `C` white commander, `t` black tank, `c` black commander, 1..11 \
for that many empty squares; each rank covers 11 squares. `<side>` is `w` or \
`b`, `<ply>` the moves played so far."
}

notation! {
    /// Tank Battle's layout notation, or a layout's name.
    LayoutText as "TankBattleLayout",
    pattern = format!("^{WS}(?:standard|(?:[.#~wWbB]{{11}}/){{10}}[.#~wWbB]{{11}}){WS}$"),
    example = "standard",
    "A Tank Battle layout: `standard`, or 11 rows of 11 characters separated \
by `/`, rank 11 first: `.` open, `#` mine, `~` contaminated, `w`/`b` White's \
or Black's base, `W`/`B` that side's commander start (also base); exactly \
one `W` and one `B`."
}

/// A Tank Battle square: file a..k (either case) and rank 1..11.
const SQUARE: &str = "[a-kA-K](?:1[01]|[1-9])";

notation! {
    /// A Tank Battle square.
    SquareName as "TankBattleSquare",
    pattern = format!("^{SQUARE}$"),
    example = "j4",
    "A Tank Battle square: file `a`..`k` (either case) and rank `1`..`11`."
}

notation! {
    /// Tank Battle's move notation.
    MoveNotation as "TankBattleMoveNotation",
    pattern = format!("^{WS}{SQUARE}[-xX]?{SQUARE}{WS}$"),
    example = "j4-j5",
    "A Tank Battle move: two squares with `-`, `x` or nothing between them, \
either case (`j4-j5`, `d10xd4`, `J4J5`)."
}

notation! {
    /// Tank Battle moves to draw, comma-separated.
    MoveList as "TankBattleMoveList",
    pattern = format!(
        "^{m}(?:,{m}){{0,{more}}}$",
        m = format_args!("{WS}{SQUARE}[-xX]?{SQUARE}{WS}"),
        more = crate::limits::Limits::RENDER_MAX_ARROWS - 1
    ),
    example = "c10-a8,i1xd1",
    "Tank Battle moves separated by commas (`c10-a8,i1xd1`), each in move \
notation, at most 8: a line to show, such as a review's `best_line`."
}

/// The `$defs` of a notation's JSON Schema (an engine's text) as the
/// document's components, each `#/$defs/` reference pointed at them.
pub fn defined_in(notation: &str) -> Vec<(String, RefOr<Schema>)> {
    let text = notation.replace("\"#/$defs/", "\"#/components/schemas/");
    let defs = serde_json::from_str::<Value>(&text)
        .ok()
        .and_then(|mut schema| schema.get_mut("$defs").map(Value::take));
    let Some(Value::Object(defs)) = defs else {
        return Vec::new();
    };
    defs.into_iter()
        .filter_map(|(name, def)| Some((name, serde_json::from_value(def).ok()?)))
        .collect()
}

/// The schemas of a notation's JSON Schema ([`defined_in`]), read once:
/// a static of the expansion site.
macro_rules! defs_of {
    ($notation:expr) => {{
        static DEFINED: std::sync::OnceLock<Vec<(String, RefOr<Schema>)>> =
            std::sync::OnceLock::new();
        DEFINED.get_or_init(|| defined_in($notation))
    }};
}

/// Declares schemas named as each `$name` whose text is the `$defs` entry
/// of that name in the JSON Schema `$notation` (an engine's), with the
/// notation's other entries as its references: the document takes a
/// notation's schema from the engine's one text.
macro_rules! defined {
    ($($(#[$doc:meta])* $name:ident),* in $notation:expr) => {$(
        schema_type! {
            $(#[$doc])*
            $name as stringify!($name) => defs_of!($notation)
                .iter()
                .find(|(name, _)| name == stringify!($name))
                .map_or_else(|| ObjectBuilder::new().into(), |(_, schema)| schema.clone()),
            refs: defs_of!($notation).iter().cloned()
        }
    )*};
}

use crate::games::cobi_tank_wars::STATE_SCHEMA as TANK_WARS;
use crate::games::tank_war::STATE_SCHEMA as TANK_WAR;

defined! {
    /// A square of a Tank War or Tank Wars board.
    GridSquare,
    /// A Tank War state.
    TankWarState,
    /// A Tank War player.
    TankWarPlayerName
    in TANK_WAR
}

defined! {
    /// A Tank Wars state.
    CobiTankWarsState,
    /// A Tank Wars player.
    CobiTankWarsPlayerName
    in TANK_WARS
}

#[cfg(test)]
mod tests {
    use super::*;
    use utoipa::PartialSchema;

    fn pattern<T: PartialSchema>() -> regex_lite::Regex {
        let schema = serde_json::to_value(T::schema()).unwrap();
        regex_lite::Regex::new(schema["pattern"].as_str().unwrap()).unwrap()
    }

    /// Every entry of the engines' notations is a schema of the document,
    /// referring to the document's components only.
    #[test]
    fn the_engines_notations_are_read_whole() {
        for notation in [TANK_WAR, TANK_WARS] {
            let text: serde_json::Value = serde_json::from_str(notation).unwrap();
            let defs = text["$defs"].as_object().unwrap();
            let read = defined_in(notation);
            assert_eq!(read.len(), defs.len());
            let written = serde_json::to_string(&read).unwrap();
            assert!(!written.contains("$defs"), "{written}");
        }
        let state = serde_json::to_value(TankWarState::schema()).unwrap();
        assert_eq!(
            state["properties"]["tanks"]["items"]["$ref"],
            "#/components/schemas/TankWarTank"
        );
    }

    #[test]
    fn patterns_accept_what_the_parsers_accept() {
        let tbn = pattern::<Tbn>();
        for text in [
            crate::games::tank_battle::INITIAL_TBN,
            "  11/11/11/11/11/11/11/11/11/11/10C\tb 18446744073709551615 ",
        ] {
            assert!(tbn.is_match(text), "{text:?}");
        }
        assert!(!tbn.is_match("11/11 w 0"));
        let layout = pattern::<LayoutText>();
        assert!(layout.is_match(" standard"));
        assert!(layout.is_match(crate::games::tank_battle::STANDARD_TEXT));
        assert!(!layout.is_match("Standard"));
        let mv = pattern::<MoveNotation>();
        for text in ["j4-j5", "d10xd4", "J4J5", " a11Xk1 ", "a1a2"] {
            assert!(mv.is_match(text), "{text}");
            assert!(
                text.parse::<crate::games::tank_battle::MoveText>().is_ok(),
                "{text}"
            );
        }
        for text in ["j4--j5", "l1-a1", "a0-a1", "a12-a1"] {
            assert!(!mv.is_match(text), "{text}");
        }
        let list = pattern::<MoveList>();
        let most = ["a1-a2"; crate::limits::Limits::RENDER_MAX_ARROWS];
        for text in ["j4-j5", "c10-a8, i1xd1", &most.join(",")] {
            assert!(list.is_match(text), "{text}");
        }
        for text in [
            "",
            "j4-j5,",
            ",j4-j5",
            "j4-j5;j5-j6",
            &format!("{},a1-a2", most.join(",")),
        ] {
            assert!(!list.is_match(text), "{text}");
        }
    }
}
