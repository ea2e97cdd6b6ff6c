//! The first run with a database that cannot be used: the server says it is connecting, gives
//! up within seconds, never shows the password, and says each cause once; and the tests' own
//! helper says why a server it starts did not come up.

mod common;

use std::net::TcpListener;
use std::process::Command;
use std::time::{Duration, Instant};

use checkers_server::store::CONNECT_TIMEOUT;
use checkers_server::Store;
use common::{checkers_binary, postgres_url, ServerProcess};

const PASSWORD: &str = "not-the-password-42";

/// A loopback port nothing listens on.
fn closed_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// Fails if a part of the message (between `: `) comes twice.
fn assert_each_cause_once(message: &str) {
    let parts: Vec<&str> = message.split(": ").collect();
    for (i, part) in parts.iter().enumerate() {
        assert!(!parts[i + 1..].contains(part), "`{part}` is said twice in: {message}");
    }
}

/// The error of opening `url`, and how long it took.
async fn open_error(url: &str) -> (String, Duration) {
    let began = Instant::now();
    let Err(error) = Store::open(url).await else { panic!("{url} opened") };
    (error.to_string(), began.elapsed())
}

#[tokio::test]
async fn a_refused_connection_is_reported_at_once_without_the_password() {
    let url = format!("postgres://ann:{PASSWORD}@127.0.0.1:{}/games", closed_port());
    let (error, took) = open_error(&url).await;
    assert!(took < Duration::from_secs(3), "{took:?}: {error}");
    assert!(error.starts_with("cannot open database postgres://ann:***@127.0.0.1:"), "{error}");
    assert!(error.contains("refused"), "{error}");
    assert!(!error.contains(PASSWORD), "{error}");
    assert_each_cause_once(&error);
}

#[tokio::test]
async fn a_database_that_does_not_answer_is_given_up_within_seconds() {
    // Connections are accepted by the system (the backlog) but nobody ever answers them.
    let silent = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = silent.local_addr().unwrap().port();
    let (error, took) = open_error(&format!("postgres://ann:{PASSWORD}@127.0.0.1:{port}/games")).await;
    assert!(took >= CONNECT_TIMEOUT && took < CONNECT_TIMEOUT + Duration::from_secs(3), "{took:?}: {error}");
    assert!(error.ends_with(&format!("no answer within {} s", CONNECT_TIMEOUT.as_secs())), "{error}");
    assert!(!error.contains(PASSWORD), "{error}");
    drop(silent);
}

#[tokio::test]
async fn a_wrong_password_is_neither_shown_nor_repeated() {
    let Some(url) = postgres_url() else { return };
    // The test database's URL with another password.
    let (before, after) = url.split_once('@').expect("the URL names a user");
    let user = before.rsplit_once(':').map_or(before, |(user, _)| user);
    let wrong = format!("{user}:{PASSWORD}@{after}");
    let (error, took) = open_error(&wrong).await;
    assert!(took < Duration::from_secs(3), "{took:?}: {error}");
    assert!(error.contains("password authentication failed"), "{error}");
    assert!(!error.contains(PASSWORD), "{error}");
    assert_each_cause_once(&error);
}

#[test]
fn checkers_serve_says_it_is_connecting_and_why_it_stopped() {
    let url = format!("postgres://ann:{PASSWORD}@127.0.0.1:{}/games", closed_port());
    let began = Instant::now();
    let output = Command::new(checkers_binary())
        .args(["serve", "--addr", "127.0.0.1:0", "--db", &url])
        .output()
        .expect("checkers serve runs");
    let took = began.elapsed();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(took < Duration::from_secs(5), "{took:?}: {stderr}");
    assert!(output.stdout.is_empty(), "{}", String::from_utf8_lossy(&output.stdout));
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].starts_with("checkers serve: connecting to postgres://ann:***@127.0.0.1:"), "{stderr}");
    assert!(lines[1].starts_with("error: cannot open database postgres://ann:***@"), "{stderr}");
    assert!(!stderr.contains(PASSWORD), "{stderr}");
    assert_each_cause_once(lines[1]);
}

#[test]
fn the_tests_say_why_a_server_did_not_start() {
    let url = format!("postgres://ann:{PASSWORD}@127.0.0.1:{}/games", closed_port());
    let Err(why) = ServerProcess::try_start(&url) else { panic!("a server started on {url}") };
    assert!(why.contains("did not start listening: its first line was \"\""), "{why}");
    assert!(why.contains("it exited with exit status: 2"), "{why}");
    assert!(why.contains("error: cannot open database postgres://ann:***@"), "{why}");
}
