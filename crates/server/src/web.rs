//! HTTP: the embedded web page, PDN downloads, reviews of finished games and the engine's
//! lines in their positions, the list of games, and the WebSocket door.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::QueryRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::error::{ApiError, ErrorCode};
use crate::protocol::{to_text, ErrorBody, GamesBody};
use crate::registry::{Registry, GAMES_PAGE};
use crate::store::ListCursor;
use crate::ws::{serve_socket, MAX_FRAME};

/// Bytes read from a WebSocket at a time (client messages are at most 4 KiB).
const READ_BUFFER: usize = 8 * 1024;

// The page is plain HTML, JavaScript and CSS in `web/`, compiled into the binary: nothing to
// install or build beside it.
const INDEX_HTML: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/app.js");
const STYLE_CSS: &str = include_str!("../../../web/style.css");
const ICON_SVG: &str = include_str!("../../../web/icon.svg");

/// Scripts only from this server, no inline code: names shown on the page can never run.
const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self' ws: wss:; frame-ancestors 'none'";

pub fn router(registry: Arc<Registry>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/g/{id}", get(page))
        .route("/games", get(page))
        .route("/app.js", get(|| asset("text/javascript; charset=utf-8", APP_JS)))
        .route("/style.css", get(|| asset("text/css; charset=utf-8", STYLE_CSS)))
        .route("/icon.svg", get(|| asset("image/svg+xml", ICON_SVG)))
        .route("/games/{file}", get(download_pdn))
        .route("/games/{id}/review", get(review))
        .route("/games/{id}/review.pdn", get(review_pdn))
        .route("/games/{id}/lines", get(lines))
        .route("/api/games", get(list_games))
        .route("/healthz", get(|| async { "ok" }))
        .route("/ws", get(websocket))
        .with_state(registry)
}

async fn page() -> Response {
    let mut response = asset("text/html; charset=utf-8", INDEX_HTML).await;
    response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CSP));
    response
}

async fn asset(content_type: &'static str, body: &'static str) -> Response {
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    response
}

async fn download_pdn(State(registry): State<Arc<Registry>>, Path(file): Path<String>) -> Response {
    let Some(id) = file.strip_suffix(".pdn") else {
        return (StatusCode::NOT_FOUND, "games download as /games/ID.pdn\n").into_response();
    };
    pdn_download(registry.pdn(id).await, id)
}

/// A finished game with the engine's review in its comments.
async fn review_pdn(State(registry): State<Arc<Registry>>, Path(id): Path<String>) -> Response {
    pdn_download(registry.review_pdn(&id).await, &format!("{id}-review"))
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
        Err(e) => (status_of(&e), format!("{}\n", e.message)).into_response(),
    }
}

fn status_of(e: &ApiError) -> StatusCode {
    match e.code {
        ErrorCode::NotFound => StatusCode::NOT_FOUND,
        ErrorCode::NotFinished => StatusCode::CONFLICT,
        ErrorCode::BadPly | ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    }
}

/// The engine's review of a finished game, JSON (the page's Review button).
async fn review(State(registry): State<Arc<Registry>>, Path(id): Path<String>) -> Response {
    json_reply(registry.review(&id).await)
}

/// Which position of a finished game `/games/{id}/lines` analyses: the one after `ply` moves.
#[derive(serde::Deserialize)]
struct LinesQuery {
    ply: usize,
}

/// The engine's best lines in a position of a finished game, JSON (the page's review view).
async fn lines(
    State(registry): State<Arc<Registry>>,
    Path(id): Path<String>,
    query: Result<Query<LinesQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(query)) = query else {
        let message = "give the position as ?ply=N, N the number of moves played before it";
        return json_reply(Err(ApiError::new(ErrorCode::BadPly, message)));
    };
    json_reply(registry.lines(&id, query.ply).await)
}

/// A JSON text as the body, or the error as `{"code", "message"}` with its status.
fn json_reply(reply: Result<Arc<str>, ApiError>) -> Response {
    match reply {
        Ok(text) => json_body(StatusCode::OK, text.to_string()),
        Err(e) => json_body(status_of(&e), to_text(&ErrorBody { code: e.code, message: &e.message })),
    }
}

fn json_body(status: StatusCode, text: String) -> Response {
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
            eprintln!("checkers serve: listing games: {e}");
            (StatusCode::SERVICE_UNAVAILABLE, "the list of games is unavailable\n").into_response()
        }
    }
}

async fn websocket(
    State(registry): State<Arc<Registry>>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    upgrade: WebSocketUpgrade,
) -> Response {
    upgrade
        // The default 128 KiB read buffer is zeroed on every read; our messages are small.
        .read_buffer_size(READ_BUFFER)
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .on_upgrade(move |socket| serve_socket(socket, registry, peer.ip()))
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
