//! CORS: which browser origins may call the service, and the middleware
//! that says so. Simple and preflighted GET and POST requests with JSON
//! bodies; the caching and retry headers are exposed. A request from
//! another origin is still answered, without CORS headers, so the browser
//! refuses it while other clients work as before. actix-cors serves the
//! requests from browser pages and preflights; the answers to the others
//! get the same headers from [`label_without_origin`], without its cost.

use std::str::FromStr;

use actix_web::http::header;

use super::fair_use;
use crate::api::transport::request_id;

/// Which browser origins may call the service (CORS).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CorsOrigins {
    /// Any origin: the service is stateless and takes no credentials.
    #[default]
    Any,
    /// Only these origins (scheme, host and port, e.g. `https://example.com`).
    List(Vec<String>),
}

impl FromStr for CorsOrigins {
    type Err = String;

    /// `*`, or a comma-separated list of origins.
    fn from_str(text: &str) -> Result<CorsOrigins, String> {
        let origins: Vec<&str> = text
            .split(',')
            .map(str::trim)
            .filter(|o| !o.is_empty())
            .collect();
        if origins.is_empty() || origins.contains(&"*") {
            return Ok(CorsOrigins::Any);
        }
        for origin in &origins {
            let uri: actix_web::http::Uri = origin
                .parse()
                .map_err(|e| format!("CORS origin {origin:?}: {e}"))?;
            let bare =
                uri.path_and_query().is_none_or(|p| p.as_str() == "/") && !origin.ends_with('/');
            if uri.scheme().is_none() || uri.host().is_none() || !bare {
                return Err(format!(
                    "CORS origin {origin:?} must be a scheme and host, like https://example.com"
                ));
            }
        }
        Ok(CorsOrigins::List(
            origins.into_iter().map(str::to_owned).collect(),
        ))
    }
}

/// The headers answers expose to browsers' scripts: caching, retrying,
/// the request id (for a support request) and what is left of a quota.
const EXPOSED: [header::HeaderName; 6] = [
    header::ETAG,
    header::RETRY_AFTER,
    header::ALLOW,
    request_id::HEADER,
    fair_use::STATE,
    fair_use::POLICY,
];

/// The request headers a browser page may send: JSON, conditional
/// requests, its API key (either way) and its own request id.
const ALLOWED: [header::HeaderName; 6] = [
    header::CONTENT_TYPE,
    header::ACCEPT,
    header::IF_NONE_MATCH,
    header::AUTHORIZATION,
    header::HeaderName::from_static("x-api-key"),
    request_id::HEADER,
];

/// The CORS middleware for `origins`.
pub fn middleware(origins: &CorsOrigins) -> actix_cors::Cors {
    let cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST"])
        .allowed_headers(ALLOWED)
        .expose_headers(EXPOSED)
        .max_age(3600)
        // Every answer's `Vary` is written once, last, naming the CORS
        // request headers too: [`crate::api::transport::vary`].
        .disable_vary_header();
    match origins {
        CorsOrigins::Any => cors.allow_any_origin().send_wildcard(),
        CorsOrigins::List(list) => list
            .iter()
            .fold(cors, |cors, origin| cors.allowed_origin(origin)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cors_origins_parse() {
        assert_eq!("*".parse(), Ok(CorsOrigins::Any));
        assert_eq!("".parse(), Ok(CorsOrigins::Any));
        assert_eq!(
            "https://a.example, http://localhost:3000".parse(),
            Ok(CorsOrigins::List(vec![
                "https://a.example".to_owned(),
                "http://localhost:3000".to_owned()
            ]))
        );
        for bad in [
            "a.example",
            "https://a.example/path",
            "https://a.example/",
            "::",
        ] {
            assert!(bad.parse::<CorsOrigins>().is_err(), "{bad}");
        }
    }
}
