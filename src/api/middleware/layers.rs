//! Every per-request layer, run in one middleware so that a request pays
//! for one boxed future instead of one per layer, and only for the layers
//! its server and the request itself need, decided at start (quotas and
//! keys, the access log) or from the request (compression only for
//! clients that accept an encoding, actix-cors only for browser pages'
//! requests and preflights). Each concern stays in its own module; this
//! one only runs them, outermost first:
//!
//! 1. the request id ([`request_id`]) and the request's metrics
//!    ([`super::metrics`]), the access log line when it is on, and a
//!    debug span when the log asks for one;
//! 2. compression's outer half ([`compression`]) and actix's `Compress`,
//!    when the request accepts an encoding;
//! 3. hygiene ([`hygiene`]: `HEAD`, `Connection: close`, unknown query
//!    parameters, other layers' errors as problem+json), each problem
//!    naming the request id as its `instance`;
//! 4. CORS ([`super::cors`]), outside fair use so that its refusals carry
//!    CORS headers too (and preflights are answered before it);
//! 5. fair use ([`super::fair_use`]), when the server has quotas or keys,
//!    then the routes.

use std::rc::Rc;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Instant;

use actix_web::body::{BodySize, BoxBody, MessageBody};
use actix_web::dev::{Service, ServiceRequest, ServiceResponse, Transform};
use actix_web::http::header;
use actix_web::middleware::Compress;
use futures_util::future::LocalBoxFuture;
use tracing::Instrument;

use super::cors::{self, CorsOrigins};
use super::fair_use::{self, SearchRoutes};
use super::metrics::{method_label, RouteMetrics};
use crate::access_log::AccessLog;
use crate::api::transport::request_id::{self, RequestId};
use crate::api::transport::{compression, hygiene};
use crate::fair_use::FairUse;
use crate::metrics::Metrics;

/// The layers, as the server's configuration mounts them.
#[derive(Clone)]
pub struct Layers {
    pub metrics: Metrics,
    /// Quotas and keys; checked only when [`FairUse::is_active`]. Its
    /// trusted proxies also decide whose request ids and `X-Forwarded-For`
    /// are believed.
    pub fair_use: Arc<FairUse>,
    pub searches: SearchRoutes,
    pub cors: CorsOrigins,
    pub access_log: Option<AccessLog>,
    /// Whether each request runs in a DEBUG span (its id, method, route
    /// and status; the log shows its duration when it closes): decided at
    /// start from the log filter (`RUST_LOG=tank_rules::api=debug`).
    pub spans: bool,
}

/// A service shared by two callers (the plain and the compressed path).
pub struct Shared<S>(Rc<S>);

impl<S: Service<ServiceRequest>> Service<ServiceRequest> for Shared<S> {
    type Response = S::Response;
    type Error = S::Error;
    type Future = S::Future;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        self.0.call(req)
    }
}

type Routes<S> = Rc<S>;
type Compressed<S> = <Compress as Transform<Shared<Inner<S>>, ServiceRequest>>::Transform;
type WithCors<S> = Rc<actix_cors::CorsMiddleware<Guarded<S>>>;

/// Layer 5 and the routes: fair use (only when the server has quotas or
/// keys), then the routes. CORS wraps it, so that a refusal (401, 429)
/// carries the CORS headers a browser page needs to read it.
pub struct Guarded<S> {
    routes: Routes<S>,
    fair_use: Option<Rc<(Arc<FairUse>, SearchRoutes)>>,
}

impl<S> Clone for Guarded<S> {
    fn clone(&self) -> Self {
        Guarded {
            routes: self.routes.clone(),
            fair_use: self.fair_use.clone(),
        }
    }
}

impl<S, B> Guarded<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    async fn serve(
        self,
        req: ServiceRequest,
    ) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
        let verdict = match &self.fair_use {
            Some(fair_use) => {
                let (fair_use, searches) = &**fair_use;
                // Boxed: the admission's future (a Redis round trip) is
                // large, and only a server with quotas or keys makes it.
                match Box::pin(fair_use::admit(fair_use, searches, &req)).await {
                    Ok(verdict) => verdict,
                    Err(refusal) => return Ok(req.into_response(refusal)),
                }
            }
            None => None,
        };
        let mut res = self.routes.call(req).await?.map_into_boxed_body();
        if let Some(verdict) = verdict {
            fair_use::label(&mut res, verdict);
        }
        Ok(res)
    }
}

impl<S, B> Service<ServiceRequest> for Guarded<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<ServiceResponse<BoxBody>, actix_web::Error>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.routes.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        Box::pin(self.clone().serve(req))
    }
}

/// Layers 3 to 5: what runs inside compression.
pub struct Inner<S> {
    guarded: Guarded<S>,
    cors: WithCors<S>,
    /// Whether actix's `Compress` runs outside (the request accepts an
    /// encoding): then small answers are marked to stay plain.
    compressing: bool,
}

impl<S> Clone for Inner<S> {
    fn clone(&self) -> Self {
        Inner {
            guarded: self.guarded.clone(),
            cors: self.cors.clone(),
            compressing: self.compressing,
        }
    }
}

impl<S, B> Inner<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    async fn serve(
        self,
        mut req: ServiceRequest,
    ) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
        let close = match hygiene::admit(&mut req) {
            Ok(close) => close,
            Err(refusal) => return Ok(named(req.into_response(*refusal))),
        };
        let mut res = if cors::needs_middleware(&req) {
            self.cors.call(req).await?.map_into_boxed_body()
        } else {
            let mut res = if self.guarded.fair_use.is_some() {
                self.guarded.clone().serve(req).await?
            } else {
                // Without quotas or keys, straight to the routes (one
                // future fewer a request).
                self.guarded.routes.call(req).await?.map_into_boxed_body()
            };
            cors::label_without_origin(res.headers_mut());
            res
        };
        if self.compressing && res.status().is_success() {
            compression::keep_small_answers_plain(&mut res);
        }
        Ok(named(hygiene::finish(res, close).await))
    }
}

impl<S, B> Service<ServiceRequest> for Inner<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<ServiceResponse<BoxBody>, actix_web::Error>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.guarded.poll_ready(cx)
    }

    fn call(&self, req: ServiceRequest) -> Self::Future {
        Box::pin(self.clone().serve(req))
    }
}

/// An answer naming the request id as its `instance` when it is a
/// problem (only errors are).
fn named(res: ServiceResponse<BoxBody>) -> ServiceResponse<BoxBody> {
    if res.status().is_success() {
        return res;
    }
    match request_id::current_id() {
        Some(id) => request_id::name_the_instance(res, &id),
        None => res,
    }
}

/// The middleware's service: layers 1 and 2 around [`Inner`], which
/// `compressed` (actix's `Compress`) wraps too.
pub struct Outer<S, C> {
    inner: Rc<Inner<S>>,
    compressed: Rc<C>,
    metrics: Rc<RouteMetrics>,
    fair_use: Arc<FairUse>,
    access_log: Option<AccessLog>,
    spans: bool,
}

impl<S, B, C, CB> Service<ServiceRequest> for Outer<S, C>
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
    C: Service<ServiceRequest, Response = ServiceResponse<CB>, Error = actix_web::Error> + 'static,
    CB: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Future = LocalBoxFuture<'static, Result<ServiceResponse<BoxBody>, actix_web::Error>>;

    fn poll_ready(&self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&self, mut req: ServiceRequest) -> Self::Future {
        let started = Instant::now();
        let method = method_label(req.method());
        let peer = req.peer_addr().map(|addr| addr.ip());
        let id = RequestId::of(&req, self.fair_use.is_trusted_peer(peer));
        let id_header = id.header_value();
        // Only a client that accepts an encoding pays for compression.
        let compress = req.headers().contains_key(header::ACCEPT_ENCODING) && {
            compression::offer_no_brotli(&mut req);
            req.headers().contains_key(header::ACCEPT_ENCODING)
        };
        let (inner, compressed) = (self.inner.clone(), self.compressed.clone());
        let (metrics, fair_use) = (self.metrics.clone(), self.fair_use.clone());
        let access_log = self.access_log.clone();
        let spans = self.spans;
        let span = spans.then(|| request_span(&req, &id));
        let served = request_id::scope(id, async move {
            let result = if compress {
                compressed
                    .call(req)
                    .await
                    .map(ServiceResponse::map_into_boxed_body)
            } else {
                Inner::clone(&inner).serve(req).await
            };
            let seconds = started.elapsed().as_secs_f64();
            let mut res = match result {
                Ok(res) => res,
                Err(error) => {
                    let status = error.as_response_error().status_code();
                    metrics.observe_unmatched(method, status, seconds);
                    return Err(error);
                }
            };
            compression::finish(&mut res, compress);
            if spans {
                tracing::Span::current().record("status", res.status().as_u16());
            }
            metrics.observe(res.request(), method, res.status(), seconds);
            if let Some(log) = access_log {
                let id = id_header.to_str().unwrap_or("-");
                log.log(access_line(&res, method, started, &fair_use, id));
            }
            res.headers_mut().insert(request_id::HEADER, id_header);
            Ok(res)
        });
        match span {
            Some(span) => Box::pin(served.instrument(span)),
            None => Box::pin(served),
        }
    }
}

/// A request's DEBUG span, its status recorded when it is answered.
fn request_span(req: &ServiceRequest, id: &RequestId) -> tracing::Span {
    tracing::debug_span!(
        target: "tank_rules::api",
        "request",
        request_id = %id,
        method = %req.method(),
        route = req.match_pattern().as_deref().unwrap_or("UNMATCHED"),
        status = tracing::field::Empty,
    )
}

/// One access log line: JSON with the method, route pattern, status,
/// answer bytes (null when streamed), µs, client address and request id.
fn access_line(
    res: &ServiceResponse<BoxBody>,
    method: &str,
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
    let route = req.match_pattern();
    let line = Line {
        method,
        route: route.as_deref().unwrap_or("UNMATCHED"),
        status: res.status().as_u16(),
        bytes,
        us: started.elapsed().as_micros() as u64,
        client: fair_use.address(req.peer_addr().map(|a| a.ip()), forwarded),
        request_id: id,
    };
    serde_json::to_string(&line).unwrap_or_default()
}

impl<S, B> Transform<S, ServiceRequest> for Layers
where
    S: Service<ServiceRequest, Response = ServiceResponse<B>, Error = actix_web::Error> + 'static,
    B: MessageBody + 'static,
{
    type Response = ServiceResponse<BoxBody>;
    type Error = actix_web::Error;
    type Transform = Outer<S, Compressed<S>>;
    type InitError = ();
    type Future = LocalBoxFuture<'static, Result<Self::Transform, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        let guarded = Guarded {
            routes: Rc::new(service),
            fair_use: self
                .fair_use
                .is_active()
                .then(|| Rc::new((self.fair_use.clone(), self.searches.clone()))),
        };
        let cors = cors::middleware(&self.cors).new_transform(guarded.clone());
        let layers = self.clone();
        Box::pin(async move {
            let inner = Inner {
                guarded,
                cors: Rc::new(cors.await?),
                compressing: false,
            };
            let compressed = Compress::default()
                .new_transform(Shared(Rc::new(Inner {
                    compressing: true,
                    ..inner.clone()
                })))
                .await?;
            let inner = Rc::new(inner);
            Ok(Outer {
                inner,
                compressed: Rc::new(compressed),
                metrics: Rc::new(RouteMetrics::new(layers.metrics)),
                fair_use: layers.fair_use,
                access_log: layers.access_log,
                spans: layers.spans,
            })
        })
    }
}
