//! The node's phase as its load balancer sees it: starting, ready, or draining. `/readyz`
//! answers from it, and a drain tells every WebSocket to close with 1001 (going away).
//! Built for one node; with several, a drained node's games will be handed over instead of
//! merely left in the database.

use std::time::Duration;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use tokio::sync::watch;

/// How long a draining node keeps listening, answering `/readyz` with 503, before it closes
/// its listener: time for a load balancer to see it go.
pub const DRAIN_GRACE: Duration = Duration::from_secs(1);

/// Where the node is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The database is not open yet, or the listener not bound.
    Starting,
    /// Takes connections and games.
    Ready,
    /// Stopping: takes no new WebSocket, closes those open, lets pending commits finish.
    Draining,
}

impl Phase {
    /// What `/readyz` says: 200 only when ready, with a word on why not otherwise.
    pub fn readiness(self) -> (u16, &'static str) {
        match self {
            Phase::Starting => (503, "starting\n"),
            Phase::Ready => (200, "ready\n"),
            Phase::Draining => (503, "draining\n"),
        }
    }
}

/// The phase, shared by the routes, the WebSockets and the code that drains the node.
#[derive(Clone)]
pub struct Drain {
    phase: watch::Sender<Phase>,
}

impl Default for Drain {
    fn default() -> Drain {
        Drain { phase: watch::Sender::new(Phase::Starting) }
    }
}

impl Drain {
    pub fn phase(&self) -> Phase {
        *self.phase.borrow()
    }

    /// The database is open and the listener bound.
    pub fn set_ready(&self) {
        self.phase.send_if_modified(|phase| {
            let was_starting = *phase == Phase::Starting;
            if was_starting {
                *phase = Phase::Ready;
            }
            was_starting
        });
    }

    /// Starts draining (once; a node never becomes ready again).
    pub fn start(&self) {
        self.phase.send_replace(Phase::Draining);
    }

    /// Completes once the node drains (at once if it already does).
    pub fn draining(&self) -> impl std::future::Future<Output = ()> + Send + 'static {
        let mut phase = self.phase.subscribe();
        async move {
            let _ = phase.wait_for(|phase| *phase == Phase::Draining).await;
        }
    }
}

/// `GET /readyz`: 200 `ready` when the node takes games, else 503 `starting` or `draining`.
pub async fn readyz(Extension(drain): Extension<Drain>) -> Response {
    let (status, body) = drain.phase().readiness();
    (StatusCode::from_u16(status).unwrap_or(StatusCode::SERVICE_UNAVAILABLE), body).into_response()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_node_is_ready_once_started_and_never_again_once_draining() {
        let drain = Drain::default();
        assert_eq!(drain.phase().readiness(), (503, "starting\n"));
        drain.set_ready();
        assert_eq!(drain.phase().readiness(), (200, "ready\n"));
        let waiting = tokio::spawn(drain.draining());
        drain.start();
        waiting.await.unwrap();
        drain.set_ready();
        assert_eq!(drain.phase().readiness(), (503, "draining\n"));
    }
}
