//! The games a server serves, each as one [`GameEntry`]: what the
//! application needs of a game beyond its HTTP face — its name and
//! description for the catalogue (`GET /v1/games`) and the document's
//! section, its routes (`configure`, written by its `game_routes!` call) and
//! the codes its problems carry. The application mounts a list of them
//! ([`SERVED`], or a test's own list: Nim's test mounts a fourth game
//! exactly so), and everything that is per game — routes, catalogue,
//! document tags, problem codes, batch item schemas — comes from that list.

use utoipa_actix_web::service_config::ServiceConfig;

use crate::api::game::GameApi;
use crate::api::{cobi_tank_wars, tank_battle, tank_war};
use crate::games::cobi_tank_wars::CobiTankWars;
use crate::games::tank_battle::TankBattle;
use crate::games::tank_war::TankWar;
use crate::games::Game;

/// One game as the application mounts it.
#[derive(Clone, Copy)]
pub struct GameEntry {
    /// Its path segment (`/v1/{id}/…`) and document tag.
    pub id: &'static str,
    pub name: &'static str,
    /// The catalogue's description: what the game is.
    pub description: &'static str,
    /// The sides, in the game's own names.
    pub players: &'static [&'static str],
    /// How turns work.
    pub kind: &'static str,
    /// The description of its section of the document (Swagger UI's),
    /// saying how its positions, moves and states are written.
    pub section: &'static str,
    /// Registers its scope, `/v1/{id}`, and its routes.
    pub configure: fn(&mut ServiceConfig),
    /// The codes its problems carry beyond the service's own.
    pub problem_codes: fn() -> Vec<&'static str>,
}

/// The games this service serves, in the order the catalogue and the
/// document list them.
pub const SERVED: &[GameEntry] = &[
    GameEntry {
        id: TankBattle::ID,
        name: "Tank Battle",
        description: "11x11 board of sliding tanks: commanders, mines, a contaminated centre and two bases; \
             occupy the enemy base with as many tanks as possible.",
        players: &crate::games::tank_battle::Side::NAMES,
        kind: "alternating moves",
        section: "Tank Battle: 11x11, sliding tanks, commanders, mines, a contaminated centre and two bases. \
Positions are TBN (`<placement> <side> <ply>`), layouts are `standard` or 11 rows of `. # ~ w W b B`, \
moves are `from-to` / `fromxto`.",
        configure: tank_battle::configure,
        problem_codes: TankBattle::problem_codes,
    },
    GameEntry {
        id: TankWar::ID,
        name: "The Tank War",
        description: "Tanks on fixed tracks, each player moving one tank a round at the same time, then every \
             tank fires (A diagonal, B orthogonal, C two away); most surviving tanks, then most \
             territory, wins. Each player has a 120 s clock.",
        players: &crate::games::tank_war::Player::NAMES,
        kind: "simultaneous moves",
        section: "The Tank War: simultaneous moves on tracks, A/B/C tanks, a firing phase and clocks. \
States are JSON (board size, territory rows from the top, tanks with their tracks, round, clocks); a round is one pick per player.",
        configure: tank_war::configure,
        problem_codes: TankWar::problem_codes,
    },
    GameEntry {
        id: CobiTankWars::ID,
        name: "Tank Wars board game round",
        description: "Up to three vehicles a player get hidden orders (direction and distance) executed in card \
             order; artillery tokens cost armor on the way, support tokens give support cards, gunfire \
             hits where a vehicle stops, then a seeded supply drop. The game ends when a player has no \
             vehicles.",
        players: &crate::games::cobi_tank_wars::Player::NAMES,
        kind: "simultaneous orders, resolver",
        section: "Tank Wars (a board game's round): up to three vehicles a player, each with one hidden order \
(direction N/E/S/W, distance 1-3) executed in card order; artillery, support and gunfire tokens; a seeded supply drop. \
States are JSON (board size, vehicles with id, owner, square, armor and card slot, token squares, support cards, round).",
        configure: cobi_tank_wars::configure,
        problem_codes: CobiTankWars::problem_codes,
    },
];

/// Every code a problem of a server serving `games` may carry: the
/// service's own, then each game's notation and rule codes, each once.
pub fn problem_codes(games: &[GameEntry]) -> Vec<&'static str> {
    let mut codes = crate::api::transport::http_error::SERVICE_CODES.to_vec();
    for code in games.iter().flat_map(|game| (game.problem_codes)()) {
        if !codes.contains(&code) {
            codes.push(code);
        }
    }
    codes
}

#[cfg(test)]
mod tests {
    use crate::api::tank_battle;
    use crate::games;

    /// The engines write the players' names once; the DTOs that carry a
    /// player, the catalogue and the reviews' `player` say the same.
    #[test]
    fn the_api_names_players_as_the_engines_do() {
        fn written(dto: impl serde::Serialize) -> String {
            serde_json::to_value(dto)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default()
        }
        for side in games::tank_battle::Side::ALL {
            assert_eq!(written(side), side.name());
        }
        for player in games::tank_war::Player::ALL {
            assert_eq!(written(player), player.name());
        }
        for player in games::cobi_tank_wars::Player::ALL {
            assert_eq!(written(player), player.name());
        }
        let players: Vec<&[&str]> = super::SERVED.iter().map(|g| g.players).collect();
        assert_eq!(
            players,
            [
                &games::tank_battle::Side::NAMES[..],
                &games::tank_war::Player::NAMES[..],
                &games::cobi_tank_wars::Player::NAMES[..],
            ]
        );
    }

    /// The engines' values that answers write as they are (sides, tank
    /// kinds, end reasons, directions, labels, turning points) are written
    /// as their schemas list them.
    #[test]
    fn engine_values_travel_as_their_schemas_name_them() {
        fn listed<T: utoipa::PartialSchema>(value: impl serde::Serialize) -> bool {
            let schema = serde_json::to_value(T::schema()).unwrap_or_default();
            let name = serde_json::to_value(value).unwrap_or_default();
            schema["enum"]
                .as_array()
                .is_some_and(|names| names.contains(&name))
        }
        use games::tank_battle::{EndReason, Role, Side};
        for side in Side::ALL {
            assert!(listed::<tank_battle::SideName>(side), "{side:?}");
        }
        for role in [Role::Tank, Role::Commander] {
            assert!(listed::<tank_battle::TankKind>(role), "{role:?}");
        }
        for reason in EndReason::ALL {
            assert!(listed::<tank_battle::EndReasonName>(reason), "{reason:?}");
        }
        for label in games::review::Label::ALL {
            assert!(
                listed::<crate::api::flows::annotation::LabelName>(label),
                "{label:?}"
            );
        }
        for kind in [
            games::review::MomentKind::LeadChange,
            games::review::MomentKind::Drop,
        ] {
            assert!(
                listed::<crate::api::flows::annotation::MomentKindName>(kind),
                "{kind:?}"
            );
        }
        for reason in [
            games::tank_war::EndReason::NoMoves,
            games::tank_war::EndReason::Time,
        ] {
            assert!(
                listed::<crate::api::tank_war::EndReasonName>(reason),
                "{reason:?}"
            );
        }
        // Each game's puzzle themes: the engine's, by their names.
        let themes = [
            <tank_battle::ThemeName as utoipa::PartialSchema>::schema(),
            <crate::api::cobi_tank_wars::ThemeName as utoipa::PartialSchema>::schema(),
        ];
        for schema in themes {
            let names = serde_json::to_value(schema).unwrap_or_default()["enum"].clone();
            let themes: Vec<games::review::puzzle::Theme> =
                serde_json::from_value(names.clone()).unwrap_or_default();
            assert!(!themes.is_empty(), "{names}");
            for theme in &themes {
                assert_eq!(
                    serde_json::to_value(theme).unwrap_or_default(),
                    theme.name()
                );
            }
            assert_eq!(serde_json::to_value(themes).unwrap_or_default(), names);
        }
        for dir in games::cobi_tank_wars::Dir::ALL {
            assert!(
                listed::<crate::api::cobi_tank_wars::DirectionName>(dir),
                "{dir:?}"
            );
        }
    }
}
