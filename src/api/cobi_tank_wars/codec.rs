//! Tank Wars' codecs: orders and events between the engine and the DTOs,
//! and how a state stands.

use std::collections::BTreeMap;

use super::dto::*;
use crate::games::cobi_tank_wars::{CobiTankWars, Order, OrderData, Player, State};
use crate::games::Game;

pub(super) fn encode_orders(orders: impl IntoIterator<Item = (String, Order)>) -> SuggestedOrders {
    SuggestedOrders(orders.into_iter().collect())
}

pub(super) fn decode_orders(orders: OrdersDto) -> [BTreeMap<String, OrderData>; 2] {
    [orders.p1.0, orders.p2.0]
}

/// Whether the game is over, the winner, whether it is drawn.
pub(super) fn status(state: &State) -> (bool, Option<Player>, bool, Option<EndReasonName>) {
    match CobiTankWars::outcome(state) {
        None => (false, None, false, None),
        Some(winner) => (
            true,
            winner,
            winner.is_none(),
            Some(EndReasonName::Destroyed),
        ),
    }
}
