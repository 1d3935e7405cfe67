//! `Expect` (RFC 9110 §10.1.1). The one expectation this server meets is
//! `100-continue`, and it meets it only for a body it would read: a body
//! announced over the limit is refused (413) before the client is invited
//! to send it. Any other expectation is refused (417). The server's
//! `Expectations` (before the invitation) and hygiene (for requests that
//! do not ask for one) both judge by [`judge`] and [`unknown`].

use actix_web::http::header::{self, HeaderMap};

use super::problem::HttpError;

/// Whether a request's expectations can be met: none, or `100-continue`
/// for a body of at most `body_limit` bytes (as `Content-Length`
/// announces it).
pub fn judge(headers: &HeaderMap, body_limit: usize) -> Result<(), HttpError> {
    unknown(headers)?;
    match announced_length(headers) {
        Some(length) if length > body_limit as u64 => Err(HttpError::payload_too_large(body_limit)),
        _ => Ok(()),
    }
}

/// The body's length as its `Content-Length` announces it (actix-http has
/// checked the header, and reads the body by it).
pub fn announced_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok())
}

/// An expectation other than `100-continue`, in any `Expect` line (the
/// members of a list are compared without case, empty ones skipped).
pub fn unknown(headers: &HeaderMap) -> Result<(), HttpError> {
    for line in headers.get_all(header::EXPECT) {
        let members = line.as_bytes().split(|&b| b == b',');
        for member in members.map(<[u8]>::trim_ascii) {
            if !member.is_empty() && !member.eq_ignore_ascii_case(b"100-continue") {
                let shown = String::from_utf8_lossy(member);
                let shown: String = shown.chars().take(40).collect();
                return Err(HttpError::expectation_failed(shown));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use actix_web::http::header::{HeaderName, HeaderValue};

    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(
                HeaderName::from_bytes(name.as_bytes()).unwrap(),
                HeaderValue::from_str(value).unwrap(),
            );
        }
        map
    }

    #[test]
    fn only_100_continue_within_the_limit_is_met() {
        let met = [
            headers(&[]),
            headers(&[("expect", "100-continue"), ("content-length", "10")]),
            headers(&[("expect", "100-Continue , "), ("content-length", "64")]),
            headers(&[("expect", "")]),
        ];
        for h in &met {
            assert!(judge(h, 64).is_ok(), "{h:?}");
        }
        let too_large = headers(&[("expect", "100-continue"), ("content-length", "1000000")]);
        assert_eq!(
            judge(&too_large, 64).unwrap_err().code(),
            "PAYLOAD_TOO_LARGE"
        );
        for unknown in [
            headers(&[("expect", "teapot")]),
            headers(&[("expect", "100-continue, teapot")]),
            headers(&[("expect", "100-continue"), ("expect", "x=1")]),
            headers(&[("expect", "101-continue")]),
        ] {
            let refused = judge(&unknown, 1 << 20).unwrap_err();
            assert_eq!(refused.code(), "EXPECTATION_FAILED", "{unknown:?}");
        }
    }
}
