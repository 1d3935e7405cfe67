//! The public server: actix's HTTP/1 service on actix's server, around
//! the application ([`crate::api::app`]), assembled here rather than by
//! actix-web's `HttpServer` for one thing `HttpServer` cannot be told: a
//! request that says `Expect: 100-continue` is judged before it is invited
//! to send its body ([`Expectations`]); and each accepted socket is read
//! through its connection's accounting ([`Guarded`]: the largest head, a
//! deadline for every head and every send), which `HttpServer`'s `.tcp()`
//! would not let in. Everything else is as `HttpServer` sets it: the
//! workers, connections per worker, a second to close a connection, no
//! half-closed connections, per-connection state, and the graceful stop
//! on SIGTERM.

use std::net::ToSocketAddrs;
use std::rc::Rc;
use std::time::Duration;

use actix_http::body::BoxBody;
use actix_http::error::DispatchError;
use actix_http::{ConnectionType, Extensions, HttpService, Request, Response};
use actix_server::Server;
use actix_service::{
    fn_service, map_config, IntoServiceFactory, ServiceFactory, ServiceFactoryExt,
};
use actix_web::dev::AppConfig;
use actix_web::rt::net::TcpStream;
use actix_web::ResponseError;

use crate::api::transport::connection::{Bounds, Guard, Guarded, Ledger};
use crate::api::transport::expect;
use crate::api::AppState;

/// How the public server runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// HTTP worker threads.
    pub workers: usize,
    /// Connections open at once, all workers together.
    pub max_connections: usize,
    /// Time a client has to send a request's head (each head of a
    /// connection).
    pub request_timeout: Duration,
    /// The largest request head, bytes.
    pub max_head_bytes: usize,
    /// Time a write to a client may make no progress.
    pub send_timeout: Duration,
    /// Grace for in-flight requests after SIGTERM, seconds.
    pub shutdown_timeout_secs: u64,
    /// The largest request body: a larger one announced with `Expect:
    /// 100-continue` is refused before it is invited.
    pub body_limit: usize,
}

/// `HttpServer`'s listen backlog, kept.
const BACKLOG: u32 = 1024;

/// The public server on `addr`, serving `state`'s application; run it
/// with `.await`.
pub fn public(
    addr: impl ToSocketAddrs,
    state: AppState,
    settings: &Settings,
) -> std::io::Result<Server> {
    let workers = settings.workers.max(1);
    let body_limit = settings.body_limit;
    let bounds = Bounds {
        max_head_bytes: settings.max_head_bytes,
        head_timeout: settings.request_timeout,
        send_timeout: settings.send_timeout,
        body_limit,
    };
    let metrics = state.metrics.clone();
    let server = Server::build()
        .workers(workers)
        .backlog(BACKLOG)
        // actix counts connections per worker.
        .max_concurrent_connections(settings.max_connections.div_ceil(workers))
        .shutdown_timeout(settings.shutdown_timeout_secs)
        .bind("tank-rules", addr, move || {
            let guard = Rc::new(Guard::new(bounds, &metrics));
            let app = crate::api::app(state.clone()).into_factory();
            let http = HttpService::build()
                // Every head's deadline is the connection's own (actix's
                // covers only the first).
                .client_request_timeout(Duration::ZERO)
                .client_disconnect_timeout(Duration::from_secs(1))
                // A client that closes its side is gone: drop its request,
                // so that a search it started stops (HTTP/1.1 clients do
                // not half-close and then wait for an answer).
                .h1_allow_half_closed(false)
                // A client that stops reading holds at most this and one
                // piece of an answer (the memory budget counts both).
                .h1_write_buffer_size(crate::memory::WRITE_BUFFER_BYTES)
                .on_connect_ext(|io: &Guarded<TcpStream>, data: &mut Extensions| {
                    data.insert(io.ledger());
                })
                .expect(Expectations { body_limit })
                .h1(map_config(app, |_| AppConfig::default()));
            fn_service(move |io: TcpStream| {
                let peer = io.peer_addr().ok();
                let guarded = Guarded::new(io, guard.clone());
                std::future::ready(Ok::<_, DispatchError>((guarded, peer)))
            })
            .and_then(http)
        })?
        .run();
    Ok(server)
}

/// Judges a request that expects `100-continue` before the server sends
/// `100 Continue`: a body announced over the limit is refused (413) and an
/// expectation the server does not know (anything but `100-continue`) is
/// refused (417), each without inviting the body; otherwise the request
/// goes on and is invited. (Requests without `100-continue` are judged by
/// the application's hygiene layer.)
#[derive(Clone, Copy, Debug)]
pub struct Expectations {
    body_limit: usize,
}

impl ServiceFactory<Request> for Expectations {
    type Response = Request;
    type Error = Response<BoxBody>;
    type Config = ();
    type Service = Expectations;
    type InitError = ();
    type Future = std::future::Ready<Result<Expectations, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        std::future::ready(Ok(*self))
    }
}

impl actix_service::Service<Request> for Expectations {
    type Response = Request;
    type Error = Response<BoxBody>;
    type Future = std::future::Ready<Result<Request, Response<BoxBody>>>;

    actix_service::always_ready!();

    fn call(&self, req: Request) -> Self::Future {
        let head = req.head();
        let verdict = expect::judge(&head.headers, self.body_limit);
        std::future::ready(match verdict {
            Ok(()) => Ok(req),
            Err(refusal) => {
                if let Some(ledger) = req.conn_data::<Ledger>() {
                    ledger.refused_unread();
                }
                // The client may send the body all the same: the
                // connection cannot carry another request.
                let mut res: Response<BoxBody> = refusal.error_response().into();
                res.head_mut().set_connection_type(ConnectionType::Close);
                Err(res)
            }
        })
    }
}
