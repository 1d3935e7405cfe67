//! `Expect` (RFC 9110 §10.1.1; issue 38): a body announced over the limit
//! with `Expect: 100-continue` is refused (413) without `100 Continue`, a
//! body within it is invited, and an expectation the server does not know
//! is 417. Against the public server itself ([`tank_rules::server`]),
//! over a socket: the invitation is the server's, not the application's.

use std::io::{Read, Write};
use std::net::TcpStream;

use actix_web::test::TestRequest;
use serde_json::json;
use tank_rules::limits::Limits;

use crate::common::{app_with, assert_problem, send, Server, INITIAL};

/// Reads an answer's head (up to its blank line), or what came before
/// the connection closed.
fn read_head(stream: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        match stream.read(&mut byte) {
            Ok(1) => got.push(byte[0]),
            _ => break,
        }
    }
    String::from_utf8_lossy(&got).into_owned()
}

fn head(length: usize, expect: &str) -> String {
    format!(
        "POST /v1/tank-battle/score HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
Content-Length: {length}\r\nExpect: {expect}\r\n\r\n"
    )
}

#[test]
fn a_body_over_the_limit_is_refused_without_an_invitation() {
    let server = Server::start();
    let mut stream = server.connect();
    stream
        .write_all(head(1_000_000, "100-continue").as_bytes())
        .unwrap();
    let answer = read_head(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(!answer.contains("100 Continue"), "{answer}");
    assert!(
        answer
            .to_ascii_lowercase()
            .contains("content-type: application/problem+json"),
        "{answer}"
    );
}

#[test]
fn a_body_within_the_limit_is_invited_and_served() {
    let server = Server::start();
    let mut stream = server.connect();
    let body = json!({ "position": INITIAL }).to_string();
    stream
        .write_all(head(body.len(), "100-continue").as_bytes())
        .unwrap();
    let invitation = read_head(&mut stream);
    assert!(
        invitation.starts_with("HTTP/1.1 100 Continue"),
        "{invitation}"
    );
    stream.write_all(body.as_bytes()).unwrap();
    let answer = read_head(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn an_unknown_expectation_is_417_before_and_after_the_invitation_stage() {
    let server = Server::start();
    // `100-continue` beside another expectation: judged before the
    // invitation.
    let mut stream = server.connect();
    stream
        .write_all(head(10, "100-continue, teapot").as_bytes())
        .unwrap();
    let answer = read_head(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 417"), "{answer}");
    // Another expectation alone: the server asks no invitation, hygiene
    // refuses it.
    let mut stream = server.connect();
    let body = json!({ "position": INITIAL }).to_string();
    stream
        .write_all(format!("{}{body}", head(body.len(), "teapot")).as_bytes())
        .unwrap();
    let answer = read_head(&mut stream);
    assert!(answer.starts_with("HTTP/1.1 417"), "{answer}");
}

#[actix_web::test]
async fn an_unknown_expectation_is_a_417_problem() {
    let app = app_with(Limits::default()).await;
    let reply = send(
        &app,
        TestRequest::post()
            .uri("/v1/tank-battle/score")
            .insert_header(("expect", "teapot"))
            .set_json(json!({ "position": INITIAL })),
    )
    .await;
    assert_problem(&reply, 417, "EXPECTATION_FAILED");
    let reply = send(
        &app,
        TestRequest::get()
            .uri("/healthz")
            .insert_header(("expect", "100-continue")),
    )
    .await;
    assert_eq!(reply.status, 200, "{reply:?}");
}
