//! The DXP conversation as a state machine: each message received (or our own move) gives
//! the messages to send, what happened, and what the program must do next.
//!
//! The roles: the **initiator** asks for games (GAMEREQ) and the **follower** answers them
//! (GAMEACC). Then MOVE messages alternate, the side to move sending; a GAMEEND sent on the
//! sender's turn ends the game and is acknowledged by a GAMEEND. CHAT may come at any time;
//! BACKREQ asks to go back to an earlier move and is answered by BACKACC.

use std::time::Duration;

use checkers_rules::board::{Board, BoardGame, BoardMove, RuleSet};
use checkers_rules::{Color, PdnResult};

use super::error::{MessageError, SessionError};
use super::message::{
    AcceptCode, BackAnswer, BackRequest, EndReason, GameAccept, GameEnd, GameRequest, Message, MoveMessage,
    Text, PROTOCOL_VERSION,
};
use super::table::{board_from_dxp, dxp_position, move_message, result_of, FinishedGame, Table};
use crate::limits::Clock;

/// Which side of the conversation we are.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// Asks for the games (connects, in the SOCKET protocol's custom).
    Initiator,
    /// Answers requests for games (listens).
    Follower,
}

/// What the initiator asks for in a GAMEREQ.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSettings<V: RuleSet> {
    /// The start position (sent as `A` when it is the variant's start).
    pub start: Board<V>,
    /// The colour we play; the follower plays the other.
    pub ours: Color,
    /// Thinking time of each side for the whole game, in minutes (0-999; 0 for none).
    pub minutes: u16,
    /// The number of moves of the game (0-999; 0 for no limit).
    pub moves: u16,
}

/// What the program does once the messages of a [`Reply`] are sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Next {
    /// Wait for the next message.
    Wait,
    /// It is our move: choose one in [`Session::to_move`] and give it to [`Session::play`].
    Think,
    /// (Initiator.) No game is on: ask for the next with [`Session::request_game`], or close.
    RequestGame,
    /// The conversation is over: close the connection.
    Close,
}

/// Something that happened, for the program to log or record.
#[derive(Clone, Debug)]
pub enum Event<V: RuleSet> {
    /// A game began: its number, our colour, the peer's name and the game's terms.
    GameStarted { number: u32, ours: Color, peer: String, start: Board<V>, minutes: u16, moves: u16 },
    /// The peer played this move (long PDN form).
    PeerMoved(String),
    /// We played this move.
    Played(String),
    /// A game ended.
    GameEnded(Box<FinishedGame<V>>),
    /// The peer's CHAT.
    Chat(String),
    /// We refused a message of the peer's; a CHAT `error: ...` told it why.
    Refused(String),
    /// The follower declined our GAMEREQ.
    Declined(AcceptCode),
    /// The game went back to this many plies (a BACKREQ).
    TookBack(usize),
}

/// What one message (or our move) brings.
#[derive(Clone, Debug)]
pub struct Reply<V: RuleSet> {
    pub send: Vec<Message>,
    pub events: Vec<Event<V>>,
    pub next: Next,
}

impl<V: RuleSet> Reply<V> {
    fn new() -> Reply<V> {
        Reply { send: Vec::new(), events: Vec::new(), next: Next::Wait }
    }

    /// Appends `later`, whose `next` replaces this one's.
    pub fn extend(&mut self, later: Reply<V>) {
        self.send.extend(later.send);
        self.events.extend(later.events);
        self.next = later.next;
    }
}

#[derive(Clone, Debug)]
enum State<V: RuleSet> {
    /// No game: the follower waits for a GAMEREQ, the initiator may send one.
    Idle,
    /// (Initiator.) A GAMEREQ is out; the GAMEACC is awaited.
    Requested(GameSettings<V>),
    Playing(Box<Table<V>>),
    /// We sent a GAMEEND; its acknowledgement is awaited.
    Ending {
        table: Box<Table<V>>,
        result: PdnResult,
        ending: String,
    },
    Closed,
}

/// One DXP conversation, over one connection, of any number of games of the variant `V`.
#[derive(Clone, Debug)]
pub struct Session<V: RuleSet> {
    role: Role,
    name: Text,
    /// Whether our GAMEEND messages say we want no further game.
    last_game: bool,
    games: u32,
    state: State<V>,
}

impl<V: RuleSet> Session<V> {
    /// A conversation in which we are `role`, introducing ourselves as `name` (cut to 32
    /// printable characters).
    pub fn new(role: Role, name: &str) -> Session<V> {
        Session { role, name: Text::name(name), last_game: false, games: 0, state: State::Idle }
    }

    pub fn role(&self) -> Role {
        self.role
    }

    pub fn name(&self) -> &str {
        self.name.as_str()
    }

    /// Games begun in this conversation.
    pub fn games(&self) -> u32 {
        self.games
    }

    /// What to do before any message arrives: the initiator asks for a game, the follower
    /// waits.
    pub fn next(&self) -> Next {
        match (&self.state, self.role) {
            (State::Closed, _) => Next::Close,
            (State::Idle, Role::Initiator) => Next::RequestGame,
            (State::Playing(table), _) if table.our_turn() && !table.game.is_over() => Next::Think,
            _ => Next::Wait,
        }
    }

    /// Makes the game in progress (or the next one) the last: our GAMEEND messages then say
    /// so (stop code `1`), and the conversation closes when it ends.
    pub fn set_last_game(&mut self, last: bool) {
        self.last_game = last;
    }

    /// The position we must move in and the game's earlier positions (oldest first), when it
    /// is our move.
    pub fn to_move(&self) -> Option<(Board<V>, &[Board<V>])> {
        match &self.state {
            State::Playing(table) if table.our_turn() && !table.game.is_over() => {
                let positions = table.game.positions();
                Some((table.game.position(), &positions[..positions.len() - 1]))
            }
            _ => None,
        }
    }

    /// The position of the game in progress (whoever is to move), if there is one.
    pub fn position(&self) -> Option<Board<V>> {
        match &self.state {
            State::Playing(table) | State::Ending { table, .. } => Some(table.game.position()),
            _ => None,
        }
    }

    /// Our clock in the game in progress, when its GAMEREQ gave a thinking time.
    pub fn clock(&self) -> Option<Clock> {
        match &self.state {
            State::Playing(table) => table.clock(),
            _ => None,
        }
    }

    /// (Initiator, no game on.) Asks for a game.
    pub fn request_game(&mut self, settings: GameSettings<V>) -> Result<Reply<V>, SessionError> {
        match (&self.state, self.role) {
            (_, Role::Follower) => return Err(SessionError::NotInitiator),
            (State::Closed, _) => return Err(SessionError::Closed),
            (State::Idle, _) => {}
            _ => return Err(SessionError::GameInProgress),
        }
        if let Some(outcome) = BoardGame::from_position(settings.start).outcome() {
            return Err(SessionError::StartIsOver(outcome.to_string()));
        }
        let position = (settings.start != Board::start()).then(|| dxp_position(&settings.start));
        let request = GameRequest {
            version: PROTOCOL_VERSION,
            initiator: self.name.clone(),
            follower_color: settings.ours.opponent(),
            minutes: settings.minutes.min(999),
            moves: settings.moves.min(999),
            position,
        };
        self.state = State::Requested(settings);
        let mut reply = Reply::new();
        reply.send.push(Message::GameRequest(request));
        Ok(reply)
    }

    /// Plays our move (in the position [`Session::to_move`] gave), which took `elapsed`.
    pub fn play(&mut self, mv: BoardMove<V>, elapsed: Duration) -> Result<Reply<V>, SessionError> {
        let State::Playing(table) = &mut self.state else {
            return Err(if matches!(self.state, State::Closed) {
                SessionError::Closed
            } else {
                SessionError::NotOurTurn
            });
        };
        if !table.our_turn() || table.game.is_over() {
            return Err(SessionError::NotOurTurn);
        }
        let position = table.game.position();
        let text = if position.is_legal(&mv) { mv.to_pdn(&position) } else { mv.to_short() };
        table.game.play(mv).map_err(|_| SessionError::IllegalMove(text.clone()))?;
        table.our_time += elapsed;
        let seconds = elapsed.as_secs_f64().round().min(9999.0) as u16;
        let mut reply = Reply::new();
        reply.send.push(Message::Move(move_message(&mv, seconds)));
        reply.events.push(Event::Played(text));
        self.step(&mut reply);
        Ok(reply)
    }

    /// Reads one message received (as [`FrameReader`](super::FrameReader) gives it) and
    /// answers it. A message that cannot be read is answered with a CHAT naming the fault and
    /// otherwise ignored.
    pub fn receive(&mut self, frame: Result<&[u8], MessageError>) -> Reply<V> {
        match frame.and_then(Message::parse) {
            Ok(message) => self.handle(message),
            Err(error) => {
                let mut reply = Reply::new();
                self.refuse(&mut reply, error.to_string());
                self.step(&mut reply);
                reply
            }
        }
    }

    /// Answers one message.
    pub fn handle(&mut self, message: Message) -> Reply<V> {
        let mut reply = Reply::new();
        match message {
            Message::Chat(text) => reply.events.push(Event::Chat(text.as_str().to_string())),
            Message::GameRequest(request) => self.on_request(request, &mut reply),
            Message::GameAccept(accept) => self.on_accept(accept, &mut reply),
            Message::Move(mv) => self.on_move(&mv, &mut reply),
            Message::GameEnd(end) => self.on_game_end(end, &mut reply),
            Message::BackRequest(request) => self.on_back_request(request, &mut reply),
            Message::BackAccept(_) => {
                self.refuse(&mut reply, "unexpected BACKACC: we asked to go back to no move")
            }
        }
        self.step(&mut reply);
        reply
    }

    /// The connection is gone: a game in progress ends unfinished.
    pub fn connection_lost(&mut self) -> Reply<V> {
        let mut reply = Reply::new();
        match std::mem::replace(&mut self.state, State::Closed) {
            State::Playing(table) | State::Ending { table, .. } => {
                let ending = "the connection closed during the game".to_string();
                reply.events.push(Event::GameEnded(Box::new(table.finish(PdnResult::Unknown, ending))));
            }
            _ => {}
        }
        reply.next = Next::Close;
        reply
    }

    fn refuse(&self, reply: &mut Reply<V>, why: impl Into<String>) {
        let why = why.into();
        reply.send.push(Message::Chat(Text::chat(&format!("error: {why}"))));
        reply.events.push(Event::Refused(why));
    }

    fn on_request(&mut self, request: GameRequest, reply: &mut Reply<V>) {
        if self.role == Role::Initiator {
            return self.refuse(reply, "unexpected GAMEREQ: we are the initiator, we ask for the games");
        }
        if let State::Ending { .. } = self.state {
            // A new request acknowledges our GAMEEND.
            self.finish_ending(reply);
        }
        let decline = |session: &Session<V>, reply: &mut Reply<V>, code: AcceptCode, why: String| {
            session.refuse(reply, why);
            reply.send.push(Message::GameAccept(GameAccept { follower: session.name.clone(), code }));
        };
        match self.state {
            State::Idle => {}
            State::Closed => return self.refuse(reply, "unexpected GAMEREQ: the conversation is over"),
            _ => {
                let why = "GAMEREQ during a game: end it with GAMEEND first".to_string();
                return decline(self, reply, AcceptCode::Declined, why);
            }
        }
        if request.version != PROTOCOL_VERSION {
            let why =
                format!("GAMEREQ of protocol version {:02}: we speak {PROTOCOL_VERSION:02}", request.version);
            return decline(self, reply, AcceptCode::WrongVersion, why);
        }
        let start = match &request.position {
            None => Board::start(),
            Some(position) => match board_from_dxp::<V>(position) {
                Ok(board) => board,
                Err(why) => return decline(self, reply, AcceptCode::Declined, why),
            },
        };
        let game = BoardGame::from_position(start);
        if let Some(outcome) = game.outcome() {
            let why = format!("the game would be over at once ({outcome})");
            return decline(self, reply, AcceptCode::Declined, why);
        }
        reply.send.push(Message::GameAccept(GameAccept {
            follower: self.name.clone(),
            code: AcceptCode::Accepted,
        }));
        let peer = request.initiator.as_str().to_string();
        self.begin(game, request.follower_color, peer, request.minutes, request.moves, reply);
    }

    fn on_accept(&mut self, accept: GameAccept, reply: &mut Reply<V>) {
        let State::Requested(settings) = self.state else {
            return self.refuse(reply, "unexpected GAMEACC: no game was asked for");
        };
        if accept.code != AcceptCode::Accepted {
            self.state = State::Closed;
            return reply.events.push(Event::Declined(accept.code));
        }
        let peer = accept.follower.as_str().to_string();
        let game = BoardGame::from_position(settings.start);
        self.begin(game, settings.ours, peer, settings.minutes, settings.moves, reply);
    }

    fn begin(
        &mut self,
        game: BoardGame<V>,
        ours: Color,
        peer: String,
        minutes: u16,
        moves: u16,
        reply: &mut Reply<V>,
    ) {
        self.games += 1;
        let start = game.start();
        reply.events.push(Event::GameStarted {
            number: self.games,
            ours,
            peer: peer.clone(),
            start,
            minutes,
            moves,
        });
        let table = Table {
            number: self.games,
            game,
            ours,
            peer,
            minutes,
            max_moves: moves,
            our_time: Duration::ZERO,
        };
        self.state = State::Playing(Box::new(table));
    }

    fn on_move(&mut self, message: &MoveMessage, reply: &mut Reply<V>) {
        let State::Playing(table) = &mut self.state else {
            let why = match self.state {
                State::Ending { .. } => "MOVE after our GAMEEND: the game is over",
                _ => "MOVE outside a game",
            };
            return self.refuse(reply, why);
        };
        if table.our_turn() && !table.game.is_over() {
            return self.refuse(reply, "MOVE out of turn: it is our move");
        }
        if let Some(outcome) = table.game.outcome() {
            // Our move ended the game by the rules, and the peer played on: say so now, on
            // the turn its MOVE gave us.
            let why = format!("the game was over before this move: {outcome}");
            self.refuse(reply, why);
            return self.end(
                EndReason::from_result(result_of(outcome), self.ours()),
                result_of(outcome),
                outcome.to_string(),
                reply,
            );
        }
        match table.find_move(message) {
            Ok(mv) => {
                let position = table.game.position();
                reply.events.push(Event::PeerMoved(mv.to_pdn(&position)));
                // Found among the legal moves of a game that is not over.
                let _ = table.game.play(mv);
            }
            Err(why) => {
                let ending = format!("{} played an illegal move: {why}", table.peer);
                self.refuse(reply, format!("illegal move {}: {why}", Message::Move(message.clone())));
                self.end(EndReason::Unspecified, PdnResult::Unknown, ending, reply);
            }
        }
    }

    fn on_game_end(&mut self, end: GameEnd, reply: &mut Reply<V>) {
        let stop = end.stop || self.last_game;
        match std::mem::replace(&mut self.state, State::Idle) {
            State::Playing(table) => {
                reply.send.push(Message::GameEnd(GameEnd { reason: EndReason::Unspecified, stop }));
                let peer_color = table.ours.opponent();
                let (result, ending) = match table.game.outcome() {
                    Some(outcome) => {
                        (result_of(outcome), format!("{} ended the game: {outcome}", table.peer))
                    }
                    None => match end.reason {
                        EndReason::GiveUp => (PdnResult::Win(table.ours), format!("{} gave up", table.peer)),
                        EndReason::Draw => (PdnResult::Draw, format!("{} declared a draw", table.peer)),
                        EndReason::Win => {
                            (PdnResult::Win(peer_color), format!("{} declared a win", table.peer))
                        }
                        EndReason::Unspecified => {
                            (PdnResult::Unknown, format!("{} ended the game without a result", table.peer))
                        }
                    },
                };
                reply.events.push(Event::GameEnded(Box::new(table.finish(result, ending))));
            }
            state @ State::Ending { .. } => {
                self.state = state;
                self.finish_ending(reply);
            }
            State::Closed => self.state = State::Closed,
            // Outside a game (say, a second GAMEEND on leaving) it only tells whether the peer
            // wants another.
            State::Idle | State::Requested(_) => {}
        }
        if stop {
            self.state = State::Closed;
        }
    }

    fn on_back_request(&mut self, request: BackRequest, reply: &mut Reply<V>) {
        let State::Playing(table) = &mut self.state else {
            self.refuse(reply, "BACKREQ outside a game");
            return reply.send.push(Message::BackAccept(BackAnswer::Continue));
        };
        match table.take_back(request) {
            Ok(ply) => {
                reply.send.push(Message::BackAccept(BackAnswer::Accepted));
                reply.events.push(Event::TookBack(ply));
            }
            Err(why) => {
                self.refuse(reply, format!("BACKREQ: {why}"));
                reply.send.push(Message::BackAccept(BackAnswer::Continue));
            }
        }
    }

    fn ours(&self) -> Color {
        match &self.state {
            State::Playing(table) | State::Ending { table, .. } => table.ours,
            _ => Color::White,
        }
    }

    /// Sends our GAMEEND (on our turn) and waits for its acknowledgement.
    fn end(&mut self, reason: EndReason, result: PdnResult, ending: String, reply: &mut Reply<V>) {
        if let State::Playing(table) = std::mem::replace(&mut self.state, State::Idle) {
            reply.send.push(Message::GameEnd(GameEnd { reason, stop: self.last_game }));
            self.state = State::Ending { table, result, ending };
        }
    }

    /// Our GAMEEND is acknowledged: the game is over.
    fn finish_ending(&mut self, reply: &mut Reply<V>) {
        if let State::Ending { table, result, ending } = std::mem::replace(&mut self.state, State::Idle) {
            reply.events.push(Event::GameEnded(Box::new(table.finish(result, ending))));
            if self.last_game {
                self.state = State::Closed;
            }
        }
    }

    /// After a message: on our turn in a game the rules (or its number of moves) have ended,
    /// our GAMEEND; then what the program must do.
    fn step(&mut self, reply: &mut Reply<V>) {
        let ending = match &self.state {
            State::Playing(table) if table.our_turn() => {
                if let Some(outcome) = table.game.outcome() {
                    let result = result_of(outcome);
                    Some((EndReason::from_result(result, table.ours), result, outcome.to_string(), false))
                } else if table.move_limit_reached() {
                    let ending = format!("the game's {} moves were played", table.max_moves);
                    Some((EndReason::Unspecified, PdnResult::Unknown, ending, true))
                } else {
                    None
                }
            }
            _ => None,
        };
        if let Some((reason, result, ending, say_why)) = ending {
            if say_why {
                reply.send.push(Message::Chat(Text::chat(&ending)));
            }
            self.end(reason, result, ending, reply);
        }
        // The protocol's answer first, the CHAT saying why after it: a client that reads one
        // message per socket read (as DXC100's descendants, pydraughts among them, do) and so
        // may find two in one read then still sees the answer.
        reply.send.sort_by_key(|m| matches!(m, Message::Chat(_)));
        reply.next = self.next();
    }
}

impl EndReason {
    /// The reason a GAMEEND gives for `result`, sent by the side playing `ours`.
    pub fn from_result(result: PdnResult, ours: Color) -> EndReason {
        match result {
            PdnResult::Win(winner) if winner == ours => EndReason::Win,
            PdnResult::Win(_) => EndReason::GiveUp,
            PdnResult::Draw => EndReason::Draw,
            PdnResult::DoubleForfeit | PdnResult::Unknown => EndReason::Unspecified,
        }
    }
}
