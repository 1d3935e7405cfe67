//! `render.svg`, for every game: the game's picture with its entity tag
//! (a 304 for a current copy).

use actix_web::{HttpRequest, HttpResponse};

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::RequestError;
use crate::api::transport::request_id::current_lang;
use crate::api::transport::svg;

/// `render.svg`: the picture, in the request's language, with its entity
/// tag (which differs by language as the bytes do).
pub fn render<G: GameApi>(
    request: &HttpRequest,
    query: G::RenderQuery,
    services: &Services,
) -> Result<HttpResponse, RequestError> {
    let picture = G::render(query, &services.limits, current_lang())?;
    svg::respond(request, picture, &services.in_flight)
}
