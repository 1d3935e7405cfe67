//! Static answers served as they are: a page's files (the board's,
//! Swagger UI's) compressed once, on first use, rather than by the
//! compression layer on every request (Swagger UI's 1.45 MB bundle cost a
//! core at 80 requests a second), served with a validator (`ETag`) and
//! in pieces ([`Pieces`]: a client that stops reading holds its write
//! buffer, not the file).

use std::io::Write;
use std::sync::OnceLock;

use actix_web::http::header::{
    self, AcceptEncoding, Encoding, EntityTag, HeaderValue, IfNoneMatch,
};
use actix_web::web::Bytes;
use actix_web::{HttpMessage, HttpRequest, HttpResponse, HttpResponseBuilder};

use super::pieces::Pieces;

/// Files smaller than this are sent as they are (compression would save
/// less than its header and the client's work).
const MIN_COMPRESSED: usize = 1024;

/// One static file: its type, its bytes, its gzip encoding (made on first
/// use) and its validator.
pub struct Asset {
    content_type: String,
    bytes: Bytes,
    gzip: OnceLock<Option<Bytes>>,
    tag: EntityTag,
    etag: HeaderValue,
}

impl Asset {
    /// `bytes` of type `content_type`.
    pub fn new(content_type: impl Into<String>, bytes: impl Into<Bytes>) -> Asset {
        let bytes = bytes.into();
        let hash = blake3::hash(&bytes).to_hex();
        let tag = EntityTag::new_strong(hash.get(..32).unwrap_or(&hash).to_owned());
        let etag = HeaderValue::from_str(&tag.to_string());
        Asset {
            content_type: content_type.into(),
            bytes,
            gzip: OnceLock::new(),
            tag,
            etag: etag.unwrap_or(HeaderValue::from_static("\"\"")),
        }
    }

    /// Its validator, quoted.
    pub fn etag(&self) -> &str {
        self.etag.to_str().unwrap_or_default()
    }

    /// Its gzip encoding, when it is worth one: made once.
    fn gzip(&self) -> Option<&Bytes> {
        self.gzip
            .get_or_init(|| {
                if self.bytes.len() < MIN_COMPRESSED {
                    return None;
                }
                let mut encoder =
                    flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                encoder.write_all(&self.bytes).ok()?;
                let gzip = encoder.finish().ok()?;
                (gzip.len() < self.bytes.len()).then(|| Bytes::from(gzip))
            })
            .as_ref()
    }

    /// The answer to `req`: `304 Not Modified` to a client that holds
    /// this version (`If-None-Match`), else the file, gzip-encoded when
    /// the client takes gzip; `answer` carries the page's own headers. A
    /// client may keep it, asking again whether it is current
    /// (`Cache-Control: no-cache`): the files change with the service.
    pub fn serve(&self, req: &HttpRequest, mut answer: HttpResponseBuilder) -> HttpResponse {
        answer
            .insert_header((header::ETAG, self.etag.clone()))
            .insert_header((header::CACHE_CONTROL, HeaderValue::from_static("no-cache")))
            .insert_header((header::VARY, HeaderValue::from_static("Accept-Encoding")));
        if holds(req, &self.tag) {
            answer.status(actix_web::http::StatusCode::NOT_MODIFIED);
            return answer.finish();
        }
        answer.insert_header((header::CONTENT_TYPE, self.content_type.as_str()));
        match self.gzip().filter(|_| takes_gzip(req)) {
            Some(gzip) => {
                answer.insert_header((header::CONTENT_ENCODING, HeaderValue::from_static("gzip")));
                answer.body(Pieces::new(gzip.clone(), None))
            }
            None => answer.body(Pieces::new(self.bytes.clone(), None)),
        }
    }
}

/// Whether the client holds the version tagged `tag` (`If-None-Match`).
pub fn holds(req: &HttpRequest, tag: &EntityTag) -> bool {
    match req.get_header::<IfNoneMatch>() {
        Some(IfNoneMatch::Any) => true,
        Some(IfNoneMatch::Items(tags)) => tags.iter().any(|held| held.weak_eq(tag)),
        None => false,
    }
}

/// Whether the request takes gzip (`Accept-Encoding`, by its qualities,
/// `*` among them).
fn takes_gzip(req: &HttpRequest) -> bool {
    let gzip = Encoding::gzip();
    let accepted = req.get_header::<AcceptEncoding>();
    accepted.and_then(|accepted| accepted.negotiate([&gzip].into_iter())) == Some(gzip)
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::body::MessageBody;
    use actix_web::test::TestRequest;

    async fn body(answer: HttpResponse) -> Bytes {
        answer
            .into_body()
            .try_into_bytes()
            .unwrap_or_else(|_| Bytes::new())
    }

    #[actix_web::test]
    async fn a_file_is_compressed_once_and_revalidated() {
        let text = "tank ".repeat(2_000);
        let asset = Asset::new("text/plain", text.clone());
        let gzip = TestRequest::get()
            .insert_header(("accept-encoding", "br, gzip;q=0.5"))
            .to_http_request();
        let answer = asset.serve(&gzip, HttpResponse::Ok());
        assert_eq!(answer.headers().get("content-encoding").unwrap(), "gzip");
        assert_eq!(answer.headers().get("etag").unwrap(), asset.etag());
        let first = asset.gzip().unwrap().as_ptr();
        let _ = asset.serve(&gzip, HttpResponse::Ok());
        // The same bytes: compressed once.
        assert_eq!(asset.gzip().unwrap().as_ptr(), first);
        let plain = TestRequest::get()
            .insert_header(("accept-encoding", "gzip;q=0"))
            .to_http_request();
        let answer = asset.serve(&plain, HttpResponse::Ok());
        assert!(answer.headers().get("content-encoding").is_none());
        let mut pieces = answer.into_body();
        let mut read = Vec::new();
        while let Some(piece) =
            std::future::poll_fn(|cx| std::pin::Pin::new(&mut pieces).poll_next(cx)).await
        {
            read.extend_from_slice(&piece.unwrap());
        }
        assert_eq!(read, text.as_bytes());
        let held = TestRequest::get()
            .insert_header(("if-none-match", asset.etag()))
            .to_http_request();
        let answer = asset.serve(&held, HttpResponse::Ok());
        assert_eq!(answer.status(), 304);
        assert!(body(answer).await.is_empty());
        // A small file is sent as it is.
        let small = Asset::new("text/plain", "tank");
        let answer = small.serve(&gzip, HttpResponse::Ok());
        assert!(answer.headers().get("content-encoding").is_none());
    }
}
