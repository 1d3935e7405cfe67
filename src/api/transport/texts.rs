//! The rule reasons an answer carries (`validate`'s `reason.message`),
//! written by the one writer of that answer in the language of the
//! request being served ([`super::request_id::current_lang`]), from the
//! catalogue (`src/i18n`) by the rule's code and its square. (A problem's
//! detail is its error's, `RequestError::detail`.)

use super::request_id::current_lang;

/// A rule reason's message in the language of the request being served:
/// the reason's from the catalogue, at its square when it names one; a
/// code the catalogue does not know (a game served in tests only) as the
/// code.
pub fn reason_message(code: &str, square: Option<&str>) -> String {
    crate::error::rule_reason(current_lang(), code, square)
}
