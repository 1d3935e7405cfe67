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
    let data = |given: VehicleOrders| {
        given
            .0
            .into_iter()
            .map(|(id, o)| {
                let order = OrderData {
                    dir: o.dir,
                    dist: o.dist,
                };
                (id, order)
            })
            .collect()
    };
    [data(orders.p1), data(orders.p2)]
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
