//! Pages rendered on the server, without scripts: a player's profile at `/@/{name}` (ratings
//! per variant and speed, a rating-history graph in SVG, results, recent games with links)
//! and the leaderboards at `/leaderboard?variant=V`. They use the site's stylesheet; every
//! text that came from a player (names above all) is escaped.

use std::fmt::Write as _;
use std::sync::Arc;

use crate::variant::GameVariant;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::api::{account_named, storage};
use crate::error::ApiError;
use crate::rating::{Rating, SpeedClass};
use crate::registry::Registry;
use crate::store::{now_ms, GameFilter, UserGame};

/// Recent games a profile lists.
const RECENT_GAMES: i64 = 20;
/// Rated games the rating graph draws, the latest.
const GRAPH_GAMES: i64 = 100;
/// Players a leaderboard page shows per speed.
const BOARD_LEN: usize = 100;
const GRAPH_WIDTH: f64 = 640.0;
const GRAPH_HEIGHT: f64 = 200.0;
/// A line colour for each speed class, in the order of [`SpeedClass::ALL`].
const LINE_COLOURS: [&str; 4] = ["#c0392b", "#2471a3", "#1e8449", "#7d3c98"];

/// Text made safe to put in HTML, between tags or in a quoted attribute.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A whole page: the site's header and stylesheet around `body`.
fn page(status: StatusCode, title: &str, body: &str) -> Response {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} · Checkers Online</title>\n<link rel=\"icon\" href=\"/icon.svg\" type=\"image/svg+xml\">\n\
         <link rel=\"stylesheet\" href=\"/style.css\">\n</head>\n<body>\n<header class=\"topbar\">\n\
         <a href=\"/\" class=\"brand\">Checkers Online</a>\n<nav>\n<a href=\"/\">Play</a>\n\
         <a href=\"/games\">Games</a>\n<a href=\"/leaderboard\">Leaderboard</a>\n</nav>\n</header>\n\
         <main class=\"server-page\">\n{body}</main>\n</body>\n</html>\n",
        escape(title)
    );
    let mut response = (status, html).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
    headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(crate::web::CSP));
    response
}

fn error_page(e: &ApiError) -> Response {
    let status = match e.code {
        crate::error::ErrorCode::NotFound => StatusCode::NOT_FOUND,
        crate::error::ErrorCode::BadRequest => StatusCode::BAD_REQUEST,
        _ => StatusCode::SERVICE_UNAVAILABLE,
    };
    page(status, "Not here", &format!("<h1>Not here</h1>\n<p>{}</p>\n", escape(&e.message)))
}

/// The civil date (UTC) of a time in milliseconds, `YYYY-MM-DD`.
fn date(ms: i64) -> String {
    checkers_rules::pdn_date(ms.div_euclid(86_400_000)).replace('.', "-")
}

/// `GET /@/{name}`: a player's profile.
pub async fn profile(State(registry): State<Arc<Registry>>, Path(name): Path<String>) -> Response {
    match profile_body(&registry, &name).await {
        Ok((title, body)) => page(StatusCode::OK, &title, &body),
        Err(e) => error_page(&e),
    }
}

async fn profile_body(registry: &Registry, name: &str) -> Result<(String, String), ApiError> {
    let account = account_named(registry, name).await?;
    let store = registry.store();
    let ratings = store.ratings(account.id).await.map_err(storage)?;
    let [wins, losses, draws] = store.results(account.id).await.map_err(storage)?;
    let rated = GameFilter { rated: Some(true), ..GameFilter::default() };
    let history = store.user_games(account.id, &rated, None, GRAPH_GAMES).await.map_err(storage)?;
    let recent =
        store.user_games(account.id, &GameFilter::default(), None, RECENT_GAMES).await.map_err(storage)?;
    let name = escape(&account.name);
    let mut body = format!(
        "<h1>{name}</h1>\n<p>Playing since {}. Results: {wins} won, {losses} lost, {draws} drawn.</p>\n",
        date(account.created_ms)
    );
    body.push_str("<h2>Ratings</h2>\n<table class=\"ratings\">\n<thead><tr><th scope=\"col\">Variant</th>");
    for speed in SpeedClass::ALL {
        let _ = write!(body, "<th scope=\"col\">{}</th>", capitalised(speed.name()));
    }
    body.push_str("</tr></thead>\n<tbody>\n");
    let now = now_ms();
    for variant in GameVariant::ALL {
        let _ = write!(body, "<tr><th scope=\"row\">{}</th>", variant.title());
        for speed in SpeedClass::ALL {
            let found = ratings.iter().find(|(v, s, _)| v == variant.name() && s == speed.name());
            let cell = match found {
                Some((_, _, stored)) => rating_cell(stored.standing.rating_at(now), stored.games),
                None => "–".to_string(),
            };
            let _ = write!(body, "<td>{cell}</td>");
        }
        body.push_str("</tr>\n");
    }
    body.push_str("</tbody>\n</table>\n<h2>Rating history</h2>\n");
    body.push_str(&history_graph(&history));
    body.push_str("<h2>Recent games</h2>\n");
    body.push_str(&games_table(&recent));
    Ok((account.name, body))
}

fn capitalised(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_uppercase().to_string() + chars.as_str()).unwrap_or_default()
}

fn rating_cell(rating: Rating, games: i64) -> String {
    let mark = if rating.is_provisional() { "?" } else { "" };
    let plural = if games == 1 { "" } else { "s" };
    format!("{:.0}{mark} <small>±{:.0}, {games} game{plural}</small>", rating.rating, rating.rd)
}

/// A point of the rating graph: when, and the rating then.
type Point = (i64, f64);

/// The ratings after each rated game, oldest first, one line per variant and speed, as an SVG
/// graph (with a text alternative: the first and last rating of each line).
fn history_graph(games: &[UserGame]) -> String {
    let mut lines: Vec<(String, usize, Vec<Point>)> = Vec::new();
    for game in games.iter().rev() {
        let (Some(rating), Some(speed)) = (game.rating, game.speed.as_deref()) else { continue };
        let label = format!("{} {speed}", capitalised(&game.variant));
        let colour = SpeedClass::ALL.iter().position(|s| s.name() == speed).unwrap_or(0);
        match lines.iter_mut().find(|(l, _, _)| *l == label) {
            Some((_, _, points)) => points.push((game.updated_ms, rating.after)),
            None => lines.push((
                label,
                colour,
                vec![(game.updated_ms, rating.before), (game.updated_ms, rating.after)],
            )),
        }
    }
    if lines.is_empty() {
        return "<p>No rated games yet.</p>\n".to_string();
    }
    let values = lines.iter().flat_map(|(_, _, points)| points.iter().map(|&(_, r)| r));
    let (low, high) = values.fold((f64::MAX, f64::MIN), |(lo, hi), r| (lo.min(r), hi.max(r)));
    let (low, high) = (low - 20.0, high + 20.0);
    let y = |r: f64| GRAPH_HEIGHT - 10.0 - (r - low) / (high - low) * (GRAPH_HEIGHT - 20.0);
    let described: Vec<String> = lines
        .iter()
        .map(|(label, _, points)| {
            let (first, last) = (points[0].1, points[points.len() - 1].1);
            format!("{label}: {first:.0} to {last:.0} over {} games", points.len() - 1)
        })
        .collect();
    let mut svg = format!(
        "<figure class=\"rating-graph\">\n<svg viewBox=\"0 0 {GRAPH_WIDTH} {GRAPH_HEIGHT}\" role=\"img\" \
         aria-label=\"{}\" xmlns=\"http://www.w3.org/2000/svg\">\n\
         <text x=\"4\" y=\"14\" font-size=\"12\" fill=\"currentColor\">{high:.0}</text>\n\
         <text x=\"4\" y=\"{}\" font-size=\"12\" fill=\"currentColor\">{low:.0}</text>\n",
        escape(&described.join("; ")),
        GRAPH_HEIGHT - 4.0
    );
    for (label, colour, points) in &lines {
        let step = (GRAPH_WIDTH - 60.0) / (points.len() - 1).max(1) as f64;
        let path: Vec<String> = points
            .iter()
            .enumerate()
            .map(|(i, &(_, r))| format!("{:.1},{:.1}", 50.0 + step * i as f64, y(r)))
            .collect();
        let _ = writeln!(
            svg,
            "<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"2\" points=\"{}\"><title>{}</title></polyline>",
            LINE_COLOURS[*colour % LINE_COLOURS.len()],
            path.join(" "),
            escape(label)
        );
    }
    let _ = write!(svg, "</svg>\n<figcaption>{}</figcaption>\n</figure>\n", escape(&described.join("; ")));
    svg
}

fn games_table(games: &[UserGame]) -> String {
    if games.is_empty() {
        return "<p>No games yet.</p>\n".to_string();
    }
    let mut table = String::from(
        "<table class=\"games\">\n<thead><tr><th scope=\"col\">Game</th><th scope=\"col\">White</th>\
         <th scope=\"col\">Black</th><th scope=\"col\">Result</th><th scope=\"col\">Rating</th>\
         <th scope=\"col\">Played</th></tr></thead>\n<tbody>\n",
    );
    for game in games {
        let kind = format!(
            "{} {}{}",
            capitalised(&game.variant),
            game.speed.as_deref().unwrap_or("untimed"),
            if game.rated { ", rated" } else { "" }
        );
        let outcome = match game.outcome {
            Some("win") => "won",
            Some("loss") => "lost",
            Some("draw") => "drawn",
            _ if game.status == "playing" => "playing",
            _ => "–",
        };
        let change =
            game.rating.map_or("–".to_string(), |r| format!("{:.0} ({:+.0})", r.after, r.after - r.before));
        let player = |name: &Option<String>| escape(name.as_deref().unwrap_or("Anonymous"));
        let _ = writeln!(
            table,
            "<tr><td><a href=\"/g/{}\">{}</a></td><td>{}</td><td>{}</td><td>{} {}</td><td>{change}</td><td>{}</td></tr>",
            escape(&game.id),
            escape(&kind),
            player(&game.white),
            player(&game.black),
            outcome,
            escape(game.result.as_deref().unwrap_or("")),
            date(game.created_ms)
        );
    }
    table.push_str("</tbody>\n</table>\n");
    table
}

#[derive(Deserialize)]
pub struct BoardQuery {
    variant: Option<String>,
}

/// `GET /leaderboard?variant=V`: the best players of a variant (English by default), one
/// table per speed class.
pub async fn leaderboard(
    State(registry): State<Arc<Registry>>,
    query: Result<Query<BoardQuery>, QueryRejection>,
) -> Response {
    let body = async {
        let variant = match query.ok().and_then(|Query(q)| q.variant) {
            None => GameVariant::ENGLISH,
            Some(name) => name.parse().map_err(|e: crate::variant::UnknownVariant| {
                ApiError::bad_request(format!("No leaderboard: {e}."))
            })?,
        };
        let mut body = format!("<h1>Leaderboard: {}</h1>\n<nav class=\"variants\">", variant.title());
        for other in GameVariant::ALL {
            let _ =
                write!(body, " <a href=\"/leaderboard?variant={0}\">{1}</a>", other.name(), other.title());
        }
        body.push_str("</nav>\n<p>Players whose rating is settled (RD 110 or under).</p>\n");
        for speed in SpeedClass::ALL {
            let players =
                registry.store().leaderboard(variant, speed, now_ms(), BOARD_LEN).await.map_err(storage)?;
            let _ = writeln!(body, "<h2>{}</h2>", capitalised(speed.name()));
            if players.is_empty() {
                body.push_str("<p>Nobody yet.</p>\n");
                continue;
            }
            body.push_str(
                "<table class=\"leaderboard\">\n<thead><tr><th scope=\"col\">#</th><th scope=\"col\">Player</th>\
                 <th scope=\"col\">Rating</th><th scope=\"col\">Games</th></tr></thead>\n<tbody>\n",
            );
            for (rank, player) in players.iter().enumerate() {
                let name = escape(&player.name);
                let _ = writeln!(
                    body,
                    "<tr><td>{}</td><td><a href=\"/@/{name}\">{name}</a></td><td>{:.0} <small>±{:.0}</small></td><td>{}</td></tr>",
                    rank + 1,
                    player.rating,
                    player.rd,
                    player.games
                );
            }
            body.push_str("</tbody>\n</table>\n");
        }
        Ok::<_, ApiError>((format!("Leaderboard: {}", variant.title()), body))
    };
    match body.await {
        Ok((title, body)) => page(StatusCode::OK, &title, &body),
        Err(e) => error_page(&e),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping_leaves_no_markup() {
        assert_eq!(
            escape("<b a=\"1\" b='2'>&</b>"),
            "&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;&lt;/b&gt;"
        );
    }

    #[test]
    fn dates_are_civil_utc() {
        assert_eq!(date(0), "1970-01-01");
        assert_eq!(date(951_782_400_000), "2000-02-29");
        assert_eq!(date(1_767_225_599_999), "2025-12-31");
    }
}
