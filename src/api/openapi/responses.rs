//! The error answers operations share, declared once: a wrong method
//! ([`WrongMethod`]: 405), a query parameter where an operation takes none
//! ([`NoQuery`]: 400), those any route may answer ([`ServiceErrors`]: 405
//! and 417), those any game route may answer ([`RouteErrors`]: those and
//! the fair-use 401 and 429), those of a route that reads a body
//! ([`BodyErrors`]: 408, 413, 415), and a search's 503 ([`BusyError`]).
//! Each operation lists them beside its own answers (`responses(…,
//! RouteErrors, BodyErrors)`). Every one of them is a problem+json
//! [`Problem`]; the types are documentation only, and never built.

use std::collections::BTreeMap;

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::{IntoResponses, PartialSchema};

/// A problem+json answer: its status, its description (the problem code
/// first) and the headers it carries, each with its schema and description.
fn problem(
    status: u16,
    description: &str,
    headers: &[(&str, RefOr<utoipa::openapi::schema::Schema>, &str)],
) -> (String, RefOr<Response>) {
    let content = ContentBuilder::new()
        .schema(Some(Ref::from_schema_name("Problem")))
        .build();
    let mut response = ResponseBuilder::new()
        .description(description)
        .content("application/problem+json", content);
    for (name, schema, about) in headers {
        let header = HeaderBuilder::new()
            .schema(schema.clone())
            .description(Some(*about))
            .build();
        response = response.header(*name, header);
    }
    (status.to_string(), RefOr::T(response.build()))
}

/// Declares documentation-only types, each `Name: (status, description,
/// headers…), …;` for the problems listed, or `Name = A + B;` for the
/// problems of other such types together.
macro_rules! problems {
    () => {};
    (@type $(#[$doc:meta])* $name:ident => $responses:expr; $($rest:tt)*) => {
        $(#[$doc])*
        pub struct $name;

        impl IntoResponses for $name {
            fn responses() -> BTreeMap<String, RefOr<Response>> {
                $responses
            }
        }

        problems! { $($rest)* }
    };
    ($(#[$doc:meta])* $name:ident = $first:ident $(+ $part:ident)*; $($rest:tt)*) => {
        problems! { @type $(#[$doc])* $name =>
            [$first::responses() $(, $part::responses())*].into_iter().flatten().collect(); $($rest)* }
    };
    ($(#[$doc:meta])* $name:ident: $(($status:literal, $description:expr $(, $header:literal: $ty:ty = $about:literal)* $(,)?)),+ $(,)?; $($rest:tt)*) => {
        problems! { @type $(#[$doc])* $name =>
            BTreeMap::from([$(problem($status, $description, &[$(($header, <$ty>::schema(), $about)),*])),+]); $($rest)* }
    };
}

problems! {
    /// Another method than the operation's.
    WrongMethod: (405, "`METHOD_NOT_ALLOWED`: another method than this one (`Allow` names it)",
        "Allow": String = "The methods of this path");

    /// A query parameter sent to an operation that takes none.
    NoQuery: (400, "`BAD_REQUEST`: a query parameter (this operation takes none)");

    /// What fair use (API keys, quotas) may answer on a route it guards.
    FairUseErrors:
        (401, "`UNAUTHORIZED`: this server needs an API key (`X-Api-Key` or `Authorization: Bearer`) and none, or an unknown one, was sent"),
        (429, "`TOO_MANY_REQUESTS`: the client is over a quota; retry after `Retry-After` seconds (`RateLimit-Policy` and `RateLimit` say which quota)",
            "Retry-After": u64 = "Seconds to wait",
            "RateLimit-Policy": String = "The quota, e.g. `\"requests\";q=600;w=60`",
            "RateLimit": String = "What is left of it, e.g. `\"requests\";r=0;t=6`");

    /// An `Expect` the server cannot meet.
    Unmet: (417, "`EXPECTATION_FAILED`: an `Expect` other than `100-continue`");

    /// What any route may answer besides its own answers: a wrong method, an
    /// expectation it cannot meet. (What actix-http answers before the
    /// application sees a request, such as 431 for a head over its 128 KiB,
    /// has no body and is not listed: docs/LIMITS.md says so.)
    ServiceErrors = WrongMethod + Unmet;

    /// What any game route, and the catalogue, may answer besides its own
    /// answers: [`ServiceErrors`] and fair use's refusals.
    RouteErrors = ServiceErrors + FairUseErrors;

    /// What a route that reads a body may answer besides: [`BodyProblems`],
    /// and 503 when the server has no room for the body or its answer in
    /// flight ([`BusyError`]).
    BodyErrors = BodyProblems + BusyError;

    /// What a review (`annotate`, `annotate.ndjson`, `annotate.svg`) may
    /// refuse in its body.
    ReviewErrors:
        (400, "`BAD_REQUEST` (a body or a step that breaks its schema or notation, a `level` out of 1-8) or `LIMIT_EXCEEDED` (more steps than the server reviews)"),
        (422, "A step is illegal: the first one, with its `ply`, as in `replay`");

    /// What a body that cannot be read is answered.
    BodyProblems:
        (408, "`REQUEST_TIMEOUT`: the body did not arrive within the server's body deadline (5 s by default); the connection is closed"),
        (413, "`PAYLOAD_TOO_LARGE`: the body is larger than the server's limit (64 KiB by default); a body announced so with `Expect: 100-continue` is refused before it is sent"),
        (415, "`UNSUPPORTED_MEDIA_TYPE`: the body is not sent as JSON (`Content-Type: application/json`), or is sent compressed");

    /// What work in a slot (`ai-move`, `perft`, `replay`), and any route
    /// that reads a body, may answer besides.
    BusyError: (503, "`SERVICE_BUSY`: the server has no room for this request now: every slot for its work is taken, or it holds as many request bodies and answers as its memory allows (nothing is spent of a quota); or a review ran past the server's time cap (the verdicts it found are kept, so a retry goes on from them); retry after `Retry-After` seconds",
        "Retry-After": u64 = "Seconds to wait");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shared_answer_is_a_problem_with_its_code_first() {
        let all = [
            RouteErrors::responses(),
            BodyErrors::responses(),
            BusyError::responses(),
            NoQuery::responses(),
        ];
        for (status, response) in all.iter().flatten() {
            let RefOr::T(response) = response else {
                panic!("{status} is a reference");
            };
            assert!(response.description.starts_with('`'), "{status}");
            assert!(
                response.content.contains_key("application/problem+json"),
                "{status}"
            );
        }
        let route: Vec<String> = RouteErrors::responses().into_keys().collect();
        assert_eq!(route, ["401", "405", "417", "429"]);
    }
}
