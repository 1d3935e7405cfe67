//! The per-request layers, as one `.wrap()` stack ([`Layers::around`]),
//! outermost first:
//!
//! 1. [`Accounting`]: the request id ([`request_id`]) and the request's
//!    metrics ([`super::metrics`]), the access log line when it is on,
//!    and a debug span when the log asks for one; the answer's `Vary`
//!    ([`vary`]) and compression's outer half ([`compression::finish`]);
//! 2. actix's `Compress` (gzip, zstd), for a request that accepts an
//!    encoding ([`CompressAccepted`]);
//! 3. [`hygiene_layer`] ([`hygiene`]: `HEAD`, `Connection: close`,
//!    expectations, other layers' errors as problem+json), every
//!    problem's body written ([`problem::write`]: in the language the
//!    request asked for, naming its id, both in its extensions since
//!    layer 1), each answer saying its language ([`super::language`]);
//! 4. actix-cors ([`super::cors`]), then the routes. Fair use
//!    ([`super::fair_use`]) runs at the door of the resource actix matched
//!    (see [`crate::api::openapi::resource`]), inside CORS, so that its
//!    refusals carry CORS headers too (and preflights are answered before
//!    it).
//!
//! The metrics, the access log line and the debug span name a request by
//! the route actix matched ([`Route`]), never by its path.

use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use actix_http::encoding::Encoder;
use actix_web::body::{BodySize, BoxBody, EitherBody, MessageBody};
use actix_web::dev::{Service, ServiceFactory, ServiceRequest, ServiceResponse, Transform};
use actix_web::error::InternalError;
use actix_web::http::header;
use actix_web::middleware::{from_fn, Compress, Next};
use actix_web::{App, HttpMessage, HttpResponse};
use futures_util::future::{Either, LocalBoxFuture, MapOk};
use futures_util::TryFutureExt;
use tracing::Instrument;

use super::cors::{self, CorsOrigins};
use super::language;
use super::metrics::{method_label, RouteMetrics};
use crate::access_log::AccessLog;
use crate::api::transport::problem;
use crate::api::transport::request_id::{self, Asked, RequestId};
use crate::api::transport::route::Route;
use crate::api::transport::{compression, hygiene, vary};
use crate::fair_use::FairUse;
use crate::metrics::Metrics;

/// The layers, as the server's configuration mounts them.
#[derive(Clone)]
pub struct Layers {
    pub metrics: Metrics,
    /// Quotas and keys (checked at the routes): its trusted proxies
    /// decide whose request ids and `X-Forwarded-For` are believed.
    pub fair_use: Arc<FairUse>,
    pub cors: CorsOrigins,
    pub access_log: Option<AccessLog>,
    /// Whether each request runs in a DEBUG span (its id, method, route
    /// and status; the log shows its duration when it closes): decided at
    /// start from the log filter (`RUST_LOG=tank_rules::api=debug`).
    pub spans: bool,
}

/// What an [`App`] is built from and builds: the service of one worker
/// (actix's own bounds, named once).
pub trait AppFactory<B>:
    ServiceFactory<
    ServiceRequest,
    Config = (),
    Response = ServiceResponse<B>,
    Error = actix_web::Error,
    InitError = (),
>
{
}

impl<B, T> AppFactory<B> for T where
    T: ServiceFactory<
        ServiceRequest,
        Config = (),
        Response = ServiceResponse<B>,
        Error = actix_web::Error,
        InitError = (),
    >
{
}

impl Layers {
    /// `app` inside the layers.
    pub fn around<T, B>(self, app: App<T>) -> App<impl AppFactory<BoxBody>>
    where
        T: AppFactory<B> + 'static,
        B: MessageBody + 'static,
    {
        let accounting = Rc::new(Accounting {
            metrics: RouteMetrics::new(self.metrics),
            fair_use: self.fair_use,
            access_log: self.access_log,
            spans: self.spans,
        });
        app.wrap(cors::middleware(&self.cors))
            .wrap(from_fn(hygiene_layer))
            .wrap(CompressAccepted)
            .wrap(from_fn(move |req, next| {
                accounted(req, next, accounting.clone())
            }))
    }
}

/// Layer 2: actix's `Compress`, run only for a request that accepts an
/// encoding. Run for the others too, it would send their answers as they
/// are, but only after wrapping each and parsing its `Content-Type`
/// (about 500 instructions an answer, a tenth of `/healthz`'s); actix's
/// `Condition` decides once, at start, not for each request.
struct CompressAccepted;

impl<S, B> Transform<S, ServiceRequest> for CompressAccepted
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<EitherBody<Encoder<B>>, B>>;
    type Error = actix_web::Error;
    type Transform = CompressingAccepted<S, Compressing<S>>;
    type InitError = ();
    type Future = LocalBoxFuture<'static, Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let plain = Rc::new(service);
        let compressed = Compress::default().new_transform(plain.clone());
        Box::pin(async move {
            Ok(CompressingAccepted {
                plain,
                compressed: compressed.await?,
            })
        })
    }
}

/// actix's `Compress` around the service the plain path shares.
type Compressing<S> = <Compress as Transform<Rc<S>, ServiceRequest>>::Transform;

/// A worker's [`CompressAccepted`]: `compressed` is actix's `Compress`
/// around `plain`.
struct CompressingAccepted<S, C> {
    plain: Rc<S>,
    compressed: C,
}

impl<S, C, B> Service<ServiceRequest> for CompressingAccepted<S, C>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    C: Service<
        ServiceRequest,
        Response = ServiceResponse<EitherBody<Encoder<B>>>,
        Error = actix_web::Error,
    >,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<EitherBody<EitherBody<Encoder<B>>, B>>;
    type Error = actix_web::Error;
    #[allow(clippy::type_complexity)]
    type Future = Either<
        MapOk<C::Future, fn(ServiceResponse<EitherBody<Encoder<B>>>) -> Self::Response>,
        MapOk<S::Future, fn(ServiceResponse<B>) -> Self::Response>,
    >;

    actix_web::dev::forward_ready!(plain);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        if req.headers().contains_key(header::ACCEPT_ENCODING) {
            let compressed: fn(_) -> _ = ServiceResponse::map_into_left_body;
            Either::Left(self.compressed.call(req).map_ok(compressed))
        } else {
            let plain: fn(_) -> _ = ServiceResponse::map_into_right_body;
            Either::Right(self.plain.call(req).map_ok(plain))
        }
    }
}

/// Layer 3: hygiene admits the request (or refuses it); the answer's
/// problem written, its language said.
async fn hygiene_layer(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let lang = Asked::lang_of(req.request());
    let close = match hygiene::admit(&mut req) {
        Ok(close) => close,
        Err(refusal) => {
            let mut res = problem::write(ServiceResponse::new(req.into_parts().0, *refusal));
            language::label(&mut res, lang);
            return Ok(res);
        }
    };
    // Whether actix's `Compress` (outside) may encode the answer: then
    // small answers are marked to stay plain.
    let compressing = req.headers().contains_key(header::ACCEPT_ENCODING);
    let mut res = next.call(req).await?.map_into_boxed_body();
    if compressing && res.status().is_success() {
        compression::keep_small_answers_plain(&mut res);
    }
    let mut res = problem::write(hygiene::finish(res, close).await);
    language::label(&mut res, lang);
    Ok(res)
}

/// What layer 1 accounts with, one a worker.
struct Accounting {
    metrics: RouteMetrics,
    fair_use: Arc<FairUse>,
    access_log: Option<AccessLog>,
    spans: bool,
}

/// Layer 1: the request accounted for (its id, its metrics and log line,
/// its span).
async fn accounted(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
    how: Rc<Accounting>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let started = Instant::now();
    // The only layer before it is actix's: the request is its own.
    hygiene::unpin_headers(req.headers_mut());
    let method = method_label(req.method());
    let peer = req.peer_addr().map(|addr| addr.ip());
    let id = RequestId::of(&req, how.fair_use.is_trusted_peer(peer));
    let id_header = id.header_value();
    let lang = language::asked(req.headers());
    let compress = req.headers().contains_key(header::ACCEPT_ENCODING);
    let span = how.spans.then(|| request_span(&req, &id));
    let asked = Asked { id, lang };
    req.extensions_mut().insert(asked.clone());
    let served = async move {
        let result = next.call(req).await;
        let seconds = started.elapsed().as_secs_f64();
        let mut res = match result {
            Ok(res) => res.map_into_boxed_body(),
            Err(error) => {
                // An error a layer inside returned rather than answered
                // (none of the service's do): answered as actix would,
                // its problem written by the one writer.
                let status = error.as_response_error().status_code();
                how.metrics.observe_unmatched(method, status, seconds);
                let answer = HttpResponse::from_error(error);
                let answer = problem::with_problem(answer, asked.lang, Some(&asked.id));
                return Err(InternalError::from_response("answered", answer).into());
            }
        };
        if compress {
            compression::finish(&mut res);
        }
        let success = res.status().is_success();
        vary::write(res.headers_mut(), success);
        let route = Route::of(res.request());
        if how.spans {
            let span = tracing::Span::current();
            span.record("status", res.status().as_u16());
            span.record("route", route_name(route.as_deref()));
        }
        how.metrics
            .observe(route.as_ref(), method, res.status(), seconds);
        if let Some(log) = &how.access_log {
            let id = id_header.to_str().unwrap_or("-");
            let name = route_name(route.as_deref());
            log.log(access_line(&res, method, name, started, &how.fair_use, id));
        }
        res.headers_mut().insert(request_id::HEADER, id_header);
        Ok(res)
    };
    match span {
        Some(span) => served.instrument(span).await,
        None => served.await,
    }
}

/// A request's DEBUG span, its status recorded when it is answered.
fn request_span(req: &ServiceRequest, id: &RequestId) -> tracing::Span {
    tracing::debug_span!(
        target: "tank_rules::api",
        "request",
        request_id = %id,
        method = %req.method(),
        route = tracing::field::Empty,
        status = tracing::field::Empty,
    )
}

/// A request's name in the logs: its route's, or `UNMATCHED` when no
/// route matched it (the fallback's 404 and 405).
fn route_name(route: Option<&Route>) -> &str {
    route.map_or(super::metrics::UNMATCHED, |route| &route.name)
}

/// One access log line: JSON with the method, route pattern, status,
/// answer bytes (null when streamed), µs, client address and request id.
fn access_line(
    res: &ServiceResponse<BoxBody>,
    method: &str,
    route: &str,
    started: Instant,
    fair_use: &FairUse,
    id: &str,
) -> String {
    #[derive(serde::Serialize)]
    struct Line<'a> {
        method: &'a str,
        route: &'a str,
        status: u16,
        bytes: Option<u64>,
        us: u64,
        client: std::net::IpAddr,
        request_id: &'a str,
    }
    let req = res.request();
    let bytes = match res.response().body().size() {
        BodySize::Sized(n) => Some(n),
        BodySize::None => Some(0),
        BodySize::Stream => None,
    };
    let forwarded = req
        .headers()
        .get_all("x-forwarded-for")
        .map(|v| v.as_bytes());
    let line = Line {
        method,
        route,
        status: res.status().as_u16(),
        bytes,
        us: started.elapsed().as_micros() as u64,
        client: fair_use.address(req.peer_addr().map(|a| a.ip()), forwarded),
        request_id: id,
    };
    serde_json::to_string(&line).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use actix_web::{test, web, App, HttpResponse};

    use super::*;
    use crate::api::transport::problem::HttpError;
    use crate::fair_use::FairUseConfig;
    use crate::text::Text;

    /// An error a layer inside returns, rather than answers, is answered
    /// as a problem all the same, written by the one writer: in the
    /// request's language, naming its id.
    #[actix_web::test]
    async fn an_error_returned_inside_is_answered_as_a_problem() {
        let layers = Layers {
            metrics: Metrics::new(),
            fair_use: Arc::new(FairUse::new(FairUseConfig::default())),
            cors: CorsOrigins::Any,
            access_log: None,
            spans: false,
        };
        let app = test::init_service(
            layers.around(
                App::new().service(
                    web::resource("/returned")
                        .wrap_fn(|_, _| async {
                            let refusal = HttpError::status(409, Text::new("detail-after-close"));
                            Err::<ServiceResponse, _>(refusal.into())
                        })
                        .to(HttpResponse::Ok),
                ),
            ),
        )
        .await;
        let req = test::TestRequest::get()
            .uri("/returned")
            .insert_header(("Accept-Language", "cs"))
            .insert_header(("X-Request-Id", "returned-1"))
            .to_request();
        let res = match test::try_call_service(&app, req).await {
            Ok(res) => res.into_parts().1,
            Err(error) => error.error_response(),
        };
        assert_eq!(res.status().as_u16(), 409);
        let body = actix_web::body::to_bytes(res.into_body()).await.unwrap();
        let problem: serde_json::Value = serde_json::from_slice(&body).unwrap();
        assert_eq!(problem["instance"], "returned-1", "{problem}");
        let czech = crate::i18n::write(crate::i18n::Lang::Cs, &Text::new("detail-after-close"));
        assert_eq!(problem["detail"], czech.as_str(), "{problem}");
    }
}
