//! Every example of README.md and of docs/, run against the service and
//! compared with the answer the document shows (docs/DEVELOPMENT.md, "How
//! the examples are checked"); and the options of docs/OPTIONS.md against
//! the command line's.
//!
//! The documents' shell blocks (```` ```sh ````) are read as a small subset
//! of the shell: assignments `NAME='…'`, `NAME="…"` and `NAME=$(curl …)`,
//! and `curl` commands, with quotes, `$NAME`, `${NAME}`, comments and line
//! continuations read as the shell reads them. Each block starts with no
//! variables, so a variable used before the block sets it fails the test
//! (a block runs on its own). Every `curl` is an example: translated into
//! the request curl would send (method, path and query, headers, body;
//! `-d` without a content type is a form, as with curl), it is run in the
//! documents' order against one in-process app with the default limits. The
//! comment lines right after it are the answer it shows:
//!
//! - JSON (one document, or several for NDJSON, one a line), in which
//!   `...` stands for anything: as a value, any value; as an array
//!   element, any number of elements; as an object member, any other
//!   members; inside a string, any characters. Everything else compares
//!   exactly (numbers by value), and an object shown without `...` has
//!   exactly the members shown.
//! - Masked whatever value is shown, as machine- or history-dependent:
//!   [`MASKED`] (`time_ms`, a duration; `instance`, the request's id;
//!   `cached`, whether an earlier request asked the same).
//! - A first line `(status NNN)`: the status expected (else 200).
//! - A first line `(varies: why)`: an answer that depends on the machine
//!   (a search under a time limit): the status is checked and every
//!   member shown must be there, but no value is compared.
//! - Not JSON: the lines shown, `...` standing for any characters.
//! - With `-o FILE` the answer is a file: status 200 and the content type
//!   of the file's extension; the comment may be left out.
//!
//! A `curl` that shows no answer fails the test, and so does one the
//! reader missed: the examples run are counted against every `curl` in
//! the documents' shell blocks, and a `curl` in a block of another language
//! fails. `README_SHOW=1 cargo test --test it readme -- --nocapture`
//! prints every answer, to write a new example from, and goes on past an
//! answer that differs (each is reported, and the test fails at the end).

use std::collections::BTreeMap;

use actix_web::body::MessageBody;
use actix_web::dev::{Service, ServiceResponse};
use actix_web::http::Method;
use actix_web::test::TestRequest;
use serde_json::Value;
use tank_rules::limits::Limits;

use crate::common::{app_with, encode, send, Reply};

/// Members compared with anything, whatever the document shows.
const MASKED: [&str; 3] = ["time_ms", "instance", "cached"];

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The documents whose examples run: the README, then `docs/` by name.
fn documents() -> Vec<String> {
    let dir = format!("{}/docs", env!("CARGO_MANIFEST_DIR"));
    let mut docs: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    docs.insert(0, "README.md".to_owned());
    docs
}

// ---------------------------------------------------------------- blocks

/// A fenced code block: its language, the line after its fence (1-based)
/// and its text.
struct Block {
    lang: String,
    line: usize,
    text: String,
}

fn blocks(markdown: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in markdown.lines().enumerate() {
        let fence = line.trim_start().starts_with("```");
        match &mut open {
            None if fence => {
                open = Some(Block {
                    lang: line.trim_start().trim_start_matches('`').trim().to_owned(),
                    line: i + 2,
                    text: String::new(),
                });
            }
            Some(_) if fence => found.extend(open.take()),
            Some(block) => {
                block.text.push_str(line);
                block.text.push('\n');
            }
            None => {}
        }
    }
    assert!(open.is_none(), "a code block is never closed");
    found
}

// ----------------------------------------------------------------- shell

/// A piece of a shell word.
#[derive(Clone, Debug)]
enum Piece {
    Text(String),
    Var(String),
    /// `$(…)`: the command's text.
    Command(String),
}

type Word = Vec<Piece>;

/// What a shell block holds, line by line.
#[derive(Debug)]
enum Item {
    /// A command's words, and the line it starts on.
    Command(Vec<Word>, usize),
    /// A line that is only a comment: its text after `#` and one space.
    Comment(String),
    Blank,
}

/// Reads `text` as the shell would, into commands and comment lines.
fn shell(text: &str, first_line: usize) -> Vec<Item> {
    let chars: Vec<char> = text.chars().collect();
    let mut items = Vec::new();
    let mut words: Vec<Word> = Vec::new();
    let mut word: Word = Vec::new();
    let mut in_word = false;
    let mut line = first_line;
    let mut start = first_line;
    let mut i = 0;
    let push_text = |word: &mut Word, c: char| match word.last_mut() {
        Some(Piece::Text(t)) => t.push(c),
        _ => word.push(Piece::Text(c.to_string())),
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\n' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                if words.is_empty() {
                    items.push(Item::Blank);
                } else {
                    items.push(Item::Command(std::mem::take(&mut words), start));
                }
                line += 1;
                i += 1;
            }
            ' ' | '\t' => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
                i += 1;
            }
            '#' if !in_word => {
                let end = chars[i..]
                    .iter()
                    .position(|&c| c == '\n')
                    .map_or(chars.len(), |p| i + p);
                if words.is_empty() {
                    let comment: String = chars[i + 1..end].iter().collect();
                    let comment = comment.strip_prefix(' ').unwrap_or(&comment);
                    items.push(Item::Comment(comment.trim_end().to_owned()));
                    line += 1;
                    i = end + 1;
                } else {
                    i = end;
                }
            }
            '\\' if chars.get(i + 1) == Some(&'\n') => {
                line += 1;
                i += 2;
            }
            '\\' => {
                if let Some(&next) = chars.get(i + 1) {
                    if !in_word && words.is_empty() {
                        start = line;
                    }
                    push_text(&mut word, next);
                    in_word = true;
                }
                i += 2;
            }
            '\'' => {
                if !in_word && words.is_empty() {
                    start = line;
                }
                in_word = true;
                let end = chars[i + 1..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map(|p| i + 1 + p)
                    .unwrap_or_else(|| panic!("line {line}: a ' is never closed"));
                let quoted: String = chars[i + 1..end].iter().collect();
                line += quoted.matches('\n').count();
                word.push(Piece::Text(quoted));
                i = end + 1;
            }
            '"' => {
                if !in_word && words.is_empty() {
                    start = line;
                }
                in_word = true;
                i += 1;
                loop {
                    let Some(&c) = chars.get(i) else {
                        panic!("line {line}: a \" is never closed");
                    };
                    match c {
                        '"' => {
                            i += 1;
                            break;
                        }
                        '\\' => {
                            match chars.get(i + 1) {
                                Some('\n') => line += 1,
                                Some(&e @ ('"' | '\\' | '$' | '`')) => push_text(&mut word, e),
                                Some(&e) => {
                                    push_text(&mut word, '\\');
                                    push_text(&mut word, e);
                                }
                                None => {}
                            }
                            i += 2;
                        }
                        '$' => i = dollar(&chars, i, &mut word),
                        c => {
                            if c == '\n' {
                                line += 1;
                            }
                            push_text(&mut word, c);
                            i += 1;
                        }
                    }
                }
            }
            '$' => {
                if !in_word && words.is_empty() {
                    start = line;
                }
                in_word = true;
                i = dollar(&chars, i, &mut word);
            }
            c => {
                if !in_word && words.is_empty() {
                    start = line;
                }
                in_word = true;
                push_text(&mut word, c);
                i += 1;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    if !words.is_empty() {
        items.push(Item::Command(words, start));
    }
    items
}

/// Reads the `$…` at `chars[i]` into `word`; the index after it.
fn dollar(chars: &[char], i: usize, word: &mut Word) -> usize {
    let ident = |c: &char| c.is_ascii_alphanumeric() || *c == '_';
    match chars.get(i + 1) {
        Some('{') => {
            let end = chars[i..].iter().position(|&c| c == '}').unwrap() + i;
            word.push(Piece::Var(chars[i + 2..end].iter().collect()));
            end + 1
        }
        Some('(') => {
            let mut depth = 0;
            let mut j = i + 1;
            loop {
                match chars.get(j) {
                    Some('(') => depth += 1,
                    Some(')') => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    Some(_) => {}
                    None => panic!("a $( is never closed"),
                }
                j += 1;
            }
            word.push(Piece::Command(chars[i + 2..j].iter().collect()));
            j + 1
        }
        Some(c) if ident(c) && !c.is_ascii_digit() => {
            let len = chars[i + 1..].iter().take_while(|c| ident(c)).count();
            word.push(Piece::Var(chars[i + 1..i + 1 + len].iter().collect()));
            i + 1 + len
        }
        _ => {
            match word.last_mut() {
                Some(Piece::Text(t)) => t.push('$'),
                _ => word.push(Piece::Text("$".into())),
            }
            i + 1
        }
    }
}

/// The word's text with its variables' values; `Err` names a variable
/// that is not set, or a `$(…)` where this reader cannot run one.
fn expand(word: &Word, vars: &BTreeMap<String, String>) -> Result<String, String> {
    let mut out = String::new();
    for piece in word {
        match piece {
            Piece::Text(t) => out.push_str(t),
            Piece::Var(name) => out.push_str(
                vars.get(name)
                    .ok_or_else(|| format!("${name} is used but not set in this block"))?,
            ),
            Piece::Command(c) => return Err(format!("$({c}) outside an assignment")),
        }
    }
    Ok(out)
}

/// `NAME=` at the start of a word: the name and the pieces of its value.
fn assignment(word: &Word) -> Option<(String, Word)> {
    let Some(Piece::Text(first)) = word.first() else {
        return None;
    };
    let (name, rest) = first.split_once('=')?;
    let valid = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if !valid {
        return None;
    }
    let mut value = vec![Piece::Text(rest.to_owned())];
    value.extend(word[1..].iter().cloned());
    Some((name.to_owned(), value))
}

// ------------------------------------------------------------------ curl

/// A request as curl would send it.
#[derive(Debug)]
struct Curl {
    method: Method,
    /// Path and query, the host left out.
    uri: String,
    headers: Vec<(String, String)>,
    body: Option<String>,
    /// `-o FILE`.
    output: Option<String>,
}

fn curl(args: &[String]) -> Result<Curl, String> {
    let mut method = None;
    let mut url = None;
    let mut headers = Vec::new();
    let mut data: Vec<String> = Vec::new();
    let mut get = false;
    let mut output = None;
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        let mut value = || {
            args.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs a value"))
        };
        match arg.as_str() {
            "-s" | "-S" | "-sS" | "--silent" | "--show-error" => {}
            "-X" | "--request" => method = Some(value()?),
            "-H" | "--header" => {
                let header = value()?;
                let (name, v) = header
                    .split_once(':')
                    .ok_or_else(|| format!("header {header:?} has no ':'"))?;
                headers.push((name.trim().to_owned(), v.trim().to_owned()));
            }
            "-d" | "--data" | "--data-raw" => data.push(value()?),
            "--data-urlencode" => {
                let field = value()?;
                data.push(match field.split_once('=') {
                    Some((name, v)) => format!("{name}={}", encode(v)),
                    None => encode(&field),
                });
            }
            "-G" | "--get" => get = true,
            "-o" | "--output" => output = Some(value()?),
            flag if flag.starts_with('-') => return Err(format!("curl {flag} is not read")),
            address => {
                if url.replace(address.to_owned()).is_some() {
                    return Err("two URLs".into());
                }
            }
        }
    }
    let url = url.ok_or("no URL")?;
    let rest = url
        .trim_start_matches("http://")
        .strip_prefix("localhost:8080")
        .or_else(|| {
            url.trim_start_matches("http://")
                .strip_prefix("127.0.0.1:8080")
        })
        .ok_or_else(|| format!("{url}: examples call localhost:8080"))?;
    let mut uri = if rest.is_empty() {
        "/".to_owned()
    } else {
        rest.to_owned()
    };
    let mut body = None;
    if !data.is_empty() {
        let joined = data.join("&");
        if get {
            uri.push(if uri.contains('?') { '&' } else { '?' });
            uri.push_str(&joined);
        } else {
            body = Some(joined);
        }
    }
    let has_type = headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("content-type"));
    if body.is_some() && !has_type {
        headers.push((
            "content-type".into(),
            "application/x-www-form-urlencoded".into(),
        ));
    }
    let method = match method {
        Some(m) => Method::from_bytes(m.as_bytes()).map_err(|e| e.to_string())?,
        None if body.is_some() => Method::POST,
        None => Method::GET,
    };
    Ok(Curl {
        method,
        uri,
        headers,
        body,
        output,
    })
}

async fn run<S, B>(app: &S, request: &Curl) -> Reply
where
    S: Service<actix_http::Request, Response = ServiceResponse<B>, Error = actix_web::Error>,
    B: MessageBody,
{
    let mut req = TestRequest::default()
        .method(request.method.clone())
        .uri(&request.uri);
    for (name, value) in &request.headers {
        req = req.insert_header((name.as_str(), value.as_str()));
    }
    if let Some(body) = &request.body {
        req = req.set_payload(body.clone());
    }
    send(app, req).await
}

// --------------------------------------------------------------- answers

/// What an answer shows.
#[derive(Debug)]
enum Pat {
    /// `...`: anything.
    Any,
    Null,
    Bool(bool),
    Number(f64),
    /// A string, `...` in it standing for any characters.
    Str(String),
    Array(Vec<Pat>),
    /// The members shown, and whether others may follow (`...`).
    Object(Vec<(String, Pat)>, bool),
}

struct Parser<'a> {
    text: &'a str,
    at: usize,
}

impl Parser<'_> {
    fn rest(&self) -> &str {
        &self.text[self.at..]
    }

    fn skip(&mut self) {
        let trimmed = self.rest().trim_start();
        self.at = self.text.len() - trimmed.len();
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip();
        if self.rest().starts_with(token) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn fail<T>(&self, what: &str) -> Result<T, String> {
        let near: String = self.rest().chars().take(30).collect();
        Err(format!("{what} at {near:?}"))
    }

    /// A value, or `...`.
    fn value(&mut self) -> Result<Pat, String> {
        self.skip();
        if self.eat("...") {
            return Ok(Pat::Any);
        }
        if self.eat("{") {
            let mut members = Vec::new();
            let mut open = false;
            if self.eat("}") {
                return Ok(Pat::Object(members, open));
            }
            loop {
                if self.eat("...") {
                    open = true;
                } else {
                    self.skip();
                    let Pat::Str(key) = self.string()? else {
                        unreachable!()
                    };
                    if !self.eat(":") {
                        return self.fail("expected ':'");
                    }
                    members.push((key, self.value()?));
                }
                if self.eat("}") {
                    return Ok(Pat::Object(members, open));
                }
                if !self.eat(",") {
                    return self.fail("expected ',' or '}'");
                }
            }
        }
        if self.eat("[") {
            let mut items = Vec::new();
            if self.eat("]") {
                return Ok(Pat::Array(items));
            }
            loop {
                items.push(self.value()?);
                if self.eat("]") {
                    return Ok(Pat::Array(items));
                }
                if !self.eat(",") {
                    return self.fail("expected ',' or ']'");
                }
            }
        }
        if self.rest().starts_with('"') {
            return self.string();
        }
        for (word, pat) in [
            ("true", Pat::Bool(true)),
            ("false", Pat::Bool(false)),
            ("null", Pat::Null),
        ] {
            if self.eat(word) {
                return Ok(pat);
            }
        }
        let len = self
            .rest()
            .find(|c: char| !(c.is_ascii_digit() || "+-.eE".contains(c)))
            .unwrap_or(self.rest().len());
        match self.rest()[..len].parse::<f64>() {
            Ok(n) if len > 0 => {
                self.at += len;
                Ok(Pat::Number(n))
            }
            _ => self.fail("expected a value"),
        }
    }

    fn string(&mut self) -> Result<Pat, String> {
        let bytes = self.rest().as_bytes();
        if bytes.first() != Some(&b'"') {
            return self.fail("expected a string");
        }
        let mut i = 1;
        while i < bytes.len() && bytes[i] != b'"' {
            i += if bytes[i] == b'\\' { 2 } else { 1 };
        }
        let raw = &self.rest()[..(i + 1).min(bytes.len())];
        let text: String = serde_json::from_str(raw).map_err(|e| format!("{raw}: {e}"))?;
        self.at += raw.len();
        Ok(Pat::Str(text))
    }
}

/// The answer shown: a sequence of values (`...` among them).
fn pattern(text: &str) -> Result<Vec<Pat>, String> {
    let mut parser = Parser { text, at: 0 };
    let mut values = Vec::new();
    loop {
        parser.skip();
        if parser.rest().is_empty() {
            return Ok(values);
        }
        values.push(parser.value()?);
    }
}

/// Whether `text` is `pattern`, each `...` of it standing for any
/// characters.
fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    let [first, middle @ .., last] = parts.as_slice() else {
        return pattern == text;
    };
    let Some(mut rest) = text.strip_prefix(first) else {
        return false;
    };
    for part in middle {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.len() >= last.len() && rest.ends_with(last)
}

/// How values are compared.
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    Exact,
    /// Only the members shown, and that they are there.
    Shape,
}

fn describe(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() > 120 {
        format!("{}…", text.chars().take(120).collect::<String>())
    } else {
        text
    }
}

/// `Err` says where `value` is not what `pat` shows.
fn compare(pat: &Pat, value: &Value, at: &str, mode: Mode) -> Result<(), String> {
    let differ = || {
        Err(format!(
            "at {}: shown {pat:?}, answered {}",
            if at.is_empty() { "the top" } else { at },
            describe(value)
        ))
    };
    match (pat, value) {
        (Pat::Any, _) => Ok(()),
        (Pat::Object(members, open), Value::Object(object)) => {
            for (key, inner) in members {
                let here = format!("{at}.{key}");
                let Some(found) = object.get(key) else {
                    return Err(format!("at {here}: shown, but not in the answer"));
                };
                if !MASKED.contains(&key.as_str()) {
                    compare(inner, found, &here, mode)?;
                }
            }
            if !open && mode == Mode::Exact {
                if let Some(extra) = object
                    .keys()
                    .find(|k| !members.iter().any(|(m, _)| m == *k))
                {
                    return Err(format!(
                        "at {at}.{extra}: in the answer but not shown (add `...` to leave it out)"
                    ));
                }
            }
            Ok(())
        }
        (Pat::Object(..), _) => differ(),
        (_, _) if mode == Mode::Shape => Ok(()),
        (Pat::Array(items), Value::Array(values)) => sequence(items, values, at, mode),
        (Pat::Null, Value::Null) => Ok(()),
        (Pat::Bool(b), Value::Bool(v)) if b == v => Ok(()),
        (Pat::Number(n), Value::Number(v)) if v.as_f64() == Some(*n) => Ok(()),
        (Pat::Str(s), Value::String(v)) if glob(s, v) => Ok(()),
        _ => differ(),
    }
}

/// Compares a sequence, each `...` in it standing for any number of
/// values.
fn sequence(pats: &[Pat], values: &[Value], at: &str, mode: Mode) -> Result<(), String> {
    match pats.split_first() {
        None if values.is_empty() => Ok(()),
        None => Err(format!(
            "at {at}[..]: {} more value(s) than shown, from {}",
            values.len(),
            describe(&values[0])
        )),
        Some((Pat::Any, rest)) => {
            if rest.is_empty() {
                return Ok(());
            }
            // The values after `...` aligned with the end: the likeliest
            // meaning, and the error to report when none fits.
            let fixed = rest.iter().filter(|p| !matches!(p, Pat::Any)).count();
            let aligned = values.len().saturating_sub(fixed);
            let mut error = None;
            for skip in (0..=values.len()).rev() {
                match sequence(rest, &values[skip..], at, mode) {
                    Ok(()) => return Ok(()),
                    Err(e) if skip == aligned => error = Some(e),
                    Err(e) => {
                        error.get_or_insert(e);
                    }
                }
            }
            Err(error.unwrap_or_default())
        }
        Some((first, rest)) => {
            let Some((value, others)) = values.split_first() else {
                return Err(format!("at {at}[..]: fewer values than shown"));
            };
            compare(first, value, at, mode)?;
            sequence(rest, others, at, mode)
        }
    }
}

/// The content type a file's name calls for.
fn content_type_of(file: &str) -> &'static str {
    match file.rsplit_once('.').map(|(_, ext)| ext) {
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        _ => panic!("-o {file}: no content type known for its extension"),
    }
}

/// What the test did with one example.
#[derive(Default)]
struct Counts {
    /// `curl`s run: examples and assignments' `$(curl …)`.
    curls: usize,
    exact: usize,
    varies: usize,
    files: usize,
}

/// Checks one example's answer against the comment lines after it.
fn check(
    doc: &str,
    line: usize,
    request: &Curl,
    reply: &Reply,
    shown: &[String],
    counts: &mut Counts,
) {
    let place = format!("{doc}:{line} ({} {})", request.method, request.uri);
    let mut shown = shown;
    let mut status = 200;
    let mut mode = Mode::Exact;
    if let Some(tag) = shown
        .first()
        .and_then(|l| l.strip_prefix('('))
        .and_then(|l| l.strip_suffix(')'))
    {
        if let Some(code) = tag.strip_prefix("status ") {
            status = code.parse().unwrap_or_else(|_| panic!("{place}: {tag}"));
        } else if tag.starts_with("varies: ") {
            mode = Mode::Shape;
        } else {
            panic!("{place}: unknown tag ({tag}): (status NNN) or (varies: why)");
        }
        shown = &shown[1..];
    }
    assert_eq!(
        reply.status.as_u16(),
        status,
        "{place}: status; the answer: {}",
        reply.text
    );
    if let Some(file) = &request.output {
        let wanted = content_type_of(file);
        assert!(
            reply.content_type.starts_with(wanted),
            "{place}: -o {file} answered {}",
            reply.content_type
        );
        counts.files += 1;
        return;
    }
    assert!(
        !shown.is_empty(),
        "{place}: the example shows no answer: add it as `# ` lines right after the command"
    );
    let text = shown.join("\n");
    let json = ["json", "ndjson"]
        .iter()
        .any(|t| reply.content_type.contains(t));
    if !json {
        assert!(
            glob(text.trim(), reply.text.trim()),
            "{place}: answered\n{}\nbut the document shows\n{text}",
            reply.text
        );
        counts.exact += 1;
        return;
    }
    let pats = pattern(&text).unwrap_or_else(|e| panic!("{place}: the answer shown: {e}"));
    let values: Vec<Value> = serde_json::Deserializer::from_str(&reply.text)
        .into_iter::<Value>()
        .collect::<Result<_, _>>()
        .unwrap_or_else(|e| panic!("{place}: the answer is not JSON: {e}"));
    if let Err(e) = sequence(&pats, &values, "", mode) {
        panic!("{place}: {e}\nthe whole answer: {}", reply.text);
    }
    match mode {
        Mode::Exact => counts.exact += 1,
        Mode::Shape => counts.varies += 1,
    }
}

/// The `curl`s of a shell block's text, counted as a reader would: the
/// word `curl` starting a command or a `$(`, outside comments.
fn curls_in(text: &str) -> usize {
    text.lines()
        .filter(|l| !l.trim_start().starts_with('#'))
        .map(|l| {
            l.match_indices("curl ")
                .filter(|(at, _)| {
                    let before = l[..*at].trim_end();
                    before.is_empty() || before.ends_with("$(")
                })
                .count()
        })
        .sum()
}

#[actix_web::test]
async fn every_example_in_the_documents_answers_as_shown() {
    let app = app_with(Limits::default()).await;
    let show = std::env::var("README_SHOW").is_ok();
    let mut counts = Counts::default();
    let mut expected_curls = 0;
    let mut failed = 0;
    let documents = documents();
    let blocks = documents.iter().flat_map(|doc| {
        blocks(&read(doc))
            .into_iter()
            .map(move |block| (doc, block))
    });
    for (doc, block) in blocks {
        if block.lang != "sh" {
            assert_eq!(
                curls_in(&block.text),
                0,
                "{doc}:{}: a curl in a ```{} block: examples go in ```sh blocks",
                block.line,
                block.lang
            );
            continue;
        }
        expected_curls += curls_in(&block.text);
        let items = shell(&block.text, block.line);
        let mut vars = BTreeMap::new();
        let mut i = 0;
        while i < items.len() {
            let Item::Command(words, line) = &items[i] else {
                i += 1;
                continue;
            };
            i += 1;
            if let Some((name, value)) = assignment(&words[0]) {
                assert_eq!(
                    words.len(),
                    1,
                    "{doc}:{line}: an assignment, then more words"
                );
                let value = match value.as_slice() {
                    [Piece::Text(t), Piece::Command(command)] if t.is_empty() => {
                        let inner = shell(command, *line);
                        let [Item::Command(inner, _)] = inner.as_slice() else {
                            panic!("{doc}:{line}: $(…) holds one command");
                        };
                        let args: Vec<String> = inner
                            .iter()
                            .map(|w| expand(w, &vars))
                            .collect::<Result<_, _>>()
                            .unwrap_or_else(|e| panic!("{doc}:{line}: {e}"));
                        assert_eq!(args[0], "curl", "{doc}:{line}: $(…) runs curl only");
                        let request =
                            curl(&args[1..]).unwrap_or_else(|e| panic!("{doc}:{line}: {e}"));
                        let reply = run(&app, &request).await;
                        assert!(
                            reply.status.is_success(),
                            "{doc}:{line}: {name}=$(curl …) answered {}: {}",
                            reply.status,
                            reply.text
                        );
                        counts.curls += 1;
                        reply.text.trim_end_matches('\n').to_owned()
                    }
                    _ => expand(&value, &vars).unwrap_or_else(|e| panic!("{doc}:{line}: {e}")),
                };
                vars.insert(name, value);
                continue;
            }
            let args: Vec<String> = words
                .iter()
                .map(|w| expand(w, &vars))
                .collect::<Result<_, _>>()
                .unwrap_or_else(|e| panic!("{doc}:{line}: {e}"));
            if args[0] != "curl" {
                // Not an example (cargo, docker, …), but it runs on its
                // own too: its variables were set above (`expand`).
                continue;
            }
            for word in ["|", ">", "<", ";", "&&", "||", "&"] {
                assert!(
                    !args.iter().any(|a| a == word),
                    "{doc}:{line}: an example may not use {word}"
                );
            }
            let request = curl(&args[1..]).unwrap_or_else(|e| panic!("{doc}:{line}: {e}"));
            let reply = run(&app, &request).await;
            counts.curls += 1;
            let mut shown = Vec::new();
            while let Some(Item::Comment(comment)) = items.get(i) {
                shown.push(comment.clone());
                i += 1;
            }
            if show {
                eprintln!(
                    "{doc}:{line} {} {}\n  -> {} {}",
                    request.method, request.uri, reply.status, reply.text
                );
            }
            if show {
                // Shown, every example runs: each mismatch is printed.
                let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    check(doc, *line, &request, &reply, &shown, &mut counts)
                }));
                failed += usize::from(checked.is_err());
            } else {
                check(doc, *line, &request, &reply, &shown, &mut counts);
            }
        }
    }
    eprintln!(
        "the documents' examples: {} curls run; {} answers compared, {} shapes (varies), {} files",
        counts.curls, counts.exact, counts.varies, counts.files
    );
    assert_eq!(failed, 0, "{failed} examples answered otherwise than shown");
    assert_eq!(
        counts.curls, expected_curls,
        "the documents' shell blocks hold {expected_curls} curls, {} were run",
        counts.curls
    );
    assert!(
        counts.exact >= 30,
        "only {} examples compared: the documents' examples were not read",
        counts.exact
    );
}

/// `--help` is for people: the options under their headings, one line an
/// option, under 150 lines, and it says where the rest is.
#[test]
fn help_is_short_and_grouped_by_heading() {
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_tank-rules"))
        .arg("--help")
        .output()
        .unwrap();
    assert!(help.status.success());
    let text = String::from_utf8(help.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() < 150, "--help has {} lines", lines.len());
    let headings = [
        "Serving:",
        "Limits of a request:",
        "AI:",
        "Reviews:",
        "Quotas and keys:",
        "Redis (a fleet):",
        "Logs:",
    ];
    for heading in headings {
        assert!(lines.contains(&heading), "no heading {heading}:\n{text}");
    }
    // Every option is under a heading of its own kind, not the catch-all.
    let options = text.split("\nOptions:\n").nth(1).unwrap_or_default();
    let first_heading = options.find("\n\n").unwrap_or(options.len());
    assert_eq!(
        options[..first_heading].matches("\n      --").count(),
        0,
        "options left under \"Options:\":\n{}",
        &options[..first_heading]
    );
    for named in ["docs/OPTIONS.md", "deploy/README.md"] {
        assert!(text.contains(named), "--help does not name {named}");
    }
}

// -------------------------------------------------------- the test's test

/// The reader and the comparison fail where they should (a test that
/// could not fail would prove nothing about the documents).
#[test]
fn the_comparison_fails_on_a_wrong_answer() {
    let answer: Value =
        serde_json::from_str(r#"{"move":"j4-j5","nodes":12,"pv":["a","b","c"],"time_ms":3}"#)
            .unwrap();
    let ok = |shown: &str| {
        sequence(
            &pattern(shown).unwrap(),
            std::slice::from_ref(&answer),
            "",
            Mode::Exact,
        )
    };
    assert!(ok(r#"{"move":"j4-j5","nodes":12,"pv":["a",...],"time_ms":99}"#).is_ok());
    assert!(ok(r#"{"move":"j4-...","pv":[...,"c"],...}"#).is_ok());
    assert!(ok(r#"{"move":"j4-j6",...}"#).is_err(), "a wrong value");
    assert!(
        ok(r#"{"move":"j4-j5","nodes":12,"pv":[...]}"#).is_err(),
        "time_ms left out"
    );
    assert!(
        ok(r#"{"move":"j4-j5","nodes":12,"pv":["a"],"time_ms":3}"#).is_err(),
        "pv longer"
    );
    assert!(
        ok(r#"{"move":"j4-j5","depth":1,...}"#).is_err(),
        "a member not answered"
    );
    let shape = sequence(
        &pattern(r#"{"move":"x","pv":[],...}"#).unwrap(),
        std::slice::from_ref(&answer),
        "",
        Mode::Shape,
    );
    assert!(shape.is_ok());
    let shape = sequence(
        &pattern(r#"{"evaluation":1,...}"#).unwrap(),
        &[answer],
        "",
        Mode::Shape,
    );
    assert!(shape.is_err(), "a member shown must be there");

    let items = shell(
        "H='a: b'\nX=\"{\\\"p\\\":\\\"$H\\\"}\"\ncurl -s localhost:8080/x -H \"$H\" \\\n  -d \"$X\"  # trailing\n# {\"ok\":true}\n",
        1,
    );
    let commands: Vec<_> = items
        .iter()
        .filter_map(|i| match i {
            Item::Command(w, line) => Some((w.len(), *line)),
            _ => None,
        })
        .collect();
    assert_eq!(commands, [(1, 1), (1, 2), (7, 3)]);
    assert!(matches!(items.last(), Some(Item::Comment(c)) if c == "{\"ok\":true}"));
    assert_eq!(curls_in("curl -s a\nS=$(curl -s b)\n# curl c\n"), 2);
    let request = curl(&[
        "-s".into(),
        "-G".into(),
        "localhost:8080/v1/x".into(),
        "--data-urlencode".into(),
        "position=a b/c".into(),
        "-d".into(),
        "m=k4".into(),
    ])
    .unwrap();
    assert_eq!(request.method, Method::GET);
    assert_eq!(request.uri, "/v1/x?position=a%20b%2Fc&m=k4");
    let form = curl(&["localhost:8080/v1/x".into(), "-d".into(), "{}".into()]).unwrap();
    assert_eq!(form.method, Method::POST);
    assert_eq!(
        form.headers,
        [(
            "content-type".to_owned(),
            "application/x-www-form-urlencoded".to_owned()
        )]
    );
}

// ---------------------------------------------------------------- options

/// docs/OPTIONS.md's table names every option of `--help` with its
/// variable and default, and nothing else.
#[test]
fn the_options_table_is_the_command_lines() {
    use clap::CommandFactory;
    let table = read("docs/OPTIONS.md");
    // flag -> (env, default) as the table says.
    let mut rows: BTreeMap<String, (String, String)> = BTreeMap::new();
    for row in table.lines().filter(|l| l.starts_with("| `--")) {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (flags, envs, default) = (cells[1], cells[2], cells[3]);
        let flags: Vec<&str> = flags.split(", ").map(|f| f.trim_matches('`')).collect();
        let envs: Vec<&str> = envs.split(", ").map(|e| e.trim_matches('`')).collect();
        assert_eq!(flags.len(), envs.len(), "{row}");
        for (flag, env) in flags.iter().zip(envs) {
            let old = rows.insert((*flag).to_owned(), (env.to_owned(), default.to_owned()));
            assert!(old.is_none(), "{flag} has two rows");
        }
    }
    let command = tank_rules::config::Cli::command();
    let mut seen = 0;
    for arg in command.get_arguments() {
        let Some(long) = arg.get_long() else { continue };
        if ["help", "version"].contains(&long) {
            continue;
        }
        seen += 1;
        let flag = format!("--{long}");
        let Some((env, default)) = rows.remove(&flag) else {
            panic!("{flag} (in --help) has no row in docs/OPTIONS.md");
        };
        let wanted_env = arg.get_env().map(|e| e.to_string_lossy().into_owned());
        assert_eq!(Some(env), wanted_env, "{flag}: its variable");
        let defaults: Vec<String> = arg
            .get_default_values()
            .iter()
            .map(|v| v.to_string_lossy().into_owned())
            .collect();
        match defaults.as_slice() {
            [value] => assert_eq!(default, format!("`{value}`"), "{flag}: its default"),
            [] => assert!(
                !default.starts_with('`'),
                "{flag}: no default in --help, {default} in docs/OPTIONS.md"
            ),
            _ => panic!("{flag}: several defaults"),
        }
    }
    assert!(
        rows.is_empty(),
        "docs/OPTIONS.md names options --help does not: {:?}",
        rows.keys()
    );
    assert!(seen >= 40, "only {seen} options read from the command");
}
