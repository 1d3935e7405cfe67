//! The layering docs/ARCHITECTURE.md claims, checked on the module graph
//! of `src/` as `syn` reads it ([`crate::modules`]): no import circle
//! anywhere; the shared pieces below the HTTP layer (cache, limits,
//! metrics, error, render, fair use, the Redis link, the access log) use
//! nothing of the HTTP layer (`api`), the server or the command line; the
//! pictures name no HTTP or OpenAPI library. The engines are a crate of
//! their own (`engines/`): Cargo holds them to their manifest, which names
//! no HTTP crate.

use std::path::Path;

use crate::modules::{Graph, Module};

fn graph() -> Graph {
    Graph::of_crate(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn name(module: &Module) -> String {
    if module.is_empty() {
        "crate".to_owned()
    } else {
        module.join("::")
    }
}

/// The modules under any of `tops` (a top-level module's name).
fn under<'a>(graph: &'a Graph, tops: &[&str]) -> Vec<&'a Module> {
    let found: Vec<&Module> = graph
        .uses
        .keys()
        .filter(|m| m.first().is_some_and(|top| tops.contains(&top.as_str())))
        .collect();
    assert!(!found.is_empty(), "no modules under {tops:?}");
    found
}

#[test]
fn no_import_circle_under_src() {
    let graph = graph();
    let cycles = graph.cycles();
    // Each circle with the uses that make it.
    let shown: Vec<String> = cycles
        .iter()
        .map(|set| {
            let uses: Vec<String> = set
                .iter()
                .flat_map(|m| {
                    graph.uses[m]
                        .iter()
                        .filter(|t| set.contains(t))
                        .map(move |t| format!("  {} -> {}", name(m), name(t)))
                })
                .collect();
            format!(
                "{}:\n{}",
                set.iter().map(name).collect::<Vec<_>>().join(" <-> "),
                uses.join("\n")
            )
        })
        .collect();
    assert!(cycles.is_empty(), "import circles:\n{}", shown.join("\n"));
}

/// The layers below the HTTP layer.
const BELOW: &[&str] = &[
    "games",
    "cache",
    "render",
    "fair_use",
    "limits",
    "metrics",
    "error",
    "redis",
    "access_log",
    "logs",
    "memory",
];

#[test]
fn nothing_below_the_http_layer_uses_it_the_server_or_the_command_line() {
    let graph = graph();
    let mut found = Vec::new();
    for module in under(&graph, BELOW) {
        for target in &graph.uses[module] {
            let top = target.first().map(String::as_str);
            if matches!(top, Some("api" | "config" | "server")) {
                found.push(format!("{} uses {}", name(module), name(target)));
            }
        }
    }
    assert!(found.is_empty(), "uses from above:\n{}", found.join("\n"));
}

#[test]
fn the_pictures_know_nothing_of_http() {
    let graph = graph();
    let mut found = Vec::new();
    for module in under(&graph, &["render"]) {
        for krate in &graph.externs[module] {
            if krate.starts_with("actix") || krate.starts_with("utoipa") {
                found.push(format!("{} names {krate}", name(module)));
            }
        }
    }
    assert!(found.is_empty(), "HTTP in a picture:\n{}", found.join("\n"));
}

/// The engines are a crate of their own: what they may depend on is its
/// manifest's, and Cargo holds them to it. The manifest names no HTTP,
/// OpenAPI, Redis or logging-setup crate, and not the service.
#[test]
fn the_engines_crate_depends_on_no_http() {
    let manifest =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("engines/Cargo.toml"))
            .unwrap();
    let mut section = "";
    let mut dependencies = Vec::new();
    for line in manifest.lines().map(str::trim) {
        if line.starts_with('[') {
            section = line;
        } else if section.ends_with("dependencies]") {
            if let Some((name, _)) = line.split_once('=') {
                dependencies.push(name.trim().to_owned());
            }
        }
    }
    assert!(
        dependencies.contains(&"rand".to_owned()),
        "{dependencies:?}"
    );
    let forbidden = [
        "actix",
        "utoipa",
        "redis",
        "tracing-subscriber",
        "tokio",
        "tank-rules",
    ];
    let found: Vec<&String> = dependencies
        .iter()
        .filter(|d| forbidden.iter().any(|f| d.starts_with(f)))
        .collect();
    assert!(found.is_empty(), "the engines depend on {found:?}");
}

/// The checks can fail: a grouped `use` is an edge, a circle through
/// `super::` and a macro's tokens is found, an external crate is named.
#[test]
fn the_checks_find_what_they_look_for() {
    let files = [
        (vec![], "pub mod a; pub mod b; pub mod c;".to_owned()),
        (vec!["a".to_owned()], "use crate::{b, c::Thing};".to_owned()),
        (
            vec!["b".to_owned()],
            "macro_rules! m { () => { crate::c::f() } } fn g() { actix_web::web::Data::new(1); }"
                .to_owned(),
        ),
        (
            vec!["c".to_owned()],
            "use super::a::X; #[cfg(test)] mod tests { use crate::b; }".to_owned(),
        ),
    ];
    let graph = Graph::of_files(&files);
    let a = vec!["a".to_owned()];
    let b = vec!["b".to_owned()];
    let c = vec!["c".to_owned()];
    assert!(graph.uses[&a].contains(&b) && graph.uses[&a].contains(&c));
    assert!(graph.uses[&b].contains(&c), "{:?}", graph.uses);
    assert!(!graph.uses[&c].contains(&b), "a test module counted");
    assert!(graph.externs[&b].contains("actix_web"));
    assert_eq!(graph.cycles(), vec![vec![a.clone(), b, c]]);
    // A parent that re-exports its child's item is not a step of a
    // circle: a path through it reaches the child.
    let files = [
        (vec![], "pub mod p;".to_owned()),
        (
            vec!["p".to_owned()],
            "mod x; mod y; pub use x::Thing; pub use y::*; fn f(_: Thing) {}".to_owned(),
        ),
        (
            vec!["p".to_owned(), "x".to_owned()],
            "pub struct Thing; use super::Other;".to_owned(),
        ),
        (
            vec!["p".to_owned(), "y".to_owned()],
            "pub struct Other; use super::Thing;".to_owned(),
        ),
    ];
    let graph = Graph::of_files(&files);
    let x = vec!["p".to_owned(), "x".to_owned()];
    let y = vec!["p".to_owned(), "y".to_owned()];
    assert!(graph.uses[&x].contains(&y), "{:?}", graph.uses);
    assert!(graph.uses[&y].contains(&x), "{:?}", graph.uses);
    assert_eq!(graph.cycles(), vec![vec![x, y]]);
    let _ = a;
}

/// actix's ways to register a route, as their tokens read without spaces
/// (a scope only groups routes, each of which is still registered one of
/// these ways).
const ACTIX_ROUTES: &[&str] = &[
    "web::resource(",
    "web::route(",
    "web::get(",
    "web::post(",
    "web::put(",
    "web::delete(",
    "web::patch(",
    "web::head(",
    "web::redirect(",
    "Resource::new(",
    "#[get(",
    "#[post(",
    "#[route(",
    "SwaggerUi::new(",
];

/// Where a route may be registered with actix other than through
/// `src/api/openapi/resource.rs` (which classifies each route at its door
/// and documents it): the redirect from `/` to Swagger UI (whose files are
/// registered there, `src/api/swagger.rs`, as the document's one path
/// is), which the fallback's route table names as served undocumented.
const REGISTERED_OUTSIDE_A_ROUTER: &[(&str, &str, usize)] = &[("api/mod.rs", "web::redirect(", 1)];

/// The items of `source` but its tests.
fn code_items(source: &str) -> Vec<syn::Item> {
    let parsed = syn::parse_file(source).unwrap();
    parsed
        .items
        .into_iter()
        .filter(|item| match item {
            syn::Item::Mod(m) => !crate::modules::is_test(&m.attrs),
            syn::Item::Fn(f) => !crate::modules::is_test(&f.attrs),
            _ => true,
        })
        .collect()
}

/// Every source file under `src/` (sorted) but the files of tests only,
/// as its path below `src/` and its text.
fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files.retain(|path| !crate::modules::is_test_file(path));
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let file = path
                .strip_prefix(&src)
                .unwrap()
                .to_string_lossy()
                .replace('\\', "/");
            (file, std::fs::read_to_string(&path).unwrap())
        })
        .collect()
}

/// How often each of [`ACTIX_ROUTES`] occurs in `source`'s code (tests
/// aside), by file.
fn actix_routes(file: &str, source: &str) -> Vec<(String, String, usize)> {
    use quote::ToTokens;
    let mut code = String::new();
    for item in code_items(source) {
        code.push_str(&item.to_token_stream().to_string());
    }
    let code: String = code.split_whitespace().collect();
    ACTIX_ROUTES
        .iter()
        .map(|way| {
            (
                file.to_owned(),
                (*way).to_owned(),
                code.matches(way).count(),
            )
        })
        .filter(|(_, _, n)| *n > 0)
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Every route is registered through `openapi::resource` (which classifies
/// it, spends its quota and documents it), but for the few listed: a route
/// added beside them with actix's own builders fails here.
#[test]
fn routes_are_registered_through_the_resource_builders() {
    let mut found = Vec::new();
    for (file, source) in sources() {
        if file == "api/openapi/resource.rs" || file.starts_with("bin/") {
            continue;
        }
        found.extend(actix_routes(&file, &source));
    }
    let allowed: Vec<(String, String, usize)> = REGISTERED_OUTSIDE_A_ROUTER
        .iter()
        .map(|(f, w, n)| ((*f).to_owned(), (*w).to_owned(), *n))
        .collect();
    assert_eq!(
        found, allowed,
        "routes registered with actix outside openapi::resource"
    );
}

#[test]
fn a_route_registered_beside_the_resource_builders_is_found() {
    let source = r#"
        fn configure(cfg: &mut ServiceConfig) {
            cfg.service(web::scope("/v1/extra").route("/x", web::get().to(x)));
        }
        #[cfg(test)]
        mod tests { fn t() { App::new().service(web::resource("/t")); } }
    "#;
    let found = actix_routes("api/extra.rs", source);
    let names: Vec<&str> = found.iter().map(|(_, way, _)| way.as_str()).collect();
    assert_eq!(names, ["web::get("]);
}

/// Cargo.toml builds no test harness for the binaries (`test = false`),
/// so a test written in one would never run: there must be none.
#[test]
fn the_binaries_hold_no_tests() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = vec![root.join("src/main.rs")];
    rust_files(&root.join("engines/src/bin"), &mut files);
    let with_tests: Vec<String> = files
        .iter()
        .filter(|path| {
            let code: String = std::fs::read_to_string(path)
                .unwrap()
                .split_whitespace()
                .collect();
            code.contains("#[test]") || code.contains("#[cfg(test)]")
        })
        .map(|path| path.display().to_string())
        .collect();
    assert!(
        with_tests.is_empty(),
        "tests that would never run: {with_tests:?}"
    );
}

/// The names and paths of the operations as string literals
/// (`"ai-move"`, `"/ai-move"`), from `src/operations.rs`'s table.
fn operation_literals() -> Vec<String> {
    use tank_rules::operations::Operation;
    Operation::ALL
        .into_iter()
        .flat_map(|op| [format!("\"{}\"", op.name()), format!("\"{}\"", op.path())])
        .collect()
}

/// The string literals of `source`'s code (tests aside) that are one of
/// `names`, as (file, literal); the data of `json!` examples aside.
fn literals_named(file: &str, source: &str, names: &[String]) -> Vec<(String, String)> {
    use proc_macro2::{TokenStream, TokenTree};
    use quote::ToTokens;
    fn walk(tokens: TokenStream, names: &[String], out: &mut Vec<String>) {
        let mut last_two: [Option<String>; 2] = [None, None];
        for token in tokens {
            let text = token.to_string();
            match &token {
                TokenTree::Group(group) => {
                    let json = last_two[0].as_deref() == Some("json")
                        && last_two[1].as_deref() == Some("!");
                    if !json {
                        walk(group.stream(), names, out);
                    }
                }
                TokenTree::Literal(_) if names.contains(&text) => out.push(text.clone()),
                _ => {}
            }
            last_two = [last_two[1].take(), Some(text)];
        }
    }
    let mut out = Vec::new();
    for item in code_items(source) {
        walk(item.to_token_stream(), names, &mut out);
    }
    out.into_iter().map(|lit| (file.to_owned(), lit)).collect()
}

/// An operation's path, its name in a batch, its price and pool are
/// written in `src/operations.rs` alone: a route, a batch op or a check
/// that names one by its literal anywhere else fails here.
#[test]
fn operations_are_named_in_one_place() {
    let names = operation_literals();
    assert!(
        names.contains(&"\"/ai-move\"".to_owned()) && names.len() >= 20,
        "the table did not read: {names:?}"
    );
    let mut found = Vec::new();
    for (file, source) in sources() {
        if file != "operations.rs" {
            found.extend(literals_named(&file, &source, &names));
        }
    }
    assert!(
        found.is_empty(),
        "operations named outside src/operations.rs: {found:?}"
    );
}

#[test]
fn an_operation_named_elsewhere_is_found() {
    let names = vec!["\"ai-move\"".to_owned(), "\"/ai-move\"".to_owned()];
    let source = r#"
        #[utoipa::path(post, path = "/ai-move")]
        fn handler() { match op { "ai-move" => 1, _ => json!({"op": "ai-move"}) } }
        #[cfg(test)]
        mod tests { fn t() { let _ = "ai-move"; } }
    "#;
    let found = literals_named("api/extra.rs", source, &names);
    let literals: Vec<&str> = found.iter().map(|(_, lit)| lit.as_str()).collect();
    assert_eq!(literals, ["\"/ai-move\"", "\"ai-move\""]);
}

/// The layers of docs/ARCHITECTURE.md's diagram, highest first: each a
/// list of module prefixes (the longest prefix decides a module's layer).
const LAYERS: &[(&str, &[&str])] = &[
    ("the app", &["api", "server", "config"]),
    // The corpora are written in each game's notation, which a JSON
    // game's face holds.
    ("the corpora", &["conformance"]),
    (
        "registration and the document",
        &[
            "api::openapi",
            "api::meta",
            "api::openapi::fixups",
            "api::openapi::directions",
            "api::openapi::refs",
            "api::catalogue",
        ],
    ),
    (
        "a game's face",
        &[
            "api::tank_battle",
            "api::tank_war",
            "api::cobi_tank_wars",
            "api::nim",
            "api::json_state",
        ],
    ),
    ("the route macro", &["api::game_routes"]),
    ("the flows", &["api::flows", "api::services", "api::game"]),
    (
        "the vocabulary of routes",
        &[
            "api::openapi::resource",
            "api::openapi::responses",
            "api::openapi::notation",
        ],
    ),
    ("transport", &["api::transport", "api::middleware"]),
    (
        "shared pieces",
        &[
            "operations",
            "error",
            "limits",
            "slots",
            "memory",
            "cache",
            "fair_use",
            "redis",
            "metrics",
            "logs",
            "access_log",
            "render",
            "i18n",
            "text",
        ],
    ),
    ("engines", &["games"]),
];

/// The layer of `module` (its index in [`LAYERS`], 0 the highest), by
/// its longest listed prefix; `None` for the crate's root.
fn layer_of(module: &[String]) -> Option<usize> {
    let path = module.join("::");
    LAYERS
        .iter()
        .enumerate()
        .flat_map(|(i, (_, prefixes))| prefixes.iter().map(move |p| (i, *p)))
        .filter(|(_, prefix)| path == *prefix || path.starts_with(&format!("{prefix}::")))
        .max_by_key(|(_, prefix)| prefix.len())
        .map(|(i, _)| i)
}

/// The one use up the layers the diagram allows: Nim, the proof game
/// served in tests only, builds its own catalogue entry (`GameEntry`) where
/// a served game is listed in `SERVED`, which names the faces.
const ALLOWED_UP: &[(&str, &str)] = &[("api::nim", "api::catalogue")];

/// Which uses go up the diagram in `graph`.
fn upward_uses(graph: &Graph) -> Vec<String> {
    let mut found = Vec::new();
    for (module, targets) in &graph.uses {
        let Some(from) = layer_of(module) else {
            continue;
        };
        for target in targets {
            let allowed = ALLOWED_UP.contains(&(name(module).as_str(), name(target).as_str()));
            if let Some(to) = layer_of(target).filter(|to| *to < from && !allowed) {
                found.push(format!(
                    "{} ({}) uses {} ({})",
                    name(module),
                    LAYERS[from].0,
                    name(target),
                    LAYERS[to].0
                ));
            }
        }
    }
    found
}

/// The layers' names, highest first, as a diagram draws them: a name
/// stands left of the column of `│`s, and may go on over a second line.
fn drawn_layers(diagram: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut continued = false;
    for line in diagram.lines() {
        let left: String = line.chars().take(18).collect();
        let left = left.trim();
        match left {
            "" | "│" => continued = false,
            name if continued => {
                if let Some(last) = names.last_mut() {
                    last.push(' ');
                    last.push_str(name);
                }
            }
            name => {
                names.push(name.to_owned());
                continued = true;
            }
        }
    }
    names
}

/// docs/ARCHITECTURE.md's diagram is the layers this test holds, in their
/// order.
#[test]
fn the_map_draws_the_layers_the_test_holds() {
    let map =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ARCHITECTURE.md"))
            .unwrap();
    let diagram = map.split("```\n").nth(1).expect("the map has its diagram");
    let held: Vec<&str> = LAYERS.iter().map(|(name, _)| *name).collect();
    assert_eq!(drawn_layers(diagram), held);
    // The reader joins a name over two lines and tells layers apart.
    let drawn = " one              a\n two three        b\n   │\n four             c\n";
    assert_eq!(drawn_layers(drawn), ["one two three", "four"]);
}

/// The layer order of the diagram: no module uses one of a higher layer.
#[test]
fn no_layer_uses_a_higher_one() {
    let graph = graph();
    for module in graph.uses.keys().filter(|m| !m.is_empty()) {
        assert!(
            layer_of(module).is_some(),
            "{} is in no layer",
            name(module)
        );
    }
    let found = upward_uses(&graph);
    assert!(
        found.is_empty(),
        "uses up the layers:\n{}",
        found.join("\n")
    );
}

/// The check can fail: an engine using the HTTP layer is found.
#[test]
fn a_use_up_the_layers_is_found() {
    let engine: Module = vec!["games".into(), "level".into()];
    let flows: Module = vec!["api".into(), "flows".into(), "ai".into()];
    let graph = Graph {
        uses: [
            (engine, [flows.clone()].into()),
            (flows, [vec!["games".into()]].into()),
        ]
        .into(),
        externs: Default::default(),
    };
    let found = upward_uses(&graph);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with("games::level (engines) uses api::flows::ai (the flows)"));
}

/// No layer around the routes parses an answer's body: each answer has one
/// writer (issue 51). The middleware and the transport's layers name no
/// JSON reader (`serde_json::from_…`) and map no body (`map_body`).
#[test]
fn no_middleware_parses_an_answer() {
    let readers = ["serde_json :: from_", "map_body", "Problem :: deserialize"];
    let mut found = Vec::new();
    for (file, source) in sources() {
        let around = file.starts_with("api/middleware/")
            || (file.starts_with("api/transport/") && file != "api/transport/json.rs");
        if !around {
            continue;
        }
        let code: String = code_items(&source)
            .iter()
            .map(|item| quote::ToTokens::to_token_stream(item).to_string())
            .collect();
        for reader in readers {
            if code.contains(reader) {
                found.push(format!("{file}: {reader}"));
            }
        }
    }
    assert!(found.is_empty(), "answers read back:\n{}", found.join("\n"));
}

/// What a request is (its id, its language, its route) travels with it,
/// in its extensions or as an extractor, never in a thread's state: the
/// HTTP layer's code declares no thread-local (its tests may).
#[test]
fn the_http_layer_keeps_no_request_in_a_thread() {
    use quote::ToTokens;
    let mut found = Vec::new();
    for (file, source) in sources() {
        if !file.starts_with("api/") {
            continue;
        }
        let code: String = code_items(&source)
            .iter()
            .map(|item| item.to_token_stream().to_string())
            .collect();
        if thread_locals(&code) > 0 {
            found.push(file);
        }
    }
    assert!(
        found.is_empty(),
        "thread-locals in the HTTP layer: {found:?}"
    );
}

/// How many `thread_local!` declarations `code` (as tokens) holds.
fn thread_locals(code: &str) -> usize {
    let code: String = code.split_whitespace().collect();
    code.matches("thread_local!").count()
}

#[test]
fn a_thread_local_is_found() {
    use quote::ToTokens;
    let source = "thread_local! { static X: u8 = 0; } #[cfg(test)] mod tests { thread_local! { static Y: u8 = 0; } }";
    let code: String = code_items(source)
        .iter()
        .map(|item| item.to_token_stream().to_string())
        .collect();
    assert_eq!(thread_locals(&code), 1);
}
