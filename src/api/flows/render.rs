//! `render.svg`, for every game: the game's picture with its entity tag
//! (a 304 for a current copy).

use actix_web::{HttpRequest, HttpResponse};

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::ApiError;
use crate::api::transport::svg;

/// `render.svg`: the picture, with its entity tag.
pub fn render<G: GameApi>(
    request: &HttpRequest,
    query: G::RenderQuery,
    services: &Services,
) -> Result<HttpResponse, ApiError> {
    Ok(svg::respond(request, G::render(query, &services.limits)?))
}
