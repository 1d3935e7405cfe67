//! The layering docs/ARCHITECTURE.md claims, checked on the module graph
//! of `src/` as `syn` reads it ([`crate::modules`]): no import circle
//! anywhere; the engines (`games`) and the shared pieces below the HTTP
//! layer (cache, limits, metrics, error, render, fair use, the Redis link,
//! the access log) use nothing of the HTTP layer (`api`), the server or
//! the command line; the engines and the pictures name no HTTP or OpenAPI
//! library.

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
fn the_engines_and_pictures_know_nothing_of_http() {
    let graph = graph();
    let mut found = Vec::new();
    for module in under(&graph, &["games", "render"]) {
        for krate in &graph.externs[module] {
            if krate.starts_with("actix") || krate.starts_with("utoipa") {
                found.push(format!("{} names {krate}", name(module)));
            }
        }
    }
    assert!(found.is_empty(), "HTTP in an engine:\n{}", found.join("\n"));
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
