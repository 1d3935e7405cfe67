//! What one connection may cost: every accepted socket is wrapped
//! ([`Guarded`]) before actix-http's dispatcher reads it, so that the
//! server counts what its client sends and bounds how its answers leave,
//! which actix cannot be told:
//!
//! - **The largest request head** (`--max-head-bytes`). A head is awaited
//!   from the connection's start, and again after each answer; its bytes
//!   are counted from its first to the empty line that ends it
//!   ([`super::framing::HeadEnd`]), and no more than the cap is read: a
//!   head still unfinished at the cap is answered 431 (problem+json) and
//!   the connection closed. A request's body is not head: once the
//!   request is called ([`Calls`]), its `Content-Length` bytes (at most
//!   the body limit), or its chunked body to its last chunk (at most the
//!   body limit of data and the head cap of framing,
//!   [`super::framing::ChunkedEnd`]), are read, and nothing after them
//!   until the request is answered: a client cannot slip a head past the
//!   count by sending it while a request runs. Bytes found after a
//!   request in the same read (a request pipelined behind another, the
//!   rest of a body the answer did not wait for) cannot be counted as a
//!   head from its first byte: then nothing more is read, and the
//!   connection is closed after the answers in flight (`Connection:
//!   close`). So a connection holds at most one head window of unparsed
//!   bytes, whatever it sends.
//! - **A deadline for every head** (`--request-timeout-secs`): from the
//!   connection's start for its first head, from its first byte for each
//!   later one (actix's own deadline covers only the first, and its
//!   keep-alive timer stops at a later head's first byte); late, 408
//!   (problem+json) and the connection closed.
//! - **A deadline for every send** (`--send-timeout-secs`): a write that
//!   makes no progress for that long fails, so the dispatcher drops the
//!   connection and the answer (and whatever work streams into it).
//!
//! The server's own answers (431, 408) are written when the dispatcher has
//! nothing in flight: the dispatcher is told the client's side ended, and
//! the answer is written as the connection shuts down.

use std::cell::Cell;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use actix_http::body::{BodySize, MessageBody};
use actix_http::{ConnectionType, Method, Request};
use actix_service::{Service, ServiceFactory};
use actix_web::dev::ServiceResponse;
use actix_web::http::header;
use actix_web::web::Bytes;
use actix_web::HttpResponse;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

use super::framing::{Chunked, ChunkedEnd, HeadEnd};
use super::problem::ApiError;
use super::request_id::RequestId;
use crate::logs;
use crate::metrics::{ConnectionClosed, Metrics};

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

/// How long the server waits, after its own answer, for the client to
/// stop sending (so that what it sent does not reset the connection
/// before the answer is read): actix's own figure for this.
const LINGER: Duration = Duration::from_secs(1);

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
    /// The framing of `req`'s body, decided as actix-http's decoder
    /// decides it (a request it would refuse never reaches here).
    pub fn of(req: &Request) -> Framing {
        let head = req.head();
        let headers = &head.headers;
        let says = |value: &header::HeaderValue, word: &[u8]| {
            value.as_bytes().trim_ascii().eq_ignore_ascii_case(word)
        };
        if headers
            .get(header::TRANSFER_ENCODING)
            .is_some_and(|v| says(v, b"chunked"))
        {
            return Framing::Chunked;
        }
        if headers
            .get_all(header::UPGRADE)
            .any(|v| says(v, b"websocket"))
        {
            return Framing::ToEof;
        }
        let length = headers
            .get(header::CONTENT_LENGTH)
            .and_then(|v| std::str::from_utf8(v.as_bytes()).ok())
            .and_then(|v| v.trim().parse::<u64>().ok());
        match length {
            Some(n) if n > 0 => Framing::Length(n),
            _ if head.method == Method::CONNECT => Framing::ToEof,
            _ => Framing::None,
        }
    }
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
/// ([`Guarded`]) feeds it what it reads, the calls ([`Calls`]) what is
/// called and answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Account {
    cap: u64,
    body_limit: u64,
    /// Bytes read so far.
    read: u64,
    phase: Phase,
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
            in_flight: 0,
            streaming: 0,
            verdict: None,
            head_since: Some(Instant::now()),
        }
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
                    // What came after the head may be a chunked body.
                    let mut chunked = ChunkedEnd::default();
                    if let Some(rest) = bytes.get(n..).filter(|r| !r.is_empty()) {
                        chunked.feed(rest);
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

// ------------------------------------------------------------- ledger ---

/// A connection's account, shared by its stream and the calls on it (the
/// request's connection data): one thread, no locks.
#[derive(Clone)]
pub struct Ledger(Rc<LedgerState>);

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Ledger").field(&self.account()).finish()
    }
}

/// What a [`Ledger`] holds: the account, and the reader it may wake.
struct LedgerState {
    account: Cell<Account>,
    /// The reader's waker while it waits, and whether bytes wait in the
    /// socket (then only the account can wake it).
    parked: Cell<Option<(Waker, bool)>>,
}

impl Ledger {
    fn new(account: Account) -> Ledger {
        Ledger(Rc::new(LedgerState {
            account: Cell::new(account),
            parked: Cell::new(None),
        }))
    }

    /// The account as it stands.
    pub fn account(&self) -> Account {
        self.0.account.get()
    }

    fn update<R>(&self, change: impl FnOnce(&mut Account) -> R) -> R {
        let mut account = self.0.account.get();
        let result = change(&mut account);
        self.0.account.set(account);
        result
    }

    /// Wakes the reader if the account now lets it do something the
    /// socket would not wake it for: read bytes that wait, or end the
    /// connection.
    fn wake(&self) {
        let Some((waker, waiting)) = self.0.parked.take() else {
            return;
        };
        let account = self.account();
        let room = account.room();
        let ends = account.idle() && room == 0 && !matches!(account.phase, Phase::Parsed { .. });
        if (waiting && room > 0) || ends || account.verdict.is_some() {
            waker.wake();
        } else {
            self.0.parked.set(Some((waker, waiting)));
        }
    }

    /// A request is called (its head parsed).
    pub fn called(&self, req: &Request) {
        self.update(|a| a.called(Framing::of(req)));
        self.wake();
    }

    /// A request is answered; whether the answer must close the
    /// connection.
    pub fn answered(&self, streams: bool) -> bool {
        let close = self.update(|a| a.answered(streams));
        self.wake();
        close
    }

    /// A request was refused before its body was read.
    pub fn refused_unread(&self) {
        self.update(Account::refused_unread);
        self.wake();
    }

    fn stream_ended(&self) {
        self.update(Account::stream_ended);
        self.wake();
    }
}

// ------------------------------------------------------------- stream ---

/// What every connection of a worker shares: the bounds and the counters
/// of connections closed.
#[derive(Clone)]
pub struct Guard {
    bounds: Bounds,
    too_large: prometheus::IntCounter,
    late: prometheus::IntCounter,
    stalled: prometheus::IntCounter,
}

impl Guard {
    pub fn new(bounds: Bounds, metrics: &Metrics) -> Guard {
        Guard {
            bounds,
            too_large: metrics.connections_closed(ConnectionClosed::HeadTooLarge),
            late: metrics.connections_closed(ConnectionClosed::HeadTimeout),
            stalled: metrics.connections_closed(ConnectionClosed::SendTimeout),
        }
    }
}

/// A socket that can say whether bytes wait in it without reading them.
pub trait Peek {
    /// Ready(true): bytes wait; Ready(false): the peer's side ended;
    /// Pending: nothing yet, and the task is woken when something comes.
    fn poll_peek_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<bool>>;
}

impl Peek for actix_web::rt::net::TcpStream {
    fn poll_peek_ready(&self, cx: &mut Context<'_>) -> Poll<io::Result<bool>> {
        let mut byte = [0u8; 1];
        let mut buf = ReadBuf::new(&mut byte);
        self.poll_peek(cx, &mut buf).map_ok(|n| n > 0)
    }
}

/// An accepted socket with its connection's accounting (see the module).
pub struct Guarded<T> {
    io: T,
    ledger: Ledger,
    guard: Rc<Guard>,
    /// The deadline of the head awaited, and when it is due.
    head_deadline: Option<Pin<Box<Sleep>>>,
    head_due: Option<Instant>,
    /// The deadline of a write that makes no progress.
    send_deadline: Option<Pin<Box<Sleep>>>,
    send_armed: bool,
    /// The server's own answer, and how much of it is written.
    answer: Option<(Bytes, usize)>,
    /// After the server's own answer: until when the client's bytes are
    /// read and dropped.
    linger: Option<Pin<Box<Sleep>>>,
}

impl<T> Guarded<T> {
    /// `io`, accounted with `guard`'s bounds. The first head's deadline
    /// runs from now.
    pub fn new(io: T, guard: Rc<Guard>) -> Guarded<T> {
        let bounds = guard.bounds;
        Guarded {
            io,
            ledger: Ledger::new(Account::new(bounds.max_head_bytes, bounds.body_limit)),
            head_deadline: None,
            head_due: None,
            send_deadline: None,
            send_armed: false,
            answer: None,
            linger: None,
            guard,
        }
    }

    /// The connection's ledger, for its requests' connection data.
    pub fn ledger(&self) -> Ledger {
        self.ledger.clone()
    }

    /// The socket.
    pub fn get_ref(&self) -> &T {
        &self.io
    }

    /// Decides the connection ends with `verdict`: counts it and makes the
    /// server's answer, if it writes one.
    fn end_with(&mut self, verdict: Verdict) {
        let bounds = self.guard.bounds;
        let refusal = match verdict {
            Verdict::HeadTooLarge => {
                self.guard.too_large.inc();
                logs::count(logs::Event::HeadTooLarge);
                ApiError::Status {
                    status: 431,
                    detail: format!(
                        "the request's head is larger than this server reads ({} bytes)",
                        bounds.max_head_bytes
                    ),
                }
            }
            Verdict::UriTooLong => {
                self.guard.too_large.inc();
                logs::count(logs::Event::HeadTooLarge);
                ApiError::Status {
                    status: 414,
                    detail: format!(
                        "the request line is longer than this server reads ({} bytes with the \
header fields)",
                        bounds.max_head_bytes
                    ),
                }
            }
            Verdict::HeadTimeout => {
                self.guard.late.inc();
                logs::count(logs::Event::HeadTimeout);
                ApiError::Status {
                    status: 408,
                    detail: format!(
                        "the request's head did not arrive within {} s",
                        bounds.head_timeout.as_secs_f64()
                    ),
                }
            }
            Verdict::Close => return,
        };
        self.answer = Some((written(&refusal), 0));
    }

    /// Whether the head awaited is late, and then answered 408 (the task
    /// is registered with the head's deadline when it is not).
    fn head_late(&mut self, cx: &mut Context<'_>) -> bool {
        let due = self
            .ledger
            .account()
            .head_due(self.guard.bounds.head_timeout);
        let Some(at) = due else {
            self.head_due = None;
            return false;
        };
        if self.head_due != Some(at) {
            // A timer set for an earlier deadline is kept (a kept-alive
            // connection's next head is due later than its last one): it
            // fires early at worst and is set again then, rather than
            // reset at every request.
            match &mut self.head_deadline {
                Some(timer) if timer.deadline() <= at => {}
                Some(timer) => timer.as_mut().reset(at),
                None => self.head_deadline = Some(Box::pin(tokio::time::sleep_until(at))),
            }
            self.head_due = Some(at);
        }
        let Some(timer) = self.head_deadline.as_mut() else {
            return false;
        };
        let mut passed = timer.as_mut().poll(cx).is_ready();
        if passed && Instant::now() < at {
            // It fired for an earlier head: set it for this one.
            timer.as_mut().reset(at);
            passed = timer.as_mut().poll(cx).is_ready();
        }
        if passed && self.ledger.update(Account::head_late) {
            self.end_with(Verdict::HeadTimeout);
            return true;
        }
        false
    }

    /// A write made no progress: fails once the send deadline passes.
    fn stalled<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let timeout = self.guard.bounds.send_timeout;
        if !self.send_armed {
            let at = Instant::now() + timeout;
            match &mut self.send_deadline {
                Some(timer) => timer.as_mut().reset(at),
                None => self.send_deadline = Some(Box::pin(tokio::time::sleep_until(at))),
            }
            self.send_armed = true;
        }
        let passed = self
            .send_deadline
            .as_mut()
            .is_some_and(|timer| timer.as_mut().poll(cx).is_ready());
        if !passed {
            return Poll::Pending;
        }
        self.guard.stalled.inc();
        logs::count(logs::Event::SendTimeout);
        Poll::Ready(Err(io::Error::new(
            io::ErrorKind::TimedOut,
            format!("the client read nothing for {} s", timeout.as_secs_f64()),
        )))
    }
}

/// The server's own answer: `refusal` as problem+json, with a request id
/// of its own, and the connection closed after it.
fn written(refusal: &ApiError) -> Bytes {
    use actix_web::ResponseError;
    let id = RequestId::generate();
    let mut problem = refusal.problem();
    problem.instance = Some(id.as_str().to_owned());
    let body = serde_json::to_vec(&problem).unwrap_or_default();
    let status = refusal.status_code();
    let mut text = format!(
        "HTTP/1.1 {} {}\r\ncontent-type: application/problem+json\r\ncontent-length: {}\r\n\
connection: close\r\nx-request-id: {}\r\ncontent-language: en\r\n\r\n",
        status.as_u16(),
        status.canonical_reason().unwrap_or(""),
        body.len(),
        id.as_str()
    )
    .into_bytes();
    text.extend_from_slice(&body);
    Bytes::from(text)
}

impl<T: AsyncRead + Peek + Unpin> AsyncRead for Guarded<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let account = this.ledger.account();
        if account.verdict().is_some() {
            // The connection ends: the dispatcher is told the client's
            // side did.
            return Poll::Ready(Ok(()));
        }
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        let room = account.room();
        if room == 0 {
            if account.idle() && !matches!(account.phase, Phase::Parsed { .. }) {
                let verdict = this.ledger.update(Account::settle_at_limit);
                this.end_with(verdict);
                return Poll::Ready(Ok(()));
            }
            return this.park(cx);
        }
        let before = buf.filled().len();
        let want = usize::try_from(room).unwrap_or(usize::MAX);
        let read = if want >= buf.remaining() {
            Pin::new(&mut this.io).poll_read(cx, buf)
        } else {
            let mut limited = buf.take(want);
            match Pin::new(&mut this.io).poll_read(cx, &mut limited) {
                Poll::Ready(Ok(())) => {
                    let n = limited.filled().len();
                    // SAFETY: the `n` bytes were filled, so initialised, by
                    // the read through `limited`, which is the start of
                    // `buf`'s unfilled part.
                    unsafe { buf.assume_init(n) };
                    buf.advance(n);
                    Poll::Ready(Ok(()))
                }
                other => other,
            }
        };
        match read {
            Poll::Ready(Ok(())) => {
                let Some(bytes) = buf.filled().get(before..).filter(|b| !b.is_empty()) else {
                    // The client's side ended.
                    this.ledger.update(Account::ended);
                    return Poll::Ready(Ok(()));
                };
                this.ledger.update(|a| a.delivered(bytes));
                Poll::Ready(Ok(()))
            }
            Poll::Pending => {
                if this.head_late(cx) {
                    return Poll::Ready(Ok(()));
                }
                Poll::Pending
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
        }
    }
}

impl<T: AsyncRead + Peek + Unpin> Guarded<T> {
    /// Nothing may be read until a request is called or answered: the
    /// reader waits for the ledger, and for the socket's end.
    fn park(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        if self.head_late(cx) {
            return Poll::Ready(Ok(()));
        }
        match self.io.poll_peek_ready(cx) {
            // Nothing waits: the socket wakes the task when something
            // comes; the ledger wakes it when the connection is to end.
            Poll::Pending => {
                self.ledger.0.parked.set(Some((cx.waker().clone(), false)));
                Poll::Pending
            }
            Poll::Ready(Ok(true)) => {
                // Bytes wait: the ledger wakes the reader when it may
                // read them.
                self.ledger.0.parked.set(Some((cx.waker().clone(), true)));
                Poll::Pending
            }
            Poll::Ready(Ok(false)) => {
                self.ledger.update(Account::ended);
                Poll::Ready(Ok(()))
            }
            Poll::Ready(Err(err)) => Poll::Ready(Err(err)),
        }
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Guarded<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        data: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_write(cx, data) {
            Poll::Pending => this.stalled(cx),
            done => {
                this.send_armed = false;
                done
            }
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        match Pin::new(&mut this.io).poll_flush(cx) {
            Poll::Pending => this.stalled(cx),
            done => {
                this.send_armed = false;
                done
            }
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        // The server's own answer first.
        while let Some((answer, written)) = &mut this.answer {
            let Some(rest) = answer.get(*written..).filter(|r| !r.is_empty()) else {
                this.answer = None;
                this.linger = Some(Box::pin(tokio::time::sleep(LINGER)));
                break;
            };
            match Pin::new(&mut this.io).poll_write(cx, rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *written += n;
                    this.send_armed = false;
                }
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return this.stalled(cx),
            }
        }
        let shut = Pin::new(&mut this.io).poll_shutdown(cx);
        let Some(linger) = &mut this.linger else {
            return shut;
        };
        if shut.is_pending() {
            return Poll::Pending;
        }
        // The answer is sent and the server's side shut: what the client
        // still sends is read and dropped until it stops or the linger
        // ends, so that it does not reset the connection before the
        // answer is read.
        if linger.as_mut().poll(cx).is_ready() {
            return Poll::Ready(Ok(()));
        }
        let mut sink = [0u8; 1024];
        loop {
            let mut buf = ReadBuf::new(&mut sink);
            match Pin::new(&mut this.io).poll_read(cx, &mut buf) {
                Poll::Ready(Ok(())) if !buf.filled().is_empty() => continue,
                Poll::Ready(_) => return Poll::Ready(Ok(())),
                Poll::Pending => return Poll::Pending,
            }
        }
    }
}

// -------------------------------------------------------------- calls ---

/// The application's service factory, with each request it is called
/// with and each answer it gives told to the connection's ledger (its
/// connection data).
#[derive(Clone)]
pub struct Calls<F>(pub F);

impl<F, B> ServiceFactory<Request> for Calls<F>
where
    F: ServiceFactory<Request, Response = ServiceResponse<B>, Error = HttpResponse>,
    B: MessageBody,
{
    type Response = ServiceResponse<Told<B>>;
    type Error = HttpResponse;
    type Config = F::Config;
    type Service = CallsService<F::Service>;
    type InitError = F::InitError;
    type Future = CallsInit<F::Future>;

    fn new_service(&self, config: F::Config) -> Self::Future {
        CallsInit {
            inner: self.0.new_service(config),
        }
    }
}

pin_project_lite::pin_project! {
    /// [`Calls`]'s service, being made.
    pub struct CallsInit<Fut> {
        #[pin]
        inner: Fut,
    }
}

impl<Fut, S, E> Future for CallsInit<Fut>
where
    Fut: Future<Output = Result<S, E>>,
{
    type Output = Result<CallsService<S>, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        self.project().inner.poll(cx).map_ok(CallsService)
    }
}

/// [`Calls`]'s service.
pub struct CallsService<S>(S);

impl<S, B> Service<Request> for CallsService<S>
where
    S: Service<Request, Response = ServiceResponse<B>, Error = HttpResponse>,
    B: MessageBody,
{
    type Response = ServiceResponse<Told<B>>;
    type Error = HttpResponse;
    type Future = Answering<S::Future>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&self, req: Request) -> Self::Future {
        let ledger = req.conn_data::<Ledger>().cloned();
        if let Some(ledger) = &ledger {
            ledger.called(&req);
        }
        Answering {
            inner: self.0.call(req),
            ledger,
        }
    }
}

pin_project_lite::pin_project! {
    /// A call's answer, told to the ledger when it comes.
    pub struct Answering<Fut> {
        #[pin]
        inner: Fut,
        ledger: Option<Ledger>,
    }
}

impl<Fut, B> Future for Answering<Fut>
where
    Fut: Future<Output = Result<ServiceResponse<B>, HttpResponse>>,
    B: MessageBody,
{
    type Output = Result<ServiceResponse<Told<B>>, HttpResponse>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let answer = std::task::ready!(this.inner.poll(cx));
        let Some(ledger) = this.ledger.take() else {
            return Poll::Ready(answer.map(|res| res.map_body(|_, body| Told::Plain { body })));
        };
        Poll::Ready(match answer {
            Ok(mut res) => {
                let streams = matches!(res.response().body().size(), BodySize::Stream);
                if ledger.answered(streams) {
                    res.response_mut()
                        .head_mut()
                        .set_connection_type(ConnectionType::Close);
                }
                Ok(res.map_body(|_, body| {
                    if streams {
                        Told::Streaming {
                            body,
                            end: Some(StreamEnd(ledger)),
                        }
                    } else {
                        Told::Plain { body }
                    }
                }))
            }
            Err(mut res) => {
                if ledger.answered(false) {
                    res.head_mut().set_connection_type(ConnectionType::Close);
                }
                Err(res)
            }
        })
    }
}

/// Tells the ledger a streamed answer ended, when dropped.
struct StreamEnd(Ledger);

impl Drop for StreamEnd {
    fn drop(&mut self) {
        self.0.stream_ended();
    }
}

pin_project_lite::pin_project! {
    /// An answer's body; a streamed one tells the ledger when it ends.
    #[project = ToldProj]
    pub enum Told<B> {
        Plain { #[pin] body: B },
        Streaming { #[pin] body: B, end: Option<StreamEnd> },
    }
}

impl<B: MessageBody> MessageBody for Told<B> {
    type Error = B::Error;

    fn size(&self) -> BodySize {
        match self {
            Told::Plain { body } | Told::Streaming { body, .. } => body.size(),
        }
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        match self.project() {
            ToldProj::Plain { body } => body.poll_next(cx),
            ToldProj::Streaming { body, end } => {
                let next = body.poll_next(cx);
                if matches!(next, Poll::Ready(None) | Poll::Ready(Some(Err(_)))) {
                    end.take();
                }
                next
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CAP: usize = 100;
    const LIMIT: usize = 1_000;

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
