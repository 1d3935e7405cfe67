//! Request ids: every answer carries `X-Request-Id`, every problem names it
//! as its `instance`, and every log line about the request carries it, so
//! that an operator can trace a user's complaint to one request. A
//! request's id and its language (the one its `Accept-Language` chose)
//! travel in its extensions ([`Asked`]), as the route it matched does
//! ([`super::route::Route::of`]): the one writer of an answer writes its
//! texts in that language and a problem names that id. The id is
//! the request's own `X-Request-Id` when it is well-formed (letters,
//! digits, `.`, `_`, `-`, `:`; at most 64 characters, or 128 from a
//! trusted proxy), else one generated here: the process's tag and a
//! counter.

use std::fmt;
use std::hash::{BuildHasher, RandomState};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::LazyLock;

use actix_web::dev::{Payload, ServiceRequest};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::{FromRequest, HttpMessage, HttpRequest};

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

/// Who is being answered: the request's id and the language its
/// `Accept-Language` chose, put in the request's extensions by the
/// outermost layer ([`crate::api::middleware::layers`]) before anything
/// else runs. The one writer of an answer reads them there: a handler
/// takes the language as an extractor ([`Lang`]'s `FromRequest`), the
/// problem writer ([`super::problem::write`]) both.
#[derive(Clone, Debug)]
pub struct Asked {
    pub id: RequestId,
    pub lang: Lang,
}

impl Asked {
    /// What the layers found of `req`; for a request they did not see (an
    /// application built without them, in tests), a new id and the
    /// language its `Accept-Language` chooses.
    pub fn of(req: &HttpRequest) -> Asked {
        if let Some(asked) = req.extensions().get::<Asked>() {
            return asked.clone();
        }
        Asked {
            id: RequestId::generate(),
            lang: crate::api::middleware::language::asked(req.headers()),
        }
    }

    /// The language `req` asked for (as [`Asked::of`] finds it).
    pub fn lang_of(req: &HttpRequest) -> Lang {
        match req.extensions().get::<Asked>() {
            Some(asked) => asked.lang,
            None => crate::api::middleware::language::asked(req.headers()),
        }
    }
}

impl FromRequest for Asked {
    type Error = std::convert::Infallible;
    type Future = std::future::Ready<Result<Asked, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Ok(Asked::of(req)))
    }
}

impl FromRequest for Lang {
    type Error = std::convert::Infallible;
    type Future = std::future::Ready<Result<Lang, Self::Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(Ok(Asked::lang_of(req)))
    }
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
