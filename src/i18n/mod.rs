//! The languages answers speak: English (the default, and the answer for
//! any language not offered) and Czech, chosen by `Accept-Language`
//! ([`negotiate`], RFC 9110 with `q` weights). The texts live in one
//! Fluent catalogue a language (`en.ftl`, `cs.ftl`, compiled in), each
//! with the same messages and variables: a problem code's `title-` and
//! `detail-`, a rule reason's `reason-`, and the `refused-` wrappers of a
//! refused move's detail. A problem's title is its code's `title-` in
//! either language ([`title`]: one title a problem type, whichever game
//! refused). Texts that carry their facts as a [`Text`] — a limit
//! (`limit-`), a malformed JSON document (`json-`), a Tank Battle
//! notation's fault (`notation-`), a position's broken invariant
//! (`invalid-`), the pictures (`svg-`, `chart-`) — are written from the
//! catalogue in every language, English included. Rule reasons are still
//! the engines' English sentences in English answers (a request that asks for no language
//! pays nothing for them); `en.ftl` says the same (tested), and is what
//! translations start from.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource};
use fluent_syntax::ast::{Expression, InlineExpression, Pattern, PatternElement};
use unic_langid::LanguageIdentifier;

use crate::text::{Arg, Text};

/// A language answers speak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Lang {
    #[default]
    En,
    Cs,
}

impl Lang {
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Cs];

    /// The language's tag, as `Content-Language` says it.
    pub const fn tag(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Cs => "cs",
        }
    }

    /// The language's place in a table of one entry a language.
    const fn index(self) -> usize {
        match self {
            Lang::En => 0,
            Lang::Cs => 1,
        }
    }

    /// The catalogue's source.
    const fn source(self) -> &'static str {
        match self {
            Lang::En => include_str!("en.ftl"),
            Lang::Cs => include_str!("cs.ftl"),
        }
    }

    /// The catalogue's sources: its own, and in the service's tests the
    /// catalogue of the game served in tests only (Nim), which the
    /// production catalogues do not carry.
    fn sources(self) -> Vec<&'static str> {
        #[cfg(test)]
        let test_games = match self {
            Lang::En => include_str!("nim.en.ftl"),
            Lang::Cs => include_str!("nim.cs.ftl"),
        };
        vec![
            self.source(),
            #[cfg(test)]
            test_games,
        ]
    }

    /// The language a range of `Accept-Language` names (`cs`, `cs-CZ`,
    /// `CS`; RFC 4647 lookup, its subtags dropped one by one), if offered.
    fn of_range(range: &str) -> Option<Lang> {
        let primary = range.split('-').next().unwrap_or_default();
        Lang::ALL
            .into_iter()
            .find(|lang| primary.eq_ignore_ascii_case(lang.tag()))
    }
}

/// The language an `Accept-Language` value prefers among those offered:
/// the highest `q` (1 when absent; a range of `q=0` is refused), the
/// first of equal weights; English when none is offered, for `*` and for
/// no header at all.
pub fn negotiate(accept_language: Option<&[u8]>) -> Lang {
    let Some(value) = accept_language.and_then(|v| std::str::from_utf8(v).ok()) else {
        return Lang::En;
    };
    let mut best: Option<(Lang, f32)> = None;
    for item in value.split(',') {
        let mut parts = item.split(';');
        let range = parts.next().unwrap_or_default().trim();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or(p.trim().strip_prefix("Q=")))
            .find_map(|q| q.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        let Some(lang) = Lang::of_range(range) else {
            continue;
        };
        if q > 0.0 && best.is_none_or(|(_, best_q)| q > best_q) {
            best = Some((lang, q));
        }
    }
    best.map_or(Lang::En, |(lang, _)| lang)
}

/// A language's catalogue, parsed once.
fn bundle(lang: Lang) -> &'static FluentBundle<FluentResource> {
    static BUNDLES: [OnceLock<FluentBundle<FluentResource>>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    BUNDLES[lang.index()].get_or_init(|| {
        let id: LanguageIdentifier = lang.tag().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Plain text: no Unicode isolation marks around placeables.
        bundle.set_use_isolating(false);
        // A catalogue with errors is a bug caught by the tests below; what
        // parsed is used.
        for source in lang.sources() {
            let resource =
                FluentResource::try_new(source.to_owned()).unwrap_or_else(|(resource, _)| resource);
            let _ = bundle.add_resource(resource);
        }
        bundle
    })
}

/// `text` written in `lang`, from that language's catalogue: the one way
/// any answer's human text is written. A message the catalogue lacks (a
/// bug the catalogue tests catch) is written as its id.
pub fn write(lang: Lang, text: &Text) -> String {
    let bundle = bundle(lang);
    let Some(pattern) = bundle.get_message(text.id()).and_then(|m| m.value()) else {
        return text.id().to_owned();
    };
    let plain = plainly(pattern, |name| {
        text.args()
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, value)| match value {
                Arg::Str(value) => Some(Cow::Borrowed(value.as_str())),
                Arg::Num(n) => whole(*n).map(|n| Cow::Owned(n.to_string())),
            })
    });
    if let Some(written) = plain {
        return written;
    }
    let mut args = FluentArgs::with_capacity(text.args().len());
    for (name, value) in text.args() {
        match value {
            Arg::Str(value) => args.set(*name, value.as_str()),
            Arg::Num(value) => args.set(*name, *value),
        }
    }
    let mut errors = Vec::new();
    bundle
        .format_pattern(pattern, Some(&args), &mut errors)
        .into_owned()
}

/// The message `id` in `lang` with its variables, `None` when the
/// catalogue has no such message.
pub fn text(lang: Lang, id: &str, args: &[(&str, &str)]) -> Option<String> {
    let bundle = bundle(lang);
    let pattern = bundle.get_message(id)?.value()?;
    let plain = plainly(pattern, |name| {
        args.iter()
            .find(|(n, _)| *n == name)
            .map(|(_, value)| Some(Cow::Borrowed(*value)))
    });
    if plain.is_some() {
        return plain;
    }
    let mut fluent_args = FluentArgs::new();
    for (name, value) in args {
        fluent_args.set(*name, *value);
    }
    let mut errors = Vec::new();
    let written = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    errors.is_empty().then(|| written.into_owned())
}

/// `pattern` written without Fluent's resolver when it is only text and
/// variables (most messages): their values in place, as Fluent writes
/// them with isolation off. `None` for anything else (a selector, a
/// literal, a reference, a variable not given or a number that is not
/// whole), which Fluent writes.
fn plainly<'a>(
    pattern: &Pattern<&str>,
    arg: impl Fn(&str) -> Option<Option<Cow<'a, str>>>,
) -> Option<String> {
    let mut out = String::with_capacity(96);
    for element in &pattern.elements {
        match element {
            PatternElement::TextElement { value } => out.push_str(value),
            PatternElement::Placeable {
                expression: Expression::Inline(InlineExpression::VariableReference { id }),
            } => out.push_str(&arg(id.name)??),
            PatternElement::Placeable { .. } => return None,
        }
    }
    Some(out)
}

/// `n` when it is a whole number Fluent writes as digits alone.
fn whole(n: f64) -> Option<i64> {
    (n.fract() == 0.0 && n.abs() < 1e15).then_some(n as i64)
}

/// Test support: `text` written in English is `english` (what the engine
/// says of itself), and in Czech is written from the Czech catalogue (not
/// the English, not the message's id).
#[cfg(test)]
pub(crate) fn assert_english_and_czech(text: &Text, english: &str) {
    assert_eq!(write(Lang::En, text), english, "{text:?}");
    let czech = write(Lang::Cs, text);
    assert_ne!(czech, english, "{text:?}");
    assert_ne!(czech, text.id(), "{text:?}");
}

/// The title of the problem `code` in `lang`: the catalogue's
/// `title-{code}`, written once and kept. A problem type has this one
/// title a language, whichever game or layer refused; `None` for a code
/// the catalogue does not know (a game served in tests only).
pub fn title(lang: Lang, code: &str) -> Option<&'static str> {
    static TITLES: [OnceLock<HashMap<String, String>>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    by_code(&TITLES, lang, "title-", code)
}

/// The rule reason `code` in `lang`: the catalogue's `reason-{code}`,
/// written once and kept; `None` for a code the catalogue does not know.
pub fn reason(lang: Lang, code: &str) -> Option<&'static str> {
    static REASONS: [OnceLock<HashMap<String, String>>; Lang::ALL.len()] =
        [const { OnceLock::new() }; Lang::ALL.len()];
    by_code(&REASONS, lang, "reason-", code)
}

/// The message `{prefix}{code}` of `lang` (one without variables), from
/// `table`, which is filled with every such message once.
fn by_code(
    table: &'static [OnceLock<HashMap<String, String>>; Lang::ALL.len()],
    lang: Lang,
    prefix: &str,
    code: &str,
) -> Option<&'static str> {
    let texts = table[lang.index()].get_or_init(|| {
        message_ids(lang)
            .iter()
            .filter_map(|id| {
                let code = id.strip_prefix(prefix)?;
                Some((code.to_owned(), text(lang, id, &[])?))
            })
            .collect()
    });
    texts.get(code).map(String::as_str)
}

/// The messages of `lang` whose ids start with `prefix` (the board's
/// `board-`), for a page to write itself: id → text, each variable left
/// as `{name}` for the page to fill. A message that is one selector on a
/// number's plural category (`{ $count -> [one] … *[other] … }`) is an
/// object of its variants: `{"plural": "count", "one": …, "other": …,
/// "*": "other"}` (the page picks by the language's plural rules, the
/// `*` variant otherwise). Any other message that is more than text and
/// variables (a reference) is left out; the catalogue tests hold that
/// none of the page's is.
pub fn page_texts(lang: Lang, prefix: &str) -> Vec<(String, serde_json::Value)> {
    let bundle = bundle(lang);
    let braced = |name: &str| Some(Some(Cow::Owned(format!("{{{name}}}"))));
    message_ids(lang)
        .into_iter()
        .filter(|id| id.starts_with(prefix))
        .filter_map(|id| {
            let pattern = bundle.get_message(&id)?.value()?;
            if let Some(text) = plainly(pattern, braced) {
                return Some((id, serde_json::Value::String(text)));
            }
            let [PatternElement::Placeable {
                expression:
                    Expression::Select {
                        selector: InlineExpression::VariableReference { id: of },
                        variants,
                    },
            }] = pattern.elements.as_slice()
            else {
                return None;
            };
            let mut plural = serde_json::Map::new();
            plural.insert("plural".into(), of.name.into());
            for variant in variants {
                let key = match variant.key {
                    fluent_syntax::ast::VariantKey::Identifier { name } => name,
                    fluent_syntax::ast::VariantKey::NumberLiteral { value } => value,
                };
                plural.insert(key.into(), plainly(&variant.value, braced)?.into());
                if variant.default {
                    plural.insert("*".into(), key.into());
                }
            }
            Some((id, serde_json::Value::Object(plural)))
        })
        .collect()
}

/// The ids of a catalogue's messages, in order.
pub fn message_ids(lang: Lang) -> Vec<String> {
    use fluent_bundle::FluentResource;
    use fluent_syntax::ast::Entry;
    let mut ids = Vec::new();
    for source in lang.sources() {
        let resource =
            FluentResource::try_new(source.to_owned()).unwrap_or_else(|(resource, _)| resource);
        ids.extend(resource.entries().filter_map(|entry| match entry {
            Entry::Message(message) => Some(message.id.name.to_owned()),
            _ => None,
        }));
    }
    ids
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each language has its own place in the per-language tables.
    #[test]
    fn every_language_has_its_own_place() {
        let places: Vec<usize> = Lang::ALL.iter().map(|lang| lang.index()).collect();
        assert_eq!(places, (0..Lang::ALL.len()).collect::<Vec<_>>());
    }

    #[test]
    fn accept_language_is_weighed() {
        let lang = |header: &str| negotiate(Some(header.as_bytes()));
        assert_eq!(negotiate(None), Lang::En);
        assert_eq!(lang("cs"), Lang::Cs);
        assert_eq!(lang("cs-CZ"), Lang::Cs);
        assert_eq!(lang("CS-cz;q=0.5"), Lang::Cs);
        assert_eq!(lang("cs;q=0.2, en;q=0.9"), Lang::En);
        assert_eq!(lang("en;q=0.2, cs;q=0.9"), Lang::Cs);
        assert_eq!(lang("de"), Lang::En);
        assert_eq!(lang("de, cs;q=0.1"), Lang::Cs);
        assert_eq!(lang("cs;q=0"), Lang::En);
        assert_eq!(lang("*"), Lang::En);
        assert_eq!(lang("sk, cs-CZ;q=0.8, en-GB;q=0.8"), Lang::Cs);
        assert_eq!(lang(";;,,q=x"), Lang::En);
    }

    /// Every message in every language, with every variable any message
    /// takes: each catalogue parses, has the same messages as English,
    /// and writes each of them without an error (a variable one
    /// catalogue uses and another does not give is an error).
    #[test]
    fn every_message_exists_in_every_language() {
        for lang in Lang::ALL {
            for source in lang.sources() {
                assert!(
                    FluentResource::try_new(source.to_owned()).is_ok(),
                    "{lang:?}: the catalogue does not parse"
                );
            }
        }
        let english = message_ids(Lang::En);
        assert!(english.len() >= 79, "{}", english.len());
        let args = [
            ("field", "position"),
            ("path", "/v1/x"),
            ("method", "PUT"),
            ("allow", "GET"),
            ("retry", "1"),
            ("reason", "r"),
            ("square", "e5"),
            ("player", "P1"),
            ("vehicle", "P1-1"),
            ("policy", "searches"),
            ("price", "6"),
            ("game", "tank-battle"),
            ("ply", "3"),
            ("played", "j4-j5"),
            ("label", "mistake"),
            ("loss", "12"),
            ("count", "5"),
            ("max", "4"),
            ("tank", "A"),
            ("names", "ai-move"),
            ("cap", "5000"),
            ("steps", "3"),
            ("cells", "121"),
            ("work", "363"),
            ("foreseen", "yes"),
            ("bytes", "1000"),
            ("depth", "9"),
            ("share", "100"),
            ("needed", "200"),
            ("line", "…"),
            ("side", "white"),
            ("move", "e2-e4"),
            ("role", "tank"),
            ("round", "2"),
            ("u", "1:00.0"),
            ("d", "0:59.5"),
            ("owner", "U"),
            ("name", "A"),
            ("type", "B"),
            ("left", "3"),
            ("first", "P1"),
            ("p1", "1"),
            ("p2", "0"),
            ("id", "P1-1"),
            ("armor", "3"),
            ("slot", "2"),
            ("kind", "artillery"),
            ("fault", "eof"),
            ("error", "EOF while parsing a value"),
            ("column", "7"),
            ("in", "query"),
            ("param", "state"),
            ("index", "3"),
            ("at", "moves[2]"),
            ("unexpected", "string"),
            ("value", "\"x\""),
            ("expected", "string"),
            ("choices", "`U`, `D`"),
            ("found", "x"),
            ("rank", "4"),
            ("covers", "10"),
            ("row", "2"),
            ("name-like", "yes"),
            ("letter", "W"),
            ("rows", "3"),
            ("cols", "4"),
            ("from", "a1"),
            ("to", "c2"),
            ("len", "3"),
            ("secs", "5"),
            ("quota", "2"),
            ("expect", "teapot"),
            ("encoding", "\"br\""),
            ("said", "Not Found"),
            ("code", "NOT_FOUND"),
            ("detail", "level must be 1 to 8, not 9"),
            ("ops", "validate, apply"),
            ("known", "position, size"),
            ("op", "apply"),
            ("limit", "8"),
            ("min", "10000"),
            // The board's texts.
            ("white", "14"),
            ("black", "12"),
            ("evaluation", "10"),
            ("pv", "g1-c5 a8-a7"),
            ("piece", "white tank"),
            ("seconds", "2"),
            ("status", "500"),
            ("best", "e9-e8"),
            ("accuracy", "91.5"),
            ("blunders", "1"),
            ("mistakes", "2"),
            ("inaccuracies", "3"),
            ("tu", "18"),
            ("td", "17"),
            ("by", "D RB (d4)"),
            ("order", "N2"),
            ("squares", "e6, d4"),
            ("v1", "3"),
            ("v2", "2"),
            ("a1", "9"),
            ("a2", "5"),
            ("s1", "0"),
            ("s2", "1"),
            ("plies", "3"),
            ("text", "w"),
            ("then", "a8-a7"),
            ("points", "1.5"),
            ("chance", "White's chance to win"),
            ("rating", "300"),
            ("themes", "a capture"),
            ("reply", "a8-a7"),
            ("moves", "g1-c5 a8-a7 c5-c9"),
            ("refutation", "a8xc5"),
        ];
        for lang in Lang::ALL {
            assert_eq!(message_ids(lang), english, "{lang:?}: other messages");
            for id in &english {
                let written = text(lang, id, &args);
                assert!(
                    written.as_deref().is_some_and(|t| !t.is_empty()),
                    "{lang:?}: {id}"
                );
            }
        }
        // Written plainly (text and variables) exactly as Fluent writes it.
        let mut plain = 0;
        for lang in Lang::ALL {
            let bundle = bundle(lang);
            for id in &english {
                let Some(pattern) = bundle.get_message(id).and_then(|m| m.value()) else {
                    continue;
                };
                let mut fluent_args = FluentArgs::new();
                for (name, value) in &args {
                    fluent_args.set(*name, *value);
                }
                let mut errors = Vec::new();
                let resolved = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
                let quick = plainly(pattern, |name| {
                    args.iter()
                        .find(|(n, _)| *n == name)
                        .map(|(_, v)| Some(Cow::Borrowed(*v)))
                });
                if let Some(quick) = quick {
                    assert_eq!(quick, resolved, "{lang:?}: {id}");
                    plain += 1;
                }
            }
        }
        assert!(plain > english.len(), "{plain} written plainly");
        // Czech is Czech: only the wrappers may read the same.
        let wrappers = |id: &&String| {
            id.starts_with("refused-")
                || [
                    "request-in-batch",
                    "board-ai-line",
                    "board-chart-title",
                    "board-square-piece",
                    "board-edited",
                ]
                .contains(&id.as_str())
        };
        for id in english.iter().filter(|id| !wrappers(id)) {
            assert_ne!(text(Lang::En, id, &args), text(Lang::Cs, id, &args), "{id}");
        }
    }
}
