//! The HTTP API of accounts and players: signing up, logging in and out (the session
//! cookie), a player's ratings, results and games, and the leaderboards. Bodies are JSON,
//! errors `{"code", "message"}` as everywhere (`docs/protocol.md` lists every shape).
//!
//! The session cookie is written by hand (a name, a value and four attributes need no
//! library): `checkers_session=TOKEN; Path=/; Max-Age=2592000; HttpOnly; SameSite=Lax`, plus
//! `Secure` when the request came over TLS. The server itself speaks plain HTTP, so that is
//! known only from a proxy in front of it that says `X-Forwarded-Proto: https`, and only
//! believed when the server is told to trust it ([`crate::Config::trust_forwarded_proto`]).

use std::net::SocketAddr;
use std::sync::{Arc, OnceLock};

use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::{from_fn_with_state, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Map, Value};
use tower_http::compression::CompressionLayer;

use crate::accounts::{Accounts, LoggedIn, Refused, SESSION_DAYS};
use crate::error::{ApiError, ErrorCode};
use crate::limits::{client_key, ClientLimits, RateLimiter};
use crate::password::{is_valid_name, name_key};
use crate::pdn::game_record;
use crate::protocol::to_text;
use crate::rating::{Rating, SpeedClass};
use crate::registry::{Registry, GAMES_PAGE};
use crate::store::{now_ms, GameFilter, GameOutcome, StoreError, StoredAccount, UserGamesCursor};
use crate::variant::GameVariant;
use crate::web::{error_reply, json_body, rate_limit, AllowedOrigins, Form, Limited};

/// The cookie that carries a session's token.
pub const SESSION_COOKIE: &str = "checkers_session";
/// Largest request body, in bytes.
pub const MAX_BODY: usize = 4096;
/// Most players a leaderboard shows.
const LEADERBOARD_LEN: usize = 100;

/// What the account routes share.
#[derive(Clone)]
struct Door {
    accounts: Arc<Accounts>,
    /// Whether `X-Forwarded-Proto: https` is believed (the request came over TLS to a proxy).
    trust_forwarded_proto: bool,
}

/// The account and player routes, with their limits: request bodies of at most
/// [`MAX_BODY`], sign-ups and log-ins limited per address and per name, the player pages as
/// the list of games, and changes only from this site's pages (or programs).
pub fn routes(
    registry: &Arc<Registry>,
    limits: &ClientLimits,
    origins: Arc<AllowedOrigins>,
    trust_forwarded_proto: bool,
) -> Router<Arc<Registry>> {
    let door = Door {
        accounts: Arc::new(Accounts::new(registry.store().clone(), limits.account_requests)),
        trust_forwarded_proto,
    };
    let lists = Arc::new(RateLimiter::new(limits.list_requests));
    let limited = move |form| from_fn_with_state(Limited { limiter: lists.clone(), form }, rate_limit);
    Router::new()
        .route("/api/accounts", post(enter::<true>))
        .route("/api/session", post(enter::<false>).get(who).delete(log_out))
        .layer(from_fn_with_state(origins, same_site_only))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(Extension(door))
        .route("/api/users/{name}", get(user).layer(limited(Form::Json)))
        .route("/api/users/{name}/{list}", get(user_games).layer(limited(Form::Json)))
        .route("/api/leaderboard", get(leaderboard).layer(limited(Form::Json)))
        .route("/api/variants", get(variants))
        .route("/@/{name}", get(crate::pages::profile).layer(limited(Form::Text)))
        .route("/leaderboard", get(crate::pages::leaderboard).layer(limited(Form::Text)))
        // The player pages and a player's PDN can be long: gzip for clients that take it.
        .layer(CompressionLayer::new())
}

/// Refuses a change asked from another site's page (a form posted from elsewhere, say), as
/// the WebSocket does: browsers name the page's origin.
async fn same_site_only(
    State(origins): State<Arc<AllowedOrigins>>,
    request: Request,
    next: Next,
) -> Response {
    if request.method() == Method::GET || origins.allow(request.headers()) {
        return next.run(request).await;
    }
    let message = "pages of other sites may not log in or sign up here";
    error_reply(&ApiError::new(ErrorCode::Forbidden, message), Form::Json, None)
}

/// A name and a password, as both sign-up and log-in take them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Credentials {
    name: String,
    password: String,
}

/// Reads a JSON body of [`MAX_BODY`] bytes at most: 413 `too_large` past it, 415 when it is
/// not said to be JSON, 400 `bad_request` when it is not the object expected.
fn read_body<T: serde::de::DeserializeOwned>(
    headers: &HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let body = body.map_err(|rejection| {
        if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(ErrorCode::TooLarge, format!("request bodies are at most {MAX_BODY} bytes"))
        } else {
            ApiError::bad_request("the request body could not be read")
        }
    })?;
    let json = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("application/json"));
    if !json {
        return Err(ApiError::new(
            ErrorCode::UnsupportedMediaType,
            "send the body as JSON, with Content-Type: application/json",
        ));
    }
    serde_json::from_slice(&body)
        .map_err(|e| ApiError::bad_request(format!("the body is not {{\"name\", \"password\"}}: {e}")))
}

fn refusal(refused: Refused) -> Response {
    error_reply(&refused.error, Form::Json, refused.retry_after)
}

/// The `Set-Cookie` value that logs a browser in with `token`, or (`None`) out.
fn session_cookie(token: Option<&str>, secure: bool) -> HeaderValue {
    let (value, age) = match token {
        Some(token) => (token, SESSION_DAYS * 86_400),
        None => ("", 0),
    };
    let secure = if secure { "; Secure" } else { "" };
    let cookie = format!("{SESSION_COOKIE}={value}; Path=/; Max-Age={age}; HttpOnly; SameSite=Lax{secure}");
    // Hex digits and fixed text only.
    HeaderValue::from_str(&cookie).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// Whether the request reached the proxy in front of the server over TLS (believed only when
/// the server trusts the proxy).
fn came_over_tls(door: &Door, headers: &HeaderMap) -> bool {
    door.trust_forwarded_proto
        && headers
            .get("x-forwarded-proto")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(',').next())
            .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
}

/// The session token a request's cookies carry, if any.
pub fn session_token(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(SESSION_COOKIE)?.strip_prefix('='))
}

fn logged_in(door: &Door, headers: &HeaderMap, status: StatusCode, logged_in: LoggedIn) -> Response {
    let mut response = json_body(status, json!({"name": logged_in.account.name}).to_string());
    response
        .headers_mut()
        .insert(header::SET_COOKIE, session_cookie(Some(&logged_in.token), came_over_tls(door, headers)));
    response
}

/// Signs up (`SIGN_UP`: `POST /api/accounts`, 201) or logs in (`POST /api/session`, 200).
async fn enter<const SIGN_UP: bool>(
    Extension(door): Extension<Door>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Response {
    let credentials: Credentials = match read_body(&headers, body) {
        Ok(credentials) => credentials,
        Err(e) => return error_reply(&e, Form::Json, None),
    };
    let (name, password, client) = (&credentials.name, &credentials.password, client_key(peer.ip()));
    let (entered, status) = if SIGN_UP {
        (door.accounts.sign_up(name, password, client).await, StatusCode::CREATED)
    } else {
        (door.accounts.log_in(name, password, client).await, StatusCode::OK)
    };
    match entered {
        Ok(account) => logged_in(&door, &headers, status, account),
        Err(refused) => refusal(refused),
    }
}

/// Who is logged in: `{"name": NAME}`, or `{"name": null}`.
async fn who(Extension(door): Extension<Door>, headers: HeaderMap) -> Response {
    let account = match session_token(&headers) {
        Some(token) => door.accounts.session(token).await,
        None => None,
    };
    json_body(StatusCode::OK, json!({"name": account.map(|a| a.name)}).to_string())
}

/// Logs out: the session ends (its token is worth nothing from then on, on every copy of
/// the cookie) and the cookie is cleared.
async fn log_out(Extension(door): Extension<Door>, headers: HeaderMap) -> Response {
    if let Some(token) = session_token(&headers) {
        if let Err(e) = door.accounts.log_out(token).await {
            return error_reply(&e, Form::Json, None);
        }
    }
    let mut response = json_body(StatusCode::OK, json!({"name": null}).to_string());
    response.headers_mut().insert(header::SET_COOKIE, session_cookie(None, came_over_tls(&door, &headers)));
    response
}

/// The account a player page names, or the `not_found` that answers it.
pub(crate) async fn account_named(registry: &Registry, name: &str) -> Result<StoredAccount, ApiError> {
    let no_such = || {
        // Only a name that can be one is said back (it is then letters, digits, _ and -).
        let message = if is_valid_name(name) {
            format!("there is no player {name}")
        } else {
            "there is no such player".to_string()
        };
        ApiError::new(ErrorCode::NotFound, message)
    };
    if !is_valid_name(name) {
        return Err(no_such());
    }
    registry.store().account_by_name(&name_key(name)).await.map_err(storage)?.ok_or_else(no_such)
}

/// A storage error answered as `unavailable`, its cause on stderr.
pub(crate) fn storage(e: StoreError) -> ApiError {
    tracing::warn!("reading players: {e}");
    ApiError::new(ErrorCode::Unavailable, "the players cannot be read just now; try again")
}

/// One rating as `/api/users/{name}` shows it.
#[derive(Serialize)]
struct RatingBody {
    rating: f64,
    rd: f64,
    volatility: f64,
    games: i64,
    provisional: bool,
}

impl RatingBody {
    fn of(rating: Rating, games: i64) -> RatingBody {
        RatingBody {
            rating: rating.rating,
            rd: rating.rd,
            volatility: rating.volatility,
            games,
            provisional: rating.is_provisional(),
        }
    }
}

/// `{"name", "created_ms", "ratings": {VARIANT: {SPEED: {...}}}, "results": {...}}`, every
/// variant and speed class present (the starting rating where none was played).
async fn user(State(registry): State<Arc<Registry>>, Path(name): Path<String>) -> Response {
    let body = async {
        let account = account_named(&registry, &name).await?;
        let stored = registry.store().ratings(account.id).await.map_err(storage)?;
        let [wins, losses, draws] = registry.store().results(account.id).await.map_err(storage)?;
        let now = now_ms();
        let mut ratings = Map::new();
        for variant in GameVariant::ALL {
            let mut speeds = Map::new();
            for speed in SpeedClass::ALL {
                let found = stored.iter().find(|(v, s, _)| v == variant.name() && s == speed.name());
                let body = match found {
                    Some((_, _, rating)) => RatingBody::of(rating.standing.rating_at(now), rating.games),
                    None => RatingBody::of(Rating::START, 0),
                };
                speeds.insert(speed.name().to_string(), serde_json::to_value(body).unwrap_or_default());
            }
            ratings.insert(variant.name().to_string(), Value::Object(speeds));
        }
        let results = json!({"wins": wins, "losses": losses, "draws": draws});
        Ok::<_, ApiError>(
            json!({"name": account.name, "created_ms": account.created_ms, "ratings": ratings, "results": results}),
        )
    };
    match body.await {
        Ok(body) => json_body(StatusCode::OK, body.to_string()),
        Err(e) => error_reply(&e, Form::Json, None),
    }
}

/// Which of a player's games `/api/users/{name}/games` gives.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UserGamesQuery {
    before: Option<String>,
    limit: Option<usize>,
    variant: Option<String>,
    result: Option<String>,
    rated: Option<String>,
}

fn game_filter(query: &UserGamesQuery) -> Result<GameFilter, ApiError> {
    let variant = match query.variant.as_deref() {
        None => None,
        Some(name) => Some(name.parse::<GameVariant>().map_err(|e| ApiError::bad_request(e.to_string()))?),
    };
    let result = match query.result.as_deref() {
        None => None,
        Some(text) => Some(
            GameOutcome::parse(text).ok_or_else(|| ApiError::bad_request("`result` is win, loss or draw"))?,
        ),
    };
    let rated = match query.rated.as_deref() {
        None => None,
        Some("true") => Some(true),
        Some("false") => Some(false),
        Some(_) => return Err(ApiError::bad_request("`rated` is true or false")),
    };
    Ok(GameFilter { variant, result, rated })
}

/// `/api/users/{name}/games` (a page, JSON) and `/api/users/{name}/games.pdn` (every game).
async fn user_games(
    State(registry): State<Arc<Registry>>,
    Path((name, list)): Path<(String, String)>,
    query: Result<Query<UserGamesQuery>, QueryRejection>,
) -> Response {
    let form = if list == "games.pdn" { Form::Text } else { Form::Json };
    let reply = async {
        let pdn = match list.as_str() {
            "games" => false,
            "games.pdn" => true,
            _ => {
                return Err(ApiError::new(
                    ErrorCode::NotFound,
                    "a player's games are at /api/users/NAME/games or games.pdn",
                ))
            }
        };
        let Ok(Query(query)) = query else {
            return Err(ApiError::bad_request(format!(
                "the list takes ?before=CURSOR, limit=1..100, variant={}, result=win|loss|draw, rated=true|false",
                GameVariant::names("|")
            )));
        };
        let filter = game_filter(&query)?;
        let after = match query.before.as_deref() {
            None => None,
            Some(text) => Some(UserGamesCursor::parse(text).ok_or_else(|| {
                ApiError::bad_request(
                    "`before` is not a place in the list: give the `next` of the page before",
                )
            })?),
        };
        let limit = match query.limit {
            None => GAMES_PAGE,
            Some(limit @ 1..=GAMES_PAGE) => limit,
            Some(_) => return Err(ApiError::bad_request("`limit` is 1 to 100 games a page")),
        };
        let account = account_named(&registry, &name).await?;
        if pdn {
            return all_games_pdn(&registry, account.id, &filter).await;
        }
        let games = registry
            .store()
            .user_games(account.id, &filter, after.as_ref(), limit as i64)
            .await
            .map_err(storage)?;
        let next = (games.len() == limit).then(|| games.last().map(|g| g.cursor().to_string())).flatten();
        Ok(json_body(StatusCode::OK, to_text(&json!({"games": games, "next": next}))))
    };
    reply.await.unwrap_or_else(|e| error_reply(&e, form, None))
}

/// Every game of a player that the filter lets through, newest first, as one PDN file.
async fn all_games_pdn(registry: &Registry, account: i64, filter: &GameFilter) -> Result<Response, ApiError> {
    let mut text = String::new();
    let mut after = None;
    loop {
        let page = registry
            .store()
            .user_games(account, filter, after.as_ref(), GAMES_PAGE as i64)
            .await
            .map_err(storage)?;
        for summary in &page {
            if let Some(game) = registry.store().load_game(&summary.id).await.map_err(storage)? {
                text.push_str(&game_record(&game).to_pdn());
                text.push('\n');
            }
        }
        if page.len() < GAMES_PAGE {
            break;
        }
        after = page.last().map(|g| g.cursor());
    }
    let mut response = text.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-pdn; charset=utf-8"));
    Ok(response)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderboardQuery {
    variant: String,
    speed: String,
}

/// `{"variants": [{"name", "title", "first", "side", "full", "notation", "squares",
/// "start_fen"}]}`: every variant the site plays, with what a page needs to draw its board
/// (`GameVariant::layout`).
async fn variants() -> Response {
    static BODY: OnceLock<String> = OnceLock::new();
    let body = BODY.get_or_init(|| {
        let layouts: Vec<_> = GameVariant::ALL.into_iter().map(GameVariant::layout).collect();
        to_text(&json!({ "variants": layouts }))
    });
    json_body(StatusCode::OK, body.clone())
}

/// `{"variant", "speed", "players": [{"name", "rating", "rd", "games"}]}`: the best 100
/// players who are not provisional, best first.
async fn leaderboard(
    State(registry): State<Arc<Registry>>,
    query: Result<Query<LeaderboardQuery>, QueryRejection>,
) -> Response {
    let reply = async {
        let Ok(Query(query)) = query else {
            return Err(ApiError::bad_request(format!(
                "the leaderboard takes ?variant={}&speed=bullet|blitz|rapid|classical",
                GameVariant::names("|")
            )));
        };
        let variant =
            query.variant.parse::<GameVariant>().map_err(|e| ApiError::bad_request(e.to_string()))?;
        let speed: SpeedClass = query
            .speed
            .parse()
            .map_err(|_| ApiError::bad_request("`speed` is bullet, blitz, rapid or classical"))?;
        let players =
            registry.store().leaderboard(variant, speed, now_ms(), LEADERBOARD_LEN).await.map_err(storage)?;
        Ok(json!({"variant": variant.name(), "speed": speed.name(), "players": players}))
    };
    match reply.await {
        Ok(body) => json_body(StatusCode::OK, to_text(&body)),
        Err(e) => error_reply(&e, Form::Json, None),
    }
}
