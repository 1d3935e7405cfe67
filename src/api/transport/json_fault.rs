//! What is wrong with a JSON document the operation could not take, as
//! serde_json classifies it, written as a catalogue text (`json-syntax`,
//! `json-data`) with its arguments: where (line and column, the field's
//! path, a query parameter or a batch item), the kind of fault, and for a
//! value of the wrong type what came and what was expected. So a Czech
//! detail says as much as the English one, which `en.ftl` writes as
//! serde_json words it.

use crate::text::Text;

/// The text of `err`, a fault at the field `at` (`None`: the document as a
/// whole) of a request's body.
pub fn text(err: &serde_json::Error, at: Option<&str>) -> Text {
    use serde_json::error::Category;
    let (line, column) = (err.line(), err.column());
    let whole = err.to_string();
    // serde_json appends the position to its message when it knows it.
    let suffix = format!(" at line {line} column {column}");
    let error = match line {
        0 => whole.as_str(),
        _ => whole.strip_suffix(&suffix).unwrap_or(&whole),
    };
    let text = match err.classify() {
        Category::Data => data(error, at),
        Category::Io | Category::Syntax | Category::Eof => {
            Text::new("json-syntax").with("fault", syntax_fault(error))
        }
    };
    text.with(
        "error",
        crate::text::quotes_cut(&without_types(error), &['`', '"']),
    )
    .with("line", line)
    .with("column", column)
    .with("in", "body")
}

/// serde's `message` without the service's Rust types it names
/// (`expected struct MoveRequest`): what is expected said as JSON says
/// it (an object, one of the known values).
fn without_types(message: &str) -> std::borrow::Cow<'_, str> {
    const KINDS: &[(&str, &str)] = &[
        ("expected tuple struct ", "expected an array"),
        ("expected newtype struct ", "expected a value"),
        ("expected unit struct ", "expected null"),
        ("expected struct variant ", "expected an object"),
        ("expected tuple variant ", "expected an array"),
        ("expected unit variant ", "expected a known value"),
        ("expected newtype variant ", "expected a value"),
        ("expected struct ", "expected an object"),
        ("expected enum ", "expected a known value"),
    ];
    let Some((at, (kind, plain))) = KINDS
        .iter()
        .filter_map(|kind| Some((message.find(kind.0)?, kind)))
        .min_by_key(|(at, _)| *at)
    else {
        return std::borrow::Cow::Borrowed(message);
    };
    let after = &message[at + kind.len()..];
    let name_end = after
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(after.len());
    let rest = without_types(&after[name_end..]).into_owned();
    std::borrow::Cow::Owned(format!("{}{plain}{rest}", &message[..at]))
}

/// The same text, of a document sent in the query parameter `param`.
pub fn in_query(text: Text, param: &str) -> Text {
    text.with("in", "query").with("param", param)
}

/// The same text, of the request `index` of a batch.
pub fn in_batch(text: Text, index: usize) -> Text {
    text.with("in", "item").with("index", index.to_string())
}

/// The same text, of item `index` of a body's `list`: a batch's
/// `requests`, or the request of one of a compare's `claims`.
pub fn in_list(text: Text, list: &str, index: usize) -> Text {
    match list {
        "claims" => text.with("in", "claim").with("index", index.to_string()),
        _ => in_batch(text, index),
    }
}

/// The kind of a syntax fault, by serde_json's message for it.
fn syntax_fault(error: &str) -> &'static str {
    const FAULTS: &[(&str, &str)] = &[
        ("EOF while parsing", "eof"),
        ("expected `:`", "expected-colon"),
        ("expected `,` or `]`", "expected-comma-or-bracket"),
        ("expected `,` or `}`", "expected-comma-or-brace"),
        ("expected `\"`", "expected-quote"),
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
        .find(|(prefix, _)| error.starts_with(prefix))
        .map_or("other", |(_, fault)| fault)
}

/// A value of the wrong shape: serde's message classified.
fn data(error: &str, at: Option<&str>) -> Text {
    let text = Text::new("json-data").with("at", at.unwrap_or("none"));
    let quoted = |rest: &str| {
        rest.strip_prefix('`')
            .and_then(|r| r.split_once('`'))
            .map(|(name, after)| (name.to_owned(), after.to_owned()))
    };
    let (fault, name, unexpected, value, expected) = if let Some(rest) = error
        .strip_prefix("invalid type: ")
        .map(|r| ("invalid-type", r))
        .or_else(|| {
            error
                .strip_prefix("invalid value: ")
                .map(|r| ("invalid-value", r))
        })
        .and_then(|(fault, r)| r.rsplit_once(", expected ").map(|(u, e)| (fault, u, e)))
    {
        let (fault, found, wanted) = rest;
        let (kind, value) = unexpected_kind(found);
        (fault, String::new(), kind, value, wanted.to_owned())
    } else if let Some((length, wanted)) = error
        .strip_prefix("invalid length ")
        .and_then(|r| r.split_once(", expected "))
    {
        (
            "invalid-length",
            String::new(),
            "length",
            length.to_owned(),
            wanted.to_owned(),
        )
    } else if let Some((name, after)) = error.strip_prefix("unknown variant ").and_then(quoted) {
        let wanted = after.strip_prefix(", expected ").unwrap_or(&after);
        (
            "unknown-variant",
            name,
            "",
            String::new(),
            wanted.to_owned(),
        )
    } else if let Some((name, after)) = error.strip_prefix("unknown field ").and_then(quoted) {
        let wanted = after.strip_prefix(", expected ").unwrap_or(&after);
        ("unknown-field", name, "", String::new(), wanted.to_owned())
    } else if let Some((name, _)) = error.strip_prefix("missing field ").and_then(quoted) {
        ("missing-field", name, "", String::new(), String::new())
    } else if let Some((name, _)) = error.strip_prefix("duplicate field ").and_then(quoted) {
        ("duplicate-field", name, "", String::new(), String::new())
    } else {
        ("other", String::new(), "", String::new(), String::new())
    };
    let (wanted, choices) = expected_kind(&expected);
    text.with("fault", fault)
        .quoting("name", &name)
        .with("unexpected", unexpected)
        .quoting("value", &value)
        .with("expected", wanted)
        .with("choices", choices)
}

/// What came, as serde names it (`string "x"`, `integer `3``, `null`):
/// its kind and its value.
fn unexpected_kind(found: &str) -> (&'static str, String) {
    const KINDS: &[(&str, &str)] = &[
        ("string ", "string"),
        ("integer ", "integer"),
        ("floating point ", "float"),
        ("boolean ", "boolean"),
        ("character ", "character"),
    ];
    for (prefix, kind) in KINDS {
        if let Some(value) = found.strip_prefix(prefix) {
            return (kind, value.to_owned());
        }
    }
    let kind = match found {
        "null" => "null",
        "sequence" => "array",
        "map" => "object",
        _ => "other",
    };
    (kind, found.to_owned())
}

/// What was expected, as serde names it (`a string`, `u32`, `struct X`,
/// `one of `a`, `b``): its kind, and the choices or the name as written.
fn expected_kind(expected: &str) -> (&'static str, String) {
    let kind = match expected {
        "" => "none",
        "a string" | "a borrowed string" => "string",
        "a boolean" => "boolean",
        "a sequence" => "array",
        "a map" => "object",
        "u8" | "u16" | "u32" | "u64" | "u128" | "usize" | "i8" | "i16" | "i32" | "i64" | "i128"
        | "isize" => "integer",
        "f32" | "f64" => "number",
        e if e.starts_with("struct ") => "object",
        e if e.starts_with("one of ") => {
            return ("choices", e.trim_start_matches("one of ").to_owned());
        }
        e if e.starts_with('`') => return ("choices", e.replace("` or `", "`, `")),
        _ => "other",
    };
    (kind, expected.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;
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

    fn fault(json: &str) -> (String, Text) {
        match serde_json::from_str::<Body>(json) {
            Ok(body) => panic!("{json}: {body:?}"),
            Err(err) => (err.to_string(), text(&err, None)),
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
        assert_eq!(
            without_types("invalid type: string \"x\", expected struct MoveRequest"),
            "invalid type: string \"x\", expected an object"
        );
        assert_eq!(
            without_types("invalid type: map, expected enum Side at line 1 column 9"),
            "invalid type: map, expected a known value at line 1 column 9"
        );
        assert_eq!(
            without_types("invalid length 1, expected tuple struct Pair"),
            "invalid length 1, expected an array"
        );
        assert_eq!(without_types("expected `,` or `}`"), "expected `,` or `}`");
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
            let expected = match id {
                "json-syntax" => format!("malformed JSON: {serde}"),
                _ => serde,
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
        let text = text(&err, Some("moves[2]"));
        assert_eq!(
            i18n::write(Lang::En, &text),
            "field `moves[2]`: invalid type: string \"x\", expected u32 at line 1 column 3"
        );
        let query = in_query(text.clone(), "state");
        assert!(i18n::write(Lang::En, &query)
            .starts_with("query parameter `state`: field `moves[2]`: "));
        assert!(
            i18n::write(Lang::Cs, &query).starts_with("parametr dotazu `state`: pole `moves[2]`: ")
        );
        let item = in_batch(text.clone(), 3);
        assert!(i18n::write(Lang::En, &item).starts_with("requests[3]: field `moves[2]`: "));
        let claim = in_list(text, "claims", 2);
        for lang in [Lang::En, Lang::Cs] {
            assert!(i18n::write(lang, &claim).starts_with("claims[2].request: "));
        }
        // Without a position (a batch item decoded from a value).
        let err = serde_json::from_value::<u32>(serde_json::json!("x")).err();
        let Some(err) = err else { panic!("parsed") };
        let text = self::text(&err, None);
        assert_eq!(
            i18n::write(Lang::En, &text),
            "invalid type: string \"x\", expected u32"
        );
        assert!(!i18n::write(Lang::Cs, &text).contains("řádku"));
    }
}
