//! Rectangular boards shared by the track games: size, squares and their
//! notation (`a1` is the bottom-left square; files are letters, rows
//! numbers from the bottom).

use std::fmt;

/// Largest number of rows or columns (columns are lettered `a`..`z`).
pub const MAX_SIDE: u8 = 26;

/// A square: 0-based column (a = 0) and row (row 1 = 0).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Cell {
    pub col: u8,
    pub row: u8,
}

impl Cell {
    /// The square `(dc, dr)` away, if it is on `board`.
    pub fn offset(self, board: Board, dc: i8, dr: i8) -> Option<Cell> {
        let col = self.col as i16 + dc as i16;
        let row = self.row as i16 + dr as i16;
        let inside = (0..board.cols as i16).contains(&col) && (0..board.rows as i16).contains(&row);
        inside.then_some(Cell {
            col: col as u8,
            row: row as u8,
        })
    }

    /// Whether `other` is one orthogonal step away.
    pub fn is_orthogonal_neighbour(self, other: Cell) -> bool {
        self.col.abs_diff(other.col) + self.row.abs_diff(other.row) == 1
    }

    /// Parses `a1`-style notation: a lower-case column letter and a row
    /// number without leading zero. Whether it is on a board is checked by
    /// [`Board::contains`].
    pub fn parse(text: &str) -> Option<Cell> {
        let mut chars = text.chars();
        let letter = chars.next()?;
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let digits = chars.as_str();
        if digits.is_empty()
            || digits.len() > 2
            || digits.starts_with('0')
            || !digits.bytes().all(|b| b.is_ascii_digit())
        {
            return None;
        }
        let row: u8 = digits.parse().ok()?;
        Some(Cell {
            col: letter as u8 - b'a',
            row: row.checked_sub(1)?,
        })
    }
}

/// A square travels as its name (`c3`).
impl serde::Serialize for Cell {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col) as char, self.row + 1)
    }
}

/// The size of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Board {
    pub rows: u8,
    pub cols: u8,
}

impl Board {
    /// A board of `rows` x `cols` if both lie in `min..=26`.
    pub fn checked(rows: u32, cols: u32, min: u8) -> Option<Board> {
        let ok = |n: u32| (u32::from(min)..=u32::from(MAX_SIDE)).contains(&n);
        (ok(rows) && ok(cols)).then_some(Board {
            rows: rows as u8,
            cols: cols as u8,
        })
    }

    pub fn contains(self, cell: Cell) -> bool {
        cell.col < self.cols && cell.row < self.rows
    }

    /// Number of squares.
    pub fn len(self) -> usize {
        self.rows as usize * self.cols as usize
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    /// Index of `cell` in row-major order from row 1.
    pub fn index(self, cell: Cell) -> usize {
        cell.row as usize * self.cols as usize + cell.col as usize
    }
}

/// Test support for the grid games' JSON notations: each named `$defs`
/// entry of `schema` lists exactly the fields of its written `object`.
#[cfg(test)]
pub(crate) fn assert_schema_lists(
    schema: &serde_json::Value,
    written: &[(&str, &serde_json::Value)],
) {
    for (name, object) in written {
        let keys = |value: &serde_json::Value| {
            let mut keys: Vec<String> = value
                .as_object()
                .map(|o| o.keys().cloned().collect())
                .unwrap_or_default();
            keys.sort();
            keys
        };
        let properties = keys(&schema["$defs"][*name]["properties"]);
        assert!(!properties.is_empty(), "{name}");
        assert_eq!(properties, keys(object), "{name}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_round_trips_and_rejects_junk() {
        let board = Board { rows: 26, cols: 26 };
        for row in 0..26 {
            for col in 0..26 {
                let cell = Cell { col, row };
                assert_eq!(Cell::parse(&cell.to_string()), Some(cell));
                assert!(board.contains(cell));
            }
        }
        for bad in ["", "a", "a0", "A1", "a01", "1a", "a1x", "é1", "a100"] {
            assert_eq!(Cell::parse(bad), None, "{bad}");
        }
        assert!(!Board { rows: 6, cols: 6 }.contains(Cell::parse("g1").unwrap()));
    }
}
