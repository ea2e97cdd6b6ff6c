//! A game run by another node, as this node holds it: a stand-in task in the actor's place.
//! Its handle looks like an actor's to the rest of the server; it passes each command on to
//! the owner as a call (in order, one at a time), feeds the states the owner sends to this
//! node's subscribers, and tells the owner which players are connected here. When the owner
//! dies or drains, the stand-in asks who runs the game now, and claims it if nobody does: the
//! game then runs here, on the same subscribers, and the commands still queued go to its new
//! actor. Records (PDN, the moves) are read from the database, where every move is.

use std::sync::Arc;

use tokio::sync::{broadcast, mpsc};

use super::bus::{Answer, Request};
use super::calls::{call_of, command_of, GameCall};
use super::{Cluster, Owner};
use crate::actor::{Command, GameHandle};
use crate::live::Status;
use crate::pdn::game_record;
use crate::presence::Presence;
use crate::registry::Registry;
use crate::store::now_ms;

/// Calls of one command before it is answered `unavailable` (each waits up to
/// [`super::bus::CALL_TIMEOUT`]): long enough for a dead owner's games to be taken over.
const ATTEMPTS: usize = 5;

/// The stand-in of a game another node runs.
pub struct RemoteGame {
    registry: Arc<Registry>,
    cluster: Arc<Cluster>,
    id: String,
    owner: String,
    /// The owner last told that this node follows the game.
    followed: Option<String>,
    updates: broadcast::Sender<Arc<str>>,
    presence: Arc<Presence>,
}

impl RemoteGame {
    /// Starts the stand-in of game `id`, run by `owner`; returns its handle.
    pub fn start(registry: Arc<Registry>, cluster: Arc<Cluster>, id: &str, owner: String) -> GameHandle {
        let (commands, receiver) = mpsc::channel(64);
        let (updates, _) = broadcast::channel(16);
        let presence = Arc::new(Presence::default());
        let handle =
            GameHandle { commands, updates: updates.clone(), presence: presence.clone(), remote: true };
        let stand_in =
            RemoteGame { registry, cluster, id: id.to_string(), owner, followed: None, updates, presence };
        tokio::spawn(stand_in.run(receiver));
        handle
    }

    async fn run(mut self, mut commands: mpsc::Receiver<Command>) {
        let mut gone = self.cluster.gone_watch();
        let idle_unload = self.registry.limits.idle_unload;
        let mut idle_since = tokio::time::Instant::now();
        let mut local = self.follow().await;
        loop {
            if let Some(local) = local.take() {
                // The game runs here now: what is still queued goes to its actor.
                tokio::spawn(pipe(commands, local));
                return;
            }
            tokio::select! {
                command = commands.recv() => {
                    let Some(command) = command else { break };
                    idle_since = tokio::time::Instant::now();
                    local = self.deliver(command).await;
                }
                _ = self.presence.changed() => local = self.follow().await,
                _ = gone.changed() => {
                    if self.cluster.is_gone(&self.owner) {
                        local = self.follow().await;
                    }
                }
                _ = tokio::time::sleep_until(idle_since + idle_unload) => {
                    if self.updates.receiver_count() == 0 {
                        self.registry.unload_stand_in(&self.id);
                        let request = Request::Game { game: self.id.clone(), call: GameCall::Unfollow };
                        self.cluster.bus.send(&self.owner, &super::bus::Envelope::Call {
                            from: self.cluster.node.clone(), call: 0, request,
                        });
                        break;
                    }
                    idle_since = tokio::time::Instant::now();
                }
            }
        }
    }

    /// Tells the owner this node follows the game and who is connected here; finds the
    /// owner again if it is gone or does not answer. Returns the game's actor if it runs here
    /// now. A new owner's first state is fetched and passed on: whatever changed between
    /// the owners reaches the subscribers.
    async fn follow(&mut self) -> Option<GameHandle> {
        for _ in 0..ATTEMPTS {
            if self.cluster.is_gone(&self.owner) {
                if let Some(local) = self.resolve().await {
                    return Some(local);
                }
                continue;
            }
            let connected = self.presence.connected();
            let request = Request::Game { game: self.id.clone(), call: GameCall::Follow { connected } };
            match self.cluster.call(&self.owner, request).await {
                Some(Answer::Done { .. } | Answer::Refused { .. }) => {
                    if self.followed.replace(self.owner.clone()).is_some_and(|before| before != self.owner) {
                        self.catch_up().await;
                    }
                    return None;
                }
                Some(Answer::NotOwner) | None => {
                    if let Some(local) = self.resolve().await {
                        return Some(local);
                    }
                }
            }
        }
        None
    }

    /// Passes the owner's state as of now to the subscribers here.
    async fn catch_up(&self) {
        let request = Request::Game { game: self.id.clone(), call: GameCall::Snapshot };
        if let Some(Answer::Done { value: serde_json::Value::String(text) }) =
            self.cluster.call(&self.owner, request).await
        {
            let _ = self.updates.send(Arc::from(text));
        }
    }

    /// Asks who runs the game now, taking it if nobody does; its actor if it runs here.
    async fn resolve(&mut self) -> Option<GameHandle> {
        match self.cluster.claim(&self.id).await {
            Ok(Owner::Node(node)) => {
                if node == self.owner || self.cluster.is_gone(&node) {
                    // Not yet taken over: wait a little before asking again.
                    tokio::time::sleep(super::RENEW / 2).await;
                }
                self.owner = node;
                None
            }
            Ok(Owner::ThisNode) => self.become_local().await,
            Err(e) => {
                tracing::warn!("finding who runs game {}: {e}", self.id);
                tokio::time::sleep(super::RENEW / 2).await;
                None
            }
        }
    }

    /// Finds who runs the game now and follows it there; the game's actor if it runs here.
    async fn find_owner(&mut self) -> Option<GameHandle> {
        let before = self.owner.clone();
        if let Some(local) = self.resolve().await {
            return Some(local);
        }
        if self.owner != before {
            return self.follow().await;
        }
        None
    }

    /// Loads the game and runs it here, for the same subscribers.
    async fn become_local(&mut self) -> Option<GameHandle> {
        match self.registry.store.load_game(&self.id).await {
            Ok(Some(mut game)) => {
                game.resume_clock(now_ms());
                tracing::info!("game {} taken over from node {}", self.id, self.owner);
                Some(self.registry.spawn_attached(game, self.updates.clone(), self.presence.clone()))
            }
            Ok(None) => {
                self.cluster.release(&self.id).await;
                None
            }
            Err(e) => {
                tracing::warn!("loading game {} to take it over: {e}", self.id);
                self.cluster.release(&self.id).await;
                None
            }
        }
    }

    /// Passes a command on to the owner and its answer back; returns the game's actor if the
    /// game came to run here meanwhile (the command was then given to it).
    async fn deliver(&mut self, command: Command) -> Option<GameHandle> {
        let (call, responder) = match call_of(command) {
            Ok(passed) => passed,
            Err(command) => {
                self.answer_from_store(command).await;
                return None;
            }
        };
        for _ in 0..ATTEMPTS {
            let request = Request::Game { game: self.id.clone(), call: call.clone() };
            let answer = match self.cluster.is_gone(&self.owner) {
                true => None,
                false => self.cluster.call(&self.owner, request).await,
            };
            match answer {
                Some(Answer::NotOwner) | None => {
                    if let Some(local) = self.find_owner().await {
                        if let Ok((command, Some(pending))) = command_of(call, &self.cluster.node) {
                            if local.commands.send(command).await.is_ok() {
                                tokio::spawn(async move { responder.answer(pending.answer().await) });
                                return Some(local);
                            }
                        }
                        responder.unavailable();
                        return Some(local);
                    }
                }
                Some(answer) => {
                    responder.answer(answer);
                    return None;
                }
            }
        }
        responder.unavailable();
        None
    }

    /// Answers the commands that read the game's record, from the database.
    async fn answer_from_store(&self, command: Command) {
        let game = match self.registry.store.load_game(&self.id).await {
            Ok(Some(game)) => game,
            Ok(None) | Err(_) => return,
        };
        match command {
            Command::Pdn { reply } => {
                let _ = reply.send(game_record(&game));
            }
            Command::Record { reply } => {
                let _ = reply.send((game.game.clone(), game.status == Status::Finished));
            }
            _ => {}
        }
    }
}

/// Hands the commands queued for a stand-in to the game's actor once it runs here.
async fn pipe(mut commands: mpsc::Receiver<Command>, local: GameHandle) {
    while let Some(command) = commands.recv().await {
        if local.commands.send(command).await.is_err() {
            break;
        }
    }
}
