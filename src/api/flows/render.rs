//! `render.svg`, for every game: the game's picture with its entity tag
//! (a 304 for a current copy).

use actix_web::{HttpRequest, HttpResponse};

use crate::api::game::{GameApi, JsonState};
use crate::api::services::Services;
use crate::api::transport::json::parse_param;
use crate::api::transport::problem::ApiError;
use crate::api::transport::svg;
use crate::games::Game;
use crate::limits::Limits;

/// `render.svg`: the picture, with its entity tag.
pub fn render<G: GameApi>(
    request: &HttpRequest,
    query: G::RenderQuery,
    services: &Services,
) -> Result<HttpResponse, ApiError> {
    Ok(svg::respond(request, G::render(query, &services.limits)?))
}

/// The picture of a game whose state travels as JSON: of the state sent as
/// JSON in the query parameter `state`, or of the default start.
pub fn json_state_picture<G: JsonState>(
    text: Option<&str>,
    limits: &Limits,
) -> Result<String, ApiError> {
    let state = match text {
        Some(text) => {
            let dto = parse_param(text, "state")?;
            G::decode_state(&dto, "state", limits)?
        }
        None => <G as Game>::initial(),
    };
    Ok(G::draw(&state))
}
