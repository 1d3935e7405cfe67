//! Tests of [`super`]'s strict reading and kept faults.

use serde::Deserialize;

use super::*;

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Limits {
    depth: Option<u32>,
    nodes: Option<u64>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
struct Body {
    position: String,
    #[serde(default)]
    limits: Option<Limits>,
    #[serde(default)]
    moves: Vec<Limits>,
}

fn parse(text: &str) -> Result<Body, (serde_json::Error, Option<DataFault>)> {
    let mut de = serde_json::Deserializer::from_str(text);
    let seen = Seen::default();
    Body::deserialize(Strict::naming_every_fault(&mut de, &seen)).map_err(|e| seen.fault(e))
}

#[test]
fn objects_are_objects_at_every_depth() {
    assert!(parse(r#"{"position":"x","limits":{"depth":4}}"#).is_ok());
    // serde alone takes all of these.
    for text in [
        r#"["x"]"#,
        r#"{"position":"x","limits":[4, null]}"#,
        r#"{"position":"x","limits":[null, null]}"#,
        r#"{"position":"x","moves":[[1, 2]]}"#,
    ] {
        let plain: Result<Body, _> = serde_json::from_str(text);
        assert!(plain.is_ok(), "{text} (serde accepts it)");
        assert!(parse(text).is_err(), "{text}");
    }
}

#[test]
fn whole_number_floats_are_integers() {
    let body = parse(r#"{"position":"x","limits":{"depth":4.0,"nodes":1e3}}"#).unwrap();
    assert_eq!(
        body.limits,
        Some(Limits {
            depth: Some(4),
            nodes: Some(1000)
        })
    );
    for text in [
        r#"{"position":"x","limits":{"depth":4.5}}"#,
        r#"{"position":"x","limits":{"depth":-1.0}}"#,
        r#"{"position":"x","limits":{"depth":4294967296.0}}"#,
        r#"{"position":"x","limits":{"nodes":1e300}}"#,
    ] {
        assert!(parse(text).is_err(), "{text}");
    }
}

/// Each fault is kept as serde's methods name it, whatever raised it
/// (a visitor, or a value of another kind that serde_json alone would
/// have refused itself), and the error that came out says it in the
/// words serde_json says it in without the wrapper.
#[test]
fn each_fault_is_kept_as_serde_names_it_in_serdes_words() {
    let cases = [
        (
            r#"{"position":3}"#,
            DataFault::InvalidType {
                came: Came::of(Unexpected::Unsigned(3)),
                expected: "a string".to_owned(),
            },
        ),
        (
            r#"{"position":"x","limits":{"depth":"4"}}"#,
            DataFault::InvalidType {
                came: Came::of(Unexpected::Str("4")),
                expected: "u32".to_owned(),
            },
        ),
        (
            r#"{"position":"x","limits":{"depth":-1}}"#,
            DataFault::InvalidValue {
                came: Came::of(Unexpected::Signed(-1)),
                expected: "u32".to_owned(),
            },
        ),
        (
            r#"{"position":"x","limits":{"depth":null,"x":1}}"#,
            DataFault::UnknownField {
                name: "x".to_owned(),
                expected: &["depth", "nodes"],
            },
        ),
        (r#"{}"#, DataFault::MissingField("position")),
        (
            r#"{"position":"x","position":"y"}"#,
            DataFault::DuplicateField("position"),
        ),
        (
            r#"{"position":"x","moves":{}}"#,
            DataFault::InvalidType {
                came: Came::of(Unexpected::Map),
                expected: "a sequence".to_owned(),
            },
        ),
    ];
    for (text, fault) in cases {
        let Err((error, found)) = parse(text) else {
            panic!("{text}: taken")
        };
        assert_eq!(found.as_ref(), Some(&fault), "{text}");
        // The same words (a fault's place in a container may differ).
        let plain = serde_json::from_str::<Body>(text).unwrap_err();
        let words =
            |e: &serde_json::Error| e.to_string().split(" at line").next().map(str::to_owned);
        assert_eq!(words(&error), words(&plain), "{text}");
    }
}
