//! Request metrics: each request's time recorded under its route pattern
//! (requests no route matched share the label `UNMATCHED`), method and
//! status, in [`crate::metrics::Metrics`] (timed by [`super::layers`]).

use std::cell::RefCell;

use actix_web::http::{Method, StatusCode};
use actix_web::HttpRequest;

use crate::metrics::{Metrics, RequestSeries};

/// The method as a label: the standard ones by name, anything else (HTTP
/// allows any token) as `OTHER`, so clients cannot grow the label set.
pub fn method_label(method: &Method) -> &'static str {
    [
        Method::GET,
        Method::POST,
        Method::HEAD,
        Method::OPTIONS,
        Method::PUT,
        Method::DELETE,
        Method::PATCH,
    ]
    .iter()
    .find(|m| *m == method)
    .map_or("OTHER", |m| match *m {
        Method::GET => "GET",
        Method::POST => "POST",
        Method::HEAD => "HEAD",
        Method::OPTIONS => "OPTIONS",
        Method::PUT => "PUT",
        Method::DELETE => "DELETE",
        _ => "PATCH",
    })
}

/// Paths whose series one worker remembers: every route's (they have no
/// path parameters) with room to spare; past it (Swagger UI's files)
/// the series are looked up each time.
const MAX_PATHS: usize = 256;

/// Series one path remembers, by method and status: a route answers few.
const MAX_SERIES_PER_PATH: usize = 32;

/// The request metrics of one worker: each path's route pattern and
/// series, looked up on its first request and remembered (no lock: a
/// worker is one thread), so that recording a request is two atomic adds.
/// Requests no route matched are recorded as `UNMATCHED` and not
/// remembered, so unknown paths cannot grow it.
pub struct RouteMetrics {
    metrics: Metrics,
    /// Keyed with a fast hash: the keys are paths routes matched.
    by_path: RefCell<foldhash::HashMap<String, PathSeries>>,
}

/// One path's series, by method and status.
type PathSeries = Vec<(&'static str, u16, RequestSeries)>;

impl RouteMetrics {
    pub fn new(metrics: Metrics) -> RouteMetrics {
        RouteMetrics {
            metrics,
            by_path: RefCell::new(foldhash::HashMap::default()),
        }
    }

    /// Records one answered request.
    pub fn observe(
        &self,
        req: &HttpRequest,
        method: &'static str,
        status: StatusCode,
        seconds: f64,
    ) {
        let code = status.as_u16();
        let mut by_path = self.by_path.borrow_mut();
        let known = by_path.get_mut(req.path());
        if let Some((_, _, series)) = known
            .as_ref()
            .and_then(|known| known.iter().find(|(m, s, _)| *m == method && *s == code))
        {
            series.observe(seconds);
            return;
        }
        // First time for this path, method and status: the series, then
        // remembered where there is room (only for matched routes).
        let pattern = req.match_pattern();
        let endpoint = pattern.as_deref().unwrap_or(UNMATCHED);
        let series = self
            .metrics
            .request_series(endpoint, method, status.as_str());
        series.observe(seconds);
        if let Some(known) = known {
            if known.len() < MAX_SERIES_PER_PATH {
                known.push((method, code, series));
            }
        } else if pattern.is_some() && by_path.len() < MAX_PATHS {
            by_path.insert(req.path().to_owned(), vec![(method, code, series)]);
        }
    }

    /// Records a request that ended in an error no layer answered.
    pub fn observe_unmatched(&self, method: &'static str, status: StatusCode, seconds: f64) {
        self.metrics
            .observe_request(UNMATCHED, method, status.as_str(), seconds);
    }
}

/// The label of requests no route matched.
const UNMATCHED: &str = "UNMATCHED";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_outside_the_standard_ones_share_a_label() {
        assert_eq!(method_label(&Method::GET), "GET");
        assert_eq!(method_label(&Method::PATCH), "PATCH");
        let odd = Method::from_bytes(b"BREW").unwrap();
        assert_eq!(method_label(&odd), "OTHER");
    }
}
