//! `render.svg`, for every game: the game's picture with its entity tag
//! (a 304 for a current copy).

use actix_web::{HttpRequest, HttpResponse};

use crate::api::game::GameApi;
use crate::api::services::Services;
use crate::api::transport::problem::HttpError;
use crate::api::transport::svg;
use crate::i18n::Lang;

/// `render.svg`: the picture, in the request's language, with its entity
/// tag (which differs by language as the bytes do).
pub fn render<G: GameApi>(
    request: &HttpRequest,
    query: G::RenderQuery,
    services: &Services,
    lang: Lang,
) -> Result<HttpResponse, HttpError> {
    let picture = G::render(query, &services.limits, lang)?;
    svg::respond(request, picture, &services.in_flight)
}
