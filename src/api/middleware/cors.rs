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

/// [`EXPOSED`] as one header value.
const EXPOSED_VALUE: &str = "etag, retry-after, allow, x-request-id, ratelimit, ratelimit-policy";

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

/// Whether a request needs the CORS middleware: one from a browser page
/// (`Origin`) or a preflight (`OPTIONS`). [`label_without_origin`] does
/// the rest's part.
pub fn needs_middleware(req: &actix_web::dev::ServiceRequest) -> bool {
    req.method() == actix_web::http::Method::OPTIONS || req.headers().contains_key(header::ORIGIN)
}

/// What the CORS middleware adds to an answer to a request without
/// `Origin`, added without it: the exposed headers. (Its `Vary` names are
/// every answer's, written last: [`crate::api::transport::vary`].)
pub fn label_without_origin(headers: &mut header::HeaderMap) {
    // Made at compile time: `from_static` checks every byte when it runs.
    const EXPOSED_HEADER: header::HeaderValue = header::HeaderValue::from_static(EXPOSED_VALUE);
    headers.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, EXPOSED_HEADER);
}

/// The CORS middleware for `origins`.
pub fn middleware(origins: &CorsOrigins) -> actix_cors::Cors {
    let cors = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST"])
        .allowed_headers(ALLOWED)
        .expose_headers(EXPOSED)
        .max_age(3600);
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

    /// What the layers write on an answer to a request without `Origin`
    /// is what actix-cors itself writes, with a `Vary` already there or
    /// not, for either policy, once every answer's `Vary` is written.
    #[actix_web::test]
    async fn answers_without_origin_are_labelled_as_actix_cors_labels_them() {
        use actix_web::{test, web, App, HttpResponse};
        let policies = [
            CorsOrigins::Any,
            CorsOrigins::List(vec!["https://a.example".to_owned()]),
        ];
        for policy in policies {
            for vary in [None, Some("accept-encoding")] {
                let app = test::init_service(App::new().wrap(middleware(&policy)).route(
                    "/",
                    web::get().to(move || async move {
                        let mut answer = HttpResponse::Ok();
                        if let Some(vary) = vary {
                            answer.insert_header((header::VARY, vary));
                        }
                        answer.finish()
                    }),
                ))
                .await;
                let mut theirs =
                    test::call_service(&app, test::TestRequest::get().to_request()).await;
                crate::api::transport::vary::write(theirs.headers_mut(), true);
                let mut ours = header::HeaderMap::new();
                if let Some(vary) = vary {
                    ours.insert(header::VARY, header::HeaderValue::from_static(vary));
                }
                label_without_origin(&mut ours);
                crate::api::transport::vary::write(&mut ours, true);
                // actix-cors lists the exposed headers in a hash set's
                // order, which changes from process to process: compared
                // as sets.
                let tokens = |map: &header::HeaderMap, name: &header::HeaderName| {
                    let mut tokens: Vec<String> = map
                        .get_all(name)
                        .flat_map(|v| v.to_str().unwrap_or_default().split(", "))
                        .map(str::to_owned)
                        .collect();
                    if *name == header::ACCESS_CONTROL_EXPOSE_HEADERS {
                        tokens.sort();
                    }
                    tokens
                };
                for name in [header::VARY, header::ACCESS_CONTROL_EXPOSE_HEADERS] {
                    let theirs = tokens(theirs.headers(), &name);
                    assert!(!theirs.is_empty(), "{name}");
                    assert_eq!(tokens(&ours, &name), theirs, "{policy:?}, {vary:?}: {name}");
                }
            }
        }
    }
}
