//! The Tank Wars board: vehicles with id, armor and card slot, and the
//! artillery, support and gunfire tokens.

use super::svg::{backdrop, shorten, star, Grid, Px, Svg};
use crate::games::cobi_tank_wars::{Player, State, Vehicle};
use crate::games::grid::Cell;
use crate::i18n::{self, Lang};
use crate::text::Text;

const LEFT: f64 = 28.0;
const TOP: f64 = 36.0;
const RIGHT: f64 = 20.0;
/// File labels and the token legend.
const BOTTOM: f64 = 58.0;
/// Narrowest picture, so the caption and legend fit under a small board.
const MIN_WIDTH: f64 = 460.0;
/// Armor shown as pips up to this many; above it, as a number.
const MAX_PIPS: u32 = 6;
/// Armor a vehicle starts with: fewer pips than this are drawn hollow.
const FULL_ARMOR: u32 = 3;

const ARTILLERY: (&str, &str) = ("#f39c12", "#9a5200");
const SUPPORT: (&str, &str) = ("#2e9d4a", "#17592a");
const GUNFIRE: &str = "#e0201b";

/// Owner colour and darker outline.
const fn colours(player: Player) -> (&'static str, &'static str) {
    match player {
        Player::P1 => ("#2563a8", "#0f355f"),
        Player::P2 => ("#7d3c98", "#44195a"),
    }
}

/// The picture's colours by name (`P1`, `P1-ink`, `artillery`, …), for
/// the board's page ([`super::palette`]).
pub fn colours_by_name() -> Vec<(String, &'static str)> {
    let players = [Player::P1, Player::P2].into_iter().flat_map(|p| {
        let (fill, ink) = colours(p);
        [
            (p.name().to_owned(), fill),
            (format!("{}-ink", p.name()), ink),
        ]
    });
    let tokens = [
        ("artillery", ARTILLERY.0),
        ("artillery-ink", ARTILLERY.1),
        ("support", SUPPORT.0),
        ("support-ink", SUPPORT.1),
        ("gunfire", GUNFIRE),
        ("armor", "#ffd54a"),
    ]
    .map(|(name, colour)| (name.to_owned(), colour));
    players.chain(tokens).collect()
}

/// Side of a square: 64 px, less on boards of more than 10 squares a side
/// (never under 28 px).
fn cell_size(rows: u8, cols: u8) -> f64 {
    let longest = f64::from(rows.max(cols).max(1));
    (640.0 / longest).floor().clamp(28.0, 64.0)
}

/// An SVG picture of a Tank Wars round state.
///
/// Each vehicle is a rounded box in its owner's colour (blue for `P1`,
/// purple for `P2`) with its id (shortened to 7 characters; the full id is
/// in its tooltip), its armor as gold pips (hollow ones for armor lost
/// from 3, a number above 6) and its card slot in a white badge; it is a
/// `g` of class `vehicle P1|P2`. Artillery tokens are orange bursts
/// (`token artillery`), support tokens green crosses (`token support`),
/// gunfire tokens red crosshairs over the square (`token gunfire`); a token
/// sharing its square with a vehicle or another token moves to a corner,
/// and a gunfire token on a vehicle also frames its square in red.
/// Columns `a`.. run under the board, rows `1`.. beside it, row 1 at the
/// bottom; the caption gives the round, the first player and each player's
/// support cards, and a legend under the board names the tokens.
pub fn cobi_tank_wars(state: &State, lang: Lang) -> String {
    let board = state.board;
    let cell = cell_size(board.rows, board.cols);
    let content = LEFT + f64::from(board.cols) * cell + RIGHT;
    let width = content.max(MIN_WIDTH);
    let grid = Grid {
        left: LEFT + (width - content) / 2.0,
        top: TOP,
        cell,
        cols: board.cols,
        rows: board.rows,
    };
    let height = TOP + grid.height() + BOTTOM;
    let line = Text::new("svg-tank-wars-line")
        .with("round", state.round)
        .with("first", state.first.to_string())
        .with("p1", state.support_cards[Player::P1.index()])
        .with("p2", state.support_cards[Player::P2.index()]);
    let line = i18n::write(lang, &line);
    let title = i18n::write(lang, &Text::new("svg-tank-wars-title").with("line", &line));
    let mut svg = Svg::new(width as u32, height as u32, lang, title);
    backdrop(&mut svg, width as u32, height as u32, width / 2.0, &line);

    svg.el("g")
        .attr("class", "board")
        .attr("stroke", "#9a917c")
        .attr("stroke-width", "0.75")
        .open();
    for row in 0..board.rows {
        for col in 0..board.cols {
            let fill = if (row + col) % 2 == 0 {
                "#ddd5bb"
            } else {
                "#ebe5d1"
            };
            grid.square(&mut svg, col, row, "square", fill);
        }
    }
    svg.close();
    grid.labels(&mut svg, (cell * 0.25).clamp(10.0, 14.0), "#444");

    // A checked state has everything on the board; anything else is left
    // out rather than drawn off it.
    let on_board = |c: &&Cell| board.contains(**c);
    for vehicle in state.vehicles.iter().filter(|v| board.contains(v.square)) {
        draw_vehicle(&mut svg, &grid, vehicle);
    }

    let has_vehicle = |c: &Cell| state.vehicles.iter().any(|v| v.square == *c);
    // A token sharing its square goes to a bottom corner (artillery left,
    // support right) on a white badge, drawn over the vehicle so that it
    // stays in sight.
    let corner = |svg: &mut Svg, c: Cell, right: bool, crowded: bool| {
        let (x, y) = (grid.x(c.col), grid.y(c.row));
        if !crowded {
            return (x + cell * 0.5, y + cell * 0.5, cell * 0.3);
        }
        let cx = x + cell * if right { 0.83 } else { 0.17 };
        let (cy, r) = (y + cell * 0.84, cell * 0.12);
        svg.el("circle")
            .attr("class", "token-badge")
            .attr("cx", Px(cx))
            .attr("cy", Px(cy))
            .attr("r", Px(r * 1.3))
            .attr("fill", "#fff")
            .attr("stroke", "#555")
            .attr("stroke-width", 1)
            .empty();
        (cx, cy, r)
    };
    for &c in state.artillery.iter().filter(on_board) {
        let crowded = has_vehicle(&c) || state.support.contains(&c);
        let (cx, cy, r) = corner(&mut svg, c, false, crowded);
        artillery(&mut svg, cx, cy, r, Some(c));
    }
    for &c in state.support.iter().filter(on_board) {
        let crowded = has_vehicle(&c) || state.artillery.contains(&c);
        let (cx, cy, r) = corner(&mut svg, c, true, crowded);
        support(&mut svg, cx, cy, r, Some(c));
    }
    for &c in state.gunfire.iter().filter(on_board) {
        if has_vehicle(&c) {
            // Over a vehicle: a red frame round the square and the
            // crosshair on a white disc in the top-left corner, clear of
            // the id and armor.
            let (x, y) = (grid.x(c.col), grid.y(c.row));
            let (cx, cy, r) = (x + cell * 0.16, y + cell * 0.18, cell * 0.15);
            token(&mut svg, "gunfire", Some(c));
            frame(&mut svg, x + 1.5, y + 1.5, cell - 3.0);
            svg.el("circle")
                .attr("cx", Px(cx))
                .attr("cy", Px(cy))
                .attr("r", Px(r * 1.15))
                .attr("fill", "#fff")
                .attr("stroke", GUNFIRE)
                .attr("stroke-width", 1)
                .empty();
            crosshair(&mut svg, cx, cy, r);
            svg.close();
        } else {
            // Ticks, ring and round caps all inside the square.
            let (cx, cy) = grid.centre(c.col, c.row);
            gunfire(&mut svg, cx, cy, cell * 0.4, Some(c));
        }
    }

    legend(&mut svg, width, TOP + grid.height() + 44.0);
    svg.finish()
}

fn draw_vehicle(svg: &mut Svg, grid: &Grid, v: &Vehicle) {
    let cell = grid.cell;
    let (fill, ink) = colours(v.owner);
    let (x, y) = (grid.x(v.square.col), grid.y(v.square.row));
    let cx = x + cell / 2.0;
    svg.el("g")
        .attr("class", format_args!("vehicle {}", v.owner))
        .open();
    let title = Text::new("svg-tank-wars-vehicle")
        .with("owner", v.owner.to_string())
        .with("id", &v.id)
        .with("square", v.square.to_string())
        .with("armor", v.armor)
        .with("slot", v.slot.to_string());
    let title = svg.say(&title);
    svg.el("title").text(title);
    svg.el("rect")
        .attr("x", Px(x + cell * 0.08))
        .attr("y", Px(y + cell * 0.16))
        .attr("width", Px(cell * 0.84))
        .attr("height", Px(cell * 0.68))
        .attr("rx", Px(cell * 0.1))
        .attr("fill", fill)
        .attr("stroke", ink)
        .attr("stroke-width", 1.5)
        .empty();
    svg.el("text")
        .attr("class", "id")
        .attr("x", Px(cx))
        .attr("y", Px(y + cell * 0.5))
        .attr("font-size", Px(cell * 0.19))
        .attr("font-weight", "bold")
        .attr("text-anchor", "middle")
        .attr("fill", "#fff")
        .text(shorten(&v.id, 7));
    let pip_y = y + cell * 0.69;
    if v.armor <= MAX_PIPS {
        let pips = v.armor.max(FULL_ARMOR);
        let gap = cell * 0.15;
        let first = cx - gap * f64::from(pips - 1) / 2.0;
        for i in 0..pips {
            let tag = svg
                .el("circle")
                .attr("cx", Px(first + gap * f64::from(i)))
                .attr("cy", Px(pip_y))
                .attr("r", Px(cell * 0.05));
            if i < v.armor {
                tag.attr("class", "armor-pip")
                    .attr("fill", "#ffd54a")
                    .attr("stroke", "#6b5200")
                    .attr("stroke-width", 0.75)
                    .empty();
            } else {
                tag.attr("class", "armor-pip lost")
                    .attr("fill", "none")
                    .attr("stroke", "#fff")
                    .attr("stroke-opacity", "0.7")
                    .attr("stroke-width", 1)
                    .empty();
            }
        }
    } else {
        let armor = svg.say(&Text::new("svg-tank-wars-armor").with("armor", v.armor));
        svg.el("text")
            .attr("class", "armor")
            .attr("x", Px(cx))
            .attr("y", Px(pip_y + cell * 0.06))
            .attr("font-size", Px(cell * 0.17))
            .attr("text-anchor", "middle")
            .attr("fill", "#ffd54a")
            .text(armor);
    }
    let (bx, by, br) = (x + cell * 0.86, y + cell * 0.17, cell * 0.13);
    svg.el("circle")
        .attr("class", "slot")
        .attr("cx", Px(bx))
        .attr("cy", Px(by))
        .attr("r", Px(br))
        .attr("fill", "#fff")
        .attr("stroke", ink)
        .attr("stroke-width", 1.5)
        .empty();
    svg.el("text")
        .attr("x", Px(bx))
        .attr("y", Px(by + br * 0.42))
        .attr("font-size", Px(br * 1.25))
        .attr("font-weight", "bold")
        .attr("text-anchor", "middle")
        .attr("fill", ink)
        .text(v.slot);
    svg.close();
}

/// Opens a token's group, with a tooltip when it stands on the board.
fn token(svg: &mut Svg, kind: &str, at: Option<Cell>) {
    let class = if at.is_some() {
        "token "
    } else {
        "legend-icon "
    };
    svg.el("g")
        .attr("class", format_args!("{class}{kind}"))
        .open();
    if let Some(c) = at {
        let title = Text::new("svg-tank-wars-token")
            .with("kind", kind)
            .with("square", c.to_string());
        let title = svg.say(&title);
        svg.el("title").text(title);
    }
}

fn artillery(svg: &mut Svg, cx: f64, cy: f64, r: f64, at: Option<Cell>) {
    token(svg, "artillery", at);
    svg.el("polygon")
        .attr("points", star(cx, cy, r, r * 0.5, 8))
        .attr("fill", ARTILLERY.0)
        .attr("stroke", ARTILLERY.1)
        .attr("stroke-width", 1)
        .attr("stroke-linejoin", "round")
        .empty();
    svg.close();
}

fn support(svg: &mut Svg, cx: f64, cy: f64, r: f64, at: Option<Cell>) {
    token(svg, "support", at);
    svg.el("circle")
        .attr("cx", Px(cx))
        .attr("cy", Px(cy))
        .attr("r", Px(r))
        .attr("fill", "#fff")
        .attr("stroke", SUPPORT.1)
        .attr("stroke-width", 1)
        .empty();
    let (a, b) = (r * 0.7, r * 0.24);
    svg.el("path")
        .attr(
            "d",
            format_args!(
                "M{},{} h{} v{} h{} v{} h{} v{} h{} v{} h{} v{} h{} z",
                Px(cx - b),
                Px(cy - a),
                Px(2.0 * b),
                Px(a - b),
                Px(a - b),
                Px(2.0 * b),
                Px(b - a),
                Px(a - b),
                Px(-2.0 * b),
                Px(b - a),
                Px(b - a),
                Px(-2.0 * b),
                Px(a - b),
            ),
        )
        .attr("fill", SUPPORT.0)
        .attr("stroke", SUPPORT.1)
        .attr("stroke-width", 0.75)
        .empty();
    svg.close();
}

fn gunfire(svg: &mut Svg, cx: f64, cy: f64, r: f64, at: Option<Cell>) {
    token(svg, "gunfire", at);
    crosshair(svg, cx, cy, r);
    svg.close();
}

/// The red frame round a square whose vehicle is under gunfire.
fn frame(svg: &mut Svg, x: f64, y: f64, side: f64) {
    svg.el("rect")
        .attr("class", "gunfire-frame")
        .attr("x", Px(x))
        .attr("y", Px(y))
        .attr("width", Px(side))
        .attr("height", Px(side))
        .attr("fill", "none")
        .attr("stroke", GUNFIRE)
        .attr("stroke-width", 3)
        .empty();
}

/// The legend's icon for gunfire on a vehicle: a framed square with a
/// vehicle's box and a small crosshair.
fn gunfire_on_vehicle(svg: &mut Svg, cx: f64, cy: f64, r: f64, at: Option<Cell>) {
    token(svg, "gunfire-on-vehicle", at);
    let (fill, ink) = colours(Player::P1);
    svg.el("rect")
        .attr("x", Px(cx - r * 0.8))
        .attr("y", Px(cy - r * 0.55))
        .attr("width", Px(r * 1.6))
        .attr("height", Px(r * 1.1))
        .attr("rx", Px(r * 0.2))
        .attr("fill", fill)
        .attr("stroke", ink)
        .empty();
    frame(svg, cx - r * 1.1, cy - r * 1.1, r * 2.2);
    svg.close();
}

/// A red ring with four ticks reaching `r` from (`cx`, `cy`).
fn crosshair(svg: &mut Svg, cx: f64, cy: f64, r: f64) {
    svg.el("g")
        .attr("fill", "none")
        .attr("stroke", GUNFIRE)
        .attr("stroke-width", Px((r * 0.12).max(1.5)))
        .attr("stroke-linecap", "round")
        .open();
    svg.el("circle")
        .attr("cx", Px(cx))
        .attr("cy", Px(cy))
        .attr("r", Px(r * 0.75))
        .empty();
    for (dx, dy) in [(0.0, -1.0), (0.0, 1.0), (-1.0, 0.0), (1.0, 0.0)] {
        svg.el("line")
            .attr("x1", Px(cx + dx * r * 0.45))
            .attr("y1", Px(cy + dy * r * 0.45))
            .attr("x2", Px(cx + dx * r))
            .attr("y2", Px(cy + dy * r))
            .empty();
    }
    svg.close();
}

/// Draws a token of radius `r` at (`cx`, `cy`), on a square or (`None`)
/// in the legend.
type DrawToken = fn(svg: &mut Svg, cx: f64, cy: f64, r: f64, at: Option<Cell>);

/// One line under the board: each token's icon and name, and the frame of
/// a vehicle under gunfire.
fn legend(svg: &mut Svg, width: f64, y: f64) {
    let entries: [(String, DrawToken); 4] = [
        ("artillery", artillery as DrawToken),
        ("support", support),
        ("gunfire", gunfire),
        ("gunfire-on-vehicle", gunfire_on_vehicle),
    ]
    .map(|(kind, draw)| {
        let name = svg.say(&Text::new(format!("svg-tank-wars-legend-{kind}")));
        (name, draw)
    });
    // Each entry: its icon, then its name (about 7 px a character at 13
    // px), then a gap; the line is centred.
    let widths: Vec<f64> = entries
        .iter()
        .map(|(name, _)| 22.0 + 7.0 * name.chars().count() as f64 + 14.0)
        .collect();
    let mut x = (width - widths.iter().sum::<f64>()) / 2.0 + 10.0;
    svg.el("g")
        .attr("class", "legend")
        .attr("font-size", 13)
        .attr("fill", "#333")
        .open();
    for ((name, draw), w) in entries.into_iter().zip(widths) {
        draw(svg, x, y - 5.0, 10.0, None);
        svg.el("text")
            .attr("x", Px(x + 16.0))
            .attr("y", Px(y))
            .text(name);
        x += w;
    }
    svg.close();
}

#[cfg(test)]
mod tests {
    use super::super::svg::test_support::{count_class, dump, parse};
    use super::*;

    fn cell(text: &str) -> Cell {
        match Cell::parse(text) {
            Some(c) => c,
            None => panic!("{text}"),
        }
    }

    /// The README picture: the default state with tokens and a damaged
    /// vehicle.
    fn busy_state() -> State {
        let mut state = State::initial();
        state.artillery = vec![cell("d4"), cell("e5"), cell("f1")];
        state.support = vec![cell("b6"), cell("e5")];
        state.gunfire = vec![cell("c1"), cell("g3")];
        state.support_cards = [1, 0];
        state.round = 3;
        state.first = Player::P2;
        if let Some(v) = state.vehicles.iter_mut().find(|v| v.id == "P2-2") {
            v.armor = 1;
            v.square = cell("e6");
        }
        if let Some(v) = state.vehicles.iter_mut().find(|v| v.id == "P1-2") {
            v.armor = 2;
            v.square = cell("d3");
        }
        state
    }

    #[test]
    fn cobi_default_state_has_six_vehicles_and_no_tokens() {
        let state = State::initial();
        let out = cobi_tank_wars(&state, Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "vehicle"), 6);
        assert_eq!(count_class(&doc, "vehicle P1"), 3);
        assert_eq!(count_class(&doc, "vehicle P2"), 3);
        assert_eq!(count_class(&doc, "armor-pip"), 18);
        assert_eq!(count_class(&doc, "armor-pip lost"), 0);
        assert_eq!(count_class(&doc, "slot"), 6);
        assert_eq!(count_class(&doc, "token"), 0);
        assert_eq!(count_class(&doc, "legend-icon"), 4);
        assert_eq!(count_class(&doc, "square"), 64);
        assert!(out.contains("Round 0 · P1 first · support cards P1 0 · P2 0"));
    }

    #[test]
    fn cobi_draws_each_token_and_lost_armor() {
        let state = busy_state();
        let out = cobi_tank_wars(&state, Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "vehicle"), 6);
        assert_eq!(count_class(&doc, "token artillery"), 3);
        assert_eq!(count_class(&doc, "token support"), 2);
        assert_eq!(count_class(&doc, "token gunfire"), 2);
        // 3 + 3 + 3 + 2 + 1 + 3 armor, each vehicle at least 3 pips.
        assert_eq!(count_class(&doc, "armor-pip"), 18);
        assert_eq!(count_class(&doc, "armor-pip lost"), 3);
        assert!(out.contains("Round 3 · P2 first · support cards P1 1 · P2 0"));
        dump("cobi-tank-wars.svg", &out);
    }

    #[test]
    fn tokens_on_a_vehicle_are_drawn_over_it_on_badges() {
        let mut state = State::initial();
        let square = state.vehicles[0].square;
        state.artillery = vec![square];
        state.support = vec![square];
        state.gunfire = vec![square];
        let out = cobi_tank_wars(&state, Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "token-badge"), 2);
        assert_eq!(
            count_class(&doc, "gunfire-frame"),
            2,
            "the square's and the legend's"
        );
        // Every token comes after (so over) the vehicles.
        let position = |class: &str| out.find(&format!("class=\"{class}")).unwrap();
        let last_vehicle = out.rfind("class=\"vehicle").unwrap();
        for token in ["token artillery", "token support", "token gunfire"] {
            assert!(position(token) > last_vehicle, "{token}");
        }
    }

    #[test]
    fn cobi_shows_high_armor_as_a_number() {
        let mut state = State::initial();
        if let Some(v) = state.vehicles.first_mut() {
            v.armor = 12;
        }
        let doc_text = cobi_tank_wars(&state, Lang::En);
        let doc = parse(&doc_text);
        assert_eq!(count_class(&doc, "armor-pip"), 15);
        assert!(doc
            .descendants()
            .any(|n| n.attribute("class") == Some("armor") && n.text() == Some("armor 12")));
    }

    #[test]
    fn cobi_escapes_vehicle_ids() {
        let mut state = State::initial();
        let id = "<P1&\"x'>";
        if let Some(v) = state.vehicles.first_mut() {
            v.id = id.to_owned();
        }
        let out = cobi_tank_wars(&state, Lang::En);
        assert!(!out.contains(id));
        assert!(out.contains("&lt;P1&amp;&quot;x&apos;&gt;"));
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "vehicle"), 6);
        let shown = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("id"))
            .filter_map(|n| n.text())
            .any(|t| t == "<P1&\"x…");
        assert!(shown, "{out}");
        let tooltip = doc
            .descendants()
            .filter(|n| n.has_tag_name("title"))
            .filter_map(|n| n.text())
            .any(|t| t.contains(id));
        assert!(tooltip);
    }

    #[test]
    fn cobi_is_deterministic_on_every_board_size() {
        for (rows, cols) in [(2, 2), (2, 26), (26, 26), (8, 8)] {
            let mut state = busy_state();
            state.board = crate::games::grid::Board { rows, cols };
            let a = cobi_tank_wars(&state, Lang::En);
            assert_eq!(a, cobi_tank_wars(&state, Lang::En));
            let doc = parse(&a);
            let on_board = state
                .vehicles
                .iter()
                .filter(|v| state.board.contains(v.square))
                .count();
            assert_eq!(count_class(&doc, "vehicle"), on_board);
        }
        assert_eq!(cell_size(26, 26), 28.0);
        assert_eq!(cell_size(2, 2), 64.0);
    }
}
