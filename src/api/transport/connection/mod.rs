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
//!   request is called ([`Ledger::called`]), its `Content-Length` bytes (at most
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

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use actix_web::web::Bytes;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::{Instant, Sleep};

mod account;
mod ledger;

pub use account::{Account, Bounds, Framing, Verdict};
pub use ledger::Ledger;

/// The most header fields actix-http reads in a head (its parser's
/// `MAX_HEADERS`): a head with more is answered 431.
pub const MAX_HEADER_FIELDS: usize = 96;

/// How long the server waits, after its own answer, for the client to
/// stop sending (so that what it sent does not reset the connection
/// before the answer is read): actix's own figure for this.
const LINGER: Duration = Duration::from_secs(1);
use super::problem::RequestError;
use super::request_id::RequestId;
use crate::logs;
use crate::metrics::{ConnectionClosed, Metrics};
use crate::text::Text;

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
    /// The task the head's timer wakes, once it was polled pending at its
    /// deadline: until the timer is set again, a poll from the same task
    /// only asks whether it fired (the timer wheel's registration stands).
    head_waker: Option<Waker>,
    /// The deadline of a write that makes no progress.
    send_deadline: Option<Pin<Box<Sleep>>>,
    send_armed: bool,
    /// The server's own answer, and how much of it is written.
    answer: Option<(Bytes, usize)>,
    /// Whether actix-http's own answer to a head it could not take is
    /// being dropped for the server's (which `answer` holds).
    replacing: bool,
    /// Whether the task was woken for a chunked body over its framing cap.
    told_framing_over: bool,
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
            head_waker: None,
            send_deadline: None,
            send_armed: false,
            answer: None,
            replacing: false,
            told_framing_over: false,
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
                RequestError::status(
                    431,
                    Text::new("detail-head-too-large").with("max", bounds.max_head_bytes),
                )
            }
            Verdict::UriTooLong => {
                self.guard.too_large.inc();
                logs::count(logs::Event::HeadTooLarge);
                RequestError::status(
                    414,
                    Text::new("detail-uri-too-long").with("max", bounds.max_head_bytes),
                )
            }
            Verdict::HeadTimeout => {
                self.guard.late.inc();
                logs::count(logs::Event::HeadTimeout);
                RequestError::status(
                    408,
                    Text::new("detail-head-timeout")
                        .with("secs", bounds.head_timeout.as_secs_f64()),
                )
            }
            Verdict::Close => return,
        };
        self.answer = Some((written(&refusal), 0));
    }

    /// Writes what is left of the server's own answer, if it has one; once
    /// it is written, what the client still sends is to be lingered over.
    fn write_answer(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>>
    where
        T: AsyncWrite + Unpin,
    {
        while let Some((answer, written)) = &mut self.answer {
            let Some(rest) = answer.get(*written..).filter(|r| !r.is_empty()) else {
                self.answer = None;
                self.linger = Some(Box::pin(tokio::time::sleep(LINGER)));
                break;
            };
            match Pin::new(&mut self.io).poll_write(cx, rest) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => {
                    *written += n;
                    self.send_armed = false;
                }
                Poll::Ready(Err(err)) => return Poll::Ready(Err(err)),
                Poll::Pending => return self.stalled(cx),
            }
        }
        Poll::Ready(Ok(()))
    }

    /// Whether `data`, about to be written, is actix-http's own answer to a
    /// head it could not take (a 4xx or 5xx status line while no request
    /// is called: 431 for more header fields than it reads, 400 for a
    /// missing `Host` or a malformed line), which it writes as a bare
    /// status: then the server's problem+json for that status is made
    /// instead, and the connection closes with it.
    fn replaces(&mut self, data: &[u8]) -> bool {
        if self.replacing {
            return true;
        }
        if self.answer.is_some() || !self.ledger.read(Account::answers_a_head_itself) {
            return false;
        }
        let status = data
            .strip_prefix(b"HTTP/1.1 ")
            .and_then(|rest| rest.get(..3))
            .and_then(|digits| std::str::from_utf8(digits).ok())
            .and_then(|digits| digits.parse::<u16>().ok());
        let refusal = match status {
            Some(431) => RequestError::status(
                431,
                Text::new("detail-head-fields").with("max", MAX_HEADER_FIELDS),
            ),
            Some(status @ 400..=599) => {
                RequestError::status(status, Text::new("detail-head-unread"))
            }
            // 100 Continue, and anything else: as it is.
            _ => return false,
        };
        // (actix-http logs the head it could not take: `logs` counts it.)
        self.answer = Some((written(&refusal), 0));
        self.replacing = true;
        true
    }

    /// Whether the head awaited is late, and then answered 408 (the task
    /// is registered with the head's deadline when it is not).
    fn head_late(&mut self, cx: &mut Context<'_>) -> bool {
        let timeout = self.guard.bounds.head_timeout;
        let due = self.ledger.read(|account| account.head_due(timeout));
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
                Some(timer) => {
                    timer.as_mut().reset(at);
                    self.head_waker = None;
                }
                None => self.head_deadline = Some(Box::pin(tokio::time::sleep_until(at))),
            }
            self.head_due = Some(at);
        }
        let Some(timer) = self.head_deadline.as_mut() else {
            return false;
        };
        let registered = self
            .head_waker
            .as_ref()
            .is_some_and(|waker| waker.will_wake(cx.waker()));
        let mut passed = if registered {
            timer.is_elapsed()
        } else {
            timer.as_mut().poll(cx).is_ready()
        };
        if passed && Instant::now() < at {
            // It fired for an earlier head: set it for this one.
            timer.as_mut().reset(at);
            passed = timer.as_mut().poll(cx).is_ready();
        }
        if passed {
            self.head_waker = None;
        } else if !registered {
            self.head_waker = Some(cx.waker().clone());
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
fn written(refusal: &RequestError) -> Bytes {
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
        let (ends, room, at_limit) = this.ledger.read(|account| {
            let room = account.room();
            let at_limit = account.idle() && !account.head_parsed();
            (account.verdict().is_some(), room, at_limit)
        });
        if ends {
            // The connection ends: the dispatcher is told the client's
            // side did.
            return Poll::Ready(Ok(()));
        }
        if buf.remaining() == 0 {
            return Poll::Ready(Ok(()));
        }
        if room == 0 {
            if at_limit {
                let verdict = this.ledger.update(Account::settle_at_limit);
                this.end_with(verdict);
                return Poll::Ready(Ok(()));
            }
            if this.ledger.read(Account::framing_over) {
                // The body reader (a task the socket no longer wakes)
                // answers 413 when it is polled again: once.
                if !std::mem::replace(&mut this.told_framing_over, true) {
                    cx.waker().wake_by_ref();
                }
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
                self.ledger.park(cx.waker(), false);
                Poll::Pending
            }
            Poll::Ready(Ok(true)) => {
                // Bytes wait: the ledger wakes the reader when it may
                // read them.
                self.ledger.park(cx.waker(), true);
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
        if this.replaces(data) {
            // actix-http's own answer (a bare status, no body) is dropped
            // once the server's is written in its place.
            return this.write_answer(cx).map_ok(|()| data.len());
        }
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
        std::task::ready!(this.write_answer(cx))?;
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
