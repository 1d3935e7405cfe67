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

    /// Its message's id in the catalogues.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// Its arguments, by name.
    pub fn args(&self) -> &[(&'static str, Arg)] {
        &self.args
    }
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
}
