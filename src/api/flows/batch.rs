//! `POST /v1/{game}/batch`, for every game: several requests of one game
//! in one round trip, each run through its endpoint's flow.
//!
//! Here live the body (JSON `{"requests":[…]}` or NDJSON, one request a
//! line), the caps, the check that refuses a JSON batch whose item breaks
//! its schema (the document's own, and the endpoint's decoding), the ops a
//! game's batch runs and their dispatch, the one time budget its searches
//! share, and the loop that runs the requests in order and turns each
//! failure into its problem document.

use std::future::Future;
use std::marker::PhantomData;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpMessage, HttpRequest, HttpResponse};
use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use std::time::Duration;

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::ApiError;
use crate::api::transport::schema::{BatchItems, ItemSchemas};
use crate::api::transport::{json, request_id};
use crate::fair_use::{Class, Client};
use crate::limits::Limits;

use super::budget::SharedBudget;
use super::{ai, annotate, replay, simple};

/// The media type of a batch sent (and answered) one request a line.
pub const NDJSON: &str = "application/x-ndjson";

/// The schema of a batch's `requests` as utoipa writes it: objects with
/// `op`, one of the game's ops, and that endpoint's fields. The document's
/// fix-ups (`openapi::fixups`) type each item from the ops' own bodies.
pub fn items_schema<G: GameApi>() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
    let op = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(batch_ops::<G>().all))
        .description(Some("The endpoint to run"));
    let item = ObjectBuilder::new()
        .property("op", op)
        .required("op")
        .additional_properties(Some(AdditionalProperties::FreeForm(true)))
        .description(Some("`op` and the fields of that endpoint's body"));
    ArrayBuilder::new().items(item).build()
}

/// The answers of a batch, one per request, in request order.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"results": [
    {"op": "validate", "legal": true, "move": "j4-j5"},
    {"op": "problem", "type": "urn:tank-rules:problem:not-your-tank",
     "title": "the tank on the from square belongs to the opponent", "status": 422,
     "detail": "the tank on the from square belongs to the opponent (a8)",
     "code": "NOT_YOUR_TANK", "field": "requests[1].move", "square": "a8"}
]}))]
pub struct BatchResponse {
    /// Each request's answer, `op` first: the endpoint's 200 body with
    /// `op` its name, or the problem document the endpoint would answer
    /// (`status`, `code`, …) with `op` `problem` and `field` prefixed by
    /// `requests[i].` (just `requests[i]` when the endpoint names no
    /// field).
    #[schema(value_type = Vec<Object>)]
    pub results: Vec<Value>,
}

/// The ops a game's batch runs, and which of them are searches (bounded
/// per batch by `batch_max_searches`).
#[derive(Clone, Debug)]
pub struct Ops {
    pub all: Vec<&'static str>,
    pub searches: Vec<&'static str>,
}

impl Ops {
    /// The quota the route of `op` (its path segment) spends at the door:
    /// searches for a search, requests for the rest (a batch among them:
    /// its searches are spent when it is read).
    pub fn quota(&self, op: &str) -> Class {
        if self.searches.contains(&op) {
            Class::Search
        } else {
            Class::Cheap
        }
    }

    /// The operation's description in the OpenAPI document.
    pub fn description(&self) -> String {
        let list = |ops: &[&str], last: &str| {
            let quoted: Vec<String> = ops.iter().map(|op| format!("`{op}`")).collect();
            match quoted.split_last() {
                Some((tail, [])) => tail.clone(),
                Some((tail, head)) => format!("{} {last} {tail}", head.join(", ")),
                None => String::new(),
            }
        };
        let searches = list(&self.searches, "and");
        let how = if self.searches.len() == 1 {
            format!("{searches} runs as its endpoint does, through the answer cache and in the shared search slots, so a busy server answers it `SERVICE_BUSY`.")
        } else {
            format!("{searches} run as their endpoints do, in the shared search slots (and, for `ai-move`, through the answer cache), so a busy server answers them `SERVICE_BUSY`.")
        };
        format!(
            "Each request is an object with `op` ({}) and the fields of that endpoint's body. \
Each result is what the endpoint answers: its 200 body, or its problem document (`status`, \
`code`, …) with `field` prefixed by `requests[i].` (`requests[i]` when the endpoint names none); \
a failed request does not stop the others. An item that is not an object with a known `op` \
refuses the whole batch (400 `BAD_REQUEST` naming `requests[i]`), as any body that breaks its \
schema. {how}\n\n\
A batch holds at most 256 requests (`--batch-max-requests`), at most 4 of them {} \
(`--batch-max-searches`); its searches share one time budget, the server's AI time cap, each \
getting at most an equal share of what is left. With `Content-Type: application/x-ndjson` the \
body is one request a line and the answer one result a line; `i` then counts the non-blank \
lines, and each line stands alone (a line that is not JSON, or not a request, is a \
`BAD_REQUEST` result).",
            list(&self.all, "or"),
            list(&self.searches, "or"),
        )
    }
}

/// A batch body: JSON decoded as `T` (the game's `BatchRequest`), or NDJSON with one request a line (blank lines
/// skipped). A line that is not JSON fails alone, as its own result.
pub struct BatchBody<T> {
    requests: Vec<Result<Value, ApiError>>,
    ndjson: bool,
    shape: PhantomData<T>,
}

impl<T: DeserializeOwned + Into<Vec<Value>> + 'static> FromRequest for BatchBody<T> {
    type Error = ApiError;
    type Future = Pin<Box<dyn Future<Output = Result<BatchBody<T>, ApiError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let ndjson = req
            .mime_type()
            .ok()
            .flatten()
            .is_some_and(|mime| mime.essence_str() == NDJSON);
        let is_json = json::is_json(req);
        let Some(services) = req.app_data::<actix_web::web::Data<Services>>() else {
            let missing = ApiError::Internal("the app serves no Services".to_owned());
            return Box::pin(async move { Err(missing) });
        };
        let body = json::read_body(req, payload, &services.limits);
        Box::pin(async move {
            if !(is_json || ndjson) {
                return Err(ApiError::UnsupportedMediaType);
            }
            let body = body.await?;
            let requests = if ndjson {
                body[..]
                    .split(|&b| b == b'\n')
                    .filter(|line| !line.trim_ascii().is_empty())
                    .map(json::parse::<Value>)
                    .collect()
            } else {
                let requests: Vec<Value> = json::parse::<T>(&body)?.into();
                requests.into_iter().map(Ok).collect()
            };
            Ok(BatchBody {
                requests,
                ndjson,
                shape: PhantomData,
            })
        })
    }
}

/// The item schemas of each game's batch, by game id, compiled from the
/// service's document `doc` (the application hands them to the services:
/// [`Services::batch_items`]): a game's are the variants its batch's
/// request items' discriminator maps each op to.
pub fn items_of_document(doc: &Value) -> BatchItems {
    let batches = doc
        .get("paths")
        .and_then(Value::as_object)
        .into_iter()
        .flat_map(|paths| paths.keys())
        .filter_map(|path| {
            let game = path.strip_prefix("/v1/")?.strip_suffix("/batch")?;
            let operation = format!("/paths/{}/post", path.replace('~', "~0").replace('/', "~1"));
            let request = doc
                .pointer(&format!(
                    "{operation}/requestBody/content/application~1json/schema/$ref"
                ))?
                .as_str()?
                .strip_prefix('#')?;
            let mapping = doc
                .pointer(&format!(
                    "{request}/properties/requests/items/discriminator/mapping"
                ))?
                .as_object()?;
            let variants = mapping
                .iter()
                .filter_map(|(op, variant)| Some((op.clone(), variant.as_str()?.to_owned())));
            Some((game.to_owned(), ItemSchemas::compile(doc, variants)))
        });
    BatchItems::new(batches.collect())
}

/// Decodes one request's fields (its `op` removed) into an endpoint's
/// request type, failing as the body extractor would: `BAD_REQUEST` naming
/// the field (prefixed with `requests[i].` when the result is written).
pub fn decode<T: DeserializeOwned>(fields: Value) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(crate::api::transport::strict::Strict(fields))
        .map_err(json::bad_json)
}

/// Whether one request's fields decode into an endpoint's request type,
/// failing as [`decode`] does; nothing is kept.
pub fn check<T: DeserializeOwned>(fields: &Value) -> Result<(), ApiError> {
    serde_path_to_error::deserialize::<_, T>(crate::api::transport::strict::Strict(fields))
        .map(drop)
        .map_err(json::bad_json)
}

/// An endpoint's answer as a batch result.
pub fn to_json<R: Serialize>(answer: Result<R, ApiError>) -> Result<Value, ApiError> {
    serde_json::to_value(answer?)
        .map_err(|e| ApiError::Internal(format!("writing the answer failed: {e}")))
}

/// Runs a batch: checks the caps, then each request in order through
/// `dispatch` (given the op, one of `ops.all`, and the request's other
/// fields), and answers every result in request order, in the body's
/// format. Only the caps fail the whole batch.
async fn run<T, F, Fut>(
    body: BatchBody<T>,
    limits: &Limits,
    ops: &Ops,
    check: impl Fn(&'static str, &Value) -> Result<(), ApiError>,
    mut dispatch: F,
) -> Result<HttpResponse, ApiError>
where
    F: FnMut(&'static str, Value) -> Fut,
    Fut: Future<Output = Result<Value, ApiError>>,
{
    check_caps(&body.requests, limits, ops)?;
    if !body.ndjson {
        // The schema says what an item is: refuse the batch as any body
        // that breaks its schema.
        for (index, request) in body.requests.iter().enumerate() {
            if let Ok(request) = request {
                let (op, _) = split_op(request.clone(), ops).map_err(|e| locate(e, index))?;
                check(op, request).map_err(|e| locate(e, index))?;
            }
        }
    }
    let mut results = Vec::with_capacity(body.requests.len());
    for (index, request) in body.requests.into_iter().enumerate() {
        let answer = match request.and_then(|request| split_op(request, ops)) {
            Ok((op, fields)) => dispatch(op, fields).await.map(|answer| (op, answer)),
            Err(error) => Err(error),
        };
        results.push(match answer {
            Ok((op, answer)) => named(op, answer),
            Err(error) => named(PROBLEM, problem_result(&error, index)),
        });
    }
    respond(results, body.ndjson, limits)
}

/// The `op` of a failed request's result: its problem document.
pub const PROBLEM: &str = "problem";

/// A result naming what it is, first: the op that answered it, or
/// [`PROBLEM`] (what generated clients discriminate results by).
fn named(op: &str, result: Value) -> Value {
    match result {
        Value::Object(mut fields) => {
            fields.shift_insert(0, "op".to_owned(), Value::from(op));
            Value::Object(fields)
        }
        other => other,
    }
}

/// Too many requests, or too many searches among them, fail the whole
/// batch before anything runs.
fn check_caps(
    requests: &[Result<Value, ApiError>],
    limits: &Limits,
    ops: &Ops,
) -> Result<(), ApiError> {
    let too_many = |detail: String| ApiError::limit_exceeded(detail, "requests");
    if requests.len() > limits.batch_max_requests {
        return Err(too_many(format!(
            "{} requests are more than this server runs in one batch ({})",
            requests.len(),
            limits.batch_max_requests
        )));
    }
    let searches = count_searches(requests, ops);
    if searches > limits.batch_max_searches {
        return Err(too_many(format!(
            "{searches} searches ({}) are more than this server runs in one batch ({})",
            ops.searches.join(", "),
            limits.batch_max_searches
        )));
    }
    Ok(())
}

/// How many of the requests are searches.
fn count_searches(requests: &[Result<Value, ApiError>], ops: &Ops) -> usize {
    requests
        .iter()
        .filter_map(|request| request.as_ref().ok()?.get("op")?.as_str())
        .filter(|op| ops.searches.contains(op))
        .count()
}

impl<T> BatchBody<T> {
    /// How many of the batch's requests are searches.
    pub fn searches(&self, ops: &Ops) -> usize {
        count_searches(&self.requests, ops)
    }
}

/// A request's op (one of `ops.all`) and its other fields.
fn split_op(request: Value, ops: &Ops) -> Result<(&'static str, Value), ApiError> {
    let Value::Object(mut fields) = request else {
        return Err(ApiError::bad_request(
            "each request must be an object with `op`",
            None,
        ));
    };
    let op = match fields.remove("op") {
        Some(Value::String(op)) => ops.all.iter().copied().find(|known| *known == op),
        _ => None,
    }
    .ok_or_else(|| {
        ApiError::bad_request(
            format!("`op` must be one of {}", ops.all.join(", ")),
            Some("op".to_owned()),
        )
    })?;
    Ok((op, Value::Object(fields)))
}

/// The error of request `index`, its field located in the batch.
fn locate(error: ApiError, index: usize) -> ApiError {
    match error {
        ApiError::BadRequest { detail, field } => ApiError::BadRequest {
            detail: format!("requests[{index}]: {detail}"),
            field: Some(match field {
                Some(field) => format!("requests[{index}].{field}"),
                None => format!("requests[{index}]"),
            }),
        },
        other => other,
    }
}

/// The problem document of a failed request, its `field` located in the
/// batch.
fn problem_result(error: &ApiError, index: usize) -> Value {
    if let ApiError::Internal(message) = error {
        tracing::error!(
            request_id = %request_id::current(),
            %message,
            index,
            "internal error in a batch"
        );
    }
    let mut problem = error.problem();
    problem.field = Some(match problem.field {
        Some(field) => format!("requests[{index}].{field}"),
        None => format!("requests[{index}]"),
    });
    serde_json::to_value(problem).unwrap_or_default()
}

/// The results as `{"results":[…]}`, or one a line for NDJSON, within the
/// answer limit.
fn respond(results: Vec<Value>, ndjson: bool, limits: &Limits) -> Result<HttpResponse, ApiError> {
    let written = if ndjson {
        results
            .iter()
            .try_fold(Vec::new(), |mut body, result| {
                serde_json::to_writer(&mut body, result)?;
                body.push(b'\n');
                Ok(body)
            })
            .map(|body| (body, NDJSON))
    } else {
        serde_json::to_vec(&BatchResponse { results }).map(|body| (body, "application/json"))
    };
    let (body, content_type) =
        written.map_err(|e| ApiError::Internal(format!("writing the answer failed: {e}")))?;
    limits.check_answer(body.len(), false)?;
    Ok(HttpResponse::Ok().content_type(content_type).body(body))
}

/// The ops of a game's `batch`: every JSON endpoint, searches last.
pub fn batch_ops<G: GameApi>() -> Ops {
    let extra = G::EXTRA_OPS.iter();
    let mut all = vec!["legal-moves", "validate", "apply", "score", "replay"];
    all.extend(extra.clone().map(|(op, _)| *op));
    all.push("ai-move");
    all.push("annotate");
    let mut searches: Vec<_> = extra
        .filter(|(_, search)| *search)
        .map(|(op, _)| *op)
        .collect();
    searches.push("ai-move");
    searches.push("annotate");
    Ops { all, searches }
}

/// `batch`: every request through its endpoint's flow, in order. Its
/// searches share one time budget, the server's AI time cap, and each
/// spends one of the client's search quota.
pub async fn batch<G: GameApi, T>(
    body: BatchBody<T>,
    services: &Services,
    client: Option<Client>,
) -> Result<HttpResponse, ApiError> {
    let ops = batch_ops::<G>();
    if let Some(client) = client {
        let searches = u32::try_from(body.searches(&ops)).unwrap_or(u32::MAX);
        let verdict = services
            .fair_use
            .check(&client, Class::Search, searches)
            .await;
        if let Some(refused) = verdict.refusal() {
            return Err(refused);
        }
    }
    let cap = Duration::from_millis(services.limits.ai_max_time_ms);
    let shared = SharedBudget::new(cap, body.searches(&ops));
    let schemas = services.batch_items.of(G::ID);
    // An item is refused as its endpoint's body extractor would refuse it,
    // and as its schema says (patterns, ranges).
    let check = |op: &'static str, item: &Value| {
        if let Some(schemas) = schemas {
            schemas.check(op, item)?;
        }
        let mut fields = item.clone();
        if let Some(fields) = fields.as_object_mut() {
            fields.remove("op");
        }
        decodes::<G>(op, &fields)
    };
    run(body, &services.limits, &ops, check, |op, fields| {
        dispatch::<G>(op, fields, services, &shared)
    })
    .await
}

/// Whether a batched request's fields decode as its endpoint's body.
fn decodes<G: GameApi>(op: &str, fields: &Value) -> Result<(), ApiError> {
    match op {
        "legal-moves" => check::<G::LegalMovesRequest>(fields),
        "validate" => check::<G::ValidateRequest>(fields),
        "apply" => check::<G::ApplyRequest>(fields),
        "score" => check::<G::ScoreRequest>(fields),
        "replay" => check::<G::ReplayRequest>(fields),
        "ai-move" => check::<G::AiMoveRequest>(fields),
        "annotate" => check::<G::AnnotateRequest>(fields),
        _ => G::extra_decodes(op, fields),
    }
}

/// Runs one batched request through its endpoint's flow.
async fn dispatch<G: GameApi>(
    op: &str,
    fields: Value,
    services: &Services,
    shared: &SharedBudget,
) -> Result<Value, ApiError> {
    match op {
        "legal-moves" => to_json(simple::legal_moves::<G>(decode(fields)?, services)),
        "validate" => to_json(simple::validate::<G>(decode(fields)?, services)),
        "apply" => to_json(simple::apply::<G>(decode(fields)?, services)),
        "score" => to_json(simple::score::<G>(decode(fields)?, services)),
        "replay" => to_json(replay::replay::<G>(decode(fields)?, services).await),
        "ai-move" => ai::ai_move::<G>(decode(fields)?, services, Some(shared))
            .await?
            .into_value(),
        "annotate" => to_json(annotate::annotate::<G>(decode(fields)?, services).await),
        _ => G::extra_op(op, fields, services, shared).await,
    }
}
