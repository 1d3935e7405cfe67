//! What a request matched, decided once. The router that finds a
//! request's route tags the request with that route's [`Route`]: its
//! name and the quota it spends. Everything that classifies a request
//! reads the tag — fair use (whether a key is needed, which quota), the
//! request metrics, the access log and the debug span — and never the
//! path, so a path written another way (`/%761/…`, `ai%2Dmove`) is the
//! route the router found, or no route at all.

use std::rc::Rc;

use actix_web::dev::ServiceRequest;
use actix_web::{HttpMessage, HttpRequest};

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
    /// The query parameters it declares (unknown ones are refused).
    pub query: Box<[Box<str>]>,
}

/// The tag: the route the router matched.
#[derive(Clone)]
struct Matched(Rc<Route>);

impl Route {
    /// Tags `req` as matching `route` (the router does, once).
    pub fn tag(req: &ServiceRequest, route: &Rc<Route>) {
        req.extensions_mut().insert(Matched(route.clone()));
    }

    /// The route `req` matched, if a router tagged it.
    pub fn of(req: &HttpRequest) -> Option<Rc<Route>> {
        req.extensions().get::<Matched>().map(|m| m.0.clone())
    }
}
