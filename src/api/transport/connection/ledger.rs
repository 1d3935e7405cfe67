//! A connection's ledger: its [`Account`], shared by the socket's wrapper
//! ([`super::Guarded`], which feeds it what it reads and parks its reader
//! on it) and the calls on the connection (told by the outermost layer,
//! [`crate::api::middleware::layers`], of each call and answer).

use std::cell::{Cell, RefCell};
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

use actix_http::body::{BodySize, BoxBody, MessageBody};
use actix_http::{ConnectionType, Payload};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::web::Bytes;
use actix_web::HttpRequest;

use super::account::{Account, Framing};

// ------------------------------------------------------------- ledger ---

/// A connection's account, shared by its stream and the calls on it (the
/// request's connection data, told by the outermost layer,
/// [`crate::api::middleware::layers`]): one thread, no locks.
#[derive(Clone)]
pub struct Ledger(Rc<LedgerState>);

impl std::fmt::Debug for Ledger {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Ledger").field(&self.account()).finish()
    }
}

/// What a [`Ledger`] holds: the account, and the reader it may wake.
struct LedgerState {
    account: RefCell<Account>,
    /// The reader's waker while it waits (kept while the same task parks
    /// again, so that a request does not clone it).
    parked: RefCell<Option<Waker>>,
    /// Whether bytes wait in the socket while the reader is parked (then
    /// only the account can wake it).
    waiting: Cell<bool>,
    /// Whether a request asked to close the connection.
    closing: Cell<bool>,
}

impl Ledger {
    pub(super) fn new(account: Account) -> Ledger {
        Ledger(Rc::new(LedgerState {
            account: RefCell::new(account),
            parked: RefCell::new(None),
            waiting: Cell::new(false),
            closing: Cell::new(false),
        }))
    }

    /// The account as it stands.
    pub fn account(&self) -> Account {
        *self.0.account.borrow()
    }

    /// What `read` reads of the account (not copied).
    pub(super) fn read<R>(&self, read: impl FnOnce(&Account) -> R) -> R {
        read(&self.0.account.borrow())
    }

    pub(super) fn update<R>(&self, change: impl FnOnce(&mut Account) -> R) -> R {
        change(&mut self.0.account.borrow_mut())
    }

    /// The reader waits for the ledger (`waiting`: bytes wait in the
    /// socket, which then cannot wake it).
    pub(super) fn park(&self, waker: &Waker, waiting: bool) {
        self.0.waiting.set(waiting);
        let mut parked = self.0.parked.borrow_mut();
        if !parked.as_ref().is_some_and(|kept| kept.will_wake(waker)) {
            *parked = Some(waker.clone());
        }
    }

    /// Changes the account, then wakes the reader if the account now lets
    /// it do something the socket would not wake it for: read bytes that
    /// wait, or end the connection.
    fn tell<R>(&self, change: impl FnOnce(&mut Account) -> R) -> R {
        let (told, wakes) = {
            let mut account = self.0.account.borrow_mut();
            let told = change(&mut account);
            let room = account.room();
            let ends = account.idle() && room == 0 && !account.head_parsed();
            let wakes = (self.0.waiting.get() && room > 0) || ends || account.verdict().is_some();
            (told, wakes)
        };
        if wakes {
            let parked = self.0.parked.borrow_mut().take();
            if let Some(waker) = parked {
                waker.wake();
            }
        }
        told
    }

    /// A request was refused before its body was read.
    pub fn refused_unread(&self) {
        self.tell(Account::refused_unread);
    }

    fn stream_ended(&self) {
        self.tell(Account::stream_ended);
    }
}

// -------------------------------------------------------------- calls ---

impl Ledger {
    /// The ledger of `req`'s connection (none for a request that came
    /// through no [`Guarded`] socket, as in tests).
    pub fn of(req: &HttpRequest) -> Option<Ledger> {
        req.conn_data::<Ledger>().cloned()
    }

    /// A request is called (its head parsed): told before its body is
    /// read. Whether an earlier request on the connection asked to close
    /// it (RFC 9112 §9.6: then this one is not processed).
    pub fn called(&self, req: &ServiceRequest) -> bool {
        let after_close = self.0.closing.get();
        let head = req.head();
        if head.connection_type() == ConnectionType::Close {
            self.0.closing.set(true);
        }
        // actix-http gives a request no payload when its head says it has
        // no body (nor reads to the end): its framing is then known
        // without reading the head again.
        let framing = match req.parts().1 {
            Payload::None => Framing::None,
            _ => Framing::of(head),
        };
        self.tell(|a| a.called(framing));
        after_close
    }

    /// The framing of the body of the request being served on `req`'s
    /// connection, as the ledger was told it when the request was called
    /// ([`Ledger::called`]); read from `req`'s head when it came through
    /// no [`Guarded`] socket (as in tests). One reading of a head's
    /// framing a request.
    ///
    /// [`Guarded`]: super::Guarded
    pub fn framing_of(req: &HttpRequest) -> Framing {
        match Ledger::of(req) {
            Some(ledger) => ledger.read(Account::framing),
            None => Framing::of(req.head()),
        }
    }

    /// When the chunked body being read has more framing than the server
    /// reads (then it is answered 413: nothing more of it is read): the
    /// most it may have.
    pub fn framing_over(&self) -> Option<u64> {
        self.read(|a| a.framing_over().then(|| a.framing_cap()))
    }

    /// A request is answered with `res`: the answer closes the connection
    /// when the account says so, and a streamed one tells the ledger when
    /// it ends.
    pub fn answered(&self, mut res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
        let streams = matches!(res.response().body().size(), BodySize::Stream);
        if self.tell(|a| a.answered(streams)) {
            res.response_mut()
                .head_mut()
                .set_connection_type(ConnectionType::Close);
        }
        if !streams {
            return res;
        }
        let end = StreamEnd(self.clone());
        res.map_body(|_, body| {
            BoxBody::new(Told {
                body,
                end: Some(end),
            })
        })
    }

    /// A request is answered by an error the dispatcher writes: whether
    /// that answer must close the connection.
    pub fn answered_with_error(&self) -> bool {
        self.tell(|a| a.answered(false))
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
    /// A streamed answer's body, which tells the ledger when it ends.
    pub struct Told<B> {
        #[pin]
        body: B,
        end: Option<StreamEnd>,
    }
}

impl<B: MessageBody> MessageBody for Told<B> {
    type Error = B::Error;

    fn size(&self) -> BodySize {
        self.body.size()
    }

    fn poll_next(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Bytes, Self::Error>>> {
        let this = self.project();
        let next = this.body.poll_next(cx);
        if matches!(next, Poll::Ready(None) | Poll::Ready(Some(Err(_)))) {
            this.end.take();
        }
        next
    }
}
