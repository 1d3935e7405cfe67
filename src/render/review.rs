//! The chart of a reviewed game: the first player's chance to win across
//! the game (0-100), one curve as lichess draws it, each inaccuracy,
//! mistake and blunder marked on it where the move left the game — what a
//! site shows under the board. Drawn from a review's entries
//! ([`ChartEntry`]), its words in the language asked (from the catalogue).

use super::svg::{Px, Svg};
use crate::games::review::{chances, Judged, Label};
use crate::i18n::{self, Lang};
use crate::text::Text;

const WIDTH: u32 = 640;
const HEIGHT: u32 = 272;
const LEFT: f64 = 44.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 52.0;
const BOTTOM: f64 = 34.0;
/// The curve's colour.
const CURVE: &str = "#2b6cb0";
/// The labels marked, and their colours.
const MARKED: [(Label, &str); 3] = [
    (Label::Inaccuracy, "#d69e2e"),
    (Label::Mistake, "#dd6b20"),
    (Label::Blunder, "#c53030"),
];

/// One judged move as the chart draws it.
#[derive(Clone, Debug)]
pub struct ChartEntry {
    pub ply: usize,
    pub player: usize,
    /// The move as the review writes it (shown on hover).
    pub played: String,
    /// The player's chance to win before the move and after it, 0-100.
    pub chance: f64,
    pub chance_played: f64,
    pub label: Label,
}

/// The first player's chance to win at each step boundary (0 before the
/// first step, `steps` after the last).
fn curve(entries: &[ChartEntry], steps: usize) -> Vec<f64> {
    let judged: Vec<Judged> = entries
        .iter()
        .map(|e| Judged {
            ply: e.ply,
            player: e.player,
            chance: e.chance,
            chance_played: e.chance_played,
        })
        .collect();
    let [first, _] = chances(&judged, steps);
    first
}

/// A label's name in `lang`.
fn label_name(lang: Lang, label: Label) -> String {
    i18n::write(lang, &Text::new(format!("label-{}", label.name())))
}

/// The chart of a review of `steps` steps of the game `game`, its words
/// in `lang`: the curve is `players[0]`'s chance to win; a move's mark sits
/// on it after the move (at step `ply + 1`), the move's number.
pub fn review_chart(
    lang: Lang,
    game: &str,
    players: [&str; 2],
    entries: &[ChartEntry],
    steps: usize,
) -> String {
    let first = players[0];
    let title = i18n::write(
        lang,
        &Text::new("chart-title")
            .with("game", game)
            .with("player", first),
    );
    let title = title.as_str();
    let steps = steps.max(1);
    let plot_w = f64::from(WIDTH) - LEFT - RIGHT;
    let plot_h = f64::from(HEIGHT) - TOP - BOTTOM;
    let x = |at: f64| LEFT + plot_w * at / steps as f64;
    let y = |chance: f64| TOP + plot_h * (1.0 - chance.clamp(0.0, 100.0) / 100.0);
    let mut svg = Svg::new(WIDTH, HEIGHT, lang, title);
    svg.el("rect")
        .attr("width", WIDTH)
        .attr("height", HEIGHT)
        .attr("fill", "#ffffff")
        .empty();
    svg.el("text")
        .attr("x", Px(LEFT))
        .attr("y", 18)
        .attr("font-size", 13)
        .attr("font-weight", "bold")
        .text(title);
    // The legend, under the title: the curve, then the marks.
    let mut at = LEFT;
    svg.el("rect")
        .attr("x", Px(at))
        .attr("y", 29)
        .attr("width", 14)
        .attr("height", 4)
        .attr("fill", CURVE)
        .empty();
    svg.el("text")
        .attr("x", Px(at + 18.0))
        .attr("y", 35)
        .attr("font-size", 11)
        .text(first);
    at += 90.0;
    for (label, colour) in MARKED {
        svg.el("circle")
            .attr("cx", Px(at + 4.0))
            .attr("cy", 31)
            .attr("r", 4)
            .attr("fill", colour)
            .empty();
        svg.el("text")
            .attr("x", Px(at + 12.0))
            .attr("y", 35)
            .attr("font-size", 11)
            .text(label_name(lang, label));
        at += 80.0;
    }
    // The axes: chance to win every 25, moves played along the bottom.
    svg.el("g")
        .attr("class", "axes")
        .attr("font-size", 10)
        .open();
    for chance in [0.0, 25.0, 50.0, 75.0, 100.0] {
        svg.el("line")
            .attr("x1", Px(LEFT))
            .attr("x2", Px(LEFT + plot_w))
            .attr("y1", Px(y(chance)))
            .attr("y2", Px(y(chance)))
            .attr("stroke", if chance == 50.0 { "#a0aec0" } else { "#e2e8f0" })
            .empty();
        svg.el("text")
            .attr("x", Px(LEFT - 6.0))
            .attr("y", Px(y(chance) + 3.0))
            .attr("text-anchor", "end")
            .text(format_args!("{chance}%"));
    }
    let tick = (steps / 10).max(1);
    for step in (0..=steps).step_by(tick) {
        svg.el("text")
            .attr("x", Px(x(step as f64)))
            .attr("y", Px(TOP + plot_h + 16.0))
            .attr("text-anchor", "middle")
            .text(step);
    }
    svg.el("text")
        .attr("x", Px(LEFT + plot_w / 2.0))
        .attr("y", Px(f64::from(HEIGHT) - 4.0))
        .attr("text-anchor", "middle")
        .text(i18n::write(
            lang,
            &Text::new("chart-axis").with("player", first),
        ));
    svg.close();
    // The curve.
    let line = curve(entries, steps);
    let points: Vec<String> = line
        .iter()
        .enumerate()
        .map(|(step, chance)| format!("{},{}", Px(x(step as f64)), Px(y(*chance))))
        .collect();
    svg.el("polyline")
        .attr("class", "chance")
        .attr("points", points.join(" "))
        .attr("fill", "none")
        .attr("stroke", CURVE)
        .attr("stroke-width", 2)
        .empty();
    // The marks, on the curve where the move left the game; a second mark
    // at the same step (the other player's, in a simultaneous game) is a
    // ring around the first.
    let mut marked = vec![false; steps + 1];
    for entry in entries {
        let Some((_, colour)) = MARKED.iter().find(|(label, _)| *label == entry.label) else {
            continue;
        };
        let after = (entry.ply + 1).min(steps);
        let chance = line.get(after).copied().unwrap_or(50.0);
        let again = marked.get(after).copied().unwrap_or(false);
        if let Some(seen) = marked.get_mut(after) {
            *seen = true;
        }
        let circle = svg
            .el("circle")
            .attr("class", entry.label.name())
            .attr("cx", Px(x(after as f64)))
            .attr("cy", Px(y(chance)));
        let circle = if again {
            circle
                .attr("r", 7)
                .attr("fill", "none")
                .attr("stroke", *colour)
                .attr("stroke-width", 2)
        } else {
            circle.attr("r", 4).attr("fill", *colour)
        };
        circle.open();
        let player = players.get(entry.player).copied().unwrap_or("?");
        let mark = Text::new("chart-mark")
            .with("move", entry.ply + 1)
            .with("player", player)
            .with("played", entry.played.as_str())
            .with("label", label_name(lang, entry.label))
            .with(
                "loss",
                format!("{:.1}", (entry.chance - entry.chance_played).max(0.0)),
            );
        svg.el("title").text(i18n::write(lang, &mark));
        svg.close();
    }
    svg.finish()
}

#[cfg(test)]
mod tests {
    use super::super::svg::test_support::{count_class, dump, parse};
    use super::*;

    fn entry(ply: usize, player: usize, chance: f64, chance_played: f64) -> ChartEntry {
        ChartEntry {
            ply,
            player,
            played: format!("m{ply}"),
            chance,
            chance_played,
            label: Label::of(chance - chance_played),
        }
    }

    /// Finding 8 of issue 52: one curve, the first player's; each
    /// inaccuracy, mistake and blunder marked on it after its move.
    #[test]
    fn a_sequential_game_has_one_curve_and_its_marks_on_it() {
        let entries = [
            entry(0, 0, 50.0, 50.0),
            entry(1, 1, 50.0, 35.0),
            entry(2, 0, 65.0, 58.0),
            entry(3, 1, 42.0, 10.0),
        ];
        let chart = review_chart(
            Lang::En,
            "tank-battle <review>",
            ["white", "black"],
            &entries,
            4,
        );
        dump("review-chart-small.svg", &chart);
        let doc = parse(&chart);
        assert_eq!(count_class(&doc, "chance"), 1);
        assert_eq!(count_class(&doc, "inaccuracy"), 1);
        assert_eq!(count_class(&doc, "mistake"), 1);
        assert_eq!(count_class(&doc, "blunder"), 1);
        assert_eq!(curve(&entries, 4), [50.0, 50.0, 65.0, 58.0, 90.0]);
        // Each mark sits on the curve's vertex after its move.
        let x = |at: f64| LEFT + (f64::from(WIDTH) - LEFT - RIGHT) * at / 4.0;
        let y = |c: f64| TOP + (f64::from(HEIGHT) - TOP - BOTTOM) * (1.0 - c / 100.0);
        for (class, after, chance) in [
            ("mistake", 2.0, 65.0),
            ("inaccuracy", 3.0, 58.0),
            ("blunder", 4.0, 90.0),
        ] {
            let mark = format!(
                r#"class="{class}" cx="{}" cy="{}""#,
                Px(x(after)),
                Px(y(chance))
            );
            assert!(chart.contains(&mark), "{mark}: {chart}");
        }
    }

    /// A simultaneous game's marks sit on the curve after their round; a
    /// second mark at the same round is a ring around the first.
    #[test]
    fn a_simultaneous_game_marks_both_players_on_the_curve() {
        let entries = [
            entry(0, 0, 50.0, 35.0),
            entry(0, 1, 50.0, 14.0),
            entry(1, 0, 80.0, 65.0),
            entry(1, 1, 20.0, 20.0),
        ];
        assert_eq!(curve(&entries, 2), [50.0, 80.0, 65.0]);
        let chart = review_chart(Lang::En, "tank-war", ["U", "D"], &entries, 2);
        let doc = parse(&chart);
        assert_eq!(count_class(&doc, "chance"), 1);
        assert_eq!(count_class(&doc, "blunder"), 1);
        assert_eq!(count_class(&doc, "mistake"), 2);
        assert_eq!(chart.matches(r#"r="7" fill="none""#).count(), 1, "{chart}");
    }

    #[test]
    fn an_empty_review_is_a_chart_of_no_moves() {
        let chart = review_chart(Lang::En, "nothing", ["a", "b"], &[], 0);
        assert_eq!(count_class(&parse(&chart), "chance"), 1);
    }

    /// The chart speaks the language asked: its title, legend, axis and
    /// marks from that language's catalogue.
    #[test]
    fn the_chart_speaks_czech_when_asked() {
        let entries = [entry(0, 0, 50.0, 50.0), entry(1, 1, 50.0, 10.0)];
        let english = review_chart(Lang::En, "tank-battle", ["white", "black"], &entries, 2);
        let czech = review_chart(Lang::Cs, "tank-battle", ["white", "black"], &entries, 2);
        assert!(english.contains("white&apos;s chance to win"), "{english}");
        assert!(
            english.contains("move 2: black played m1 (blunder, −40.0)"),
            "{english}"
        );
        for words in [
            "šance hráče white na výhru",
            "hrubá chyba",
            "tah 2: black zahrál m1",
        ] {
            assert!(czech.contains(words), "{words}: {czech}");
        }
        assert!(!czech.contains("chance to win"), "{czech}");
    }
}
