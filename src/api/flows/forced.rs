//! Where an entry of a review names a forced result: the position's
//! (`value`) or the move played's (`value_played`), with its winner and,
//! where the judge counts them, the plies to the end.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::api::game::GameApi;
use crate::games::review::Forced;

/// A forced result: `winner` wins however the other plays.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = AnnotationForcedResult)]
pub struct ForcedResult {
    /// The player who wins, as the game names players.
    #[schema(example = "white")]
    pub winner: Cow<'static, str>,
    /// Tank Battle: the plies to the game's end the judge found, counted
    /// from the position before the move (the move played included for
    /// `value_played`); absent where the judge does not count them (The
    /// Tank War's solved table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(example = 5, nullable = false)]
    pub plies: Option<u32>,
}

/// Where the position (`value`) or the move played (`value_played`) has
/// a forced result: present only then (absent where neither has one);
/// each `null` where it has none.
/// Tank Battle: a search's score beyond 999,000 in size (1,000,000 less
/// the plies to the end); The Tank War: an exact value of +1 or −1 (the
/// move played measured against `against`). Tank Wars' judge proves no
/// result: never present.
#[derive(Clone, Debug, Deserialize, Serialize, ToSchema)]
#[schema(as = AnnotationForced)]
pub struct ForcedResults {
    #[schema(required = true)]
    pub value: Option<ForcedResult>,
    #[schema(required = true)]
    pub value_played: Option<ForcedResult>,
}

impl ForcedResults {
    /// The forced results of a verdict's `value` and `value_played`, the
    /// player `player` judged, if either has one.
    pub(super) fn of<G: GameApi>(
        player: usize,
        value: f64,
        value_played: f64,
        exact: bool,
    ) -> Option<Self> {
        let result = |forced: Option<Forced>| {
            forced.map(|forced| ForcedResult {
                winner: Cow::Borrowed(G::player_name(if forced.win {
                    player
                } else {
                    1 - player.min(1)
                })),
                plies: forced.plies,
            })
        };
        let value = result(G::forced(value, exact));
        let value_played = result(G::forced(value_played, exact));
        (value.is_some() || value_played.is_some()).then_some(ForcedResults {
            value,
            value_played,
        })
    }
}
