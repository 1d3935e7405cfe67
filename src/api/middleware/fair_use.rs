//! Fair use, for the routes that spend a quota: who a request is from and
//! whether its quotas allow it (the rules are [`crate::fair_use`]'s),
//! answered as 401 or 429 problems with `RateLimit` headers. Run by the
//! door of the resource actix matched ([`crate::api::openapi::resource`]),
//! only when the server has quotas or keys.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::StatusCode;
use actix_web::HttpMessage;

use crate::api::transport::problem::HttpError;
use crate::api::transport::problem::WorkDone;
use crate::api::transport::request_id::Asked;
use crate::error::RequestError;
use crate::fair_use::{
    policy_field, presented_key, state_field, Class, Client, FairUse, Unidentified, Verdict,
};
use crate::operations::Price;

/// The answer's quota policy (draft-ietf-httpapi-ratelimit-headers).
pub const POLICY: header::HeaderName = header::HeaderName::from_static("ratelimit-policy");
/// The answer's quota state.
pub const STATE: header::HeaderName = header::HeaderName::from_static("ratelimit");

/// What the routes' doors admit by: fair use (when it is active) and the
/// limits the routes' prices follow (a review's price follows the time
/// caps). The application holds one in its data.
#[derive(Clone)]
pub struct Admission {
    pub fair_use: Arc<FairUse>,
    pub limits: crate::limits::Limits,
}

/// What a request has spent of its client's quotas: who the client is,
/// and the last verdict of each quota it spent (the door's, then a
/// batch's items', each after what was given back), which its answer's
/// `RateLimit` headers say. Fair use puts it in the request's
/// extensions; a batch spends its items through it.
#[derive(Clone)]
pub struct Tab(Rc<Spent>);

struct Spent {
    fair_use: Arc<FairUse>,
    client: Client,
    /// The last verdict of each class, by its place in [`Class`].
    verdicts: RefCell<[Option<Verdict>; 2]>,
}

impl Tab {
    /// Spends `units` of the client's `class` quota: the refusal when it
    /// refuses (429, or 400 for a price over the whole quota).
    pub async fn spend(&self, class: Class, units: u32) -> Result<(), RequestError> {
        if units == 0 {
            return Ok(());
        }
        let verdict = self.0.fair_use.check(&self.0.client, class, units).await;
        let refused = verdict.refusal();
        if refused.is_none() {
            self.0.verdicts.borrow_mut()[class as usize] = Some(verdict);
        }
        refused.map_or(Ok(()), Err)
    }

    /// Gives back `units` of the client's `class` quota, spent on work
    /// that never ran (the request, or an item, answered 503).
    pub async fn refund(&self, class: Class, units: u32) {
        if units == 0 {
            return;
        }
        self.0.fair_use.refund(&self.0.client, class, units).await;
        if let Some(verdict) = &mut self.0.verdicts.borrow_mut()[class as usize] {
            *verdict = verdict.refunded(units);
        }
    }

    /// The verdicts to say, one a quota spent.
    fn verdicts(&self) -> Vec<Verdict> {
        self.0.verdicts.borrow().iter().flatten().cloned().collect()
    }
}

/// The request's tab, where fair use put it (an `Option<Tab>` is `None`
/// on a server without quotas or keys).
impl actix_web::FromRequest for Tab {
    type Error = actix_web::Error;
    type Future = std::future::Ready<Result<Tab, actix_web::Error>>;

    fn from_request(req: &actix_web::HttpRequest, _: &mut actix_web::dev::Payload) -> Self::Future {
        let tab = req.extensions().get::<Tab>().cloned();
        std::future::ready(tab.ok_or_else(|| {
            actix_web::error::ErrorInternalServerError("the request passed no fair use")
        }))
    }
}

/// Fair use, for a route that costs `price` at the door (its resource's
/// classification, [`crate::api::transport::route::Route`], from
/// [`crate::operations`]), when the server has quotas or keys: identifies
/// the client (its API key when keys are configured: none or an unknown
/// one is 401), spends `price` of its quota (a batch then spends its
/// items' when it is read); the refusal when it refuses (401; 429 over the
/// quota; 400 for a price over the whole quota), else the request's
/// [`Tab`], put in its extensions too.
pub async fn admit(
    fair_use: &Arc<FairUse>,
    price: Price,
    keyless: bool,
    req: &ServiceRequest,
) -> Result<Tab, RequestError> {
    let header = |name: &str| req.headers().get(name).map(HeaderValue::as_bytes);
    let key = presented_key(header("x-api-key"), header("authorization"));
    let peer = req.peer_addr().map(|addr| addr.ip());
    let forwarded_for = || {
        req.headers()
            .get_all("x-forwarded-for")
            .map(HeaderValue::as_bytes)
    };
    let client = match fair_use.identify(peer, forwarded_for(), key) {
        Ok(client) => client,
        Err(Unidentified::MissingKey) if keyless => {
            Client::Address(fair_use.address(peer, forwarded_for()))
        }
        // 401, or 429 for too many wrong keys.
        Err(why) => return Err(why.refusal()),
    };
    let tab = Tab(Rc::new(Spent {
        fair_use: fair_use.clone(),
        client,
        verdicts: RefCell::new([None, None]),
    }));
    if let Err(refused) = tab.spend(price.class, price.units).await {
        tracing::debug!(
            request_id = %Asked::of(req.request()).id,
            client = %fair_use.name(&tab.0.client),
            class = price.class.name(),
            price = price.units,
            "over quota"
        );
        return Err(refused);
    }
    req.extensions_mut().insert(tab.clone());
    Ok(tab)
}

/// `req` through fair use (its client's quota, spending `price` at the
/// door), then `service`. A 503 costs nothing: no work ran, so the door's
/// price is given back. The answer says what is left of each quota the
/// request spent, unless a refusal from inside (a batch over its search
/// quota) named its own.
pub async fn admitted<S>(
    fair_use: Arc<FairUse>,
    price: Price,
    keyless: bool,
    service: &S,
    req: ServiceRequest,
) -> Result<ServiceResponse, actix_web::Error>
where
    S: actix_web::dev::Service<
        ServiceRequest,
        Response = ServiceResponse,
        Error = actix_web::Error,
    >,
{
    let tab = match admit(&fair_use, price, keyless, &req).await {
        Ok(tab) => tab,
        Err(refusal) => return Ok(req.error_response(HttpError::from(refusal))),
    };
    let mut res = service.call(req).await?;
    let work_done = res.response().extensions().contains::<WorkDone>();
    if res.status() == StatusCode::SERVICE_UNAVAILABLE && !work_done {
        tab.refund(price.class, price.units).await;
    }
    label(&mut res, &tab);
    Ok(res)
}

/// Says in the `RateLimit` headers what is left of each quota the request
/// spent (a list when a batch spent both), unless a refusal from inside
/// (a batch over its search quota) named its own.
fn label<B>(res: &mut ServiceResponse<B>, tab: &Tab) {
    if res.headers().contains_key(POLICY) {
        return;
    }
    let (mut policies, mut states) = (Vec::new(), Vec::new());
    for verdict in tab.verdicts() {
        let Verdict::Allowed {
            policy,
            remaining,
            reset,
        } = verdict
        else {
            continue;
        };
        let name = policy.class.name();
        policies.push(policy_field(name, policy.quota, policy.window.as_secs()));
        states.push(state_field(
            name,
            remaining,
            reset.as_secs_f64().ceil() as u64,
        ));
    }
    if policies.is_empty() {
        return;
    }
    let headers = res.headers_mut();
    if let Ok(value) = HeaderValue::from_str(&policies.join(", ")) {
        headers.insert(POLICY, value);
    }
    if let Ok(value) = HeaderValue::from_str(&states.join(", ")) {
        headers.insert(STATE, value);
    }
}
