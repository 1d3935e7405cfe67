//! Swagger UI at `/swagger-ui/`: the files `utoipa-swagger-ui` vendors
//! (its `serve`, with the service's document as its one URL), each made
//! once a process and served as a static file ([`Asset`]: gzip-encoded
//! once, with a validator, in pieces) at their exact paths,
//! one route (`/swagger-ui/`) in the metrics and the access log, costing
//! a request as any page's file does.

use std::sync::{Arc, OnceLock};

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use utoipa_swagger_ui::Config;

use crate::api::openapi::resource::page_file;
use crate::api::openapi::OPENAPI_PATH;
use crate::api::transport::assets::Asset;

/// The page's route: its name in the metrics and the access log.
pub const ROUTE: &str = "/swagger-ui/";

/// Where the page's files are served.
const PREFIX: &str = "/swagger-ui";

/// The files the page loads (its `index.html` names them), and the one
/// its OAuth flow would: the vendored distribution's others (the ES
/// bundles, the source maps) are not served.
const FILES: &[&str] = &[
    "index.html",
    "index.css",
    "swagger-ui.css",
    "swagger-ui-bundle.js",
    "swagger-ui-standalone-preset.js",
    "swagger-initializer.js",
    "favicon-16x16.png",
    "favicon-32x32.png",
    "oauth2-redirect.html",
];

/// The page's files by name, made once a process.
fn files() -> &'static [(&'static str, Asset)] {
    static FILES_MADE: OnceLock<Vec<(&'static str, Asset)>> = OnceLock::new();
    FILES_MADE.get_or_init(|| {
        let config = Arc::new(Config::new([OPENAPI_PATH]));
        FILES
            .iter()
            .filter_map(|&name| {
                let file = utoipa_swagger_ui::serve(name, config.clone()).ok()??;
                Some((name, Asset::new(file.content_type, file.bytes.into_owned())))
            })
            .collect()
    })
}

/// Registers the page's files.
pub fn configure(cfg: &mut actix_web::web::ServiceConfig) {
    cfg.service(page_file(ROUTE, PREFIX, || async {
        HttpResponse::PermanentRedirect()
            .insert_header((header::LOCATION, ROUTE))
            .finish()
    }));
    for (name, asset) in files() {
        let serve = move |req: HttpRequest| async move { asset.serve(&req, HttpResponse::Ok()) };
        if *name == "index.html" {
            cfg.service(page_file(ROUTE, ROUTE, serve));
        }
        cfg.service(page_file(ROUTE, &format!("{ROUTE}{name}"), serve));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_the_page_loads_is_served_and_names_the_document() {
        let names: Vec<&str> = files().iter().map(|(name, _)| *name).collect();
        assert_eq!(names, FILES);
        let config = Arc::new(Config::new([OPENAPI_PATH]));
        let initializer = utoipa_swagger_ui::serve("swagger-initializer.js", config)
            .unwrap()
            .unwrap();
        assert!(String::from_utf8_lossy(&initializer.bytes).contains(OPENAPI_PATH));
    }
}
