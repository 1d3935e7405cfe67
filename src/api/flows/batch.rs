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

use crate::api::game::GameApi;
use crate::api::middleware::fair_use::Tab;
use crate::api::services::Services;
use crate::api::transport::json;
use crate::api::transport::pieces::Pieces;
use crate::api::transport::problem::{HttpError, RequestError};
use crate::api::transport::request_id::Asked;
use crate::api::transport::schema::{BatchItems, ItemSchemas};
use crate::limits::Limits;
use crate::operations::Operation;
use crate::text::Text;

use super::batch_answer::Answer;
pub use super::batch_answer::NDJSON;
pub use super::items::{check, decode, to_json, Written};
use super::items::{check_caps, locate_in, refund_busy, spend, split_op, Items, Turn};
use super::{ai, annotate, compare, replay, simple};

/// The schema of a batch's `requests` as utoipa writes it: objects with
/// `op`, one of the game's ops, and that endpoint's fields. The document's
/// fix-ups (`openapi::fixups`) type each item from the ops' own bodies.
pub fn items_schema<G: GameApi>() -> utoipa::openapi::schema::Array {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayBuilder, ObjectBuilder, Type};
    let op = ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(operations::<G>().into_iter().map(Operation::name)))
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

/// The operations a game's batch runs: every JSON operation of every
/// game and the game's own ([`GameApi::EXTRA_OPS`]), searches among them.
pub fn operations<G: GameApi>() -> Vec<Operation> {
    Operation::batched_of(G::EXTRA_OPS)
}

/// The batch operation's description in the OpenAPI document.
pub fn description<G: GameApi>() -> String {
    let ops = operations::<G>();
    let list = |ops: &[Operation], last: &str| {
        let quoted: Vec<String> = ops.iter().map(|op| format!("`{}`", op.name())).collect();
        match quoted.split_last() {
            Some((tail, [])) => tail.clone(),
            Some((tail, head)) => format!("{} {last} {tail}", head.join(", ")),
            None => String::new(),
        }
    };
    let searches: Vec<Operation> = ops.iter().copied().filter(|op| op.is_search()).collect();
    let how = if searches.len() == 1 {
        format!("{} runs as its endpoint does, through the answer cache and in its pool's slots, so a busy server answers it `SERVICE_BUSY`.", list(&searches, "and"))
    } else {
        format!("{} run as their endpoints do, in their pools' slots (and, for `ai-move`, through the answer cache), so a busy server answers them `SERVICE_BUSY`.", list(&searches, "and"))
    };
    let defaults = Limits::default();
    format!(
        "Each request is an object with `op` ({}) and the fields of that endpoint's body. \
Each result is what the endpoint answers: its 200 body, or its problem document (`status`, \
`code`, …) with `field` prefixed by `requests[i].` (`requests[i]` when the endpoint names none); \
a failed request does not stop the others. An item that is not an object with a known `op` \
refuses the whole batch (400 `BAD_REQUEST` naming `requests[i]`), as any body that breaks its \
schema. {how}\n\n\
A batch holds at most {} requests (`--batch-max-requests`), at most {} of them {} \
(`--batch-max-searches`). Its searches share one time budget, the server's AI time cap \
(`--ai-max-time-ms`, {} ms), counted from the batch's start: each gets its share of what is \
left by its price (a review {} shares to a search's one at the default flags) and stops at its \
end; a search that finds the budget spent, and a review whose share cannot give each of its \
positions the judge's floor (Tank Battle 10 ms), are answered `LIMIT_EXCEEDED` naming the \
budget, before they take a slot. Requests that are not searches always run. With \
`Content-Type: application/x-ndjson` the body is one request a line and the answer one result \
a line; `i` then counts the non-blank lines, and each line stands alone (a line that is not \
JSON, or not a request, is a `BAD_REQUEST` result).",
        list(&ops, "or"),
        defaults.batch_max_requests,
        defaults.batch_max_searches,
        list(&searches, "or"),
        defaults.ai_max_time_ms,
        crate::operations::review_units(&defaults),
    )
}

/// A batch body: JSON decoded as `T` (the game's `BatchRequest`), or NDJSON with one request a line (blank lines
/// skipped). A line that is not JSON fails alone, as its own result.
pub struct BatchBody<T> {
    requests: Vec<Result<Value, RequestError>>,
    ndjson: bool,
    shape: PhantomData<T>,
}

impl<T: DeserializeOwned + Into<Vec<Value>> + 'static> FromRequest for BatchBody<T> {
    type Error = HttpError;
    type Future = Pin<Box<dyn Future<Output = Result<BatchBody<T>, HttpError>>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let ndjson = req
            .mime_type()
            .ok()
            .flatten()
            .is_some_and(|mime| mime.essence_str() == NDJSON);
        let is_json = json::is_json(req);
        let Some(services) = req.app_data::<actix_web::web::Data<Services>>() else {
            let missing = RequestError::Internal("the app serves no Services".to_owned()).into();
            return Box::pin(async move { Err(missing) });
        };
        let body = json::read_body(req, payload, &services.limits, &services.in_flight);
        Box::pin(async move {
            if !(is_json || ndjson) {
                return Err(HttpError::unsupported_media_type());
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
            let game = path
                .strip_prefix("/v1/")?
                .strip_suffix(Operation::Batch.path())?;
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

/// Runs a batch: checks the caps, then each request in order through
/// [`dispatch`] (given the op, one of `ops`, and the request's other
/// fields), and answers every result in request order, in the body's
/// format. Only the caps fail the whole batch.
async fn run<G: GameApi, T>(
    body: BatchBody<T>,
    items: &Items<'_>,
    ops: &[Operation],
) -> Result<HttpResponse, HttpError> {
    let Items {
        services, asked, ..
    } = items;
    let limits = &services.limits;
    check_caps(&body.requests, limits, ops, "requests")?;
    let mut turn = Turn::new();
    if !body.ndjson {
        // The schema says what an item is: refuse the batch as any body
        // that breaks its schema.
        let check = item_check::<G>(services);
        for (index, request) in body.requests.iter().enumerate() {
            if let Ok(request) = request {
                let located = |e| locate_in(e, "requests", index, "");
                let (op, _) = split_op(request.clone(), ops).map_err(located)?;
                check(op, request).map_err(located)?;
            }
            turn.take().await;
        }
    }
    // Each result is written as it comes, between the other connections'
    // turns, and only its bytes are kept: a batch holds its answer, not
    // the answer's JSON values (several times its size). The answer is
    // refused as soon as it would pass the cap, before the items after it
    // run: a batch never holds more than the cap of answer.
    let room = services.in_flight.none();
    let mut answer = Answer::new(body.ndjson, limits.answer_max_bytes, room);
    for (index, request) in body.requests.into_iter().enumerate() {
        let result = match request.and_then(|request| split_op(request, ops)) {
            Ok((op, fields)) => dispatch::<G>(op, fields, items, answer.room())
                .await
                .map(|result| (op.name(), result)),
            Err(error) => Err(error),
        };
        let (op, result) =
            result.unwrap_or_else(|error| (PROBLEM, problem_result(&error, index, asked)));
        answer.push(op, &result).map_err(|full| full.at(index))?;
        turn.take().await;
    }
    let (body, held, content_type) = answer.finish().map_err(|full| full.at(usize::MAX))?;
    Ok(HttpResponse::Ok()
        .content_type(content_type)
        .body(Pieces::new(body, Some(held))))
}

/// The `op` of a failed request's result: its problem document.
pub const PROBLEM: &str = "problem";

/// The problem document of a failed request, its `field` located in the
/// batch.
fn problem_result(error: &RequestError, index: usize, asked: &Asked) -> Written {
    if let RequestError::Internal(message) = error {
        tracing::error!(
            request_id = %asked.id,
            %message,
            index,
            "internal error in a batch"
        );
    }
    // A part of one request: its texts in the request's language, naming
    // no instance of its own.
    let mut problem = error.problem_in(asked.lang);
    problem.field = Some(match problem.field {
        Some(field) => format!("requests[{index}].{field}"),
        None => format!("requests[{index}]"),
    });
    serde_json::value::to_raw_value(&problem).unwrap_or_else(|_| {
        serde_json::value::RawValue::from_string("{}".to_owned()).unwrap_or_default()
    })
}

/// `batch`: every request through its endpoint's flow, in order, its price
/// (the sum of its items') spent first. Its searches share one time
/// budget, the server's AI time cap.
pub async fn batch<G: GameApi, T>(
    body: BatchBody<T>,
    services: &Services,
    tab: Option<Tab>,
    asked: &Asked,
) -> Result<HttpResponse, HttpError> {
    let ops = operations::<G>();
    let items = spend(&body.requests, &ops, (services, tab.as_ref(), asked)).await?;
    run::<G, _>(body, &items, &ops).await
}

/// How an item (`op` and its fields) is checked before anything runs: as
/// its endpoint's body extractor would refuse it, and as its schema says
/// (patterns, ranges).
pub(super) fn item_check<G: GameApi>(
    services: &Services,
) -> impl Fn(Operation, &Value) -> Result<(), RequestError> + '_ {
    let schemas = services.batch_items.of(G::ID);
    move |op: Operation, item: &Value| {
        if let Some(schemas) = schemas {
            schemas.check(op.name(), item)?;
        }
        let mut fields = item.clone();
        if let Some(fields) = fields.as_object_mut() {
            fields.remove("op");
        }
        let fields = &fields;
        match op {
            Operation::LegalMoves => check::<G::LegalMovesRequest>(fields),
            Operation::Validate => check::<G::ValidateRequest>(fields),
            Operation::Apply => check::<G::ApplyRequest>(fields),
            Operation::Score => check::<G::ScoreRequest>(fields),
            Operation::Replay => check::<G::ReplayRequest>(fields),
            Operation::AiMove => check::<G::AiMoveRequest>(fields),
            Operation::Annotate => check::<G::AnnotateRequest>(fields),
            Operation::Compare => check::<compare::CompareRequest>(fields),
            // The game's own ops (`perft`, `puzzles`); it refuses any other.
            op => G::extra_decodes(op, fields),
        }
    }
}

/// Runs one batched request through its endpoint's flow, its answer to
/// fit in `room` bytes (what is left of the batch's answer: a replay
/// that cannot fit is refused before it is played). An item answered
/// `SERVICE_BUSY` never ran: its price is given back.
pub(super) async fn dispatch<G: GameApi>(
    op: Operation,
    fields: Value,
    items: &Items<'_>,
    room: usize,
) -> Result<Written, RequestError> {
    let Items {
        services, shared, ..
    } = items;
    let result = async {
        match op {
            Operation::LegalMoves => to_json(G::run_legal_moves(decode(fields)?, &services.limits)),
            Operation::Validate => to_json(G::run_validate(
                decode(fields)?,
                &services.limits,
                items.asked.lang,
            )),
            Operation::Apply => to_json(simple::apply::<G>(decode(fields)?, services)),
            Operation::Score => to_json(simple::score::<G>(decode(fields)?, services)),
            Operation::Replay => {
                to_json(replay::replay::<G>(decode(fields)?, services, room).await)
            }
            Operation::AiMove => ai::ai_move::<G>(decode(fields)?, services, Some(shared))
                .await?
                .into_written(),
            Operation::Annotate => {
                to_json(annotate::annotate::<G>(decode(fields)?, services, Some(shared)).await)
            }
            Operation::Compare => {
                // As a batch's item: the batch checked its caps and spent its
                // price, and its searches share the batch's budget.
                let body: compare::CompareRequest = decode(fields)?;
                let claims = compare::items(&body.claims);
                // Boxed: a compare's claims come back here (never to another
                // compare: `compare::claim_ops`).
                to_json(Box::pin(run_claims::<G>(body, claims, items)).await)
            }
            op => G::extra_op(op, fields, services, shared).await,
        }
    }
    .await;
    refund_busy(op, &result, services, items.tab).await;
    result
}

// ------------------------------------------------------------ compare ---
// A compare's claims run here, beside `dispatch`, as items: a claim is
// dispatched as a batch's item is, and a batch dispatches a compare.

/// `compare`: the claims' caps checked, their price spent, then each run
/// and compared.
pub async fn compare<G: GameApi>(
    body: compare::CompareRequest,
    services: &Services,
    tab: Option<Tab>,
    asked: &Asked,
) -> Result<compare::CompareResponse, RequestError> {
    let ops = compare::claim_ops::<G>();
    let claims = compare::items(&body.claims);
    check_caps(&claims, &services.limits, &ops, "claims")?;
    let items = spend(&claims, &ops, (services, tab.as_ref(), asked)).await?;
    run_claims::<G>(body, claims, &items).await
}

/// Checks every claim's request as its endpoint would (a claim that breaks
/// its schema refuses the whole compare, naming `claims[i]`), then runs
/// and compares each.
async fn run_claims<G: GameApi>(
    body: compare::CompareRequest,
    claims: Vec<Result<Value, RequestError>>,
    items: &Items<'_>,
) -> Result<compare::CompareResponse, RequestError> {
    let services = items.services;
    let ops = compare::claim_ops::<G>();
    let check = item_check::<G>(services);
    let mut requests = Vec::with_capacity(claims.len());
    for (index, item) in claims.into_iter().enumerate() {
        let located = |error: RequestError| locate_in(error, "claims", index, "request");
        let item = item.map_err(located)?;
        if !item.is_object() {
            return Err(located(RequestError::bad_request(
                Text::new("request-compare-request"),
                None,
            )));
        }
        let (op, fields) =
            split_op(item.clone(), &ops).map_err(|e| locate_in(e, "claims", index, ""))?;
        check(op, &item).map_err(located)?;
        requests.push((op, fields));
    }
    let mut verdicts = Vec::with_capacity(requests.len());
    let mut turn = Turn::new();
    for ((op, fields), claim) in requests.into_iter().zip(body.claims) {
        // A claim's answer is compared, not returned: its own cap.
        let room = services.limits.answer_max_bytes;
        let answer = dispatch::<G>(op, fields, items, room).await;
        verdicts.push(compare::verdict::<G>(
            op,
            &claim,
            answer,
            services,
            items.asked.lang,
        ));
        turn.take().await;
    }
    Ok(compare::CompareResponse {
        agree: verdicts.iter().all(|v| v.agree),
        claims: verdicts,
    })
}
