//! A connection's account: what its client has sent, where its heads and
//! bodies end, what is in flight, and when its next head is awaited
//! ([`Account`]), under the connection's [`Bounds`]. Pure bookkeeping,
//! told by the socket's wrapper and the calls (`super`), which act on its
//! [`Verdict`].

use actix_http::RequestHead;
use actix_web::http::header;
use std::time::Duration;
use tokio::time::Instant;

use crate::api::transport::framing::{Chunked, ChunkedEnd, HeadEnd};

/// The bounds of every connection, from the flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The largest request head, bytes.
    pub max_head_bytes: usize,
    /// Time a head has to arrive whole.
    pub head_timeout: Duration,
    /// Time a write may make no progress.
    pub send_timeout: Duration,
    /// The largest request body, bytes.
    pub body_limit: usize,
}

/// What a connection's framing reads between chunks of a chunked body at
/// most, beyond the chunk it knows: the bytes a read may overshoot the
/// body's end by.
const CHUNK_SLACK: u64 = 64;

// ------------------------------------------------------------ account ---

/// How a request's body is framed, as actix-http's decoder reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Framing {
    /// No body.
    None,
    /// `Content-Length` bytes.
    Length(u64),
    /// `Transfer-Encoding: chunked`.
    Chunked,
    /// The rest of the connection (an `Upgrade: websocket` or `CONNECT`
    /// request, which this server does not upgrade).
    ToEof,
}

impl Framing {
    /// The framing of the body of a request actix-http gave a payload,
    /// decided as its decoder decides it, in as few header lookups as its
    /// refusals allow (a head with both `Content-Length` and
    /// `Transfer-Encoding`, or a `Transfer-Encoding` other than `chunked`,
    /// never reaches here): chunked before an upgrade to WebSocket before
    /// a length; a payload with none of them is a `CONNECT`'s. A request
    /// without a payload is [`Framing::None`], known without its headers.
    pub fn of(head: &RequestHead) -> Framing {
        let headers = &head.headers;
        let says = |value: &header::HeaderValue, word: &[u8]| {
            value.as_bytes().trim_ascii().eq_ignore_ascii_case(word)
        };
        let Some(length) = headers.get(header::CONTENT_LENGTH) else {
            return if headers
                .get(header::TRANSFER_ENCODING)
                .is_some_and(|v| says(v, b"chunked"))
            {
                Framing::Chunked
            } else {
                // An upgrade to WebSocket or a `CONNECT`.
                Framing::ToEof
            };
        };
        if headers
            .get_all(header::UPGRADE)
            .any(|v| says(v, b"websocket"))
        {
            return Framing::ToEof;
        }
        match decimal(length.as_bytes().trim_ascii()) {
            Some(n) if n > 0 => Framing::Length(n),
            // Actix gives a zero length no payload, but a `CONNECT` the
            // rest of the connection.
            _ => Framing::ToEof,
        }
    }
}

impl Framing {
    /// The body's length as its head declares it (`Content-Length`), when
    /// it does.
    pub fn declared_length(self) -> Option<u64> {
        match self {
            Framing::Length(n) => Some(n),
            Framing::None | Framing::Chunked | Framing::ToEof => None,
        }
    }
}

/// A `Content-Length`'s value: decimal digits only, as actix-http reads
/// it (no sign), that fit a `u64`.
fn decimal(digits: &[u8]) -> Option<u64> {
    if digits.is_empty() {
        return None;
    }
    digits.iter().try_fold(0u64, |n, &digit| {
        if !digit.is_ascii_digit() {
            return None;
        }
        n.checked_mul(10)?.checked_add(u64::from(digit - b'0'))
    })
}

/// Where the connection's reading stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    /// A head is awaited; it begins at `start`.
    Head { start: u64, end: HeadEnd },
    /// A head ended at `end` (byte offset just past it); the bytes read
    /// after it are not yet known to be its body or another request (the
    /// chunked framing reads them in case the request's body is chunked).
    /// Nothing more is read until the request is called.
    Parsed { end: u64, chunked: ChunkedEnd },
    /// The request is called; its body is read up to `end`, of `whole`
    /// (larger only when the body is over the limit: it will not be read).
    Body { end: u64, whole: u64 },
    /// The request is called; its chunked body goes on.
    Chunked { framing: ChunkedEnd },
    /// Nothing more is read; the connection closes after the answers in
    /// flight.
    Closing,
}

/// What the connection answers itself, as it closes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// 431: a head over the cap.
    HeadTooLarge,
    /// 414: a head over the cap within its request line (a target too
    /// long).
    UriTooLong,
    /// 408: a head that did not arrive in time.
    HeadTimeout,
    /// Nothing: the client's side ended, or the connection is closing
    /// after its answers.
    Close,
}

/// The accounting of one connection's bytes: what may be read next, where
/// each head and body ends, what is in flight. Pure: the stream
/// ([`super::Guarded`]) feeds it what it reads, the calls ([`super::Ledger::called`],
/// [`super::Ledger::answered`]) what is called and answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Account {
    cap: u64,
    body_limit: u64,
    /// Bytes read so far.
    read: u64,
    phase: Phase,
    /// The framing of the body of the request called last.
    framing: Framing,
    /// Requests called and not yet answered.
    in_flight: u32,
    /// Answers whose bodies are still streaming out.
    streaming: u32,
    verdict: Option<Verdict>,
    /// When the head awaited began: the connection's start for its first
    /// head, its first byte for each later one (the time before it is the
    /// keep-alive's).
    head_since: Option<Instant>,
}

impl Account {
    /// Whether what is written now can only be actix-http's own answer to
    /// a head it could not take (too many header fields, no `Host`, a
    /// malformed line): a head has been read to its end and no request was
    /// called for it, nor is one answering. (After an answer the account
    /// awaits the next head, read from nothing yet: an answer being
    /// written then is the service's.)
    pub fn answers_a_head_itself(&self) -> bool {
        self.in_flight == 0
            && self.streaming == 0
            && self.verdict.is_none()
            && matches!(self.phase, Phase::Parsed { .. })
    }

    /// Whether the chunked body being read has more framing (sizes,
    /// extensions, trailers) than the head cap allows: nothing more of it
    /// is read, and the request is answered 413.
    pub fn framing_over(&self) -> bool {
        matches!(self.phase, Phase::Chunked { framing } if framing.framing > self.cap)
    }

    /// The most framing a chunked body may have: the head cap.
    pub fn framing_cap(&self) -> u64 {
        self.cap
    }

    /// Whether a head has been read to its end and its request not yet
    /// called.
    pub fn head_parsed(&self) -> bool {
        matches!(self.phase, Phase::Parsed { .. })
    }

    /// A new connection's account: a head of at most `cap` bytes is
    /// awaited.
    pub fn new(cap: usize, body_limit: usize) -> Account {
        Account {
            cap: cap as u64,
            body_limit: body_limit as u64,
            read: 0,
            phase: Phase::Head {
                start: 0,
                end: HeadEnd::default(),
            },
            framing: Framing::None,
            in_flight: 0,
            streaming: 0,
            verdict: None,
            head_since: Some(Instant::now()),
        }
    }

    /// The framing of the body of the request called last (the request
    /// being served: actix-http serves a connection's requests one at a
    /// time).
    pub fn framing(&self) -> Framing {
        self.framing
    }

    /// Bytes read so far.
    pub fn read(&self) -> u64 {
        self.read
    }

    /// What the connection answers as it closes, once decided.
    pub fn verdict(&self) -> Option<Verdict> {
        self.verdict
    }

    /// Nothing in flight: no request called and unanswered, no answer
    /// streaming.
    pub fn idle(&self) -> bool {
        self.in_flight == 0 && self.streaming == 0
    }

    /// Whether a head is awaited (none of its request called yet).
    pub fn awaits_head(&self) -> bool {
        matches!(self.phase, Phase::Head { .. } | Phase::Parsed { .. })
    }

    /// Whether the head awaited has begun: its first byte was read.
    pub fn head_begun(&self) -> bool {
        match self.phase {
            Phase::Head { start, .. } => self.read > start,
            Phase::Parsed { .. } => true,
            _ => false,
        }
    }

    /// Whether the connection closes after what is in flight.
    pub fn closing(&self) -> bool {
        self.phase == Phase::Closing
    }

    /// How many bytes may be read now.
    pub fn room(&self) -> u64 {
        match self.phase {
            Phase::Head { start, .. } => start.saturating_add(self.cap).saturating_sub(self.read),
            Phase::Body { end, .. } => end.saturating_sub(self.read),
            Phase::Chunked { framing } => {
                if framing.data > self.body_limit || framing.framing > self.cap {
                    0
                } else {
                    framing.room(CHUNK_SLACK)
                }
            }
            Phase::Parsed { .. } | Phase::Closing => 0,
        }
    }

    /// Nothing more may be read and nothing is in flight: the connection
    /// ends. A head over the cap is answered 431.
    pub fn settle_at_limit(&mut self) -> Verdict {
        let verdict = match self.phase {
            Phase::Head { end, .. } if !end.past_request_line() => Verdict::UriTooLong,
            Phase::Head { .. } => Verdict::HeadTooLarge,
            _ => Verdict::Close,
        };
        self.verdict = Some(verdict);
        verdict
    }

    /// When the head awaited must have arrived, given `timeout`.
    pub fn head_due(&self, timeout: Duration) -> Option<Instant> {
        self.head_since
            .filter(|_| self.awaits_head())
            .map(|since| since + timeout)
    }

    /// The head awaited is late: answered 408 (when nothing is in flight).
    pub fn head_late(&mut self) -> bool {
        if self.awaits_head() && self.idle() && self.verdict.is_none() {
            self.verdict = Some(Verdict::HeadTimeout);
            return true;
        }
        false
    }

    /// The client's side ended.
    pub fn ended(&mut self) {
        self.verdict.get_or_insert(Verdict::Close);
    }

    /// Counts `bytes`, just read (at most [`Account::room`] of them).
    pub fn delivered(&mut self, bytes: &[u8]) {
        let at = self.read;
        self.read = self.read.saturating_add(bytes.len() as u64);
        if self.head_since.is_none() && self.awaits_head() && !bytes.is_empty() {
            self.head_since = Some(Instant::now());
        }
        match self.phase {
            Phase::Head { start, mut end } => match end.feed(bytes) {
                Some(n) => {
                    // What came after the head may be a chunked body
                    // (which begins with a hex digit: most bodies do not).
                    let mut chunked = ChunkedEnd::default();
                    match bytes.get(n..) {
                        Some([first, ..]) if !first.is_ascii_hexdigit() => {
                            chunked = ChunkedEnd::invalid();
                        }
                        Some(rest) if !rest.is_empty() => {
                            chunked.feed(rest);
                        }
                        _ => {}
                    }
                    self.phase = Phase::Parsed {
                        end: at + n as u64,
                        chunked,
                    };
                }
                None => self.phase = Phase::Head { start, end },
            },
            Phase::Parsed { end, mut chunked } => {
                chunked.feed(bytes);
                self.phase = Phase::Parsed { end, chunked };
            }
            Phase::Chunked { mut framing } => match framing.feed(bytes) {
                Chunked::End(n) if n == bytes.len() => {
                    let end = at + n as u64;
                    self.phase = Phase::Body { end, whole: end };
                }
                Chunked::End(_) | Chunked::Invalid => self.phase = Phase::Closing,
                Chunked::More => self.phase = Phase::Chunked { framing },
            },
            Phase::Body { .. } | Phase::Closing => {}
        }
    }

    /// A request is called: its head is parsed, its body framed as
    /// `framing`.
    pub fn called(&mut self, framing: Framing) {
        self.framing = framing;
        self.in_flight += 1;
        self.head_since = None;
        let Phase::Parsed { end, chunked } = self.phase else {
            // A request this account did not see end: one pipelined
            // behind another, or a head parsed where none was counted.
            self.phase = Phase::Closing;
            return;
        };
        self.phase = match framing {
            Framing::None if self.read == end => Phase::Body { end, whole: end },
            Framing::Length(n) => {
                let whole = end.saturating_add(n);
                if self.read > whole {
                    Phase::Closing
                } else {
                    Phase::Body {
                        end: end.saturating_add(n.min(self.body_limit)),
                        whole,
                    }
                }
            }
            Framing::Chunked => {
                let after = self.read.saturating_sub(end);
                match chunked.outcome() {
                    Chunked::End(_) if chunked.data + chunked.framing == after => Phase::Body {
                        end: self.read,
                        whole: self.read,
                    },
                    Chunked::More => Phase::Chunked { framing: chunked },
                    Chunked::End(_) | Chunked::Invalid => Phase::Closing,
                }
            }
            Framing::None | Framing::ToEof => Phase::Closing,
        };
    }

    /// A request is answered; `streams`: its answer's body streams on.
    /// Whether the answer must close the connection.
    pub fn answered(&mut self, streams: bool) -> bool {
        self.in_flight = self.in_flight.saturating_sub(1);
        if streams {
            self.streaming += 1;
        }
        self.settle();
        self.closing()
    }

    /// A streamed answer ended.
    pub fn stream_ended(&mut self) {
        self.streaming = self.streaming.saturating_sub(1);
        self.settle();
    }

    /// A request was refused before its body was read (`Expect`): the
    /// connection closes after the answer.
    pub fn refused_unread(&mut self) {
        self.phase = Phase::Closing;
    }

    /// Nothing in flight: the next head is awaited from the end of the
    /// last request, when that is known; else the connection closes.
    fn settle(&mut self) {
        if !self.idle() {
            return;
        }
        self.phase = match self.phase {
            Phase::Body { whole, .. } if self.read == whole => {
                self.head_since = None;
                Phase::Head {
                    start: whole,
                    end: HeadEnd::default(),
                }
            }
            Phase::Body { .. } | Phase::Chunked { .. } => Phase::Closing,
            phase => phase,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: usize = 100;
    const LIMIT: usize = 1_000;

    /// A `Content-Length` is read as actix-http reads it (`str::parse`
    /// after a trim, no `+`).
    #[test]
    fn a_length_is_read_as_actix_reads_it() {
        let actix = |text: &str| {
            let text = text.trim();
            (!text.starts_with('+'))
                .then(|| text.parse::<u64>().ok())
                .flatten()
        };
        for text in [
            "0",
            "7",
            " 42 ",
            "\t12",
            "007",
            "+5",
            "-1",
            "",
            " ",
            "1 2",
            "1a",
            "18446744073709551615",
            "18446744073709551616",
            "99999999999999999999",
        ] {
            assert_eq!(
                decimal(text.as_bytes().trim_ascii()),
                actix(text),
                "{text:?}"
            );
        }
    }

    /// Reads `bytes` into `account` as a reader would: at most its room
    /// at a time. The bytes read.
    fn read(account: &mut Account, bytes: &[u8]) -> usize {
        let mut at = 0;
        while at < bytes.len() {
            let room = account.room() as usize;
            if room == 0 {
                break;
            }
            let end = (at + room).min(bytes.len());
            account.delivered(&bytes[at..end]);
            at = end;
        }
        at
    }

    fn head(extra: usize) -> Vec<u8> {
        let mut head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ".to_vec();
        head.resize(head.len() + extra, b'a');
        head.extend_from_slice(b"\r\n\r\n");
        head
    }

    /// A head of exactly `len` bytes.
    fn head_of(len: usize) -> Vec<u8> {
        let bare = head(0).len();
        head(len - bare)
    }

    #[test]
    fn a_head_at_the_cap_is_read_one_byte_over_is_refused() {
        let mut account = Account::new(CAP, LIMIT);
        let at_cap = head_of(CAP);
        assert_eq!(read(&mut account, &at_cap), CAP);
        assert!(matches!(account.phase, Phase::Parsed { end: 100, .. }));
        let mut account = Account::new(CAP, LIMIT);
        let over = head_of(CAP + 1);
        assert_eq!(read(&mut account, &over), CAP);
        assert_eq!(account.room(), 0);
        assert!(account.idle());
        assert_eq!(account.settle_at_limit(), Verdict::HeadTooLarge);
    }

    #[test]
    fn each_head_of_a_kept_alive_connection_gets_the_whole_cap() {
        let mut account = Account::new(CAP, LIMIT);
        for round in 0..5 {
            let text = head_of(CAP);
            assert_eq!(read(&mut account, &text), CAP, "round {round}");
            account.called(Framing::None);
            assert_eq!(account.room(), 0, "nothing read while a request runs");
            assert!(!account.answered(false));
            assert!(account.awaits_head());
        }
        // One over, after the others: refused.
        let text = head_of(CAP + 1);
        assert_eq!(read(&mut account, &text), CAP);
        assert_eq!(account.settle_at_limit(), Verdict::HeadTooLarge);
    }

    #[test]
    fn body_bytes_are_not_head_bytes() {
        let mut account = Account::new(CAP, LIMIT);
        let mut text = head_of(60);
        // The head claims 500 bytes of body, sent with it.
        text.splice(
            text.len() - 2..text.len() - 2,
            b"Content-Length: 500\r\n".iter().copied(),
        );
        let head_len = text.len();
        text.extend(std::iter::repeat_n(b'b', 500));
        // Before the call, only the head window is read.
        let first = read(&mut account, &text);
        assert_eq!(first, CAP);
        account.called(Framing::Length(500));
        let rest = read(&mut account, &text[first..]);
        assert_eq!(first + rest, head_len + 500);
        assert_eq!(account.room(), 0, "nothing past the body while it runs");
        assert!(!account.answered(false));
        // The next head gets the whole cap again.
        assert_eq!(read(&mut account, &head_of(CAP)), CAP);
        assert!(matches!(account.phase, Phase::Parsed { .. }));
    }

    #[test]
    fn a_chunked_body_is_read_to_its_end_and_no_further() {
        let mut account = Account::new(CAP, LIMIT);
        let mut text = head_of(60);
        let head_len = text.len();
        let body = b"5\r\nhello\r\n3\r\nabc\r\n0\r\n\r\n";
        text.extend_from_slice(body);
        // The head and the first chunk come first, the rest of the body
        // after the call, the next request after the answer.
        let first = read(&mut account, &text[..head_len + 4]);
        account.called(Framing::Chunked);
        let rest = read(&mut account, &text[first..]);
        assert_eq!(first + rest, head_len + body.len());
        assert_eq!(account.room(), 0, "nothing past the last chunk");
        assert!(!account.answered(false));
        text.extend_from_slice(&head_of(CAP));
        assert_eq!(read(&mut account, &text[head_len + body.len()..]), CAP);
        // The next request sent with the body: read past its end by a few
        // bytes at most, and the connection closes after the answer.
        let mut account = Account::new(CAP, LIMIT);
        let first = read(&mut account, &text[..head_len + 4]);
        account.called(Framing::Chunked);
        let rest = read(&mut account, &text[first..]);
        let past = first + rest - (head_len + body.len());
        assert!(past as u64 <= CHUNK_SLACK, "{past}");
        assert!(account.answered(false));
        // The same body read with its head at once: answered, and the next
        // head gets the whole cap.
        let mut account = Account::new(CAP, LIMIT);
        read(&mut account, &text[..head_len + body.len()]);
        account.called(Framing::Chunked);
        assert!(!account.answered(false));
        assert_eq!(read(&mut account, &text[head_len + body.len()..]), CAP);
        // A chunked body past the body limit stops being read.
        let mut account = Account::new(CAP, 8);
        let mut text = head_of(60);
        text.extend_from_slice(b"10\r\n0123456789abcdef\r\n10\r\n0123456789abcdef\r\n");
        let first = read(&mut account, &text);
        account.called(Framing::Chunked);
        let rest = read(&mut account, &text[first..]);
        assert!(first + rest < text.len());
        assert_eq!(account.room(), 0);
        // Answered without its end: the connection closes.
        assert!(account.answered(false));
        assert_eq!(account.settle_at_limit(), Verdict::Close);
    }

    #[test]
    fn a_request_pipelined_in_the_same_read_closes_the_connection() {
        let mut account = Account::new(CAP, LIMIT);
        let mut text = head(0);
        text.extend_from_slice(&head(0));
        // Both arrive in one read.
        account.delivered(&text[..text.len().min(CAP)]);
        account.called(Framing::None);
        assert!(account.closing());
        // The pipelined one is called and answered; then the connection
        // ends without an answer of its own.
        account.called(Framing::None);
        assert!(account.answered(false));
        assert!(account.answered(false));
        assert_eq!(account.room(), 0);
        assert_eq!(account.settle_at_limit(), Verdict::Close);
    }

    #[test]
    fn a_body_the_answer_did_not_wait_for_closes_the_connection() {
        let mut account = Account::new(CAP, LIMIT);
        let text = head_of(50);
        read(&mut account, &text);
        account.called(Framing::Length(5_000));
        // Read up to the body limit at most.
        assert_eq!(account.room(), LIMIT as u64);
        assert!(account.answered(false), "answered with its body unread");
        assert_eq!(account.room(), 0);
    }

    #[test]
    fn a_streamed_answer_keeps_the_next_head_waiting_until_it_ends() {
        let mut account = Account::new(CAP, LIMIT);
        read(&mut account, &head_of(50));
        account.called(Framing::None);
        assert!(!account.answered(true));
        assert_eq!(account.room(), 0);
        account.stream_ended();
        assert_eq!(account.room(), CAP as u64);
    }

    #[test]
    fn a_late_head_is_408_only_when_nothing_is_in_flight() {
        let mut account = Account::new(CAP, LIMIT);
        account.delivered(b"GET / HT");
        assert!(account.head_begun());
        assert!(account.head_late());
        assert_eq!(account.verdict(), Some(Verdict::HeadTimeout));
        let mut account = Account::new(CAP, LIMIT);
        read(&mut account, &head_of(50));
        account.called(Framing::None);
        assert!(!account.head_late());
    }
}
