//! `ai-move`'s `play` in Tank Wars: the other player's orders and gunfire
//! the request gives, and the round they make with the AI's.

use super::ai_move::{AiMoveRequest, AiSuggestion};
use super::dto::VehicleOrders;
use crate::api::flows::ask::{other_step_needed, refuse_without_play, Suggested};
use crate::api::transport::problem::RequestError;
use crate::games::cobi_tank_wars::{OrderData, Player, Question, Round};

/// `orders` and `gunfire` are the other player's, given only with
/// `play` (which needs the orders: a player without vehicles gives
/// `{}`).
pub(super) fn play_with(
    request: &AiMoveRequest,
) -> Result<Option<(VehicleOrders, Vec<String>, u64)>, RequestError> {
    if !request.play {
        refuse_without_play(&[
            ("orders", request.orders.is_some()),
            ("gunfire", request.gunfire.is_some()),
        ])?;
        return Ok(None);
    }
    let player: Player = request.player;
    let Some(orders) = request.orders.clone() else {
        return Err(other_step_needed("orders", player.name()));
    };
    let gunfire = request.gunfire.clone().unwrap_or_default();
    Ok(Some((orders, gunfire, request.seed.unwrap_or(0))))
}

/// The round's gunfire squares (the AI's and the other player's, to be
/// placed first), and both players' orders as the round.
pub(super) fn played_round(
    question: &Question,
    answer: &Suggested<AiSuggestion>,
    (theirs, gunfire, seed): (VehicleOrders, Vec<String>, u64),
) -> (Vec<String>, Round) {
    let suggestion = &answer.suggestion;
    let squares: Vec<String> = suggestion
        .gunfire
        .iter()
        .map(|target| target.square.clone())
        .chain(gunfire)
        .collect();
    let mine = suggestion.orders.0.iter();
    let mine = mine.map(|(id, order)| (id.clone(), OrderData::from(*order)));
    let orders = match question.player {
        Player::P1 => [mine.collect(), theirs.0],
        Player::P2 => [theirs.0, mine.collect()],
    };
    (squares, Round { orders, seed })
}
