//! How the documented routes reach actix: [`Router`], a table of routes
//! found by their exact path and method, each registered with actix and
//! documented with utoipa from the same `#[utoipa::path(method, path =
//! …)]` declaration. The `/v1` routes are one router (a prefix and its
//! table); each operator endpoint (`/healthz`, …) is a router of one
//! exact path ([`endpoint`]).
//!
//! A router is also where a request is classified, once: the route it
//! finds tags the request ([`Route`]: its name, the quota it spends), and
//! when the server has quotas or keys, fair use admits the request there,
//! by that route's quota, before its handler runs. Unknown query
//! parameters of a GET route are refused there too, by the parameters its
//! documentation declares.
//!
//! actix's own route macros (`#[post("/validate")]`) in a scope a game
//! would do the same at a cost on every request: actix tries a scope's
//! routes one after another (each non-matching one costs about as much as
//! a small handler's own work, so the last game's routes and `/healthz`
//! would pay for all the others), each scope adds a router and a boxed
//! future between the application and the handler, and a method guard
//! records every method it is asked about in the request's extensions,
//! for actix's own 405. Here a request is one map lookup by its path (as
//! actix's router matches it: percent-encoded unreserved characters
//! decoded) and a comparison of its method; a path of its table with
//! another method goes to the application's fallback, which answers 405
//! from the document ([`crate::api::meta::RouteTable`]). A router owns
//! its prefix: a path under it that its table does not hold goes to the
//! fallback too (its path is looked up once, in the table; no service is
//! registered beside it, as `architecture::routes_are_registered_through_the_routers`
//! holds). A path with parameters is refused when it is registered: the
//! table matches exact paths.

use std::rc::Rc;
use std::sync::Arc;

use actix_web::dev::{
    always_ready, AppService, HttpServiceFactory, ResourceDef, Service, ServiceFactory,
    ServiceRequest, ServiceResponse,
};
use actix_web::http::Method;
use actix_web::{web, Error, FromRequest, Handler, Responder};
use futures_util::future::LocalBoxFuture;
use utoipa::openapi::path::{HttpMethod, ParameterIn, Paths, PathsMap};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa_actix_web::OpenApiFactory;

use crate::api::middleware::fair_use;
use crate::api::transport::problem::RequestError;
use crate::api::transport::route::Route;
use crate::fair_use::FairUse;
use crate::limits::Limits;
use crate::operations::{Method as OperationMethod, Operation, Price};
use crate::text::Text;

type Schemas = Vec<(String, RefOr<Schema>)>;

/// One route of a router: its path under the router's prefix, its
/// method, its handler and what it is.
struct Entry {
    path: String,
    method: Method,
    handler: actix_web::Route,
    route: Rc<Route>,
}

/// Routes found by their exact path and method.
pub struct Router {
    prefix: String,
    /// Whether actix hands the router only its one exact path (an
    /// endpoint) rather than every path under the prefix.
    exact: Option<String>,
    routes: Vec<Entry>,
    paths: Paths,
    schemas: Schemas,
    /// Fair use, when the server has quotas or keys.
    fair_use: Option<Arc<FairUse>>,
    /// The limits the routes' prices follow.
    limits: Limits,
}

impl Router {
    /// No routes yet under `prefix`.
    pub fn new(prefix: &str) -> Router {
        Router {
            prefix: prefix.to_owned(),
            exact: None,
            routes: Vec::new(),
            paths: Paths::new(),
            schemas: Vec::new(),
            fair_use: None,
            limits: Limits::default(),
        }
    }

    /// Prices its routes by `limits` (a review's price follows the time
    /// caps).
    pub fn priced_by(mut self, limits: Limits) -> Router {
        self.limits = limits;
        self
    }

    /// Admits each request by fair use (`fair_use`, when it is active)
    /// before its route's handler runs.
    pub fn admitting(mut self, fair_use: Option<Arc<FairUse>>) -> Router {
        self.fair_use = fair_use.filter(|fair_use| fair_use.is_active());
        self
    }

    /// Adds the operation `op` of a game at `under` (`/{game}`) + its path:
    /// `handler`, documented by `doc` (the `__path_<handler>` value
    /// `#[utoipa::path]` declares, whose path and method must be the
    /// operation's), priced as the operation is ([`Operation::price`]),
    /// its documentation saying so.
    pub fn operation<P, F, Args>(
        &mut self,
        under: &str,
        op: Operation,
        doc: P,
        handler: F,
    ) -> &mut Router
    where
        P: utoipa::Path + OpenApiFactory,
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        assert_eq!(
            P::path(),
            op.path(),
            "{op:?} is documented at another path than its own"
        );
        let method = match op.method() {
            OperationMethod::Get => HttpMethod::Get,
            OperationMethod::Post => HttpMethod::Post,
        };
        assert!(
            P::methods() == [method],
            "{op:?} is documented with another method than its own"
        );
        let price = op.price(&self.limits);
        self.add(under, doc, handler, Some(op), Some(price))
    }

    /// Adds `handler` at `under` + the path its documentation `doc` gives,
    /// a route that is no game's operation but spends one request (the
    /// catalogue).
    pub fn request<P, F, Args>(&mut self, under: &str, doc: P, handler: F) -> &mut Router
    where
        P: utoipa::Path + OpenApiFactory,
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        self.add(under, doc, handler, None, Some(Price::REQUEST))
    }

    /// Adds `handler` for `GET` at the exact path `path` under the prefix:
    /// a file of a page (the board's, Swagger UI's), named `name` in the
    /// metrics and the access log with the page's other files, costing one
    /// request as any other (a client without a key, where keys are
    /// configured, counted by its address: a browser loads a page's files
    /// without the key the page asks for), taking no query parameters, and
    /// not in the API's document (a page is not an operation).
    pub fn page_file<F, Args>(&mut self, name: &str, path: &str, handler: F) -> &mut Router
    where
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let route = Route {
            name: name.into(),
            operation: None,
            price: Some(Price::REQUEST),
            keyless: true,
            query: Box::new([]),
        };
        self.routes.push(Entry {
            path: path.to_owned(),
            method: Method::GET,
            handler: web::route().to(handler),
            route: Rc::new(route),
        });
        self
    }

    /// Adds `handler` at `under` + the path its documentation `doc` gives,
    /// for the methods it gives: the operation `operation` (if it is one),
    /// spending `price` (`None`: open to every client). A path with
    /// parameters (`{id}`) is refused: the table matches exact paths.
    fn add<P, F, Args>(
        &mut self,
        under: &str,
        doc: P,
        handler: F,
        operation: Option<Operation>,
        price: Option<Price>,
    ) -> &mut Router
    where
        P: utoipa::Path + OpenApiFactory,
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let path = format!("{under}{}", P::path());
        assert!(
            !path.contains('{'),
            "{path}: a router matches exact paths; a path with parameters needs another router"
        );
        let full = format!("{}{under}", self.prefix);
        let mut paths = prefixed(doc.paths(), &full);
        if let Some(op) = operation {
            say_price(&mut paths, op);
        }
        let name = format!("{}{path}", self.prefix);
        for method in P::methods() {
            let route = Route {
                name: name.as_str().into(),
                operation,
                price,
                keyless: false,
                query: query_parameters(&paths, &name, &method),
            };
            self.routes.push(Entry {
                path: path.clone(),
                method: actix_method(&method),
                handler: web::route().to(handler.clone()),
                route: Rc::new(route),
            });
        }
        self.paths.merge(paths);
        doc.schemas(&mut self.schemas);
        self
    }
}

/// Adds what `op` costs and where it runs to the description of each of
/// its operations in `paths`.
fn say_price(paths: &mut Paths, op: Operation) {
    let text = op.price_text();
    for item in paths.paths.values_mut() {
        let operations = [
            item.get.as_mut(),
            item.post.as_mut(),
            item.put.as_mut(),
            item.delete.as_mut(),
            item.patch.as_mut(),
        ];
        for operation in operations.into_iter().flatten() {
            let description = operation.description.get_or_insert_with(String::new);
            if !description.is_empty() {
                description.push_str("\n\n");
            }
            description.push_str(&text);
        }
    }
}

/// `handler` alone at the path its documentation `doc` gives, for the
/// methods it gives, open to every client (the operator endpoints).
pub fn endpoint<P, F, Args>(doc: P, handler: F) -> Router
where
    P: utoipa::Path + OpenApiFactory,
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    let mut router = Router::new("");
    router.exact = Some(P::path());
    router.add("", doc, handler, None, None);
    router
}

impl HttpServiceFactory for Router {
    fn register(self, config: &mut AppService) {
        // A router under a prefix claims every path under it: one its
        // table does not hold is the application's default service's (a
        // 404, or a 405 naming the methods of a path it holds). No other
        // service is registered under a router's prefix
        // (`architecture::routes_are_registered_through_the_routers`), so
        // a request's path is looked up once, in the table.
        let def = match &self.exact {
            Some(path) => ResourceDef::new(path.as_str()),
            None => ResourceDef::prefix(&self.prefix),
        };
        let factory = RouterFactory {
            prefix: self.prefix.len(),
            routes: Rc::new(self.routes),
            fair_use: self.fair_use,
            fallback: config.default_service(),
        };
        config.register_service(def, None, factory, None);
    }
}

impl OpenApiFactory for Router {
    fn paths(&self) -> Paths {
        self.paths.clone()
    }

    fn schemas(&self, schemas: &mut Schemas) {
        schemas.extend(self.schemas.iter().cloned());
    }
}

type RouteService = <actix_web::Route as ServiceFactory<ServiceRequest>>::Service;
type Answer = LocalBoxFuture<'static, Result<ServiceResponse, Error>>;

/// Makes a worker's [`RouterService`]; `F` makes the fallback.
struct RouterFactory<F> {
    /// The prefix's length: the part of a path the table leaves out.
    prefix: usize,
    routes: Rc<Vec<Entry>>,
    fair_use: Option<Arc<FairUse>>,
    fallback: Rc<F>,
}

impl<F> ServiceFactory<ServiceRequest> for RouterFactory<F>
where
    F: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse,
            Error = Error,
            InitError = (),
        > + 'static,
    F::Service: Service<ServiceRequest, Future = Answer>,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Config = ();
    type Service = RouterService<F::Service>;
    type InitError = ();
    type Future = LocalBoxFuture<'static, Result<Self::Service, ()>>;

    fn new_service(&self, _: ()) -> Self::Future {
        let (routes, fallback, prefix) = (self.routes.clone(), self.fallback.clone(), self.prefix);
        let fair_use = self.fair_use.clone();
        Box::pin(async move {
            let mut table: foldhash::HashMap<Box<str>, Vec<Served>> = foldhash::HashMap::default();
            for entry in routes.iter() {
                let service = entry.handler.new_service(()).await?;
                table
                    .entry(entry.path.as_str().into())
                    .or_default()
                    .push(Served {
                        method: entry.method.clone(),
                        route: entry.route.clone(),
                        service: Rc::new(service),
                    });
            }
            Ok(RouterService {
                prefix,
                table,
                fair_use,
                fallback: fallback.new_service(()).await?,
            })
        })
    }
}

/// A route as a worker serves it.
struct Served {
    method: Method,
    route: Rc<Route>,
    service: Rc<RouteService>,
}

/// A worker's router: the routes by path, each with its methods.
struct RouterService<S> {
    prefix: usize,
    table: foldhash::HashMap<Box<str>, Vec<Served>>,
    fair_use: Option<Arc<FairUse>>,
    fallback: S,
}

impl<S> Service<ServiceRequest> for RouterService<S>
where
    S: Service<ServiceRequest, Response = ServiceResponse, Error = Error, Future = Answer>,
{
    type Response = ServiceResponse;
    type Error = Error;
    type Future = Answer;

    always_ready!();

    fn call(&self, req: ServiceRequest) -> Self::Future {
        // The path as actix's router matches it (percent-encoded
        // unreserved characters decoded), without the prefix.
        let found = req
            .match_info()
            .as_str()
            .get(self.prefix..)
            .and_then(|path| self.table.get(path))
            .and_then(|methods| methods.iter().find(|served| served.method == req.method()));
        let Some(served) = found else {
            return self.fallback.call(req);
        };
        Route::tag(&req, &served.route);
        if let Some(refused) = unknown_query_parameter(&req, &served.route) {
            let res = req.error_response(refused);
            return Box::pin(async move { Ok(res) });
        }
        match (&self.fair_use, served.route.price) {
            (Some(fair_use), Some(price)) => {
                let (fair_use, service) = (fair_use.clone(), served.service.clone());
                let keyless = served.route.keyless;
                Box::pin(async move {
                    fair_use::admitted(fair_use, price, keyless, &*service, req).await
                })
            }
            _ => served.service.call(req),
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

/// The query parameters the `method` operation at `path` declares.
fn query_parameters(paths: &Paths, path: &str, method: &HttpMethod) -> Box<[Box<str>]> {
    let operation = paths.paths.get(path).and_then(|item| match method {
        HttpMethod::Get => item.get.as_ref(),
        _ => None,
    });
    operation
        .and_then(|op| op.parameters.as_ref())
        .into_iter()
        .flatten()
        .filter(|p| matches!(p.parameter_in, ParameterIn::Query))
        .map(|p| p.name.as_str().into())
        .collect()
}

/// `paths` with `prefix` before each.
fn prefixed(mut paths: Paths, prefix: &str) -> Paths {
    paths.paths = std::mem::take(&mut paths.paths)
        .into_iter()
        .map(|(path, item)| (format!("{prefix}{path}"), item))
        .collect::<PathsMap<_, _>>();
    paths
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

    use super::*;

    /// Says hello.
    #[utoipa::path(post, path = "/hello", responses((status = 200, description = "Hello")))]
    async fn hello(req: actix_web::HttpRequest) -> HttpResponse {
        let route = Route::of(&req).map(|route| route.name.to_string());
        HttpResponse::Ok().body(route.unwrap_or_default())
    }

    /// Lists.
    #[utoipa::path(get, path = "/list", responses((status = 200, description = "A list")))]
    async fn list() -> HttpResponse {
        HttpResponse::Ok().body("list")
    }

    async fn beside() -> HttpResponse {
        HttpResponse::Ok().body("beside")
    }

    async fn fallback() -> HttpResponse {
        HttpResponse::NotFound().body("fallback")
    }

    #[actix_web::test]
    async fn routes_by_exact_path_and_method_and_documents_the_full_paths() {
        let mut router = Router::new("/v1");
        router
            .request("/x", __path_hello, hello)
            .request("/x", __path_list, list);
        let paths = router.paths();
        assert_eq!(
            paths.paths.keys().collect::<Vec<_>>(),
            ["/v1/x/hello", "/v1/x/list"]
        );
        assert!(paths
            .paths
            .get("/v1/x/hello")
            .is_some_and(|item| item.post.is_some() && item.get.is_none()));

        let app = test::init_service(
            App::new()
                // Under the router's prefix, registered before it.
                .service(web::resource("/v1/z/before").to(beside))
                .service(router)
                .service(endpoint(__path_list, list))
                // Under the router's prefix, registered after it: never
                // reached (the router owns its prefix).
                .service(web::scope("/v1/y").route("/beside", web::get().to(beside)))
                .service(web::resource("/v1/x/beside").to(beside))
                .default_service(web::to(fallback)),
        )
        .await;
        let call = |req: test::TestRequest| {
            let app = &app;
            async move {
                let res = test::call_service(app, req.to_request()).await;
                let status = res.status().as_u16();
                (status, test::read_body(res).await)
            }
        };
        // The route, its pattern known; the path with an unreserved
        // character percent-encoded is the same path.
        let hello = call(test::TestRequest::post().uri("/v1/x/hello")).await;
        assert_eq!(hello, (200, "/v1/x/hello".into()));
        // The same route, written with percent-encoded unreserved
        // characters anywhere, is the same route with the same name.
        for path in [
            "/v1/x/h%65llo",
            "/%761/x/hello",
            "/v%31/%78/hello",
            "/%76%31/x/hell%6F",
        ] {
            let encoded = call(test::TestRequest::post().uri(path)).await;
            assert_eq!(encoded, (200, "/v1/x/hello".into()), "{path}");
        }
        assert_eq!(
            call(test::TestRequest::get().uri("/v1/x/list")).await.0,
            200
        );
        assert_eq!(call(test::TestRequest::get().uri("/list")).await.0, 200);
        // A service under the router's prefix registered before it is
        // reached; one registered after it is not: every path under the
        // prefix that its table does not hold is the fallback's.
        let before = call(test::TestRequest::get().uri("/v1/z/before")).await;
        assert_eq!(before, (200, "beside".into()));
        // Another method, another path, a longer one, the prefix alone, a
        // path under the prefix served after the router: the fallback.
        for req in [
            test::TestRequest::get().uri("/v1/y/beside"),
            test::TestRequest::get().uri("/v1/x/beside"),
            test::TestRequest::get().uri("/v1/x/b%65side"),
            test::TestRequest::get().uri("/v1/x/hello"),
            test::TestRequest::post().uri("/v1/x/list"),
            test::TestRequest::post().uri("/v1/x/hello/"),
            test::TestRequest::post().uri("/v1/x/hellox"),
            test::TestRequest::get().uri("/v1"),
            test::TestRequest::post().uri("/hello"),
            test::TestRequest::post().uri("/list"),
        ] {
            assert_eq!(call(req).await, (404, "fallback".into()));
        }
    }
}
