//! The engine's look at finished games: the review of every move, and the best lines in a
//! position. Both run on the computer pool one at a time, behind a short queue (reviews take
//! seconds of a core each, and the computer's moves in games being played must not wait
//! behind a crowd of them) in which each client holds at most a small share of the places, and
//! both are kept once made, as a finished game no longer changes.

use std::collections::HashMap;
use std::future::Future;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use checkers_engine::review::{score_text, tally, MoveReview};
use checkers_rules::Color;
use tokio::sync::{MutexGuard, Semaphore, SemaphorePermit};

use crate::computer::ComputerPool;
use crate::error::{ApiError, ErrorCode};
use crate::limits::{Shares, REVIEWS_PER_CLIENT};
use crate::protocol::{to_text, BestLine, LinesBody, ReviewBody, ReviewedMove, SideReview};
use crate::registry::lock;
use crate::rules::{AnyGame, AnyMove};
use crate::variant::GameVariant;

/// Nodes the engine searches in each position of a reviewed game (about 0.02 s).
const REVIEW_NODES: u64 = 200_000;
/// Reviews kept in memory; past this many, the memory starts again empty.
const REVIEWS_KEPT: usize = 1_000;
/// Nodes the engine searches for a finished game's position's best lines (about 0.05 s).
const LINES_NODES: u64 = 300_000;
/// How many of a position's best moves the lines show.
const LINES_SHOWN: usize = 3;
/// Positions' lines kept in memory; past this many, the memory starts again empty.
const LINES_KEPT: usize = 10_000;
/// Review requests waiting or running at once; past this, more are refused as `busy`.
const REVIEW_QUEUE: usize = 8;

/// A finished game's review, kept: as the page reads it, and each move's comment for the PDN
/// download.
pub struct Reviewed {
    pub json: Arc<str>,
    pub comments: Vec<String>,
}

impl Reviewed {
    /// The JSON gives per move its text, its route and the position after it (so the page can
    /// step through the game), the score after it for the side that played it, the verdict,
    /// the engine's move and what it kept, and the comment; and per side the count of
    /// mistakes and blunders and the average loss.
    fn new(id: &str, game: &AnyGame, reviews: &[MoveReview<AnyMove>]) -> Reviewed {
        let text_of =
            |ply: usize, mv: &AnyMove| game.describe(ply, mv).map(|info| info.text).unwrap_or_default();
        // The engine's move in each comment, written as the variant writes moves.
        let comments: Vec<String> = reviews
            .iter()
            .enumerate()
            .map(|(ply, review)| review.comment_with(&text_of(ply, &review.best)))
            .collect();
        let moves = reviews
            .iter()
            .zip(&comments)
            .enumerate()
            .map(|(ply, (review, comment))| {
                let played = game.describe(ply, &review.played);
                ReviewedMove {
                    text: played.as_ref().map(|info| info.text.clone()).unwrap_or_default(),
                    route: played.map(|info| info.route).unwrap_or_default(),
                    fen: game.fen_at(ply + 1).unwrap_or_default(),
                    score: score_text(review.score),
                    verdict: review.verdict.into(),
                    best: text_of(ply, &review.best),
                    best_score: score_text(review.best_score),
                    comment: comment.clone(),
                }
            })
            .collect();
        let side = |color| {
            let t = tally(reviews, color);
            SideReview {
                mistakes: t.mistakes,
                blunders: t.blunders,
                average_loss: t.average_loss.round() / 100.0,
            }
        };
        let body = ReviewBody {
            game: id.to_string(),
            nodes: REVIEW_NODES,
            moves,
            white: side(Color::White),
            black: side(Color::Black),
        };
        Reviewed { json: Arc::from(to_text(&body)), comments }
    }
}

/// Reviews run one at a time, in the order asked, with a bounded number waiting, and at most
/// `share` of them from one client: a client asking in a loop cannot fill the queue.
struct ReviewQueue {
    places: Semaphore,
    capacity: usize,
    share: usize,
    /// Places held, by client.
    held: Shares,
    turn: tokio::sync::Mutex<()>,
}

/// A client's place in the queue, given back when dropped.
struct Place<'a> {
    queue: &'a ReviewQueue,
    client: IpAddr,
    _permit: SemaphorePermit<'a>,
}

impl Drop for Place<'_> {
    fn drop(&mut self) {
        self.queue.held.give_back(self.client);
    }
}

impl ReviewQueue {
    fn new(places: usize, share: usize) -> ReviewQueue {
        ReviewQueue {
            places: Semaphore::new(places),
            capacity: places,
            share,
            held: Shares::default(),
            turn: tokio::sync::Mutex::new(()),
        }
    }

    /// Requests holding a place but not yet running (one runs while the turn is taken).
    fn waiting(&self) -> usize {
        let held = self.capacity - self.places.available_permits();
        let running = usize::from(self.turn.try_lock().is_err());
        held.saturating_sub(running)
    }

    /// A place in the queue for `client`: `rate_limited` when it holds its share already,
    /// `busy` when the queue is full.
    fn try_place(&self, client: IpAddr) -> Result<Place<'_>, ApiError> {
        if !self.held.take(client, self.share) {
            let share = self.share;
            let refusal =
                format!("{share} of your reviews or lines already wait or run: ask again once they are done");
            return Err(ApiError::rate_limited(refusal));
        }
        match self.places.try_acquire() {
            Ok(permit) => Ok(Place { queue: self, client, _permit: permit }),
            Err(_) => {
                self.held.give_back(client);
                Err(ApiError::busy())
            }
        }
    }

    /// A place in the queue, then the turn once the work ahead is done; both held until the
    /// returned pair is dropped.
    async fn enter(&self, client: IpAddr) -> Result<(Place<'_>, MutexGuard<'_, ()>), ApiError> {
        let place = self.try_place(client)?;
        Ok((place, self.turn.lock().await))
    }
}

/// Keeps `value` under `key`; past `bound` entries the memory starts again empty.
fn keep<K: Eq + std::hash::Hash, V>(kept: &Mutex<HashMap<K, V>>, bound: usize, key: K, value: V) {
    let mut kept = lock(kept);
    if kept.len() >= bound {
        kept.clear();
    }
    kept.insert(key, value);
}

/// The reviews and lines made so far, and the queue for making more.
pub struct Reviews {
    computer: ComputerPool,
    /// Reviews of finished games by id.
    reviews: Mutex<HashMap<String, Arc<Reviewed>>>,
    /// The engine's lines in finished games' positions, by id and ply.
    lines: Mutex<HashMap<(String, usize), Arc<str>>>,
    /// The analysis board's positions by variant and FEN.
    analyses: Mutex<HashMap<(GameVariant, String), Arc<str>>>,
    queue: ReviewQueue,
}

impl Reviews {
    pub fn new(computer: ComputerPool) -> Reviews {
        Reviews {
            computer,
            reviews: Mutex::new(HashMap::new()),
            lines: Mutex::new(HashMap::new()),
            analyses: Mutex::new(HashMap::new()),
            queue: ReviewQueue::new(REVIEW_QUEUE, REVIEWS_PER_CLIENT),
        }
    }

    /// Reviews, lines and analyses waiting for their turn.
    pub fn waiting(&self) -> usize {
        self.queue.waiting()
    }

    /// A finished game's review, made from its `record` unless already kept (the record is
    /// only read if needed); `client` asks, and waits in its share of the queue.
    pub async fn review(
        &self,
        id: &str,
        client: IpAddr,
        record: impl Future<Output = Result<AnyGame, ApiError>>,
    ) -> Result<Arc<Reviewed>, ApiError> {
        if let Some(known) = lock(&self.reviews).get(id) {
            return Ok(known.clone());
        }
        let game = record.await?;
        let _turn = self.queue.enter(client).await?;
        if let Some(known) = lock(&self.reviews).get(id) {
            return Ok(known.clone()); // made while this request waited
        }
        let reviews = self
            .computer
            .review(game.clone(), REVIEW_NODES)
            .await
            .ok_or_else(ApiError::engine_unavailable)?;
        let made = Arc::new(Reviewed::new(id, &game, &reviews));
        keep(&self.reviews, REVIEWS_KEPT, id.to_string(), made.clone());
        Ok(made)
    }

    /// The engine's best moves in the position after `ply` moves of a finished game (0: the
    /// start), as JSON, made from the game's `record` unless already kept; `client` asks, as
    /// for a review.
    pub async fn lines(
        &self,
        id: &str,
        ply: usize,
        client: IpAddr,
        record: impl Future<Output = Result<AnyGame, ApiError>>,
    ) -> Result<Arc<str>, ApiError> {
        let key = (id.to_string(), ply);
        if let Some(known) = lock(&self.lines).get(&key) {
            return Ok(known.clone());
        }
        let game = record.await?;
        if ply > game.plies() {
            let moves = game.plies();
            let refusal = format!("the game has {moves} moves: ply must be 0 to {moves}");
            return Err(ApiError::new(ErrorCode::BadPly, refusal));
        }
        let position = game.truncated(ply);
        let _turn = self.queue.enter(client).await?;
        if let Some(known) = lock(&self.lines).get(&key) {
            return Ok(known.clone()); // made while this request waited
        }
        let fen = position.fen();
        let (depth, lines) = self.best_lines(position).await?;
        let body = LinesBody { game: id.to_string(), ply, fen, nodes: LINES_NODES, depth, lines };
        let text: Arc<str> = Arc::from(to_text(&body));
        keep(&self.lines, LINES_KEPT, key, text.clone());
        Ok(text)
    }
}

impl Reviews {
    /// The engine's best lines in `game`'s position now (reached through its moves), and the
    /// depth they come from. The caller holds its turn in the queue.
    async fn best_lines(&self, game: AnyGame) -> Result<(u32, Vec<BestLine>), ApiError> {
        let infos = self
            .computer
            .lines(game.clone(), LINES_NODES, LINES_SHOWN)
            .await
            .ok_or_else(ApiError::engine_unavailable)?;
        let ply = game.plies();
        let lines = infos
            .iter()
            .map(|info| {
                let first = info.pv.first().and_then(|m| game.describe(ply, m));
                BestLine {
                    first: first.as_ref().map(|m| m.text.clone()),
                    route: first.map(|m| m.route).unwrap_or_default(),
                    score: score_text(info.score),
                    line: game.line_text(ply, &info.pv),
                }
            })
            .collect();
        Ok((infos.first().map_or(0, |i| i.depth), lines))
    }

    /// The analysis board's answer for a position anyone gives (see [`crate::analysis`]):
    /// its legal moves and the engine's lines, kept once made; `client` asks, as for a
    /// review.
    pub async fn analyse(&self, position: AnyGame, client: IpAddr) -> Result<Arc<str>, ApiError> {
        let key = (position.variant(), position.fen());
        if let Some(known) = lock(&self.analyses).get(&key) {
            return Ok(known.clone());
        }
        let _turn = self.queue.enter(client).await?;
        if let Some(known) = lock(&self.analyses).get(&key) {
            return Ok(known.clone()); // made while this request waited
        }
        let (depth, lines) = self.best_lines(position.clone()).await?;
        let body = crate::analysis::AnalysisBody::new(&position, LINES_NODES, depth, lines);
        let text: Arc<str> = Arc::from(to_text(&body));
        keep(&self.analyses, LINES_KEPT, key, text.clone());
        Ok(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn client(n: u8) -> IpAddr {
        IpAddr::from([192, 0, 2, n])
    }

    #[test]
    fn a_full_review_queue_refuses_at_once_and_frees_its_places() {
        let queue = ReviewQueue::new(2, 2);
        let first = queue.try_place(client(1)).unwrap();
        let second = queue.try_place(client(2)).unwrap();
        assert_eq!(queue.try_place(client(3)).err().map(|e| e.code), Some(ErrorCode::Busy));
        drop(first);
        assert!(queue.try_place(client(3)).is_ok());
        drop(second);
    }

    #[test]
    fn a_client_past_its_share_is_refused_and_the_other_places_stay_free() {
        let queue = ReviewQueue::new(4, 2);
        let mine = [queue.try_place(client(1)).unwrap(), queue.try_place(client(1)).unwrap()];
        assert_eq!(queue.try_place(client(1)).err().map(|e| e.code), Some(ErrorCode::RateLimited));
        let others = [queue.try_place(client(2)).unwrap(), queue.try_place(client(3)).unwrap()];
        drop(mine);
        assert_eq!(queue.held.held(client(1)), 0, "a client's count goes when its places do");
        assert!(queue.try_place(client(1)).is_ok());
        drop(others);
    }
}
