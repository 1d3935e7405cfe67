//! Fair use, for the routes that spend a quota: who a request is from and
//! whether its quotas allow it (the rules are [`crate::fair_use`]'s),
//! answered as 401 or 429 problems with `RateLimit` headers. Run by the
//! router ([`crate::api::openapi::router`]) for the route it matched,
//! only when the server has quotas or keys.

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpMessage, HttpResponse, ResponseError};

use crate::api::transport::request_id;
use crate::fair_use::{policy_field, presented_key, state_field, FairUse, Verdict};
use crate::operations::Price;

/// The answer's quota policy (draft-ietf-httpapi-ratelimit-headers).
pub const POLICY: header::HeaderName = header::HeaderName::from_static("ratelimit-policy");
/// The answer's quota state.
pub const STATE: header::HeaderName = header::HeaderName::from_static("ratelimit");

/// Fair use, for a route that costs `price` at the door (the router's
/// classification, [`crate::api::transport::route::Route`], from
/// [`crate::operations`]), when the server has quotas or keys: identifies
/// the client (its API key when keys are configured: none or an unknown
/// one is 401), spends `price` of its quota (a batch then spends its
/// items' when it is read); the answer when it refuses (401; 429 over the
/// quota; 400 for a price over the whole quota), else the verdict, for
/// [`label`].
pub async fn admit(
    fair_use: &FairUse,
    price: Price,
    req: &ServiceRequest,
) -> Result<Verdict, HttpResponse> {
    let header = |name: &str| req.headers().get(name).map(HeaderValue::as_bytes);
    let key = presented_key(header("x-api-key"), header("authorization"));
    let peer = req.peer_addr().map(|addr| addr.ip());
    let forwarded_for = req.headers().get_all("x-forwarded-for");
    let client = match fair_use.identify(peer, forwarded_for.map(HeaderValue::as_bytes), key) {
        Ok(client) => client,
        // 401, or 429 for too many wrong keys.
        Err(why) => return Err(why.refusal().error_response()),
    };
    let verdict = fair_use.check(&client, price.class, price.units).await;
    if let Some(refused) = verdict.refusal() {
        tracing::debug!(
            request_id = %request_id::current(),
            client = %fair_use.name(&client),
            class = price.class.name(),
            price = price.units,
            "over quota"
        );
        return Err(refused.error_response());
    }
    req.extensions_mut().insert(client);
    Ok(verdict)
}

/// Says in the `RateLimit` headers what is left of the quota the request
/// spent, unless a refusal from inside (a batch over its search quota)
/// named its own.
pub fn label<B>(res: &mut ServiceResponse<B>, verdict: Verdict) {
    if res.headers().contains_key("ratelimit-policy") {
        return;
    }
    let Verdict::Allowed {
        policy,
        remaining,
        reset,
    } = verdict
    else {
        return;
    };
    let name = policy.class.name();
    let headers = res.headers_mut();
    if let Ok(value) =
        HeaderValue::from_str(&policy_field(name, policy.quota, policy.window.as_secs()))
    {
        headers.insert(POLICY, value);
    }
    if let Ok(value) = HeaderValue::from_str(&state_field(
        name,
        remaining,
        reset.as_secs_f64().ceil() as u64,
    )) {
        headers.insert(STATE, value);
    }
}
