//! Compression of large answers: actix's `Compress` runs between the
//! halves here, and only for requests that accept an encoding
//! ([`crate::api::middleware::layers`]). It offers gzip and zstd only:
//! actix-web's Brotli is not built in (its encoder sets up a 4 MiB window
//! for every answer: `legal-moves` fell from 70 000 to 2 500 answers a
//! second with it). [`keep_small_answers_plain`] (called inside it, for
//! requests it compresses) marks small answers so that it leaves them
//! alone; [`finish`] (outside it) removes the marker and says that answers
//! vary with `Accept-Encoding`.

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
    let small =
        matches!(res.response().body().size(), body::BodySize::Sized(n) if n < MIN_COMPRESSED);
    if small {
        res.headers_mut().insert(
            header::CONTENT_ENCODING,
            HeaderValue::from_static("identity"),
        );
    }
}

/// The header's name, as `Vary` names it.
const ACCEPT_ENCODING: &[u8] = b"accept-encoding";

/// Whether a `Vary` value names `Accept-Encoding` (in any case): each
/// name, found after a comma, compared only when its length fits.
fn names_accept_encoding(value: &[u8]) -> bool {
    let name_at = |start: usize| {
        let rest = value.get(start..).unwrap_or_default();
        let rest = rest.trim_ascii_start();
        let end = memchr::memchr(b',', rest).unwrap_or(rest.len());
        rest.get(..end)
            .is_some_and(|name| name.trim_ascii_end().eq_ignore_ascii_case(ACCEPT_ENCODING))
    };
    name_at(0) || memchr::memchr_iter(b',', value).any(|comma| name_at(comma + 1))
}

/// After actix's `Compress` (`compressing`), or in its place when the
/// client accepts no encoding: drops the marker of
/// [`keep_small_answers_plain`], and says on every successful answer that
/// it varies with `Accept-Encoding` (for caches), compressed or not. Only
/// `Compress` names `Accept-Encoding` in `Vary` before this, so only its
/// answers are searched for it.
pub fn finish<B>(res: &mut ServiceResponse<B>, compressing: bool) {
    if !res.status().is_success() {
        return;
    }
    let headers = res.headers_mut();
    if compressing {
        if headers
            .get(header::CONTENT_ENCODING)
            .is_some_and(|v| v == "identity")
        {
            headers.remove(header::CONTENT_ENCODING);
        }
        if headers
            .get_all(header::VARY)
            .any(|v| names_accept_encoding(v.as_bytes()))
        {
            return;
        }
    }
    headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_accept_encoding_among_the_names_vary_lists() {
        for yes in [
            &b"accept-encoding"[..],
            b"Accept-Encoding",
            b"Origin, accept-encoding",
            b"Origin,Accept-Encoding, Accept",
        ] {
            assert!(
                names_accept_encoding(yes),
                "{}",
                String::from_utf8_lossy(yes)
            );
        }
        for no in [
            &b""[..],
            b"Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
            b"accept-encodin",
            b"x-accept-encoding",
        ] {
            assert!(
                !names_accept_encoding(no),
                "{}",
                String::from_utf8_lossy(no)
            );
        }
    }
}
