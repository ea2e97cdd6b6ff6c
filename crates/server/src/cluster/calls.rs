//! A game's commands as they travel to the node that owns it ([`GameCall`]), and the owner's
//! side: each call handed to the game's actor, in the order calls arrived, and its answer sent
//! back. A call for a game this node does not own is answered [`Answer::NotOwner`] and
//! changes nothing.

use std::net::IpAddr;
use std::sync::{Arc, Weak};

use serde::{Deserialize, Serialize};
use tokio::sync::{mpsc, oneshot};

use super::bus::{Answer, Request};
use super::Cluster;
use crate::actor::{Command, JoinRequest, SiteRule};
use crate::error::ApiError;
use crate::live::{color_name, parse_color, MoveRequest};
use crate::pairing::AccountId;
use crate::protocol::{DrawAction, TakebackAction};
use crate::rated::Account;

/// A command for a game's actor, without its reply channel (see [`Command`]).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "c", rename_all = "snake_case")]
pub enum GameCall {
    Snapshot,
    SeatOf {
        token_hash: String,
    },
    SeatOfAccount {
        account: AccountId,
    },
    Join {
        wanted: Option<String>,
        token_hash: String,
        name: Option<String>,
        invite_hash: Option<String>,
        account: Option<(AccountId, String)>,
    },
    Move {
        token_hash: String,
        request: MoveRequest,
        ply: Option<u32>,
    },
    Draw {
        token_hash: String,
        action: DrawAction,
    },
    Resign {
        token_hash: String,
    },
    Abort {
        token_hash: String,
    },
    Claim {
        token_hash: String,
        draw: bool,
    },
    Takeback {
        token_hash: String,
        action: TakebackAction,
    },
    Rematch {
        token_hash: String,
        client: IpAddr,
    },
    Expire,
    EndUnplayed,
    /// The calling node follows the game (its subscribers get the states), its players'
    /// connections there being `connected` (White's, Black's).
    Follow {
        connected: [bool; 2],
    },
    /// The calling node follows the game no more.
    Unfollow,
}

/// Where a command's answer comes, as the actor gives it.
pub(super) enum Pending {
    Text(oneshot::Receiver<Arc<str>>),
    Seat(oneshot::Receiver<Option<checkers_rules::Color>>),
    Hash(oneshot::Receiver<Option<String>>),
    Color(oneshot::Receiver<Result<checkers_rules::Color, ApiError>>),
    Ply(oneshot::Receiver<Result<u32, ApiError>>),
    Unit(oneshot::Receiver<Result<(), ApiError>>),
    NewGame(oneshot::Receiver<Result<Option<String>, ApiError>>),
    Flag(oneshot::Receiver<Result<bool, ApiError>>),
}

pub(super) fn done(value: impl Serialize) -> Answer {
    Answer::Done { value: serde_json::to_value(value).unwrap_or(serde_json::Value::Null) }
}

pub(super) fn refused(e: ApiError) -> Answer {
    Answer::Refused { code: e.code, message: e.message }
}

fn result<T: Serialize>(r: Result<Result<T, ApiError>, oneshot::error::RecvError>) -> Answer {
    match r {
        Ok(Ok(value)) => done(value),
        Ok(Err(e)) => refused(e),
        Err(_) => refused(ApiError::game_unavailable()),
    }
}

impl Pending {
    pub(super) async fn answer(self) -> Answer {
        let gone = || refused(ApiError::game_unavailable());
        match self {
            Pending::Text(rx) => rx.await.map_or_else(|_| gone(), |text| done(&*text)),
            Pending::Seat(rx) => rx.await.map_or_else(|_| gone(), |seat| done(seat.map(color_name))),
            Pending::Hash(rx) => rx.await.map_or_else(|_| gone(), done),
            Pending::Color(rx) => result(rx.await.map(|r| r.map(color_name))),
            Pending::Ply(rx) => result(rx.await),
            Pending::Unit(rx) => result(rx.await),
            Pending::NewGame(rx) => result(rx.await),
            Pending::Flag(rx) => result(rx.await),
        }
    }
}

/// The actor's command for a call from `node`, and where its answer will come.
pub(super) fn command_of(call: GameCall, node: &str) -> Result<(Command, Option<Pending>), ApiError> {
    Ok(match call {
        GameCall::Snapshot => {
            let (reply, rx) = oneshot::channel();
            (Command::Snapshot { reply }, Some(Pending::Text(rx)))
        }
        GameCall::SeatOf { token_hash } => {
            let (reply, rx) = oneshot::channel();
            (Command::SeatOf { token_hash, reply }, Some(Pending::Seat(rx)))
        }
        GameCall::SeatOfAccount { account } => {
            let (reply, rx) = oneshot::channel();
            (Command::SeatOfAccount { account, reply }, Some(Pending::Hash(rx)))
        }
        GameCall::Join { wanted, token_hash, name, invite_hash, account } => {
            let wanted = match wanted {
                Some(text) => Some(parse_color(&text).ok_or_else(|| ApiError::bad_request("colour"))?),
                None => None,
            };
            let account = account.map(|(id, name)| Account { id, name });
            let request = JoinRequest { wanted, token_hash, name, invite_hash, account };
            let (reply, rx) = oneshot::channel();
            (Command::Join { request, reply }, Some(Pending::Color(rx)))
        }
        GameCall::Move { token_hash, request, ply } => {
            let (reply, rx) = oneshot::channel();
            (Command::Move { token_hash, request, ply, reply }, Some(Pending::Ply(rx)))
        }
        GameCall::Draw { token_hash, action } => {
            let (reply, rx) = oneshot::channel();
            (Command::Draw { token_hash, action, reply }, Some(Pending::Unit(rx)))
        }
        GameCall::Resign { token_hash } => {
            let (reply, rx) = oneshot::channel();
            (Command::Resign { token_hash, reply }, Some(Pending::Unit(rx)))
        }
        GameCall::Abort { token_hash } => rule(token_hash, SiteRule::Abort),
        GameCall::Claim { token_hash, draw } => rule(token_hash, SiteRule::Claim { draw }),
        GameCall::Takeback { token_hash, action } => rule(token_hash, SiteRule::Takeback(action)),
        GameCall::Rematch { token_hash, client } => {
            let (reply, rx) = oneshot::channel();
            (Command::Rematch { token_hash, client, reply }, Some(Pending::NewGame(rx)))
        }
        GameCall::Expire => {
            let (reply, rx) = oneshot::channel();
            (Command::Expire { reply }, Some(Pending::Flag(rx)))
        }
        GameCall::EndUnplayed => {
            let (reply, rx) = oneshot::channel();
            (Command::EndUnplayed { reply }, Some(Pending::Flag(rx)))
        }
        GameCall::Follow { connected } => {
            (Command::Follow { node: node.to_string(), connected: Some(connected) }, None)
        }
        GameCall::Unfollow => (Command::Follow { node: node.to_string(), connected: None }, None),
    })
}

fn rule(token_hash: String, rule: SiteRule) -> (Command, Option<Pending>) {
    let (reply, rx) = oneshot::channel();
    (Command::Rule { token_hash, rule, reply }, Some(Pending::Unit(rx)))
}

/// The call for a command, and the command back when it is not one to pass on (a record
/// the asking node reads from the database itself). Replies of the command are turned into
/// a [`Responder`].
pub(super) fn call_of(command: Command) -> Result<(GameCall, Responder), Command> {
    Ok(match command {
        Command::Snapshot { reply } => (GameCall::Snapshot, Responder::Text(reply)),
        Command::SeatOf { token_hash, reply } => (GameCall::SeatOf { token_hash }, Responder::Seat(reply)),
        Command::SeatOfAccount { account, reply } => {
            (GameCall::SeatOfAccount { account }, Responder::Hash(reply))
        }
        Command::Join { request, reply } => {
            let JoinRequest { wanted, token_hash, name, invite_hash, account } = request;
            let wanted = wanted.map(|c| color_name(c).to_string());
            let account = account.map(|a| (a.id, a.name));
            (GameCall::Join { wanted, token_hash, name, invite_hash, account }, Responder::Color(reply))
        }
        Command::Move { token_hash, request, ply, reply } => {
            (GameCall::Move { token_hash, request, ply }, Responder::Ply(reply))
        }
        Command::Draw { token_hash, action, reply } => {
            (GameCall::Draw { token_hash, action }, Responder::Unit(reply))
        }
        Command::Resign { token_hash, reply } => (GameCall::Resign { token_hash }, Responder::Unit(reply)),
        Command::Rule { token_hash, rule, reply } => {
            let call = match rule {
                SiteRule::Abort => GameCall::Abort { token_hash },
                SiteRule::Claim { draw } => GameCall::Claim { token_hash, draw },
                SiteRule::Takeback(action) => GameCall::Takeback { token_hash, action },
            };
            (call, Responder::Unit(reply))
        }
        Command::Rematch { token_hash, client, reply } => {
            (GameCall::Rematch { token_hash, client }, Responder::NewGame(reply))
        }
        Command::Expire { reply } => (GameCall::Expire, Responder::Flag(reply)),
        Command::EndUnplayed { reply } => (GameCall::EndUnplayed, Responder::Flag(reply)),
        other => return Err(other),
    })
}

/// Where a passed-on command's answer goes on the asking node.
pub(super) enum Responder {
    Text(oneshot::Sender<Arc<str>>),
    Seat(oneshot::Sender<Option<checkers_rules::Color>>),
    Hash(oneshot::Sender<Option<String>>),
    Color(oneshot::Sender<Result<checkers_rules::Color, ApiError>>),
    Ply(oneshot::Sender<Result<u32, ApiError>>),
    Unit(oneshot::Sender<Result<(), ApiError>>),
    NewGame(oneshot::Sender<Result<Option<String>, ApiError>>),
    Flag(oneshot::Sender<Result<bool, ApiError>>),
}

fn value<T: serde::de::DeserializeOwned>(answer: Answer) -> Result<T, ApiError> {
    match answer {
        Answer::Done { value } => serde_json::from_value(value).map_err(|_| ApiError::game_unavailable()),
        Answer::Refused { code, message } => Err(ApiError::new(code, message)),
        Answer::NotOwner => Err(ApiError::game_unavailable()),
    }
}

fn color(answer: Answer) -> Result<checkers_rules::Color, ApiError> {
    let text: String = value(answer)?;
    parse_color(&text).ok_or_else(ApiError::game_unavailable)
}

impl Responder {
    /// Gives the owner's answer to whoever asked (an answer that cannot be read is
    /// `unavailable`; where the reply has no error, it is dropped).
    pub fn answer(self, answer: Answer) {
        match self {
            Responder::Text(reply) => {
                if let Ok(text) = value::<String>(answer) {
                    let _ = reply.send(Arc::from(text));
                }
            }
            Responder::Seat(reply) => {
                if let Ok(seat) = value::<Option<String>>(answer) {
                    let _ = reply.send(seat.as_deref().and_then(parse_color));
                }
            }
            Responder::Hash(reply) => {
                if let Ok(hash) = value(answer) {
                    let _ = reply.send(hash);
                }
            }
            Responder::Color(reply) => {
                let _ = reply.send(color(answer));
            }
            Responder::Ply(reply) => {
                let _ = reply.send(value(answer));
            }
            Responder::Unit(reply) => {
                let _ = reply.send(value::<()>(answer));
            }
            Responder::NewGame(reply) => {
                let _ = reply.send(value(answer));
            }
            Responder::Flag(reply) => {
                let _ = reply.send(value(answer));
            }
        }
    }

    /// Answers that the game cannot be reached.
    pub fn unavailable(self) {
        self.answer(Answer::Refused {
            code: crate::error::ErrorCode::Unavailable,
            message: ApiError::game_unavailable().message,
        });
    }
}

/// Hands each call to its game's actor, in the order they came, and sends the answers back as
/// they come; ends with the cluster.
pub(super) async fn answer_all(
    cluster: Weak<Cluster>,
    mut queue: mpsc::UnboundedReceiver<(String, u64, Request)>,
) {
    while let Some((from, call, request)) = queue.recv().await {
        let Some(cluster) = cluster.upgrade() else { return };
        let Some(registry) = cluster.registry() else { return };
        let (game, game_call) = match request {
            Request::Game { game, call } => (game, call),
            Request::Challenge { call: challenge } => {
                // Starting a game writes to the database: the game calls behind it do not wait.
                tokio::spawn(async move {
                    let answer = super::pairing::answer(&registry, challenge).await;
                    cluster.bus.answer(&from, call, answer);
                });
                continue;
            }
        };
        let answer = match command_of(game_call, &from) {
            Err(e) => Some(refused(e)),
            Ok((command, pending)) => match registry.owned_handle(&game).await {
                None => Some(Answer::NotOwner),
                Some(handle) => {
                    if handle.commands.send(command).await.is_err() {
                        Some(Answer::NotOwner)
                    } else if let Some(pending) = pending {
                        let (cluster, from) = (cluster.clone(), from.clone());
                        tokio::spawn(async move {
                            let answer = pending.answer().await;
                            cluster.bus.answer(&from, call, answer);
                        });
                        None
                    } else {
                        Some(done(()))
                    }
                }
            },
        };
        if let Some(answer) = answer {
            cluster.bus.answer(&from, call, answer);
        }
    }
}
