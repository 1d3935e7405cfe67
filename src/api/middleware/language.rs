//! The language of an answer's human texts, chosen by the request's
//! `Accept-Language` ([`i18n::negotiate`]). Every answer says which it
//! speaks (`Content-Language`) and that it depends on the header (`Vary:
//! Accept-Language`). In English (the default) the answer is what the
//! routes wrote; in another language its JSON (or NDJSON) is read back
//! and every human text written again from the catalogue, by what the
//! answer itself says: a problem's `title` and `detail` by its `code` and
//! context fields (`field`, `square`, `player`, `vehicle`), a rule
//! reason's `message` by its `code` and `square`. Codes, field names,
//! `type` URIs and the OpenAPI document are the same in every language.

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderValue};
use serde_json::Value;

use crate::i18n::{self, Lang};

/// The prefix of every problem type's URI.
const PROBLEM_TYPE: &str = "urn:tank-rules:problem:";

/// What a translated text may name about the request.
#[derive(Debug, Default)]
pub struct Asked {
    pub lang: Lang,
    method: String,
    path: String,
}

/// The request's language, and, for another than English, what its
/// texts may name (its method and path).
pub fn asked(req: &ServiceRequest) -> Asked {
    let lang = i18n::negotiate(
        req.headers()
            .get(header::ACCEPT_LANGUAGE)
            .map(HeaderValue::as_bytes),
    );
    if lang == Lang::En {
        return Asked::default();
    }
    Asked {
        lang,
        method: req.method().to_string(),
        path: req.path().to_owned(),
    }
}

/// The answer in the language asked, saying which.
pub fn speak(mut res: ServiceResponse<BoxBody>, asked: &Asked) -> ServiceResponse<BoxBody> {
    let headers = res.headers_mut();
    headers.insert(
        header::CONTENT_LANGUAGE,
        HeaderValue::from_static(asked.lang.tag()),
    );
    headers.append(header::VARY, HeaderValue::from_static("Accept-Language"));
    if asked.lang == Lang::En {
        return res;
    }
    let media = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let lines = media.starts_with("application/x-ndjson");
    let problem = media == "application/problem+json";
    // The games' answers and every problem; not the document, whose
    // examples are the same in every language.
    let answer = asked.path.starts_with("/v1/") && (lines || media.starts_with("application/json"));
    if !(answer || problem) {
        return res;
    }
    let context = Context {
        lang: asked.lang,
        method: &asked.method,
        path: &asked.path,
        allow: header_text(&res, header::ALLOW),
        retry: header_text(&res, header::RETRY_AFTER),
    };
    let (req, res) = res.into_parts();
    let res = res.map_body(|_, body| match body.try_into_bytes() {
        // Nothing to rewrite (or not JSON after all): the bytes as they are.
        Ok(bytes) => match translate_body(&bytes, lines, &context) {
            Some(czech) => BoxBody::new(czech),
            None => BoxBody::new(bytes),
        },
        Err(body) => body,
    });
    ServiceResponse::new(req, res)
}

/// A header's value as text (empty when absent).
fn header_text(res: &ServiceResponse<BoxBody>, name: header::HeaderName) -> String {
    res.headers()
        .get(name)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_owned()
}

/// What a translation reads besides the answer.
struct Context<'a> {
    lang: Lang,
    method: &'a str,
    path: &'a str,
    allow: String,
    retry: String,
}

/// The body, each JSON text (the whole, or each line) translated; `None`
/// when it is not JSON (then it is left as it is).
fn translate_body(bytes: &[u8], lines: bool, context: &Context) -> Option<Vec<u8>> {
    if !lines {
        let mut value: Value = serde_json::from_slice(bytes).ok()?;
        translate(&mut value, context);
        return serde_json::to_vec(&value).ok();
    }
    let mut out = Vec::with_capacity(bytes.len());
    for line in bytes.split_inclusive(|b| *b == b'\n') {
        let text = line.strip_suffix(b"\n").unwrap_or(line);
        let mut value: Value = serde_json::from_slice(text).ok()?;
        translate(&mut value, context);
        serde_json::to_writer(&mut out, &value).ok()?;
        if line.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    Some(out)
}

/// Every problem and rule reason in `value` translated.
fn translate(value: &mut Value, context: &Context) {
    match value {
        Value::Object(object) => {
            let text = |key: &str| object.get(key).and_then(Value::as_str).map(str::to_owned);
            let code = text("code");
            let is_problem = text("type").is_some_and(|t| t.starts_with(PROBLEM_TYPE));
            if let Some(code) = code {
                let square = text("square");
                if is_problem {
                    let facts = Facts {
                        code: &code,
                        field: text("field"),
                        square,
                        player: text("player"),
                        vehicle: text("vehicle"),
                        policy: text("policy"),
                        price: object.get("price").and_then(Value::as_u64),
                    };
                    if let Some(title) = i18n::title(context.lang, &code) {
                        object.insert("title".to_owned(), title.into());
                    }
                    if let Some(detail) = detail(&facts, context) {
                        object.insert("detail".to_owned(), detail.into());
                    }
                } else if object.contains_key("message") {
                    if let Some(message) = reason(context.lang, &code, square.as_deref()) {
                        object.insert("message".to_owned(), message.into());
                    }
                }
            }
            object
                .values_mut()
                .for_each(|inner| translate(inner, context));
        }
        Value::Array(items) => items.iter_mut().for_each(|inner| translate(inner, context)),
        _ => {}
    }
}

/// What a problem document says of itself.
struct Facts<'a> {
    code: &'a str,
    field: Option<String>,
    square: Option<String>,
    player: Option<String>,
    vehicle: Option<String>,
    /// The quota policy a 429 (or a price over a whole quota) names.
    policy: Option<String>,
    price: Option<u64>,
}

/// A rule's reason, at its square when it names one.
fn reason(lang: Lang, code: &str, square: Option<&str>) -> Option<String> {
    let rule = i18n::text(lang, &format!("reason-{code}"), &[])?;
    match square {
        Some(square) => i18n::text(
            lang,
            "refused-at-square",
            &[("reason", &rule), ("square", square)],
        ),
        None => Some(rule),
    }
}

/// A problem's detail: a refused move's as the games write it (the rule,
/// at its square, or by its player and vehicle), else the code's own.
fn detail(facts: &Facts, context: &Context) -> Option<String> {
    let lang = context.lang;
    if let Some(rule) = i18n::text(lang, &format!("reason-{}", facts.code), &[]) {
        return match (&facts.square, &facts.player, &facts.vehicle) {
            (Some(_), ..) => reason(lang, facts.code, facts.square.as_deref()),
            (None, Some(player), Some(vehicle)) => i18n::text(
                lang,
                "refused-vehicle",
                &[("reason", &rule), ("player", player), ("vehicle", vehicle)],
            ),
            (None, Some(player), None) => i18n::text(
                lang,
                "refused-by-player",
                &[("reason", &rule), ("player", player)],
            ),
            (None, None, _) => Some(rule),
        };
    }
    let price = facts
        .price
        .map(|price| price.to_string())
        .unwrap_or_default();
    i18n::text(
        lang,
        &format!("detail-{}", facts.code),
        &[
            ("field", facts.field.as_deref().unwrap_or("none")),
            ("policy", facts.policy.as_deref().unwrap_or("none")),
            ("price", &price),
            ("path", context.path),
            ("method", context.method),
            ("allow", &context.allow),
            ("retry", &context.retry),
        ],
    )
}
