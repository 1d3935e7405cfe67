//! TBN, the position notation: `<placement> <side> <ply>`.
//!
//! The placement lists ranks 11 down to 1 separated by `/`; within a rank,
//! files a..k: `T`/`C` White's tank/commander, `t`/`c` Black's, a number
//! 1..11 for that many empty squares. Each rank covers exactly 11 squares.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::error::{Notation, ParseError};
use super::piece::{Piece, Role};
use super::position::{Position, Setup};
use super::side::Side;
use super::square::{Square, SIZE};

/// TBN of the standard initial position.
pub const INITIAL_TBN: &str = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0";

fn bad(message: impl Into<String>) -> ParseError {
    ParseError::new(Notation::Position, message)
}

impl FromStr for Setup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Setup, ParseError> {
        let mut fields = text.split_ascii_whitespace();
        let (Some(placement), Some(side), Some(ply), None) =
            (fields.next(), fields.next(), fields.next(), fields.next())
        else {
            return Err(bad(
                "a position is `<placement> <side> <ply>`, e.g. `11/11/11/11/11/11/11/11/11/11/10C w 0`",
            ));
        };
        let mut setup = Setup {
            tanks: [Bitboard::EMPTY; 2],
            commanders: [Bitboard::EMPTY; 2],
            turn: match side {
                "w" => Side::White,
                "b" => Side::Black,
                _ => {
                    return Err(bad(format!(
                        "side to move must be `w` or `b`, not `{side}`"
                    )))
                }
            },
            ply: parse_ply(ply)?,
        };
        let ranks = placement.split('/').count();
        if ranks != SIZE as usize {
            return Err(bad(format!(
                "the placement has {ranks} ranks separated by `/`, expected 11"
            )));
        }
        for (row, text) in placement.split('/').enumerate() {
            let rank = SIZE - 1 - row as u8;
            parse_rank(text, rank, &mut setup)?;
        }
        Ok(setup)
    }
}

fn parse_ply(text: &str) -> Result<u64, ParseError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(format!(
            "the ply must be a non-negative integer, not `{text}`"
        )));
    }
    text.parse()
        .map_err(|_| bad(format!("the ply `{text}` is too large")))
}

fn parse_rank(text: &str, rank: u8, setup: &mut Setup) -> Result<(), ParseError> {
    let rank_name = rank + 1;
    let mut file: u32 = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((start, c)) = chars.next() {
        if c.is_ascii_digit() {
            let mut end = start + 1;
            while let Some((i, _)) = chars.next_if(|(_, d)| d.is_ascii_digit()) {
                end = i + 1;
            }
            let digits = text.get(start..end).unwrap_or_default();
            let run = match digits.parse::<u32>() {
                Ok(n) if (1..=SIZE as u32).contains(&n) && !digits.starts_with('0') => n,
                _ => {
                    return Err(bad(format!(
                        "rank {rank_name}: `{digits}` is not a number of empty squares (1..11)"
                    )))
                }
            };
            file += run;
        } else {
            let piece = Piece::from_char(c).ok_or_else(|| {
                bad(format!(
                    "rank {rank_name}: unexpected character {c:?}; use T C t c and 1..11"
                ))
            })?;
            if let Some(sq) = Square::from_coords(file as u8, rank).filter(|_| file < 11) {
                setup.tanks[piece.side.index()].insert(sq);
                if piece.role == Role::Commander {
                    setup.commanders[piece.side.index()].insert(sq);
                }
            }
            file += 1;
        }
        if file > SIZE as u32 {
            break;
        }
    }
    if file != SIZE as u32 {
        return Err(bad(format!(
            "rank {rank_name} covers {file} squares, expected 11"
        )));
    }
    Ok(())
}

/// Writes canonical TBN (runs of empty squares merged).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The placement is built on the stack and written at once: TBN is
        // written for every `apply` answer and AI cache key.
        let mut placement = [0u8; PLACEMENT_MAX];
        let mut len = 0;
        let mut push = |text: &[u8]| {
            if let Some(room) = placement.get_mut(len..len + text.len()) {
                room.copy_from_slice(text);
                len += text.len();
            }
        };
        for rank in (0..SIZE).rev() {
            let mut empty = 0;
            for file in 0..SIZE {
                match Square::from_coords(file, rank).and_then(|sq| self.piece_at(sq)) {
                    Some(piece) => {
                        push(empty_run(empty));
                        empty = 0;
                        push(&[piece.char() as u8]);
                    }
                    None => empty += 1,
                }
            }
            push(empty_run(empty));
            if rank > 0 {
                push(b"/");
            }
        }
        let placement = placement.get(..len).unwrap_or_default();
        // Only ASCII was pushed.
        f.write_str(std::str::from_utf8(placement).map_err(|_| fmt::Error)?)?;
        write!(f, " {} {}", self.turn.letter(), self.ply)
    }
}

/// The longest placement: a piece on every square, and the slashes.
const PLACEMENT_MAX: usize = (SIZE as usize + 1) * SIZE as usize;

/// A run of `n` empty squares as TBN writes it (nothing for none).
fn empty_run(n: usize) -> &'static [u8] {
    const RUNS: [&str; 12] = ["", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11"];
    RUNS.get(n).copied().unwrap_or_default().as_bytes()
}

/// Writes canonical TBN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Layout;
    use super::*;

    #[test]
    fn initial_position_matches_the_standard_layout() {
        let layout = Layout::STANDARD;
        assert_eq!(Position::initial(&layout).to_string(), INITIAL_TBN);
        let parsed: Setup = INITIAL_TBN.parse().unwrap();
        assert_eq!(parsed, Setup::initial(&layout));
    }

    #[test]
    fn writes_canonical_form() {
        let setup: Setup = "c10/11/11/11/11/11/11/11/11/11/10C b 17".parse().unwrap();
        assert_eq!(setup.to_string(), "c10/11/11/11/11/11/11/11/11/11/10C b 17");
        let spaced: Setup = "  c10/11/11/11/11/11/11/11/11/11/10C   b 17 "
            .parse()
            .unwrap();
        assert_eq!(spaced, setup);
    }

    #[test]
    fn rejects_malformed_tbn() {
        let cases = [
            ("", "<placement> <side> <ply>"),
            (
                "11/11/11/11/11/11/11/11/11/11/11 w",
                "<placement> <side> <ply>",
            ),
            (
                "11/11/11/11/11/11/11/11/11/11/11 w 0 x",
                "<placement> <side> <ply>",
            ),
            ("11/11/11/11/11/11/11/11/11/11/11 x 0", "`w` or `b`"),
            ("11/11/11/11/11/11/11/11/11/11/11 w -1", "non-negative"),
            ("11/11/11/11/11/11/11/11/11/11/11 w +1", "non-negative"),
            (
                "11/11/11/11/11/11/11/11/11/11/11 w 99999999999999999999999",
                "too large",
            ),
            ("11/11/11/11/11/11/11/11/11/11 w 0", "10 ranks"),
            ("11/11/11/11/11/11/11/11/11/11/10 w 0", "rank 1 covers 10"),
            ("11/11/11/11/11/11/11/11/11/11/12 w 0", "`12`"),
            ("11/11/11/11/11/11/11/11/11/11/0 w 0", "`0`"),
            ("11/11/11/11/11/11/11/11/11/11/011 w 0", "`011`"),
            (
                "11/11/11/11/11/11/11/11/11/11/TTTTTTTTTTTT w 0",
                "covers 12",
            ),
            ("11/11/11/11/11/11/11/11/11/11/10x w 0", "'x'"),
            ("11/11/11/11/11/11/11/11/11/11/10é w 0", "'é'"),
            ("11/11/11/11/11/11/11/11/11/11/5T5T w 0", "covers 12"),
        ];
        for (text, expected) in cases {
            let err = text.parse::<Setup>().unwrap_err();
            assert_eq!(err.notation, Notation::Position);
            assert!(err.message.contains(expected), "{text:?}: {err}");
        }
    }
}
