//! `compare`'s request and answer, shared by every game (their schemas
//! are named `Compare…`), and its description in the document.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

/// At most this many of each kind of disagreement are listed a claim
/// (missing moves, extra moves, differences); `more` counts the rest.
pub const LISTED_MAX: usize = 64;

/// What a client's engine answers to one request of an operation.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CompareClaim)]
pub struct Claim {
    /// The operation: `legal-moves`, `validate`, `apply`, `score`,
    /// `replay`, or (Tank Battle) `perft`.
    #[schema(example = json!("legal-moves"))]
    pub op: String,
    /// The operation's request body, as its endpoint takes it.
    #[schema(value_type = Object)]
    pub request: Value,
    /// What the client's engine answers: the endpoint's 200 body, or for a
    /// request it refuses the problem's `status` and `code` (and a
    /// replay's `ply`).
    #[schema(value_type = Object)]
    pub answer: Value,
}

/// Claims to check against the service, in order.
#[derive(Debug, Deserialize, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = CompareRequest)]
pub struct CompareRequest {
    pub claims: Vec<Claim>,
}

/// Where the claims and the service disagree.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompareResponse)]
pub struct CompareResponse {
    /// Whether every claim agrees with the service.
    pub agree: bool,
    /// Each claim's verdict, in the claims' order.
    pub claims: Vec<Verdict>,
}

/// One claim against the service's answer.
#[derive(Debug, Default, Serialize, ToSchema)]
#[schema(as = CompareVerdict)]
pub struct Verdict {
    /// The claim's operation.
    #[schema(example = json!("legal-moves"))]
    pub op: String,
    /// Whether the claimed answer is the service's.
    pub agree: bool,
    /// `legal-moves`: moves the service lists and the claim does not
    /// (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub missing: Vec<Listed>,
    /// `legal-moves`: moves the claim lists and the service does not, each
    /// with the rule it breaks (absent when none).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub extra: Vec<Extra>,
    /// Values that differ, each at its JSON pointer in the answer (for
    /// `legal-moves`, besides the lists' moves); absent when none.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub differences: Vec<Difference>,
    /// `replay`: the first step (0 for the first, as a problem's `ply`)
    /// whose state differs, or that one side refuses; absent when the
    /// claim agrees, and for other operations.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub step: Option<usize>,
    /// How many more missing moves, extra moves or differences there are
    /// than the ones listed (at most 64 of each); absent when none.
    #[serde(skip_serializing_if = "is_zero")]
    pub more: usize,
    /// The service could not answer this claim (it was busy, or the
    /// claims' time budget was spent): its problem document, and no
    /// verdict; absent when the service answered.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>, nullable = false)]
    pub problem: Option<Value>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// A move in a list of legal moves.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompareListed)]
pub struct Listed {
    /// Whose list (a player, or a player and a vehicle); absent for a game
    /// with one list.
    #[serde(skip_serializing_if = "str::is_empty")]
    #[schema(example = "U")]
    pub at: String,
    /// The move as the list writes it.
    #[serde(rename = "move")]
    #[schema(value_type = Value, example = "j4-j5")]
    pub mv: Value,
}

/// A claimed move that is not legal, and why.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompareExtra)]
pub struct Extra {
    #[serde(flatten)]
    pub listed: Listed,
    /// The rule it breaks, as `validate` names it (`BAD_MOVE_NOTATION`
    /// and the like when it is not a move at all); absent when the move is
    /// legal but the list writes it otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(example = "MINE", nullable = false)]
    pub code: Option<String>,
    /// The rule in words, in the language asked.
    #[schema(example = "a mine lies on the path (e5)")]
    pub message: String,
}

/// A value that differs.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = CompareDifference)]
pub struct Difference {
    /// Its JSON pointer in the answer (`/positions/3`, `/divide/j4-j5`).
    #[schema(example = "/divide/j4-j5")]
    pub field: String,
    /// The service's value; absent when the service's answer has no such
    /// field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value)]
    pub expected: Option<Value>,
    /// The claim's value; absent when the claim has no such field.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Value)]
    pub claimed: Option<Value>,
}
