//! The human texts an answer carries, written by the one writer of that
//! answer in the language of the request being served
//! ([`super::request_id::current_lang`]): a problem's detail
//! ([`detail`]) and a rule reason's message ([`reason_message`]), from the
//! catalogue (`src/i18n`), by the problem's code and the facts it names.
//! Every language, English included, from its catalogue; where the
//! catalogue has no text (a code of a game served in tests only) the
//! error's own English.

use crate::i18n::{self, Lang};

use super::request_id::current_lang;

/// What a problem says of itself, for its detail in another language.
#[derive(Debug, Default)]
pub struct Facts<'a> {
    pub code: &'a str,
    pub field: Option<&'a str>,
    pub square: Option<&'a str>,
    pub player: Option<&'a str>,
    pub vehicle: Option<&'a str>,
    /// A quota refusal's policy and price.
    pub policy: Option<&'a str>,
    pub price: Option<u32>,
    /// A 404's path, a 405's method and what is allowed.
    pub path: Option<&'a str>,
    pub method: Option<&'a str>,
    pub allow: Option<&'a str>,
    /// When to retry (429, 503), in seconds.
    pub retry: Option<u64>,
}

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

/// A problem's detail in `lang` (in English, only a refused move's: other
/// English details are the errors' own): a refused move's as the games
/// write it (the rule, at its square, or by
/// its player and vehicle), else its code's own with the facts it names.
pub fn detail(lang: Lang, facts: &Facts) -> Option<String> {
    if let Some(rule) = i18n::reason(lang, facts.code) {
        return match (facts.square, facts.player, facts.vehicle) {
            (Some(_), ..) => reason(lang, facts.code, facts.square),
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
        };
    }
    let price = facts
        .price
        .map(|price| price.to_string())
        .unwrap_or_default();
    let retry = facts
        .retry
        .map(|retry| retry.to_string())
        .unwrap_or_default();
    i18n::text(
        lang,
        &format!("detail-{}", facts.code),
        &[
            ("field", facts.field.unwrap_or("none")),
            ("policy", facts.policy.unwrap_or("none")),
            ("price", &price),
            ("path", facts.path.unwrap_or_default()),
            ("method", facts.method.unwrap_or_default()),
            ("allow", facts.allow.unwrap_or_default()),
            ("retry", &retry),
        ],
    )
}
