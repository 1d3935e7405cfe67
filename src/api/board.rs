//! The board (docs/TOURS.md, "A tour on the board"): one page at `/board/`, its files compiled
//! into the binary from the repository's `board/` directory (no CDN, no
//! build step), served at their exact paths (one route,
//! `/board/`, in the metrics and the access log; open to every client,
//! as the page asks for a key only when the API does). The page holds no
//! rules: every move, refusal, score and suggestion comes from the public
//! API, as a site's own front end would get it. Its texts are the
//! catalogues' `board-` messages, served to it as `/board/texts/<lang>.json`.
//!
//! Every file is answered with a strict Content-Security-Policy (scripts,
//! styles and requests of the service's own origin only: no inline
//! script), `nosniff`, no referrer, and a validator (`ETag`) so that a
//! browser revalidates rather than refetches, gzip-encoded once
//! ([`Asset`]). `--no-board` leaves them out.

use std::sync::OnceLock;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};

use crate::api::openapi::resource::page_file;
use crate::api::transport::assets::Asset;
use crate::i18n::{self, Lang};

/// The page's route: its name in the metrics and the access log, for
/// every one of its files.
pub const ROUTE: &str = "/board/";

/// Where the page's files are served.
const PREFIX: &str = "/board";

/// What a browser may load and run for the page: its own files and the
/// API of the same origin; nothing inline, no frame around it, no form
/// posted anywhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; \
     form-action 'none'; frame-ancestors 'none'";

/// One file of the page: its path under [`PREFIX`] (`/board.js`) and
/// the file.
type File = (String, Asset);

/// The repository's `board/` directory, compiled in (in every build).
#[derive(rust_embed::Embed)]
#[folder = "board/"]
struct Compiled;

/// The type of a compiled file, by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        _ => "image/svg+xml",
    }
}

/// The page's files, made once a process and shared by the workers: the
/// compiled ones (`index.html` at `/`), its texts in each language, and
/// the colours and Tank Battle's pieces as the pictures draw them.
fn files() -> &'static [File] {
    static FILES: OnceLock<Vec<File>> = OnceLock::new();
    FILES.get_or_init(|| {
        let compiled = Compiled::iter().filter_map(|name| {
            let bytes = Compiled::get(&name)?.data;
            let path = format!("/{}", name.trim_start_matches("index.html"));
            Some((path, Asset::new(content_type(&name), bytes.into_owned())))
        });
        let texts = Lang::ALL.iter().map(|&lang| {
            let path = format!("/texts/{}.json", lang.tag());
            (path, Asset::new("application/json", texts(lang)))
        });
        // The pictures' colours and Tank Battle's pieces, from the
        // pictures' own source: the page draws the games as `render.svg`
        // does.
        let drawn = [
            (
                "/palette.css",
                "text/css; charset=utf-8",
                crate::render::palette(),
            ),
            (
                "/tank-battle.pieces.svg",
                "image/svg+xml",
                crate::render::tank_battle_pieces(),
            ),
        ]
        .map(|(path, content_type, text)| (path.to_owned(), Asset::new(content_type, text)));
        compiled.chain(texts).chain(drawn).collect()
    })
}

/// The catalogue messages the page writes: its own (`board-`), and the
/// review's labels as the API and its pictures say them.
const TEXTS: &[&str] = &["board-", "label-"];

/// The catalogue's messages for the page ([`TEXTS`]) of `lang` as one
/// JSON object.
fn texts(lang: Lang) -> Vec<u8> {
    let texts: serde_json::Map<String, serde_json::Value> = TEXTS
        .iter()
        .flat_map(|prefix| i18n::page_texts(lang, prefix))
        .collect();
    serde_json::to_vec(&texts).unwrap_or_default()
}

/// Registers the page's files.
pub fn configure(cfg: &mut actix_web::web::ServiceConfig) {
    cfg.service(page_file(ROUTE, PREFIX, || async {
        HttpResponse::PermanentRedirect()
            .insert_header((header::LOCATION, ROUTE))
            .finish()
    }));
    for (path, asset) in files() {
        let path = format!("{PREFIX}{path}");
        cfg.service(page_file(
            ROUTE,
            &path,
            move |req: HttpRequest| async move { serve(asset, &req) },
        ));
    }
}

/// `file` (gzip-encoded when the browser takes it), or `304 Not
/// Modified` to a browser that holds it already.
fn serve(file: &Asset, req: &HttpRequest) -> HttpResponse {
    let mut answer = HttpResponse::Ok();
    answer
        .insert_header((header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::REFERRER_POLICY, "no-referrer"));
    file.serve(req, answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_file_has_its_own_path_and_validator() {
        let files = files();
        assert!(files.len() >= 10 + Lang::ALL.len() + 2);
        for (i, (path, asset)) in files.iter().enumerate() {
            for (other_path, other) in &files[i + 1..] {
                assert_ne!(path, other_path);
                let (tag, other_tag) = (asset.etag(), other.etag());
                assert_ne!(tag, other_tag, "{path} and {other_path}");
            }
            let tag = asset.etag();
            assert!(tag.starts_with('"') && tag.len() == 34);
        }
    }

    #[test]
    fn the_texts_hold_every_page_message_in_every_language() {
        for lang in Lang::ALL {
            let texts: serde_json::Map<String, serde_json::Value> =
                serde_json::from_slice(&texts(lang)).unwrap();
            let all = i18n::message_ids(lang);
            let ids: Vec<String> = TEXTS
                .iter()
                .flat_map(|prefix| all.iter().filter(move |id| id.starts_with(prefix)))
                .cloned()
                .collect();
            assert!(ids.len() > 10);
            assert_eq!(texts.keys().cloned().collect::<Vec<_>>(), ids, "{lang:?}");
        }
        let en: serde_json::Value = serde_json::from_slice(&texts(Lang::En)).unwrap();
        let cs: serde_json::Value = serde_json::from_slice(&texts(Lang::Cs)).unwrap();
        assert_eq!(en["board-to-move"], "{side} to move");
        assert_ne!(en["board-to-move"], cs["board-to-move"]);
        assert_eq!(en["label-blunder"], "blunder");
    }
}
