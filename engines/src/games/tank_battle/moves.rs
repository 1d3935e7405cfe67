//! Moves and their notation: `j4-j5` (quiet) and `d10xd4` (capture).

use std::fmt;
use std::str::FromStr;

use super::parse_error::{Fault, Notation, ParseError};
use super::piece::Role;
use super::square::Square;

/// A legal move in a given position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub from: Square,
    pub to: Square,
    /// The kind of enemy tank removed, for a capture.
    pub capture: Option<Role>,
}

impl Move {
    pub const fn is_capture(&self) -> bool {
        self.capture.is_some()
    }

    /// Canonical notation written into `buf` (at most 7 bytes), without
    /// the formatting machinery: each square's name copied as three bytes
    /// at once, the separator written over the byte after `from`'s name.
    pub fn notation<'a>(&self, buf: &'a mut [u8; 7]) -> &'a str {
        let (from, from_len) = self.from.name_bytes();
        let (to, to_len) = self.to.name_bytes();
        let sep = if self.is_capture() { b'x' } else { b'-' };
        // `from_len` is 2 or 3, so `to` fits at `from_len + 1`.
        let ([a, b, c], [d, e, f]) = (from, to);
        *buf = [a, b, c, 0, 0, 0, 0];
        let after_from = buf.get_mut(from_len..from_len + 4);
        if let Some(Ok(slots)) = after_from.map(<&mut [u8; 4]>::try_from) {
            *slots = [sep, d, e, f];
        }
        let len = from_len + 1 + to_len;
        std::str::from_utf8(buf.get(..len).unwrap_or_default()).unwrap_or_default()
    }

    /// Canonical notation as an owned text (what `to_string` gives,
    /// without the formatting machinery: an answer names moves often).
    pub fn to_notation(&self) -> String {
        self.notation(&mut [0; 7]).to_owned()
    }
}

/// Canonical notation: `from-to` or `fromxto`.
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.notation(&mut [0; 7]))
    }
}

/// A move in JSON: its canonical notation (`"j4-j5"`, `"d10xd4"`),
/// written from a buffer on the stack, nothing allocated (a `legal-moves`
/// answer writes dozens).
impl serde::Serialize for Move {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.notation(&mut [0; 7]))
    }
}

/// A move as a request writes it: two squares, with `-`, `x` or nothing
/// between them, in either case. Whether it is legal, and whether it
/// captures, depends on the position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MoveText {
    pub from: Square,
    pub to: Square,
}

impl FromStr for MoveText {
    type Err = ParseError;

    fn from_str(text: &str) -> Result<MoveText, ParseError> {
        let trimmed = text.trim_matches(|c: char| c.is_ascii_whitespace());
        let bytes = trimmed.as_bytes();
        let parsed = Square::parse_prefix(bytes).and_then(|(from, used)| {
            let rest = bytes.get(used..)?;
            let rest = match rest.first() {
                Some(b'-' | b'x' | b'X') => rest.get(1..)?,
                _ => rest,
            };
            match Square::parse_prefix(rest) {
                Some((to, len)) if len == rest.len() => Some(MoveText { from, to }),
                _ => None,
            }
        });
        parsed.ok_or_else(|| {
            ParseError::new(
                Notation::Move,
                Fault::Move {
                    found: text.to_owned(),
                },
            )
        })
    }
}

impl From<Move> for MoveText {
    fn from(mv: Move) -> MoveText {
        MoveText {
            from: mv.from,
            to: mv.to,
        }
    }
}

impl fmt::Display for MoveText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.from, self.to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Result<String, ParseError> {
        s.parse::<MoveText>()
            .map(|m| format!("{}-{}", m.from, m.to))
    }

    #[test]
    fn accepts_every_separator_and_case() {
        for s in ["j4-f8", "j4xf8", "j4f8", "J4-F8", "J4XF8", " j4-f8 "] {
            assert_eq!(text(s).as_deref(), Ok("j4-f8"), "{s}");
        }
        assert_eq!(text("a10a11").as_deref(), Ok("a10-a11"));
        assert_eq!(text("k11xa1").as_deref(), Ok("k11-a1"));
    }

    #[test]
    fn rejects_malformed_moves() {
        for s in [
            "", "j4", "j4-", "-j4", "j4--f8", "j4-f8x", "j4 f8", "l4-f8", "j0-f8", "j4-f12",
            "j4_f8", "j4-f8-g9", "ü",
        ] {
            let err = s.parse::<MoveText>().unwrap_err();
            assert_eq!(err.notation, Notation::Move, "{s}");
        }
    }

    #[test]
    fn canonical_form_marks_captures() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        let quiet = Move {
            from: sq("j4"),
            to: sq("j5"),
            capture: None,
        };
        let capture = Move {
            from: sq("d10"),
            to: sq("d4"),
            capture: Some(Role::Commander),
        };
        assert_eq!(quiet.to_string(), "j4-j5");
        assert_eq!(capture.to_string(), "d10xd4");
        let far = Move {
            from: sq("a11"),
            to: sq("k11"),
            capture: Some(Role::Tank),
        };
        for mv in [quiet, capture, far] {
            assert_eq!(mv.to_notation(), mv.to_string());
        }
        assert_eq!(far.to_notation(), "a11xk11");
    }

    #[test]
    fn notation_is_the_squares_names_around_the_separator() {
        for from in Square::all() {
            for to in Square::all() {
                for (capture, sep) in [(None, '-'), (Some(Role::Tank), 'x')] {
                    let mv = Move { from, to, capture };
                    let expected = format!("{}{sep}{}", from.name(), to.name());
                    assert_eq!(mv.notation(&mut [0xff; 7]), expected);
                }
            }
        }
    }

    #[test]
    fn serializes_as_its_canonical_notation() {
        let sq = |s: &str| s.parse::<Square>().unwrap();
        for (capture, json) in [(None, r#""a11-k11""#), (Some(Role::Tank), r#""a11xk11""#)] {
            let mv = Move {
                from: sq("a11"),
                to: sq("k11"),
                capture,
            };
            assert_eq!(serde_json::to_string(&mv).unwrap(), json);
        }
    }
}
