//! Where a request's head and a chunked body end, found in the bytes as
//! they arrive, the way actix-http's parser finds them: the connection's
//! accounting ([`super::connection`]) counts a head's bytes from its first
//! to its last, and knows a body's last byte, without parsing a request
//! itself (the requests are actix's to parse; these only find ends).

/// The end of a request head: the empty line after its header fields
/// (lines end in CRLF or a bare LF, as httparse reads them), after any
/// empty lines before the request line (which httparse skips).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HeadEnd {
    state: HeadState,
    /// Whether the request line has ended (its LF was read).
    past_request_line: bool,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum HeadState {
    /// Before the request line: empty lines are skipped.
    #[default]
    Leading,
    /// A CR before the request line.
    LeadingCr,
    /// Within a line.
    Line,
    /// Just after a line's LF.
    AfterLf,
    /// A CR just after a line's LF.
    AfterLfCr,
}

impl HeadEnd {
    /// Whether the head's request line has ended in what was read (a head
    /// over the cap within its request line is a URI too long).
    pub fn past_request_line(&self) -> bool {
        self.past_request_line
    }

    /// Reads `bytes`, the head's next ones: the count of them up to and
    /// including the head's last byte, when the head ends within them.
    pub fn feed(&mut self, bytes: &[u8]) -> Option<usize> {
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            at += 1;
            self.state = match (self.state, byte) {
                (HeadState::Leading, b'\n') => HeadState::Leading,
                (HeadState::Leading, b'\r') => HeadState::LeadingCr,
                (HeadState::LeadingCr, b'\n') => HeadState::Leading,
                (HeadState::AfterLf, b'\n') | (HeadState::AfterLfCr, b'\n') => {
                    self.state = HeadState::Leading;
                    return Some(at);
                }
                (HeadState::AfterLf, b'\r') => HeadState::AfterLfCr,
                (_, b'\n') => {
                    self.past_request_line = true;
                    HeadState::AfterLf
                }
                _ => {
                    // The rest of the line at once.
                    match bytes.get(at..).and_then(|rest| memchr::memchr(b'\n', rest)) {
                        Some(lf) => {
                            at += lf + 1;
                            self.past_request_line = true;
                            HeadState::AfterLf
                        }
                        None => {
                            self.state = HeadState::Line;
                            return None;
                        }
                    }
                }
            };
        }
        None
    }
}

/// The end of a chunked body (RFC 9112 §7.1), as actix-http's decoder
/// reads one: chunk sizes in hex, then optional spaces or tabs, optional
/// extensions up to the line's CR, each chunk's data and CRLF, the last
/// chunk (size 0), trailer lines, and the final CRLF. Counts the data and
/// the framing bytes apart, so that both can be bounded.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkedEnd {
    state: ChunkState,
    /// The current chunk's size, or what is left of its data.
    size: u64,
    /// Data bytes so far.
    pub data: u64,
    /// Framing bytes so far (sizes, extensions, line ends, trailers).
    pub framing: u64,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum ChunkState {
    #[default]
    SizeFirst,
    SizeRest,
    SizeLws,
    Extension,
    SizeLf,
    Data,
    DataCr,
    DataLf,
    Trailer,
    TrailerLf,
    EndCr,
    EndLf,
    End,
    /// Not a chunked body actix reads (it answers 400).
    Invalid,
}

/// What a chunked body's next bytes came to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chunked {
    /// It goes on past them.
    More,
    /// It ends with the first `n` of them.
    End(usize),
    /// It is not a chunked body.
    Invalid,
}

impl ChunkedEnd {
    /// What reading bytes that are not a chunked body comes to (a body
    /// that does not begin with a chunk size's hex digit).
    pub fn invalid() -> ChunkedEnd {
        ChunkedEnd {
            state: ChunkState::Invalid,
            ..ChunkedEnd::default()
        }
    }

    /// Whether the body has ended.
    pub fn ended(&self) -> bool {
        self.state == ChunkState::End
    }

    /// What the bytes read so far came to.
    pub fn outcome(&self) -> Chunked {
        match self.state {
            ChunkState::End => Chunked::End(0),
            ChunkState::Invalid => Chunked::Invalid,
            _ => Chunked::More,
        }
    }

    /// The most bytes that may be read next without reading past the
    /// body's end by more than `slack`: the current chunk's data and its
    /// CRLF, else `slack` (a size line, a trailer).
    pub fn room(&self, slack: u64) -> u64 {
        match self.state {
            ChunkState::Data => self.size.saturating_add(2).max(slack),
            ChunkState::End | ChunkState::Invalid => 0,
            _ => slack,
        }
    }

    /// Reads `bytes`, the body's next ones.
    pub fn feed(&mut self, bytes: &[u8]) -> Chunked {
        let mut at = 0usize;
        loop {
            match self.state {
                ChunkState::End => return Chunked::End(at),
                ChunkState::Invalid => return Chunked::Invalid,
                ChunkState::Data => {
                    let left = bytes.len().saturating_sub(at) as u64;
                    if left == 0 {
                        return Chunked::More;
                    }
                    let take = left.min(self.size);
                    // `take` is at most what is left of `bytes`.
                    at += take as usize;
                    self.size -= take;
                    self.data = self.data.saturating_add(take);
                    if self.size == 0 {
                        self.state = ChunkState::DataCr;
                    }
                    continue;
                }
                _ => {}
            }
            let Some(&byte) = bytes.get(at) else {
                return Chunked::More;
            };
            at += 1;
            self.framing = self.framing.saturating_add(1);
            self.state = self.next(byte);
        }
    }

    /// The state after one framing `byte` (actix-http's `ChunkedState`).
    fn next(&mut self, byte: u8) -> ChunkState {
        let hex = |b: u8| match b {
            b'0'..=b'9' => Some(b - b'0'),
            b'a'..=b'f' => Some(b + 10 - b'a'),
            b'A'..=b'F' => Some(b + 10 - b'A'),
            _ => None,
        };
        match (self.state, byte) {
            (ChunkState::SizeFirst, b) => match hex(b) {
                Some(digit) => {
                    self.size = u64::from(digit);
                    ChunkState::SizeRest
                }
                None => ChunkState::Invalid,
            },
            (ChunkState::SizeRest, b'\t' | b' ') => ChunkState::SizeLws,
            (ChunkState::SizeRest, b';') => ChunkState::Extension,
            (ChunkState::SizeRest, b'\r') => ChunkState::SizeLf,
            (ChunkState::SizeRest, b) => match (hex(b), self.size.checked_mul(16)) {
                (Some(digit), Some(size)) => {
                    self.size = size + u64::from(digit);
                    ChunkState::SizeRest
                }
                _ => ChunkState::Invalid,
            },
            (ChunkState::SizeLws, b'\t' | b' ') => ChunkState::SizeLws,
            (ChunkState::SizeLws, b';') => ChunkState::Extension,
            (ChunkState::SizeLws, b'\r') => ChunkState::SizeLf,
            (ChunkState::SizeLws, _) => ChunkState::Invalid,
            (ChunkState::Extension, b'\r') => ChunkState::SizeLf,
            (ChunkState::Extension, 0x00..=0x08 | 0x0a..=0x1f | 0x7f) => ChunkState::Invalid,
            (ChunkState::Extension, _) => ChunkState::Extension,
            (ChunkState::SizeLf, b'\n') if self.size > 0 => ChunkState::Data,
            (ChunkState::SizeLf, b'\n') => ChunkState::EndCr,
            (ChunkState::SizeLf, _) => ChunkState::Invalid,
            (ChunkState::DataCr, b'\r') => ChunkState::DataLf,
            (ChunkState::DataCr, _) => ChunkState::Invalid,
            (ChunkState::DataLf, b'\n') => ChunkState::SizeFirst,
            (ChunkState::DataLf, _) => ChunkState::Invalid,
            (ChunkState::Trailer, b'\r') => ChunkState::TrailerLf,
            (ChunkState::Trailer, _) => ChunkState::Trailer,
            (ChunkState::TrailerLf, b'\n') => ChunkState::EndCr,
            (ChunkState::TrailerLf, _) => ChunkState::Invalid,
            (ChunkState::EndCr, b'\r') => ChunkState::EndLf,
            (ChunkState::EndCr, _) => ChunkState::Trailer,
            (ChunkState::EndLf, b'\n') => ChunkState::End,
            (ChunkState::EndLf, _) => ChunkState::Invalid,
            (ChunkState::Data | ChunkState::End | ChunkState::Invalid, _) => self.state,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where the head ends when `text` comes in pieces of `step` bytes.
    fn head_end(text: &[u8], step: usize) -> Option<usize> {
        let mut end = HeadEnd::default();
        let mut at = 0;
        for piece in text.chunks(step) {
            if let Some(n) = end.feed(piece) {
                return Some(at + n);
            }
            at += piece.len();
        }
        None
    }

    /// The head's end as the rules above read it, a byte at a time: what
    /// [`HeadEnd::feed`] finds a line at a time.
    fn reference_end(text: &[u8]) -> Option<usize> {
        let mut state = HeadState::Leading;
        for (i, &byte) in text.iter().enumerate() {
            state = match (state, byte) {
                (HeadState::Leading, b'\n') | (HeadState::LeadingCr, b'\n') => HeadState::Leading,
                (HeadState::Leading, b'\r') => HeadState::LeadingCr,
                (HeadState::AfterLf, b'\n') | (HeadState::AfterLfCr, b'\n') => return Some(i + 1),
                (HeadState::AfterLf, b'\r') => HeadState::AfterLfCr,
                (_, b'\n') => HeadState::AfterLf,
                _ => HeadState::Line,
            };
        }
        None
    }

    proptest::proptest! {
        /// However the bytes arrive, the end found is the reference's,
        /// for texts of the bytes that matter (and others).
        #[test]
        fn a_head_ends_where_a_byte_by_byte_reading_ends_it(
            text in proptest::collection::vec(
                proptest::sample::select(vec![b'\r', b'\n', b'a', b' ', b':']),
                0..40,
            ),
            step in 1usize..8,
        ) {
            let expected = reference_end(&text);
            proptest::prop_assert_eq!(head_end(&text, step), expected);
            proptest::prop_assert_eq!(head_end(&text, 1000), expected);
        }
    }

    #[test]
    fn a_head_ends_at_its_empty_line_however_it_arrives() {
        let cases: &[(&[u8], Option<usize>)] = &[
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r\nBODY", Some(27)),
            (b"GET / HTTP/1.1\nHost: x\n\nBODY", Some(24)),
            (b"GET / HTTP/1.1\r\nHost: x\n\r\nBODY", Some(26)),
            (b"GET / HTTP/1.1\r\n\r\n", Some(18)),
            // Empty lines before the request line are not its end.
            (b"\r\n\r\n\nGET / HTTP/1.1\r\nHost: x\r\n\r\n", Some(32)),
            (b"GET / HTTP/1.1\r\nHost: x\r\n", None),
            (b"GET / HTTP/1.1\r\nHost: x\r\n\r", None),
            (b"GET /a\rb HTTP/1.1\r\nX: \r\r\n\r\n", Some(27)),
        ];
        for (text, end) in cases {
            for step in [1, 2, 3, 7, 1000] {
                assert_eq!(
                    head_end(text, step),
                    *end,
                    "{:?} by {step}",
                    String::from_utf8_lossy(text)
                );
            }
        }
        // Fed again after an end, it finds the next head's.
        let mut end = HeadEnd::default();
        assert_eq!(end.feed(b"GET / HTTP/1.1\r\nA: b\r\n\r\n"), Some(24));
        assert_eq!(end.feed(b"GET /x HTTP/1.1\r\n\r\n"), Some(19));
    }

    /// What a chunked body fed in pieces of `step` bytes comes to, with
    /// the offset of its end in the whole text.
    fn chunked(text: &[u8], step: usize) -> (Chunked, ChunkedEnd) {
        let mut end = ChunkedEnd::default();
        let mut at = 0;
        for piece in text.chunks(step) {
            match end.feed(piece) {
                Chunked::End(n) => return (Chunked::End(at + n), end),
                Chunked::Invalid => return (Chunked::Invalid, end),
                Chunked::More => at += piece.len(),
            }
        }
        (Chunked::More, end)
    }

    #[test]
    fn a_chunked_body_ends_where_actix_ends_it() {
        let cases: &[(&[u8], Chunked, u64)] = &[
            (b"5\r\nhello\r\n0\r\n\r\nGET", Chunked::End(15), 5),
            (
                b"5;ext=1\r\nhello\r\n6 \r\n world\r\n0\r\nX-T: 1\r\n\r\nGET",
                Chunked::End(41),
                11,
            ),
            (b"A\r\n0123456789\r\n0\r\n\r\n", Chunked::End(20), 10),
            (b"0\r\n\r\n", Chunked::End(5), 0),
            (b"5\r\nhello\r\n", Chunked::More, 5),
            (b"{\"position\"", Chunked::Invalid, 0),
            (b"5\r\nhelloXX", Chunked::Invalid, 5),
            (b"5;\x01\r\n", Chunked::Invalid, 0),
        ];
        for (text, outcome, data) in cases {
            for step in [1, 2, 5, 1000] {
                let (got, end) = chunked(text, step);
                assert_eq!(
                    got,
                    *outcome,
                    "{:?} by {step}",
                    String::from_utf8_lossy(text)
                );
                assert_eq!(
                    end.data,
                    *data,
                    "{:?} by {step}",
                    String::from_utf8_lossy(text)
                );
            }
        }
        let (_, end) = chunked(b"5\r\nhello\r\n0\r\n\r\n", 1000);
        assert_eq!(end.data + end.framing, 15);
        // A chunk's data may be read at once, not the size lines.
        let mut end = ChunkedEnd::default();
        assert_eq!(end.room(64), 64);
        assert_eq!(end.feed(b"10\r\n"), Chunked::More);
        assert_eq!(end.room(64), 64);
        assert_eq!(end.feed(b"0123"), Chunked::More);
        assert_eq!(end.room(4), 14);
    }
}
