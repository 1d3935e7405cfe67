//! The Tank War board: territory, tracks and tanks, with round and clocks.

use std::fmt;

use super::svg::{backdrop, shorten, Grid, Px, Svg};
use crate::games::grid::Cell;
use crate::games::tank_war::{Player, Position, Setup, TankType};
use crate::i18n::{self, Lang};
use crate::text::Text;

const LEFT: f64 = 28.0;
const TOP: f64 = 36.0;
const RIGHT: f64 = 20.0;
const BOTTOM: f64 = 30.0;
/// Narrowest picture, so the caption fits above a small board.
const MIN_WIDTH: f64 = 340.0;

/// Owner colour, darker outline and territory tint of each player.
const fn colours(player: Player) -> (&'static str, &'static str, &'static str) {
    match player {
        Player::U => ("#c0392b", "#7b1d14", "#f6d9d3"),
        Player::D => ("#2563a8", "#123b6b", "#d5e3f5"),
    }
}

/// Each player's colours as the picture draws them, by name (`U`,
/// `U-ink`, `U-land`, …), for the board's page ([`super::palette`]).
pub fn colours_by_name() -> Vec<(String, &'static str)> {
    [Player::U, Player::D]
        .into_iter()
        .flat_map(|p| {
            let (fill, ink, land) = colours(p);
            let name = p.name();
            [
                (name.to_owned(), fill),
                (format!("{name}-ink"), ink),
                (format!("{name}-land"), land),
            ]
        })
        .collect()
}

/// Side of a square: 48 px, less on boards of more than 12 squares a side
/// (never under 24 px).
fn cell_size(rows: u8, cols: u8) -> f64 {
    let longest = f64::from(rows.max(cols).max(1));
    (600.0 / longest).floor().clamp(24.0, 48.0)
}

/// An SVG picture of a Tank War state.
///
/// Squares are tinted by territory (light red for `U`, light blue for
/// `D`); each living tank's track is a faint line in its owner's colour
/// with a chevron on each square pointing forward, and the tank a rounded square in that colour
/// with its type letter and, small, its name. Columns `a`.. run under the
/// board and rows `1`.. beside it, row 1 (D's edge) at the bottom; the
/// caption gives the round and both clocks. Each tank is a `g` of class
/// `tank U|D`.
pub fn tank_war(setup: &Setup, pos: &Position, lang: Lang) -> String {
    let board = setup.board;
    let cell = cell_size(board.rows, board.cols);
    let board_width = f64::from(board.cols) * cell;
    let content = LEFT + board_width + RIGHT;
    let width = content.max(MIN_WIDTH);
    let grid = Grid {
        left: LEFT + (width - content) / 2.0,
        top: TOP,
        cell,
        cols: board.cols,
        rows: board.rows,
    };
    let height = TOP + grid.height() + BOTTOM;
    let line = Text::new("svg-tank-war-line")
        .with("round", pos.round)
        .with("u", Clock(pos.clock_ms[Player::U.index()]).to_string())
        .with("d", Clock(pos.clock_ms[Player::D.index()]).to_string());
    let line = i18n::write(lang, &line);
    let title = i18n::write(lang, &Text::new("svg-tank-war-title").with("line", &line));
    let mut svg = Svg::new(width as u32, height as u32, lang, title);
    track_step_markers(&mut svg);
    backdrop(&mut svg, width as u32, height as u32, width / 2.0, &line);
    territory(&mut svg, &grid, setup, pos);
    grid.labels(&mut svg, (cell * 0.3).clamp(10.0, 14.0), "#444");
    let living: Vec<usize> = (0..setup.tanks.len())
        .filter(|&id| {
            pos.alive.get(id).copied().unwrap_or(false)
                && setup.square(pos, id).is_some_and(|c| board.contains(c))
        })
        .collect();
    tracks(&mut svg, &grid, setup, &living);
    for &id in &living {
        tank(&mut svg, &grid, setup, pos, id, lang);
    }
    svg.finish()
}

/// The chevron each player's tracks mark their squares with, pointing
/// forward.
fn track_step_markers(svg: &mut Svg) {
    svg.el("defs").open();
    for player in Player::ALL {
        let (fill, _, _) = colours(player);
        svg.el("marker")
            .attr("id", format_args!("tw-track-step-{player}"))
            .attr("viewBox", "0 0 10 10")
            .attr("refX", 5)
            .attr("refY", 5)
            .attr("markerWidth", 3)
            .attr("markerHeight", 3)
            .attr("orient", "auto")
            .open();
        svg.el("path")
            .attr("d", "M1,1 L7,5 L1,9")
            .attr("fill", "none")
            .attr("stroke", fill)
            .attr("stroke-width", 2)
            .empty();
        svg.close();
    }
    svg.close();
}

/// The board's squares, each tinted by its owner.
fn territory(svg: &mut Svg, grid: &Grid, setup: &Setup, pos: &Position) {
    let board = setup.board;
    svg.el("g")
        .attr("class", "board")
        .attr("stroke", "#8c8577")
        .attr("stroke-width", "0.75")
        .open();
    for row in 0..board.rows {
        for col in 0..board.cols {
            let owner = pos
                .territory
                .get(board.index(Cell { col, row }))
                .copied()
                .unwrap_or(Player::U);
            let class = match owner {
                Player::U => "square territory-U",
                Player::D => "square territory-D",
            };
            grid.square(svg, col, row, class, colours(owner).2);
        }
    }
    svg.close();
}

/// The tracks of the `living` tanks, each a faint line in its owner's
/// colour.
fn tracks(svg: &mut Svg, grid: &Grid, setup: &Setup, living: &[usize]) {
    let cell = grid.cell;
    svg.el("g")
        .attr("class", "tracks")
        .attr("fill", "none")
        .attr("stroke-width", Px(cell * 0.09))
        .attr("stroke-linecap", "round")
        .attr("stroke-linejoin", "round")
        .attr("stroke-opacity", "0.45")
        .open();
    for tank in living.iter().filter_map(|&id| setup.tanks.get(id)) {
        // U's tracks a little up and left, D's down and right, so tracks
        // along one line stay apart.
        let shift = match tank.owner {
            Player::U => -cell * 0.12,
            Player::D => cell * 0.12,
        };
        let mut points = String::new();
        for (i, c) in tank
            .track
            .iter()
            .filter(|c| setup.board.contains(**c))
            .enumerate()
        {
            let (x, y) = grid.centre(c.col, c.row);
            if i > 0 {
                points.push(' ');
            }
            points.push_str(&format!("{},{}", Px(x + shift), Px(y - shift)));
        }
        svg.el("polyline")
            .attr("class", format_args!("track {}", tank.owner))
            .attr("points", points)
            .attr("stroke", colours(tank.owner).0)
            .attr(
                "marker-mid",
                format_args!("url(#tw-track-step-{})", tank.owner),
            )
            .empty();
    }
    svg.close();
}

/// Tank `id` on its square: a rounded square in its owner's colour with
/// its type letter and, small, its name; its title says where it is.
fn tank(svg: &mut Svg, grid: &Grid, setup: &Setup, pos: &Position, id: usize, lang: Lang) {
    let (Some(tank), Some(at)) = (setup.tanks.get(id), setup.square(pos, id)) else {
        return;
    };
    let cell = grid.cell;
    let (fill, ink, _) = colours(tank.owner);
    let (cx, cy) = grid.centre(at.col, at.row);
    let side = cell * 0.78;
    let letter = match tank.kind {
        TankType::A => "A",
        TankType::B => "B",
        TankType::C => "C",
    };
    let step = pos.at.get(id).copied().unwrap_or(0);
    let left = tank.track.len().saturating_sub(step + 1);
    svg.el("g")
        .attr("class", format_args!("tank {}", tank.owner))
        .open();
    let title = Text::new("svg-tank-war-tank")
        .with("owner", tank.owner.to_string())
        .with("name", &tank.name)
        .with("type", letter)
        .with("square", at.to_string())
        .with("left", left);
    svg.el("title").text(i18n::write(lang, &title));
    svg.el("rect")
        .attr("x", Px(cx - side / 2.0))
        .attr("y", Px(cy - side / 2.0))
        .attr("width", Px(side))
        .attr("height", Px(side))
        .attr("rx", Px(cell * 0.14))
        .attr("fill", fill)
        .attr("stroke", ink)
        .attr("stroke-width", 1.5)
        .empty();
    svg.el("text")
        .attr("class", "type")
        .attr("x", Px(cx))
        .attr("y", Px(cy + cell * 0.08))
        .attr("font-size", Px(cell * 0.4))
        .attr("font-weight", "bold")
        .attr("text-anchor", "middle")
        .attr("fill", "#fff")
        .text(letter);
    svg.el("text")
        .attr("class", "name")
        .attr("x", Px(cx))
        .attr("y", Px(cy + cell * 0.32))
        .attr("font-size", Px(cell * 0.2))
        .attr("text-anchor", "middle")
        .attr("fill", "#fff")
        .text(shorten(&tank.name, 6));
    svg.close();
}

/// A clock as `m:ss.t` (tenths), negative when time has run out.
struct Clock(i64);

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 < 0 {
            f.write_str("-")?;
        }
        let tenths = self.0.unsigned_abs() / 100;
        let (minutes, rest) = (tenths / 600, tenths % 600);
        write!(f, "{minutes}:{:02}.{}", rest / 10, rest % 10)
    }
}

#[cfg(test)]
mod tests {
    use super::super::svg::test_support::{count_class, dump, parse};
    use super::*;
    use crate::games::tank_war::{default_state, play_round};

    #[test]
    fn tank_war_default_state_has_twelve_tanks_and_tracks() {
        let (setup, pos) = default_state();
        let out = tank_war(&setup, &pos, Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "tank"), 12);
        assert_eq!(count_class(&doc, "tank U"), 6);
        assert_eq!(count_class(&doc, "tank D"), 6);
        assert_eq!(count_class(&doc, "track"), 12);
        assert_eq!(count_class(&doc, "square"), 36);
        assert_eq!(count_class(&doc, "territory-U"), 18);
        assert_eq!(count_class(&doc, "territory-D"), 18);
        assert!(out.contains("Round 0 · U 2:00.0 · D 2:00.0"), "{out}");
        let names: Vec<&str> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("name"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(names.iter().filter(|n| **n == "LA").count(), 2);
        dump("tank-war.svg", &out);
    }

    #[test]
    fn tank_war_leaves_out_destroyed_tanks() {
        let (setup, mut pos) = default_state();
        let mut destroyed = 0;
        for (u, d) in [("LA", "RC"), ("LC", "RB"), ("RA", "RB"), ("LA", "RB")] {
            let picks = [
                setup.find(&pos, Player::U, u),
                setup.find(&pos, Player::D, d),
            ];
            let [Some(u), Some(d)] = picks else {
                panic!("no tank {u} or {d}");
            };
            let before = pos.alive.iter().filter(|a| **a).count();
            let _ = play_round(&setup, &mut pos, [u, d], [0, 0]);
            destroyed += before - pos.alive.iter().filter(|a| **a).count();
        }
        assert!(destroyed > 0);
        let out = tank_war(&setup, &pos, Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "tank"), 12 - destroyed);
        assert_eq!(count_class(&doc, "track"), 12 - destroyed);
        assert!(out.contains("Round 4"));
    }

    #[test]
    fn tank_war_escapes_names_and_fits_large_boards() {
        let (mut setup, pos) = default_state();
        if let Some(tank) = setup.tanks.first_mut() {
            tank.name = "<P1&\"x'>".to_owned();
        }
        let out = tank_war(&setup, &pos, Lang::En);
        let doc = parse(&out);
        assert!(doc
            .descendants()
            .any(|n| n.attribute("class") == Some("name") && n.text() == Some("<P1&\"…")));
        assert_eq!(cell_size(26, 3), 24.0);
        assert_eq!(cell_size(6, 6), 48.0);
        assert_eq!(cell_size(1, 1), 48.0);
    }

    #[test]
    fn clocks_show_minutes_seconds_and_tenths() {
        assert_eq!(Clock(120_000).to_string(), "2:00.0");
        assert_eq!(Clock(61_234).to_string(), "1:01.2");
        assert_eq!(Clock(-1_500).to_string(), "-0:01.5");
        assert_eq!(Clock(i64::MIN).to_string().chars().next(), Some('-'));
    }
}
