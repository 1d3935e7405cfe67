//! The public server: actix's HTTP/1 service on actix's server, around
//! the application ([`crate::api::app`]), assembled here rather than by
//! actix-web's `HttpServer` for three settings `HttpServer` cannot be
//! given: a request that says `Expect: 100-continue` is judged before it
//! is invited to send its body ([`Expectations`]); a client that closes
//! its side is gone (`h1_allow_half_closed(false)`), so that a search it
//! started stops; and a connection's write buffer is bounded
//! (`h1_write_buffer_size`), which the memory budget counts. Everything
//! else is as `HttpServer` sets it: the workers, connections per worker,
//! the listen backlog, a deadline for the first head, a second to close a
//! connection, and the graceful stop on SIGTERM.
//!
//! What actix does not bound is the proxy's (deploy/README.md): a head cap
//! smaller than actix-http's 128 KiB, a deadline for every head of a
//! kept-alive connection and for every body, a send deadline. The bare
//! server's memory stays bounded without it: at most `max_connections`
//! connections, each holding at most actix-http's head buffer
//! ([`crate::memory::per_connection_bytes`]).

use std::net::ToSocketAddrs;
use std::time::Duration;

use actix_http::body::BoxBody;
use actix_http::{ConnectionType, Extensions, HttpService, Request, Response};
use actix_server::Server;
use actix_service::{map_config, IntoServiceFactory, ServiceFactory};
use actix_web::dev::AppConfig;
use actix_web::rt::net::TcpStream;
use actix_web::HttpResponse;

use crate::api::transport::{expect, hygiene, problem};
use crate::api::AppState;
use crate::i18n::Lang;

/// How the public server runs.
#[derive(Clone, Debug)]
pub struct Settings {
    /// HTTP worker threads.
    pub workers: usize,
    /// Connections open at once, all workers together.
    pub max_connections: usize,
    /// Time a client has to send a connection's first request head.
    pub request_timeout: Duration,
    /// Grace for in-flight requests after SIGTERM, seconds.
    pub shutdown_timeout_secs: u64,
    /// The largest request body: a larger one announced with `Expect:
    /// 100-continue` is refused before it is invited.
    pub body_limit: usize,
}

/// The listen backlog: connections past the connection cap wait in the
/// kernel's queue (its memory, not the process's) rather than being
/// dropped; Linux caps it at `net.core.somaxconn` (4096 by default).
const BACKLOG: u32 = 4096;

/// The public server on `addr`, serving `state`'s application; run it
/// with `.await`.
pub fn public(
    addr: impl ToSocketAddrs,
    state: AppState,
    settings: &Settings,
) -> std::io::Result<Server> {
    let workers = settings.workers.max(1);
    let body_limit = settings.body_limit;
    let request_timeout = settings.request_timeout;
    let server = Server::build()
        .workers(workers)
        .backlog(BACKLOG)
        // actix counts connections per worker.
        .max_concurrent_connections(settings.max_connections.div_ceil(workers))
        .shutdown_timeout(settings.shutdown_timeout_secs)
        .bind("tank-rules", addr, move || {
            let app = crate::api::app(state.clone()).into_factory();
            HttpService::build()
                .client_request_timeout(request_timeout)
                .client_disconnect_timeout(Duration::from_secs(1))
                // A client that closes its side is gone: drop its request,
                // so that a search it started stops (HTTP/1.1 clients do
                // not half-close and then wait for an answer).
                .h1_allow_half_closed(false)
                // A client that stops reading holds at most this and one
                // piece of an answer (the memory budget counts both).
                .h1_write_buffer_size(crate::memory::WRITE_BUFFER_BYTES)
                // What each connection keeps for the application.
                .on_connect_ext(|_: &TcpStream, data: &mut Extensions| {
                    data.insert(hygiene::Closing::default());
                })
                .expect(Expectations { body_limit })
                .h1(map_config(app, |_| AppConfig::default()))
                .tcp()
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
                // The client may send the body all the same: the
                // connection cannot carry another request.
                // Refused before the application: its id and language
                // are not known yet.
                let answer = HttpResponse::from_error(refusal);
                let answer = problem::with_problem(answer, Lang::En, None);
                let mut res: Response<BoxBody> = answer.into();
                res.head_mut().set_connection_type(ConnectionType::Close);
                Err(res)
            }
        })
    }
}
