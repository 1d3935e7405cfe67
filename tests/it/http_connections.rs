//! What a connection may cost on the bare server, where actix-http's own
//! bounds are all there is (a proxy in front adds its own:
//! deploy/README.md): a head within its 128 KiB buffer is served, one that
//! passes it is answered 431 and closed, a first head that stops arriving
//! 408; bodies are not heads; `Expect: 100-continue`; the query
//! parameters' lengths the head buffer is checked against. Against the
//! public server over loopback sockets; statuses, bytes and counts are
//! asserted, not durations.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};
use tank_rules::limits::Limits;
use tank_rules::memory::HEAD_BUFFER_BYTES;

use crate::common::{app_with, get, Server, INITIAL};

/// A `GET /healthz` head of exactly `len` bytes.
fn head_of(len: usize) -> Vec<u8> {
    let bare = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: \r\n\r\n".len();
    let mut head = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Pad: ".to_vec();
    head.resize(head.len() + len - bare, b'a');
    head.extend_from_slice(b"\r\n\r\n");
    head
}

/// One answer read from `stream`: its status, head and body (by its
/// `Content-Length`); `None` when the connection ends first.
fn answer(stream: &mut TcpStream) -> Option<(u16, String, Vec<u8>)> {
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => head.push(byte[0]),
            _ => return None,
        }
    }
    let head = String::from_utf8_lossy(&head).into_owned();
    let status = head.split(' ').nth(1)?.parse().ok()?;
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length:")
                .map(|v| v.trim().to_owned())
        })
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(0);
    let mut body = vec![0u8; length];
    stream.read_exact(&mut body).ok()?;
    Some((status, head, body))
}

/// Whether the server has closed `stream` (reads end, or are reset).
fn closed(stream: &mut TcpStream) -> bool {
    let mut rest = Vec::new();
    match stream.read_to_end(&mut rest) {
        Ok(_) => rest.is_empty(),
        Err(err) => err.kind() == std::io::ErrorKind::ConnectionReset,
    }
}

#[test]
fn a_head_within_actix_s_buffer_is_served_one_past_it_is_431_and_closed() {
    let server = Server::start();
    // A 100 KB head, twice on one connection.
    let mut stream = server.connect();
    for round in 0..2 {
        stream.write_all(&head_of(100_000)).unwrap();
        let (status, head, _) = answer(&mut stream).unwrap();
        assert_eq!(status, 200, "round {round}: {head}");
    }
    // A head that never ends is refused at the buffer's end, not read on.
    let mut stream = server.connect();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nX-Pad: ")
        .unwrap();
    let _ = stream.write_all(&vec![b'a'; 2 * HEAD_BUFFER_BYTES]);
    let (status, head, _) = answer(&mut stream).unwrap();
    assert_eq!(status, 431, "{head}");
    assert!(closed(&mut stream));
    // More header fields than actix-http reads (96), and a head without
    // `Host`: refused by actix-http before the application sees them.
    let many: String = (0..=96).map(|i| format!("X-F{i}: 1\r\n")).collect();
    let fields = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n");
    for (head, status) in [
        (fields.as_bytes(), 431),
        (b"GET /healthz HTTP/1.1\r\n\r\n".as_slice(), 400),
    ] {
        let mut stream = server.connect();
        stream.write_all(head).unwrap();
        assert_eq!(answer(&mut stream).unwrap().0, status);
        assert!(closed(&mut stream));
    }
    // HTTP/1.0 needs no Host.
    let mut stream = server.connect();
    stream.write_all(b"GET /healthz HTTP/1.0\r\n\r\n").unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 200);
}

#[test]
fn body_bytes_are_not_head_bytes() {
    let server = Server::start();
    let mut stream = server.connect();
    // A batch body several times a browser's head, sent with its head,
    // twice on one connection.
    let requests = vec![json!({"op": "apply", "position": INITIAL, "move": "k4-k9"}); 256];
    let body = json!({ "requests": requests }).to_string();
    assert!(body.len() > 16 << 10, "{}", body.len());
    for round in 0..2 {
        let head = format!(
            "POST /v1/tank-battle/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Content-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let (status, head, _) = answer(&mut stream).unwrap();
        assert_eq!(status, 200, "round {round}: {head}");
    }
    // The same body chunked.
    let mut chunked = String::new();
    for piece in body.as_bytes().chunks(5_000) {
        chunked.push_str(&format!(
            "{:x}\r\n{}\r\n",
            piece.len(),
            String::from_utf8_lossy(piece)
        ));
    }
    chunked.push_str("0\r\n\r\n");
    stream
        .write_all(
            format!(
                "POST /v1/tank-battle/batch HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Transfer-Encoding: chunked\r\n\r\n{chunked}"
            )
            .as_bytes(),
        )
        .unwrap();
    let (status, head, _) = answer(&mut stream).unwrap();
    assert_eq!(status, 200, "{head}");
    assert!(
        !head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    // And the connection still takes a 100 KB head.
    stream.write_all(&head_of(100_000)).unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 200);
}

#[test]
fn pipelined_requests_are_answered_in_order_none_after_a_close() {
    let server = Server::start();
    let mut stream = server.connect();
    let mut three = head_of(200);
    three.extend_from_slice(b"GET /nowhere HTTP/1.1\r\nHost: x\r\n\r\n");
    three.extend_from_slice(&head_of(300));
    stream.write_all(&three).unwrap();
    let statuses: Vec<u16> = (0..3)
        .filter_map(|_| answer(&mut stream))
        .map(|a| a.0)
        .collect();
    assert_eq!(statuses, [200, 404, 200]);
    // A request pipelined after one that asked to close the connection is
    // not processed (RFC 9112 §9.6): 400, and the connection closed.
    let mut stream = server.connect();
    let mut two = b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".to_vec();
    two.extend_from_slice(&head_of(200));
    stream.write_all(&two).unwrap();
    let (first, head, _) = answer(&mut stream).unwrap();
    assert_eq!(first, 200);
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    assert_eq!(answer(&mut stream).map(|a| a.0), Some(400));
    assert!(closed(&mut stream));
}

#[test]
fn a_body_that_runs_to_the_connections_end_is_answered_then_closed() {
    // Actix reads the rest of the connection as the body of a request
    // that asks to upgrade to WebSocket (this server upgrades nothing),
    // whatever its `Content-Length`: the head behind it is never a
    // request, and the connection closes after the answer.
    let server = Server::start();
    for length in ["", "Content-Length: 5\r\n"] {
        let mut stream = server.connect();
        let bytes = format!(
            "GET /healthz HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n\
{length}\r\nhello"
        );
        stream.write_all(bytes.as_bytes()).unwrap();
        let (status, head, _) = answer(&mut stream).unwrap();
        assert_eq!(status, 200, "{length:?}: {head}");
        assert!(
            head.to_ascii_lowercase().contains("connection: close"),
            "{length:?}: {head}"
        );
        // What follows is the body, not a request.
        let _ = stream.write_all(&head_of(200));
        assert!(closed(&mut stream), "{length:?}");
    }
}

#[test]
fn a_first_head_that_stops_arriving_is_408_and_closed() {
    let server = Server::with(
        tank_rules::server::Settings {
            request_timeout: Duration::from_secs(1),
            ..Server::settings()
        },
        Limits::default(),
    );
    let mut stream = server.connect();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 408);
    assert!(closed(&mut stream));
}

#[test]
fn expect_100_continue_with_a_chunked_body_is_invited_then_413_past_the_limit() {
    let server = Server::with(
        tank_rules::server::Settings {
            body_limit: 1_000,
            ..Server::settings()
        },
        Limits {
            body_bytes: 1_000,
            ..Limits::default()
        },
    );
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Transfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n",
        )
        .unwrap();
    // The size is unknown up front: the body is invited…
    let mut invitation = [0u8; 25];
    stream.read_exact(&mut invitation).unwrap();
    assert_eq!(&invitation, b"HTTP/1.1 100 Continue\r\n\r\n");
    // …and refused once it grows past the limit.
    let chunk = format!("{{\"position\": \"{}\"", "a".repeat(1_200));
    let _ = stream.write_all(format!("{:x}\r\n{chunk}\r\n", chunk.len()).as_bytes());
    let (status, head, body) = answer(&mut stream).unwrap();
    assert_eq!(status, 413, "{head}");
    let problem: Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(problem["code"], "PAYLOAD_TOO_LARGE");
}

/// Every `GET` operation's longest request line (each query parameter at
/// its `maxLength`, every character of four UTF-8 bytes percent-encoded)
/// is [`Limits::LONGEST_REQUEST_LINE`] at most, which actix-http's head
/// buffer holds with room for header fields (and the shipped proxy's:
/// `deploy_config`).
#[test]
fn actix_s_head_buffer_holds_every_documented_request_line() {
    let document: Value = serde_json::from_str(&tank_rules::api::openapi::json()).unwrap();
    let mut longest = 0;
    for (path, operations) in document["paths"].as_object().unwrap() {
        let Some(get) = operations.get("get") else {
            continue;
        };
        // `GET path?a=…&b=… HTTP/1.1`: a `?` or `&` and a `=` a parameter.
        let mut line = format!("GET {path} HTTP/1.1\r\n").len();
        for parameter in get["parameters"].as_array().into_iter().flatten() {
            if parameter["in"] != "query" {
                continue;
            }
            let name = parameter["name"].as_str().unwrap();
            let max = parameter["schema"]["maxLength"]
                .as_u64()
                .unwrap_or_else(|| panic!("{path}: query `{name}` has no maxLength"));
            line += 2 + name.len() + 12 * max as usize;
        }
        longest = longest.max(line);
    }
    assert!(longest <= Limits::LONGEST_REQUEST_LINE, "{longest}");
    assert!(HEAD_BUFFER_BYTES >= longest + (16 << 10), "{longest}");
}

#[actix_web::test]
async fn query_parameters_past_their_length_are_400_naming_them() {
    let app = app_with(Limits::default()).await;
    let long_state = json!({"rows": 8, "pad": "x".repeat(3_000)}).to_string();
    for (path, field) in [
        (
            format!("/v1/tank-war/render.svg?state={}", urlencode(&long_state)),
            "state",
        ),
        (
            format!(
                "/v1/cobi-tank-wars/render.svg?state={}",
                urlencode(&long_state)
            ),
            "state",
        ),
        (
            format!("/v1/tank-battle/render.svg?position={}", "1".repeat(257)),
            "position",
        ),
        (
            format!("/v1/tank-battle/initial?layout={}", ".".repeat(257)),
            "layout",
        ),
        (
            format!(
                "/v1/tank-battle/render.svg?last_move=a1-a2{}",
                "%20".repeat(300)
            ),
            "last_move",
        ),
    ] {
        let reply = get(&app, &path).await;
        assert_eq!(reply.status, 400, "{path}: {reply:?}");
        assert_eq!(reply.body["code"], "BAD_REQUEST", "{path}");
        assert_eq!(reply.body["field"], field, "{path}: {reply:?}");
    }
    let reply = get(&app, "/v1/tank-battle/render.svg?last_move=a1-a2").await;
    assert_eq!(reply.status, 200, "{reply:?}");
}

fn urlencode(text: &str) -> String {
    text.bytes().map(|b| format!("%{b:02X}")).collect()
}
