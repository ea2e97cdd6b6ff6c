//! Hostile input to DXP: arbitrary bytes and near misses of real messages. Reading never
//! panics, every message reads back as written, the stream framing agrees with a model over
//! any byte stream, and a session fed any sequence of messages (the follower's and the
//! initiator's) never panics and only ever sends well-formed messages.

use std::time::Duration;

use checkers_engine::dxp::{
    AcceptCode, BackAnswer, BackRequest, DxpPosition, EndReason, FrameReader, GameAccept, GameEnd,
    GameRequest, GameSettings, Message, MessageError, MoveMessage, Next, Reply, Role, Session, Text,
    MAX_CAPTURED, MAX_MESSAGE_LEN, MAX_POSITION_SQUARES,
};
use checkers_rules::board::{Board, Frisian, International, RuleSet};
use checkers_rules::{Color, Piece, Role as PieceRole};
use proptest::prelude::*;

fn color() -> impl Strategy<Value = Color> {
    prop_oneof![Just(Color::White), Just(Color::Black)]
}

fn name() -> impl Strategy<Value = Text> {
    "([!-~]([ -~]{0,30}[!-~])?)?".prop_map(|s| Text::name(&s))
}

fn piece() -> impl Strategy<Value = Option<Piece>> {
    let role = prop_oneof![Just(PieceRole::Man), Just(PieceRole::King)];
    proptest::option::of((color(), role).prop_map(|(color, role)| Piece { color, role }))
}

fn message() -> impl Strategy<Value = Message> {
    let position = (color(), proptest::collection::vec(piece(), 1..=MAX_POSITION_SQUARES))
        .prop_map(|(to_move, squares)| DxpPosition { to_move, squares });
    let request = (0u8..=99, name(), color(), 0u16..=999, 0u16..=999, proptest::option::of(position))
        .prop_map(|(version, initiator, follower_color, minutes, moves, position)| {
            Message::GameRequest(GameRequest { version, initiator, follower_color, minutes, moves, position })
        });
    let code = prop_oneof![
        Just(AcceptCode::Accepted),
        Just(AcceptCode::WrongVersion),
        Just(AcceptCode::Declined),
        Just(AcceptCode::NoGames)
    ];
    let accept =
        (name(), code).prop_map(|(follower, code)| Message::GameAccept(GameAccept { follower, code }));
    let mv = (0u16..=9999, 0u8..=99, 0u8..=99, proptest::collection::vec(0u8..=99, 0..=MAX_CAPTURED))
        .prop_map(|(seconds, from, to, captured)| Message::Move(MoveMessage { seconds, from, to, captured }));
    let reason = prop_oneof![
        Just(EndReason::Unspecified),
        Just(EndReason::GiveUp),
        Just(EndReason::Draw),
        Just(EndReason::Win)
    ];
    let end = (reason, any::<bool>()).prop_map(|(reason, stop)| Message::GameEnd(GameEnd { reason, stop }));
    let chat = "[ -~]{0,126}".prop_map(|s| Message::Chat(Text::chat(&s)));
    let back = (0u16..=999, color())
        .prop_map(|(move_number, to_move)| Message::BackRequest(BackRequest { move_number, to_move }));
    let answer = prop_oneof![
        Just(Message::BackAccept(BackAnswer::Accepted)),
        Just(Message::BackAccept(BackAnswer::NotSupported)),
        Just(Message::BackAccept(BackAnswer::Continue))
    ];
    prop_oneof![request, accept, mv, end, chat, back, answer]
}

/// What a peer might send a session: real messages of a game (squares on the board, the
/// start position), any message at all, and broken bytes.
fn peer_bytes() -> impl Strategy<Value = Vec<u8>> {
    let square = prop_oneof![1u8..=50, 0u8..=99];
    let game_move = (square.clone(), square.clone(), proptest::collection::vec(square, 0..4)).prop_map(
        |(from, to, captured)| Message::Move(MoveMessage { seconds: 0, from, to, captured }).to_wire(),
    );
    let start = (color(), prop_oneof![Just(1u8), 0u8..=3]).prop_map(|(follower_color, version)| {
        Message::GameRequest(GameRequest {
            version,
            initiator: Text::name("peer"),
            follower_color,
            minutes: 1,
            moves: 0,
            position: None,
        })
        .to_wire()
    });
    let accept = Just(format!("A{:<32}0", "peer"));
    let near_miss = (message(), 0usize..130, any::<u8>()).prop_map(|(m, at, byte)| {
        let mut bytes = m.to_wire().into_bytes();
        if at < bytes.len() {
            bytes[at] = byte;
        } else {
            bytes.truncate(at % (bytes.len() + 1));
        }
        String::from_utf8_lossy(&bytes).into_owned()
    });
    prop_oneof![
        3 => game_move,
        2 => start,
        1 => accept,
        2 => message().prop_map(|m| m.to_wire()),
        1 => near_miss,
        1 => "[EBK][0-9WZ]{1,4}",
    ]
    .prop_map(String::into_bytes)
    .boxed()
    .prop_union(proptest::collection::vec(any::<u8>(), 0..140).boxed())
}

/// Every message a session sends is one a peer can read, and reads back the same.
fn well_formed<V: RuleSet>(reply: &Reply<V>) -> Result<(), TestCaseError> {
    for message in &reply.send {
        let wire = message.to_wire();
        prop_assert!(
            !wire.is_empty() && wire.len() <= MAX_MESSAGE_LEN && wire.bytes().all(|b| (1..=127).contains(&b))
        );
        let read = Message::parse(wire.as_bytes());
        prop_assert_eq!(read.as_ref(), Ok(message));
    }
    Ok(())
}

/// What a peer does next: send bytes, or (in a game, on its turn) a legal move, the
/// `n`-th modulo their number.
#[derive(Clone, Debug)]
enum Input {
    Bytes(Vec<u8>),
    LegalMove(usize),
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![2 => peer_bytes().prop_map(Input::Bytes), 3 => any::<usize>().prop_map(Input::LegalMove)]
}

/// Feeds `inputs` to a session; on our turn, plays the first legal move.
fn drive<V: RuleSet>(session: &mut Session<V>, inputs: &[Input]) -> Result<(), TestCaseError> {
    for input in inputs {
        if session.next() == Next::RequestGame {
            let settings = GameSettings { start: Board::start(), ours: Color::White, minutes: 0, moves: 40 };
            let reply = session.request_game(settings).map_err(|e| TestCaseError::fail(e.to_string()))?;
            well_formed(&reply)?;
        }
        let bytes = match input {
            Input::Bytes(bytes) => bytes.clone(),
            Input::LegalMove(n) => {
                let Some(position) = session.position() else { continue };
                let moves = position.legal_moves();
                if moves.is_empty() {
                    continue;
                }
                let mv = moves.as_slice()[n % moves.len()];
                let captured = mv.captured().into_iter().map(|s| s as u8).collect();
                Message::Move(MoveMessage { seconds: 1, from: mv.from() as u8, to: mv.to() as u8, captured })
                    .to_wire()
                    .into_bytes()
            }
        };
        let reply = session.receive(Ok(&bytes));
        well_formed(&reply)?;
        if reply.next == Next::Think {
            let (position, _) = session.to_move().expect("a position to move in when told to think");
            let mv = position.legal_moves().iter().next().copied().expect("a legal move in a game going on");
            let reply =
                session.play(mv, Duration::from_millis(3)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            well_formed(&reply)?;
        }
    }
    well_formed(&session.connection_lost())
}

/// What the framing must give: the stream split at each NUL (nothing after the last one),
/// each piece longer than 127 bytes refused.
fn model(bytes: &[u8]) -> Vec<Result<Vec<u8>, MessageError>> {
    let mut pieces: Vec<&[u8]> = bytes.split(|&b| b == 0).collect();
    pieces.pop();
    pieces
        .into_iter()
        .map(|p| if p.len() > MAX_MESSAGE_LEN { Err(MessageError::TooLong(p.len())) } else { Ok(p.to_vec()) })
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_are_read_without_panic(bytes in proptest::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(message) = Message::parse(&bytes) {
            let wire = message.to_wire();
            prop_assert_eq!(Message::parse(wire.as_bytes()), Ok(message));
        }
    }

    #[test]
    fn every_message_reads_back_as_written(message in message()) {
        let wire = message.to_wire();
        prop_assert!(wire.len() <= MAX_MESSAGE_LEN && wire.is_ascii());
        prop_assert_eq!(Message::parse(wire.as_bytes()), Ok(message));
    }

    #[test]
    fn near_misses_are_read_without_panic(message in message(), at in 0usize..130, byte in any::<u8>(), cut in any::<bool>()) {
        let mut bytes = message.to_wire().into_bytes();
        if cut {
            bytes.truncate(at.min(bytes.len()));
        } else if at < bytes.len() {
            bytes[at] = byte;
        } else {
            bytes.push(byte);
        }
        if let Ok(read) = Message::parse(&bytes) {
            prop_assert_eq!(Message::parse(read.to_wire().as_bytes()), Ok(read));
        }
    }

    #[test]
    fn framing_agrees_with_the_model(
        bytes in proptest::collection::vec(prop_oneof![Just(0u8), Just(b'E'), any::<u8>()], 0..600),
        piece in 1usize..200,
    ) {
        let mut reader = FrameReader::new();
        let got: Vec<_> = bytes.chunks(piece).flat_map(|chunk| reader.push(chunk)).collect();
        prop_assert_eq!(got, model(&bytes));
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 600, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_follower_survives_any_peer(inputs in proptest::collection::vec(input(), 0..120)) {
        drive(&mut Session::<International>::new(Role::Follower, "follower"), &inputs)?;
        drive(&mut Session::<Frisian>::new(Role::Follower, "follower"), &inputs)?;
    }

    #[test]
    fn an_initiator_survives_any_peer(inputs in proptest::collection::vec(input(), 0..120)) {
        drive(&mut Session::<International>::new(Role::Initiator, "initiator"), &inputs)?;
    }
}
