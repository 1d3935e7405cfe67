//! Tests of [`super`]'s fault texts.

use super::*;
use crate::api::transport::problem::RequestError;
use crate::i18n::{self, Lang};

#[derive(Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)]
struct Body {
    count: u32,
    side: Side,
}

#[derive(Debug, serde::Deserialize)]
#[allow(dead_code)]
enum Side {
    U,
    D,
}

/// serde_json's own words for `json` as a `Body`, and the service's
/// text of the fault.
fn fault(json: &str) -> (String, Text) {
    let serde = match serde_json::from_str::<Body>(json) {
        Ok(body) => panic!("{json}: {body:?}"),
        Err(err) => err.to_string(),
    };
    match super::super::json::parse::<Body>(json.as_bytes()) {
        Err(RequestError::Json { text, .. }) => (serde, text),
        other => panic!("{json}: {other:?}"),
    }
}

fn arg(text: &Text, name: &str) -> String {
    text.args()
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| v.to_string())
        .unwrap_or_default()
}

/// A detail names no Rust type of the service's (issue 71): what was
/// expected is said as JSON says it.
#[test]
fn no_rust_type_is_named() {
    assert_eq!(plain_expected("struct MoveRequest"), "an object");
    assert_eq!(plain_expected("enum Side"), "a known value");
    assert_eq!(plain_expected("tuple struct Pair"), "an array");
    assert_eq!(plain_expected("u32"), "u32");
    let (_, text) = fault(r#"{"count": 1, "side": {}}"#);
    let english = i18n::write(Lang::En, &text);
    assert!(
        !english.contains("enum") && !english.contains("Side"),
        "{english}"
    );
}

/// English says what serde_json says, from the catalogue; Czech says
/// the same facts, and no English fragment where a kind is known.
#[test]
fn each_fault_is_classified_and_written_in_both_languages() {
    let cases = [
        (
            r#"{"count": 1, "side": "U""#,
            "json-syntax",
            "eof",
            "na řádku 1",
        ),
        (
            r#"{"count" 1}"#,
            "json-syntax",
            "expected-colon",
            "chybí `:`",
        ),
        (
            r#"{"count": 1 "side": "U"}"#,
            "json-syntax",
            "expected-comma-or-brace",
            "`,` nebo `}`",
        ),
        (
            r#"{"count": 1, "side": "U"} x"#,
            "json-syntax",
            "trailing-characters",
            "za koncem",
        ),
        (
            r#"{"count": "3", "side": "U"}"#,
            "json-data",
            "invalid-type",
            "řetězec \"3\", očekáváno celé číslo",
        ),
        (
            r#"{"count": 1.5, "side": "U"}"#,
            "json-data",
            "invalid-type",
            "desetinné číslo `1.5`, očekáváno celé číslo",
        ),
        (
            r#"{"count": -1, "side": "U"}"#,
            "json-data",
            "invalid-value",
            "celé číslo `-1`",
        ),
        (
            r#"{"count": 1, "side": "Z"}"#,
            "json-data",
            "unknown-variant",
            "`Z`, očekáváno jedno z: `U`, `D`",
        ),
        (
            r#"{"count": 1, "side": "U", "x": 2}"#,
            "json-data",
            "unknown-field",
            "neznámé pole `x`",
        ),
        (
            r#"{"side": "U"}"#,
            "json-data",
            "missing-field",
            "chybí pole `count`",
        ),
        (
            r#"{"count": 1, "count": 2, "side": "U"}"#,
            "json-data",
            "duplicate-field",
            "`count`",
        ),
    ];
    for (json, id, kind, czech) in cases {
        let (serde, text) = fault(json);
        assert_eq!(
            (text.id(), arg(&text, "fault").as_str()),
            (id, kind),
            "{json}"
        );
        let english = i18n::write(Lang::En, &text);
        let field = |name: &str| format!("field `{name}`: {serde}");
        let expected = match (id, kind) {
            ("json-syntax", _) => format!("malformed JSON: {serde}"),
            (_, "missing-field" | "duplicate-field") => serde,
            (_, "unknown-field") => field("x"),
            _ if json.contains(r#""side": "Z""#) => field("side"),
            _ => field("count"),
        };
        assert_eq!(english, expected, "{json}");
        let cs = i18n::write(Lang::Cs, &text);
        assert!(cs.contains(czech), "{json}: {cs}");
        assert!(
            !cs.contains("expected") && !cs.contains(" at line "),
            "{json}: {cs}"
        );
    }
}

#[test]
fn a_field_a_query_parameter_and_a_batch_item_are_named() {
    let err = serde_json::from_str::<u32>("\"x\"").err();
    let Some(err) = err else { panic!("parsed") };
    let fault = DataFault::InvalidType {
        came: Came::of(Unexpected::Str("x")),
        expected: "u32".to_owned(),
    };
    let text = data_text(&err, Some(&fault), Some("moves[2]"));
    assert_eq!(
        i18n::write(Lang::En, &text),
        "field `moves[2]`: invalid type: string \"x\", expected u32 at line 1 column 3"
    );
    let query = in_query(text.clone(), "state");
    assert!(
        i18n::write(Lang::En, &query).starts_with("query parameter `state`: field `moves[2]`: ")
    );
    assert!(i18n::write(Lang::Cs, &query).starts_with("parametr dotazu `state`: pole `moves[2]`: "));
    let item = in_batch(text.clone(), 3);
    assert!(i18n::write(Lang::En, &item).starts_with("requests[3]: field `moves[2]`: "));
    let claim = in_list(text, "claims", 2);
    for lang in [Lang::En, Lang::Cs] {
        assert!(i18n::write(lang, &claim).starts_with("claims[2].request: "));
    }
    // Without a position (a batch item decoded from a value).
    let err = serde_json::from_value::<u32>(serde_json::json!("x")).err();
    let Some(err) = err else { panic!("parsed") };
    let text = data_text(&err, Some(&fault), None);
    assert_eq!(
        i18n::write(Lang::En, &text),
        "invalid type: string \"x\", expected u32"
    );
    assert!(!i18n::write(Lang::Cs, &text).contains("řádku"));
}

/// The kind of syntax fault serde_json's words name: the oracle jiter's
/// kinds are checked against (the service never reads these words).
fn serde_kind(words: &str) -> &'static str {
    const FAULTS: &[(&str, &str)] = &[
        ("EOF while parsing", "eof"),
        ("expected `:`", "expected-colon"),
        ("expected `,` or `]`", "expected-comma-or-bracket"),
        ("expected `,` or `}`", "expected-comma-or-brace"),
        ("expected ident", "expected-value"),
        ("expected value", "expected-value"),
        ("invalid escape", "invalid-escape"),
        ("invalid number", "invalid-number"),
        ("number out of range", "number-out-of-range"),
        ("invalid unicode code point", "invalid-unicode"),
        ("lone leading surrogate", "invalid-unicode"),
        ("unexpected end of hex escape", "invalid-escape"),
        ("control character", "control-character"),
        ("key must be a string", "key-not-string"),
        ("trailing comma", "trailing-comma"),
        ("trailing characters", "trailing-characters"),
        ("recursion limit exceeded", "too-deep"),
    ];
    FAULTS
        .iter()
        .find(|(prefix, _)| words.starts_with(prefix))
        .map_or("other", |(_, fault)| fault)
}

/// jiter names the fault serde_json finds, in every malformed document
/// made from a body by cutting it short, dropping one byte or putting
/// another in its place: what the Czech detail says is what the English
/// one (serde_json's words) says.
#[test]
fn jiter_names_the_fault_serde_json_finds() {
    let bodies = [
        r#"{"position": "cttt7/t10/11/7T3 w 100", "moves": ["d1-c1", "e3-d4"], "limits": {"max_depth": 4, "x": [1.5, -2e3, true, null]}}"#,
        r#"[{"a": "\u00e9\n"}, {"b": [[], {}]}, 12345678901234567890123]"#,
    ];
    let replacements = b"{}[]:,\" 0-1.eE+tfnu\\x\x01";
    let mut documents: Vec<Vec<u8>> = Vec::new();
    for body in bodies {
        let body = body.as_bytes();
        for at in 0..body.len() {
            documents.push(body[..at].to_vec());
            let mut dropped = body.to_vec();
            dropped.remove(at);
            documents.push(dropped);
            for &byte in replacements {
                let mut replaced = body.to_vec();
                replaced[at] = byte;
                documents.push(replaced);
            }
        }
    }
    // As deep as serde_json reads, and one deeper.
    for depth in [127, 128, 129] {
        let nested = |inside: &str| {
            format!("{}{inside}{}", "[".repeat(depth), "]".repeat(depth)).into_bytes()
        };
        documents.extend([nested(""), nested("1,"), nested("1 2")]);
    }
    let (mut checked, mut differ) = (0, Vec::new());
    for document in &documents {
        let Err(error) = serde_json::from_slice::<serde_json::Value>(document) else {
            continue;
        };
        checked += 1;
        let serde = serde_kind(&words(&error));
        let jiter = syntax_fault(document);
        if serde != jiter {
            differ.push(format!(
                "{:?}: serde_json {serde} ({error}), jiter {jiter}",
                String::from_utf8_lossy(document)
            ));
        }
    }
    assert!(checked > 1000, "{checked} malformed documents");
    assert!(
        differ.is_empty(),
        "{} of {checked}:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

/// The English detail of a request body's fault, as the service wrote
/// it when it read serde's words (the oracle of the next test): the
/// field, serde_json's words with the service's Rust types said as
/// JSON says them, and the place.
fn english_as_before<T: serde::de::DeserializeOwned>(body: &[u8]) -> Option<String> {
    use crate::api::transport::strict::{Seen, Strict};
    fn without_types(message: &str) -> String {
        let mut out = message.to_owned();
        for (kind, plain) in [
            ("expected tuple struct ", "expected an array"),
            ("expected newtype struct ", "expected a value"),
            ("expected unit struct ", "expected null"),
            ("expected struct variant ", "expected an object"),
            ("expected tuple variant ", "expected an array"),
            ("expected unit variant ", "expected a known value"),
            ("expected newtype variant ", "expected a value"),
            ("expected struct ", "expected an object"),
            ("expected enum ", "expected a known value"),
        ] {
            while let Some(at) = out.find(kind) {
                let after = &out[at + kind.len()..];
                let end = after
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .unwrap_or(after.len());
                out = format!("{}{plain}{}", &out[..at], &after[end..]);
            }
        }
        out
    }
    let seen = Seen::default();
    let mut de = serde_json::Deserializer::from_slice(body);
    let error = match serde_path_to_error::deserialize::<_, T>(Strict::new(&mut de, &seen)) {
        Ok(_) => return de.end().err().map(|e| format!("malformed JSON: {e}")),
        Err(error) => error,
    };
    let path = crate::text::quote(&error.path().to_string()).into_owned();
    let (inner, _) = seen.fault(error.into_inner());
    let message = crate::text::quotes_cut(&inner.to_string(), &['`', '"']);
    Some(match inner.classify() {
        serde_json::error::Category::Data => match path.as_str() {
            "." => without_types(&message),
            at => format!("field `{at}`: {}", without_types(&message)),
        },
        _ => format!("malformed JSON: {message}"),
    })
}

/// Every fault of a real request body, made by cutting it short,
/// dropping a byte or putting another in its place, is written in
/// English word for word as when the service read serde's words, at
/// the same place: the kind comes from structure now, the words did
/// not change.
#[test]
fn the_english_detail_is_as_it_was_for_every_fault() {
    use crate::api::cobi_tank_wars as cobi;
    use crate::api::tank_battle;
    fn check<T: serde::de::DeserializeOwned>(body: &str) -> usize {
        let replacements = b"{}[]:,\" 0-1.eE+tfnuxPN";
        let body = body.as_bytes();
        let mut documents = Vec::new();
        for at in 0..body.len() {
            documents.push(body[..at].to_vec());
            let mut dropped = body.to_vec();
            dropped.remove(at);
            documents.push(dropped);
            for &byte in replacements {
                let mut replaced = body.to_vec();
                replaced[at] = byte;
                documents.push(replaced);
            }
        }
        let mut checked = 0;
        for document in documents {
            let Some(before) = english_as_before::<T>(&document) else {
                continue;
            };
            let now = match super::super::json::parse::<T>(&document) {
                Err(RequestError::Json { text, .. }) => i18n::write(Lang::En, &text),
                Err(other) => panic!("{:?}: {other:?}", String::from_utf8_lossy(&document)),
                Ok(_) => panic!("{:?}: taken", String::from_utf8_lossy(&document)),
            };
            assert_eq!(now, before, "{:?}", String::from_utf8_lossy(&document));
            checked += 1;
        }
        checked
    }
    let move_request = r#"{"position": "11/11/11/11/11/11/11/11/11/11/10C w 0", "layout": null, "rules": {"max_plies": 40}, "move": "j4-j5"}"#;
    let orders = serde_json::json!({
        "state": cobi::example_state(),
        "orders": cobi::example_orders(),
    });
    let checked = check::<tank_battle::MoveRequest>(move_request)
        + check::<cobi::ValidateRequest>(&orders.to_string());
    assert!(checked > 10_000, "{checked} faults");
}

/// A kept value says what serde's own does, in each format's words
/// (serde_json words null and a float its own way; a query string's
/// error type words each as serde does).
#[test]
fn a_kept_value_is_worded_as_serdes_own() {
    fn same<E: de::Error>(unexpected: Unexpected<'_>) {
        let kept = || Came::of(unexpected);
        let by_type = DataFault::InvalidType {
            came: kept(),
            expected: "u32".to_owned(),
        };
        let by_value = DataFault::InvalidValue {
            came: kept(),
            expected: "u32".to_owned(),
        };
        assert_eq!(
            (
                by_type.to_error::<E>(false).to_string(),
                by_value.to_error::<E>(false).to_string()
            ),
            (
                E::invalid_type(unexpected, &"u32").to_string(),
                E::invalid_value(unexpected, &"u32").to_string()
            )
        );
    }
    for unexpected in [
        Unexpected::Bool(true),
        Unexpected::Unsigned(3),
        Unexpected::Signed(-3),
        Unexpected::Float(1.0),
        Unexpected::Float(1e300),
        Unexpected::Float(-0.5),
        Unexpected::Char('x'),
        Unexpected::Str("a \"b\""),
        Unexpected::Bytes(b"ab"),
        Unexpected::Unit,
        Unexpected::Option,
        Unexpected::NewtypeStruct,
        Unexpected::Seq,
        Unexpected::Map,
        Unexpected::Enum,
        Unexpected::UnitVariant,
        Unexpected::NewtypeVariant,
        Unexpected::TupleVariant,
        Unexpected::StructVariant,
        Unexpected::Other("something"),
    ] {
        same::<serde_json::Error>(unexpected);
        same::<serde_urlencoded::de::Error>(unexpected);
        same::<serde::de::value::Error>(unexpected);
    }
}
