//! Terrain of the board: mines, the contaminated area and the two bases.

use std::fmt;

use super::bitboard::Bitboard;
use super::parse_error::{Fault as NotationFault, Notation, ParseError};
use super::side::Side;
use super::square::{Square, SIZE};

/// The standard layout, rank 11 first (docs/TANK-BATTLE.md).
pub const STANDARD_TEXT: &str = "Bbbbb....../bbbb..#..../bbb..#...../bb.#....#../....~~~..../.#..~~~..#./....~~~..../..#....#.ww/.....#..www/....#..wwww/......wwwwW";

/// The name that stands for [`Layout::STANDARD`].
pub const STANDARD_NAME: &str = "standard";

/// One square's terrain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Terrain {
    Open,
    Mine,
    Contaminated,
    /// A square of `Side`'s base (its commander start included).
    Base(Side),
}

/// The terrain of all 121 squares. Each square is exactly one of open, mine,
/// contaminated or a base square; each base has one commander start.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    mines: Bitboard,
    contaminated: Bitboard,
    bases: [Bitboard; 2],
    commander_starts: [Square; 2],
}

/// Why layout text was rejected; `const` so the standard layout is checked
/// by the compiler.
#[derive(Clone, Copy, Debug)]
enum Fault {
    Rows(usize),
    RowLength { row: usize, len: usize },
    Char { row: usize, col: usize, byte: u8 },
    CommanderStarts { side: Side, count: u32 },
}

impl Layout {
    /// The standard layout (docs/TANK-BATTLE.md).
    pub const STANDARD: Layout = match Layout::parse_const(STANDARD_TEXT.as_bytes()) {
        Ok(layout) => layout,
        Err(_) => panic!("the standard layout text is malformed"),
    };

    /// A layout name (`standard`) or 11 rows of layout text, rank 11 first.
    pub fn parse(text: &str) -> Result<Layout, ParseError> {
        let text = text.trim_matches(|c: char| c.is_ascii_whitespace());
        if text == STANDARD_NAME {
            return Ok(Layout::STANDARD);
        }
        Layout::parse_const(text.as_bytes())
            .map_err(|fault| ParseError::new(Notation::Layout, fault.public(text.len() < 40)))
    }

    const fn parse_const(text: &[u8]) -> Result<Layout, Fault> {
        let mut mines = 0u128;
        let mut contaminated = 0u128;
        let mut bases = [0u128; 2];
        let mut starts = [0u8; 2];
        let mut start_counts = [0u32; 2];
        let mut rows = 1;
        let mut i = 0;
        while i < text.len() {
            if text[i] == b'/' {
                rows += 1;
            }
            i += 1;
        }
        if rows != SIZE as usize {
            return Err(Fault::Rows(rows));
        }
        let (mut row, mut col) = (0usize, 0usize);
        i = 0;
        while i <= text.len() {
            let byte = if i < text.len() { text[i] } else { b'/' };
            i += 1;
            if byte == b'/' {
                if col != SIZE as usize {
                    return Err(Fault::RowLength { row, len: col });
                }
                row += 1;
                col = 0;
                continue;
            }
            if col >= SIZE as usize {
                col += 1;
                continue; // reported as a row length fault at the next `/`
            }
            let bit = 1u128 << ((SIZE as usize - 1 - row) * SIZE as usize + col);
            match byte {
                b'.' => {}
                b'#' => mines |= bit,
                b'~' => contaminated |= bit,
                b'w' | b'W' | b'b' | b'B' => {
                    let side = if byte == b'w' || byte == b'W' { 0 } else { 1 };
                    bases[side] |= bit;
                    if byte == b'W' || byte == b'B' {
                        start_counts[side] += 1;
                        starts[side] = bit.trailing_zeros() as u8;
                    }
                }
                _ => return Err(Fault::Char { row, col, byte }),
            }
            col += 1;
        }
        let mut side = 0;
        while side < 2 {
            if start_counts[side] != 1 {
                let side_enum = if side == 0 { Side::White } else { Side::Black };
                return Err(Fault::CommanderStarts {
                    side: side_enum,
                    count: start_counts[side],
                });
            }
            side += 1;
        }
        Ok(Layout {
            mines: Bitboard(mines),
            contaminated: Bitboard(contaminated),
            bases: [Bitboard(bases[0]), Bitboard(bases[1])],
            commander_starts: [
                Square::from_index_unchecked(starts[0]),
                Square::from_index_unchecked(starts[1]),
            ],
        })
    }

    pub const fn mines(&self) -> Bitboard {
        self.mines
    }

    pub const fn contaminated(&self) -> Bitboard {
        self.contaminated
    }

    /// The squares of `side`'s base, its commander start included.
    pub const fn base(&self, side: Side) -> Bitboard {
        self.bases[side.index()]
    }

    /// The circle-marked square where `side`'s commander starts.
    pub const fn commander_start(&self, side: Side) -> Square {
        self.commander_starts[side.index()]
    }

    pub fn terrain(&self, sq: Square) -> Terrain {
        if self.mines.contains(sq) {
            Terrain::Mine
        } else if self.contaminated.contains(sq) {
            Terrain::Contaminated
        } else if self.bases[0].contains(sq) {
            Terrain::Base(Side::White)
        } else if self.bases[1].contains(sq) {
            Terrain::Base(Side::Black)
        } else {
            Terrain::Open
        }
    }

    /// The layout's character for `sq` in layout notation.
    pub fn char_at(&self, sq: Square) -> char {
        match self.terrain(sq) {
            Terrain::Open => '.',
            Terrain::Mine => '#',
            Terrain::Contaminated => '~',
            Terrain::Base(side) => {
                let start = self.commander_start(side) == sq;
                match (side, start) {
                    (Side::White, false) => 'w',
                    (Side::White, true) => 'W',
                    (Side::Black, false) => 'b',
                    (Side::Black, true) => 'B',
                }
            }
        }
    }
}

impl Fault {
    /// The fault as the engine says it (`short_input`: the text was
    /// short, so one row may be a misspelt layout name).
    fn public(self, short_input: bool) -> NotationFault {
        let rank = |row: usize| SIZE as usize - row;
        match self {
            Fault::Rows(n) => NotationFault::LayoutRows {
                found: n,
                name_like: short_input && n == 1,
                standard: STANDARD_NAME,
            },
            Fault::RowLength { row, len } => NotationFault::LayoutRowLength {
                row: row + 1,
                rank: rank(row),
                found: len,
            },
            Fault::Char { row, col, byte } => NotationFault::LayoutCharacter {
                square: format!("{}{}", char::from(b'a' + col as u8), rank(row)),
                found: char::from(byte),
            },
            Fault::CommanderStarts { side, count } => {
                NotationFault::CommanderStarts { side, count }
            }
        }
    }
}

/// Layout notation: 11 rows separated by `/`, rank 11 first.
impl fmt::Display for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if *self == Layout::STANDARD {
            return f.write_str(STANDARD_TEXT);
        }
        for rank in (0..SIZE).rev() {
            for file in 0..SIZE {
                if let Some(sq) = Square::from_coords(file, rank) {
                    write!(f, "{}", self.char_at(sq))?;
                }
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        Ok(())
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layout_round_trips_and_matches_the_rules() {
        let std = Layout::STANDARD;
        assert_eq!(std.to_string(), STANDARD_TEXT);
        assert_eq!(Layout::parse(STANDARD_TEXT), Ok(std));
        assert_eq!(Layout::parse("standard"), Ok(std));
        // 14-square bases: 13 tanks and a commander.
        assert_eq!(std.base(Side::White).count(), 14);
        assert_eq!(std.base(Side::Black).count(), 14);
        // Commanders start in each side's down-right corner.
        assert_eq!(std.commander_start(Side::White).to_string(), "k1");
        assert_eq!(std.commander_start(Side::Black).to_string(), "a11");
        assert_eq!(std.contaminated().count(), 9);
        // 180-degree rotational symmetry.
        assert_eq!(std.mines().rotated(), std.mines());
        assert_eq!(std.contaminated().rotated(), std.contaminated());
        assert_eq!(std.base(Side::White).rotated(), std.base(Side::Black));
    }

    #[test]
    fn terrain_is_disjoint() {
        let std = Layout::STANDARD;
        let all = [
            std.mines(),
            std.contaminated(),
            std.base(Side::White),
            std.base(Side::Black),
        ];
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                assert!((*a & *b).is_empty());
            }
        }
    }

    #[test]
    fn rejects_malformed_layouts_with_a_reason() {
        let cases = [
            ("", "found 1 row"),
            ("nonsense", "unknown layout name"),
            (
                &STANDARD_TEXT[..STANDARD_TEXT.len() - 1],
                "row 11 (rank 1) has 10 squares",
            ),
            (
                &STANDARD_TEXT.replace("Bbbbb", "Bbbbx"),
                "unexpected character 'x' at e11",
            ),
            (
                &STANDARD_TEXT.replace('B', "b"),
                "exactly one black commander start",
            ),
            (&STANDARD_TEXT.replace("wwwW", "WwwW"), "found 2"),
            (&format!("{STANDARD_TEXT}/..........."), "found 12 rows"),
            (&STANDARD_TEXT.replace("/", "//"), "found 21 rows"),
            (
                &STANDARD_TEXT.replacen("/", "./", 1),
                "row 1 (rank 11) has 12 squares",
            ),
        ];
        for (text, expected) in cases {
            let err = Layout::parse(text).unwrap_err();
            assert_eq!(err.notation, Notation::Layout);
            assert!(err.to_string().contains(expected), "{text:?}: {err}");
        }
    }

    #[test]
    fn custom_layout_round_trips() {
        let text = "W........../.........../....#....../.........../~~~~~~~~~~~/.........../.........../.........../.........../.........../bbbbbbbbbbB";
        let layout = Layout::parse(text).unwrap();
        assert_eq!(layout.to_string(), text);
        assert_eq!(layout.commander_start(Side::White).to_string(), "a11");
        assert_eq!(layout.base(Side::Black).count(), 11);
    }
}
