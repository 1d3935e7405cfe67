//! The AI's evaluation: a player's material against the enemy's.

use crate::games::cobi_tank_wars::rules::outcome;
use crate::games::cobi_tank_wars::state::{Player, State};

/// Points of the evaluation: a vehicle is worth its armor plus this.
pub const VEHICLE_POINTS: f64 = 3.0;
/// Points of a support card.
pub const SUPPORT_CARD_POINTS: f64 = 2.0;
/// Points of a won (or lost) game.
pub const WIN_POINTS: f64 = 100.0;

/// The player's material minus the enemy's: armor plus 3 a vehicle, 2 a
/// support card, and 100 for a won (-100 a lost) game.
pub fn material(state: &State, player: Player) -> f64 {
    let side = |p: Player| {
        let vehicles: f64 = state
            .vehicles
            .iter()
            .filter(|v| v.owner == p)
            .map(|v| f64::from(v.armor) + VEHICLE_POINTS)
            .sum();
        let cards = state.support_cards.get(p.index()).copied().unwrap_or(0);
        vehicles + SUPPORT_CARD_POINTS * f64::from(cards)
    };
    let result = match outcome(state) {
        Some(Some(winner)) if winner == player => WIN_POINTS,
        Some(Some(_)) => -WIN_POINTS,
        _ => 0.0,
    };
    side(player) - side(player.other()) + result
}
