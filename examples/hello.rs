//! The ceiling for HTTP benchmarks: a minimal actix-web JSON endpoint on the
//! same framework, workers and machine as the service.
//!
//! ```sh
//! cargo run --release --example hello -- 127.0.0.1:18181
//! ```

use actix_web::{post, web, App, HttpServer};
use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
struct Greeting {
    name: String,
}

#[derive(Serialize)]
struct Reply {
    message: String,
}

/// Reads a small JSON body and answers a small JSON body, like the
/// service's endpoints do, with no work in between.
#[post("/hello")]
async fn hello(body: web::Json<Greeting>) -> web::Json<Reply> {
    web::Json(Reply {
        message: format!("hello, {}", body.name),
    })
}

fn main() -> std::io::Result<()> {
    let addr = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:18181".to_owned());
    actix_web::rt::System::new().block_on(async move {
        HttpServer::new(|| App::new().service(hello))
            .bind(addr)?
            .run()
            .await
    })
}
