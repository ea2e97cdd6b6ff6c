//! One WebSocket connection: reads client messages (bounded in size and rate), answers each,
//! and forwards the pushes of the game it watches and of the lobby.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use axum::extract::ws::{close_code, CloseFrame, Message, WebSocket};
use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::sync::{broadcast, watch};
use tokio_tungstenite::tungstenite;

use crate::actor::SiteRule;
use crate::drain::Drain;
use crate::error::{ApiError, ErrorCode};
use crate::limits::{TokenBucket, WS_MAX_STRIKES, WS_MESSAGES, WS_PENALTY};
use crate::live::{color_name, ClockSpec, MoveRequest, MAX_BASE_MS, MAX_INCREMENT_MS};
use crate::matchmaking::{Event, Member};
use crate::metrics::OpenConnection;
use crate::presence::SeatPresence;
use crate::protocol::{
    peek_request_id, read_client_message, ClientMessage, ClockRequest, Listed, Listing, OpponentKind,
    ServerMessage,
};
use crate::rated::{check_rateable, Account};
use crate::registry::{NewGame, Opponent, Registry, SeatKey, Seated};

/// Largest WebSocket message the transport reads at all (the protocol's own bound,
/// [`crate::protocol::MAX_MESSAGE`], is answered with an error instead).
pub const MAX_FRAME: usize = 64 * 1024;
/// Longest player name kept.
const MAX_NAME_CHARS: usize = 32;

/// The connection's allowance of messages ([`WS_MESSAGES`]), and how often it went past it.
struct RateLimit {
    bucket: TokenBucket,
    strikes: u32,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit { bucket: TokenBucket::full(WS_MESSAGES), strikes: 0 }
    }
    fn allow(&mut self) -> bool {
        let allowed = self.bucket.take(WS_MESSAGES, Instant::now()).is_ok();
        if !allowed {
            self.strikes += 1;
        }
        allowed
    }
    /// Slows a client that went past its allowance: reads nothing more from it for a while,
    /// and that pause earns it no new allowance.
    async fn penalise(&mut self) {
        tokio::time::sleep(WS_PENALTY).await;
        self.bucket.earn_nothing_until(Instant::now());
    }
}

/// The close frame that tells a client why its connection ends when the transport refuses
/// what it sent (RFC 6455, 7.4.1): text that is not UTF-8 (1007), a frame the protocol does
/// not allow, such as a reserved opcode or reserved bits (1002), or a message past
/// [`MAX_FRAME`] (1009). `None` when the connection is simply gone.
fn close_frame_for(error: axum::Error) -> Option<CloseFrame> {
    let error = error.into_inner().downcast::<tungstenite::Error>().ok()?;
    let (code, reason) = match *error {
        tungstenite::Error::Utf8(_) => (close_code::INVALID, "text frames must be UTF-8"),
        tungstenite::Error::Capacity(_) => (close_code::SIZE, "message too large"),
        tungstenite::Error::Protocol(tungstenite::error::ProtocolError::ResetWithoutClosingHandshake) => {
            return None
        }
        tungstenite::Error::Protocol(_) => (close_code::PROTOCOL, "WebSocket protocol error"),
        _ => return None,
    };
    Some(CloseFrame { code, reason: reason.into() })
}

/// The game a connection follows: its updates, and the seat's presence when a player of the
/// game follows it (the player is there while this lives).
struct Followed {
    updates: broadcast::Receiver<Arc<str>>,
    _presence: Option<SeatPresence>,
}

/// What the connection is subscribed to.
struct Subscriptions {
    game: Option<Followed>,
    lobby: Option<watch::Receiver<Arc<Listing<crate::protocol::LobbyEntry>>>>,
    games: Option<watch::Receiver<Arc<Listing<crate::store::GameSummary>>>>,
}

/// The refusal of a message that is not read (`re` its id if it could be seen, or null).
fn refusal(re: &Value, code: ErrorCode, message: &str) -> String {
    ServerMessage::error(re, &ApiError::new(code, message)).to_text()
}

/// Serves one WebSocket connection from the client at address `client` (the peer's address,
/// an IPv6 one as its /64 network, see [`crate::limits::client_key`]: what the server's
/// per-client limits and fair shares count by), logged in to `account` if its upgrade carried
/// a live session's cookie.
pub async fn serve_socket(
    socket: WebSocket,
    registry: Arc<Registry>,
    client: IpAddr,
    account: Option<Account>,
    drain: Drain,
) {
    let _open = OpenConnection::open();
    let going_away = drain.draining();
    tokio::pin!(going_away);
    let (inbox, mut pushed) = tokio::sync::mpsc::unbounded_channel();
    let member = Member::connect(&registry, account.clone(), client, inbox).await;
    let caller = Caller { client, account, member };
    let (mut sink, mut stream) = socket.split();
    let mut subs = Subscriptions { game: None, lobby: None, games: None };
    let mut limit = RateLimit::new();
    loop {
        let outgoing: Vec<String> = tokio::select! {
            incoming = stream.next() => {
                let text = match incoming {
                    None | Some(Ok(Message::Close(_))) => break,
                    Some(Err(e)) => {
                        if let Some(frame) = close_frame_for(e) {
                            let _ = sink.send(Message::Close(Some(frame))).await;
                        }
                        break;
                    }
                    Some(Ok(Message::Text(text))) => Some(text),
                    Some(Ok(Message::Binary(_))) => None,
                    Some(Ok(_)) => continue,
                };
                if !limit.allow() {
                    let re = text.as_ref().map_or(Value::Null, |text| peek_request_id(text.as_str()));
                    if limit.strikes > WS_MAX_STRIKES {
                        let bye = refusal(&re, ErrorCode::RateLimited, "too many messages; disconnecting");
                        let _ = sink.send(Message::Text(bye.into())).await;
                        break;
                    }
                    limit.penalise().await;
                    vec![refusal(&re, ErrorCode::RateLimited, "too many messages; slow down")]
                } else {
                    match text {
                        Some(text) => handle_text(text.as_str(), &registry, &mut subs, &caller).await,
                        None => vec![refusal(
                            &Value::Null,
                            ErrorCode::BadRequest,
                            "binary messages are not part of the protocol; send JSON text",
                        )],
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
                Ok(text) => vec![text],
                Err(_) => { subs.lobby = None; continue }
            },
            update = next_list_update(&mut subs.games) => match update {
                Ok(text) => vec![text],
                Err(_) => { subs.games = None; continue }
            },
            // Between messages: a move being handled is answered (committed) first.
            () = &mut going_away => {
                let reason = "the server is going away; connect again";
                let _ = sink.send(Message::Close(Some(CloseFrame { code: close_code::AWAY, reason: reason.into() }))).await;
                break;
            }
            Some(event) = pushed.recv() => match event {
                Event::Text(text) => vec![text],
                Event::Seated(seated) => seated_replies(&registry, &mut subs, &seated, &Value::Null)
                    .await
                    .unwrap_or_else(|e| vec![ServerMessage::error(&Value::Null, &e).to_text()]),
            },
        };
        for text in outgoing {
            if sink.send(Message::Text(text.into())).await.is_err() {
                return;
            }
        }
    }
}

async fn next_game_update(sub: &mut Option<Followed>) -> Result<Arc<str>, broadcast::error::RecvError> {
    match sub.as_mut() {
        Some(followed) => followed.updates.recv().await,
        None => std::future::pending().await,
    }
}

/// The message pushing the next version of a list the connection follows (the lobby, the
/// games).
async fn next_list_update<T>(
    sub: &mut Option<watch::Receiver<Arc<Listing<T>>>>,
) -> Result<String, watch::error::RecvError> {
    match sub.as_mut() {
        Some(rx) => {
            rx.changed().await?;
            Ok(rx.borrow_and_update().pushed.clone())
        }
        None => std::future::pending().await,
    }
}

/// Who sends a connection's messages: the client's address, and its account if logged in.
struct Caller {
    client: IpAddr,
    account: Option<Account>,
    /// The connection in the pools and among those online.
    member: Member,
}

impl Caller {
    /// What authorises a request for a seat: the token when given, else the account's seat;
    /// an anonymous client must give the token.
    fn seat_key<'a>(&self, token: &'a Option<String>) -> Result<SeatKey<'a>, ApiError> {
        match (token, &self.account) {
            (Some(token), _) => Ok(SeatKey::Token(token)),
            (None, Some(account)) => Ok(SeatKey::Account(account.id)),
            // As the message was refused before tokens could be left out.
            (None, None) => Err(ApiError::bad_request("bad message: missing field `token`")),
        }
    }
}

/// Answers one client message from `caller`; returns the messages to send back, in order.
async fn handle_text(
    text: &str,
    registry: &Arc<Registry>,
    subs: &mut Subscriptions,
    caller: &Caller,
) -> Vec<String> {
    let (re, message) = read_client_message(text);
    let replies = match message {
        Ok(message) => dispatch(message, &re, registry, subs, caller).await,
        Err(e) => Err(e),
    };
    replies.unwrap_or_else(|e| vec![ServerMessage::error(&re, &e).to_text()])
}

fn clean_name(name: Option<String>) -> Option<String> {
    let name: String = name?.chars().filter(|c| !c.is_control()).take(MAX_NAME_CHARS).collect();
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_string())
}

/// A new game's clock, if the bounds allow it.
fn clock_spec(clock: Option<ClockRequest>) -> Result<Option<ClockSpec>, ApiError> {
    let Some(c) = clock else { return Ok(None) };
    let spec = ClockSpec { base_ms: i64::from(c.base) * 1000, increment_ms: i64::from(c.increment) * 1000 };
    if spec.base_ms < 10_000 || spec.base_ms > MAX_BASE_MS || spec.increment_ms > MAX_INCREMENT_MS {
        return Err(ApiError::bad_request("clock: base 10 s to 3 h, increment 0 to 180 s"));
    }
    Ok(Some(spec))
}

/// The `seated` reply to `re`, then the game's `watching` and `state` as for a `watch`.
async fn seated_replies(
    registry: &Arc<Registry>,
    subs: &mut Subscriptions,
    seated: &Seated,
    re: &Value,
) -> Result<Vec<String>, ApiError> {
    let reply = ServerMessage::Seated {
        re,
        game: &seated.game,
        color: color_name(seated.color),
        token: &seated.token,
        invite: seated.invite.as_deref(),
    };
    let mut replies = vec![reply.to_text()];
    let key = Some(SeatKey::Token(&seated.token));
    replies.extend(subscribe(registry, subs, &seated.game, key, &Value::Null).await?);
    Ok(replies)
}

async fn subscribe(
    registry: &Arc<Registry>,
    subs: &mut Subscriptions,
    id: &str,
    key: Option<SeatKey<'_>>,
    re: &Value,
) -> Result<Vec<String>, ApiError> {
    let (rx, state, seat, presence) = registry.watch(id, key).await?;
    subs.game = Some(Followed { updates: rx, _presence: presence });
    let watching = ServerMessage::Watching { re, game: id, color: seat.map(color_name) };
    Ok(vec![watching.to_text(), state.to_string()])
}

/// Subscribes to a list and returns its current version as the reply to `re`.
fn follow_list<T: Listed>(
    mut rx: watch::Receiver<Arc<Listing<T>>>,
    sub: &mut Option<watch::Receiver<Arc<Listing<T>>>>,
    re: &Value,
) -> String {
    let reply = rx.borrow_and_update().reply(re);
    *sub = Some(rx);
    reply
}

async fn dispatch(
    message: ClientMessage,
    re: &Value,
    registry: &Arc<Registry>,
    subs: &mut Subscriptions,
    caller: &Caller,
) -> Result<Vec<String>, ApiError> {
    let client = caller.client;
    let ok = || ServerMessage::Ok { re, ply: None }.to_text();
    match message {
        ClientMessage::Ping => Ok(vec![ServerMessage::Pong { re }.to_text()]),
        ClientMessage::Lobby => Ok(vec![follow_list(registry.lobby(), &mut subs.lobby, re)]),
        ClientMessage::Games => Ok(vec![follow_list(registry.games_list(), &mut subs.games, re)]),
        ClientMessage::Create { variant, opponent, level, color, clock, name, rated } => {
            // Checked in this order, so a request with several faults hears of the first.
            let variant = match variant {
                None => crate::variant::GameVariant::ENGLISH,
                Some(name) => name.known()?.0,
            };
            let opponent = match opponent.known()? {
                OpponentKind::Computer => match level {
                    Some(level @ 1..=9) => Opponent::Computer { level },
                    _ => return Err(ApiError::bad_request("a game against the computer needs `level` 1-9")),
                },
                OpponentKind::Friend => Opponent::Friend,
                OpponentKind::Open => Opponent::Open,
            };
            let clock = clock_spec(clock)?;
            let color = color.map(|c| c.known()).transpose()?.and_then(|c| c.color());
            let account = caller.account.clone();
            if rated {
                check_rateable(account.as_ref(), clock, matches!(opponent, Opponent::Computer { .. }))?;
            }
            let request =
                NewGame { variant, opponent, color, clock, name: clean_name(name), client, account, rated };
            let seated = registry.create(request).await?;
            seated_replies(registry, subs, &seated, re).await
        }
        ClientMessage::Join { game, color, name, invite } => {
            let color = color.map(|c| c.known()).transpose()?.and_then(|c| c.color());
            let account = caller.account.clone();
            let seated = registry.join(&game, color, clean_name(name), invite.as_deref(), account).await?;
            seated_replies(registry, subs, &seated, re).await
        }
        ClientMessage::Watch { game, token } => {
            let key = match (&token, &caller.account) {
                (Some(token), _) => Some(SeatKey::Token(token)),
                (None, Some(account)) => Some(SeatKey::Account(account.id)),
                (None, None) => None,
            };
            subscribe(registry, subs, &game, key, re).await
        }
        ClientMessage::Move { game, token, text, from, to, captured, ply } => {
            let read = Instant::now();
            let key = caller.seat_key(&token)?;
            if text.as_ref().is_some_and(|t| t.len() > 200) {
                return Err(ApiError::bad_request("move text is too long"));
            }
            let ply = registry.play(&game, key, MoveRequest { text, from, to, captured }, ply).await?;
            crate::metrics::observe(&crate::metrics::METRICS.move_round_trip, read.elapsed());
            Ok(vec![ServerMessage::Ok { re, ply: Some(ply) }.to_text()])
        }
        ClientMessage::Draw { game, token, action } => {
            let key = caller.seat_key(&token)?;
            registry.draw(&game, key, action.known()?).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Resign { game, token } => {
            registry.resign(&game, caller.seat_key(&token)?).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Seek { variant, clock, rated } => {
            let variant =
                variant.map(|v| v.known()).transpose()?.map_or(crate::variant::GameVariant::ENGLISH, |v| v.0);
            caller.member.seek(registry, variant, &clock, rated).await?;
            let seeking = serde_json::json!({"t": "seeking", "re": re, "variant": variant.name(), "clock": clock, "rated": rated});
            Ok(vec![seeking.to_string()])
        }
        ClientMessage::Unseek => {
            caller.member.unseek(registry).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Challenge { name, variant, color, clock, rated } => {
            let variant =
                variant.map(|v| v.known()).transpose()?.map_or(crate::variant::GameVariant::ENGLISH, |v| v.0);
            let color = color.map(|c| c.known()).transpose()?.and_then(|c| c.color());
            let clock = clock_spec(clock)?;
            let id = caller.member.challenge(registry, &name, variant, clock, color, rated).await?;
            Ok(vec![serde_json::json!({"t": "challenging", "re": re, "challenge": id}).to_string()])
        }
        ClientMessage::Accept { challenge } => {
            let seated = caller.member.accept(registry, &challenge).await?;
            seated_replies(registry, subs, &seated, re).await
        }
        ClientMessage::Decline { challenge } => {
            caller.member.decline(registry, &challenge).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Abort { game, token } => {
            registry.site_rule(&game, caller.seat_key(&token)?, SiteRule::Abort).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Claim { game, token, draw } => {
            registry.site_rule(&game, caller.seat_key(&token)?, SiteRule::Claim { draw }).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Takeback { game, token, action } => {
            registry.site_rule(&game, caller.seat_key(&token)?, SiteRule::Takeback(action.known()?)).await?;
            Ok(vec![ok()])
        }
        ClientMessage::Rematch { game, token } => {
            let new_game = registry.rematch(&game, caller.seat_key(&token)?, client).await?;
            Ok(vec![ServerMessage::Rematch { re, game: &game, new_game: new_game.as_deref() }.to_text()])
        }
    }
}
