//! [`Query`]: a query string read into its type as actix's `web::Query`
//! reads it (serde_urlencoded), its fault told from structure (the
//! [`DataFault`] the reading kept, [`super::strict`]) rather than from the
//! words of serde_urlencoded's error.

use actix_web::dev::Payload;
use actix_web::{FromRequest, HttpRequest};
use serde::de::DeserializeOwned;

use super::json_fault::DataFault;
use super::problem::{HttpError, RequestError};
use super::strict::{Seen, Strict};
use crate::text::Text;

/// A route's query parameters, as their type `T` takes them.
pub struct Query<T>(pub T);

impl<T> std::ops::Deref for Query<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned> FromRequest for Query<T> {
    type Error = HttpError;
    type Future = std::future::Ready<Result<Query<T>, HttpError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let pairs = form_urlencoded::parse(req.query_string().as_bytes());
        let seen = Seen::default();
        let read = T::deserialize(Strict::new(
            serde_urlencoded::Deserializer::new(pairs),
            &seen,
        ));
        std::future::ready(read.map(Query).map_err(|error| {
            let (error, fault) = seen.fault(error);
            RequestError::bad_query(unreadable(&error, fault.as_ref()), None).into()
        }))
    }
}

/// A query string that could not be read (`error`, the fault `fault`), as
/// the catalogues' `request-query-string`: the fault's kind and the
/// parameter it names.
fn unreadable(error: &serde_urlencoded::de::Error, fault: Option<&DataFault>) -> Text {
    let (fault, param) = match fault {
        Some(DataFault::DuplicateField(param)) => ("duplicate", *param),
        Some(DataFault::MissingField(param)) => ("missing", *param),
        _ => ("other", ""),
    };
    Text::new("request-query-string")
        .with("error", error.to_string())
        .with("fault", fault)
        .with("param", param)
}
