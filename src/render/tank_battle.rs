//! The Tank Battle board: terrain, tanks, the last move and one tank's
//! legal moves.

use super::svg::{backdrop, star, Grid, Px, Svg};
use crate::games::tank_battle::{Layout, Move, Position, Role, Side, Square, Terrain};
use crate::i18n::{self, Lang};
use crate::text::Text;

/// Side of a square in pixels.
const CELL: f64 = 48.0;
/// Board edge: 11 squares.
const SIZE: u8 = 11;
const LEFT: f64 = 28.0;
const TOP: f64 = 36.0;
const RIGHT: f64 = 20.0;
const BOTTOM: f64 = 30.0;

const OPEN: &str = "#efe7d4";
const MINE: &str = "#1b1b1b";
const CONTAMINATED: &str = "#d64541";
const WHITE_BASE: &str = "#5b8fd9";
const BLACK_BASE: &str = "#4fa35b";
const ARROW: &str = "#f08a24";
/// The arrows a client asks for (`arrows`): lichess's green for a best
/// move.
const HINT: &str = "#15781b";
/// Marks of the squares a selected tank may capture on.
const CAPTURE: &str = "#b3001b";
/// The ring on a commander start.
const COMMANDER_START: &str = "#fff";
/// The squares of the last move.
const LAST_MOVE: &str = "#ffe14d";

/// An SVG picture of `position` on `layout`.
///
/// Terrain follows the rules' colours: blue for White's base, green for
/// Black's, red for the contaminated area, black for mines, a ring on each
/// commander start, light open fields. Files `a`..`k` run under the board
/// and ranks `1`..`11` beside it, rank 1 (White's side) at the bottom.
/// White tanks are white with a dark outline, Black's dark with a light
/// one; commanders carry a gold star. Each tank is a `g` of class
/// `tank white|black normal|commander`.
///
/// `last_move` adds an arrow from its `from` to its `to` square (class
/// `arrow`). `moves_from` highlights the given square (class `selected`)
/// and puts one mark on the target of each given move, normally the legal
/// moves of the tank on that square: a dot (class `dot`), or for a capture
/// red corner brackets round the target (class `dot capture`), unlike the
/// round mark of a commander start.
///
/// `arrows` are drawn as green arrows (class `arrow hint`, the first the
/// boldest, each with its move in `data-move` and its place in
/// `data-order`, from 1): a line, such as a review's best one.
///
/// Its title, caption and tooltips are written in `lang`.
pub fn tank_battle(
    layout: &Layout,
    position: &Position,
    last_move: Option<Move>,
    moves_from: Option<(Square, &[Move])>,
    arrows: &[Move],
    lang: Lang,
) -> String {
    let grid = Grid {
        left: LEFT,
        top: TOP,
        cell: CELL,
        cols: SIZE,
        rows: SIZE,
    };
    let width = (LEFT + grid.width() + RIGHT) as u32;
    let height = (TOP + grid.height() + BOTTOM) as u32;
    let line = Text::new("svg-tank-battle-line")
        .with("side", position.turn().name())
        .with("ply", position.ply());
    let mut line = i18n::write(lang, &line);
    if let Some(mv) = last_move {
        let text = Text::new("svg-tank-battle-last-move")
            .with("line", line)
            .with("move", mv.notation(&mut [0; 7]));
        line = i18n::write(lang, &text);
    }
    let title = i18n::write(
        lang,
        &Text::new("svg-tank-battle-title").with("line", &line),
    );
    let mut svg = Svg::new(width, height, lang, title);
    if last_move.is_some() || !arrows.is_empty() {
        svg.el("defs").open();
        if last_move.is_some() {
            arrow_marker(&mut svg, "tb-arrowhead", ARROW);
        }
        if !arrows.is_empty() {
            arrow_marker(&mut svg, "tb-hint-arrowhead", HINT);
        }
        svg.close();
    }
    backdrop(&mut svg, width, height, LEFT + grid.width() / 2.0, &line);
    terrain(&mut svg, &grid, layout);
    if let Some(mv) = last_move {
        for sq in [mv.from, mv.to] {
            highlight(&mut svg, &grid, sq, "last-move-square", LAST_MOVE, 0.5);
        }
    }
    if let Some((sq, _)) = moves_from {
        let (x, y) = corner(&grid, sq);
        svg.el("rect")
            .attr("class", "selected")
            .attr("x", Px(x + 2.0))
            .attr("y", Px(y + 2.0))
            .attr("width", Px(CELL - 4.0))
            .attr("height", Px(CELL - 4.0))
            .attr("fill", "#ffe14d")
            .attr("fill-opacity", "0.35")
            .attr("stroke", "#ffcc00")
            .attr("stroke-width", 4)
            .empty();
    }
    grid.labels(&mut svg, 14.0, "#444");
    tanks(&mut svg, &grid, position, lang);
    if let Some((_, moves)) = moves_from {
        dots(&mut svg, &grid, position, moves);
    }
    if let Some(mv) = last_move {
        arrow(&mut svg, &grid, mv, Arrow::LastMove);
    }
    for (order, &mv) in arrows.iter().enumerate() {
        arrow(&mut svg, &grid, mv, Arrow::Hint { order: order + 1 });
    }
    svg.finish()
}

fn centre(grid: &Grid, sq: Square) -> (f64, f64) {
    grid.centre(sq.file(), sq.rank())
}

fn corner(grid: &Grid, sq: Square) -> (f64, f64) {
    (grid.x(sq.file()), grid.y(sq.rank()))
}

fn terrain(svg: &mut Svg, grid: &Grid, layout: &Layout) {
    svg.el("g")
        .attr("class", "board")
        .attr("stroke", "#6b6355")
        .attr("stroke-width", "0.75")
        .open();
    for sq in Square::all() {
        let (class, fill) = match layout.terrain(sq) {
            Terrain::Open => ("square open", OPEN),
            Terrain::Mine => ("square mine", MINE),
            Terrain::Contaminated => ("square contaminated", CONTAMINATED),
            Terrain::Base(Side::White) => ("square base white-base", WHITE_BASE),
            Terrain::Base(Side::Black) => ("square base black-base", BLACK_BASE),
        };
        grid.square(svg, sq.file(), sq.rank(), class, fill);
    }
    svg.close();
    for side in Side::ALL {
        let (cx, cy) = centre(grid, layout.commander_start(side));
        svg.el("circle")
            .attr("class", format_args!("commander-start {}", side.name()))
            .attr("cx", Px(cx))
            .attr("cy", Px(cy))
            .attr("r", Px(CELL * 0.43))
            .attr("fill", "none")
            .attr("stroke", COMMANDER_START)
            .attr("stroke-width", 2.5)
            .empty();
    }
}

fn highlight(svg: &mut Svg, grid: &Grid, sq: Square, class: &str, fill: &str, opacity: f64) {
    let (x, y) = corner(grid, sq);
    svg.el("rect")
        .attr("class", class)
        .attr("x", Px(x))
        .attr("y", Px(y))
        .attr("width", Px(CELL))
        .attr("height", Px(CELL))
        .attr("fill", fill)
        .attr("fill-opacity", Px(opacity))
        .empty();
}

fn tanks(svg: &mut Svg, grid: &Grid, position: &Position, lang: Lang) {
    for sq in Square::all() {
        let Some(piece) = position.piece_at(sq) else {
            continue;
        };
        let (cx, cy) = centre(grid, sq);
        svg.el("g")
            .attr(
                "class",
                format_args!("tank {} {}", piece.side.name(), role_class(piece.role)),
            )
            .open();
        let title = Text::new("svg-tank-battle-piece")
            .with("side", piece.side.name())
            .with("role", piece.role.name())
            .with("square", sq.name());
        svg.el("title").text(i18n::write(lang, &title));
        draw_piece(svg, cx, cy, piece.side, piece.role);
        svg.close();
    }
}

const fn role_class(role: Role) -> &'static str {
    match role {
        Role::Tank => "normal",
        Role::Commander => "commander",
    }
}

/// A piece centred on (`cx`, `cy`): a tank with its turret and its gun
/// pointing at the enemy's side, or a commander with a gold star.
fn draw_piece(svg: &mut Svg, cx: f64, cy: f64, side: Side, role: Role) {
    let (fill, ink) = match side {
        Side::White => ("#fafafa", "#1e1e1e"),
        Side::Black => ("#1e1e1e", "#f0f0f0"),
    };
    svg.el("circle")
        .attr("cx", Px(cx))
        .attr("cy", Px(cy))
        .attr("r", Px(CELL * 0.33))
        .attr("fill", fill)
        .attr("stroke", ink)
        .attr("stroke-width", 2)
        .empty();
    match role {
        Role::Tank => {
            let dir = if side == Side::White { -1.0 } else { 1.0 };
            svg.el("line")
                .attr("x1", Px(cx))
                .attr("y1", Px(cy))
                .attr("x2", Px(cx))
                .attr("y2", Px(cy + dir * CELL * 0.3))
                .attr("stroke", ink)
                .attr("stroke-width", 3)
                .attr("stroke-linecap", "round")
                .empty();
            svg.el("circle")
                .attr("cx", Px(cx))
                .attr("cy", Px(cy))
                .attr("r", Px(CELL * 0.14))
                .attr("fill", fill)
                .attr("stroke", ink)
                .attr("stroke-width", 2)
                .empty();
        }
        Role::Commander => {
            svg.el("circle")
                .attr("cx", Px(cx))
                .attr("cy", Px(cy))
                .attr("r", Px(CELL * 0.26))
                .attr("fill", "none")
                .attr("stroke", ink)
                .attr("stroke-width", 1)
                .empty();
            svg.el("polygon")
                .attr("points", star(cx, cy + 1.0, CELL * 0.23, CELL * 0.1, 5))
                .attr("fill", "#f5c518")
                .attr("stroke", "#7a5a00")
                .attr("stroke-width", 1)
                .attr("stroke-linejoin", "round")
                .empty();
        }
    }
}

/// The pieces as `render.svg` draws them, one `<symbol>` each
/// (`tb-white-normal`, `tb-black-commander`, …, as the pieces' classes),
/// for the board's page to draw its pieces with.
pub fn tank_battle_pieces() -> String {
    let mut svg = Svg::new(0, 0, Lang::En, "Tank Battle's pieces");
    for side in Side::ALL {
        for role in [Role::Tank, Role::Commander] {
            svg.el("symbol")
                .attr(
                    "id",
                    format_args!("tb-{}-{}", side.name(), role_class(role)),
                )
                .attr("viewBox", format_args!("0 0 {CELL} {CELL}"))
                .open();
            draw_piece(&mut svg, CELL / 2.0, CELL / 2.0, side, role);
            svg.close();
        }
    }
    svg.finish()
}

/// The board's colours as `render.svg` draws them, by name (`mine`, …),
/// for the board's page ([`super::palette`]).
pub fn colours() -> [(&'static str, &'static str); 10] {
    [
        ("open", OPEN),
        ("mine", MINE),
        ("contaminated", CONTAMINATED),
        ("base-white", WHITE_BASE),
        ("base-black", BLACK_BASE),
        ("commander-start", COMMANDER_START),
        ("last", LAST_MOVE),
        ("arrow", ARROW),
        ("hint", HINT),
        ("capture", CAPTURE),
    ]
}

fn dots(svg: &mut Svg, grid: &Grid, position: &Position, moves: &[Move]) {
    svg.el("g")
        .attr("class", "moves")
        .attr("fill", "#111")
        .attr("stroke", "#111")
        .open();
    for mv in moves {
        let (cx, cy) = centre(grid, mv.to);
        let capture = mv.is_capture() || position.piece_at(mv.to).is_some();
        if capture {
            // Red corner brackets around the target: unlike the round
            // commander-start mark, and clear of the tank in the middle.
            let (h, l) = (CELL * 0.46, CELL * 0.18);
            let d: String = [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)]
                .iter()
                .map(|&(sx, sy): &(f64, f64)| {
                    let (x, y) = (cx + sx * h, cy + sy * h);
                    format!(
                        "M{:.1},{:.1} L{:.1},{:.1} L{:.1},{:.1} ",
                        x - sx * l,
                        y,
                        x,
                        y,
                        x,
                        y - sy * l
                    )
                })
                .collect();
            svg.el("path")
                .attr("class", "dot capture")
                .attr("d", d.trim_end())
                .attr("fill", "none")
                .attr("stroke", CAPTURE)
                .attr("stroke-width", 4)
                .attr("stroke-linecap", "square")
                .empty();
        } else {
            svg.el("circle")
                .attr("class", "dot")
                .attr("cx", Px(cx))
                .attr("cy", Px(cy))
                .attr("opacity", "0.5")
                .attr("r", Px(CELL * 0.14))
                .attr("stroke", "none")
                .empty();
        }
    }
    svg.close();
}

fn arrow_marker(svg: &mut Svg, id: &str, fill: &str) {
    svg.el("marker")
        .attr("id", id)
        .attr("viewBox", "0 0 10 10")
        .attr("refX", 9)
        .attr("refY", 5)
        .attr("markerWidth", 3.5)
        .attr("markerHeight", 3.5)
        .attr("orient", "auto")
        .open();
    svg.el("path")
        .attr("d", "M0,0 L10,5 L0,10 z")
        .attr("fill", fill)
        .empty();
    svg.close();
}

/// Which arrow a move is drawn as.
#[derive(Clone, Copy)]
enum Arrow {
    /// The move that led to the position.
    LastMove,
    /// One the client asked for, `order`th of its list (from 1).
    Hint { order: usize },
}

fn arrow(svg: &mut Svg, grid: &Grid, mv: Move, kind: Arrow) {
    let (x1, y1) = centre(grid, mv.from);
    let (x2, y2) = centre(grid, mv.to);
    // The head's tip stops at the edge of the tank on the target square.
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt();
    let back = if len > 0.0 {
        (CELL * 0.3).min(len / 3.0) / len
    } else {
        0.0
    };
    let (class, colour, head, opacity) = match kind {
        Arrow::LastMove => ("arrow last-move", ARROW, "url(#tb-arrowhead)", "0.85"),
        Arrow::Hint { order: 1 } => ("arrow hint", HINT, "url(#tb-hint-arrowhead)", "0.8"),
        Arrow::Hint { .. } => ("arrow hint", HINT, "url(#tb-hint-arrowhead)", "0.45"),
    };
    let el = svg
        .el("line")
        .attr("class", class)
        .attr("x1", Px(x1))
        .attr("y1", Px(y1))
        .attr("x2", Px(x2 - dx * back))
        .attr("y2", Px(y2 - dy * back))
        .attr("stroke", colour)
        .attr("stroke-width", 6)
        .attr("opacity", opacity)
        .attr("marker-end", head);
    match kind {
        Arrow::LastMove => el.empty(),
        Arrow::Hint { order } => el
            .attr("data-move", mv.notation(&mut [0; 7]))
            .attr("data-order", order)
            .empty(),
    }
}

#[cfg(test)]
mod tests {
    use super::super::svg::test_support::{count_class, dump, parse};
    use super::*;

    fn sq(name: &str) -> Square {
        match name.parse() {
            Ok(sq) => sq,
            Err(e) => panic!("{e}"),
        }
    }

    fn legal(pos: &Position, text: &str) -> Move {
        let layout = Layout::STANDARD;
        let found = pos
            .legal_moves(&layout)
            .into_iter()
            .find(|mv| mv.to_string() == text || format!("{}-{}", mv.from, mv.to) == text);
        match found {
            Some(mv) => mv,
            None => panic!("{text} is not legal"),
        }
    }

    #[test]
    fn tank_battle_initial_position_has_terrain_and_all_tanks() {
        let layout = Layout::STANDARD;
        let pos = Position::initial(&layout);
        let out = tank_battle(&layout, &pos, None, None, &[], Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "square"), 121);
        assert_eq!(
            count_class(&doc, "square mine"),
            layout.mines().count() as usize
        );
        assert_eq!(count_class(&doc, "square contaminated"), 9);
        assert_eq!(count_class(&doc, "square white-base"), 14);
        assert_eq!(count_class(&doc, "square black-base"), 14);
        assert_eq!(count_class(&doc, "commander-start"), 2);
        assert_eq!(count_class(&doc, "tank"), 28);
        assert_eq!(count_class(&doc, "tank white"), 14);
        assert_eq!(count_class(&doc, "tank black"), 14);
        assert_eq!(count_class(&doc, "tank white commander"), 1);
        assert_eq!(count_class(&doc, "tank black commander"), 1);
        assert_eq!(count_class(&doc, "arrow"), 0);
        assert_eq!(count_class(&doc, "dot"), 0);
        assert_eq!(count_class(&doc, "selected"), 0);
        assert!(!out.contains("marker"));
        let title = doc.root_element().first_element_child();
        assert!(title.is_some_and(|t| t.has_tag_name("title")));
        // Files a..k and ranks 1..11.
        let labels: Vec<&str> = doc
            .descendants()
            .filter(|n| n.is_element())
            .filter(|n| n.parent().and_then(|p| p.attribute("class")) == Some("labels"))
            .filter_map(|n| n.text())
            .collect();
        assert_eq!(labels.len(), 22);
        assert!(labels.contains(&"k") && labels.contains(&"11"));
    }

    #[test]
    fn tank_battle_rank_one_is_at_the_bottom() {
        let layout = Layout::STANDARD;
        let pos = Position::initial(&layout);
        let out = tank_battle(&layout, &pos, None, None, &[], Lang::En);
        let doc = parse(&out);
        let cy = |class: &str| {
            doc.descendants()
                .find(|n| n.attribute("class") == Some(class))
                .and_then(|n| n.attribute("cy"))
                .and_then(|v| v.parse::<f64>().ok())
        };
        let (Some(white), Some(black)) = (cy("commander-start white"), cy("commander-start black"))
        else {
            panic!("no commander starts");
        };
        assert!(white > black, "white's k1 should be below black's a11");
    }

    #[test]
    fn tank_battle_arrow_only_with_last_move() {
        let layout = Layout::STANDARD;
        let mut pos = Position::initial(&layout);
        let mv = legal(&pos, "k4-k11");
        pos.play_unchecked(mv);
        let with = tank_battle(&layout, &pos, Some(mv), None, &[], Lang::En);
        let doc = parse(&with);
        assert_eq!(count_class(&doc, "arrow"), 1);
        assert_eq!(count_class(&doc, "last-move-square"), 2);
        assert!(with.contains("marker-end=\"url(#tb-arrowhead)\""));
        assert!(with.contains("last move k4-k11"));
        let without = tank_battle(&layout, &pos, None, None, &[], Lang::En);
        let doc = parse(&without);
        assert_eq!(count_class(&doc, "arrow"), 0);
        assert_eq!(count_class(&doc, "last-move-square"), 0);
        assert!(!without.contains("marker"));
    }

    #[test]
    fn tank_battle_dots_match_the_moves_given() {
        let layout = Layout::STANDARD;
        let mut pos = Position::initial(&layout);
        pos.play_unchecked(legal(&pos, "k4-k11"));
        let from = sq("e11");
        let moves = pos.legal_moves_from(&layout, from);
        let captures = moves.iter().filter(|m| m.is_capture()).count();
        assert!(captures == 1 && moves.len() > 3, "{moves:?}");
        let out = tank_battle(&layout, &pos, None, Some((from, &moves)), &[], Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "dot"), moves.len());
        assert_eq!(count_class(&doc, "dot capture"), captures);
        // A capture mark is not a ring like a commander start's.
        assert!(doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("dot capture"))
            .all(|n| n.tag_name().name() == "path"));
        assert_eq!(count_class(&doc, "selected"), 1);
        // No moves: a selected square and no dots.
        let out = tank_battle(&layout, &pos, None, Some((from, &[])), &[], Lang::En);
        let doc = parse(&out);
        assert_eq!(count_class(&doc, "dot"), 0);
        assert_eq!(count_class(&doc, "selected"), 1);
    }

    #[test]
    fn tank_battle_is_deterministic_and_shows_captures() {
        let layout = Layout::STANDARD;
        let mut pos = Position::initial(&layout);
        let first = legal(&pos, "k4-k11");
        pos.play_unchecked(first);
        let capture = legal(&pos, "e11xk11");
        pos.play_unchecked(capture);
        let a = tank_battle(&layout, &pos, Some(capture), None, &[], Lang::En);
        let b = tank_battle(&layout, &pos, Some(capture), None, &[], Lang::En);
        assert_eq!(a, b);
        let doc = parse(&a);
        assert_eq!(count_class(&doc, "tank white"), 13);
        assert_eq!(count_class(&doc, "tank black"), 14);
        assert!(a.contains("White to move · ply 2 · last move e11xk11"));
    }

    /// The README picture: after White's k4-k11, with Black's e11 selected.
    #[test]
    fn tank_battle_picture() {
        let layout = Layout::STANDARD;
        let mut pos = Position::initial(&layout);
        let mv = legal(&pos, "k4-k11");
        pos.play_unchecked(mv);
        let from = sq("e11");
        let moves = pos.legal_moves_from(&layout, from);
        let out = tank_battle(&layout, &pos, Some(mv), Some((from, &moves)), &[], Lang::En);
        parse(&out);
        dump("tank-battle.svg", &out);
    }
}
