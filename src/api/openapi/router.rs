//! How the documented routes reach actix: [`Router`], the routes under
//! `/v1` found by their exact path, and [`endpoint`], one route at its
//! path; both registered with actix and documented with utoipa from the
//! same `#[utoipa::path(method, path = …)]` declaration.
//!
//! actix's own route macros (`#[post("/validate")]`) in a scope a game
//! would do the same at a cost on every request: actix tries a scope's
//! routes one after another (each non-matching one costs about as much as
//! a small handler's own work, so the last game's routes and `/healthz`
//! would pay for all the others), each scope adds a router and a boxed
//! future between the application and the handler, and a method guard
//! records every method it is asked about in the request's extensions,
//! for actix's own 405. Here a request under `/v1` is one map lookup by
//! its path and a comparison of its method; one that matches no route
//! goes to the application's fallback, which answers 404 or 405 from the
//! document ([`crate::api::meta::RouteTable`]), as before.

use std::marker::PhantomData;
use std::rc::Rc;

use actix_web::dev::{
    always_ready, AppService, HttpServiceFactory, ResourceDef, ResourceMap, Service,
    ServiceFactory, ServiceRequest, ServiceResponse,
};
use actix_web::http::Method;
use actix_web::{guard, web, Error, FromRequest, Handler, Responder, Route};
use futures_util::future::LocalBoxFuture;
use utoipa::openapi::path::{HttpMethod, Paths, PathsMap};
use utoipa::openapi::schema::Schema;
use utoipa::openapi::RefOr;
use utoipa_actix_web::OpenApiFactory;

type Schemas = Vec<(String, RefOr<Schema>)>;

/// The routes under one prefix (`/v1`), each at its exact path.
pub struct Router {
    prefix: String,
    /// Each route: its path under the prefix, its method, its handler.
    routes: Vec<(String, Method, Route)>,
    paths: Paths,
    schemas: Schemas,
}

impl Router {
    /// No routes yet under `prefix`.
    pub fn new(prefix: &str) -> Router {
        Router {
            prefix: prefix.to_owned(),
            routes: Vec::new(),
            paths: Paths::new(),
            schemas: Vec::new(),
        }
    }

    /// Adds `handler` at `under` + the path its documentation `doc` (the
    /// `__path_<handler>` value `#[utoipa::path]` declares) gives, for the
    /// methods it gives.
    pub fn route<P, F, Args>(&mut self, under: &str, doc: P, handler: F) -> &mut Router
    where
        P: utoipa::Path + OpenApiFactory,
        F: Handler<Args>,
        Args: FromRequest + 'static,
        F::Output: Responder + 'static,
    {
        let path = format!("{under}{}", P::path());
        for method in P::methods() {
            let route = web::route().to(handler.clone());
            self.routes
                .push((path.clone(), actix_method(&method), route));
        }
        let full = format!("{}{under}", self.prefix);
        self.paths.merge(prefixed(doc.paths(), &full));
        doc.schemas(&mut self.schemas);
        self
    }
}

impl HttpServiceFactory for Router {
    fn register(self, config: &mut AppService) {
        // The routes' patterns, for `match_pattern` (metrics, logs).
        let mut patterns = ResourceMap::new(ResourceDef::root_prefix(&self.prefix));
        for (path, _, _) in &self.routes {
            patterns.add(&mut ResourceDef::new(path.as_str()), None);
        }
        let factory = RouterFactory {
            prefix: self.prefix.len(),
            routes: Rc::new(self.routes),
            fallback: config.default_service(),
        };
        config.register_service(
            ResourceDef::prefix(&self.prefix),
            None,
            factory,
            Some(Rc::new(patterns)),
        );
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

type RouteService = <Route as ServiceFactory<ServiceRequest>>::Service;
type Answer = LocalBoxFuture<'static, Result<ServiceResponse, Error>>;

/// Makes a worker's [`RouterService`]; `F` makes the fallback.
struct RouterFactory<F> {
    /// The prefix's length: the part of a path the table leaves out.
    prefix: usize,
    routes: Rc<Vec<(String, Method, Route)>>,
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
        Box::pin(async move {
            let mut table: foldhash::HashMap<Box<str>, Vec<(Method, RouteService)>> =
                foldhash::HashMap::default();
            for (path, method, route) in routes.iter() {
                let service = route.new_service(()).await?;
                table
                    .entry(path.as_str().into())
                    .or_default()
                    .push((method.clone(), service));
            }
            Ok(RouterService {
                prefix,
                table,
                fallback: fallback.new_service(()).await?,
            })
        })
    }
}

/// A worker's router: the routes by path, each with its methods.
struct RouterService<S> {
    prefix: usize,
    table: foldhash::HashMap<Box<str>, Vec<(Method, RouteService)>>,
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
        let route = req
            .match_info()
            .as_str()
            .get(self.prefix..)
            .and_then(|path| self.table.get(path))
            .and_then(|methods| methods.iter().find(|(method, _)| method == req.method()));
        match route {
            Some((_, service)) => service.call(req),
            None => self.fallback.call(req),
        }
    }
}

/// `handler` alone at the path its documentation `doc` gives, for the
/// methods it gives (the service's own routes outside `/v1`).
pub fn endpoint<P, F, Args>(doc: P, handler: F) -> Endpoint<P, F, Args> {
    Endpoint {
        doc,
        handler,
        args: PhantomData,
    }
}

/// See [`endpoint`].
pub struct Endpoint<P, F, Args> {
    doc: P,
    handler: F,
    args: PhantomData<fn() -> Args>,
}

impl<P, F, Args> HttpServiceFactory for Endpoint<P, F, Args>
where
    P: utoipa::Path,
    F: Handler<Args>,
    Args: FromRequest + 'static,
    F::Output: Responder + 'static,
{
    fn register(self, config: &mut AppService) {
        let methods: Vec<Method> = P::methods().iter().map(actix_method).collect();
        web::resource(P::path())
            .guard(guard::fn_guard(move |ctx| {
                methods.contains(&ctx.head().method)
            }))
            .to(self.handler)
            .register(config);
    }
}

impl<P: OpenApiFactory, F, Args> OpenApiFactory for Endpoint<P, F, Args> {
    fn paths(&self) -> Paths {
        self.doc.paths()
    }

    fn schemas(&self, schemas: &mut Schemas) {
        self.doc.schemas(schemas);
    }
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
    use actix_web::{test, App, HttpRequest, HttpResponse};

    use super::*;

    /// Says hello.
    #[utoipa::path(post, path = "/hello", responses((status = 200, description = "Hello")))]
    async fn hello(req: HttpRequest) -> HttpResponse {
        HttpResponse::Ok().body(req.match_pattern().unwrap_or_default())
    }

    /// Lists.
    #[utoipa::path(get, path = "/list", responses((status = 200, description = "A list")))]
    async fn list() -> HttpResponse {
        HttpResponse::Ok().body("list")
    }

    async fn fallback() -> HttpResponse {
        HttpResponse::NotFound().body("fallback")
    }

    #[actix_web::test]
    async fn routes_by_exact_path_and_method_and_documents_the_full_paths() {
        let mut router = Router::new("/v1");
        router
            .route("/x", __path_hello, hello)
            .route("/x", __path_list, list);
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
                .service(router)
                .service(endpoint(__path_list, list))
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
        let encoded = call(test::TestRequest::post().uri("/v1/x/h%65llo")).await;
        assert_eq!(encoded.0, 200);
        assert_eq!(
            call(test::TestRequest::get().uri("/v1/x/list")).await.0,
            200
        );
        assert_eq!(call(test::TestRequest::get().uri("/list")).await.0, 200);
        // Another method, another path, a longer one, the prefix alone:
        // the fallback.
        for req in [
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
