//! [`game_routes!`]: one game's routes and their OpenAPI documentation,
//! declared from one place.
//!
//! utoipa documents concrete handler functions, so each game needs its own;
//! this macro writes them all alike: each handler extracts the body and the
//! shared [`Services`](crate::api::services::Services) and runs the
//! endpoint's one generic flow in [`crate::api::flows`]. A game gives only
//! what differs: the description of each operation (its doc comments) and
//! of its answers. The errors every operation shares are declared once, in
//! [`crate::api::openapi::responses`]. The DTOs are the ones the game's
//! [`GameApi`](crate::api::game::GameApi) names; its module names only its
//! `BatchRequest` (and `InitialResponse`, with `initial`).

/// Declares the handlers of one game and `configure`, which registers
/// them (and the game's `extra` handlers, declared by hand) in the game's
/// scope, `/v1/{game}`.
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
        extra: [$(($extra_op:expr, $extra_doc:ident, $extra:ident)),* $(,)?] $(,)?
    ) => {
        pub use handlers::configure;

        /// The handlers, apart from the game's names.
        mod handlers {
        use super::*;
        use crate::api::openapi::resource::operation;
        use actix_web::web::Data;
        use actix_web::HttpResponse;
        use crate::api::flows;
        use crate::api::openapi::responses::{BodyErrors, BusyError, ReviewErrors, RouteErrors};
        use crate::api::services::{JsonAndServices, Services};
        use crate::api::transport::json::{encode, respond};
        use crate::api::transport::problem::{HttpError, Problem};

        // The game's DTOs, as its `GameApi` names them.
        type LegalMovesRequest = <$game as GameApi>::LegalMovesRequest;
        type LegalMovesResponse = <$game as GameApi>::LegalMovesResponse;
        type ValidateRequest = <$game as GameApi>::ValidateRequest;
        type ValidateResponse = <$game as GameApi>::ValidateResponse;
        type ApplyRequest = <$game as GameApi>::ApplyRequest;
        type ApplyResponse = <$game as GameApi>::ApplyResponse;
        type ScoreRequest = <$game as GameApi>::ScoreRequest;
        type ScoreResponse = <$game as GameApi>::ScoreResponse;
        type ReplayRequest = <$game as GameApi>::ReplayRequest;
        type ReplayResponse = <$game as GameApi>::ReplayResponse;
        type AiMoveRequest = <$game as GameApi>::AiMoveRequest;
        type AiMoveResponse = flows::ask::Suggested<<$game as GameApi>::AiSuggestion>;
        /// The answer as documented: `applied` added for `play`.
        type AiMoveAnswer = flows::ask::Played<AiMoveResponse, ApplyResponse>;
        type RenderQuery = <$game as GameApi>::RenderQuery;
        type AnnotateRequest = <$game as GameApi>::AnnotateRequest;
        type AnnotateResponse = crate::api::game::ForGame<$game, flows::annotate::AnnotateResponse<$game>>;
        type AnnotateLine = flows::annotate::AnnotateLine<$game>;
        type CompareRequest = flows::compare::GameCompareRequest<$game>;

        /// Registers the game's scope, `/v1/{game}`: each route the
        /// operation of [`crate::operations`] it serves (its path, method
        /// and price are the operation's).
        pub fn configure(cfg: &mut utoipa_actix_web::service_config::ServiceConfig) {
            use crate::operations::Operation;
            let under = format!("/v1/{}", <$game as crate::games::Game>::ID);
            let at = under.as_str();
            cfg.service(utoipa_actix_web::scope(at)
                .service(operation(at, Operation::Validate, __path_validate, validate))
                .service(operation(at, Operation::Apply, __path_apply, apply))
                .service(operation(at, Operation::Score, __path_score, score))
                .service(operation(at, Operation::LegalMoves, __path_legal_moves, legal_moves))
                .service(operation(at, Operation::AiMove, __path_ai_move, ai_move))
                $(.service(operation(at, Operation::Initial, { let _ = $initial_ok; __path_initial }, initial)))?
                .service(operation(at, Operation::Replay, __path_replay, replay))
                .service(operation(at, Operation::Annotate, __path_annotate, annotate))
                .service(operation(at, Operation::AnnotateLines, __path_annotate_lines, annotate_lines))
                .service(operation(at, Operation::AnnotateChart, __path_annotate_chart, annotate_chart))
                $(.service(operation(at, $extra_op, $extra_doc, $extra)))*
                .service(operation(at, Operation::Batch, __path_batch, batch))
                .service(operation(at, Operation::Compare, __path_compare, compare))
                .service(operation(at, Operation::Render, __path_render, render)));
        }

        $(
        $(#[$initial_doc])*
        #[utoipa::path(
            get, path = crate::operations::Operation::Initial.path(),
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_initial"),
            responses(
                (status = 200, description = $initial_ok, body = InitialResponse),
                crate::api::openapi::responses::NoQuery,
                RouteErrors,
            )
        )]
        async fn initial() -> Result<HttpResponse, HttpError> {
            use crate::games::Game;
            static START: std::sync::OnceLock<actix_web::web::Bytes> = std::sync::OnceLock::new();
            crate::api::transport::json::respond_constant(&START, || {
                serde_json::to_vec(&<$game as crate::api::game::GameApi>::replay_state(&<$game as Game>::initial()))
            })
        }
        )?

        crate::api::game_routes::json_route!($game, $prefix, legal_moves, LegalMoves, [$(#[$lm_doc])*],
            LegalMovesRequest => ($lm_ok, LegalMovesResponse),
            [(status = 400, description = $lm_400, body = Problem, content_type = "application/problem+json")],
            |body, services, _lang| encode(&<$game as GameApi>::run_legal_moves(body, &services.limits)?));
        crate::api::game_routes::json_route!($game, $prefix, validate, Validate, [$(#[$v_doc])*],
            ValidateRequest => ($v_ok, ValidateResponse),
            [(status = 400, description = $v_400, body = Problem, content_type = "application/problem+json")],
            |body, services, lang| encode(&<$game as GameApi>::run_validate(body, &services.limits, lang)?));
        crate::api::game_routes::json_route!($game, $prefix, apply, Apply, [$(#[$a_doc])*],
            ApplyRequest => ($a_ok, ApplyResponse),
            [(status = 400, description = $a_400, body = Problem, content_type = "application/problem+json"),
             (status = 422, description = $a_422, body = Problem, content_type = "application/problem+json")],
            |body, services, _lang| encode(&flows::simple::apply::<$game>(body, &services)?));
        crate::api::game_routes::json_route!($game, $prefix, score, Score, [$(#[$s_doc])*],
            ScoreRequest => ($s_ok, ScoreResponse),
            [(status = 400, description = $s_400, body = Problem, content_type = "application/problem+json")],
            |body, services, _lang| encode(&flows::simple::score::<$game>(body, &services)?));
        crate::api::game_routes::json_route!($game, $prefix, replay, Replay, [$(#[$r_doc])*],
            ReplayRequest => ($r_ok, ReplayResponse),
            [(status = 400, description = $r_400, body = Problem, content_type = "application/problem+json"),
             (status = 422, description = $r_422, body = Problem, content_type = "application/problem+json"),
             BusyError],
            |body, services, _lang| encode(&flows::replay::replay::<$game>(body, &services, services.limits.answer_max_bytes).await?));

        crate::api::game_routes::json_route!($game, $prefix, ai_move, AiMove, [$(#[$ai_doc])*],
            AiMoveRequest, examples($(($ai_example = (summary = $ai_summary, value = json!($ai_value)))),+) => ($ai_ok, AiMoveAnswer),
            [(status = 400, description = $ai_400, body = Problem, content_type = "application/problem+json"),
             (status = 422, description = $ai_422, body = Problem, content_type = "application/problem+json"),
             BusyError],
            |body, services, _lang| flows::ai::ai_move::<$game>(body, &services, None).await?.into_json());

        crate::api::game_routes::post_route!($game, $prefix, annotate, Annotate, [
            /// Reviews a played game: every move judged against the best.
            ///
            /// The body is `replay`'s plus, optionally, the judge's `limits` and
            /// `level`; without `max_nodes` each position is searched to the
            /// game's fixed budget in positions, so a review is the same on any
            /// machine. Each entry (one a move; in the simultaneous games one a
            /// player a round) gives what the position was worth to the player
            /// (`value`), what the move kept (`value_played`), the `loss`, the
            /// same on the 0-100 scale of the player's chance to win, and a
            /// `label` by `win_chance_loss`: `best` (no loss), `excellent` (under
            /// 2), `good` (under 5), `inaccuracy` (under 10), `mistake` (under
            /// 20), `blunder`. `players` sums each player up: `accuracy` (as
            /// lichess's game accuracy: from each move's `103.1668 · e^(−0.04354 ·
            /// win_chance_loss) − 3.1669`, the mean of their volatility-weighted
            /// mean and their harmonic mean), `average_loss` and the count of
            /// each label. The Tank War is judged exactly wherever the
            /// game is solved (the default setup: always), on the expected
            /// result (+1 a win, 0 a draw, −1 a loss; chance to win = 50 × (1 +
            /// expected result)): each pick against the opponent's equilibrium
            /// strategy (`against`), with its `worst_case`. Tank Battle and Tank
            /// Wars are judged by their searches (Tank Battle: N + 1 searches for
            /// N moves, each reused for the move before it); their points map to
            /// a chance to win on a logistic curve (docs/REVIEW.md).
            ///
            /// With `Accept: application/x-ndjson` the review is streamed: one
            /// line an entry as soon as it is judged, then a line with `players`
            /// and `final`; a client that leaves stops the judge. With `Accept:
            /// image/svg+xml` the answer is the chart of each player's chance to
            /// win across the game, its mistakes and blunders marked. A review runs
            /// in a search slot (`SERVICE_BUSY` when none is free), judges at
            /// most `--annotate-max-plies` steps and takes at most
            /// `--annotate-max-time-ms` (then `LIMIT_EXCEEDED`; streamed, a last
            /// line with that problem).
        ], AnnotateRequest, params(flows::annotate::AnnotateQuery), [
            (status = 200, description = "The game reviewed: one JSON answer, NDJSON lines (`format=ndjson` or `Accept: application/x-ndjson`) or the SVG chart (`format=svg` or `Accept: image/svg+xml`)",
             content((AnnotateResponse = "application/json"), (AnnotateLine = "application/x-ndjson"), (String = "image/svg+xml"))),
            ReviewErrors, BusyError],
            |body, services, lang; request: actix_web::HttpRequest;
                query: crate::api::transport::query::Query<flows::annotate::AnnotateQuery>|
                review(flows::annotate::format_of(&query, &request), body, &services, lang).await);

        crate::api::game_routes::post_route!($game, $prefix, annotate_lines, AnnotateLines, [
            /// Reviews a played game, streamed: `annotate` answering NDJSON.
            ///
            /// The same review as `annotate` with `format=ndjson`, at the same
            /// price, for a client that reads one media type an operation (a
            /// generated one): one `AnnotateLine` a line, each entry as soon as
            /// it is judged, then the line with `players` and `final` (or, past
            /// a cap, one with the problem). Each line is a JSON object told
            /// apart by `line` (`entry`, `summary`, `problem`).
        ], AnnotateRequest, [
            (status = 200, description = "The review as NDJSON: one JSON object a line, each as the game's `AnnotateLine` schema describes it (`TankBattleAnnotateLine`, …)",
             content((String = "application/x-ndjson"))),
            ReviewErrors, BusyError],
            |body, services, lang| review(flows::annotate::Format::Lines, body, &services, lang).await);
        crate::api::game_routes::post_route!($game, $prefix, annotate_chart, AnnotateChart, [
            /// Reviews a played game, drawn: `annotate` answering its chart.
            ///
            /// The same review as `annotate` with `format=svg`, at the same
            /// price, for a client that reads one media type an operation: the
            /// SVG chart of each player's chance to win across the game, its
            /// mistakes and blunders marked.
        ], AnnotateRequest, [
            (status = 200, description = "The review's chart", body = String, content_type = "image/svg+xml"),
            ReviewErrors, BusyError],
            |body, services, lang| review(flows::annotate::Format::Chart, body, &services, lang).await);

        /// A review answered in `format`: the one writer of the three
        /// annotate operations.
        async fn review(
            format: flows::annotate::Format,
            body: AnnotateRequest,
            services: &Services,
            lang: crate::i18n::Lang,
        ) -> Result<HttpResponse, HttpError> {
            use flows::annotate::Format;
            match format {
                Format::Lines => {
                    let lines = flows::annotate::annotate_stream::<$game>(body, services, lang).await?;
                    Ok(HttpResponse::Ok()
                        .content_type("application/x-ndjson")
                        .streaming(lines))
                }
                Format::Chart => {
                    let answer = flows::annotate::annotate::<$game>(body, services, None).await?;
                    Ok(HttpResponse::Ok()
                        .content_type("image/svg+xml")
                        .body(flows::annotate::chart(&answer, lang)))
                }
                Format::Json => {
                    let answer = flows::annotate::annotate::<$game>(body, services, None).await?;
                    respond(encode(&answer), &services.limits, &services.in_flight)
                }
            }
        }

        #[utoipa::path(
            post, path = crate::operations::Operation::Batch.path(),
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_batch"),
            summary = "Runs several requests in one round trip, in order.",
            description = flows::batch::description::<$game>(),
            request_body = BatchRequest,
            responses(
                (status = 200, description = "One result per request, in order", body = flows::batch::BatchResponse),
                (status = 400, description = "`BAD_REQUEST` (not `{\"requests\": […]}`, or an item that is not an object with a known `op`) or `LIMIT_EXCEEDED` (`requests`: too many requests, or too many searches; the whole answer over the answer limit)", body = Problem, content_type = "application/problem+json"),
                RouteErrors,
                BodyErrors,
            )
        )]
        async fn batch(
            tab: Option<crate::api::middleware::fair_use::Tab>,
            asked: crate::api::transport::request_id::Asked,
            body: flows::batch::BatchBody<BatchRequest>,
            services: Data<Services>,
        ) -> Result<HttpResponse, HttpError> {
            flows::batch::batch::<$game, _>(body, &services, tab, &asked).await
        }

        #[utoipa::path(
            post, path = crate::operations::Operation::Compare.path(),
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_compare"),
            summary = "Compares another engine's answers with the service's.",
            description = flows::compare::description::<$game>(),
            request_body = CompareRequest,
            responses(
                (status = 200, description = "Each claim's verdict, in order", body = flows::compare::CompareResponse),
                (status = 400, description = "`BAD_REQUEST` (not `{\"claims\": […]}`, a claim's `op` that is not one of the game's rules operations, a claim's `request` that breaks its schema: `field` names `claims[i].request…`) or `LIMIT_EXCEEDED` (`claims`: too many claims, or too many searches)", body = Problem, content_type = "application/problem+json"),
                RouteErrors,
                BodyErrors,
            )
        )]
        async fn compare(
            tab: Option<crate::api::middleware::fair_use::Tab>,
            asked: crate::api::transport::request_id::Asked,
            JsonAndServices { body, services, .. }: JsonAndServices<CompareRequest>,
        ) -> Result<HttpResponse, HttpError> {
            let answer = flows::batch::compare::<$game>(body.body, &services, tab, &asked).await?;
            respond(encode(&answer), &services.limits, &services.in_flight)
        }

        $(#[$render_doc])*
        ///
        /// The picture depends only on the query and the language asked
        /// (`Accept-Language`: its title, caption and tooltips), so it carries
        /// an `ETag` (which differs by language as the bytes do) and
        /// `Cache-Control: public, max-age=86400`; `If-None-Match` gets a 304.
        #[utoipa::path(
            get, path = crate::operations::Operation::Render.path(),
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
                (status = 400, description = $render_400, body = Problem, content_type = "application/problem+json"),
                RouteErrors,
            )
        )]
        async fn render(
            request: actix_web::HttpRequest,
            query: crate::api::transport::query::Query<RenderQuery>,
            services: Data<Services>,
            lang: crate::i18n::Lang,
        ) -> Result<HttpResponse, HttpError> {
            flows::render::render::<$game>(&request, query.0, &services, lang)
        }
        }
    };
}
pub(crate) use game_routes;

/// Declares, for [`game_routes!`], one operation that reads a JSON body:
/// its documentation (the game's doc comments, the body and its examples
/// when given, as utoipa's `examples(…)`, its answers and problems beside
/// the routes' and bodies' shared ones) and its handler, which answers
/// `$answer` of the body, the shared services and the language asked.
macro_rules! post_route {
    ($game:ident, $prefix:literal, $name:ident, $op:ident, [$(#[$doc:meta])*],
     $request:ty $(, examples $examples:tt)? $(, params $params:tt)?, [$($responses:tt)*],
     |$body:ident, $services:ident, $lang:ident $(; $extra:ident: $extra_type:ty)*| $answer:expr) => {
        $(#[$doc])*
        #[utoipa::path(
            post, path = crate::operations::Operation::$op.path(),
            tag = <$game as crate::games::Game>::ID,
            operation_id = concat!($prefix, "_", stringify!($name)),
            $(params $params,)?
            request_body(content = $request $(, examples $examples)?),
            responses(
                $($responses)*,
                crate::api::openapi::responses::RouteErrors,
                crate::api::openapi::responses::BodyErrors,
            )
        )]
        pub(super) async fn $name(
            $($extra: $extra_type,)*
            crate::api::services::JsonAndServices { body: $body, services: $services, lang: $lang }:
                crate::api::services::JsonAndServices<$request>,
        ) -> Result<actix_web::HttpResponse, crate::api::transport::problem::HttpError> {
            $answer
        }
    };
}
pub(crate) use post_route;

/// A [`post_route!`] that answers JSON: `$run` writes the answer's text
/// (its `$ok` answer a `$response`), sent within the answer limit.
macro_rules! json_route {
    ($game:ident, $prefix:literal, $name:ident, $op:ident, [$(#[$doc:meta])*],
     $request:ty $(, examples $examples:tt)? => ($ok:literal, $response:ty), [$($problems:tt)*],
     |$body:ident, $services:ident, $lang:ident| $run:expr) => {
        crate::api::game_routes::post_route!($game, $prefix, $name, $op, [$(#[$doc])*],
            $request $(, examples $examples)?, [(status = 200, description = $ok, body = $response), $($problems)*],
            |$body, $services, $lang| respond($run, &$services.limits, &$services.in_flight));
    };
}
pub(crate) use json_route;

/// Declares a game's two `puzzles` handlers, `puzzles` and
/// `puzzles_lines`, for [`game_routes!`]'s `extra`: the game gives
/// the description of how its puzzles are found; the flow is
/// [`crate::api::flows::puzzles`]'s.
macro_rules! puzzle_routes {
    (game: $game:ident, operation_prefix: $prefix:literal, $(#[$doc:meta])*) => {
        /// The body and the answers, as the document names them
        /// (`TankBattlePuzzlesRequest`, `TankBattlePuzzlesResponse`, …).
        type PuzzlesBody = <$game as crate::api::flows::puzzles::PuzzleApi>::PuzzlesRequest;
        type PuzzlesAnswer = crate::api::flows::puzzles::PuzzlesResponse<$game>;
        type PuzzlesLines = crate::api::flows::puzzles::PuzzlesLine<$game>;

        crate::api::game_routes::post_route!($game, $prefix, puzzles, Puzzles, [
            $(#[$doc])*
            ///
            /// With `Accept: application/x-ndjson` the puzzles are streamed: one
            /// line a puzzle as it is found, then a summary line (or, past the
            /// time cap, a problem line), as `puzzles.ndjson` answers.
        ], PuzzlesBody, [
            (status = 200, description = "The game's puzzles: one JSON answer, or NDJSON lines (`Accept: application/x-ndjson`)",
             content((PuzzlesAnswer = "application/json"), (PuzzlesLines = "application/x-ndjson"))),
            crate::api::openapi::responses::ReviewErrors,
            crate::api::openapi::responses::BusyError],
            |body, services, lang; request: actix_web::HttpRequest|
                crate::api::flows::puzzles::answer::<$game>(&request, body, &services, lang).await);
        crate::api::game_routes::post_route!($game, $prefix, puzzles_lines, PuzzlesLines, [
            /// Finds a played game's puzzles, streamed: `puzzles` answering NDJSON.
            ///
            /// The same search as `puzzles`, at the same price, for a client that
            /// reads one media type an operation: one line a puzzle as soon as it
            /// is found, then the `summary` (or, past a cap, a `problem`), each as
            /// the game's `PuzzlesLine` schema describes it
            /// (`TankBattlePuzzlesLine`, …), told apart by `line`.
        ], PuzzlesBody, [
            (status = 200, description = "The puzzles as NDJSON: one JSON object a line, each as the game's `PuzzlesLine` schema describes it (`TankBattlePuzzlesLine`, …)",
             content((String = "application/x-ndjson"))),
            crate::api::openapi::responses::ReviewErrors,
            crate::api::openapi::responses::BusyError],
            |body, services, lang| crate::api::flows::puzzles::answer_lines::<$game>(body, &services, lang).await);
    };
}
pub(crate) use puzzle_routes;
