//! The simple flows, for every game: `legal-moves`, `validate`, `apply`
//! and `score`, each decode → engine → encode, nothing kept.

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::RequestError;

/// `legal-moves`.
pub fn legal_moves<G: GameApi>(
    request: G::LegalMovesRequest,
    services: &Services,
) -> Result<G::LegalMovesResponse, RequestError> {
    G::run_legal_moves(request, &services.limits)
}

/// `validate`.
pub fn validate<G: GameApi>(
    request: G::ValidateRequest,
    services: &Services,
) -> Result<G::ValidateResponse, RequestError> {
    G::run_validate(request, &services.limits)
}

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
