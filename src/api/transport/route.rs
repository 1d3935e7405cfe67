//! What a request matched, decided once. The resource actix routes a
//! request to tags it with that route's [`Route`] (in the request's
//! extensions, where actix keeps what a layer learns of a request; see
//! [`crate::api::openapi::resource`]): its name and the quota it spends. Everything that classifies
//! a request reads the tag — fair use (whether a key is needed, which
//! quota), the request metrics, the access log and the debug span — and
//! never the path, so a path written another way (`/%761/…`, `ai%2Dmove`)
//! is the route actix found, or no route at all.

use std::rc::Rc;

use actix_web::HttpMessage;

use crate::limits::Limits;
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
    /// Who may come in, and whether it spends at the door.
    pub entry: Entry,
    /// The query parameters it declares (unknown ones are refused).
    pub query: Box<[Box<str>]>,
}

/// Who may come in at a route's door, where keys are configured.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// Every client, spending nothing (the operator endpoints: `/healthz`,
    /// `/readyz`, `/metrics`).
    Open,
    /// A client with a key, spending the operation's price (one request
    /// for a route that is no operation).
    Priced,
    /// Any client, spending one request: one without a key is counted by
    /// its address (a page's files, which a browser loads without the key
    /// the page asks for).
    Keyless,
}

impl Route {
    /// What a request of this route spends at the door under `limits` (a
    /// review's price follows the time caps); `None` for an open route.
    pub fn price(&self, limits: &Limits) -> Option<Price> {
        match (self.entry, self.operation) {
            (Entry::Open, _) => None,
            (_, Some(op)) => Some(op.price(limits)),
            (_, None) => Some(Price::REQUEST),
        }
    }

    /// Tags `req` as matching `route` (its resource's door does, once).
    pub fn tag(req: &impl HttpMessage, route: &Rc<Route>) {
        req.extensions_mut().insert(route.clone());
    }

    /// The route `req` matched, if its resource's door tagged it.
    pub fn of(req: &impl HttpMessage) -> Option<Rc<Route>> {
        req.extensions().get::<Rc<Route>>().cloned()
    }
}
