//! The language of an answer's human texts, chosen once by the request's
//! `Accept-Language` ([`i18n::negotiate`]) before anything is written:
//! it travels in the request's extensions
//! ([`crate::api::transport::request_id::Asked`]), and the one writer of
//! each answer writes its texts in it. Here only the answer's headers:
//! every answer says which language it speaks (`Content-Language`); that
//! it depends on the header is in its `Vary`
//! ([`crate::api::transport::vary`]). No answer's body is read here.

use actix_web::body::MessageBody;
use actix_web::dev::ServiceResponse;
use actix_web::http::header::{self, HeaderValue};

use crate::i18n::{self, Lang};

/// The language a request with `headers` asks for.
pub fn asked(headers: &header::HeaderMap) -> Lang {
    i18n::negotiate(
        headers
            .get(header::ACCEPT_LANGUAGE)
            .map(HeaderValue::as_bytes),
    )
}

/// Says which language the answer speaks.
pub fn label<B: MessageBody>(res: &mut ServiceResponse<B>, lang: Lang) {
    // Made at compile time: `from_static` checks every byte when it runs.
    const EN: HeaderValue = HeaderValue::from_static(Lang::En.tag());
    const CS: HeaderValue = HeaderValue::from_static(Lang::Cs.tag());
    let value = match lang {
        Lang::En => EN,
        Lang::Cs => CS,
    };
    res.headers_mut().insert(header::CONTENT_LANGUAGE, value);
}
