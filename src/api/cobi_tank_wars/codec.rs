//! Tank Wars' codecs: orders and events between the engine and the DTOs,
//! and how a state stands.

use std::collections::BTreeMap;

use super::dto::*;
use crate::games::cobi_tank_wars::{CobiTankWars, Event, Order, OrderData, Player, State};
use crate::games::grid::Cell;
use crate::games::Game;

pub(super) fn encode_orders(orders: impl IntoIterator<Item = (String, Order)>) -> SuggestedOrders {
    let suggested = orders.into_iter().map(|(id, order)| {
        let order = SuggestedOrder {
            dir: order.dir.into(),
            dist: order.dist,
        };
        (id, order)
    });
    SuggestedOrders(suggested.collect())
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

pub(super) fn encode_event(event: Event) -> EventDto {
    let sq = |c: Cell| c.to_string();
    match event {
        Event::Moved { vehicle, from, to } => EventDto::Moved {
            vehicle,
            from: sq(from),
            to: sq(to),
        },
        Event::Cancelled { vehicle, at, to } => EventDto::Cancelled {
            vehicle,
            at: sq(at),
            to: to.map(sq),
        },
        Event::ArtilleryHit { vehicle, square } => EventDto::ArtilleryHit {
            vehicle,
            square: sq(square),
        },
        Event::SupportTaken {
            vehicle,
            square,
            player,
        } => EventDto::SupportTaken {
            vehicle,
            square: sq(square),
            player,
        },
        Event::GunfireHit { vehicle, square } => EventDto::GunfireHit {
            vehicle,
            square: sq(square),
        },
        Event::Destroyed { vehicle, square } => EventDto::Destroyed {
            vehicle,
            square: sq(square),
        },
        Event::SupplyDrop { square } => EventDto::SupplyDrop { square: sq(square) },
    }
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
