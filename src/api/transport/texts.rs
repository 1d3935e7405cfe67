//! The human texts an answer carries, written by the one writer of that
//! answer in the language of the request being served
//! ([`super::request_id::current_lang`]): a refused move's detail
//! ([`refused`]) and a rule reason's message ([`reason_message`]), from
//! the catalogue (`src/i18n`), by the rule's code and the facts it names.
//! (Every other problem's detail is its error's, `RequestError::detail`.)
//! Every language, English included, from its catalogue; where the
//! catalogue has no text (a code of a game served in tests only) the
//! error's own English.

use crate::i18n::{self, Lang};

use super::request_id::current_lang;

/// A rule reason's message in the language of the request being served:
/// the reason's from the catalogue, at its square when it names one
/// (`english`, as the engine writes it, only for a code the catalogue does
/// not know: a game served in tests only).
pub fn reason_message(
    code: &str,
    square: Option<&str>,
    english: impl FnOnce() -> String,
) -> String {
    reason(current_lang(), code, square).unwrap_or_else(english)
}

/// A rule's reason in `lang`, at its square when it names one.
fn reason(lang: Lang, code: &str, square: Option<&str>) -> Option<String> {
    let rule = i18n::reason(lang, code)?;
    match square {
        Some(square) => i18n::text(
            lang,
            "refused-at-square",
            &[("reason", rule), ("square", square)],
        ),
        None => Some(rule.to_owned()),
    }
}

/// A refused move's detail in `lang`: its rule's reason (`code`) from the
/// catalogue, at its square when it names one, else by its player (and
/// vehicle) when the game is simultaneous; `None` for a code the
/// catalogue does not know (a game served in tests only).
pub fn refused(
    lang: Lang,
    code: &str,
    square: Option<&str>,
    player: Option<&str>,
    vehicle: Option<&str>,
) -> Option<String> {
    let rule = i18n::reason(lang, code)?;
    match (square, player, vehicle) {
        (Some(_), ..) => reason(lang, code, square),
        (None, Some(player), Some(vehicle)) => i18n::text(
            lang,
            "refused-vehicle",
            &[("reason", rule), ("player", player), ("vehicle", vehicle)],
        ),
        (None, Some(player), None) => i18n::text(
            lang,
            "refused-by-player",
            &[("reason", rule), ("player", player)],
        ),
        (None, None, _) => Some(rule.to_owned()),
    }
}
