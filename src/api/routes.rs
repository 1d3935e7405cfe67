//! [`game_routes!`]: one game's routes and their OpenAPI documentation,
//! declared from one place.
//!
//! utoipa documents concrete handler functions, so each game needs its own;
//! this macro writes them all alike: each handler extracts the body and the
//! shared [`Services`](super::game::Services) and runs the endpoint's one generic flow
//! in [`super::game`]. A game gives only what differs: the description of
//! each operation (its doc comments) and of its answers. The game's module
//! must name its DTOs after their endpoint (`LegalMovesRequest`,
//! `ApplyResponse`, …, `RenderQuery`, `BatchRequest`), as
//! [`GameApi`](super::game::GameApi) does.

/// Declares the handlers of one game and `configure`, which registers
/// them (and the game's `extra` handlers, declared by hand).
macro_rules! game_routes {
    (
        game: $game:ident,
        operation_prefix: $prefix:literal,
        $(initial: { $(#[$initial_doc:meta])* ok: $initial_ok:literal $(,)? },)?
        legal_moves: { $(#[$lm_doc:meta])* ok: $lm_ok:literal, bad_request: $lm_400:literal $(,)? },
        validate: { $(#[$v_doc:meta])* ok: $v_ok:literal, bad_request: $v_400:literal $(,)? },
        apply: { $(#[$a_doc:meta])* ok: $a_ok:literal, bad_request: $a_400:literal, refused: $a_422:literal $(,)? },
        score: { $(#[$s_doc:meta])* ok: $s_ok:literal, bad_request: $s_400:literal $(,)? },
        replay: { $(#[$r_doc:meta])* ok: $r_ok:literal, bad_request: $r_400:literal, refused: $r_422:literal $(,)? },
        ai_move: { $(#[$ai_doc:meta])* ok: $ai_ok:literal, bad_request: $ai_400:literal, refused: $ai_422:literal,
            examples: [$(($ai_example:literal, $ai_summary:literal, $ai_value:expr)),+ $(,)?] $(,)? },
        render: { $(#[$render_doc:meta])* bad_request: $render_400:literal $(,)? },
        extra: [$($extra:ident),* $(,)?] $(,)?
    ) => {
        pub use handlers::configure;

        /// The handlers, apart from the game's names.
        mod handlers {
        use super::*;
        // utoipa finds a handler's method and path in these attributes by
        // their plain names.
        use actix_web::{get, post};

        /// Registers the game's routes.
        pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
            cfg$(.service({ let _ = $initial_ok; initial }))?
                .service(legal_moves)
                .service(validate)
                .service(apply)
                .service(score)
                .service(replay)
                $(.service($extra))*
                .service(ai_move)
                .service(batch)
                .service(render);
        }

        $(
        $(#[$initial_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_initial"),
            responses(
                (status = 200, description = $initial_ok, body = InitialResponse),
                (status = 400, description = "`BAD_REQUEST`: a query parameter (this operation takes none)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
            )
        )]
        #[get("/initial")]
        async fn initial(
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game::{json_response, GameApi};
            use crate::games::Game;
            let start = <$game as GameApi>::replay_state(&<$game as Game>::initial());
            json_response(serde_json::to_vec(&start), &services.limits)
        }
        )?

        $(#[$lm_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_legal_moves"),
            request_body = LegalMovesRequest,
            responses(
                (status = 200, description = $lm_ok, body = LegalMovesResponse),
                (status = 400, description = $lm_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/legal-moves")]
        async fn legal_moves(
            body: crate::api::json::ApiJson<LegalMovesRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game::{self as flow, GameApi};
            let answer = flow::legal_moves::<$game>(body.0, &services)?;
            flow::json_response(<$game as GameApi>::legal_moves_json(&answer), &services.limits)
        }

        $(#[$v_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_validate"),
            request_body = ValidateRequest,
            responses(
                (status = 200, description = $v_ok, body = ValidateResponse),
                (status = 400, description = $v_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/validate")]
        async fn validate(
            body: crate::api::json::ApiJson<ValidateRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game as flow;
            let answer = flow::validate::<$game>(body.0, &services)?;
            flow::json_response(serde_json::to_vec(&answer), &services.limits)
        }

        $(#[$a_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_apply"),
            request_body = ApplyRequest,
            responses(
                (status = 200, description = $a_ok, body = ApplyResponse),
                (status = 400, description = $a_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 422, description = $a_422, body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/apply")]
        async fn apply(
            body: crate::api::json::ApiJson<ApplyRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game as flow;
            let answer = flow::apply::<$game>(body.0, &services)?;
            flow::json_response(serde_json::to_vec(&answer), &services.limits)
        }

        $(#[$s_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_score"),
            request_body = ScoreRequest,
            responses(
                (status = 200, description = $s_ok, body = ScoreResponse),
                (status = 400, description = $s_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/score")]
        async fn score(
            body: crate::api::json::ApiJson<ScoreRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game as flow;
            let answer = flow::score::<$game>(body.0, &services)?;
            flow::json_response(serde_json::to_vec(&answer), &services.limits)
        }

        $(#[$r_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_replay"),
            request_body = ReplayRequest,
            responses(
                (status = 200, description = $r_ok, body = ReplayResponse),
                (status = 400, description = $r_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 422, description = $r_422, body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/replay")]
        async fn replay(
            body: crate::api::json::ApiJson<ReplayRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game as flow;
            let answer = flow::replay::<$game>(body.0, &services).await?;
            flow::json_response(serde_json::to_vec(&answer), &services.limits)
        }

        $(#[$ai_doc])*
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_ai_move"),
            request_body(content = AiMoveRequest, examples($(($ai_example = (summary = $ai_summary, value = json!($ai_value)))),+)),
            responses(
                (status = 200, description = $ai_ok, body = AiMoveResponse),
                (status = 400, description = $ai_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 422, description = $ai_422, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 503, description = "`SERVICE_BUSY`: every search slot is taken; retry after `Retry-After` seconds", body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/ai-move")]
        async fn ai_move(
            body: crate::api::json::ApiJson<AiMoveRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use crate::api::game as flow;
            let answer = flow::ai_move::<$game>(body.0, &services, None).await?;
            flow::json_response(serde_json::to_vec(&answer), &services.limits)
        }

        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_batch"),
            summary = "Runs several requests in one round trip, in order.",
            description = crate::api::game::batch_ops::<$game>().description(),
            request_body = BatchRequest,
            responses(
                (status = 200, description = "One result per request, in order", body = crate::api::batch::BatchResponse),
                (status = 400, description = "`BAD_REQUEST` (not `{\"requests\": […]}`, or an item that is not an object with a known `op`) or `LIMIT_EXCEEDED` (`requests`: too many requests, or too many searches; the whole answer over the answer limit)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
                (status = 408, description = "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 413, description = "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default)", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 415, description = "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed", body = crate::api::problem::Problem, content_type = "application/problem+json"),
            )
        )]
        #[post("/batch")]
        async fn batch(
            request: actix_web::HttpRequest,
            body: crate::api::batch::BatchBody<BatchRequest>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            use actix_web::HttpMessage;
            let client = request.extensions().get::<crate::fair_use::Client>().cloned();
            crate::api::game::batch::<$game, _>(body, &services, client).await
        }

        $(#[$render_doc])*
        ///
        /// The picture depends only on the query, so it carries an `ETag` and
        /// `Cache-Control: public, max-age=86400`; `If-None-Match` gets a 304.
        #[utoipa::path(
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_render"),
            params(
                RenderQuery,
                ("If-None-Match" = Option<String>, Header, description = "The `ETag` of a copy the client holds: 304 when it is still current"),
            ),
            responses(
                (status = 200, description = "The picture", body = String, content_type = "image/svg+xml",
                 headers(("ETag" = String, description = "Strong tag of the picture"), ("Cache-Control" = String))),
                (status = 304, description = "The client's copy (`If-None-Match`) is current"),
                (status = 400, description = $render_400, body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 405, description = "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Allow" = String, description = "The methods of this path"))),
                (status = 401, description = "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent", body = crate::api::problem::Problem, content_type = "application/problem+json"),
                (status = 429, description = "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)", body = crate::api::problem::Problem, content_type = "application/problem+json", headers(("Retry-After" = u64, description = "Seconds to wait"), ("RateLimit-Policy" = String, description = "The quota, e.g. `\"requests\";q=600;w=60`"), ("RateLimit" = String, description = "What is left of it, e.g. `\"requests\";r=0;t=6`"))),
            )
        )]
        #[get("/render.svg")]
        async fn render(
            request: actix_web::HttpRequest,
            query: actix_web::web::Query<RenderQuery>,
            services: actix_web::web::Data<crate::api::game::Services>,
        ) -> Result<actix_web::HttpResponse, crate::api::problem::ApiError> {
            crate::api::game::render::<$game>(&request, query.into_inner(), &services)
        }
        }
    };
}
pub(crate) use game_routes;

/// Binds [`GameApi`](super::game::GameApi)'s DTO types to the game
/// module's types of the same names; `dto_types!(json_state)` also brings
/// the methods every [`JsonState`](super::game::JsonState) game shares.
macro_rules! dto_types {
    (json_state) => {
        $crate::api::routes::dto_types!();
        $crate::api::game::json_state_methods!();
    };
    () => {
        type LegalMovesRequest = LegalMovesRequest;
        type LegalMovesResponse = LegalMovesResponse;
        type ValidateRequest = ValidateRequest;
        type ValidateResponse = ValidateResponse;
        type ApplyRequest = ApplyRequest;
        type ApplyResponse = ApplyResponse;
        type ScoreRequest = ScoreRequest;
        type ScoreResponse = ScoreResponse;
        type ReplayRequest = ReplayRequest;
        type ReplayResponse = ReplayResponse;
        type AiMoveRequest = AiMoveRequest;
        type AiMoveResponse = AiMoveResponse;
        type RenderQuery = RenderQuery;
        type ReplayStep = ReplayStep;
        type ReplayState = ReplayState;
    };
}
pub(crate) use dto_types;
