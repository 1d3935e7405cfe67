//! Fair use, for the games' routes: who a request is from and whether its
//! quotas allow it (the rules are [`crate::fair_use`]'s), answered as 401
//! or 429 problems with `RateLimit` headers. Run by
//! [`super::layers`] only when the server has quotas or keys.

use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::{HttpMessage, HttpResponse, ResponseError};

use crate::api::transport::request_id;
use crate::fair_use::{presented_key, Class, FairUse, Verdict};

/// The paths of the routes that run searches (each game's search ops:
/// `ai-move`, and Tank Battle's `perft`): they spend the search quota.
#[derive(Clone, Debug, Default)]
pub struct SearchRoutes(Vec<String>);

impl SearchRoutes {
    pub fn new(paths: Vec<String>) -> SearchRoutes {
        SearchRoutes(paths)
    }

    fn contains(&self, path: &str) -> bool {
        self.0.iter().any(|route| route == path)
    }
}

/// Fair use, for the games' routes (`/v1/…`), when the server has quotas
/// or keys: identifies the client (its API key when keys are configured:
/// none or an unknown one is 401), spends one of its quota (searches for
/// `ai-move` and `perft`, requests for the rest; a batch then spends one
/// search per search it holds); the answer when it refuses (401, or 429
/// over the quota), else the verdict, for [`label`].
pub async fn admit(
    fair_use: &FairUse,
    searches: &SearchRoutes,
    req: &ServiceRequest,
) -> Result<Option<Verdict>, HttpResponse> {
    // Preflights carry no key and are no work.
    if !req.path().starts_with("/v1/") || req.method() == Method::OPTIONS {
        return Ok(None);
    }
    let header = |name: &str| req.headers().get(name).map(HeaderValue::as_bytes);
    let key = presented_key(header("x-api-key"), header("authorization"));
    let peer = req.peer_addr().map(|addr| addr.ip());
    let forwarded_for = req.headers().get_all("x-forwarded-for");
    let client = match fair_use.identify(peer, forwarded_for.map(HeaderValue::as_bytes), key) {
        Ok(client) => client,
        // 401, or 429 for too many wrong keys.
        Err(why) => return Err(why.refusal().error_response()),
    };
    let class = if searches.contains(req.path()) {
        Class::Search
    } else {
        Class::Cheap
    };
    let verdict = fair_use.check(&client, class, 1).await;
    if let Some(refused) = verdict.refusal() {
        tracing::debug!(
            request_id = %request_id::current(),
            client = %fair_use.name(&client),
            class = class.name(),
            "over quota"
        );
        return Err(refused.error_response());
    }
    req.extensions_mut().insert(client);
    Ok(Some(verdict))
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
    if let Ok(value) = HeaderValue::from_str(&format!(
        "\"{name}\";q={};w={}",
        policy.quota,
        policy.window.as_secs()
    )) {
        headers.insert(header::HeaderName::from_static("ratelimit-policy"), value);
    }
    if let Ok(value) = HeaderValue::from_str(&format!(
        "\"{name}\";r={remaining};t={}",
        reset.as_secs_f64().ceil() as u64
    )) {
        headers.insert(header::HeaderName::from_static("ratelimit"), value);
    }
}
