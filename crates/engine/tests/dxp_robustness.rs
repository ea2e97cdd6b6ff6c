//! Hostile input to DXP: arbitrary bytes and near misses of real messages. Reading never
//! panics, every message reads back as written, and the stream framing agrees with a model
//! over any byte stream.

use checkers_engine::dxp::{
    AcceptCode, BackAnswer, BackRequest, DxpPosition, EndReason, FrameReader, GameAccept, GameEnd,
    GameRequest, Message, MessageError, MoveMessage, Text, MAX_CAPTURED, MAX_MESSAGE_LEN,
    MAX_POSITION_SQUARES,
};
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
