//! Compression of large answers: actix's `Compress` runs between the
//! halves here, and only for requests that accept an encoding
//! ([`crate::api::middleware::layers`]). It offers gzip and zstd only:
//! actix-web's Brotli is not built in (its encoder sets up a 4 MiB window
//! for every answer: `legal-moves` fell from 70 000 to 2 500 answers a
//! second with it). [`keep_small_answers_plain`] (called inside it, for
//! requests it compresses) marks small answers so that it leaves them
//! alone; [`finish`] (outside it) removes the marker.

use actix_web::body::{self, BoxBody, MessageBody};
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};

/// Answers smaller than this are sent uncompressed. actix's `Compress`
/// builds a new encoder for every answer and compresses bodies over 1 KiB
/// on the blocking pool: measured with `wrk` and `Accept-Encoding: gzip`,
/// `legal-moves` (2.5 KB, 418 B gzipped) fell from 0.5x to 0.06x of the
/// hello-world ceiling. Large answers (a picture is 22 KB, 2.7 KB gzipped;
/// replays, batches) are worth it.
const MIN_COMPRESSED: u64 = 8 * 1024;

/// Tells the compression layer (outside this one) to leave a small answer
/// alone: it compresses nothing that already has a `Content-Encoding`.
/// [`finish`] removes the marker again.
pub fn keep_small_answers_plain(res: &mut ServiceResponse<BoxBody>) {
    // An answer encoded already (a static file, gzipped once) is left as
    // it is: marking it would take its encoding off.
    if res.headers().contains_key(header::CONTENT_ENCODING) {
        return;
    }
    let small =
        matches!(res.response().body().size(), body::BodySize::Sized(n) if n < MIN_COMPRESSED);
    if small {
        const IDENTITY: HeaderValue = HeaderValue::from_static("identity");
        res.headers_mut().insert(header::CONTENT_ENCODING, IDENTITY);
    }
}

/// After actix's `Compress`: drops the marker of
/// [`keep_small_answers_plain`] (the answer's `Vary` names
/// `Accept-Encoding`, compressed or not: [`super::vary`]).
pub fn finish<B>(res: &mut ServiceResponse<B>) {
    let headers = res.headers_mut();
    if headers
        .get(header::CONTENT_ENCODING)
        .is_some_and(|v| v == "identity")
    {
        headers.remove(header::CONTENT_ENCODING);
    }
}
