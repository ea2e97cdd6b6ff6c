//! HTTP: the embedded web page, PDN downloads, reviews of finished games and the engine's
//! lines in their positions, the list of games, and the WebSocket door.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::middleware::{from_fn_with_state, map_response, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};
use tower_http::compression::CompressionLayer;

use crate::drain::{Drain, Phase};
use crate::error::{ApiError, ErrorCode};
use crate::limits::{client_key, ClientLimits, RateLimiter, REVIEW_RETRY};
use crate::protocol::{to_text, ErrorBody, GamesBody};
use crate::registry::{Registry, GAMES_PAGE};
use crate::store::ListCursor;
use crate::ws::{serve_socket, MAX_FRAME};

/// Bytes read from a WebSocket at a time (client messages are at most 4 KiB).
const READ_BUFFER: usize = 8 * 1024;

// The page is plain HTML, JavaScript modules and CSS in `web/`, compiled into the binary:
// nothing to install or build beside it.
static INDEX_HTML: &str = include_str!("../../../web/index.html");
/// The answer to the address of a game there is not: no script, so no game controls.
static MISSING_HTML: &str = include_str!("../../../web/missing.html");

/// A file the page loads, compiled in, at its address.
struct Asset {
    path: &'static str,
    content_type: &'static str,
    body: &'static str,
}

const JS: &str = "text/javascript; charset=utf-8";

/// Every file the page loads besides itself.
static ASSETS: &[Asset] = &[
    Asset {
        path: "/style.css",
        content_type: "text/css; charset=utf-8",
        body: include_str!("../../../web/style.css"),
    },
    Asset { path: "/icon.svg", content_type: "image/svg+xml", body: include_str!("../../../web/icon.svg") },
    Asset { path: "/js/main.js", content_type: JS, body: include_str!("../../../web/js/main.js") },
    Asset { path: "/js/net.js", content_type: JS, body: include_str!("../../../web/js/net.js") },
    Asset { path: "/js/store.js", content_type: JS, body: include_str!("../../../web/js/store.js") },
    Asset { path: "/js/state.js", content_type: JS, body: include_str!("../../../web/js/state.js") },
    Asset { path: "/js/ui.js", content_type: JS, body: include_str!("../../../web/js/ui.js") },
    Asset { path: "/js/board.js", content_type: JS, body: include_str!("../../../web/js/board.js") },
    Asset { path: "/js/game.js", content_type: JS, body: include_str!("../../../web/js/game.js") },
    Asset { path: "/js/review.js", content_type: JS, body: include_str!("../../../web/js/review.js") },
    Asset { path: "/js/lobby.js", content_type: JS, body: include_str!("../../../web/js/lobby.js") },
    Asset { path: "/js/sound.js", content_type: JS, body: include_str!("../../../web/js/sound.js") },
    Asset { path: "/js/analysis.js", content_type: JS, body: include_str!("../../../web/js/analysis.js") },
    Asset { path: "/js/account.js", content_type: JS, body: include_str!("../../../web/js/account.js") },
    Asset { path: "/js/pairing.js", content_type: JS, body: include_str!("../../../web/js/pairing.js") },
    Asset { path: "/js/rules.js", content_type: JS, body: include_str!("../../../web/js/rules.js") },
];

/// Each compiled-in text's entity tag, by its address in memory (each is a `static`, so it has
/// one address): a hash of its content, weak since the same tag stands for the plain and the
/// compressed bytes.
static ENTITY_TAGS: LazyLock<HashMap<usize, HeaderValue>> = LazyLock::new(|| {
    let texts = ASSETS.iter().map(|a| a.body).chain([INDEX_HTML, MISSING_HTML]);
    texts
        .map(|text| {
            let hash = crate::token::hash_token(text);
            let tag =
                HeaderValue::from_str(&format!("W/\"{}\"", &hash[..16])).expect("hex is a header value");
            (text.as_ptr() as usize, tag)
        })
        .collect()
});

/// Scripts only from this server, no inline code: names shown on the page can never run.
pub(crate) const CSP: &str =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self' ws: wss:; frame-ancestors 'none'";

/// The routes; the list and the engine's endpoints are rate-limited per client (`limits`),
/// and the WebSocket refuses pages of other sites than the server's own and
/// `allowed_origins`. The accounts' routes are `api`'s (`trust_forwarded_proto`: see there).
pub fn router(
    registry: Arc<Registry>,
    limits: &ClientLimits,
    allowed_origins: &[String],
    trust_forwarded_proto: bool,
    drain: Drain,
) -> Router {
    let engine = Arc::new(RateLimiter::new(limits.engine_requests));
    let limited = |limiter: &Arc<RateLimiter>, form| {
        from_fn_with_state(Limited { limiter: limiter.clone(), form }, rate_limit)
    };
    let origins = Arc::new(AllowedOrigins::new(allowed_origins));
    // The page and its files, and the games' PDN and JSON, are sent compressed to a client
    // that takes gzip; the WebSocket's upgrade is left alone.
    let mut pages = Router::new();
    for file in ASSETS {
        pages = pages
            .route(file.path, get(move |headers: HeaderMap| asset(file.content_type, file.body, headers)));
    }
    let pages = pages
        .route("/", get(page))
        .route("/g/{id}", get(game_page))
        .route("/games", get(page))
        .route("/games/{file}", get(download_pdn))
        .route("/games/{id}/review", get(review).layer(limited(&engine, Form::Json)))
        .route("/games/{id}/review.pdn", get(review_pdn).layer(limited(&engine, Form::Text)))
        .route("/games/{id}/lines", get(lines).layer(limited(&engine, Form::Json)))
        .route("/analysis", get(page))
        .route(
            "/api/analysis",
            post(analyse)
                .layer(DefaultBodyLimit::max(crate::analysis::MAX_REQUEST))
                .layer(limited(&engine, Form::Json)),
        )
        .route(
            "/api/games",
            get(list_games).layer(limited(&Arc::new(RateLimiter::new(limits.list_requests)), Form::Json)),
        )
        .layer(CompressionLayer::new());
    Router::new()
        .merge(pages)
        .route("/healthz", get(|| async { "ok" }))
        .route("/readyz", get(crate::drain::readyz))
        .route("/metrics", get(crate::metrics::scrape))
        .route("/ws", get(websocket).layer(from_fn_with_state(origins.clone(), check_origin)))
        .route("/cluster/link", get(crate::cluster::link_route))
        .merge(crate::api::routes(&registry, limits, origins, trust_forwarded_proto))
        .with_state(registry)
        .layer(Extension(drain))
        .layer(map_response(nosniff))
}

/// No reply is to be read as anything but its declared type (an error naming a requested id
/// is plain text, never HTML).
async fn nosniff(mut response: Response) -> Response {
    response.headers_mut().insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    response
}

/// How an endpoint words its errors: JSON `{"code", "message"}`, or the sentence alone (the
/// PDN downloads).
#[derive(Clone, Copy)]
pub(crate) enum Form {
    Json,
    Text,
}

/// A rate-limited endpoint's limiter, and how it words a refusal.
#[derive(Clone)]
pub(crate) struct Limited {
    pub(crate) limiter: Arc<RateLimiter>,
    pub(crate) form: Form,
}

/// Passes a request on if its client has requests left, and answers 429 otherwise.
pub(crate) async fn rate_limit(
    State(limited): State<Limited>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    request: Request,
    next: Next,
) -> Response {
    match limited.limiter.check(client_key(peer.ip())) {
        Ok(()) => next.run(request).await,
        Err(wait) => {
            let seconds = whole_seconds(wait);
            let e = ApiError::rate_limited(format!("too many requests; try again in {seconds} s"));
            error_reply(&e, limited.form, Some(wait))
        }
    }
}

/// A wait in whole seconds, rounded up, at least one (as `Retry-After` gives it).
pub(crate) fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// The origins besides the server's own whose pages may open the WebSocket, as browsers send
/// them (`https://example.com`, lower case, no trailing slash).
pub(crate) struct AllowedOrigins(Vec<String>);

impl AllowedOrigins {
    fn new(origins: &[String]) -> AllowedOrigins {
        AllowedOrigins(origins.iter().map(|o| o.trim().trim_end_matches('/').to_ascii_lowercase()).collect())
    }

    /// Whether a WebSocket upgrade with these headers may go on: a program that sends no
    /// `Origin` may; a browser's page may if it comes from this server (the origin's host is
    /// the `Host` the request was sent to) or from an allowed origin.
    pub(crate) fn allow(&self, headers: &HeaderMap) -> bool {
        let Some(origin) = headers.get(header::ORIGIN) else { return true };
        let Ok(origin) = origin.to_str() else { return false };
        let origin = origin.to_ascii_lowercase();
        let host = origin.strip_prefix("http://").or_else(|| origin.strip_prefix("https://"));
        let same_host = match (host, headers.get(header::HOST).and_then(|h| h.to_str().ok())) {
            (Some(host), Some(wanted)) => host.eq_ignore_ascii_case(wanted.trim()),
            _ => false,
        };
        same_host || self.0.contains(&origin)
    }
}

/// Refuses a WebSocket upgrade from another site's page: its scripts would act with the
/// visitor's connection (cross-site WebSocket hijacking).
async fn check_origin(State(origins): State<Arc<AllowedOrigins>>, request: Request, next: Next) -> Response {
    if origins.allow(request.headers()) {
        return next.run(request).await;
    }
    let message = "pages of other sites may not open this server's WebSocket \
                   (the server allows others with --allow-origin)";
    error_reply(&ApiError::new(ErrorCode::Forbidden, message), Form::Json, None)
}

async fn page(headers: HeaderMap) -> Response {
    html(INDEX_HTML, &headers)
}

/// An HTML page, which may run scripts from this server only.
fn html(text: &'static str, request: &HeaderMap) -> Response {
    let mut response = tagged("text/html; charset=utf-8", text, request);
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    response
}

/// The page for a game that exists; a page saying there is none, with 404, otherwise (the page
/// itself if the games cannot be looked up just now: it says so once connected).
async fn game_page(
    State(registry): State<Arc<Registry>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Response {
    if let Ok(false) = registry.exists(&id).await {
        let mut response = html(MISSING_HTML, &HeaderMap::new());
        *response.status_mut() = StatusCode::NOT_FOUND;
        return response;
    }
    html(INDEX_HTML, &headers)
}

async fn asset(content_type: &'static str, body: &'static str, request: HeaderMap) -> Response {
    tagged(content_type, body, &request)
}

/// A compiled-in text with its entity tag, or 304 without a body when the request's
/// `If-None-Match` names that tag. Browsers check again before each use (`no-cache`): the
/// addresses of the files stay the same from one version of the server to the next.
fn tagged(content_type: &'static str, body: &'static str, request: &HeaderMap) -> Response {
    let tag = ENTITY_TAGS.get(&(body.as_ptr() as usize)).cloned();
    let fresh = match (&tag, request.get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok())) {
        (Some(tag), Some(wanted)) => names_tag(wanted, tag.to_str().unwrap_or_default()),
        _ => false,
    };
    let mut response = if fresh { StatusCode::NOT_MODIFIED.into_response() } else { body.into_response() };
    let headers = response.headers_mut();
    if !fresh {
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    }
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Some(tag) = tag {
        headers.insert(header::ETAG, tag);
    }
    response
}

/// Whether an `If-None-Match` value names `tag` (compared weakly, as the header is: `W/` set
/// aside), or is `*`.
fn names_tag(wanted: &str, tag: &str) -> bool {
    let opaque = |t: &str| t.trim().trim_start_matches("W/").to_string();
    wanted.trim() == "*" || wanted.split(',').any(|t| opaque(t) == opaque(tag))
}

async fn download_pdn(State(registry): State<Arc<Registry>>, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".pdn") else {
        return (StatusCode::NOT_FOUND, "games download as /games/ID.pdn\n").into_response();
    };
    pdn_download(registry.pdn(id).await, id)
}

/// A finished game with the engine's review in its comments.
async fn review_pdn(
    State(registry): State<Arc<Registry>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Response {
    pdn_download(registry.review_pdn(&id, client_key(peer.ip())).await, &format!("{id}-review"))
}

fn pdn_download(text: Result<String, ApiError>, name: &str) -> Response {
    match text {
        Ok(text) => {
            let mut response = text.into_response();
            let headers = response.headers_mut();
            headers
                .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/x-pdn; charset=utf-8"));
            // The id is checked to be alphanumeric before any game is found.
            if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}.pdn\"")) {
                headers.insert(header::CONTENT_DISPOSITION, value);
            }
            response
        }
        Err(e) => error_reply(&e, Form::Text, None),
    }
}

fn status_of(e: &ApiError) -> StatusCode {
    match e.code {
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::NotFinished | ErrorCode::NameTaken => StatusCode::CONFLICT,
        ErrorCode::BadPly | ErrorCode::BadRequest | ErrorCode::BadName | ErrorCode::WeakPassword => {
            StatusCode::BAD_REQUEST
        }
        ErrorCode::BadCredentials => StatusCode::UNAUTHORIZED,
        ErrorCode::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        ErrorCode::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        ErrorCode::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        ErrorCode::Forbidden => StatusCode::FORBIDDEN,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// An error as HTTP: the status its code goes with, the body in the endpoint's form, and for a
/// client going too fast `Retry-After` (`retry_after`, or the review queue's wait).
pub(crate) fn error_reply(e: &ApiError, form: Form, retry_after: Option<Duration>) -> Response {
    let mut response = match form {
        Form::Json => json_body(status_of(e), to_text(&ErrorBody { code: e.code, message: &e.message })),
        Form::Text => (status_of(e), format!("{}\n", e.message)).into_response(),
    };
    if e.code == ErrorCode::RateLimited {
        let seconds = whole_seconds(retry_after.unwrap_or(REVIEW_RETRY));
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    response
}

/// The engine's review of a finished game, JSON (the page's Review button).
async fn review(
    State(registry): State<Arc<Registry>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
) -> Response {
    json_reply(registry.review(&id, client_key(peer.ip())).await)
}

/// Which position of a finished game `/games/{id}/lines` analyses: the one after `ply` moves.
#[derive(serde::Deserialize)]
struct LinesQuery {
    ply: usize,
}

/// The engine's best lines in a position of a finished game, JSON (the page's review view).
async fn lines(
    State(registry): State<Arc<Registry>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(id): Path<String>,
    query: Result<Query<LinesQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        let message = "give the position as ?ply=N, N the number of moves played before it";
        return json_reply(Err(ApiError::new(ErrorCode::BadPly, message)));
    };
    json_reply(registry.lines(&id, query.ply, client_key(peer.ip())).await)
}

/// The analysis board's position (a FEN or a PDN game in the JSON body): its legal moves and
/// the engine's lines, JSON.
async fn analyse(
    State(registry): State<Arc<Registry>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: String,
) -> Response {
    json_reply(registry.analyse(&body, client_key(peer.ip())).await)
}

/// A JSON text as the body, or the error as `{"code", "message"}` with its status.
fn json_reply(reply: Result<Arc<str>, ApiError>) -> Response {
    match reply {
        Ok(text) => json_body(StatusCode::OK, text.to_string()),
        Err(e) => error_reply(&e, Form::Json, None),
    }
}

pub(crate) fn json_body(status: StatusCode, text: String) -> Response {
    let mut response = (status, text).into_response();
    response.headers_mut().insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}

/// Which page of the list of games `/api/games` gives: the games after `before` (the `next`
/// of the page before), at most `limit` of them.
#[derive(serde::Deserialize)]
struct ListQuery {
    before: Option<String>,
    limit: Option<usize>,
}

/// A page of the list of public games, JSON, with where the next page starts.
async fn list_games(
    State(registry): State<Arc<Registry>>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Response {
    let refuse = |message: &str| json_reply(Err(ApiError::bad_request(message)));
    let Ok(Query(query)) = query else {
        return refuse("the list takes ?before=CURSOR (the `next` of the page before) and ?limit=1..100");
    };
    let after = match query.before.as_deref() {
        None => None,
        Some(text) => match ListCursor::parse(text) {
            Some(cursor) => Some(cursor),
            None => return refuse("`before` is not a place in the list: give the `next` of the page before"),
        },
    };
    let limit = match query.limit {
        None => GAMES_PAGE,
        Some(limit @ 1..=GAMES_PAGE) => limit,
        Some(_) => return refuse("`limit` is 1 to 100 games a page"),
    };
    match registry.list_games(after.as_ref(), limit).await {
        Ok(games) => {
            let next = (games.len() == limit).then(|| games.last().map(|g| g.cursor().to_string())).flatten();
            json_body(StatusCode::OK, to_text(&GamesBody { games, next }))
        }
        Err(e) => {
            tracing::warn!("listing games: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the list of games is unavailable\n").into_response()
        }
    }
}

/// The WebSocket, logged in to the account of the session cookie sent with the upgrade (a
/// cookie that is not a live session's is no account: the connection is anonymous).
async fn websocket(
    State(registry): State<Arc<Registry>>,
    Extension(drain): Extension<Drain>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    upgrade: WebSocketUpgrade,
) -> Response {
    // A draining node takes no new WebSocket: the client connects again, to another node.
    if drain.phase() != Phase::Ready {
        return error_reply(
            &ApiError::new(ErrorCode::Unavailable, "the server is going away; connect again"),
            Form::Json,
            None,
        );
    }
    let account = match crate::api::session_token(&headers) {
        Some(token) => crate::accounts::session_account(registry.store(), token).await,
        None => None,
    };
    upgrade
        // The default 128 KiB read buffer is zeroed on every read; our messages are small.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| serve_socket(socket, registry, client_key(peer.ip()), account, drain))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The status and body of an error reply, as a client reads them.
    async fn reply_of(e: ApiError) -> (u16, String) {
        let response = json_reply(Err(e));
        let status = response.status().as_u16();
        let body = axum::body::to_bytes(response.into_body(), 1 << 16).await.unwrap();
        (status, String::from_utf8(body.to_vec()).unwrap())
    }

    #[tokio::test]
    async fn errors_over_http_keep_their_status_and_body() {
        let storage = crate::store::StoreError::WriterStopped.into();
        let cases = [
            (ApiError::not_found("x"), "not_found", "there is no game x", 404),
            (
                ApiError::new(ErrorCode::NotFinished, "a game is reviewed once it is over"),
                "not_finished",
                "a game is reviewed once it is over",
                409,
            ),
            (
                ApiError::new(ErrorCode::BadPly, "the game has 2 moves: ply must be 0 to 2"),
                "bad_ply",
                "the game has 2 moves: ply must be 0 to 2",
                400,
            ),
            (ApiError::busy(), "busy", "the engine is busy with other reviews: try again in a minute", 503),
            (ApiError::engine_unavailable(), "unavailable", "the engine is not available", 503),
            (ApiError::game_unavailable(), "unavailable", "the game is unavailable; try again", 503),
            (storage, "storage", "the game could not be saved; nothing was changed, try again", 503),
        ];
        for (e, code, message, status) in cases {
            let body = format!("{{\"code\":\"{code}\",\"message\":\"{message}\"}}");
            assert_eq!(reply_of(e).await, (status, body));
        }
    }
}
