//! The wire format: what clients send over the WebSocket ([`ClientMessage`]), what the server
//! sends back and pushes ([`ServerMessage`]), and the JSON bodies of the HTTP API. The protocol
//! is described in `docs/protocol.md`; the crate doc keeps a summary.
//!
//! Every message is one JSON object. The server's messages keep the key order they have
//! always had on the wire: a game's `state`, built for every move, is written straight from
//! its fields in the order declared here; every other message and body goes through a
//! `serde_json::Value`, whose map keeps its keys in alphabetical order.

use checkers_rules::Color;
use serde::de::{DeserializeOwned, IntoDeserializer};
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;

use crate::error::{ApiError, ErrorCode};
use crate::live::{color_name, side, ClockSpec, LiveGame, PlayerKind, Seat, Status, ABANDONED, ABORTED};
use crate::rules::MoveInfo;
use crate::store::BeforeAfter;
use crate::store::GameSummary;
use crate::variant::{GameVariant, UnknownVariant};

/// Largest client message the protocol accepts, in bytes (larger ones get an error reply;
/// frames past the transport's own bound close the connection).
pub const MAX_MESSAGE: usize = 4096;
/// Longest request id, in bytes.
const MAX_ID: usize = 64;
/// Largest request id in magnitude: every integer up to it comes back exactly, in JSON read
/// as a double (JavaScript's `Number.MAX_SAFE_INTEGER`).
const MAX_NUMERIC_ID: u64 = (1 << 53) - 1;

/// A message from a client. Fields that name one of a few choices are [`Choice`]s.
#[derive(Debug, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ClientMessage {
    Create {
        #[serde(default)]
        variant: Option<Choice<VariantName>>,
        opponent: Choice<OpponentKind>,
        #[serde(default)]
        level: Option<u8>,
        #[serde(default)]
        color: Option<Choice<ColorChoice>>,
        #[serde(default)]
        clock: Option<ClockRequest>,
        #[serde(default)]
        name: Option<String>,
        /// A rated game (accounts only, on a clock, never against the computer).
        #[serde(default)]
        rated: bool,
    },
    Join {
        game: String,
        #[serde(default)]
        color: Option<Choice<ColorChoice>>,
        #[serde(default)]
        name: Option<String>,
        /// The secret of a friend game's invitation.
        #[serde(default)]
        invite: Option<String>,
    },
    Watch {
        game: String,
        #[serde(default)]
        token: Option<String>,
    },
    Move {
        game: String,
        /// The seat token; a logged-in account's connection may leave it out for its seat.
        #[serde(default)]
        token: Option<String>,
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
        #[serde(default)]
        token: Option<String>,
        action: Choice<DrawAction>,
    },
    Resign {
        game: String,
        #[serde(default)]
        token: Option<String>,
    },
    Rematch {
        game: String,
        #[serde(default)]
        token: Option<String>,
    },
    /// Ends the game with no result, before both sides have moved.
    Abort {
        game: String,
        #[serde(default)]
        token: Option<String>,
    },
    /// Claims a timed game the opponent has left: a win, or a draw if `draw`.
    Claim {
        game: String,
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        draw: bool,
    },
    /// Asks to take back one's last move, or answers the opponent's request.
    Takeback {
        game: String,
        #[serde(default)]
        token: Option<String>,
        action: Choice<TakebackAction>,
    },
    Lobby,
    Games,
    Ping,
    /// Waits in a quick-pairing pool: `clock` one of the pool clocks (`"3+2"`).
    Seek {
        #[serde(default)]
        variant: Option<Choice<VariantName>>,
        clock: String,
        #[serde(default)]
        rated: bool,
    },
    Unseek,
    /// Challenges the account `name` (online) to a game.
    Challenge {
        name: String,
        #[serde(default)]
        variant: Option<Choice<VariantName>>,
        #[serde(default)]
        color: Option<Choice<ColorChoice>>,
        #[serde(default)]
        clock: Option<ClockRequest>,
        #[serde(default)]
        rated: bool,
    },
    Accept {
        challenge: String,
    },
    Decline {
        challenge: String,
    },
}

/// A new game's clock as a client asks for it.
#[derive(Debug, Deserialize)]
pub struct ClockRequest {
    /// Seconds each side starts with.
    pub base: u32,
    /// Seconds added per move.
    #[serde(default)]
    pub increment: u32,
}

/// A field naming one of a fixed set of choices. A name that is none of them does not make the
/// message malformed: the message is read, and the field is refused with a sentence of its own
/// when the request is checked, in the order its fields are checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Choice<T> {
    Known(T),
    Unknown(String),
}

/// The choices a [`Choice`] field may name.
pub trait Choices: DeserializeOwned {
    /// The refusal of a name that is none of them.
    fn refusal(name: &str) -> String;
}

impl<T: Choices> Choice<T> {
    /// The choice named, or the `bad_request` that refuses the name.
    pub fn known(self) -> Result<T, ApiError> {
        match self {
            Choice::Known(choice) => Ok(choice),
            Choice::Unknown(name) => Err(ApiError::bad_request(T::refusal(&name))),
        }
    }
}

impl<'de, T: Choices> Deserialize<'de> for Choice<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Choice<T>, D::Error> {
        let name = String::deserialize(deserializer)?;
        let known: Result<T, serde::de::value::Error> = T::deserialize(name.as_str().into_deserializer());
        Ok(known.map_or(Choice::Unknown(name), Choice::Known))
    }
}

/// Who a new game is against: the computer (at the message's `level`), a friend who joins by
/// the game's link, or anyone from the lobby.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OpponentKind {
    Computer,
    Friend,
    Open,
}

impl Choices for OpponentKind {
    fn refusal(name: &str) -> String {
        format!("opponent `{name}` is not computer, friend or open")
    }
}

/// The colour a player asks for; `random` (or an empty name) leaves it to the server.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColorChoice {
    White,
    Black,
    #[serde(alias = "")]
    Random,
}

impl ColorChoice {
    /// The colour asked for, `None` for either.
    pub fn color(self) -> Option<Color> {
        match self {
            ColorChoice::White => Some(Color::White),
            ColorChoice::Black => Some(Color::Black),
            ColorChoice::Random => None,
        }
    }
}

impl Choices for ColorChoice {
    fn refusal(name: &str) -> String {
        format!("colour `{name}` is not white, black or random")
    }
}

/// An answer in the matter of a draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

impl Choices for DrawAction {
    fn refusal(name: &str) -> String {
        format!("draw action `{name}` is not offer, accept or decline")
    }
}

/// An answer in the matter of a takeback.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TakebackAction {
    Offer,
    Accept,
    Decline,
}

impl Choices for TakebackAction {
    fn refusal(name: &str) -> String {
        format!("takeback action `{name}` is not offer, accept or decline")
    }
}

/// A variant by its name (`english`, `russian`, `international`, ... and the rules' other names
/// for English, in any case).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VariantName(pub GameVariant);

impl<'de> Deserialize<'de> for VariantName {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<VariantName, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map(VariantName).map_err(serde::de::Error::custom)
    }
}

impl Choices for VariantName {
    fn refusal(name: &str) -> String {
        UnknownVariant(name.to_string()).to_string()
    }
}

/// Reads one client message. Returns the request id to echo as `re` (null when it has none)
/// with the message, or with the refusal of a message that is too long, not JSON, not one the
/// protocol knows, or whose id is not one ([`request_id`]).
pub fn read_client_message(text: &str) -> (Value, Result<ClientMessage, ApiError>) {
    if text.len() > MAX_MESSAGE {
        let refusal =
            ApiError::new(ErrorCode::TooLarge, format!("messages are limited to {MAX_MESSAGE} bytes"));
        return (peek_request_id(text), Err(refusal));
    }
    let mut value: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => return (Value::Null, Err(ApiError::bad_request(format!("not JSON: {e}")))),
    };
    let Some(object) = value.as_object_mut() else {
        return (Value::Null, Err(ApiError::bad_request("a message is a JSON object with a field `t`")));
    };
    let re = match request_id(object.remove("id")) {
        Ok(re) => re,
        Err(refusal) => return (Value::Null, Err(refusal)),
    };
    let message =
        serde_json::from_value(value).map_err(|e| ApiError::bad_request(format!("bad message: {e}")));
    (re, message)
}

/// A message's `id` as it is echoed (null for none), or the refusal of an id that could not
/// come back as sent: ids are strings of at most 64 bytes, or integers of at most 2^53 - 1 in
/// magnitude (beyond it, or with a fraction, a client reading JSON numbers as doubles, as
/// JavaScript does, would not find its id in the reply).
pub fn request_id(id: Option<Value>) -> Result<Value, ApiError> {
    match id {
        None | Some(Value::Null) => Ok(Value::Null),
        Some(Value::String(s)) if s.len() <= MAX_ID => Ok(Value::String(s)),
        Some(Value::Number(n)) if n.as_i64().is_some_and(|n| n.unsigned_abs() <= MAX_NUMERIC_ID) => {
            Ok(Value::Number(n))
        }
        Some(_) => Err(ApiError::bad_request(format!(
            "`id` is a string of at most {MAX_ID} bytes or a whole number from -{MAX_NUMERIC_ID} to \
             {MAX_NUMERIC_ID}"
        ))),
    }
}

/// The `id` of a message that is not read whole (too long, or past the rate limit), to echo in
/// its refusal: found when the message is a JSON object whose `id` key comes within its first
/// [`MAX_MESSAGE`] bytes; null otherwise, or when the id is not one.
pub fn peek_request_id(text: &str) -> Value {
    let mut end = text.len().min(MAX_MESSAGE);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let mut found = None;
    // The look stops with an error at the id or at the end of the bounded start: only what
    // was found counts.
    let _ = serde::Deserializer::deserialize_map(
        &mut serde_json::Deserializer::from_str(&text[..end]),
        IdFinder(&mut found),
    );
    request_id(found).unwrap_or(Value::Null)
}

/// Reads a JSON object's keys in order until `id`, and keeps its value.
struct IdFinder<'a>(&'a mut Option<Value>);

impl<'de> serde::de::Visitor<'de> for IdFinder<'_> {
    type Value = ();

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
            if key == "id" {
                *self.0 = Some(map.next_value()?);
                return Err(serde::de::Error::custom("found"));
            }
            map.next_value::<serde::de::IgnoredAny>()?;
        }
        Ok(())
    }
}

/// A message from the server. `re` is the id of the request answered (null when it had none).
#[derive(Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum ServerMessage<'a> {
    /// A seat taken; the token is the only key to it (the server keeps only its hash). The
    /// creator of a friend game also gets the secret its invitation carries.
    Seated {
        re: &'a Value,
        game: &'a str,
        color: &'static str,
        token: &'a str,
        #[serde(skip_serializing_if = "Option::is_none")]
        invite: Option<&'a str>,
    },
    /// Subscribed to a game, with the seat the token given holds.
    Watching {
        re: &'a Value,
        game: &'a str,
        color: Option<&'static str>,
    },
    /// A game's state, pushed to everyone watching it on every change.
    State {
        game: Box<GameState<'a>>,
    },
    /// Done; after a move, with the number of moves now played.
    Ok {
        re: &'a Value,
        #[serde(skip_serializing_if = "Option::is_none")]
        ply: Option<u32>,
    },
    /// A rematch asked for; `new_game` once both players asked.
    Rematch {
        re: &'a Value,
        game: &'a str,
        new_game: Option<&'a str>,
    },
    /// The open games; `re` only in the reply that starts following them.
    Lobby {
        #[serde(skip_serializing_if = "Option::is_none")]
        re: Option<&'a Value>,
        games: &'a [LobbyEntry],
    },
    /// The games in play, then the latest finished; `re` as for the lobby.
    Games {
        #[serde(skip_serializing_if = "Option::is_none")]
        re: Option<&'a Value>,
        games: &'a [GameSummary],
    },
    Pong {
        re: &'a Value,
    },
    Error {
        re: &'a Value,
        code: ErrorCode,
        message: &'a str,
    },
}

impl ServerMessage<'_> {
    /// The refusal of the request `re`.
    pub fn error<'a>(re: &'a Value, e: &'a ApiError) -> ServerMessage<'a> {
        ServerMessage::Error { re, code: e.code, message: &e.message }
    }

    /// The message as it goes on the wire (see the module doc for its key order).
    pub fn to_text(&self) -> String {
        match self {
            ServerMessage::State { .. } => serde_json::to_string(self).unwrap_or_default(),
            _ => to_text(self),
        }
    }
}

/// JSON text with the keys of every object in alphabetical order (through a
/// `serde_json::Value`), as the server's messages and bodies other than `state` are written.
pub fn to_text(body: &impl Serialize) -> String {
    // Strings, numbers and lists under string keys: turning them into JSON cannot fail.
    serde_json::to_value(body).map(|v| v.to_string()).unwrap_or_default()
}

/// A game's `state` message as every client of the game sees it at `now_ms`.
pub fn state_text(game: &LiveGame, now_ms: i64) -> String {
    ServerMessage::State { game: Box::new(GameState::of(game, now_ms)) }.to_text()
}

/// The `game` of a `state` message, field for field as `docs/protocol.md` describes it.
#[derive(Serialize)]
pub struct GameState<'a> {
    id: &'a str,
    variant: &'static str,
    status: &'static str,
    listed: bool,
    start_fen: String,
    fen: String,
    turn: &'static str,
    ply: u32,
    moves: &'a [String],
    last_move: Option<LastMove>,
    legal: Vec<LegalMove>,
    clock: Option<ClockState>,
    players: Players,
    draw_offer: Option<&'static str>,
    gone: Option<&'static str>,
    takeback_offer: Option<&'static str>,
    rematch_offers: RematchOffers,
    rematch_game: Option<&'a str>,
    rematch_of: Option<&'a str>,
    result: Option<&'static str>,
    reason: Option<&'static str>,
    message: Option<String>,
    winner: Option<&'static str>,
    /// Only for a rated game: `true`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    rated: bool,
    /// Once a rated game's result is committed: both players' ratings before and after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    ratings: Option<RatingsState>,
}

#[derive(Serialize)]
struct RatingsState {
    white: BeforeAfter,
    black: BeforeAfter,
}

#[derive(Serialize)]
struct LegalMove {
    text: String,
    from: u32,
    to: u32,
    /// The squares the piece stops on.
    route: Vec<u32>,
    captured: Vec<u32>,
}

#[derive(Serialize)]
struct LastMove {
    text: String,
    route: Vec<u32>,
    captured: Vec<u32>,
    /// The computer played it from its opening book.
    book: bool,
}

#[derive(Serialize)]
struct ClockState {
    base_ms: i64,
    increment_ms: i64,
    white_ms: i64,
    black_ms: i64,
    running: Option<&'static str>,
}

#[derive(Serialize)]
struct Players {
    white: PlayerState,
    black: PlayerState,
}

#[derive(Serialize)]
struct PlayerState {
    kind: &'static str,
    name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    level: Option<u8>,
    seated: bool,
    /// Only for a seat an account holds: `true` (its name is the account's).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    account: bool,
    /// The account's rating in the game's variant and speed, rounded, for a timed game.
    #[serde(skip_serializing_if = "Option::is_none")]
    rating: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    provisional: Option<bool>,
}

#[derive(Serialize)]
struct RematchOffers {
    white: bool,
    black: bool,
}

impl LegalMove {
    fn of(info: MoveInfo) -> LegalMove {
        LegalMove {
            text: info.text,
            from: info.from,
            to: info.to,
            route: info.route,
            captured: info.captured,
        }
    }
}

impl<'a> GameState<'a> {
    /// The state of `game` at `now_ms` (the running clock counted down to then).
    pub fn of(game: &'a LiveGame, now_ms: i64) -> GameState<'a> {
        let legal = if game.status == Status::Playing {
            game.game.legal().into_iter().map(LegalMove::of).collect()
        } else {
            Vec::new()
        };
        let last_move = game.game.last_move().map(|info| LastMove {
            text: info.text,
            route: info.route,
            captured: info.captured,
            book: game.played_from_book(game.game.plies() - 1),
        });
        let clocks = game.clocks_at(now_ms);
        let clock = game.clock.map(|spec| ClockState {
            base_ms: spec.base_ms,
            increment_ms: spec.increment_ms,
            white_ms: clocks[0],
            black_ms: clocks[1],
            running: game.turn_started_ms.map(|_| color_name(game.turn())),
        });
        let player = |color: Color| {
            let seat = &game.seats[side(color)];
            let (kind, level, seated) = match seat.kind {
                PlayerKind::Human => ("human", None, seat.token_hash.is_some()),
                PlayerKind::Computer { level } => ("computer", Some(level), true),
            };
            let account = game.accounts.seats[side(color)].is_some();
            let shown = game.accounts.shown[side(color)].filter(|_| account);
            PlayerState {
                kind,
                name: seat.name.clone(),
                level,
                seated,
                account,
                rating: shown.map(|r| r.rating.round() as i64),
                provisional: shown.map(|r| r.is_provisional()),
            }
        };
        let (result, reason, message, winner) = if game.aborted {
            let message = if game.seats.iter().all(Seat::is_taken) {
                "The game was aborted before both sides had moved"
            } else {
                "The game was withdrawn before it began"
            };
            (Some("*"), Some(ABORTED), Some(message.to_string()), None)
        } else if let (Some(left), Some(o)) = (game.abandoned_by, game.outcome()) {
            let message = match o.winner {
                Some(winner) => format!("{} wins: {} left the game", winner.name(), left.name()),
                None => format!("Draw: {} left the game", left.name()),
            };
            (Some(game.game.result_text()), Some(ABANDONED), Some(message), o.winner.map(color_name))
        } else {
            match game.outcome() {
                Some(o) => {
                    (Some(game.game.result_text()), Some(o.reason), Some(o.message), o.winner.map(color_name))
                }
                None => (None, None, None, None),
            }
        };
        GameState {
            id: &game.id,
            variant: game.game.variant().name(),
            status: game.status.as_str(),
            listed: game.listed,
            start_fen: game.game.start_fen(),
            fen: game.game.fen(),
            turn: color_name(game.turn()),
            ply: game.ply(),
            moves: &game.pdn_moves,
            last_move,
            legal,
            clock,
            players: Players { white: player(Color::White), black: player(Color::Black) },
            draw_offer: game.draw_offer.map(color_name),
            gone: game.gone.map(color_name),
            takeback_offer: game.takeback_offer.map(color_name),
            rematch_offers: RematchOffers { white: game.rematch_offers[0], black: game.rematch_offers[1] },
            rematch_game: game.rematch_game.as_deref(),
            rematch_of: game.rematch_of.as_deref(),
            result,
            reason,
            message,
            winner,
            rated: game.accounts.rated,
            ratings: game.accounts.change().map(|change| RatingsState {
                white: BeforeAfter { before: change.before[0], after: change.after[0] },
                black: BeforeAfter { before: change.before[1], after: change.after[1] },
            }),
        }
    }
}

/// An open game as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LobbyEntry {
    pub id: String,
    pub variant: &'static str,
    pub clock: Option<ClockSpec>,
    /// The creator's name.
    pub name: Option<String>,
    pub creator_color: &'static str,
    pub created_ms: i64,
    /// Only for a rated game: `true`.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub rated: bool,
    /// The creator's rating in the game's variant and speed, rounded, when the creator is an
    /// account and the game has a clock.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provisional: Option<bool>,
}

impl LobbyEntry {
    /// The entry of a game waiting for its second player (`creator` the taken seat).
    pub fn of(game: &LiveGame, creator: Color) -> LobbyEntry {
        let shown = game.accounts.shown[side(creator)].filter(|_| game.clock.is_some());
        LobbyEntry {
            id: game.id.clone(),
            variant: game.game.variant().name(),
            clock: game.clock,
            name: game.seats[side(creator)].name.clone(),
            creator_color: color_name(creator),
            created_ms: game.created_ms,
            rated: game.accounts.rated,
            rating: shown.map(|r| r.rating.round() as i64),
            provisional: shown.map(|r| r.is_provisional()),
        }
    }
}

/// A list that clients follow (the open games, the games in play): its entries, and the
/// message pushing it to every follower, written once for all of them.
#[derive(Debug)]
pub struct Listing<T> {
    pub entries: Vec<T>,
    pub pushed: String,
}

/// The lists clients follow, and the message each goes out in.
pub trait Listed: Sized {
    fn message<'a>(re: Option<&'a Value>, entries: &'a [Self]) -> ServerMessage<'a>;
}

impl Listed for LobbyEntry {
    fn message<'a>(re: Option<&'a Value>, games: &'a [LobbyEntry]) -> ServerMessage<'a> {
        ServerMessage::Lobby { re, games }
    }
}

impl Listed for GameSummary {
    fn message<'a>(re: Option<&'a Value>, games: &'a [GameSummary]) -> ServerMessage<'a> {
        ServerMessage::Games { re, games }
    }
}

impl<T: Listed> Listing<T> {
    pub fn new(entries: Vec<T>) -> Listing<T> {
        let pushed = T::message(None, &entries).to_text();
        Listing { entries, pushed }
    }

    /// The list as the reply to the request `re` that starts following it.
    pub fn reply(&self, re: &Value) -> String {
        T::message(Some(re), &self.entries).to_text()
    }
}

/// The body of `/api/games`: a page of the list of games, and where the next page starts
/// (`null` on the last page).
#[derive(Serialize)]
pub struct GamesBody {
    pub games: Vec<GameSummary>,
    pub next: Option<String>,
}

/// The body of an HTTP error.
#[derive(Serialize)]
pub struct ErrorBody<'a> {
    pub code: ErrorCode,
    pub message: &'a str,
}

/// The body of `/games/{id}/review`: the engine's review of a finished game.
#[derive(Serialize)]
pub struct ReviewBody {
    pub game: String,
    /// Nodes searched in each position.
    pub nodes: u64,
    pub moves: Vec<ReviewedMove>,
    pub white: SideReview,
    pub black: SideReview,
}

/// One move of a reviewed game.
#[derive(Serialize)]
pub struct ReviewedMove {
    pub text: String,
    pub route: Vec<u32>,
    /// The position after the move.
    pub fen: String,
    /// The score after the move, for the side that played it.
    pub score: String,
    pub verdict: VerdictName,
    /// The engine's move in the position before, and that position's score.
    pub best: String,
    pub best_score: String,
    pub comment: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum VerdictName {
    Good,
    Mistake,
    Blunder,
}

impl From<checkers_engine::review::Verdict> for VerdictName {
    fn from(verdict: checkers_engine::review::Verdict) -> VerdictName {
        match verdict {
            checkers_engine::review::Verdict::Good => VerdictName::Good,
            checkers_engine::review::Verdict::Mistake => VerdictName::Mistake,
            checkers_engine::review::Verdict::Blunder => VerdictName::Blunder,
        }
    }
}

/// One side's moves in a review, counted.
#[derive(Serialize)]
pub struct SideReview {
    pub mistakes: usize,
    pub blunders: usize,
    /// Men lost a move on average, to two decimals.
    pub average_loss: f64,
}

/// The body of `/games/{id}/lines?ply=N`: the engine's best moves in a position of a finished
/// game.
#[derive(Serialize)]
pub struct LinesBody {
    pub game: String,
    pub ply: usize,
    pub fen: String,
    pub nodes: u64,
    pub depth: u32,
    /// Best first.
    pub lines: Vec<BestLine>,
}

#[derive(Serialize)]
pub struct BestLine {
    /// The line's first move.
    #[serde(rename = "move")]
    pub first: Option<String>,
    /// The squares the first move's piece stops on (the page's arrows).
    pub route: Vec<u32>,
    /// For the side to move.
    pub score: String,
    pub line: String,
}

#[cfg(test)]
mod tests;
