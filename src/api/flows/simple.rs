//! The simple flows beside a game's own `legal-moves` and `validate`
//! ([`GameApi::run_legal_moves`], [`GameApi::run_validate`]), for every
//! game: `apply` and `score`, each decode → engine → encode, nothing
//! kept.

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::RequestError;

/// `apply`: one step played, or its refusal.
pub fn apply<G: GameApi>(
    request: G::ApplyRequest,
    services: &Services,
) -> Result<G::ApplyResponse, RequestError> {
    let (mut state, step) = G::decode_apply(request, &services.limits)?;
    let events = G::play(&mut state, step).map_err(|e| G::refusal(e, None))?;
    Ok(G::encode_apply(&state, events))
}

/// `score`.
pub fn score<G: GameApi>(
    request: G::ScoreRequest,
    services: &Services,
) -> Result<G::ScoreResponse, RequestError> {
    let state = G::decode_score(request, &services.limits)?;
    Ok(G::encode_score(&state))
}
