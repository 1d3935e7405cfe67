//! The SVG writer every picture is written with ([`Svg`], [`Tag`]: every
//! attribute value and text node escaped), pixel numbers ([`Px`]), and the
//! pieces the games' pictures share: the square grid ([`Grid`]), the
//! backdrop, stars, captions, shortened labels.

use std::fmt::{self, Write};

use crate::i18n::{self, Lang};
use crate::text::Text;

/// The SVG namespace.
const SVG_NS: &str = "http://www.w3.org/2000/svg";

/// Font stack for every text node.
pub(crate) const FONT: &str = "DejaVu Sans, Verdana, Arial, sans-serif";

/// An SVG document being written: elements are opened, given attributes and
/// closed in order, with two spaces of indentation per level.
///
/// Element and attribute names are `&'static str` chosen by the renderers;
/// attribute values and text are anything [`fmt::Display`] and are always
/// escaped.
#[derive(Debug, Default)]
pub struct Svg {
    out: String,
    stack: Vec<&'static str>,
    /// The language of its texts.
    lang: Lang,
}

impl Svg {
    /// Starts a document: the `<svg>` root of `width` x `height` pixels
    /// with a matching `viewBox`, and its `<title>` for accessibility;
    /// its texts in `lang`.
    pub fn new(width: u32, height: u32, lang: Lang, title: impl fmt::Display) -> Svg {
        let mut svg = Svg {
            out: String::with_capacity(16 * 1024),
            stack: Vec::new(),
            lang,
        };
        svg.el("svg")
            .attr("xmlns", SVG_NS)
            .attr("width", width)
            .attr("height", height)
            .attr("viewBox", format_args!("0 0 {width} {height}"))
            .attr("role", "img")
            .attr("font-family", FONT)
            .open();
        svg.el("title").text(title);
        svg
    }

    /// `text` in the picture's language.
    pub fn say(&self, text: &Text) -> String {
        i18n::write(self.lang, text)
    }

    /// Starts element `name`; add attributes, then finish it with
    /// [`Tag::open`], [`Tag::text`] or [`Tag::empty`] (the default when
    /// the tag is dropped).
    pub fn el(&mut self, name: &'static str) -> Tag<'_> {
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        Tag {
            svg: self,
            name,
            done: false,
        }
    }

    /// Closes the innermost open element (does nothing if none is open).
    pub fn close(&mut self) {
        if let Some(name) = self.stack.pop() {
            self.indent();
            self.out.push_str("</");
            self.out.push_str(name);
            self.out.push_str(">\n");
        }
    }

    /// Closes every open element and returns the document.
    pub fn finish(mut self) -> String {
        while !self.stack.is_empty() {
            self.close();
        }
        self.out
    }

    fn indent(&mut self) {
        for _ in 0..self.stack.len() {
            self.out.push_str("  ");
        }
    }
}

/// An element whose start tag is being written; see [`Svg::el`].
#[must_use = "a tag is finished by open, text or empty"]
pub struct Tag<'a> {
    svg: &'a mut Svg,
    name: &'static str,
    done: bool,
}

impl Tag<'_> {
    /// Adds `name="value"`, the value escaped.
    pub fn attr(self, name: &'static str, value: impl fmt::Display) -> Self {
        let out = &mut self.svg.out;
        out.push(' ');
        out.push_str(name);
        out.push_str("=\"");
        let _ = write!(Escaper(out), "{value}");
        out.push('"');
        self
    }

    /// Ends the start tag and leaves the element open, for children; close
    /// it with [`Svg::close`].
    pub fn open(mut self) {
        self.done = true;
        self.svg.out.push_str(">\n");
        self.svg.stack.push(self.name);
    }

    /// Writes `text` (escaped) as the element's only content and closes it.
    pub fn text(mut self, text: impl fmt::Display) {
        self.done = true;
        let out = &mut self.svg.out;
        out.push('>');
        let _ = write!(Escaper(out), "{text}");
        out.push_str("</");
        out.push_str(self.name);
        out.push_str(">\n");
    }

    /// Closes the element with no content: `<name .../>`.
    pub fn empty(self) {
        // Dropping writes the `/>`.
    }
}

impl Drop for Tag<'_> {
    fn drop(&mut self) {
        if !self.done {
            self.svg.out.push_str("/>\n");
        }
    }
}

/// A `fmt::Write` that XML-escapes what goes through it into a `String`:
/// the five special characters become entities, tab and line breaks
/// character references (so attribute values keep them), and characters
/// XML 1.0 forbids become U+FFFD.
pub struct Escaper<'a>(pub &'a mut String);

impl Write for Escaper<'_> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        for c in s.chars() {
            match c {
                '&' => self.0.push_str("&amp;"),
                '<' => self.0.push_str("&lt;"),
                '>' => self.0.push_str("&gt;"),
                '"' => self.0.push_str("&quot;"),
                '\'' => self.0.push_str("&apos;"),
                '\t' => self.0.push_str("&#9;"),
                '\n' => self.0.push_str("&#10;"),
                '\r' => self.0.push_str("&#13;"),
                '\u{0}'..='\u{1f}' | '\u{fffe}' | '\u{ffff}' => self.0.push('\u{fffd}'),
                c => self.0.push(c),
            }
        }
        Ok(())
    }
}

/// A length in pixels written with at most two decimals and no `-0`, so
/// output does not depend on float printing details.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Px(pub f64);

impl fmt::Display for Px {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `as` saturates (NaN becomes 0): no panic whatever the input.
        let hundredths = (self.0 * 100.0).round() as i64;
        if hundredths < 0 {
            f.write_str("-")?;
        }
        let abs = hundredths.unsigned_abs();
        let (whole, frac) = (abs / 100, abs % 100);
        match frac {
            0 => write!(f, "{whole}"),
            _ if frac % 10 == 0 => write!(f, "{whole}.{}", frac / 10),
            _ => write!(f, "{whole}.{frac:02}"),
        }
    }
}

/// At most `max` characters of `text`, ending in `…` when cut.
pub(crate) fn shorten(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    if text.chars().count() <= max {
        return text.into();
    }
    let mut cut: String = text.chars().take(max.saturating_sub(1)).collect();
    cut.push('…');
    cut.into()
}

/// A board's geometry: `cols` x `rows` squares of `cell` pixels whose
/// top-left corner is at (`left`, `top`); row 0 is drawn at the bottom.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Grid {
    pub left: f64,
    pub top: f64,
    pub cell: f64,
    pub cols: u8,
    pub rows: u8,
}

impl Grid {
    /// Left edge of column `col`.
    pub fn x(&self, col: u8) -> f64 {
        self.left + f64::from(col) * self.cell
    }

    /// Top edge of row `row` (row 0 is the bottom one).
    pub fn y(&self, row: u8) -> f64 {
        self.top + f64::from(self.rows.saturating_sub(1).saturating_sub(row)) * self.cell
    }

    /// Centre of the square at (`col`, `row`).
    pub fn centre(&self, col: u8, row: u8) -> (f64, f64) {
        (self.x(col) + self.cell / 2.0, self.y(row) + self.cell / 2.0)
    }

    pub fn width(&self) -> f64 {
        f64::from(self.cols) * self.cell
    }

    pub fn height(&self) -> f64 {
        f64::from(self.rows) * self.cell
    }

    /// File letters under the board and rank numbers left of it, in a group
    /// of class `labels`.
    pub fn labels(&self, svg: &mut Svg, size: f64, colour: &str) {
        svg.el("g")
            .attr("class", "labels")
            .attr("font-size", Px(size))
            .attr("fill", colour)
            .attr("text-anchor", "middle")
            .open();
        let below = self.top + self.height() + size * 1.2;
        for col in 0..self.cols.min(26) {
            let (cx, _) = self.centre(col, 0);
            svg.el("text")
                .attr("x", Px(cx))
                .attr("y", Px(below))
                .text(char::from(b'a' + col));
        }
        let left = self.left - size * 0.9;
        for row in 0..self.rows {
            let (_, cy) = self.centre(0, row);
            svg.el("text")
                .attr("x", Px(left))
                .attr("y", Px(cy + size * 0.35))
                .text(u32::from(row) + 1);
        }
        svg.close();
    }

    /// A square's rectangle with the given class and fill.
    pub fn square(&self, svg: &mut Svg, col: u8, row: u8, class: &str, fill: &str) {
        svg.el("rect")
            .attr("class", class)
            .attr("x", Px(self.x(col)))
            .attr("y", Px(self.y(row)))
            .attr("width", Px(self.cell))
            .attr("height", Px(self.cell))
            .attr("fill", fill)
            .empty();
    }
}

/// A caption line: `text` centred at (`x`, `y`).
/// The page: a `width` x `height` background and the caption line centred
/// on `caption_x` at the top.
pub(crate) fn backdrop(
    svg: &mut Svg,
    width: u32,
    height: u32,
    caption_x: f64,
    line: impl fmt::Display,
) {
    svg.el("rect")
        .attr("class", "background")
        .attr("width", width)
        .attr("height", height)
        .attr("fill", "#fbf9f4")
        .empty();
    caption(svg, caption_x, 24.0, 16.0, line);
}

fn caption(svg: &mut Svg, x: f64, y: f64, size: f64, text: impl fmt::Display) {
    svg.el("text")
        .attr("class", "caption")
        .attr("x", Px(x))
        .attr("y", Px(y))
        .attr("font-size", Px(size))
        .attr("text-anchor", "middle")
        .attr("fill", "#222")
        .text(text);
}

/// The points of a star with `points` tips around (`cx`, `cy`), for a
/// `polygon`'s `points` attribute.
pub(crate) fn star(cx: f64, cy: f64, outer: f64, inner: f64, points: u32) -> String {
    let mut out = String::new();
    let n = points.max(2) * 2;
    for i in 0..n {
        let r = if i % 2 == 0 { outer } else { inner };
        let angle = std::f64::consts::PI * f64::from(i) / f64::from(points.max(2))
            - std::f64::consts::FRAC_PI_2;
        if i > 0 {
            out.push(' ');
        }
        let _ = write!(
            out,
            "{},{}",
            Px(cx + r * angle.cos()),
            Px(cy + r * angle.sin())
        );
    }
    out
}

#[cfg(test)]
pub(crate) mod test_support {
    /// Parses `svg` as XML, panicking with the text on failure.
    pub fn parse(svg: &str) -> roxmltree::Document<'_> {
        match roxmltree::Document::parse(svg) {
            Ok(doc) => doc,
            Err(e) => panic!("not XML: {e}\n{svg}"),
        }
    }

    /// Elements whose `class` attribute holds every word of `classes`.
    pub fn count_class(doc: &roxmltree::Document<'_>, classes: &str) -> usize {
        doc.descendants()
            .filter(|n| {
                n.attribute("class").is_some_and(|c| {
                    classes
                        .split_whitespace()
                        .all(|want| c.split_whitespace().any(|have| have == want))
                })
            })
            .count()
    }

    /// Writes `svg` to `$RENDER_DUMP_DIR/name` when that variable is set,
    /// to look at the pictures.
    pub fn dump(name: &str, svg: &str) {
        if let Some(dir) = std::env::var_os("RENDER_DUMP_DIR") {
            let path = std::path::Path::new(&dir).join(name);
            if let Err(e) = std::fs::write(&path, svg) {
                panic!("writing {}: {e}", path.display());
            }
        }
    }
}
