//! SVG pictures of game states: pure functions from engine types to SVG
//! text, one module per game, and the chart of a reviewed game. Nothing
//! here knows of HTTP.
//!
//! All three renderers write through one small `Svg` writer (`svg.rs`), which
//! escapes every attribute value and text node, so text that comes from a
//! request (vehicle ids, tank names) can never break out of the markup.
//! Output is deterministic: the same input gives byte-identical SVG.
//!
//! The pictures in `docs/` are written by the tests:
//! `RENDER_DUMP_DIR=docs cargo test --lib render`.

mod cobi_tank_wars;
mod review;
mod svg;
mod tank_battle;
mod tank_war;

pub use cobi_tank_wars::cobi_tank_wars;
pub use review::{review_chart, ChartEntry};
pub use tank_battle::{tank_battle, tank_battle_pieces};
pub use tank_war::tank_war;

/// The pictures' colours as CSS custom properties (`--tb-mine`, `--tw-U`,
/// `--tws-gunfire`, …), for the board's page: one palette for the pictures
/// and the page.
pub fn palette() -> String {
    let tank_battle = tank_battle::colours()
        .into_iter()
        .map(|(name, colour)| format!("--tb-{name}:{colour};"));
    let tank_war = tank_war::colours_by_name()
        .into_iter()
        .map(|(name, colour)| format!("--tw-{name}:{colour};"));
    let tank_wars = cobi_tank_wars::colours_by_name()
        .into_iter()
        .map(|(name, colour)| format!("--tws-{name}:{colour};"));
    let all: String = tank_battle.chain(tank_war).chain(tank_wars).collect();
    format!(":root{{{all}}}\n")
}

#[cfg(test)]
mod tests {
    use super::svg::*;

    #[test]
    fn escapes_every_special_character_in_attributes_and_text() {
        let nasty = "<P1&\"x'>\u{0}\n";
        let mut svg = Svg::new(10, 10, crate::i18n::Lang::En, nasty);
        svg.el("g").attr("id", nasty).open();
        svg.el("text").attr("data-x", nasty).text(nasty);
        let out = svg.finish();
        assert!(!out.contains("<P1"), "{out}");
        assert!(
            out.contains("&lt;P1&amp;&quot;x&apos;&gt;\u{fffd}&#10;"),
            "{out}"
        );
        let doc = test_support::parse(&out);
        let text = doc
            .descendants()
            .find(|n| n.has_tag_name("text"))
            .and_then(|n| n.text());
        assert_eq!(text, Some("<P1&\"x'>\u{fffd}\n"));
        let attr = doc
            .descendants()
            .find_map(|n| n.attribute("data-x"))
            .map(str::to_owned);
        assert_eq!(attr.as_deref(), Some("<P1&\"x'>\u{fffd}\n"));
    }

    #[test]
    fn writer_nests_and_closes_everything() {
        let mut svg = Svg::new(20, 30, crate::i18n::Lang::En, "t");
        svg.el("g").open();
        svg.el("rect").attr("x", 1).empty();
        // A tag dropped unfinished is an empty element.
        drop(svg.el("circle").attr("r", 2));
        let out = svg.finish();
        let doc = test_support::parse(&out);
        let root = doc.root_element();
        assert_eq!(root.attribute("viewBox"), Some("0 0 20 30"));
        assert_eq!(root.attribute("width"), Some("20"));
        assert!(root
            .first_element_child()
            .is_some_and(|t| t.has_tag_name("title")));
        assert_eq!(doc.descendants().filter(|n| n.is_element()).count(), 5);
    }

    #[test]
    fn pixels_are_printed_deterministically() {
        let cases = [
            (0.0, "0"),
            (-0.0, "0"),
            (-0.001, "0"),
            (24.0, "24"),
            (0.1 + 0.2, "0.3"),
            (12.345, "12.35"),
            (-3.5, "-3.5"),
            (f64::NAN, "0"),
        ];
        for (v, want) in cases {
            assert_eq!(Px(v).to_string(), want, "{v}");
        }
    }

    #[test]
    fn shorten_counts_characters_not_bytes() {
        assert_eq!(shorten("abc", 3), "abc");
        assert_eq!(shorten("ééééé", 3), "éé…");
        assert_eq!(shorten("abcdef", 0), "…");
    }

    /// Every picture speaks the asked language: each of its tooltips and
    /// captions is written from that language's catalogue (none is left in
    /// English), with the same facts.
    #[test]
    fn every_picture_speaks_the_asked_language() {
        use super::{cobi_tank_wars, tank_battle, tank_war};
        use crate::games::cobi_tank_wars::State;
        use crate::games::tank_battle::{Layout, Position};
        use crate::games::tank_war::default_state;
        use crate::i18n::Lang;

        /// The texts a picture shows or tells: its titles (tooltips) and
        /// its caption and legend, not the board's file and rank labels
        /// nor the pieces' own names.
        fn texts(out: &str) -> Vec<String> {
            let doc = test_support::parse(out);
            doc.descendants()
                .filter(|n| n.has_tag_name("title") || n.has_tag_name("text"))
                .filter(|n| {
                    let class = n.attribute("class").unwrap_or("");
                    let parent = n.parent().and_then(|p| p.attribute("class"));
                    !matches!(class, "name" | "id" | "slot" | "letter" | "type")
                        && parent != Some("labels")
                })
                .filter_map(|n| n.text().map(str::to_owned))
                .filter(|t| t.chars().any(char::is_alphabetic))
                .collect()
        }
        let layout = Layout::STANDARD;
        let mut position = Position::initial(&layout);
        let last = position.legal_moves(&layout).first().copied();
        if let Some(mv) = last {
            position.play_unchecked(mv);
        }
        let (setup, tank_war_position) = default_state();
        let mut tank_wars = State::initial();
        tank_wars.artillery = tank_wars
            .vehicles
            .iter()
            .map(|v| v.square)
            .take(1)
            .collect();
        tank_wars.support = tank_wars.artillery.clone();
        tank_wars.gunfire = tank_wars.artillery.clone();
        if let Some(v) = tank_wars.vehicles.first_mut() {
            v.armor = 12;
        }
        let pictures = |lang: Lang| {
            [
                tank_battle(&layout, &position, last, None, &[], lang),
                tank_war(&setup, &tank_war_position, lang),
                cobi_tank_wars(&tank_wars, lang),
            ]
        };
        let (english, czech) = (pictures(Lang::En), pictures(Lang::Cs));
        let names = ["Tankový boj: ", "Válka tanků: ", "Tankové války: "];
        for ((en, cs), name) in english.iter().zip(&czech).zip(names) {
            let (en, cs) = (texts(en), texts(cs));
            assert_eq!(en.len(), cs.len(), "{en:?} {cs:?}");
            assert!(en.len() >= 3, "{en:?}");
            assert!(cs.first().is_some_and(|t| t.starts_with(name)), "{cs:?}");
            for (en, cs) in en.iter().zip(&cs) {
                assert_ne!(en, cs, "left in English");
            }
        }
        let czech = czech.join("\n");
        for said in [
            "velitelský tank",
            "Na tahu černý · půltah 1 · poslední tah",
            "před ním 5 polí dráhy",
            "pancíř 12",
            "žeton dělostřelectva na",
            "palba na vozidlo",
        ] {
            assert!(czech.contains(said), "{said}: {czech}");
        }
        let english = english.join("\n");
        for said in [
            "white commander on",
            "Black to move · ply 1 · last move",
            "5 squares of track ahead",
            "armor 12",
            "artillery token on",
            "gunfire on a vehicle",
        ] {
            assert!(english.contains(said), "{said}: {english}");
        }
    }
}
