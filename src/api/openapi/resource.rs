//! Each route as an actix resource, documented with utoipa from the same
//! `#[utoipa::path(method, path = …)]` declaration ([`Documented`]: an
//! actix `HttpServiceFactory` and a utoipa `OpenApiFactory`, registered
//! with `.service(…)` in a game's scope as `todo-actix` registers its
//! handlers).
//!
//! A route is also where a request is classified, once: each resource
//! carries its [`Route`] (its name, the operation it is, who may come in)
//! and its [`Door`] layer tags the request with it, refuses query
//! parameters its documentation does not declare and, when the server has
//! quotas or keys, admits the request by fair use — all before the
//! handler's extractors read a byte of the body. A method the resource
//! does not answer is refused (405, naming the one it answers), untagged
//! and unspent; a path no resource holds is the application's default
//! service's (404).
//!
//! Why a layer on each resource rather than one on the application: a
//! request's route is known only once actix has routed it, and a layer
//! outside the routes would have to route it a second time; an extractor
//! is too late (extractors are polled together, so the body would be read
//! before a refusal). The door refuses another method itself rather than
//! through a method guard: actix's guard records every method it is
//! asked about in the request's extensions (an allocation and a map
//! insert on every request), for an empty 405 the service would have to
//! rewrite.

use std::future::{ready, Ready};
use std::rc::Rc;

use actix_web::dev::{
    AppService, HttpServiceFactory, Service, ServiceRequest, ServiceResponse, Transform,
};
use actix_web::http::Method;
use actix_web::{web, Error, FromRequest, Handler, Responder};
use futures_util::future::{Either, LocalBoxFuture};
use utoipa::openapi::path::{HttpMethod, ParameterIn, Paths};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa_actix_web::OpenApiFactory;

use crate::api::middleware::fair_use::{self, Admission};
use crate::api::transport::problem::{HttpError, RequestError};
use crate::api::transport::route::{Entry, Route};
use crate::operations::{Method as OperationMethod, Operation};
use crate::text::Text;

type Schemas = Vec<(String, RefOr<Schema>)>;

/// One route: an actix resource answering one method, and its
/// documentation (`paths` relative to the scope it is registered in).
pub struct Documented {
    register: Box<dyn FnOnce(&mut AppService)>,
    paths: Paths,
    schemas: Schemas,
}

/// The operation `op` of the game whose scope is `scope` (`/v1/{game}`):
/// `handler` at the operation's path, documented by `doc` (the
/// `__path_<handler>` value `#[utoipa::path]` declares, whose path and
/// method must be the operation's), priced as the operation is
/// ([`Operation::price`]), its documentation saying so.
pub fn operation<P, F, Args>(scope: &str, op: Operation, doc: P, handler: F) -> Documented
where
    P: utoipa::Path + OpenApiFactory,
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    let mut documented = documented(scope, doc, web::to(handler), Some(op), Entry::Priced);
    say_price(&mut documented.paths, op);
    documented
}

/// `handler` at the path its documentation `doc` gives under `scope`, a
/// route that is no game's operation, entered as `entry` says: one
/// request spent (the catalogue), or open to every client (the operator
/// endpoints).
pub fn endpoint<P, F, Args>(scope: &str, doc: P, handler: F, entry: Entry) -> Documented
where
    P: utoipa::Path + OpenApiFactory,
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    documented(scope, doc, web::to(handler), None, entry)
}

/// `handler` for `GET` at `path`: a file of a page (the board's, Swagger
/// UI's, the document), named `name` in the metrics and the access log
/// with the page's other files, costing one request as any other (a
/// client without a key, where keys are configured, counted by its
/// address: a browser loads a page's files without the key the page asks
/// for), taking no query parameters, and not in the API's document (a
/// page is not an operation).
pub fn page_file<F, Args>(name: &str, path: &str, handler: F) -> Documented
where
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    let route = Route {
        name: name.into(),
        operation: None,
        entry: Entry::Keyless,
        query: Box::new([]),
    };
    Documented {
        register: resource(path, Method::GET, route, web::to(handler)),
        paths: Paths::new(),
        schemas: Vec::new(),
    }
}

/// `handler` at `scope` + the path `doc` gives, for the one method it
/// gives (`operation`'s own, if it is one). A path with parameters
/// (`{id}`) is refused: a route's name is its path.
fn documented<P: utoipa::Path + OpenApiFactory>(
    scope: &str,
    doc: P,
    handler: actix_web::Route,
    operation: Option<Operation>,
    entry: Entry,
) -> Documented {
    let path = P::path();
    assert!(
        !path.contains('{'),
        "{path}: a route's name is its path; a path with parameters needs another name"
    );
    let methods = P::methods();
    let [method] = methods.as_slice() else {
        panic!("{path}: a route answers one method");
    };
    if let Some(op) = operation {
        let own = match op.method() {
            OperationMethod::Get => HttpMethod::Get,
            OperationMethod::Post => HttpMethod::Post,
        };
        assert!(
            path == op.path() && *method == own,
            "{op:?} is documented at another path or method than its own"
        );
    }
    let paths = doc.paths();
    let route = Route {
        name: format!("{scope}{path}").into(),
        operation,
        entry,
        query: query_parameters(&paths, &path, method),
    };
    let mut schemas = Vec::new();
    doc.schemas(&mut schemas);
    Documented {
        register: resource(&path, actix_method(method), route, handler),
        paths,
        schemas,
    }
}

/// The resource at `path` answering `method` with `handler` behind the
/// [`Door`] of `route`; any other method is refused.
fn resource(
    path: &str,
    method: Method,
    route: Route,
    handler: actix_web::Route,
) -> Box<dyn FnOnce(&mut AppService)> {
    let resource = web::resource(path).route(handler).wrap(Door {
        route: Rc::new(route),
        method,
    });
    Box::new(move |config| resource.register(config))
}

impl HttpServiceFactory for Documented {
    fn register(self, config: &mut AppService) {
        (self.register)(config)
    }
}

impl OpenApiFactory for Documented {
    fn paths(&self) -> Paths {
        self.paths.clone()
    }

    fn schemas(&self, schemas: &mut Schemas) {
        schemas.extend(self.schemas.iter().cloned());
    }
}

/// A resource's door: refuses another method than its own, tags the
/// request with its route, refuses unknown query parameters, admits it by
/// fair use.
// Its own `Service` rather than a `from_fn` layer: `from_fn`'s `Next`
// boxes the handler's future on every request (1,760 instructions a
// request, scripts/profile-requests.sh); this door's fast path allocates
// nothing.
struct Door {
    route: Rc<Route>,
    method: Method,
}

impl<S> Transform<S, ServiceRequest> for Door
where
    S: Service<ServiceRequest, Response = ServiceResponse, Error = Error> + 'static,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Transform = DoorService<S>;
    type InitError = ();
    type Future = Ready<Result<DoorService<S>, ()>>;

    fn new_transform(&self, service: S) -> Self::Future {
        ready(Ok(DoorService {
            route: self.route.clone(),
            method: self.method.clone(),
            service: Rc::new(service),
        }))
    }
}

/// A worker's [`Door`] before its resource.
struct DoorService<S> {
    route: Rc<Route>,
    method: Method,
    service: Rc<S>,
}

type Answer = LocalBoxFuture<'static, Result<ServiceResponse, Error>>;

impl<S> Service<ServiceRequest> for DoorService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse, Error = Error> + 'static,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Future = Either<S::Future, Answer>;

    actix_web::dev::forward_ready!(service);

    fn call(&self, req: ServiceRequest) -> Self::Future {
        if req.method() != self.method {
            let refused = HttpError::MethodNotAllowed {
                method: req.method().to_string(),
                allow: self.method.to_string(),
            };
            let res = req.error_response(refused);
            return Either::Right(Box::pin(ready(Ok(res))));
        }
        Route::tag(&req, &self.route);
        if let Some(refused) = unknown_query_parameter(&req, &self.route) {
            let res = req.error_response(HttpError::from(refused));
            return Either::Right(Box::pin(ready(Ok(res))));
        }
        // An open route is admitted without looking for fair use.
        let admission = (self.route.entry != Entry::Open)
            .then(|| req.app_data::<Admission>())
            .flatten();
        let admitting = admission.and_then(|admission| {
            let price = self.route.price(&admission.limits)?;
            let fair_use = &admission.fair_use;
            fair_use.is_active().then(|| (fair_use.clone(), price))
        });
        match admitting {
            Some((fair_use, price)) => {
                let service = self.service.clone();
                let keyless = self.route.entry == Entry::Keyless;
                Either::Right(Box::pin(async move {
                    fair_use::admitted(fair_use, price, keyless, &*service, req).await
                }))
            }
            None => Either::Left(self.service.call(req)),
        }
    }
}

/// Adds what `op` costs and where it runs to the description of each of
/// its operations in `paths`.
fn say_price(paths: &mut Paths, op: Operation) {
    let text = op.price_text();
    for item in paths.paths.values_mut() {
        // The operation's method is GET or POST (`documented`).
        let operations = [item.get.as_mut(), item.post.as_mut()];
        for operation in operations.into_iter().flatten() {
            let description = operation.description.get_or_insert_with(String::new);
            if !description.is_empty() {
                description.push_str("\n\n");
            }
            description.push_str(&text);
        }
    }
}

/// A query parameter a GET route does not declare (one rule for every
/// route: unknown query parameters are refused, as unknown body fields
/// are).
fn unknown_query_parameter(req: &ServiceRequest, route: &Route) -> Option<RequestError> {
    let query = req.query_string();
    if query.is_empty() || req.method() != Method::GET {
        return None;
    }
    let known = &route.query;
    let unknown = query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| pair.split_once('=').map_or(pair, |(name, _)| name))
        .find(|name| !known.iter().any(|k| &**k == *name))?;
    let known = if known.is_empty() {
        "none".to_owned()
    } else {
        known.join(", ")
    };
    Some(RequestError::bad_query(
        Text::new("request-query-unknown")
            .with("param", unknown)
            .with("known", known),
        Some(unknown),
    ))
}

/// The query parameters the `method` operation at `path` declares (GET's
/// alone are read: [`unknown_query_parameter`]).
fn query_parameters(paths: &Paths, path: &str, method: &HttpMethod) -> Box<[Box<str>]> {
    let operation = paths.get_path_operation(path, method.clone());
    operation
        .and_then(|op| op.parameters.as_ref())
        .into_iter()
        .flatten()
        .filter(|p| matches!(p.parameter_in, ParameterIn::Query))
        .map(|p| p.name.as_str().into())
        .collect()
}

/// actix's name of a documented method.
fn actix_method(method: &HttpMethod) -> Method {
    match method {
        HttpMethod::Get => Method::GET,
        HttpMethod::Post => Method::POST,
        HttpMethod::Put => Method::PUT,
        HttpMethod::Delete => Method::DELETE,
        HttpMethod::Options => Method::OPTIONS,
        HttpMethod::Head => Method::HEAD,
        HttpMethod::Patch => Method::PATCH,
        HttpMethod::Trace => Method::TRACE,
    }
}

#[cfg(test)]
mod tests {
    use actix_web::{test, App, HttpResponse};
    use utoipa_actix_web::AppExt;

    use super::*;
    use crate::api::transport::route::Entry::{Open, Priced};

    /// Says hello.
    #[utoipa::path(post, path = "/hello", responses((status = 200, description = "Hello")))]
    async fn hello(req: actix_web::HttpRequest) -> HttpResponse {
        let route = Route::of(&req).map(|route| route.name.to_string());
        HttpResponse::Ok().body(route.unwrap_or_default())
    }

    /// Lists.
    #[utoipa::path(get, path = "/list", params(("n" = u8, Query)), responses((status = 200, description = "A list")))]
    async fn list(req: actix_web::HttpRequest) -> HttpResponse {
        let route = Route::of(&req).map(|route| route.name.to_string());
        HttpResponse::Ok().body(route.unwrap_or_default())
    }

    async fn fallback() -> HttpResponse {
        HttpResponse::NotFound().body("fallback")
    }

    #[actix_web::test]
    async fn routes_by_path_and_method_tags_the_route_and_documents_the_full_paths() {
        let (app, doc) = App::new()
            .into_utoipa_app()
            .service(
                utoipa_actix_web::scope("/v1/x")
                    .service(endpoint("/v1/x", __path_hello, hello, Priced))
                    .service(endpoint("/v1/x", __path_list, list, Priced)),
            )
            .service(endpoint("", __path_list, list, Open))
            .split_for_parts();
        assert_eq!(
            doc.paths.paths.keys().collect::<Vec<_>>(),
            ["/list", "/v1/x/hello", "/v1/x/list"]
        );
        let app = app.default_service(web::to(fallback));
        let app = test::init_service(app).await;
        let call = |req: test::TestRequest| {
            let app = &app;
            async move {
                let res = test::call_service(app, req.to_request()).await;
                let status = res.status().as_u16();
                (status, test::read_body(res).await)
            }
        };
        // The route, tagged with its name; written with percent-encoded
        // unreserved characters anywhere, it is the same route.
        for path in [
            "/v1/x/hello",
            "/v1/x/h%65llo",
            "/%761/x/hello",
            "/v%31/%78/hello",
            "/%76%31/x/hell%6F",
        ] {
            let encoded = call(test::TestRequest::post().uri(path)).await;
            assert_eq!(encoded, (200, "/v1/x/hello".into()), "{path}");
        }
        let list = call(test::TestRequest::get().uri("/v1/x/list?n=1")).await;
        assert_eq!(list, (200, "/v1/x/list".into()));
        assert_eq!(call(test::TestRequest::get().uri("/list")).await.0, 200);
        // A query parameter the route does not declare is refused.
        let unknown = call(test::TestRequest::get().uri("/v1/x/list?m=1")).await;
        assert_eq!(unknown.0, 400);
        // Another method: refused by the route's resource.
        for req in [
            test::TestRequest::get().uri("/v1/x/hello"),
            test::TestRequest::post().uri("/v1/x/list"),
            test::TestRequest::post().uri("/list"),
        ] {
            assert_eq!(call(req).await.0, 405);
        }
        // Another path, a longer one, the scope alone: the application's
        // default service.
        for req in [
            test::TestRequest::get().uri("/v1/x/beside"),
            test::TestRequest::get().uri("/v1/x/b%65side"),
            test::TestRequest::post().uri("/v1/x/hello/"),
            test::TestRequest::post().uri("/v1/x/hellox"),
            test::TestRequest::get().uri("/v1/x"),
            test::TestRequest::post().uri("/hello"),
        ] {
            assert_eq!(call(req).await, (404, "fallback".into()));
        }
    }
}
