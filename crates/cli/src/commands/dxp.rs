//! `checkers dxp`: the engine over DXP, the DamExchange protocol of International draughts
//! programs and GUIs, on TCP. `--listen ADDR` answers the games whoever connects asks for
//! (the follower); `--connect ADDR` asks a listening program for games (the initiator).
//!
//! The protocol itself (messages, the conversation, the moves) is
//! `checkers_engine::dxp`; this is the socket loop around it. Each finished game is printed
//! as PDN on standard output; what happens (games, moves, refusals, chat) is logged on
//! standard error, whose first line with `--listen` is `listening on ADDR`.

use std::collections::VecDeque;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use checkers_engine::dxp::{
    dxp_variant, frame, Event, FrameReader, GameSettings, Message, MessageError, Next, Player, Reply, Role,
    Session, Thinking, DEFAULT_MOVE_TIME, DEFAULT_PORT,
};
use checkers_engine::{BoardEngine, EngineOptions, Level, Limits};
use checkers_rules::board::{
    Antidraughts, Board, BoardVariant, Breakthrough, Frisian, Frysk, International, RuleSet,
};
use checkers_rules::{Color, ResultStyle};
use clap::ValueEnum;

use crate::common::VariantArg;

/// The least time between two messages we send: clients derived from DXC100 (pydraughts
/// among them) read one message per socket read and lose a second one that arrives with it.
const PACE: Duration = Duration::from_millis(25);

#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("role").required(true).args(["listen", "connect"])))]
pub struct Args {
    /// Listen on ADDR (HOST:PORT, or HOST for DXP's port 27531) and play the games each
    /// program that connects asks for (the follower), one connection at a time.
    #[arg(long, value_name = "ADDR")]
    listen: Option<String>,
    /// Connect to the program listening on ADDR and ask it for games (the initiator).
    #[arg(long, value_name = "ADDR")]
    connect: Option<String>,
    /// Rules to play by: a variant of the 10x10 board (international, frisian, frysk,
    /// antidraughts, breakthrough), which the other program must be set to as well.
    #[arg(long, value_enum, default_value_t = VariantArg::International)]
    variant: VariantArg,
    /// Play as this level (1-9).
    #[arg(long, conflicts_with = "movetime")]
    level: Option<u32>,
    /// Think this many milliseconds a move. Without it or --level, moves are timed by the
    /// game's thinking time, or take a second when the game gives none.
    #[arg(long)]
    movetime: Option<u64>,
    /// With --connect, the games to ask for (1 unless given), our colour White in the
    /// first and alternating; with --listen, stop after this many games (unless given, go
    /// on until stopped).
    #[arg(long)]
    games: Option<u32>,
    /// Each side's thinking time for a whole game, in minutes (0-999), sent with each
    /// request (--connect).
    #[arg(long, default_value_t = 5, requires = "connect")]
    time: u16,
    /// The number of moves of each game (0-999; 0 for no limit), sent with each request
    /// (--connect): the game ends, unfinished, when both sides have played them.
    #[arg(long, default_value_t = 0, requires = "connect")]
    max_moves: u16,
    /// Start each game from this position (PDN FEN) instead of the start (--connect).
    #[arg(long, requires = "connect")]
    fen: Option<String>,
    /// The name we give the other program (at most 32 characters).
    #[arg(long, default_value = concat!("checkers ", env!("CARGO_PKG_VERSION")))]
    name: String,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64)]
    hash: usize,
    /// Seed for the level's choices.
    #[arg(long, default_value_t = 0)]
    seed: u64,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    let variant = match args.variant.board() {
        Some(variant) => dxp_variant(variant),
        None => Err(format!(
            "DXP carries only the 10x10 board (squares 01-50): {} is an 8x8 game; DXP plays international, \
             frisian, frysk, antidraughts, breakthrough",
            args.variant.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
        )),
    };
    let variant = variant.map_err(|why| anyhow::anyhow!("--variant: {why}"))?;
    if args.movetime == Some(0) {
        bail!("--movetime must be at least 1 (milliseconds)");
    }
    if args.games == Some(0) {
        bail!("--games must be at least 1");
    }
    if args.time > 999 || args.max_moves > 999 {
        bail!("--time and --max-moves are at most 999 (three digits in a GAMEREQ)");
    }
    crate::common::check_hash_mb(args.hash)?;
    let thinking = match (args.level, args.movetime) {
        (Some(n), _) => match Level::new(n) {
            Some(level) => Thinking::Level { level, seed: args.seed },
            None => bail!("--level must be between {} and {}, found {n}", Level::MIN, Level::MAX),
        },
        (None, Some(ms)) => Thinking::Limits(Limits::movetime(Duration::from_millis(ms))),
        (None, None) => Thinking::Clock { otherwise: DEFAULT_MOVE_TIME },
    };
    match variant {
        BoardVariant::International => play::<International>(&args, thinking),
        BoardVariant::Frisian => play::<Frisian>(&args, thinking),
        BoardVariant::Frysk => play::<Frysk>(&args, thinking),
        BoardVariant::Antidraughts => play::<Antidraughts>(&args, thinking),
        BoardVariant::Breakthrough => play::<Breakthrough>(&args, thinking),
        other => bail!("--variant {other}: DXP does not carry it"),
    }
}

fn play<V: BoardEngine>(args: &Args, thinking: Thinking) -> anyhow::Result<()> {
    let options = EngineOptions { hash_mb: args.hash, threads: 1 };
    let new_player = |role| Player::<V>::new(Session::new(role, &args.name), options, thinking);
    let mut tally = Tally::default();
    if let Some(text) = &args.listen {
        let listener = TcpListener::bind(addresses(text, "--listen")?.as_slice())
            .with_context(|| format!("--listen {text}: cannot listen there"))?;
        eprintln!("listening on {}", listener.local_addr()?);
        for stream in listener.incoming() {
            let stream = match stream {
                Ok(stream) => stream,
                Err(e) => {
                    eprintln!("a connection failed: {e}");
                    continue;
                }
            };
            let peer = stream.peer_addr().map_or_else(|_| "?".to_string(), |a| a.to_string());
            eprintln!("connection from {peer}");
            let mut player = new_player(Role::Follower);
            let mut connection = Connection::new(stream);
            connection.converse(&mut player, &mut tally, args.games, None::<&Plan<V>>)?;
            eprintln!("{peer} is gone; {} games played", tally.finished);
            if args.games.is_some_and(|n| tally.finished >= n) {
                return Ok(());
            }
        }
        return Ok(());
    }
    let text = args.connect.as_deref().unwrap_or_default();
    let start = match &args.fen {
        None => Board::<V>::start(),
        Some(fen) => Board::<V>::from_fen(fen).with_context(|| format!("bad --fen `{fen}`"))?,
    };
    let plan = Plan { games: args.games.unwrap_or(1), start, minutes: args.time, moves: args.max_moves };
    let addrs = addresses(text, "--connect")?;
    let stream =
        TcpStream::connect(addrs.as_slice()).with_context(|| format!("--connect {text}: cannot connect"))?;
    eprintln!("connected to {}", stream.peer_addr().map_or_else(|_| text.to_string(), |a| a.to_string()));
    let mut player = new_player(Role::Initiator);
    let mut connection = Connection::new(stream);
    connection.converse(&mut player, &mut tally, Some(plan.games), Some(&plan))?;
    if let Some(why) = tally.declined {
        bail!("the other program declined the game: code {why}");
    }
    if tally.finished < plan.games {
        bail!("the connection closed after {} of {} games", tally.finished, plan.games);
    }
    Ok(())
}

/// The addresses `text` names: `HOST:PORT`, or `HOST` alone for port 27531.
fn addresses(text: &str, option: &str) -> anyhow::Result<Vec<SocketAddr>> {
    let found = text.to_socket_addrs().or_else(|_| (text, DEFAULT_PORT).to_socket_addrs());
    match found {
        Ok(addrs) => {
            let addrs: Vec<SocketAddr> = addrs.collect();
            if addrs.is_empty() {
                bail!("{option} `{text}`: no address by that name");
            }
            Ok(addrs)
        }
        Err(e) => {
            bail!("{option} `{text}`: not an address (HOST:PORT, or HOST for port {DEFAULT_PORT}): {e}")
        }
    }
}

/// The initiator's games: how many, from where, on what terms.
struct Plan<V: RuleSet> {
    games: u32,
    start: Board<V>,
    minutes: u16,
    moves: u16,
}

/// Games played over every connection.
#[derive(Default)]
struct Tally {
    finished: u32,
    /// The follower's code when it declined our request.
    declined: Option<String>,
}

struct Connection {
    stream: TcpStream,
    reader: FrameReader,
    /// Messages read but not yet answered (several may come in one read).
    pending: VecDeque<Result<Vec<u8>, MessageError>>,
    last_sent: Option<Instant>,
    peer: String,
}

impl Connection {
    fn new(stream: TcpStream) -> Connection {
        // Each message goes at once: they are small and each waits for an answer.
        let _ = stream.set_nodelay(true);
        Connection {
            stream,
            reader: FrameReader::new(),
            pending: VecDeque::new(),
            last_sent: None,
            peer: "the other program".to_string(),
        }
    }

    /// Plays the conversation to its end: the other side closes, or the session does.
    fn converse<V: BoardEngine>(
        &mut self,
        player: &mut Player<V>,
        tally: &mut Tally,
        games: Option<u32>,
        plan: Option<&Plan<V>>,
    ) -> anyhow::Result<()> {
        let mut requested = 0;
        let mut next = player.session().next();
        loop {
            let reply = match next {
                Next::Close => {
                    let _ = self.stream.shutdown(std::net::Shutdown::Both);
                    return Ok(());
                }
                Next::RequestGame => {
                    let Some(plan) = plan.filter(|plan| requested < plan.games) else {
                        next = Next::Close;
                        continue;
                    };
                    requested += 1;
                    player.session_mut().set_last_game(requested == plan.games);
                    let ours = if requested % 2 == 1 { Color::White } else { Color::Black };
                    let settings =
                        GameSettings { start: plan.start, ours, minutes: plan.minutes, moves: plan.moves };
                    player.request_game(settings)?
                }
                Next::Think => match player.think() {
                    Some(reply) => reply,
                    None => {
                        next = Next::Wait;
                        continue;
                    }
                },
                Next::Wait => match self.next_message() {
                    Some(message) => {
                        let reply = player.receive(message.as_deref().map_err(Clone::clone));
                        let started = reply.events.iter().any(|e| matches!(e, Event::GameStarted { .. }));
                        if started && player.session().role() == Role::Follower {
                            // The initiator set this with its request; the follower's last
                            // game is the one that reaches --games.
                            player
                                .session_mut()
                                .set_last_game(games.is_some_and(|n| tally.finished + 1 >= n));
                        }
                        reply
                    }
                    None => {
                        eprintln!("{} closed the connection", self.peer);
                        let reply = player.connection_lost();
                        self.report(&reply, player, tally);
                        return Ok(());
                    }
                },
            };
            next = match self.deliver(&reply, player, tally) {
                Ok(()) => reply.next,
                Err(e) => {
                    eprintln!("cannot write to {}: {e}", self.peer);
                    let reply = player.connection_lost();
                    self.report(&reply, player, tally);
                    return Ok(());
                }
            };
        }
    }

    /// The next message from the other side, reading as needed; `None` once it closes.
    fn next_message(&mut self) -> Option<Result<Vec<u8>, MessageError>> {
        let mut buffer = [0u8; 4096];
        while self.pending.is_empty() {
            match self.stream.read(&mut buffer) {
                Ok(0) => return None,
                Ok(n) => self.pending.extend(self.reader.push(&buffer[..n])),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(_) => return None,
            }
        }
        self.pending.pop_front()
    }

    /// Sends a reply's messages, paced, and reports what happened.
    fn deliver<V: BoardEngine>(
        &mut self,
        reply: &Reply<V>,
        player: &Player<V>,
        tally: &mut Tally,
    ) -> std::io::Result<()> {
        self.report(reply, player, tally);
        for message in &reply.send {
            if let Some(wait) = self.last_sent.map(|at| PACE.saturating_sub(at.elapsed())) {
                std::thread::sleep(wait);
            }
            self.stream.write_all(&frame(message))?;
            self.stream.flush()?;
            self.last_sent = Some(Instant::now());
            if let Message::Chat(text) = message {
                eprintln!("we say: {text}");
            }
        }
        Ok(())
    }

    /// Logs a reply's events; prints each finished game as PDN.
    fn report<V: BoardEngine>(&mut self, reply: &Reply<V>, player: &Player<V>, tally: &mut Tally) {
        for event in &reply.events {
            match event {
                Event::GameStarted { number, ours, peer, start, minutes, moves } => {
                    self.peer = peer.clone();
                    let from =
                        if *start == Board::start() { "the start".to_string() } else { start.to_fen() };
                    let time = match minutes {
                        0 => "no thinking time".to_string(),
                        1 => "1 minute each".to_string(),
                        _ => format!("{minutes} minutes each"),
                    };
                    let limit =
                        if *moves == 0 { "no move limit".to_string() } else { format!("{moves} moves") };
                    eprintln!(
                        "game {number}: we play {} against {peer}, {} from {from}, {time}, {limit}",
                        ours.name(),
                        V::NAME
                    );
                }
                Event::PeerMoved(text) => eprintln!("{} plays {text}", self.peer),
                Event::Played(text) => eprintln!("we play {text}"),
                Event::Chat(text) => eprintln!("{} says: {text}", self.peer),
                Event::Refused(why) => eprintln!("refused: {why}"),
                Event::Declined(code) => {
                    eprintln!("{} declined the game: code {code}", self.peer);
                    tally.declined = Some(code.to_string());
                }
                Event::TookBack(plies) => {
                    eprintln!("{} took back: the game goes on after {plies} plies", self.peer)
                }
                Event::GameEnded(game) => {
                    tally.finished += 1;
                    let pdn = game.to_pdn(player.session().name());
                    let style =
                        BoardVariant::of::<V>().map_or(ResultStyle::Default, BoardVariant::pdn_result_style);
                    let result = game.result.to_pdn_first(V::FIRST, style);
                    eprintln!("game {} over: {result} ({})", game.number, game.ending);
                    let mut out = std::io::stdout().lock();
                    let _ = writeln!(out, "{}", pdn.to_pdn()).and_then(|()| out.flush());
                }
            }
        }
    }
}
