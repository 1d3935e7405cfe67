//! docs/ARCHITECTURE.md stays true where it can be checked: every path it
//! names exists, and every test its table of invariants names is a test
//! function of the project (a renamed or removed test would leave an
//! invariant without its keeper). Its diagram is checked against the
//! layering test's `LAYERS` (`architecture::the_map_draws_the_layers_the_test_holds`).
//!
//! A path is a backticked text from the repository root that starts with
//! `src/`, `engines/`, `tests/`, `board/`, `scripts/` or `docs/`, without
//! placeholders (`<game>`) or alternatives (`{a,b}`). A test is a
//! backticked `module::name` (or `module::tests::name`) in the
//! invariants' table.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn map() -> String {
    std::fs::read_to_string(root().join("docs/ARCHITECTURE.md")).unwrap()
}

/// The backticked texts of `text`.
fn backticked(text: &str) -> Vec<&str> {
    text.split('`').skip(1).step_by(2).collect()
}

/// The paths `doc` names that do not exist (`exists` says which do).
fn missing_paths(doc: &str, exists: &dyn Fn(&str) -> bool) -> Vec<String> {
    const ROOTS: [&str; 6] = ["src/", "engines/", "tests/", "board/", "scripts/", "docs/"];
    backticked(doc)
        .into_iter()
        .filter(|t| ROOTS.iter().any(|r| t.starts_with(r)))
        .filter(|t| !t.contains(['<', '{', '*', ' ', '…']))
        .filter(|t| !exists(t))
        .map(str::to_owned)
        .collect()
}

/// The tests the invariants' table names: `(module path, function)`.
fn named_tests(doc: &str) -> Vec<(String, String)> {
    let table = doc
        .split("## Invariants and their tests")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .expect("the map has its invariants");
    table
        .lines()
        .filter(|l| l.starts_with("| "))
        .flat_map(|l| backticked(l.rsplit('|').nth(1).unwrap_or_default()))
        .filter_map(|t| {
            let (module, name) = t.rsplit_once("::")?;
            Some((module.to_owned(), name.to_owned()))
        })
        .collect()
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// Whether `source` has a test function `name`: its `fn` under a test
/// attribute.
fn is_a_test(source: &str, name: &str) -> bool {
    let lines: Vec<&str> = source.lines().map(str::trim).collect();
    lines.iter().enumerate().any(|(at, line)| {
        let declares = line.contains(&format!("fn {name}(")) && line.contains("fn ");
        declares
            && lines[..at]
                .iter()
                .rev()
                .take_while(|l| l.starts_with("#[") || l.starts_with("///"))
                .any(|l| l.starts_with("#[") && l.contains("test]"))
    })
}

#[test]
fn the_map_names_only_paths_and_tests_that_exist() {
    let doc = map();
    let missing = missing_paths(&doc, &|path| root().join(path).exists());
    assert!(
        missing.is_empty(),
        "named in docs/ARCHITECTURE.md but not there:\n{}",
        missing.join("\n")
    );
    let tests = named_tests(&doc);
    assert!(tests.len() >= 15, "only {} tests read", tests.len());
    let mut files = Vec::new();
    rust_files(&root().join("src"), &mut files);
    rust_files(&root().join("tests"), &mut files);
    let sources: Vec<(PathBuf, String)> = files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).unwrap();
            (f, text)
        })
        .collect();
    for (module, name) in tests {
        // The module's last named segment (`http_error` of
        // `http_error::tests`) is the file the test is in.
        let file = module
            .split("::")
            .filter(|m| *m != "tests")
            .last()
            .unwrap_or_default()
            .to_owned();
        let found = sources.iter().any(|(path, text)| {
            let stem = path.file_stem().unwrap_or_default().to_string_lossy();
            let in_its_file = stem == file.as_str()
                || (stem == "mod"
                    && path.parent().and_then(Path::file_name) == Some(file.as_ref()));
            in_its_file && is_a_test(text, &name)
        });
        assert!(
            found,
            "docs/ARCHITECTURE.md names {module}::{name}: no such test"
        );
    }
}

#[test]
fn the_map_check_finds_a_missing_path_and_reads_the_table() {
    let doc = "See `src/a.rs`, `src/<game>/b.rs` and `src/gone.rs`.\n\n\
               ## Invariants and their tests\n\n| a | b |\n|---|---|\n\
               | one `x::y` | `layers::one`, `http_error::tests::two` |\n\n## Next\n| `z::w` |\n";
    let missing = missing_paths(doc, &|path| path == "src/a.rs");
    assert_eq!(missing, ["src/gone.rs"]);
    let source = "#[test]\nfn checked() {}\n/// Not a test.\nfn helper() {}\n";
    assert!(is_a_test(source, "checked"));
    assert!(!is_a_test(source, "helper"));
    let tests = named_tests(doc);
    assert_eq!(
        tests,
        [
            ("layers".to_owned(), "one".to_owned()),
            ("http_error::tests".to_owned(), "two".to_owned())
        ]
    );
}
