//! `replay`, for every game: each step checked and played, the state after
//! each answered; the work and the answer's size checked before anything
//! is played; a large replay run off the HTTP workers.

use std::sync::atomic::Ordering;

use crate::api::game::GameApi;
use crate::api::services::{run_stoppable, Services};
use crate::api::transport::problem::RequestError;
use crate::limits::Limits;
use crate::operations::Operation;

/// `replay`: the state after each step, each step checked; the first
/// refused one is the answer, with its `ply`. The work (cells times steps)
/// and the answer's size (within `room` bytes: the answer cap, or what is
/// left of a batch's) are checked before anything is played; a large
/// replay runs on the blocking pool in a work slot, so the HTTP workers
/// stay free.
pub async fn replay<G: GameApi>(
    request: G::ReplayRequest,
    services: &Services,
    room: usize,
) -> Result<G::ReplayResponse, RequestError> {
    let limits = services.limits;
    let (state, steps) = G::decode_replay(request, &limits)?;
    let work = limits.check_replay_work(G::size(&state), steps.len(), G::REPLAY_STEPS)?;
    let per_state = serde_json::to_vec(&G::replay_state(&state)).map_or(0, |s| s.len() + 1);
    let within = Limits {
        answer_max_bytes: room.min(limits.answer_max_bytes),
        ..limits
    };
    within.check_answer(per_state.saturating_mul(steps.len()), true)?;
    if work <= Limits::INLINE_REPLAY_WORK {
        return simulate::<G>(state, steps, &limits);
    }
    let (replayed, _) = run_stoppable(
        services.slots_of(Operation::Replay),
        &limits,
        None,
        move |stop| {
            simulate::<G>(state, steps, &limits).and_then(|answer| {
                // A client that went away gets nothing; stop writing states.
                if stop.load(Ordering::Relaxed) {
                    Err(RequestError::Internal("the client went away".to_owned()))
                } else {
                    Ok(answer)
                }
            })
        },
    )
    .await?;
    replayed
}

/// Plays a replay's steps from `state`.
fn simulate<G: GameApi>(
    mut state: G::State,
    steps: Vec<G::ReplayStep>,
    limits: &Limits,
) -> Result<G::ReplayResponse, RequestError> {
    let mut states = Vec::with_capacity(steps.len());
    let mut past = G::Past::default();
    G::remember(&mut past, &mut state);
    for (ply, step) in steps.into_iter().enumerate() {
        let step = G::replay_step(&mut state, step, ply, limits)?;
        G::play(&mut state, step).map_err(|e| G::refusal(e, Some(ply)))?;
        G::remember(&mut past, &mut state);
        states.push(G::replay_state(&state));
    }
    let last = G::encode_score(&state);
    Ok(G::encode_replay(states, last))
}
