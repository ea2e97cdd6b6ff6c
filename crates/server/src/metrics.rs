//! The node's Prometheus metrics, served at `/metrics` in the text exposition format. One
//! set per process (a process runs one node); gauges that are a count of something the
//! registry holds (live games, engine queues) are read when scraped, the others are kept as
//! things happen. Names are `checkers_*` with their unit; the list is in docs/operations.md.

use std::sync::{Arc, LazyLock};
use std::time::Duration;

use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use prometheus::{
    Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, IntGaugeVec, Opts, TextEncoder,
};

use crate::registry::Registry;

/// Bounds of the latency histograms' buckets, in seconds: half a millisecond to ten seconds.
const LATENCY_BUCKETS: [f64; 14] =
    [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0];

/// Every metric of the node.
pub struct Metrics {
    registry: prometheus::Registry,
    /// WebSocket connections open now.
    pub connections: IntGauge,
    /// Games held in memory (set when scraped).
    live_games: IntGauge,
    /// Moves committed, players' and the computer's.
    pub moves: IntCounter,
    /// From a `move` message read to its confirmation (committed) sent back.
    pub move_round_trip: Histogram,
    /// One database transaction of the writer (a group of changes), begin to commit.
    pub commit_latency: Histogram,
    /// Engine jobs waiting, by queue (set when scraped).
    engine_waiting: IntGaugeVec,
    /// Nodes found dead by this node, whose games were then taken over.
    pub failovers: IntCounter,
    /// Messages sent to one other node, by path: `link` (direct) or `notify` (the database).
    pub cluster_messages: IntCounterVec,
}

/// The process's metrics.
pub static METRICS: LazyLock<Metrics> = LazyLock::new(Metrics::new);

impl Metrics {
    fn new() -> Metrics {
        let registry = prometheus::Registry::new();
        let latency = |name: &str, help: &str| {
            Histogram::with_opts(HistogramOpts::new(name, help).buckets(LATENCY_BUCKETS.to_vec()))
                .expect("a valid histogram")
        };
        let metrics = Metrics {
            connections: IntGauge::new("checkers_websocket_connections", "WebSocket connections open")
                .expect("a valid gauge"),
            live_games: IntGauge::new("checkers_live_games", "Games held in memory").expect("a valid gauge"),
            moves: IntCounter::new("checkers_moves_total", "Moves committed (players' and the computer's)")
                .expect("a valid counter"),
            move_round_trip: latency(
                "checkers_move_round_trip_seconds",
                "From a move message read to its confirmation, once committed",
            ),
            commit_latency: latency(
                "checkers_db_commit_seconds",
                "One database transaction of the writer, from begin to commit",
            ),
            failovers: IntCounter::new(
                "checkers_failovers_total",
                "Nodes this node found dead, whose games were then taken over",
            )
            .expect("a valid counter"),
            cluster_messages: IntCounterVec::new(
                Opts::new(
                    "checkers_cluster_messages_total",
                    "Messages sent to one other node, by path (link: direct, notify: through the database)",
                ),
                &["path"],
            )
            .expect("a valid counter"),
            engine_waiting: IntGaugeVec::new(
                Opts::new("checkers_engine_jobs_waiting", "Engine jobs waiting, by queue (moves, reviews)"),
                &["queue"],
            )
            .expect("a valid gauge"),
            registry,
        };
        let all: [Box<dyn prometheus::core::Collector>; 8] = [
            Box::new(metrics.connections.clone()),
            Box::new(metrics.live_games.clone()),
            Box::new(metrics.moves.clone()),
            Box::new(metrics.move_round_trip.clone()),
            Box::new(metrics.commit_latency.clone()),
            Box::new(metrics.engine_waiting.clone()),
            Box::new(metrics.failovers.clone()),
            Box::new(metrics.cluster_messages.clone()),
        ];
        for collector in all {
            metrics.registry.register(collector).expect("metric names are unique");
        }
        metrics
    }

    /// The text exposition of every metric, the gauges read from `registry` now.
    pub fn render(&self, registry: &Registry) -> String {
        self.live_games.set(registry.games_in_memory() as i64);
        let (moves, reviews) = registry.engine_jobs_waiting();
        self.engine_waiting.with_label_values(&["moves"]).set(moves as i64);
        self.engine_waiting.with_label_values(&["reviews"]).set(reviews as i64);
        TextEncoder::new().encode_to_string(&self.registry.gather()).unwrap_or_default()
    }
}

/// `GET /metrics`: every metric, in Prometheus's text format.
pub async fn scrape(State(registry): State<Arc<Registry>>) -> Response {
    let text = METRICS.render(&registry);
    ([(header::CONTENT_TYPE, HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"))], text)
        .into_response()
}

/// Counts an open WebSocket for as long as it lives.
pub struct OpenConnection(());

impl OpenConnection {
    pub fn open() -> OpenConnection {
        METRICS.connections.inc();
        OpenConnection(())
    }
}

impl Drop for OpenConnection {
    fn drop(&mut self) {
        METRICS.connections.dec();
    }
}

/// Records `elapsed` in `histogram`, in seconds.
pub fn observe(histogram: &Histogram, elapsed: Duration) {
    histogram.observe(elapsed.as_secs_f64());
}
