//! What is wrong with a JSON document the operation could not take,
//! written as a catalogue text (`json-syntax`, `json-data`) with its
//! arguments: where (line and column, the field's path, a query parameter
//! or a batch item), the kind of fault, and for a value of the wrong type
//! what came and what was expected. So a Czech detail says as much as the
//! English one, which `en.ftl` writes in serde_json's words.
//!
//! The kind is told from structure, never from an error's words: a value
//! of the wrong shape from the [`DataFault`] the reading kept
//! ([`super::strict`]), a malformed document from jiter's error kinds
//! (serde_json keeps its own private; jiter names the same faults, and
//! reads the document again only when serde_json refused it).

use serde::de::{self, Deserialize, Unexpected};

use crate::text::Text;

/// A value of the wrong shape, as serde's `de::Error` methods name it.
#[derive(Clone, Debug, PartialEq)]
pub enum DataFault {
    InvalidType {
        came: Came,
        expected: String,
    },
    InvalidValue {
        came: Came,
        expected: String,
    },
    InvalidLength {
        len: usize,
        expected: String,
    },
    UnknownVariant {
        name: String,
        expected: &'static [&'static str],
    },
    UnknownField {
        name: String,
        expected: &'static [&'static str],
    },
    MissingField(&'static str),
    DuplicateField(&'static str),
    /// Any other fault a type's own deserializer raises, in its words.
    Custom(String),
}

/// What came where something else was expected: serde's [`Unexpected`],
/// owned: its kind in the catalogues, its value as serde_json quotes it,
/// serde's words for it, and the float it is (serde_json words a float,
/// and null, its own way).
#[derive(Clone, Debug, PartialEq)]
pub struct Came {
    kind: &'static str,
    value: String,
    words: String,
    float: Option<f64>,
}

impl Came {
    pub fn of(unexpected: Unexpected<'_>) -> Came {
        let words = unexpected.to_string();
        let (kind, value) = match unexpected {
            Unexpected::Str(v) => ("string", format!("{v:?}")),
            Unexpected::Unsigned(v) => ("integer", format!("`{v}`")),
            Unexpected::Signed(v) => ("integer", format!("`{v}`")),
            Unexpected::Float(v) => ("float", format!("`{}`", ryu::Buffer::new().format(v))),
            Unexpected::Bool(v) => ("boolean", format!("`{v}`")),
            Unexpected::Char(v) => ("character", format!("`{v}`")),
            Unexpected::Unit => ("null", "null".to_owned()),
            Unexpected::Seq => ("array", "sequence".to_owned()),
            Unexpected::Map => ("object", "map".to_owned()),
            _ => ("other", words.clone()),
        };
        let float = match unexpected {
            Unexpected::Float(v) => Some(v),
            _ => None,
        };
        Came {
            kind,
            value,
            words,
            float,
        }
    }

    fn unexpected(&self) -> Unexpected<'_> {
        match (self.kind, self.float) {
            ("null", _) => Unexpected::Unit,
            (_, Some(v)) => Unexpected::Float(v),
            _ => Unexpected::Other(&self.words),
        }
    }
}

impl DataFault {
    /// The error `E` makes of this fault: its words, as serde (and the
    /// format's own error type) writes them; what it expected said as
    /// JSON says it rather than by the service's Rust types (`struct
    /// MoveRequest`: an object) when `plain`.
    pub fn to_error<E: de::Error>(&self, plain: bool) -> E {
        let said: fn(&str) -> &str = if plain { plain_expected } else { |e| e };
        match self {
            DataFault::InvalidType { came, expected } => {
                E::invalid_type(came.unexpected(), &said(expected))
            }
            DataFault::InvalidValue { came, expected } => {
                E::invalid_value(came.unexpected(), &said(expected))
            }
            DataFault::InvalidLength { len, expected } => E::invalid_length(*len, &said(expected)),
            DataFault::UnknownVariant { name, expected } => E::unknown_variant(name, expected),
            DataFault::UnknownField { name, expected } => E::unknown_field(name, expected),
            DataFault::MissingField(name) => E::missing_field(name),
            DataFault::DuplicateField(name) => E::duplicate_field(name),
            DataFault::Custom(message) => E::custom(message),
        }
    }

    /// The missing field's name, when that is the fault.
    pub fn missing_field(&self) -> Option<&'static str> {
        match self {
            DataFault::MissingField(name) => Some(name),
            _ => None,
        }
    }
}

/// What a visitor expects (its `expecting`: for the service's own types,
/// serde_derive's words naming a Rust type) as JSON says it.
fn plain_expected(expected: &str) -> &str {
    const KINDS: &[(&str, &str)] = &[
        ("tuple struct ", "an array"),
        ("newtype struct ", "a value"),
        ("unit struct ", "null"),
        ("struct variant ", "an object"),
        ("tuple variant ", "an array"),
        ("unit variant ", "a known value"),
        ("newtype variant ", "a value"),
        ("struct ", "an object"),
        ("enum ", "a known value"),
    ];
    KINDS
        .iter()
        .find(|(kind, _)| expected.starts_with(kind))
        .map_or(expected, |(_, plain)| plain)
}

/// The text of a JSON document's value of the wrong shape: `fault`, as
/// the reading kept it (`None` for one no visitor raised), `error` the
/// error that came out (its line and column where it knows them), at the
/// field `at` (`None`: the document as a whole).
pub fn data_text(error: &serde_json::Error, fault: Option<&DataFault>, at: Option<&str>) -> Text {
    let text = match fault {
        Some(fault) => fault_text::<serde_json::Error>(fault),
        None => Text::new("json-data")
            .with("fault", "other")
            .with("error", crate::text::quotes_cut(&words(error), &['`', '"'])),
    };
    text.with("at", at.unwrap_or("none"))
        .with("line", error.line())
        .with("column", error.column())
        .with("in", "body")
}

/// `fault`'s arguments in the catalogues' `json-data`, its English words
/// (`error`) as `E`, the format's error type, writes them.
fn fault_text<E: de::Error>(fault: &DataFault) -> Text {
    let english: E = fault.to_error(true);
    let none = || ("", String::new());
    let nothing = || ("none", String::new());
    let wrong = |kind, came: &Came, expected: &str| {
        let value = (came.kind, came.value.clone());
        (kind, "", value, expected_kind(expected))
    };
    let (kind, name, (unexpected, value), expected) = match fault {
        DataFault::InvalidType { came, expected } => wrong("invalid-type", came, expected),
        DataFault::InvalidValue { came, expected } => wrong("invalid-value", came, expected),
        DataFault::InvalidLength { len, expected } => (
            "invalid-length",
            "",
            ("length", len.to_string()),
            expected_kind(expected),
        ),
        DataFault::UnknownVariant { name, expected } => {
            ("unknown-variant", name.as_str(), none(), choices(expected))
        }
        DataFault::UnknownField { name, expected } => {
            ("unknown-field", name.as_str(), none(), choices(expected))
        }
        DataFault::MissingField(name) => ("missing-field", *name, none(), nothing()),
        DataFault::DuplicateField(name) => ("duplicate-field", *name, none(), nothing()),
        DataFault::Custom(_) => ("other", "", none(), nothing()),
    };
    Text::new("json-data")
        .with("fault", kind)
        .quoting("name", name)
        .with("unexpected", unexpected)
        .quoting("value", &value)
        .with("expected", expected.0)
        .with("choices", expected.1)
        .with(
            "error",
            crate::text::quotes_cut(&english.to_string(), &['`', '"']),
        )
}

/// serde_json's words for `error`, without the place it ends them with.
fn words(error: &serde_json::Error) -> String {
    let whole = error.to_string();
    match error.line() {
        0 => whole,
        line => {
            let place = format!(" at line {line} column {}", error.column());
            match whole.strip_suffix(&place) {
                Some(words) => words.to_owned(),
                None => whole,
            }
        }
    }
}

/// A JSON document serde_json could not read (`error`, of `document`):
/// its line and column, and the fault jiter names in it.
pub fn syntax_text(error: &serde_json::Error, document: &[u8]) -> Text {
    Text::new("json-syntax")
        .with("fault", syntax_fault(document))
        .with("error", crate::text::quotes_cut(&words(error), &['`', '"']))
        .with("line", error.line())
        .with("column", error.column())
        .with("in", "body")
}

/// The kind of fault jiter finds in `document`, as the catalogues name
/// it. Where jiter finds none, serde_json refused what jiter takes: a
/// float past `f64`'s range (jiter reads it as infinite), or a document
/// one level deeper than jiter counts when it skips values.
fn syntax_fault(document: &[u8]) -> &'static str {
    use jiter::JsonErrorType as Kind;
    let Some(kind) = jiter_fault(document, SERDE_JSON_RECURSION_LIMIT) else {
        return match jiter_fault(document, SERDE_JSON_RECURSION_LIMIT - 1) {
            Some(Kind::RecursionLimitExceeded) => "too-deep",
            _ if !all_finite(document) => "number-out-of-range",
            _ => "other",
        };
    };
    match kind {
        Kind::EofWhileParsingList
        | Kind::EofWhileParsingObject
        | Kind::EofWhileParsingString
        | Kind::EofWhileParsingValue => "eof",
        Kind::ExpectedColon => "expected-colon",
        Kind::ExpectedListCommaOrEnd => "expected-comma-or-bracket",
        Kind::ExpectedObjectCommaOrEnd => "expected-comma-or-brace",
        Kind::ExpectedSomeIdent | Kind::ExpectedSomeValue => "expected-value",
        Kind::InvalidEscape | Kind::UnexpectedEndOfHexEscape => "invalid-escape",
        Kind::InvalidNumber => "invalid-number",
        Kind::NumberOutOfRange => "number-out-of-range",
        Kind::InvalidUnicodeCodePoint | Kind::LoneLeadingSurrogateInHexEscape => "invalid-unicode",
        Kind::ControlCharacterWhileParsingString => "control-character",
        Kind::KeyMustBeAString => "key-not-string",
        Kind::TrailingComma => "trailing-comma",
        Kind::TrailingCharacters => "trailing-characters",
        Kind::RecursionLimitExceeded => "too-deep",
        _ => "other",
    }
}

/// How deep jiter reads nested arrays and objects: as deep as serde_json
/// (127 levels; but for one level more, where it skips values).
const SERDE_JSON_RECURSION_LIMIT: usize = 127;

/// The syntax fault jiter finds in `document`, reading `depth` levels.
fn jiter_fault(document: &[u8], depth: usize) -> Option<jiter::JsonErrorType> {
    let mut reader = jiter::serde::JiterDeserializer::new(document).with_recursion_limit(depth);
    let read = de::IgnoredAny::deserialize(&mut reader).and_then(|_| reader.finish());
    match read {
        Err(jiter::serde::Error::Syntax(error)) => Some(error.error_type),
        _ => None,
    }
}

/// Whether every number of `document` (one jiter takes) is finite.
fn all_finite(document: &[u8]) -> bool {
    use jiter::{Jiter, JiterResult, Peek};
    fn finite(reader: &mut Jiter, peek: Peek, depth: usize) -> JiterResult<bool> {
        if peek.is_num() {
            return Ok(reader.known_float(peek)?.is_finite());
        }
        if depth > SERDE_JSON_RECURSION_LIMIT {
            return reader.known_skip(peek).map(|()| true);
        }
        let mut all = true;
        match peek {
            Peek::Array => {
                let mut next = reader.known_array()?;
                while let Some(peek) = next.filter(|_| all) {
                    all = finite(reader, peek, depth + 1)?;
                    next = reader.array_step()?;
                }
            }
            Peek::Object => {
                let mut key = reader.known_object()?.is_some();
                while key && all {
                    let peek = reader.peek()?;
                    all = finite(reader, peek, depth + 1)?;
                    key = reader.next_key()?.is_some();
                }
            }
            other => reader.known_skip(other)?,
        }
        Ok(all)
    }
    let mut reader = Jiter::new(document);
    let peek = reader.peek();
    peek.and_then(|peek| finite(&mut reader, peek, 0))
        .unwrap_or(true)
}

/// What was expected, as a visitor says it (`a string`, `u32`, `struct
/// X`): its kind in the catalogues, and the words as they are.
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
        _ => "other",
    };
    (kind, expected.to_owned())
}

/// The names a field or a variant could have been, as the catalogues list
/// them (`` `a`, `b` ``).
fn choices(names: &[&str]) -> (&'static str, String) {
    let listed: Vec<String> = names.iter().map(|name| format!("`{name}`")).collect();
    ("choices", listed.join(", "))
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

#[cfg(test)]
#[path = "json_fault_tests.rs"]
mod tests;
