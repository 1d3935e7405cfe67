//! Request metrics: times each request and records it under its route
//! pattern (requests no route matched share the label `UNMATCHED`), method
//! and status, in [`crate::metrics::Metrics`].

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web;

use crate::metrics::Metrics;

/// The method as a label: the standard ones by name, anything else (HTTP
/// allows any token) as `OTHER`, so clients cannot grow the label set.
fn method_label(method: &Method) -> &'static str {
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

/// The middleware.
pub async fn track_requests(
    request: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let metrics = request.app_data::<web::Data<Metrics>>().cloned();
    let method = request.method().clone();
    let started = Instant::now();
    let result = next.call(request).await;
    if let Some(metrics) = metrics {
        let seconds = started.elapsed().as_secs_f64();
        match &result {
            Ok(response) => {
                let pattern = response.request().match_pattern();
                let endpoint = pattern.as_deref().unwrap_or("UNMATCHED");
                metrics.observe_request(
                    endpoint,
                    method_label(&method),
                    response.status().as_str(),
                    seconds,
                );
            }
            Err(error) => {
                let status = error.as_response_error().status_code();
                metrics.observe_request(
                    "UNMATCHED",
                    method_label(&method),
                    status.as_str(),
                    seconds,
                );
            }
        }
    }
    result
}

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
