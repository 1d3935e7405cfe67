//! Parse errors of the Tank Battle engine: text that does not follow a
//! notation (kept apart from rule errors, `error.rs`).

use thiserror::Error;

/// Which notation a [`ParseError`] is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// TBN position text.
    Position,
    /// Layout text or name.
    Layout,
    /// A move (`e4-e5`) or a square (`e4`).
    Move,
}

/// Text that does not follow a notation.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("{message}")]
pub struct ParseError {
    pub notation: Notation,
    pub message: String,
}

impl ParseError {
    pub(crate) fn new(notation: Notation, message: impl Into<String>) -> ParseError {
        ParseError {
            notation,
            message: message.into(),
        }
    }
}
