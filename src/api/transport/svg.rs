//! SVG answers: `image/svg+xml` with an `ETag` and a long `Cache-Control`,
//! since a picture is a pure function of its URL; `If-None-Match` gets a
//! 304.

use std::hash::{Hash, Hasher};

use actix_web::http::header::{self, EntityTag};
use actix_web::{HttpRequest, HttpResponse};

use super::problem::HttpError;
use crate::memory::InFlight;

/// The media type of the pictures.
pub const SVG: &str = "image/svg+xml";

/// How long clients and proxies may keep a picture: a day.
const CACHE_CONTROL: &str = "public, max-age=86400";

/// A strong entity tag for `body`: a 64-bit hash of the bytes and their
/// length. It only has to agree between identical bodies served by the
/// same build.
fn entity_tag(body: &str) -> EntityTag {
    let mut hasher = std::hash::DefaultHasher::new();
    body.hash(&mut hasher);
    EntityTag::new_strong(format!("{:016x}-{:x}", hasher.finish(), body.len()))
}

/// The picture, or 304 Not Modified when the client already has it; a
/// large picture held in flight as a large JSON answer is (503 when the
/// bytes in flight have no room for it).
pub fn respond(
    request: &HttpRequest,
    body: String,
    in_flight: &InFlight,
) -> Result<HttpResponse, HttpError> {
    let tag = entity_tag(&body);
    let fresh = super::assets::holds(request, &tag);
    let mut response = if fresh {
        HttpResponse::NotModified()
    } else {
        HttpResponse::Ok()
    };
    response
        .insert_header((header::ETAG, tag.to_string()))
        .insert_header((header::CACHE_CONTROL, CACHE_CONTROL));
    if fresh {
        return Ok(response.finish());
    }
    response.content_type(SVG);
    super::pieces::answer(response, body.into_bytes(), in_flight)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_bodies_share_a_tag() {
        assert_eq!(entity_tag("<svg/>"), entity_tag("<svg/>"));
        assert_ne!(entity_tag("<svg/>"), entity_tag("<svg />"));
        assert!(!entity_tag("x").weak);
    }
}
