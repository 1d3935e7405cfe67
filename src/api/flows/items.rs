//! What a batch's items and a compare's claims share: how they are
//! decoded and checked, counted against the caps, priced and spent, and
//! the turns they take on their HTTP worker. A compare's claims are items:
//! a batch that holds a compare counts, prices and caps each claim.

use std::time::{Duration, Instant};

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

use super::budget::SharedBudget;
use crate::api::middleware::fair_use::Tab;
use crate::api::services::Services;
use crate::api::transport::json;
use crate::api::transport::problem::RequestError;
use crate::api::transport::request_id::Asked;
use crate::api::transport::strict::{Seen, Strict};
use crate::fair_use::Class;
use crate::limits::Limits;
use crate::operations::Operation;
use crate::text::Text;

/// Decodes one request's fields (its `op` removed) into an endpoint's
/// request type, failing as the body extractor would: `BAD_REQUEST` naming
/// the field (prefixed with `requests[i].` when the result is written).
pub fn decode<'de, T: Deserialize<'de>>(
    fields: impl Deserializer<'de, Error = serde_json::Error>,
) -> Result<T, RequestError> {
    let seen = Seen::default();
    serde_path_to_error::deserialize(Strict::naming_every_fault(fields, &seen))
        .map_err(|error| json::bad_json(error, &seen, b"", None))
}

/// Whether one request's fields decode into an endpoint's request type,
/// failing as [`decode`] does; nothing is kept.
pub fn check<T: DeserializeOwned>(fields: &Value) -> Result<(), RequestError> {
    decode::<T>(fields).map(drop)
}

/// A batched request's answer: its JSON text (a batch writes it into its
/// answer as it is; a value's tree would be several times its size).
pub type Written = Box<serde_json::value::RawValue>;

/// An endpoint's answer as a batch result.
pub fn to_json<R: Serialize>(answer: Result<R, RequestError>) -> Result<Written, RequestError> {
    serde_json::value::to_raw_value(&answer?)
        .map_err(|e| RequestError::Internal(format!("writing the answer failed: {e}")))
}

/// A batched request's answer read back as a value (a compare's claim,
/// compared field by field).
pub fn value_of(written: &Written) -> Result<Value, RequestError> {
    serde_json::from_str(written.get())
        .map_err(|e| RequestError::Internal(format!("reading an answer failed: {e}")))
}

/// A batch's turn on its HTTP worker: it gives the worker back to the
/// worker's other connections (a `/healthz`, another client's move) once
/// its turn has lasted [`Turn::LENGTH`], looking at the clock every
/// [`Turn::ITEMS`] items, so that a batch of hundreds of cheap items (the
/// ones run on the worker: each well under a millisecond) never holds a
/// worker for their whole time.
pub(super) struct Turn {
    since: Instant,
    items: u32,
}

impl Turn {
    /// How long a batch may run on its worker before it yields.
    const LENGTH: Duration = Duration::from_millis(1);
    /// How many items between two looks at the clock.
    const ITEMS: u32 = 8;

    pub(super) fn new() -> Turn {
        Turn {
            since: Instant::now(),
            items: 0,
        }
    }

    /// Yields to the worker's other tasks when the turn is over.
    pub(super) async fn take(&mut self) {
        self.items += 1;
        if self.items < Turn::ITEMS {
            return;
        }
        self.items = 0;
        if self.since.elapsed() >= Turn::LENGTH {
            tokio::task::yield_now().await;
            self.since = Instant::now();
        }
    }
}

/// Too many requests, or too many searches among them, fail the whole
/// batch (or compare: its `claims`, named by `field`) before anything
/// runs. A compare's claims count as items of a batch that holds it.
pub(super) fn check_caps(
    requests: &[Result<Value, RequestError>],
    limits: &Limits,
    ops: &[Operation],
    field: &str,
) -> Result<(), RequestError> {
    let too_many = |text: Text| RequestError::limit_exceeded(text, field);
    let count = items_run(requests, ops).count();
    if count > limits.batch_max_requests {
        return Err(too_many(
            Text::new("limit-batch-requests")
                .with("count", count)
                .with("max", limits.batch_max_requests),
        ));
    }
    let searches = items_run(requests, ops)
        .filter(|op| op.is_some_and(Operation::is_search))
        .count();
    if searches > limits.batch_max_searches {
        let names: Vec<&str> = ops
            .iter()
            .filter(|op| op.is_search())
            .map(|op| op.name())
            .collect();
        return Err(too_many(
            Text::new("limit-batch-searches")
                .with("count", searches)
                .with("names", names.join(", "))
                .with("max", limits.batch_max_searches),
        ));
    }
    Ok(())
}

/// The items the requests run, each the operation it names when it is
/// one of `ops`: a request one item, a `compare` one for each of its
/// claims (an operation a compare may claim, or `None`).
fn items_run<'a>(
    requests: &'a [Result<Value, RequestError>],
    ops: &'a [Operation],
) -> impl Iterator<Item = Option<Operation>> + 'a {
    let named = |request: &Value, claimed: bool| {
        let name = request.get("op")?.as_str()?;
        ops.iter()
            .copied()
            .filter(|op| !claimed || op.claimable())
            .find(|op| op.name() == name)
    };
    requests.iter().flat_map(move |request| {
        let request = request.as_ref().ok();
        let op = request.and_then(|request| named(request, false));
        match (op, request) {
            (Some(Operation::Compare), Some(request)) => {
                let claims = request.get("claims").and_then(Value::as_array);
                let claimed: Vec<Option<Operation>> = claims
                    .into_iter()
                    .flatten()
                    .map(|claim| named(claim, true))
                    .collect();
                if claimed.is_empty() {
                    vec![None]
                } else {
                    claimed
                }
            }
            _ => vec![op],
        }
    })
}

/// A request's operation (one of `ops`) and its other fields.
pub(super) fn split_op(
    request: Value,
    ops: &[Operation],
) -> Result<(Operation, Value), RequestError> {
    let Value::Object(mut fields) = request else {
        return Err(RequestError::bad_request(
            Text::new("request-batch-item"),
            None,
        ));
    };
    let op = match fields.remove("op") {
        Some(Value::String(name)) => ops.iter().copied().find(|op| op.name() == name),
        _ => None,
    }
    .ok_or_else(|| {
        let names: Vec<&str> = ops.iter().map(|op| op.name()).collect();
        RequestError::bad_request(
            Text::new("request-batch-op").with("ops", names.join(", ")),
            Some("op"),
        )
    })?;
    Ok((op, Value::Object(fields)))
}

/// The error of item `index` of the body's `list` (`requests`, `claims`),
/// its field located in the body: under the item's `within` field when
/// one is given (a claim's `request`).
pub(super) fn locate_in(
    error: RequestError,
    list: &str,
    index: usize,
    within: &str,
) -> RequestError {
    let within = |field: Option<String>| {
        let item = match within {
            "" => format!("{list}[{index}]"),
            within => format!("{list}[{index}].{within}"),
        };
        Some(match field {
            Some(field) => format!("{item}.{field}"),
            None => item,
        })
    };
    match error {
        RequestError::BadRequest { text, field, .. } => RequestError::BadRequest {
            text,
            field: within(field),
            // A batch's detail names its request; a claim's field says it.
            item: (list == "requests").then_some(index),
        },
        RequestError::Json { text, field } => RequestError::Json {
            text: crate::api::transport::json_fault::in_list(text, list, index),
            field: within(field),
        },
        other => other,
    }
}

/// What the items of one batch (or compare) run with: the services, the
/// one time budget their searches share, and the request's tab (the
/// quotas an item gives back to when it never ran).
pub(super) struct Items<'a> {
    pub(super) services: &'a Services,
    pub(super) shared: SharedBudget,
    pub(super) tab: Option<&'a Tab>,
    /// Who asked: the language of the items' texts, the id their errors
    /// are logged with.
    pub(super) asked: &'a Asked,
}

/// Spends the price of a batch's (or a compare's) items on the request's
/// `tab` ([`crate::operations`]): a request for each item that is not a
/// search (at least one: the batch's own, already spent at the door), and
/// each search's search units. Answers what the items run with, their
/// searches sharing one time budget, the server's AI time cap from now,
/// by their units.
pub(super) async fn spend<'a>(
    requests: &[Result<Value, RequestError>],
    ops: &[Operation],
    (services, tab, asked): (&'a Services, Option<&'a Tab>, &'a Asked),
) -> Result<Items<'a>, RequestError> {
    let items: Vec<Option<Operation>> = items_run(requests, ops).collect();
    let searches = items.iter().flatten().filter(|op| op.is_search());
    let units: u32 = searches
        .clone()
        .map(|op| op.price(&services.limits).units)
        .fold(0, u32::saturating_add);
    let others = items.len().saturating_sub(searches.count()).max(1);
    if let Some(tab) = tab {
        let others = u32::try_from(others).unwrap_or(u32::MAX);
        tab.spend(Class::Cheap, others.saturating_sub(1)).await?;
        tab.spend(Class::Search, units).await?;
    }
    let cap = Duration::from_millis(services.limits.ai_max_time_ms);
    let shared = SharedBudget::new(cap, u64::from(units), Instant::now());
    Ok(Items {
        services,
        shared,
        tab,
        asked,
    })
}

/// Gives back an item's price when its answer is 503 (`SERVICE_BUSY`): it
/// never ran.
pub(super) async fn refund_busy<T>(
    op: Operation,
    result: &Result<T, RequestError>,
    services: &Services,
    tab: Option<&Tab>,
) {
    if let (Some(tab), Err(RequestError::Busy { .. })) = (tab, result) {
        let price = op.price(&services.limits);
        tab.refund(price.class, price.units).await;
    }
}
