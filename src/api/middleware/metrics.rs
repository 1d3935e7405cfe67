//! Request metrics: each request's time recorded under the name of the
//! route actix matched ([`Route`]; requests no route matched share the
//! label `UNMATCHED`), its method and status, in
//! [`crate::metrics::Metrics`] (timed by [`super::layers`]).

use std::cell::RefCell;
use std::rc::Rc;

use actix_web::http::{Method, StatusCode};

use crate::api::transport::route::Route;
use crate::metrics::{Metrics, RequestSeries};

/// The method as a label: the standard ones by name, anything else (HTTP
/// allows any token) as `OTHER`, so clients cannot grow the label set.
pub fn method_label(method: &Method) -> &'static str {
    const STANDARD: [(Method, &str); 7] = [
        (Method::GET, "GET"),
        (Method::POST, "POST"),
        (Method::HEAD, "HEAD"),
        (Method::OPTIONS, "OPTIONS"),
        (Method::PUT, "PUT"),
        (Method::DELETE, "DELETE"),
        (Method::PATCH, "PATCH"),
    ];
    STANDARD
        .iter()
        .find(|(standard, _)| standard == method)
        .map_or("OTHER", |(_, label)| *label)
}

/// Series one route remembers, by method and status: a route answers few.
const MAX_SERIES_PER_ROUTE: usize = 32;

/// The request metrics of one worker: each route's series, looked up on
/// its first request and remembered by the route (no lock: a worker is
/// one thread), so that recording a request is two atomic adds. Requests
/// no route matched are recorded as `UNMATCHED` and not remembered, so
/// unknown paths cannot grow it.
pub struct RouteMetrics {
    metrics: Metrics,
    /// By the route's address (routes live as long as the worker; each is
    /// kept here with its series).
    by_route: RefCell<foldhash::HashMap<usize, (Rc<Route>, RouteSeries)>>,
}

/// One route's series, by method and status.
type RouteSeries = Vec<(&'static str, u16, RequestSeries)>;

impl RouteMetrics {
    pub fn new(metrics: Metrics) -> RouteMetrics {
        RouteMetrics {
            metrics,
            by_route: RefCell::new(foldhash::HashMap::default()),
        }
    }

    /// Records one answered request of `route` (`None`: no route matched
    /// it).
    pub fn observe(
        &self,
        route: Option<&Rc<Route>>,
        method: &'static str,
        status: StatusCode,
        seconds: f64,
    ) {
        let Some(route) = route else {
            self.observe_unmatched(method, status, seconds);
            return;
        };
        let code = status.as_u16();
        let mut by_route = self.by_route.borrow_mut();
        let (_, known) = by_route
            .entry(Rc::as_ptr(route) as usize)
            .or_insert_with(|| (route.clone(), Vec::new()));
        if let Some((_, _, series)) = known.iter().find(|(m, s, _)| *m == method && *s == code) {
            series.observe(seconds);
            return;
        }
        // First time for this route, method and status: the series, then
        // remembered where there is room.
        let series = self
            .metrics
            .request_series(&route.name, method, status.as_str());
        series.observe(seconds);
        if known.len() < MAX_SERIES_PER_ROUTE {
            known.push((method, code, series));
        }
    }

    /// Records a request no route matched, or one that ended in an error
    /// no layer answered.
    pub fn observe_unmatched(&self, method: &'static str, status: StatusCode, seconds: f64) {
        self.metrics
            .observe_request(UNMATCHED, method, status.as_str(), seconds);
    }
}

/// The label of requests no route matched.
pub const UNMATCHED: &str = "UNMATCHED";

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
