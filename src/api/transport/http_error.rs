//! What a route answers an error with: the domain's refusal
//! ([`RequestError`]) or one of HTTP's own — a body too slow, too large,
//! compressed or not JSON, an `Expect` it cannot meet, no such path or
//! method, and the statuses other layers answer. Each has its stable
//! machine code and its texts from the catalogues, as the domain's have;
//! [`super::problem`] maps both once to a status, headers and a problem
//! document.

use thiserror::Error;

use crate::error::RequestError;
use crate::i18n::{self, Lang};
use crate::text::Text;

/// How much of an unknown path a 404 quotes back.
pub const QUOTED_PATH_CHARS: usize = 200;

/// An error a route answers with: the domain's, or HTTP's own.
#[derive(Debug, Error)]
pub enum HttpError {
    /// Refused by the rules or the service's core.
    #[error(transparent)]
    Request(#[from] RequestError),
    #[error("{}", self.detail(Lang::En))]
    MethodNotAllowed { method: String, allow: String },
    /// An error answer that is its status and text alone: made outside
    /// the routes (hygiene, actix's own answers, CORS) or by a route's
    /// constructor below; the same status as a problem document, its text
    /// a `detail-…` of the catalogues.
    #[error("{}", self.detail(Lang::En))]
    Status { status: u16, text: Text },
}

impl From<crate::error::Refusal> for HttpError {
    fn from(refusal: crate::error::Refusal) -> HttpError {
        HttpError::Request(refusal.into())
    }
}

impl From<crate::memory::NoRoom> for HttpError {
    fn from(no_room: crate::memory::NoRoom) -> HttpError {
        HttpError::Request(no_room.into())
    }
}

impl HttpError {
    /// An error answer made outside the routes: `status`, as `text`
    /// says.
    pub fn status(status: u16, text: Text) -> HttpError {
        HttpError::Status { status, text }
    }

    /// An error answer another layer made (actix's own, CORS): its
    /// status, and what it `said` (quoted in English, in its own words;
    /// another language says its code's sentence).
    pub fn other_layer(status: u16, said: String) -> HttpError {
        let text = Text::new("detail-other-layer")
            .with("code", status_code(status))
            .with("said", said);
        HttpError::Status { status, text }
    }

    /// No resource at `path`, quoted to at most [`QUOTED_PATH_CHARS`]
    /// characters (then `…`): a refusal is never larger than what it
    /// refuses needs.
    pub fn not_found(path: &str) -> HttpError {
        let path = match path.char_indices().nth(QUOTED_PATH_CHARS) {
            Some((end, _)) => format!("{}…", &path[..end]),
            None => path.to_owned(),
        };
        HttpError::status(404, Text::new("detail-not-found").with("path", path))
    }

    /// A body larger than `limit` bytes.
    pub fn payload_too_large(limit: usize) -> HttpError {
        HttpError::status(413, Text::new("detail-body-too-large").with("max", limit))
    }

    /// A body sent compressed (`Content-Encoding` other than `identity`).
    pub fn unsupported_encoding(encoding: &str) -> HttpError {
        let text = Text::new("detail-encoding").with("encoding", format!("{encoding:?}"));
        HttpError::status(415, text)
    }

    /// The client stopped sending its body before the deadline of `secs`
    /// (the connection is closed).
    pub fn body_timeout(secs: f64) -> HttpError {
        HttpError::status(408, Text::new("detail-body-timeout").with("secs", secs))
    }

    /// An `Expect` the server cannot meet: anything but `100-continue`;
    /// what it asked, quoted in part (the connection is closed).
    pub fn expectation_failed(expect: String) -> HttpError {
        HttpError::status(417, Text::new("detail-expectation").with("expect", expect))
    }

    /// A body that is not JSON.
    pub fn unsupported_media_type() -> HttpError {
        HttpError::status(415, Text::new("detail-media-type"))
    }

    /// The stable machine code.
    pub fn code(&self) -> &'static str {
        match self {
            HttpError::Request(error) => error.code(),
            HttpError::MethodNotAllowed { .. } => "METHOD_NOT_ALLOWED",
            HttpError::Status { status, .. } => status_code(*status),
        }
    }

    /// The problem's detail in `lang`, from that language's catalogue.
    pub fn detail(&self, lang: Lang) -> String {
        let text = match self {
            HttpError::Request(error) => return error.detail(lang),
            HttpError::Status { text, .. } => return i18n::write(lang, text),
            HttpError::MethodNotAllowed { method, allow } => Text::new("detail-method")
                .with("method", method)
                .with("allow", allow),
        };
        i18n::write(lang, &text)
    }

    /// A short summary of the problem type, the same for every occurrence
    /// of its code ([`RequestError::title`]).
    pub fn title(&self) -> &'static str {
        match self {
            HttpError::Request(error) => error.title(),
            _ => i18n::title(Lang::En, self.code()).unwrap_or("Request refused"),
        }
    }
}

/// Every code the service's own problems carry, whatever the game: the
/// codes of [`RequestError`] and [`HttpError`] but for notations and
/// refusals (each game lists its own), and those of the statuses made
/// outside the application.
pub const SERVICE_CODES: &[&str] = &[
    "BAD_REQUEST",
    "INVALID_POSITION",
    "LIMIT_EXCEEDED",
    "UNAUTHORIZED",
    "FORBIDDEN",
    "NOT_FOUND",
    "METHOD_NOT_ALLOWED",
    "NOT_ACCEPTABLE",
    "REQUEST_TIMEOUT",
    "LENGTH_REQUIRED",
    "PAYLOAD_TOO_LARGE",
    "UNSUPPORTED_MEDIA_TYPE",
    "EXPECTATION_FAILED",
    "TOO_MANY_REQUESTS",
    "SERVICE_BUSY",
    "INTERNAL",
];

/// The code of an error status made outside the application.
fn status_code(status: u16) -> &'static str {
    match status {
        401 => "UNAUTHORIZED",
        403 => "FORBIDDEN",
        404 => "NOT_FOUND",
        405 => "METHOD_NOT_ALLOWED",
        406 => "NOT_ACCEPTABLE",
        408 => "REQUEST_TIMEOUT",
        411 => "LENGTH_REQUIRED",
        413 => "PAYLOAD_TOO_LARGE",
        415 => "UNSUPPORTED_MEDIA_TYPE",
        417 => "EXPECTATION_FAILED",
        429 => "TOO_MANY_REQUESTS",
        503 => "SERVICE_BUSY",
        400..=499 => "BAD_REQUEST",
        _ => "INTERNAL",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::KeyPresented;

    #[test]
    fn every_service_code_is_listed() {
        let domain = [
            RequestError::bad_request(Text::new("request-no-picks"), None),
            RequestError::bad_query(Text::new("request-query-string"), None),
            RequestError::invalid_position(Text::new("invalid-nim-pile"), "position"),
            RequestError::limit_exceeded(Text::new("limit-tanks"), ""),
            RequestError::Unauthorized {
                known: KeyPresented::None,
            },
            RequestError::TooManyRequests {
                class: "requests",
                quota: 1,
                price: 1,
                retry_after_secs: 1,
            },
            RequestError::Unaffordable {
                class: "searches",
                quota: 2,
                price: 6,
            },
            RequestError::Busy {
                retry_after_secs: 1,
            },
            RequestError::NoRoom,
            RequestError::ReviewUnfinished { cap_ms: 30_000 },
            RequestError::Internal("x".into()),
        ];
        let http = [
            HttpError::body_timeout(5.0),
            HttpError::payload_too_large(1),
            HttpError::expectation_failed("x".into()),
            HttpError::unsupported_media_type(),
            HttpError::unsupported_encoding("gzip"),
            HttpError::not_found("/x"),
            HttpError::MethodNotAllowed {
                method: "PUT".into(),
                allow: "GET".into(),
            },
        ];
        let statuses = (400..600).map(|status| HttpError::other_layer(status, "x".into()));
        let made = domain.into_iter().map(HttpError::from).chain(http);
        for error in made.chain(statuses) {
            assert!(SERVICE_CODES.contains(&error.code()), "{}", error.code());
            // Its title is its code's, from the catalogue.
            let catalogue = i18n::title(Lang::En, error.code());
            assert_eq!(Some(error.title()), catalogue, "{}", error.code());
        }
    }

    /// A 404 quotes a long path only in part, on a character boundary.
    #[test]
    fn a_404_quotes_at_most_a_few_hundred_characters_of_its_path() {
        let quoted = |path: &str| {
            let error = HttpError::not_found(path);
            assert_eq!(error.code(), "NOT_FOUND");
            let detail = error.to_string();
            detail
                .strip_prefix("no such resource: ")
                .unwrap()
                .to_owned()
        };
        let path = quoted(&format!("/v1/{}", "é".repeat(20_000)));
        assert_eq!(path.chars().count(), QUOTED_PATH_CHARS + 1);
        assert!(path.starts_with("/v1/é") && path.ends_with('…'));
        assert_eq!(quoted("/v1/x"), "/v1/x");
    }

    /// The English details of the refusals an HTTP test cannot make (the
    /// connection's and the server's own), as they were before they were
    /// written from the catalogue; and every one in Czech from its own.
    #[test]
    fn details_the_connection_writes_are_as_they_were() {
        let cases = [
            (
                HttpError::body_timeout(5.0),
                "the request body did not arrive within 5 s",
            ),
            (
                HttpError::body_timeout(0.25),
                "the request body did not arrive within 0.25 s",
            ),
            (
                RequestError::bad_request(
                    Text::new("request-body-read").with("error", "connection reset"),
                    None,
                )
                .into(),
                "reading the body failed: connection reset",
            ),
            (
                RequestError::bad_request(
                    Text::new("request-path").with("error", "cannot parse"),
                    None,
                )
                .into(),
                "path: cannot parse",
            ),
            (
                RequestError::Internal("search worker failed: gone".into()).into(),
                "internal error: search worker failed: gone",
            ),
        ];
        for (error, english) in cases {
            assert_eq!(error.to_string(), english);
            let czech = error.detail(Lang::Cs);
            assert_ne!(czech, english);
            assert!(!czech.starts_with("detail-") && !czech.starts_with("request-"));
        }
    }
}
