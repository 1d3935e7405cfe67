//! A text an answer carries, before it is written in a language: a
//! catalogue message and its named arguments ([`Text`]). The engines, the
//! flows and the errors say what they mean as a `Text` (a rule's code and
//! its square, a limit and its number, a position's fault and where it
//! is); the one writer of an answer writes it in the language asked, from
//! that language's catalogue (`crate::i18n::write`), English included. So
//! every language says as much as English, and nothing is written twice.

use std::borrow::Cow;

/// A catalogue message and its named arguments.
#[derive(Clone, Debug, PartialEq)]
pub struct Text {
    id: Cow<'static, str>,
    args: Vec<(&'static str, Arg)>,
}

/// An argument of a message: text, or a number (which a catalogue may
/// choose a plural form by).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    Str(String),
    Num(f64),
}

impl Text {
    /// The message `id`, with no arguments yet.
    pub fn new(id: impl Into<Cow<'static, str>>) -> Text {
        Text {
            id: id.into(),
            args: Vec::new(),
        }
    }

    /// The same text, its argument `name` set to `value` (in place of any
    /// value it had).
    pub fn with(mut self, name: &'static str, value: impl Into<Arg>) -> Text {
        let value = value.into();
        match self.args.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.args.push((name, value)),
        }
        self
    }

    /// The same text, its argument `name` set to `value`, a value the
    /// client sent: quoted as [`quote`] cuts it.
    pub fn quoting(self, name: &'static str, value: &str) -> Text {
        self.with(name, quote(value).into_owned())
    }

    /// Its message's id in the catalogues.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Its arguments, by name.
    pub fn args(&self) -> &[(&'static str, Arg)] {
        &self.args
    }
}

/// The most characters of one value the client sent that an answer
/// quotes (a move, a field's name, a value of the wrong type): an answer
/// echoes a bounded prefix of what it was sent, never the whole of it.
pub const QUOTE_MAX: usize = 64;

/// `value`, a value the client sent, as an answer quotes it: its first
/// [`QUOTE_MAX`] characters, and `…` when there were more.
pub fn quote(value: &str) -> Cow<'_, str> {
    match value.char_indices().nth(QUOTE_MAX) {
        None => Cow::Borrowed(value),
        Some((end, _)) => Cow::Owned(format!("{}…", &value[..end])),
    }
}

/// `message`, a library's message that quotes what the client sent
/// between one of `marks` (serde's backticks and double quotes, a JSON
/// Schema validator's single quotes), with each quoted value cut as
/// [`quote`] cuts it.
pub fn quotes_cut(message: &str, marks: &[char]) -> String {
    let mut out = String::with_capacity(message.len().min(1024));
    let mut rest = message;
    while let Some(open) = rest.find(marks) {
        let mark = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let inside = &rest[open + 1..];
        let Some(close) = inside.find(mark) else {
            out.push_str(&quote(inside));
            return out;
        };
        out.push_str(&quote(&inside[..close]));
        out.push(mark);
        rest = &inside[close + 1..];
    }
    out.push_str(rest);
    out
}

impl From<&str> for Arg {
    fn from(value: &str) -> Arg {
        Arg::Str(value.to_owned())
    }
}

impl From<String> for Arg {
    fn from(value: String) -> Arg {
        Arg::Str(value)
    }
}

impl From<&String> for Arg {
    fn from(value: &String) -> Arg {
        Arg::Str(value.clone())
    }
}

macro_rules! numbers {
    ($($t:ty)*) => {$(
        impl From<$t> for Arg {
            fn from(value: $t) -> Arg {
                Arg::Num(value as f64)
            }
        }
    )*};
}
numbers!(u8 u16 u32 u64 usize i32 i64 f64);

impl std::fmt::Display for Arg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Arg::Str(text) => f.write_str(text),
            Arg::Num(n) => write!(f, "{n}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_keeps_its_message_and_arguments_in_order() {
        let text = Text::new("limit-replay")
            .with("count", 5usize)
            .with("field", "moves")
            .with("max", 4u64);
        assert_eq!(text.id(), "limit-replay");
        let names: Vec<&str> = text.args().iter().map(|(n, _)| *n).collect();
        assert_eq!(names, ["count", "field", "max"]);
        assert_eq!(text.args()[0].1, Arg::Num(5.0));
        assert_eq!(text.args()[1].1.to_string(), "moves");
        assert_eq!(Arg::Num(20_000_000.0).to_string(), "20000000");
    }

    #[test]
    fn what_the_client_sent_is_quoted_at_most_quote_max_characters() {
        assert_eq!(quote("j4-j5"), "j4-j5");
        let long = "é".repeat(60_000);
        let quoted = quote(&long);
        assert_eq!(quoted.chars().count(), QUOTE_MAX + 1);
        assert!(quoted.ends_with('…'));
        let message = format!("unknown field `{long}`, expected `position` or `move`");
        let cut = quotes_cut(&message, &['`', '"']);
        assert_eq!(
            cut,
            format!(
                "unknown field `{}…`, expected `position` or `move`",
                "é".repeat(QUOTE_MAX)
            )
        );
        let message = format!("\"{long}\" does not match \"^[a-k]\"");
        assert_eq!(
            quotes_cut(&message, &['"']),
            format!("\"{}…\" does not match \"^[a-k]\"", "é".repeat(QUOTE_MAX))
        );
        // An unclosed quote is cut too.
        assert_eq!(
            quotes_cut(&format!("x `{long}"), &['`']).chars().count(),
            QUOTE_MAX + 4
        );
        assert_eq!(quotes_cut("no quotes", &['`']), "no quotes");
        assert_eq!(
            Text::new("m").quoting("found", &long).args()[0]
                .1
                .to_string(),
            quoted
        );
    }
}
