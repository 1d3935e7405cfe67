//! `ai-move`'s `play` in The Tank War: the other player's pick the
//! request gives, and the round it makes with the AI's.

use super::dto::{AiMoveRequest, AiSuggestion};
use crate::api::flows::ask::{other_step_needed, refuse_without_play, Suggested};
use crate::api::transport::problem::RequestError;
use crate::games::tank_war::{Player, Round, State};

/// `moves` holds the other player's pick, and only it, when `play`
/// asks; neither it nor `elapsed_ms` is given without `play`.
pub(super) fn play_with(
    request: &AiMoveRequest,
) -> Result<Option<(String, [u64; 2])>, RequestError> {
    let player: Player = request.player;
    let other = player.other();
    if !request.play {
        refuse_without_play(&[
            ("moves", request.moves.is_some()),
            ("elapsed_ms", request.elapsed_ms.is_some()),
        ])?;
        return Ok(None);
    }
    let moves = request.moves.as_ref();
    let pick = |p: Player| {
        moves.and_then(|m| match p {
            Player::U => m.u.clone(),
            Player::D => m.d.clone(),
        })
    };
    let field = format!("moves.{other}");
    match (pick(player), pick(other)) {
        (None, Some(theirs)) => {
            let elapsed = request.elapsed_ms.unwrap_or_default();
            Ok(Some((theirs, [elapsed.u, elapsed.d])))
        }
        _ => Err(other_step_needed(&field, player.name())),
    }
}

pub(super) fn played_step(
    _: &mut State,
    player: &Player,
    answer: &Suggested<AiSuggestion>,
    (theirs, elapsed_ms): (String, [u64; 2]),
) -> Result<Round, RequestError> {
    let mine = answer.suggestion.pick.clone();
    let picks = match player {
        Player::U => [mine, theirs],
        Player::D => [theirs, mine],
    };
    Ok(Round { picks, elapsed_ms })
}
