//! Fair use, for the games' routes: who a request is from and whether its
//! quotas allow it (the rules are [`crate::fair_use`]'s), answered as 401
//! or 429 problems with `RateLimit` headers.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::ResponseError;

use crate::api::transport::problem::ApiError;

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

/// Fair use, for the games' routes (`/v1/…`): identifies the client (its
/// API key when keys are configured: none or an unknown one is 401), spends
/// one of its quota (searches for `ai-move` and `perft`, requests for the
/// rest; a batch then spends one search per search it holds), answers 429
/// over the quota, and says what is left in the `RateLimit` headers.
pub async fn fair_use(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    use crate::fair_use::{Class, Unidentified, Verdict};
    use actix_web::HttpMessage;

    let services = req
        .app_data::<actix_web::web::Data<crate::api::services::Services>>()
        .map(|s| s.fair_use.clone());
    let Some(fair_use) = services.filter(|f| f.is_active()) else {
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    // Preflights carry no key and are no work.
    if !req.path().starts_with("/v1/") || req.method() == Method::OPTIONS {
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let header = |name: &str| req.headers().get(name).and_then(|v| v.to_str().ok());
    let key = header("x-api-key")
        .or_else(|| header("authorization").and_then(|v| v.strip_prefix("Bearer ").map(str::trim)));
    let peer = req.peer_addr().map(|addr| addr.ip());
    let client = match fair_use.identify(peer, header("x-forwarded-for"), key) {
        Ok(client) => client,
        Err(why) => {
            let detail = match why {
                Unidentified::MissingKey => "this service needs an API key: send it in `X-Api-Key` (or `Authorization: Bearer`)",
                Unidentified::UnknownKey => "the API key is not known to this service",
            };
            let refused = ApiError::Unauthorized {
                detail: detail.to_owned(),
            };
            return Ok(req.into_response(refused.error_response()));
        }
    };
    let searches = req.app_data::<actix_web::web::Data<SearchRoutes>>();
    let class = if searches.is_some_and(|routes| routes.contains(req.path())) {
        Class::Search
    } else {
        Class::Cheap
    };
    let verdict = fair_use.check(&client, class, 1).await;
    if let Some(refused) = verdict.refusal() {
        tracing::debug!(client = %fair_use.name(&client), class = class.name(), "over quota");
        return Ok(req.into_response(refused.error_response()));
    }
    req.extensions_mut().insert(client);
    let mut res = next.call(req).await?.map_into_boxed_body();
    // A refusal from inside (a batch over its search quota) names its own.
    let inner_refusal = res.headers().contains_key("ratelimit-policy");
    if let (
        Verdict::Allowed {
            policy,
            remaining,
            reset,
        },
        false,
    ) = (verdict, inner_refusal)
    {
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
    Ok(res)
}
