//! `POST /v1/{game}/compare`, for every game: the service as an oracle for
//! another implementation of a game's rules. A client sends what its own
//! engine answers to requests of the service's operations (its *claims*:
//! an operation, its request and the answer claimed) and gets back where
//! they disagree: for `legal-moves` the moves missing and the moves extra
//! (each with the rule it breaks: the code and the text `validate` gives),
//! for any operation the fields whose values differ, for a `replay` the
//! first step that diverges; a claimed `perft` with `divide` names the
//! moves whose counts differ and the service's counts, so a client walks
//! down to the first wrong leaf in at most `depth` calls.
//!
//! Claims run as a batch's items do (`super::batch`): the same checks of
//! each request, the same caps (a claim counts as a batch item), the same
//! price (a claimed `perft` is a search, in its pool, under the one shared
//! time budget) and the same dispatch; only their answers are compared
//! instead of returned.

mod diff;
mod dto;

pub use dto::*;

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::api::game::{game_schema, GameApi};
use crate::api::services::Services;
use crate::api::transport::problem::RequestError;
use crate::i18n::Lang;
use crate::operations::Operation;
use crate::text::Text;

use super::items;
pub use diff::token;
use diff::{diff, take};

/// The operations a claim may name: a batch's that are rules
/// ([`Operation::claimable`]).
pub fn claim_ops<G: GameApi>() -> Vec<Operation> {
    Operation::batched_of(G::EXTRA_OPS)
        .into_iter()
        .filter(|op| op.claimable())
        .collect()
}

/// The claims as a batch's items: each its claim's `op` and its request's
/// fields. A claim runs exactly the operation it names (and is priced
/// as): a request that names an `op` of its own is refused, naming
/// `request.op`, and one that is not an object stays as it is, to be
/// refused.
pub fn items(claims: &[Claim]) -> Vec<Result<Value, RequestError>> {
    claims
        .iter()
        .map(|claim| match &claim.request {
            Value::Object(fields) if fields.contains_key("op") => Err(RequestError::bad_request(
                Text::new("request-compare-op"),
                Some("op"),
            )),
            Value::Object(fields) => {
                let mut item = Map::with_capacity(fields.len() + 1);
                item.insert("op".to_owned(), Value::from(claim.op.as_str()));
                item.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
                Ok(Value::Object(item))
            }
            _ => Ok(Value::Null),
        })
        .collect()
}

/// One claim's verdict against the service's answer (or problem).
pub fn verdict<G: GameApi>(
    op: Operation,
    claim: &Claim,
    answer: Result<items::Written, RequestError>,
    services: &Services,
    lang: Lang,
) -> Verdict {
    let mut verdict = Verdict {
        op: op.name().to_owned(),
        ..Verdict::default()
    };
    let mut refused_at = None;
    match answer.and_then(|written| items::value_of(&written)) {
        Ok(expected) if op == Operation::LegalMoves => {
            compare_moves::<G>(claim, expected, &mut verdict, (services, lang));
        }
        Ok(expected) => diff(&expected, &claim.answer, &mut String::new(), &mut verdict),
        Err(error) => {
            let problem = error.problem_in(lang);
            if problem.status >= 500 || matches!(error, RequestError::LimitExceeded { .. }) {
                verdict.problem = serde_json::to_value(problem).ok();
                return verdict;
            }
            // A refusal: its status and code (and a replay's ply) are
            // what a claim states of it.
            let mut expected = serde_json::json!({"status": problem.status, "code": problem.code});
            if let Some(ply) = problem.ply {
                expected["ply"] = Value::from(ply);
                refused_at = Some(ply);
            }
            let claimed: Map<String, Value> = ["status", "code", "ply"]
                .into_iter()
                .filter_map(|key| Some((key.to_owned(), claim.answer.get(key)?.clone())))
                .collect();
            diff(
                &expected,
                &Value::Object(claimed),
                &mut String::new(),
                &mut verdict,
            );
        }
    }
    verdict.agree = verdict.is_empty();
    if !verdict.agree {
        verdict.step = refused_at;
    }
    if op == Operation::Replay && verdict.step.is_none() && !verdict.agree {
        // The first state that differs, or the step the claim refuses.
        let refused = claim.answer.get("status").and(claim.answer.get("ply"));
        let refused = refused.and_then(Value::as_u64);
        let refused = refused.and_then(|step| usize::try_from(step).ok());
        // A replay's first step that differs: the smallest index of a
        // difference inside the answer's list of states.
        let differs = verdict.differences.iter().filter_map(|difference| {
            let mut parts = difference.field.split('/').skip(1);
            let list = parts.next()?;
            let index = parts.next()?.parse::<usize>().ok()?;
            let listed = claim.answer.get(list).is_none_or(Value::is_array);
            listed.then_some(index)
        });
        verdict.step = differs.chain(refused).min();
    }
    verdict
}

/// `legal-moves`: each list of moves compared as a set (by each move's
/// key), the moves both list compared field by field, then the rest of the
/// answer.
fn compare_moves<G: GameApi>(
    claim: &Claim,
    mut expected: Value,
    found: &mut Verdict,
    (services, lang): (&Services, Lang),
) {
    let mut claimed = claim.answer.clone();
    let mut lists = G::move_lists(&expected);
    for list in G::move_lists(&claimed) {
        if !lists.contains(&list) {
            lists.push(list);
        }
    }
    for (pointer, at) in &lists {
        let ours = take(&mut expected, pointer);
        let theirs = take(&mut claimed, pointer);
        let theirs = match theirs {
            Some(Value::Array(items)) => items,
            Some(other) => {
                found.differ(pointer, ours.as_ref(), Some(&other));
                continue;
            }
            None => Vec::new(),
        };
        let ours = match ours {
            Some(Value::Array(items)) => items,
            _ => Vec::new(),
        };
        // Each move's first item in the claimed list.
        let keys: HashMap<Value, &Value> = theirs
            .iter()
            .map(|item| (G::move_key(item), item))
            .rev()
            .collect();
        let mut legal = HashSet::with_capacity(ours.len());
        for (index, item) in ours.iter().enumerate() {
            let key = G::move_key(item);
            match keys.get(&key) {
                Some(their_item) => {
                    diff(item, their_item, &mut format!("{pointer}/{index}"), found)
                }
                None if found.missing.len() < LISTED_MAX => found.missing.push(Listed {
                    at: at.clone(),
                    mv: key.clone(),
                }),
                None => found.more += 1,
            }
            legal.insert(key);
        }
        let mut seen = HashSet::new();
        for item in &theirs {
            let key = G::move_key(item);
            if legal.contains(&key) || !seen.insert(key.clone()) {
                continue;
            }
            if found.extra.len() < LISTED_MAX {
                let (code, message) = why_not::<G>(&claim.request, at, &key, services, lang);
                found.extra.push(Extra {
                    listed: Listed {
                        at: at.clone(),
                        mv: key,
                    },
                    code,
                    message,
                });
            } else {
                found.more += 1;
            }
        }
    }
    diff(&expected, &claimed, &mut String::new(), found);
}

/// Why a claimed move is not in the service's list: the refusal
/// `validate` gives it, or the problem it answers (a move that is not
/// one); legal but written otherwise, no code.
fn why_not<G: GameApi>(
    request: &Value,
    at: &str,
    key: &Value,
    services: &Services,
    lang: Lang,
) -> (Option<String>, String) {
    let fields = G::validate_listed(request, at, key);
    let answer = items::decode::<G::ValidateRequest>(fields)
        .and_then(|request| items::to_json(G::run_validate(request, &services.limits, lang)))
        .and_then(|written| items::value_of(&written));
    match answer {
        Ok(answer) => match G::listed_refusal(&answer, at) {
            Some((code, message)) => (Some(code), message),
            None => (
                None,
                crate::i18n::write(lang, &Text::new("compare-listed-legal")),
            ),
        },
        Err(error) => {
            let problem = error.problem_in(lang);
            (Some(problem.code), problem.detail)
        }
    }
}

/// A rule reason's `code` and `message`, as the games' `validate`
/// answers write one.
pub fn code_and_message(reason: &Value) -> Option<(String, String)> {
    let code = reason.get("code")?.as_str()?;
    let message = reason
        .get("message")
        .and_then(Value::as_str)
        .unwrap_or(code);
    Some((code.to_owned(), message.to_owned()))
}

/// A game's compare request: a [`CompareRequest`], documented as
/// `<Game>CompareRequest` with the game's example.
#[derive(Debug, serde::Deserialize)]
#[serde(transparent)]
pub struct GameCompareRequest<G> {
    pub body: CompareRequest,
    #[serde(skip)]
    game: std::marker::PhantomData<G>,
}

/// Claims of another engine to check against the service
// A game's compare request as the document shows it, with the game's
// example.
#[derive(utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
#[allow(dead_code)] // (its schema only)
struct RequestShape {
    /// The claims, checked in order
    claims: Vec<Claim>,
}

impl<G: GameApi> utoipa::PartialSchema for GameCompareRequest<G> {
    #[allow(deprecated)] // the document's examples are `example`, as derived schemas write them
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::{schema::Schema, RefOr};
        let mut schema = <RequestShape as utoipa::PartialSchema>::schema();
        if let RefOr::T(Schema::Object(object)) = &mut schema {
            object.example = Some(example::<G>());
        }
        schema
    }
}

game_schema!(GameApi, GameCompareRequest as "CompareRequest": Claim);

/// The example of a game's compare: its start's score, as the service
/// answers it (so the claim agrees).
pub fn example<G: GameApi>() -> Value {
    let initial = G::initial();
    let state = serde_json::to_value(G::replay_state(&initial)).unwrap_or_default();
    let answer = serde_json::to_value(G::encode_score(&initial)).unwrap_or_default();
    serde_json::json!({"claims": [{
        "op": Operation::Score.name(),
        "request": {(G::STATE_FIELD): state},
        "answer": answer,
    }]})
}

/// The compare operation's description in the OpenAPI document.
pub fn description<G: GameApi>() -> String {
    let ops: Vec<String> = claim_ops::<G>()
        .into_iter()
        .map(|op| format!("`{}`", op.name()))
        .collect();
    let defaults = crate::limits::Limits::default();
    format!(
        "The service as an oracle for another implementation of the rules. Each claim is an \
operation ({}), its request body as that endpoint takes it, and the answer the client's own \
engine gives: the endpoint's 200 body, or for a request it refuses the problem's `status` and \
`code` (and a replay's `ply`). Each verdict says whether the claim agrees; where it does not: \
for `legal-moves`, `missing` (moves the service lists and the claim lacks) and `extra` (moves \
claimed that are not legal, each with the code and the rule's text `validate` gives it, or the \
problem's code and detail when it is not a move at all); for every operation, `differences`, \
each value that differs at its JSON pointer with the service's value (`expected`) and the \
claim's (`claimed`), a side's value absent where its answer has no such field; for `replay`, \
`step`, the first step whose state differs or that one side refuses. At most {} of each are \
listed a claim, `more` counts the rest. A claimed `perft` with `divide` answers the moves whose \
counts differ and the service's counts: apply one, claim `perft` one ply shallower below it, \
and the wrong leaf is found in at most `depth` calls.\n\n\
Claims run as a batch's items: each claim is an item (at most {} in all, \
`--batch-max-requests`; as many within a batch that holds the compare), a claimed `perft` a \
search (at most {}, in the `long` pool, sharing the AI time cap as a batch's searches do); a \
claim whose request breaks its schema refuses the whole compare (400 naming \
`claims[i].request…`). A claim the service cannot answer (its pool busy, the budget spent) \
gets its `problem` and no verdict.",
        ops.join(", "),
        LISTED_MAX,
        defaults.batch_max_requests,
        defaults.batch_max_searches,
    )
}
