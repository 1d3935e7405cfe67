//! The module graph of `src/` (the library crate), read with `syn`: each
//! module (a file, or an inline `mod` that is not `#[cfg(test)]`) and the
//! modules it refers to — by `use` trees (grouped ones included), by the
//! paths in its code, and by `crate::`/`super::` paths in the token
//! streams of macros it defines or calls. What `tests/it/architecture.rs`
//! checks the layering and the absence of import circles on.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use proc_macro2::{TokenStream, TokenTree};
use syn::visit::Visit;

/// A module's path below the crate root (`["api", "flows", "ai"]`).
pub type Module = Vec<String>;

/// The modules of a crate and what each refers to.
#[derive(Debug, Default)]
pub struct Graph {
    /// Each module and the modules it uses (itself left out).
    pub uses: BTreeMap<Module, BTreeSet<Module>>,
    /// The external crates each module names (`actix_web`, `utoipa`, …).
    pub externs: BTreeMap<Module, BTreeSet<String>>,
}

impl Graph {
    /// The library crate under `src` (its binary, `main.rs`, is a crate
    /// of its own and left out).
    pub fn of_crate(src: &Path) -> Graph {
        let mut files = Vec::new();
        collect(src, src, &mut files);
        Graph::of_files(&files)
    }

    /// The graph of `files`: each a module path and its source text.
    pub fn of_files(files: &[(Module, String)]) -> Graph {
        let mut modules: Vec<(Module, Vec<syn::Item>)> = Vec::new();
        for (module, text) in files {
            let file =
                syn::parse_file(text).unwrap_or_else(|e| panic!("{}: {e}", module.join("::")));
            inline_modules(module.clone(), file.items, &mut modules);
        }
        let known: BTreeSet<Module> = modules.iter().map(|(m, _)| m.clone()).collect();
        let scopes: BTreeMap<Module, Scope> = modules
            .iter()
            .map(|(m, items)| (m.clone(), Scope::of(items)))
            .collect();
        let crate_ = Crate {
            known: &known,
            scopes: &scopes,
        };
        let mut graph = Graph::default();
        for (module, items) in &modules {
            let mut refs = References::default();
            for item in items {
                if !matches!(item, syn::Item::Mod(_)) {
                    refs.visit_item(item);
                }
            }
            let mut uses = BTreeSet::new();
            let mut externs = BTreeSet::new();
            for path in &refs.paths {
                match crate_.resolve(module, path, 0) {
                    Resolved::Module(target) if target != *module => {
                        uses.insert(target);
                    }
                    Resolved::Extern(name) => {
                        externs.insert(name);
                    }
                    _ => {}
                }
            }
            graph.uses.insert(module.clone(), uses);
            graph.externs.insert(module.clone(), externs);
        }
        graph
    }

    /// The import circles: each strongly connected set of two or more
    /// modules (Tarjan's algorithm).
    pub fn cycles(&self) -> Vec<Vec<Module>> {
        let nodes: Vec<&Module> = self.uses.keys().collect();
        let index_of: BTreeMap<&Module, usize> =
            nodes.iter().enumerate().map(|(i, m)| (*m, i)).collect();
        let edges: Vec<Vec<usize>> = nodes
            .iter()
            .map(|m| {
                self.uses[*m]
                    .iter()
                    .filter_map(|t| index_of.get(t).copied())
                    .collect()
            })
            .collect();
        let mut tarjan = Tarjan {
            edges: &edges,
            index: vec![None; nodes.len()],
            low: vec![0; nodes.len()],
            stack: Vec::new(),
            on_stack: vec![false; nodes.len()],
            next: 0,
            found: Vec::new(),
        };
        for v in 0..nodes.len() {
            if tarjan.index[v].is_none() {
                tarjan.connect(v);
            }
        }
        tarjan
            .found
            .into_iter()
            .map(|set| {
                let mut set: Vec<Module> = set.into_iter().map(|i| nodes[i].clone()).collect();
                set.sort();
                set
            })
            .collect()
    }
}

/// The `.rs` files of the library under `dir`, as module paths.
fn collect(src: &Path, dir: &Path, files: &mut Vec<(Module, String)>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        let relative = path.strip_prefix(src).unwrap();
        if relative == Path::new("main.rs") || relative.starts_with("bin") {
            continue;
        }
        if path.is_dir() {
            collect(src, &path, files);
        } else if path.extension().is_some_and(|e| e == "rs") && !is_test_file(&path) {
            let mut module: Module = relative
                .with_extension("")
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                module.pop();
            }
            files.push((module, std::fs::read_to_string(&path).unwrap()));
        }
    }
}

/// `module`'s items, and each inline `mod` among them (not those under
/// `#[cfg(test)]`) as a module of its own.
fn inline_modules(module: Module, items: Vec<syn::Item>, out: &mut Vec<(Module, Vec<syn::Item>)>) {
    let mut own = Vec::new();
    for item in items {
        match item {
            syn::Item::Mod(m) if is_test(&m.attrs) => {}
            syn::Item::Mod(syn::ItemMod {
                ident,
                content: Some((_, inner)),
                ..
            }) => {
                let mut child = module.clone();
                child.push(ident.to_string());
                inline_modules(child, inner, out);
            }
            other => own.push(other),
        }
    }
    out.push((module, own));
}

/// Whether `path` is a file of tests only (`tests.rs`, `*_tests.rs`: a
/// `#[cfg(test)]` module kept in a file of its own), which the checks of
/// the production code's structure pass over, as they pass over inline
/// test modules.
pub fn is_test_file(path: &Path) -> bool {
    path.file_stem()
        .and_then(|stem| stem.to_str())
        .is_some_and(|stem| stem == "tests" || stem.ends_with("_tests"))
}

pub fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && matches!(&a.meta, syn::Meta::List(list) if list.tokens.to_string().contains("test"))
    })
}

/// Every path a module's items name: `use` trees flattened, the paths in
/// its code, and `crate::…`/`super::…` in macros' tokens.
#[derive(Default)]
struct References {
    paths: Vec<Vec<String>>,
}

impl<'ast> Visit<'ast> for References {
    fn visit_item_use(&mut self, item: &'ast syn::ItemUse) {
        flatten(&item.tree, Vec::new(), &mut self.paths);
    }

    fn visit_path(&mut self, path: &'ast syn::Path) {
        let segments: Vec<String> = path.segments.iter().map(|s| s.ident.to_string()).collect();
        if segments.len() > 1 || path.leading_colon.is_some() {
            self.paths.push(segments);
        }
        syn::visit::visit_path(self, path);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        tokens(mac.tokens.clone(), &mut self.paths);
        syn::visit::visit_macro(self, mac);
    }

    fn visit_item_mod(&mut self, _: &'ast syn::ItemMod) {
        // Nested modules are modules of their own.
    }
}

/// A `use` tree's paths.
fn flatten(tree: &syn::UseTree, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let with = |name: String| {
        let mut path = prefix.clone();
        path.push(name);
        path
    };
    match tree {
        syn::UseTree::Path(p) => flatten(&p.tree, with(p.ident.to_string()), out),
        syn::UseTree::Name(n) if n.ident == "self" => out.push(prefix.clone()),
        syn::UseTree::Name(n) => out.push(with(n.ident.to_string())),
        syn::UseTree::Rename(r) => out.push(with(r.ident.to_string())),
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for item in &g.items {
                flatten(item, prefix.clone(), out);
            }
        }
    }
}

/// The `crate::a::b`, `super::a` and `self::a` paths in a token stream
/// (a macro's body or arguments).
fn tokens(stream: TokenStream, out: &mut Vec<Vec<String>>) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut i = 0;
    while i < trees.len() {
        match &trees[i] {
            TokenTree::Group(g) => tokens(g.stream(), out),
            TokenTree::Ident(id)
                if ["crate", "super", "self"].contains(&id.to_string().as_str()) =>
            {
                let mut path = vec![id.to_string()];
                let mut j = i + 1;
                while let (
                    Some(TokenTree::Punct(a)),
                    Some(TokenTree::Punct(b)),
                    Some(TokenTree::Ident(next)),
                ) = (trees.get(j), trees.get(j + 1), trees.get(j + 2))
                {
                    if a.as_char() != ':' || b.as_char() != ':' {
                        break;
                    }
                    path.push(next.to_string());
                    j += 3;
                }
                if path.len() > 1 {
                    out.push(path);
                }
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
}

enum Resolved {
    Module(Module),
    Extern(String),
    Item,
}

/// What a module's items define and import, to follow a path through
/// re-exports (`pub use position::Position` in a parent) to the module
/// that defines what it names.
#[derive(Default)]
struct Scope {
    /// Names its items define.
    defined: BTreeSet<String>,
    /// Names its `use` declarations bring in, with the path each names.
    bindings: BTreeMap<String, Vec<String>>,
    /// Its glob imports' paths.
    globs: Vec<Vec<String>>,
}

impl Scope {
    fn of(items: &[syn::Item]) -> Scope {
        let mut scope = Scope::default();
        for item in items {
            let ident = match item {
                syn::Item::Const(i) => Some(&i.ident),
                syn::Item::Enum(i) => Some(&i.ident),
                syn::Item::Fn(i) => Some(&i.sig.ident),
                syn::Item::Static(i) => Some(&i.ident),
                syn::Item::Struct(i) => Some(&i.ident),
                syn::Item::Trait(i) => Some(&i.ident),
                syn::Item::Type(i) => Some(&i.ident),
                syn::Item::Union(i) => Some(&i.ident),
                syn::Item::Macro(i) => i.ident.as_ref(),
                syn::Item::Use(u) => {
                    scope.bind(&u.tree, Vec::new());
                    None
                }
                _ => None,
            };
            if let Some(ident) = ident {
                scope.defined.insert(ident.to_string());
            }
        }
        scope
    }

    fn bind(&mut self, tree: &syn::UseTree, prefix: Vec<String>) {
        let with = |name: String| {
            let mut path = prefix.clone();
            path.push(name);
            path
        };
        match tree {
            syn::UseTree::Path(p) => self.bind(&p.tree, with(p.ident.to_string())),
            syn::UseTree::Name(n) if n.ident == "self" => {
                if let Some(last) = prefix.last() {
                    self.bindings.insert(last.clone(), prefix.clone());
                }
            }
            syn::UseTree::Name(n) => {
                self.bindings
                    .insert(n.ident.to_string(), with(n.ident.to_string()));
            }
            syn::UseTree::Rename(r) => {
                self.bindings
                    .insert(r.rename.to_string(), with(r.ident.to_string()));
            }
            syn::UseTree::Glob(_) => self.globs.push(prefix.clone()),
            syn::UseTree::Group(g) => {
                for item in &g.items {
                    self.bind(item, prefix.clone());
                }
            }
        }
    }
}

/// The crate's modules and their scopes.
struct Crate<'a> {
    known: &'a BTreeSet<Module>,
    scopes: &'a BTreeMap<Module, Scope>,
}

impl Crate<'_> {
    /// What a path in `module` refers to: the module that defines what it
    /// names (followed through re-exports), an external crate, or an item
    /// in scope.
    fn resolve(&self, module: &Module, path: &[String], depth: usize) -> Resolved {
        let Some(first) = path.first() else {
            return Resolved::Item;
        };
        let is_child = |name: &str| {
            let mut child = module.clone();
            child.push(name.to_owned());
            self.known.contains(&child)
        };
        let (mut at, rest): (Module, &[String]) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (module.clone(), &path[1..]),
            "super" => {
                let mut at = module.clone();
                let mut rest = path;
                while rest.first().is_some_and(|s| s == "super") {
                    at.pop();
                    rest = &rest[1..];
                }
                (at, rest)
            }
            name if is_child(name) => (module.clone(), path),
            name if name.chars().next().is_some_and(char::is_lowercase) && path.len() > 1 => {
                if depth > 0 {
                    // A binding's path inside the crate, written without
                    // `crate::` (edition 2015 style): not used here.
                    return Resolved::Item;
                }
                return Resolved::Extern(name.to_owned());
            }
            _ => return Resolved::Item,
        };
        let mut rest = rest;
        while let Some(segment) = rest.first() {
            let mut next = at.clone();
            next.push(segment.clone());
            if !self.known.contains(&next) {
                break;
            }
            at = next;
            rest = &rest[1..];
        }
        // `at` holds `rest[0]` (an item), unless it only re-exports it.
        if let (Some(item), Some(scope)) = (rest.first(), self.scopes.get(&at)) {
            if depth < 8 && !scope.defined.contains(item) {
                if let Some(binding) = scope.bindings.get(item) {
                    let mut through = binding.clone();
                    through.extend(rest[1..].iter().cloned());
                    if let Resolved::Module(m) = self.resolve(&at, &through, depth + 1) {
                        return Resolved::Module(m);
                    }
                }
                for glob in &scope.globs {
                    if let Resolved::Module(from) = self.resolve(&at, glob, depth + 1) {
                        let holds = self.scopes.get(&from).is_some_and(|s| {
                            s.defined.contains(item) || s.bindings.contains_key(item)
                        });
                        if holds && from != at {
                            let mut through = glob.clone();
                            through.extend(rest.iter().cloned());
                            if let Resolved::Module(m) = self.resolve(&at, &through, depth + 1) {
                                return Resolved::Module(m);
                            }
                        }
                    }
                }
            }
        }
        Resolved::Module(at)
    }
}

struct Tarjan<'a> {
    edges: &'a [Vec<usize>],
    index: Vec<Option<usize>>,
    low: Vec<usize>,
    stack: Vec<usize>,
    on_stack: Vec<bool>,
    next: usize,
    found: Vec<Vec<usize>>,
}

impl Tarjan<'_> {
    fn connect(&mut self, v: usize) {
        self.index[v] = Some(self.next);
        self.low[v] = self.next;
        self.next += 1;
        self.stack.push(v);
        self.on_stack[v] = true;
        for &w in &self.edges[v] {
            match self.index[w] {
                None => {
                    self.connect(w);
                    self.low[v] = self.low[v].min(self.low[w]);
                }
                Some(iw) if self.on_stack[w] => self.low[v] = self.low[v].min(iw),
                Some(_) => {}
            }
        }
        if Some(self.low[v]) == self.index[v] {
            let mut set = Vec::new();
            while let Some(w) = self.stack.pop() {
                self.on_stack[w] = false;
                set.push(w);
                if w == v {
                    break;
                }
            }
            if set.len() > 1 {
                self.found.push(set);
            }
        }
    }
}
