//! Request ids: every answer carries `X-Request-Id`, every problem names it
//! as its `instance`, and every log line about the request carries it, so
//! that an operator can trace a user's complaint to one request. While a
//! request is served, its id and its language (the one its
//! `Accept-Language` chose) are the thread's current ones ([`scope`],
//! [`current_id`], [`current_lang`]): the one writer of an answer writes
//! its texts in that language and a problem names that id. (The route it
//! matched is in the request's extensions: [`super::route::Route::of`].) The id is
//! the request's own `X-Request-Id` when it is well-formed (letters,
//! digits, `.`, `_`, `-`, `:`; at most 64 characters, or 128 from a
//! trusted proxy), else one generated here: the process's tag and a
//! counter.

use std::cell::Cell;
use std::fmt;
use std::future::Future;
use std::hash::{BuildHasher, RandomState};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;
use std::task::{Context, Poll};

use actix_web::dev::ServiceRequest;
use actix_web::http::header::{HeaderName, HeaderValue};

use crate::i18n::Lang;

/// The header that carries it, both ways.
pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// The id of a request whose made id could not be a header value (never:
/// a made id is hex digits and `-`).
const UNKNOWN: HeaderValue = HeaderValue::from_static("-");

/// The longest id taken from a client; a trusted proxy may send longer
/// ones, up to [`MAX_LEN`].
const MAX_FROM_CLIENT: usize = 64;
const MAX_LEN: usize = 128;

/// A request id: a short run of URI-safe characters, kept as the header
/// value it is sent as (the request's own value is shared, not copied).
#[derive(Clone)]
pub struct RequestId(HeaderValue);

/// The longest generated id: 8 hex digits, `-`, 16 hex digits.
const MADE_LEN: usize = 25;

impl RequestId {
    /// The request's own id when it is well-formed (longer ones only from
    /// a trusted proxy), else a new one.
    pub fn of(req: &ServiceRequest, from_trusted_proxy: bool) -> RequestId {
        let max = if from_trusted_proxy {
            MAX_LEN
        } else {
            MAX_FROM_CLIENT
        };
        match req.headers().get(&HEADER) {
            Some(value) if well_formed(value.as_bytes(), max) => RequestId(value.clone()),
            _ => RequestId::generate(),
        }
    }

    /// A new id: the process's random tag and its next number, in hex
    /// (`3f9a1c2e-1b`).
    pub fn generate() -> RequestId {
        const HEX: [u8; 16] = *b"0123456789abcdef";
        /// The process's tag: random at start, so that two servers'
        /// numbers are told apart.
        static TAG: LazyLock<u32> =
            LazyLock::new(|| RandomState::new().hash_one(std::process::id()) as u32);
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let mut text = [b'-'; MADE_LEN];
        for (i, slot) in text.iter_mut().take(8).rev().enumerate() {
            *slot = HEX[(*TAG >> (4 * i)) as usize & 0xf];
        }
        let digits = (64 - n.leading_zeros()).div_ceil(4).max(1) as usize;
        if let Some(number) = text.get_mut(9..9 + digits) {
            for (i, slot) in number.iter_mut().rev().enumerate() {
                *slot = HEX[(n >> (4 * i)) as usize & 0xf];
            }
        }
        let id = text.get(..9 + digits).unwrap_or_default();
        // Only hex digits and `-`: always a valid value.
        RequestId(HeaderValue::from_bytes(id).unwrap_or(UNKNOWN))
    }

    pub fn as_str(&self) -> &str {
        // Only well-formed ASCII is ever kept.
        self.0.to_str().unwrap_or_default()
    }

    /// The header value.
    pub fn header_value(&self) -> HeaderValue {
        self.0.clone()
    }
}

/// Whether `text` may be an id: 1 to `max` letters, digits, `.`, `-`, `_`
/// or `:`.
fn well_formed(text: &[u8], max: usize) -> bool {
    let allowed = |b: &u8| b.is_ascii_alphanumeric() || b".-_:".contains(b);
    !text.is_empty() && text.len() <= max.min(MAX_LEN) && text.iter().all(allowed)
}

impl fmt::Display for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for RequestId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RequestId({})", self.as_str())
    }
}

thread_local! {
    /// The id of the request whose future is being polled on this thread,
    /// for log lines and problems: set by [`Scoped`] around each poll.
    static CURRENT: Cell<Option<RequestId>> = const { Cell::new(None) };
    /// That request's language, for the texts its answer writes.
    static LANG: Cell<Lang> = const { Cell::new(Lang::En) };
}

pin_project_lite::pin_project! {
    /// A request's future, run as the request `id`'s, in `lang`:
    /// [`current_id`] and [`current_lang`] name them while the future is
    /// polled. (They are swapped in and out around each poll, the future
    /// moved nowhere, nothing allocated.)
    pub struct Scoped<F> {
        id: Option<RequestId>,
        lang: Lang,
        #[pin]
        future: F,
    }
}

/// Runs `future` as the request `id`'s, in `lang`: [`current_id`] and
/// [`current_lang`] name them inside.
pub fn scope<F: Future>(id: RequestId, lang: Lang, future: F) -> Scoped<F> {
    Scoped {
        id: Some(id),
        lang,
        future,
    }
}

impl<F: Future> Future for Scoped<F> {
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        let this = self.project();
        /// Puts the id and language back where they were taken from when
        /// the poll ends, even by a panic.
        struct Restore<'a> {
            id: &'a mut Option<RequestId>,
            outer: Option<RequestId>,
            outer_lang: Lang,
        }
        impl Drop for Restore<'_> {
            fn drop(&mut self) {
                *self.id = CURRENT.replace(self.outer.take());
                LANG.set(self.outer_lang);
            }
        }
        let outer = CURRENT.replace(this.id.take());
        let outer_lang = LANG.replace(*this.lang);
        let _restore = Restore {
            id: this.id,
            outer,
            outer_lang,
        };
        this.future.poll(cx)
    }
}

/// The language of the request being served (English outside one).
pub fn current_lang() -> Lang {
    LANG.get()
}

/// Runs `work` in `lang` on this thread (work a request hands to another
/// thread: a review's judge on the blocking pool writes its lines in the
/// request's language).
pub fn in_lang<T>(lang: Lang, work: impl FnOnce() -> T) -> T {
    let outer = LANG.replace(lang);
    struct Restore(Lang);
    impl Drop for Restore {
        fn drop(&mut self) {
            LANG.set(self.0);
        }
    }
    let _restore = Restore(outer);
    work()
}

/// The id of the request being served, if any.
pub fn current_id() -> Option<RequestId> {
    CURRENT.with(|current| {
        let id = current.take();
        let copy = id.clone();
        current.set(id);
        copy
    })
}

/// The id of the request being served, for a log line (`-` outside one).
pub fn current() -> impl fmt::Display {
    struct Current(Option<RequestId>);
    impl fmt::Display for Current {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            match &self.0 {
                Some(id) => f.write_str(id.as_str()),
                None => f.write_str("-"),
            }
        }
    }
    Current(current_id())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_well_formed_id_is_kept_and_another_replaced() {
        assert!(well_formed(b"lb-7f3a:42_x.y", MAX_FROM_CLIENT));
        for bad in [
            &b""[..],
            b"has space",
            b"quote\"",
            b"new\nline",
            &[b'a'; 65],
        ] {
            assert!(!well_formed(bad, MAX_FROM_CLIENT), "{bad:?}");
        }
        // Longer ones only from a trusted proxy, and never over 128.
        assert!(well_formed(&[b'a'; 100], MAX_LEN));
        assert!(!well_formed(&[b'a'; 129], MAX_LEN));
    }

    #[test]
    fn generated_ids_differ_and_are_well_formed() {
        let ids: Vec<String> = (0..1000)
            .map(|_| RequestId::generate().to_string())
            .collect();
        let distinct: std::collections::HashSet<&String> = ids.iter().collect();
        assert_eq!(distinct.len(), ids.len());
        for id in &ids {
            assert!(well_formed(id.as_bytes(), MAX_FROM_CLIENT), "{id}");
        }
    }
}
