//! A rule tag of a conformance corpus.

use serde_json::{json, Value};

/// A rule tag: a short name and the sentence of the rules it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tag {
    pub name: &'static str,
    /// Where the rule is written: its game's document in `docs/`, and the
    /// rule or section.
    pub source: &'static str,
    pub rule: &'static str,
}

impl Tag {
    pub(super) fn header(self) -> Value {
        json!({"tag": self.name, "source": self.source, "rule": self.rule})
    }
}
