//! What a request matched, decided once. The router that finds a
//! request's route tags the request with that route's [`Route`] (in the
//! request's extensions, where actix keeps what a layer learns of a
//! request): its name and the quota it spends. Everything that classifies
//! a request reads the tag — fair use (whether a key is needed, which
//! quota), the request metrics, the access log and the debug span — and
//! never the path, so a path written another way (`/%761/…`, `ai%2Dmove`)
//! is the route the router found, or no route at all.

use std::rc::Rc;

use actix_web::HttpMessage;

use crate::operations::{Operation, Price};

/// A route, as every layer that classifies a request sees it.
#[derive(Debug, PartialEq, Eq)]
pub struct Route {
    /// Its pattern (`/v1/tank-battle/ai-move`): its name in the metrics,
    /// the access log and the debug span.
    pub name: Box<str>,
    /// The game's operation it is, if it is one
    /// ([`crate::operations`]).
    pub operation: Option<Operation>,
    /// What it spends at the door, and so whether it needs an API key when
    /// keys are configured; `None` for the operator endpoints
    /// (`/healthz`, `/readyz`, `/metrics`), which are open.
    pub price: Option<Price>,
    /// Whether a client may come without a key where keys are configured:
    /// counted by its address (a page's files, which a browser loads
    /// without the key the page asks for).
    pub keyless: bool,
    /// The query parameters it declares (unknown ones are refused).
    pub query: Box<[Box<str>]>,
}

impl Route {
    /// Tags `req` as matching `route` (the router does, once).
    pub fn tag(req: &impl HttpMessage, route: &Rc<Route>) {
        req.extensions_mut().insert(route.clone());
    }

    /// The route `req` matched, if a router tagged it.
    pub fn of(req: &impl HttpMessage) -> Option<Rc<Route>> {
        req.extensions().get::<Rc<Route>>().cloned()
    }
}
