//! The transposition table: one 16-byte slot per index, always replaced;
//! a key of 0 marks an empty slot.

use super::super::{Move, Square};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The true value is at least the score (a beta cut-off).
    Lower,
    /// The true value is at most the score (no move raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
pub struct Entry {
    pub key: u64,
    pub score: i32,
    /// From and to square of the best move, `u16::MAX` for none.
    mv: u16,
    pub depth: u8,
    pub bound: Bound,
}

impl Entry {
    /// The stored best move's squares.
    pub fn best(&self) -> Option<(Square, Square)> {
        if self.mv == u16::MAX {
            return None;
        }
        let from = Square::new((self.mv >> 8) as u8)?;
        let to = Square::new((self.mv & 0xFF) as u8)?;
        Some((from, to))
    }
}

pub struct Table {
    slots: Vec<Entry>,
    mask: usize,
}

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    mv: u16::MAX,
    depth: 0,
    bound: Bound::Upper,
};

/// The most slots a table has.
const MAX_SLOTS: usize = 1 << 21;

/// The most bytes one search's table takes (32 MiB): every slot is
/// written when the table is made, so a search holds all of it.
pub const MAX_TABLE_BYTES: usize = MAX_SLOTS * std::mem::size_of::<Entry>();

impl Table {
    /// A table of about `entries` slots (a power of two, 1024 to 2^21,
    /// that is at most [`MAX_TABLE_BYTES`]).
    pub fn new(entries: usize) -> Table {
        let size = entries.clamp(1 << 10, MAX_SLOTS).next_power_of_two();
        Table {
            slots: vec![EMPTY; size],
            mask: size - 1,
        }
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        self.slots
            .get(key as usize & self.mask)
            .copied()
            .filter(|e| e.key == key && key != 0)
    }

    pub fn store(&mut self, key: u64, depth: u32, score: i32, bound: Bound, best: Option<Move>) {
        let mv = best.map_or(u16::MAX, |m| {
            (m.from.index() as u16) << 8 | m.to.index() as u16
        });
        if let Some(slot) = self.slots.get_mut(key as usize & self.mask) {
            *slot = Entry {
                key,
                score,
                mv,
                depth: depth.min(255) as u8,
                bound,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_are_16_bytes_and_round_trip() {
        assert_eq!(std::mem::size_of::<Entry>(), 16);
        assert_eq!(MAX_TABLE_BYTES, 32 << 20);
        let mut table = Table::new(0);
        assert!(table.probe(42).is_none());
        table.store(42, 3, -7, Bound::Lower, None);
        let e = table.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.best()),
            (3, -7, Bound::Lower, None)
        );
        assert!(table.probe(42 + 1024).is_none());
    }
}
