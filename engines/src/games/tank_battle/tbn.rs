//! TBN, the position notation: `<placement> <side> <ply>`.
//!
//! The placement lists ranks 11 down to 1 separated by `/`; within a rank,
//! files a..k: `T`/`C` White's tank/commander, `t`/`c` Black's, a number
//! 1..11 for that many empty squares. Each rank covers exactly 11 squares.

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::parse_error::{Fault, Notation, ParseError};
use super::piece::{Piece, Role};
use super::position::{Position, Setup};
use super::side::Side;
use super::square::{Square, SIZE};

/// TBN of the standard initial position.
pub const INITIAL_TBN: &str = "ctttt6/tttt7/ttt8/tt9/11/11/11/9TT/8TTT/7TTTT/6TTTTC w 0";

/// TBN of the final position of the rules' scoring example: Black's
/// commander on White's commander start and two black tanks in White's
/// base (7); White's commander in Black's base but not on its start, and
/// two white tanks on the field (4). Every black tank is in White's base:
/// the game is over. (A fixture of the tests, here and over HTTP.)
pub const SCORING_EXAMPLE_TBN: &str = "1C9/11/11/11/11/11/T10/1T9/11/9t1/9tc b 57";

fn bad(fault: Fault) -> ParseError {
    ParseError::new(Notation::Position, fault)
}

impl FromStr for Setup {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<Setup, ParseError> {
        // A position is read for nearly every request: the canonical
        // spelling in one pass over its bytes, anything else (other
        // spacing, or an error to explain) by the careful reader.
        match parse_canonical(text.as_bytes()) {
            Some(setup) => Ok(setup),
            None => parse_carefully(text),
        }
    }
}

/// What a byte of a placement is: a digit (its value), a piece
/// ([`PIECE`] + its kind: `T`, `C`, `t`, `c`), `/`, or anything else.
static CLASS: [u8; 256] = {
    let mut class = [OTHER; 256];
    let mut digit = 0;
    while digit < 10 {
        class[b'0' as usize + digit] = digit as u8;
        digit += 1;
    }
    class[b'T' as usize] = PIECE;
    class[b'C' as usize] = PIECE + 1;
    class[b't' as usize] = PIECE + 2;
    class[b'c' as usize] = PIECE + 3;
    class[b'/' as usize] = SLASH;
    class
};
const PIECE: u8 = 16;
const SLASH: u8 = 32;
const OTHER: u8 = 255;

/// TBN with single spaces between its fields, in one pass; `None` for
/// anything else, valid or not.
fn parse_canonical(text: &[u8]) -> Option<Setup> {
    let last_space = text.iter().rposition(|&b| b == b' ')?;
    let (head, ply) = (text.get(..last_space)?, text.get(last_space + 1..)?);
    let (placement, turn) = match head {
        [placement @ .., b' ', b'w'] => (placement, Side::White),
        [placement @ .., b' ', b'b'] => (placement, Side::Black),
        _ => return None,
    };
    if ply.is_empty() {
        return None;
    }
    let ply = ply.iter().try_fold(0u64, |n, &b| {
        let digit = b.wrapping_sub(b'0');
        (digit < 10).then_some(())?;
        n.checked_mul(10)?.checked_add(u64::from(digit))
    })?;
    // Each kind's squares (`T`, `C`, `t`, `c`), a rank at a time: the
    // rank being read in `row` (a bit a file), the ones above it in
    // `board` (each rank pushed up by the next, so that rank 11 ends on
    // top).
    let size = u32::from(SIZE);
    let mut row = [0u16; 4];
    let mut board = [0u128; 4];
    let (mut ranks, mut file) = (1, 0u32);
    // The number being read: 0 for none, 1 after a leading `1` (which
    // may become 10 or 11), 2 after any other.
    let mut number = 0;
    for &b in placement {
        let class = CLASS[usize::from(b)];
        if class < 10 {
            match number {
                0 if class > 0 => {
                    file += u32::from(class);
                    number = if class == 1 { 1 } else { 2 };
                }
                1 if class <= 1 => {
                    file += 9 + u32::from(class);
                    number = 2;
                }
                _ => return None,
            }
        } else if class < SLASH {
            if file >= size {
                return None;
            }
            row[usize::from(class & 3)] |= 1 << file;
            file += 1;
            number = 0;
        } else if class == SLASH && file == size && ranks < SIZE {
            for (board, row) in board.iter_mut().zip(&mut row) {
                *board = *board << SIZE | u128::from(std::mem::take(row));
            }
            ranks += 1;
            file = 0;
            number = 0;
        } else {
            return None;
        }
    }
    if file != size || ranks != SIZE {
        return None;
    }
    // The last rank has no `/` after it.
    let with_last = |board: u128, row: u16| Bitboard(board << SIZE | u128::from(row));
    let [white_tanks, white_commanders, black_tanks, black_commanders] = board;
    let [last_white_tanks, last_white_commanders, last_black_tanks, last_black_commanders] = row;
    let white_tanks = with_last(white_tanks, last_white_tanks);
    let white_commanders = with_last(white_commanders, last_white_commanders);
    let black_tanks = with_last(black_tanks, last_black_tanks);
    let black_commanders = with_last(black_commanders, last_black_commanders);
    Some(Setup {
        tanks: [
            white_tanks | white_commanders,
            black_tanks | black_commanders,
        ],
        commanders: [white_commanders, black_commanders],
        turn,
        ply,
    })
}

/// Reads any TBN, or says exactly what is wrong with it.
fn parse_carefully(text: &str) -> Result<Setup, ParseError> {
    let mut fields = text.split_ascii_whitespace();
    let (Some(placement), Some(side), Some(ply), None) =
        (fields.next(), fields.next(), fields.next(), fields.next())
    else {
        return Err(bad(Fault::Fields));
    };
    let mut setup = Setup {
        tanks: [Bitboard::EMPTY; 2],
        commanders: [Bitboard::EMPTY; 2],
        turn: match side {
            "w" => Side::White,
            "b" => Side::Black,
            _ => {
                return Err(bad(Fault::Side {
                    found: side.to_owned(),
                }))
            }
        },
        ply: parse_ply(ply)?,
    };
    let ranks = placement.split('/').count();
    if ranks != SIZE as usize {
        return Err(bad(Fault::Ranks { found: ranks }));
    }
    for (row, text) in placement.split('/').enumerate() {
        let rank = SIZE - 1 - row as u8;
        parse_rank(text, rank, &mut setup)?;
    }
    Ok(setup)
}

fn parse_ply(text: &str) -> Result<u64, ParseError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad(Fault::Ply {
            found: text.to_owned(),
        }));
    }
    text.parse().map_err(|_| {
        bad(Fault::PlyTooLarge {
            found: text.to_owned(),
        })
    })
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
                    return Err(bad(Fault::EmptyRun {
                        rank: rank_name,
                        found: digits.to_owned(),
                    }))
                }
            };
            file += run;
        } else {
            let piece = Piece::from_char(c).ok_or_else(|| {
                bad(Fault::PieceCharacter {
                    rank: rank_name,
                    found: c,
                })
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
        return Err(bad(Fault::RankWidth {
            rank: rank_name,
            covers: file,
        }));
    }
    Ok(())
}

/// Writes canonical TBN (runs of empty squares merged).
impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tbn().as_str())
    }
}

impl Setup {
    /// Canonical TBN, built on the stack a rank at a time from its
    /// occupied squares: TBN is written for every `apply` answer, replay
    /// position and AI cache key.
    fn tbn(&self) -> Written {
        let mut out = Written {
            text: [0; TBN_MAX],
            len: 0,
        };
        let size = u32::from(SIZE);
        for rank in (0..size).rev() {
            let row = |set: Bitboard| (set.0 >> (rank * size)) as u16 & 0x7ff;
            let [white, black] = self.tanks.map(row);
            let [white_commanders, black_commanders] = self.commanders.map(row);
            let mut occupied = white | black;
            let mut file = 0;
            while occupied != 0 {
                let at = occupied.trailing_zeros();
                let bit = 1 << at;
                out.empty(at - file);
                out.put(
                    match (
                        white & bit != 0,
                        (white_commanders | black_commanders) & bit != 0,
                    ) {
                        (true, true) => b'C',
                        (true, false) => b'T',
                        (false, true) => b'c',
                        (false, false) => b't',
                    },
                );
                file = at + 1;
                occupied &= occupied - 1;
            }
            out.empty(size - file);
            if rank > 0 {
                out.put(b'/');
            }
        }
        out.put(b' ');
        out.put(if self.turn == Side::White { b'w' } else { b'b' });
        out.put(b' ');
        let mut digits = [0u8; 20];
        let mut start = digits.len();
        let mut ply = self.ply;
        loop {
            start -= 1;
            if let Some(digit) = digits.get_mut(start) {
                *digit = b'0' + (ply % 10) as u8;
            }
            ply /= 10;
            if ply == 0 || start == 0 {
                break;
            }
        }
        for &digit in digits.get(start..).unwrap_or_default() {
            out.put(digit);
        }
        out
    }
}

/// The longest TBN: a piece on every square, the slashes, the side and
/// the largest ply.
const TBN_MAX: usize = (SIZE as usize + 1) * SIZE as usize + 3 + 20;

/// TBN being written, a byte at a time.
struct Written {
    text: [u8; TBN_MAX],
    len: usize,
}

impl Written {
    fn put(&mut self, byte: u8) {
        if let Some(slot) = self.text.get_mut(self.len) {
            *slot = byte;
            self.len += 1;
        }
    }

    /// The text written (only ASCII is ever put).
    fn as_str(&self) -> &str {
        std::str::from_utf8(self.text.get(..self.len).unwrap_or_default()).unwrap_or_default()
    }

    /// A run of `n` empty squares (nothing for none).
    fn empty(&mut self, n: u32) {
        match n {
            0 => {}
            1..=9 => self.put(b'0' + n as u8),
            _ => {
                self.put(b'1');
                self.put(b'0' + (n - 10) as u8);
            }
        }
    }
}

/// Writes canonical TBN.
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.to_setup(), f)
    }
}

/// A position in JSON: its canonical TBN, written from a buffer on the
/// stack, nothing allocated.
impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.to_setup().tbn().as_str())
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
    fn a_position_serializes_as_its_tbn() {
        let layout = Layout::STANDARD;
        let mut position = Position::initial(&layout);
        for ply in 0..40 {
            assert_eq!(
                serde_json::to_value(position).unwrap(),
                serde_json::Value::String(position.to_string()),
                "ply {ply}"
            );
            let moves = position.legal_moves_file_major(&layout);
            match moves.get(ply * 7 % moves.len().max(1)) {
                Some(mv) => position.play_unchecked(*mv),
                None => break,
            }
        }
    }

    /// Text near TBN: pieces of it in any order, canonical positions with
    /// one byte changed, and placements with numbers of any size.
    fn near_tbn() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let pieces = prop::sample::select(vec![
            "11",
            "10",
            "9",
            "1",
            "2",
            "0",
            "01",
            "110",
            "/",
            " ",
            "  ",
            "w",
            "b",
            "T",
            "C",
            "t",
            "c",
            "x",
            "é",
            "\t",
            "007",
            "99999999999999999999",
        ]);
        let setups = (
            any::<u128>(),
            any::<u128>(),
            any::<u128>(),
            any::<bool>(),
            any::<u64>(),
        )
            .prop_map(|(a, b, c, white, ply)| {
                let board = (1u128 << 121) - 1;
                let (white_tanks, black_tanks) = (a & board, b & !a & board);
                Setup {
                    tanks: [Bitboard(white_tanks), Bitboard(black_tanks)],
                    commanders: [
                        Bitboard(white_tanks & c),
                        Bitboard(black_tanks & c.rotate_left(7)),
                    ],
                    turn: if white { Side::White } else { Side::Black },
                    ply,
                }
                .to_string()
            });
        prop_oneof![
            prop::collection::vec(pieces, 0..40).prop_map(|p| p.concat()),
            setups.clone(),
            (setups, any::<prop::sample::Index>(), any::<u8>()).prop_map(|(text, i, b)| {
                let mut bytes = text.into_bytes();
                let at = i.index(bytes.len());
                bytes[at] = b;
                String::from_utf8_lossy(&bytes).into_owned()
            }),
        ]
    }

    /// TBN as the rules describe it, square by square.
    fn tbn_square_by_square(setup: &Setup) -> String {
        let mut ranks = Vec::new();
        for rank in (0..SIZE).rev() {
            let (mut text, mut empty) = (String::new(), 0);
            for file in 0..SIZE {
                match Square::from_coords(file, rank).and_then(|sq| setup.piece_at(sq)) {
                    Some(piece) => {
                        if empty > 0 {
                            text += &empty.to_string();
                        }
                        empty = 0;
                        text.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                text += &empty.to_string();
            }
            ranks.push(text);
        }
        format!("{} {} {}", ranks.join("/"), setup.turn.letter(), setup.ply)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2048))]

        /// TBN is written as the rules describe it, and read back.
        #[test]
        fn tbn_is_written_square_by_square(text in near_tbn()) {
            if let Ok(setup) = parse_carefully(&text) {
                let written = setup.to_string();
                proptest::prop_assert_eq!(&written, &tbn_square_by_square(&setup));
                proptest::prop_assert_eq!(written.parse::<Setup>(), Ok(setup));
            }
        }

        /// The one-pass reader takes exactly the canonically spaced texts
        /// the careful reader takes, and reads them alike.
        #[test]
        fn the_one_pass_reader_agrees_with_the_careful_one(text in near_tbn()) {
            let careful = parse_carefully(&text);
            let canonically_spaced = text.split(' ').count() == 3
                && text.split(' ').all(|field| !field.is_empty())
                && !text.bytes().any(|b| b.is_ascii_whitespace() && b != b' ');
            match parse_canonical(text.as_bytes()) {
                Some(setup) => proptest::prop_assert_eq!(Ok(setup), careful),
                None => proptest::prop_assert!(
                    careful.is_err() || !canonically_spaced,
                    "{:?} read only by the careful reader",
                    text
                ),
            }
        }
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
            assert!(err.to_string().contains(expected), "{text:?}: {err}");
        }
    }
}
