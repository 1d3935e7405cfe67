//! The answer's `Vary`, written once, last: every answer varies with the
//! CORS request headers (as actix-cors says, on answers to requests with
//! `Origin` or without) and with `Accept-Language` (its texts), and a
//! successful one with `Accept-Encoding` (compressed or not). An answer
//! that no layer gave a `Vary` (nearly all: no `Origin`, not compressed)
//! gets one static header line; one that actix-cors or actix's
//! `Compress` labelled gets one line too: their names, then ours that
//! they did not list.

use actix_web::http::header::{self, HeaderMap, HeaderValue};

/// The names every answer varies with, in the order they are listed.
const EVERY_ANSWER: [&str; 4] = [
    "Origin",
    "Access-Control-Request-Method",
    "Access-Control-Request-Headers",
    "Accept-Language",
];

/// The name a successful answer varies with too.
const SUCCESS: &str = "Accept-Encoding";

/// [`EVERY_ANSWER`] as one value.
const EVERY_ANSWER_VALUE: &str =
    "Origin, Access-Control-Request-Method, Access-Control-Request-Headers, Accept-Language";

/// [`EVERY_ANSWER`] and [`SUCCESS`] as one value.
const SUCCESS_VALUE: &str = "Origin, Access-Control-Request-Method, Access-Control-Request-Headers, Accept-Language, Accept-Encoding";

/// Writes the answer's `Vary` (`success`: whether its status is 2xx).
pub fn write(headers: &mut HeaderMap, success: bool) {
    if !headers.contains_key(header::VARY) {
        // Made at compile time (`from_static` checks every byte when it
        // runs: 1,100 instructions an answer, measured).
        const SUCCESS_HEADER: HeaderValue = HeaderValue::from_static(SUCCESS_VALUE);
        const EVERY_ANSWER_HEADER: HeaderValue = HeaderValue::from_static(EVERY_ANSWER_VALUE);
        let value = if success {
            SUCCESS_HEADER
        } else {
            EVERY_ANSWER_HEADER
        };
        headers.insert(header::VARY, value);
        return;
    }
    let mut value: Vec<u8> = Vec::with_capacity(SUCCESS_VALUE.len() + 32);
    for listed in headers.get_all(header::VARY) {
        let listed = listed.as_bytes().trim_ascii();
        if listed.is_empty() {
            continue;
        }
        if !value.is_empty() {
            value.extend_from_slice(b", ");
        }
        value.extend_from_slice(listed);
    }
    let ours = EVERY_ANSWER.iter().chain(success.then_some(&SUCCESS));
    for name in ours {
        if !names(&value, name.as_bytes()) {
            if !value.is_empty() {
                value.extend_from_slice(b", ");
            }
            value.extend_from_slice(name.as_bytes());
        }
    }
    // Every byte came from a header value or a constant: always valid.
    if let Ok(value) = HeaderValue::from_bytes(&value) {
        headers.insert(header::VARY, value);
    }
}

/// Whether a `Vary` value lists `name` (in any case).
fn names(value: &[u8], name: &[u8]) -> bool {
    value
        .split(|&b| b == b',')
        .any(|listed| listed.trim_ascii().eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vary(headers: &HeaderMap) -> Vec<&str> {
        headers
            .get_all(header::VARY)
            .map(|v| v.to_str().unwrap())
            .collect()
    }

    #[test]
    fn the_static_values_are_the_lists() {
        assert_eq!(EVERY_ANSWER_VALUE, EVERY_ANSWER.join(", "));
        assert_eq!(SUCCESS_VALUE, format!("{EVERY_ANSWER_VALUE}, {SUCCESS}"));
    }

    #[test]
    fn an_answer_without_vary_gets_one_line() {
        for (success, expected) in [(true, SUCCESS_VALUE), (false, EVERY_ANSWER_VALUE)] {
            let mut headers = HeaderMap::new();
            write(&mut headers, success);
            assert_eq!(vary(&headers), [expected]);
        }
    }

    #[test]
    fn names_already_listed_are_kept_once_in_one_line() {
        let mut headers = HeaderMap::new();
        headers.append(header::VARY, HeaderValue::from_static("accept-encoding"));
        headers.append(
            header::VARY,
            HeaderValue::from_static("Origin,Access-Control-Request-Method, Accept"),
        );
        write(&mut headers, true);
        assert_eq!(
            vary(&headers),
            [
                "accept-encoding, Origin,Access-Control-Request-Method, Accept, \
              Access-Control-Request-Headers, Accept-Language"
            ]
        );
        let mut headers = HeaderMap::new();
        headers.append(header::VARY, HeaderValue::from_static("Origin"));
        write(&mut headers, false);
        assert_eq!(vary(&headers), [EVERY_ANSWER_VALUE]);
    }

    #[test]
    fn finds_a_name_among_the_names_listed() {
        for yes in [
            &b"accept-encoding"[..],
            b"Accept-Encoding",
            b"Origin, accept-encoding",
            b"Origin,Accept-Encoding, Accept",
        ] {
            assert!(
                names(yes, b"accept-encoding"),
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
                !names(no, b"accept-encoding"),
                "{}",
                String::from_utf8_lossy(no)
            );
        }
    }
}
