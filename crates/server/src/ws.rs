//! One WebSocket connection: reads client messages (bounded in size and rate), answers each,
//! and forwards the pushes of the game it watches and of the lobby.

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{Message, WebSocket};
use checkers_rules::{Color, Variant};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{broadcast, watch};

use crate::hub::{ApiError, DrawAction, Hub, NewGame, Opponent, Seated};
use crate::live::{color_name, parse_color, ClockSpec, MoveRequest, MAX_BASE_MS, MAX_INCREMENT_MS};

/// Largest client message the protocol accepts, in bytes (larger ones get an error reply;
/// frames past [`MAX_FRAME`] close the connection).
pub const MAX_MESSAGE: usize = 4096;
/// Largest WebSocket message the transport reads at all.
pub const MAX_FRAME: usize = 64 * 1024;
/// Messages a client may send in a burst, and the rate at which that allowance refills.
const BURST: f64 = 40.0;
const PER_SECOND: f64 = 20.0;
/// A client that keeps sending past its allowance this many times is disconnected.
const MAX_STRIKES: u32 = 30;
/// Longest player name kept.
const MAX_NAME_CHARS: usize = 32;

#[derive(Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum ClientMessage {
    Create {
        #[serde(default)]
        variant: Option<String>,
        opponent: String,
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        color: Option<String>,
        #[serde(default)]
        clock: Option<ClockRequest>,
        #[serde(default)]
        name: Option<String>,
    },
    Join {
        game: String,
        #[serde(default)]
        color: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    Watch {
        game: String,
        #[serde(default)]
        token: Option<String>,
    },
    Move {
        game: String,
        token: String,
        #[serde(default)]
        text: Option<String>,
        #[serde(default)]
        from: Option<u32>,
        #[serde(default)]
        to: Option<u32>,
        #[serde(default)]
        captured: Option<Vec<u32>>,
        #[serde(default)]
        ply: Option<u32>,
    },
    Draw {
        game: String,
        token: String,
        action: String,
    },
    Resign {
        game: String,
        token: String,
    },
    Rematch {
        game: String,
        token: String,
    },
    Lobby,
    Games,
    Ping,
}

#[derive(Deserialize)]
struct ClockRequest {
    /// Seconds each side starts with.
    base: u32,
    /// Seconds added per move.
    #[serde(default)]
    increment: u32,
}

/// A token bucket: `BURST` messages at once, refilled at `PER_SECOND`.
struct RateLimit {
    allowance: f64,
    last: Instant,
    strikes: u32,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit { allowance: BURST, last: Instant::now(), strikes: 0 }
    }
    fn allow(&mut self) -> bool {
        let now = Instant::now();
        self.allowance =
            (self.allowance + now.duration_since(self.last).as_secs_f64() * PER_SECOND).min(BURST);
        self.last = now;
        if self.allowance >= 1.0 {
            self.allowance -= 1.0;
            true
        } else {
            self.strikes += 1;
            false
        }
    }
    /// Slows a client that went past its allowance: reads nothing more from it for a while,
    /// and that pause earns it no new allowance.
    async fn penalise(&mut self) {
        tokio::time::sleep(Duration::from_millis(100)).await;
        self.last = Instant::now();
    }
}

/// What the connection is subscribed to.
struct Subscriptions {
    game: Option<(String, broadcast::Receiver<Arc<str>>)>,
    lobby: Option<watch::Receiver<Arc<str>>>,
    games: Option<watch::Receiver<Arc<str>>>,
}

pub async fn serve_socket(socket: WebSocket, hub: Arc<Hub>) {
    let (mut sink, mut stream) = socket.split();
    let mut subs = Subscriptions { game: None, lobby: None, games: None };
    let mut limit = RateLimit::new();
    loop {
        let outgoing: Vec<String> = tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    None | Some(Err(_)) | Some(Ok(Message::Close(_))) => break,
                    Some(Ok(Message::Text(text))) => Some(text),
                    Some(Ok(Message::Binary(_))) => None,
                    Some(Ok(_)) => continue,
                };
                if !limit.allow() {
                    if limit.strikes > MAX_STRIKES {
                        let bye = error(&Value::Null, &ApiError::new("rate_limited", "too many messages; disconnecting"));
                        let _ = sink.send(Message::Text(bye.into())).await;
                        break;
                    }
                    limit.penalise().await;
                    vec![error(&Value::Null, &ApiError::new("rate_limited", "too many messages; slow down"))]
                } else {
                    match text {
                        Some(text) => handle_text(text.as_str(), &hub, &mut subs).await,
                        None => vec![error(&Value::Null, &bad("binary messages are not part of the protocol; send JSON text"))],
                    }
                }
            }
            update = next_game_update(&mut subs.game) => match update {
                Ok(text) => vec![text.to_string()],
                // Missed some intermediate states: the next one is complete on its own.
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => { subs.game = None; continue }
            },
            update = next_list_update(&mut subs.lobby) => match update {
                Ok(text) => vec![text.to_string()],
                Err(_) => { subs.lobby = None; continue }
            },
            update = next_list_update(&mut subs.games) => match update {
                Ok(text) => vec![text.to_string()],
                Err(_) => { subs.games = None; continue }
            },
        };
        for text in outgoing {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
    }
}

async fn next_game_update(
    sub: &mut Option<(String, broadcast::Receiver<Arc<str>>)>,
) -> Result<Arc<str>, broadcast::error::RecvError> {
    match sub.as_mut() {
        Some((_, rx)) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// The next version of a list the connection follows (the lobby, the games).
async fn next_list_update(
    sub: &mut Option<watch::Receiver<Arc<str>>>,
) -> Result<Arc<str>, watch::error::RecvError> {
    match sub.as_mut() {
        Some(rx) => {
            rx.changed().await?;
            Ok(rx.borrow_and_update().clone())
        }
        None => std::future::pending().await,
    }
}

fn error(re: &Value, e: &ApiError) -> String {
    json!({"t": "error", "re": re, "code": e.code, "message": e.message}).to_string()
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new("bad_request", message)
}

/// Answers one client message; returns the messages to send back, in order.
async fn handle_text(text: &str, hub: &Arc<Hub>, subs: &mut Subscriptions) -> Vec<String> {
    if text.len() > MAX_MESSAGE {
        return vec![error(
            &Value::Null,
            &ApiError::new("too_large", format!("messages are limited to {MAX_MESSAGE} bytes")),
        )];
    }
    let mut value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return vec![error(&Value::Null, &bad(format!("not JSON: {e}")))],
    };
    let Some(object) = value.as_object_mut() else {
        return vec![error(&Value::Null, &bad("a message is a JSON object with a field `t`"))];
    };
    // The client's request id, echoed as `re` (numbers and short strings only).
    let re = match object.remove("id") {
        Some(v @ Value::Number(_)) => v,
        Some(Value::String(s)) if s.len() <= 64 => Value::String(s),
        _ => Value::Null,
    };
    let message: ClientMessage = match serde_json::from_value(value) {
        Ok(m) => m,
        Err(e) => return vec![error(&re, &bad(format!("bad message: {e}")))],
    };
    match dispatch(message, &re, hub, subs).await {
        Ok(replies) => replies,
        Err(e) => vec![error(&re, &e)],
    }
}

fn clean_name(name: Option<String>) -> Option<String> {
    let name: String = name?.chars().filter(|c| !c.is_control()).take(MAX_NAME_CHARS).collect();
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

fn parse_side(text: Option<&str>) -> Result<Option<Color>, ApiError> {
    match text {
        None | Some("random") | Some("") => Ok(None),
        Some(t) => {
            parse_color(t).map(Some).ok_or_else(|| bad(format!("colour `{t}` is not white, black or random")))
        }
    }
}

fn seated_reply(re: &Value, seated: &Seated) -> String {
    json!({"t": "seated", "re": re, "game": seated.game, "color": color_name(seated.color), "token": seated.token})
        .to_string()
}

async fn subscribe(
    hub: &Arc<Hub>,
    subs: &mut Subscriptions,
    id: &str,
    token: Option<&str>,
    re: &Value,
) -> Result<Vec<String>, ApiError> {
    let (rx, state, seat) = hub.watch(id, token).await?;
    subs.game = Some((id.to_string(), rx));
    let watching = json!({"t": "watching", "re": re, "game": id, "color": seat.map(color_name)}).to_string();
    Ok(vec![watching, state.to_string()])
}

/// Subscribes to a list and returns its current version as the reply to `re`.
fn follow_list(
    mut rx: watch::Receiver<Arc<str>>,
    sub: &mut Option<watch::Receiver<Arc<str>>>,
    re: &Value,
) -> String {
    let mut current: Value = serde_json::from_str(&rx.borrow_and_update()).unwrap_or(Value::Null);
    current["re"] = re.clone();
    *sub = Some(rx);
    current.to_string()
}

async fn dispatch(
    message: ClientMessage,
    re: &Value,
    hub: &Arc<Hub>,
    subs: &mut Subscriptions,
) -> Result<Vec<String>, ApiError> {
    let ok = || json!({"t": "ok", "re": re}).to_string();
    match message {
        ClientMessage::Ping => Ok(vec![json!({"t": "pong", "re": re}).to_string()]),
        ClientMessage::Lobby => Ok(vec![follow_list(hub.lobby(), &mut subs.lobby, re)]),
        ClientMessage::Games => Ok(vec![follow_list(hub.games_list(), &mut subs.games, re)]),
        ClientMessage::Create { variant, opponent, level, color, clock, name } => {
            let variant: Variant = match variant.as_deref() {
                None => Variant::English,
                Some(v) => v.parse().map_err(|e: checkers_rules::VariantError| bad(e.to_string()))?,
            };
            let opponent = match opponent.as_str() {
                "computer" => match level {
                    Some(level @ 1..=9) => Opponent::Computer { level },
                    _ => return Err(bad("a game against the computer needs `level` 1-9")),
                },
                "friend" => Opponent::Friend,
                "open" => Opponent::Open,
                other => return Err(bad(format!("opponent `{other}` is not computer, friend or open"))),
            };
            let clock = match clock {
                None => None,
                Some(c) => {
                    let spec = ClockSpec {
                        base_ms: i64::from(c.base) * 1000,
                        increment_ms: i64::from(c.increment) * 1000,
                    };
                    if spec.base_ms < 10_000
                        || spec.base_ms > MAX_BASE_MS
                        || spec.increment_ms > MAX_INCREMENT_MS
                    {
                        return Err(bad("clock: base 10 s to 3 h, increment 0 to 180 s"));
                    }
                    Some(spec)
                }
            };
            let request = NewGame {
                variant,
                opponent,
                color: parse_side(color.as_deref())?,
                clock,
                name: clean_name(name),
            };
            let seated = hub.create(request).await?;
            let mut replies = vec![seated_reply(re, &seated)];
            replies.extend(subscribe(hub, subs, &seated.game, Some(&seated.token), &Value::Null).await?);
            Ok(replies)
        }
        ClientMessage::Join { game, color, name } => {
            let seated = hub.join(&game, parse_side(color.as_deref())?, clean_name(name)).await?;
            let mut replies = vec![seated_reply(re, &seated)];
            replies.extend(subscribe(hub, subs, &seated.game, Some(&seated.token), &Value::Null).await?);
            Ok(replies)
        }
        ClientMessage::Watch { game, token } => subscribe(hub, subs, &game, token.as_deref(), re).await,
        ClientMessage::Move { game, token, text, from, to, captured, ply } => {
            if text.as_ref().is_some_and(|t| t.len() > 200) {
                return Err(bad("move text is too long"));
            }
            let ply = hub.play(&game, &token, MoveRequest { text, from, to, captured }, ply).await?;
            Ok(vec![json!({"t": "ok", "re": re, "ply": ply}).to_string()])
        }
        ClientMessage::Draw { game, token, action } => {
            let action = match action.as_str() {
                "offer" => DrawAction::Offer,
                "accept" => DrawAction::Accept,
                "decline" => DrawAction::Decline,
                other => return Err(bad(format!("draw action `{other}` is not offer, accept or decline"))),
            };
            hub.draw(&game, &token, action).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Resign { game, token } => {
            hub.resign(&game, &token).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Rematch { game, token } => {
            let new_game = hub.rematch(&game, &token).await?;
            Ok(vec![json!({"t": "rematch", "re": re, "game": game, "new_game": new_game}).to_string()])
        }
    }
}
