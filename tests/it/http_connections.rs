//! What a connection may cost (issue 50): the largest request head,
//! counted by the server across keep-alive and pipelining, answered 431
//! (problem+json) and closed above it; a deadline for every head (408);
//! a deadline for every send (a client that stops reading is dropped);
//! the query parameters' lengths the head's default is made from.
//! Against the public server over loopback sockets; statuses, bytes and
//! counts are asserted, not durations.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};
use tank_rules::limits::Limits;
use tank_rules::metrics::ConnectionClosed;

use crate::common::{app_with, get, Server, INITIAL};

const CAP: usize = Limits::DEFAULT_MAX_HEAD_BYTES;

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

fn assert_problem(got: &(u16, String, Vec<u8>), status: u16, code: &str) {
    let (got_status, head, body) = got;
    assert_eq!(*got_status, status, "{head}");
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/problem+json"),
        "{head}"
    );
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    let problem: Value = serde_json::from_slice(body).unwrap();
    assert_eq!(problem["code"], code, "{problem}");
    assert_eq!(problem["status"], status, "{problem}");
    let id = head
        .lines()
        .find_map(|l| l.strip_prefix("x-request-id: "))
        .unwrap_or_default();
    assert_eq!(problem["instance"], id, "{head}{problem}");
}

#[test]
fn a_head_at_the_cap_is_served_one_byte_over_is_431_and_closed() {
    let server = Server::start();
    let mut stream = server.connect();
    stream.write_all(&head_of(CAP)).unwrap();
    let (status, _, _) = answer(&mut stream).unwrap();
    assert_eq!(status, 200);
    // The same connection, kept alive: one byte over.
    stream.write_all(&head_of(CAP + 1)).unwrap();
    let refused = answer(&mut stream).unwrap();
    assert_problem(&refused, 431, "HEADERS_TOO_LARGE");
    assert!(closed(&mut stream));
    assert_eq!(server.closed(ConnectionClosed::HeadTooLarge), 1);
    // A head that never ends is refused at the cap, not read on.
    let mut stream = server.connect();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nX-Pad: ")
        .unwrap();
    let endless = vec![b'a'; 4 * CAP];
    let _ = stream.write_all(&endless);
    assert_problem(&answer(&mut stream).unwrap(), 431, "HEADERS_TOO_LARGE");
    assert_eq!(server.closed(ConnectionClosed::HeadTooLarge), 2);
    // A request line over the cap is a target too long: 414.
    let mut stream = server.connect();
    let mut line = b"GET /v1/tank-war/render.svg?state=".to_vec();
    line.resize(CAP + 1, b'a');
    let _ = stream.write_all(&line);
    assert_problem(&answer(&mut stream).unwrap(), 414, "URI_TOO_LONG");
    assert!(closed(&mut stream));
    assert_eq!(server.closed(ConnectionClosed::HeadTooLarge), 3);
}

/// A head actix-http cannot take is answered problem+json, as every
/// refusal (issue 71): more header fields than it reads (431), an
/// HTTP/1.1 request without `Host` or a malformed line (400); each after
/// a request served on the same connection too. `100 Continue` stays as
/// it is.
#[test]
fn a_head_actix_cannot_take_is_answered_problem_json() {
    let server = Server::start();
    let max = tank_rules::api::transport::connection::MAX_HEADER_FIELDS;
    let many: String = (0..=max).map(|i| format!("X-F{i}: 1\r\n")).collect();
    let fields = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{many}\r\n");
    let exactly: String = (0..max - 1).map(|i| format!("X-F{i}: 1\r\n")).collect();
    let fit = format!("GET /healthz HTTP/1.1\r\nHost: x\r\n{exactly}\r\n");
    let cases: [(&[u8], u16, &str); 3] = [
        (fields.as_bytes(), 431, "HEADERS_TOO_LARGE"),
        (b"GET /healthz HTTP/1.1\r\n\r\n", 400, "BAD_REQUEST"),
        (
            b"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Name: 1\r\n\r\n",
            400,
            "BAD_REQUEST",
        ),
    ];
    for (head, status, code) in cases {
        let mut stream = server.connect();
        stream.write_all(head).unwrap();
        assert_problem(&answer(&mut stream).unwrap(), status, code);
        assert!(closed(&mut stream));
        // After a request served on the same connection.
        let mut stream = server.connect();
        stream.write_all(fit.as_bytes()).unwrap();
        assert_eq!(answer(&mut stream).unwrap().0, 200);
        stream.write_all(head).unwrap();
        assert_problem(&answer(&mut stream).unwrap(), status, code);
    }
    // HTTP/1.0 needs no Host.
    let mut stream = server.connect();
    stream.write_all(b"GET /healthz HTTP/1.0\r\n\r\n").unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 200);
}

#[test]
fn every_head_of_a_kept_alive_connection_gets_the_whole_cap() {
    let server = Server::start();
    let mut stream = server.connect();
    for round in 0..20 {
        stream.write_all(&head_of(CAP)).unwrap();
        let (status, _, _) = answer(&mut stream).unwrap();
        assert_eq!(status, 200, "round {round}");
    }
    assert_eq!(server.closed(ConnectionClosed::HeadTooLarge), 0);
}

#[test]
fn body_bytes_are_not_head_bytes() {
    let server = Server::start();
    let mut stream = server.connect();
    // A batch body several times the head cap, sent with its head, twice
    // on one connection.
    let requests = vec![json!({"op": "apply", "position": INITIAL, "move": "k4-k9"}); 256];
    let body = json!({ "requests": requests }).to_string();
    assert!(body.len() > 2 * CAP, "{}", body.len());
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
    // And the connection still takes a head at the cap.
    stream.write_all(&head_of(CAP)).unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 200);
}

#[test]
fn pipelined_requests_are_answered_then_the_connection_closes() {
    let server = Server::start();
    let mut stream = server.connect();
    let mut two = head_of(200);
    two.extend_from_slice(&head_of(300));
    stream.write_all(&two).unwrap();
    let (first, head, _) = answer(&mut stream).unwrap();
    assert_eq!(first, 200);
    assert!(
        head.to_ascii_lowercase().contains("connection: close"),
        "{head}"
    );
    let (second, _, _) = answer(&mut stream).unwrap();
    assert_eq!(second, 200);
    assert!(closed(&mut stream));
    // A head over the cap pipelined behind a request is not read past the
    // cap: the first is answered, the connection closed.
    let mut stream = server.connect();
    let mut pipelined = head_of(100);
    pipelined.extend_from_slice(&head_of(3 * CAP));
    stream.write_all(&pipelined).unwrap();
    let (first, _, _) = answer(&mut stream).unwrap();
    assert_eq!(first, 200);
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
fn a_head_that_stops_arriving_is_408_on_every_request_of_a_connection() {
    let server = Server::with(
        tank_rules::server::Settings {
            request_timeout: Duration::from_secs(1),
            ..Server::settings()
        },
        Limits::default(),
    );
    // The first head.
    let mut stream = server.connect();
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n")
        .unwrap();
    assert_problem(&answer(&mut stream).unwrap(), 408, "REQUEST_TIMEOUT");
    assert!(closed(&mut stream));
    // A later head (actix's own deadline covers only the first).
    let mut stream = server.connect();
    stream.write_all(&head_of(100)).unwrap();
    assert_eq!(answer(&mut stream).unwrap().0, 200);
    stream.write_all(b"GET /healthz HTTP/1.1\r\nHo").unwrap();
    assert_problem(&answer(&mut stream).unwrap(), 408, "REQUEST_TIMEOUT");
    assert!(closed(&mut stream));
    assert_eq!(server.closed(ConnectionClosed::HeadTimeout), 2);
}

#[test]
fn a_client_that_stops_reading_a_large_answer_is_dropped() {
    // One answer larger than any buffer on the way can hold (the kernel
    // grows a loopback socket's send buffer to 4 MiB): a Tank War replay
    // of 670 rounds of two tanks on 676-square tracks (bouncing between two
    // squares), on a server whose limits let it answer 4.7 MB. (An
    // answer smaller than the buffers, asked again and again, passed or
    // not by the timing of the requests' reads.)
    let server = Server::with(
        tank_rules::server::Settings {
            send_timeout: Duration::from_millis(500),
            ..Server::settings()
        },
        Limits {
            answer_max_bytes: 128 << 20,
            replay_max_work: u64::MAX,
            ..Limits::default()
        },
    );
    let track = |files: [char; 2], row: u8| -> Vec<String> {
        (0..676).map(|i| format!("{}{row}", files[i % 2])).collect()
    };
    let body = json!({
        "start": {"rows": 2, "cols": 26,
            "territory": ["U".repeat(26), "D".repeat(26)],
            "tanks": [
                {"owner": "U", "name": "LA", "type": "A", "track": track(['a', 'b'], 1), "at": 0},
                {"owner": "D", "name": "LA", "type": "A", "track": track(['c', 'd'], 2), "at": 0}]},
        "rounds": vec![json!({"U": "LA", "D": "LA"}); 670],
    })
    .to_string();
    let port = server.port;
    actix_web::rt::System::new().block_on(async move {
        use actix_web::rt::net::TcpSocket;
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let socket = TcpSocket::new_v4().unwrap();
        // A small window: the server's writes wait as soon as the kernel's
        // buffers hold what the client has not read.
        socket.set_recv_buffer_size(4096).unwrap();
        let mut stream = socket.connect(([127, 0, 0, 1], port).into()).await.unwrap();
        let head = format!(
            "POST /v1/tank-war/replay HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Accept-Encoding: identity\r\nContent-Length: {}\r\n\r\n",
            body.len()
        );
        stream.write_all(head.as_bytes()).await.unwrap();
        stream.write_all(body.as_bytes()).await.unwrap();
        // Read nothing until the server has dropped the connection (at most
        // 60 s: the test fails rather than hangs).
        for _ in 0..600 {
            if server.closed(ConnectionClosed::SendTimeout) > 0 {
                break;
            }
            actix_web::rt::time::sleep(Duration::from_millis(100)).await;
        }
        // What reached the client is less than the answer.
        let mut got = Vec::new();
        let _ = stream.read_to_end(&mut got).await;
        let text = String::from_utf8_lossy(&got[..got.len().min(300)]);
        assert_eq!(server.closed(ConnectionClosed::SendTimeout), 1);
        assert!(text.starts_with("HTTP/1.1 200"), "{text}");
        let length: u64 = text
            .lines()
            .find_map(|l| l.strip_prefix("content-length: "))
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(0);
        assert!(length > 4 << 20, "{length}");
        assert!(
            (got.len() as u64) < length,
            "{} of {length} bytes",
            got.len()
        );
    });
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

/// A chunked body whose framing (here one chunk's extension) passes the
/// head cap is answered 413 problem+json as soon as it does, not 408 at
/// the body deadline (issue 71), and its connection closed.
#[test]
fn chunk_framing_past_its_cap_is_413() {
    let server = Server::start();
    let mut stream = server.connect();
    stream
        .write_all(
            b"POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Transfer-Encoding: chunked\r\n\r\n",
        )
        .unwrap();
    let extension = format!("1;{}\r\n{{\r\n", "e".repeat(CAP + 1_000));
    let _ = stream.write_all(extension.as_bytes());
    let refused = answer(&mut stream).unwrap();
    assert_problem(&refused, 413, "PAYLOAD_TOO_LARGE");
    let problem: Value = serde_json::from_slice(&refused.2).unwrap();
    assert!(
        problem["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("framing"),
        "{problem}"
    );
    assert!(closed(&mut stream));
}

/// The default head is made from the document: every `GET` operation's
/// longest request line (each query parameter at its `maxLength`, every
/// character percent-encoded) fits it with room for header fields.
#[test]
fn the_default_head_holds_every_documented_request_line() {
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
            line += 2 + name.len() + 3 * max as usize;
        }
        longest = longest.max(line);
    }
    assert!(longest <= Limits::LONGEST_REQUEST_LINE, "{longest}");
    assert!(CAP >= longest + 1_536, "{longest}");
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
