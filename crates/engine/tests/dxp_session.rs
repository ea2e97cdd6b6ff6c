//! DXP conversations between our own initiator and follower, in memory (the messages go
//! through the stream framing both ways), and the follower's answers to what a faulty or
//! hostile peer sends: each case's exact reply.

use std::collections::VecDeque;
use std::time::Duration;

use checkers_engine::dxp::{
    color_letter, dxp_position, frame, piece_letter, AcceptCode, Event, FinishedGame, FrameReader,
    GameSettings, Message, Next, Player, Reply, Role, Session, Thinking,
};
use checkers_engine::{BoardEngine, EngineOptions, Level, Limits};
use checkers_rules::board::{Antidraughts, Board, BoardGame, Breakthrough, Frisian, Frysk, International};
use checkers_rules::{Color, PdnResult};

fn player<V: BoardEngine>(role: Role, name: &str, thinking: Thinking) -> Player<V> {
    Player::new(Session::new(role, name), EngineOptions { hash_mb: 4, threads: 1 }, thinking)
}

/// Plays `games` games between an initiator and a follower (the initiator White in odd
/// games), from `start`, until the conversation closes; every game each side saw end.
fn converse<V: BoardEngine>(
    games: u32,
    start: Board<V>,
    moves: u16,
) -> (Vec<FinishedGame<V>>, Vec<FinishedGame<V>>) {
    let mut initiator = player::<V>(Role::Initiator, "initiator", Thinking::Limits(Limits::nodes(3000)));
    let level = Level::new(2).expect("level 2");
    let mut follower = player::<V>(Role::Follower, "follower", Thinking::Level { level, seed: 5 });
    let (mut to_follower, mut to_initiator) = (VecDeque::new(), VecDeque::new());
    let (mut from_initiator, mut from_follower) = (FrameReader::new(), FrameReader::new());
    let (mut ended_initiator, mut ended_follower) = (Vec::new(), Vec::new());
    let mut requested = 0;
    let mut next_initiator = initiator.session().next();
    let mut next_follower = follower.session().next();
    let post = |reply: Reply<V>, out: &mut VecDeque<Vec<u8>>, ended: &mut Vec<FinishedGame<V>>| {
        for message in &reply.send {
            let wire = message.to_wire();
            assert!(wire.len() <= 127 && wire.is_ascii(), "{wire:?}");
            out.push_back(frame(message));
        }
        for event in reply.events {
            if let Event::GameEnded(game) = event {
                ended.push(*game);
            }
        }
        reply.next
    };
    for _ in 0..100_000 {
        if next_initiator == Next::RequestGame {
            requested += 1;
            initiator.session_mut().set_last_game(requested == games);
            let ours = if requested % 2 == 1 { Color::White } else { Color::Black };
            let settings = GameSettings { start, ours, minutes: 0, moves };
            let reply = initiator.request_game(settings).expect("a game can be asked for");
            next_initiator = post(reply, &mut to_follower, &mut ended_initiator);
        } else if next_initiator == Next::Think {
            let reply = initiator.think().expect("a move on our turn");
            next_initiator = post(reply, &mut to_follower, &mut ended_initiator);
        } else if next_follower == Next::Think {
            let reply = follower.think().expect("a move on our turn");
            next_follower = post(reply, &mut to_initiator, &mut ended_follower);
        } else if let Some(bytes) = to_follower.pop_front() {
            for message in from_initiator.push(&bytes) {
                let reply = follower.receive(message.as_deref().map_err(Clone::clone));
                next_follower = post(reply, &mut to_initiator, &mut ended_follower);
            }
        } else if let Some(bytes) = to_initiator.pop_front() {
            for message in from_follower.push(&bytes) {
                let reply = initiator.receive(message.as_deref().map_err(Clone::clone));
                next_initiator = post(reply, &mut to_follower, &mut ended_initiator);
            }
        } else {
            break;
        }
    }
    assert_eq!((next_initiator, next_follower), (Next::Close, Next::Close), "both close at the end");
    (ended_initiator, ended_follower)
}

/// Both sides saw the same games: the same start, the same legal moves, the same result.
fn agree<V: BoardEngine>(initiator: &[FinishedGame<V>], follower: &[FinishedGame<V>]) {
    assert_eq!(initiator.len(), follower.len());
    for (a, b) in initiator.iter().zip(follower) {
        assert_eq!(a.game.start(), b.game.start(), "{}", V::NAME);
        assert_eq!(a.game.moves(), b.game.moves(), "{}", V::NAME);
        assert_eq!(a.result, b.result, "{}: {} / {}", V::NAME, a.ending, b.ending);
        assert_eq!(a.ours, b.ours.opponent());
        let mut replay = BoardGame::from_position(a.game.start());
        for mv in a.game.moves() {
            replay.play(*mv).unwrap_or_else(|e| panic!("{}: {e}", V::NAME));
        }
    }
}

#[test]
fn our_initiator_and_follower_play_whole_international_games() {
    let (initiator, follower) = converse::<International>(2, Board::start(), 0);
    assert_eq!(initiator.len(), 2);
    agree(&initiator, &follower);
    for (i, game) in initiator.iter().enumerate() {
        assert_eq!(game.ours, if i == 0 { Color::White } else { Color::Black });
        // Played to the rules' end: a win or a draw, never left open.
        assert!(game.game.is_over(), "{}: {}", game.ending, game.game.position().to_fen());
        assert_ne!(game.result, PdnResult::Unknown, "{}", game.ending);
        assert!(game.game.moves().len() > 20, "{}", game.game.moves().len());
    }
    // The stronger side (3,000 nodes against level 2) does not lose.
    assert!(
        initiator.iter().all(|g| g.result != PdnResult::Win(g.ours.opponent())),
        "{:?}",
        initiator[0].ending
    );
}

#[test]
fn every_dxp_variant_is_played_to_its_end() {
    fn one<V: BoardEngine>() {
        let (initiator, follower) = converse::<V>(1, Board::start(), 0);
        agree(&initiator, &follower);
        assert_eq!(initiator.len(), 1, "{}", V::NAME);
        assert!(initiator[0].game.is_over(), "{}: {}", V::NAME, initiator[0].ending);
    }
    one::<Frisian>();
    one::<Frysk>();
    one::<Antidraughts>();
    one::<Breakthrough>();
}

#[test]
fn a_set_up_position_and_a_number_of_moves_are_kept() {
    let start = Board::<International>::from_fen("B:WK46,33,34,38:BK5,12,13,19").unwrap();
    let (initiator, follower) = converse::<International>(1, start, 3);
    agree(&initiator, &follower);
    let game = &initiator[0];
    assert_eq!(game.game.start(), start);
    if !game.game.is_over() {
        // Three moves each from a Black start: the game is ended by whoever is to move then.
        assert_eq!(game.game.moves().len(), 6, "{}", game.ending);
        assert_eq!(game.result, PdnResult::Unknown);
        // The side to move after the sixth ply ended it; the other heard a GAMEEND without a result.
        let endings = [game.ending.as_str(), follower[0].ending.as_str()];
        assert!(endings.contains(&"the game's 3 moves were played"), "{endings:?}");
    }
}

// ---------------------------------------------------------------------------------------
// The follower against a scripted peer.

fn follower() -> Session<International> {
    Session::new(Role::Follower, "follower")
}

fn send(session: &mut Session<International>, text: &str) -> Reply<International> {
    session.receive(Ok(text.as_bytes()))
}

fn wires(reply: &Reply<International>) -> Vec<String> {
    reply.send.iter().map(Message::to_wire).collect()
}

/// A MOVE of no time.
fn mv(from: u8, to: u8, captured: &[u8]) -> String {
    let listed: String = captured.iter().map(|c| format!("{c:02}")).collect();
    format!("M0000{from:02}{to:02}{:02}{listed}", captured.len())
}

/// A GAMEREQ from "peer" with the follower playing `color` from `position` (`A`, the start,
/// when `None`).
fn request(color: char, position: Option<String>) -> String {
    let position = position.map_or("A".to_string(), |p| format!("B{p}"));
    format!("R01{:<32}{color}000000{position}", "peer")
}

/// A position as a GAMEREQ writes it: the colour to move, then each square.
fn position_text(board: &Board<International>) -> String {
    let position = dxp_position(board);
    std::iter::once(color_letter(position.to_move))
        .chain(position.squares.iter().map(|&p| piece_letter(p)))
        .collect()
}

#[test]
fn a_game_request_is_accepted_and_each_peer_move_applied() {
    let mut session = follower();
    assert_eq!(session.next(), Next::Wait);
    let reply = send(&mut session, &request('Z', None));
    assert_eq!(wires(&reply), [format!("A{:<32}0", "follower")]);
    assert!(matches!(reply.events[0], Event::GameStarted { number: 1, ours: Color::Black, .. }));
    assert_eq!(reply.next, Next::Wait, "White, the peer, moves first");
    let reply = send(&mut session, &mv(32, 28, &[]));
    assert!(matches!(&reply.events[..], [Event::PeerMoved(m)] if m == "32-28"), "{:?}", reply.events);
    assert_eq!(reply.next, Next::Think);
    let (position, history) = session.to_move().unwrap();
    assert_eq!(history.len(), 1);
    let ours = position.parse_move("19-23").unwrap();
    let reply = session.play(ours, Duration::from_millis(1600)).unwrap();
    assert_eq!(wires(&reply), ["M0002192300"]);
    // 28x19 is forced; sent without its captured square it is still the one move.
    let reply = send(&mut session, &mv(28, 19, &[]));
    assert!(matches!(&reply.events[..], [Event::PeerMoved(m)] if m == "28x19"), "{:?}", reply.events);
    assert_eq!(reply.next, Next::Think);
}

#[test]
fn an_unreadable_message_is_answered_with_a_chat_and_changes_nothing() {
    let mut session = follower();
    for (text, answer) in [
        ("garbage", "error: unknown message type `g` (known: R A M E C B K)"),
        ("M00120611", "error: MOVE of 9 characters ends before its number captured"),
        ("E0", "error: GAMEEND of 2 characters ends before its stop code"),
        ("E000", "error: GAMEEND of 4 characters has more after its last field (expected 3)"),
        ("K0", "error: unexpected BACKACC: we asked to go back to no move"),
        ("M0012061100", "error: MOVE outside a game"),
    ] {
        let reply = send(&mut session, text);
        assert_eq!(wires(&reply), [format!("C{answer}")], "{text}");
        assert_eq!(reply.next, Next::Wait);
    }
    let reply = session.receive(Ok(b"M\xff"));
    assert_eq!(wires(&reply), ["Cerror: byte 2 is 0xff: messages are ASCII characters 1-127"]);
    // The session still plays.
    let reply = send(&mut session, &request('W', None));
    assert_eq!(reply.next, Next::Think);
}

#[test]
fn unsupported_games_are_declined_with_the_protocol_codes() {
    let mut session = follower();
    let brazilian = "zzzzzzzzzzzzeeeeeeeewwwwwwwwwwww";
    let reply = send(&mut session, &request('W', Some(format!("W{brazilian}"))));
    assert_eq!(
        wires(&reply),
        [
            format!("A{:<32}2", "follower"),
            "Cerror: the position has 32 squares; international is played on 50".to_string()
        ]
    );
    let old = request('W', None).replacen("R01", "R02", 1);
    let reply = send(&mut session, &old);
    assert_eq!(
        wires(&reply),
        [format!("A{:<32}1", "follower"), "Cerror: GAMEREQ of protocol version 02: we speak 01".to_string()]
    );
    // White to move without a piece: the game would be over at once.
    let no_white = format!("W{}{}", "z".repeat(20), "e".repeat(30));
    let reply = send(&mut session, &request('W', Some(no_white)));
    assert_eq!(
        wires(&reply),
        [
            format!("A{:<32}2", "follower"),
            "Cerror: the game would be over at once (Black wins: White has no legal move)".to_string()
        ]
    );
    let man_on_last_row = format!("Ww{}z", "e".repeat(48));
    let reply = send(&mut session, &request('W', Some(man_on_last_row)));
    assert_eq!(
        wires(&reply),
        [
            format!("A{:<32}2", "follower"),
            "Cerror: the position is not one of international: White man on square 1, its crowning row"
                .to_string()
        ]
    );
    assert_eq!(session.games(), 0);
    assert_eq!(session.next(), Next::Wait);
}

#[test]
fn an_illegal_move_ends_the_game() {
    let mut session = follower();
    send(&mut session, &request('Z', None));
    let reply = send(&mut session, &mv(32, 29, &[]));
    assert_eq!(
        wires(&reply),
        ["E00", "Cerror: illegal move M0000322900: 32-29 is not a legal move: 32 can go to 27 or 28"]
    );
    assert_eq!(reply.next, Next::Wait, "for the acknowledgement");
    let reply = send(&mut session, "E01");
    assert!(reply.send.is_empty());
    let Some(Event::GameEnded(game)) = reply.events.first() else { panic!("{:?}", reply.events) };
    assert_eq!(game.result, PdnResult::Unknown);
    assert_eq!(game.ending, "peer played an illegal move: 32-29 is not a legal move: 32 can go to 27 or 28");
    assert_eq!(reply.next, Next::Close, "the peer asked for no further game");
}

#[test]
fn moves_off_the_board_or_out_of_turn_are_refused() {
    let mut session = follower();
    send(&mut session, &request('W', None));
    // Our move first: the peer's MOVE is out of turn and changes nothing.
    let reply = send(&mut session, &mv(19, 23, &[]));
    assert_eq!(wires(&reply), ["Cerror: MOVE out of turn: it is our move"]);
    assert_eq!(reply.next, Next::Think);
    let (position, _) = session.to_move().unwrap();
    session.play(position.parse_move("32-28").unwrap(), Duration::ZERO).unwrap();
    let reply = send(&mut session, &mv(19, 55, &[]));
    assert_eq!(
        wires(&reply),
        ["E00", "Cerror: illegal move M0000195500: 19-55: square 55 is not on the board (1-50)"]
    );
    let reply = send(&mut session, &mv(19, 23, &[28]));
    assert_eq!(wires(&reply), ["Cerror: MOVE after our GAMEEND: the game is over"]);
}

#[test]
fn the_peer_ends_the_game_and_we_acknowledge() {
    for (end, result) in [
        ("E10", PdnResult::Win(Color::White)),
        ("E20", PdnResult::Draw),
        ("E30", PdnResult::Win(Color::Black)),
        ("E00", PdnResult::Unknown),
    ] {
        let mut session = follower();
        send(&mut session, &request('W', None));
        let (position, _) = session.to_move().unwrap();
        session.play(position.parse_move("32-28").unwrap(), Duration::ZERO).unwrap();
        let reply = send(&mut session, end);
        assert_eq!(wires(&reply), ["E00"], "{end}");
        let Some(Event::GameEnded(game)) = reply.events.first() else { panic!("{:?}", reply.events) };
        assert_eq!(game.result, result, "{end}: {}", game.ending);
        assert_eq!(reply.next, Next::Wait, "{end}: willing to play another");
        // Another game may follow.
        let reply = send(&mut session, &request('Z', None));
        assert_eq!(wires(&reply), [format!("A{:<32}0", "follower")]);
        assert_eq!(session.games(), 2);
    }
}

#[test]
fn a_lost_position_is_ended_by_us_on_our_turn() {
    // After White's capture Black has no piece: our GAMEEND says we give up.
    let start = Board::<International>::from_fen("W:W33:B28").unwrap();
    let mut session = follower();
    let reply = send(&mut session, &request('Z', Some(position_text(&start))));
    assert_eq!(wires(&reply), [format!("A{:<32}0", "follower")]);
    let reply = send(&mut session, &mv(33, 22, &[28]));
    assert_eq!(wires(&reply), ["E10"], "{:?}", reply.events);
    let reply = send(&mut session, "E00");
    let Some(Event::GameEnded(game)) = reply.events.first() else { panic!("{:?}", reply.events) };
    assert_eq!(game.result, PdnResult::Win(Color::White));
    assert_eq!(game.ending, "White wins: Black has no legal move");
    assert!(reply.send.is_empty(), "an acknowledgement is not acknowledged");
}

#[test]
fn back_requests_go_back_when_they_name_a_position_of_the_game() {
    let mut session = follower();
    send(&mut session, &request('Z', None));
    send(&mut session, &mv(32, 28, &[]));
    let (position, _) = session.to_move().unwrap();
    session.play(position.parse_move("19-23").unwrap(), Duration::ZERO).unwrap();
    send(&mut session, &mv(28, 19, &[23]));
    // Back to move 2, White to move: two plies, then it is the peer's move.
    let reply = send(&mut session, "B002W");
    assert_eq!(wires(&reply), ["K0"]);
    assert!(matches!(reply.events[..], [Event::TookBack(2)]));
    assert_eq!(reply.next, Next::Wait);
    // Back to the first move with Black to move: our move again.
    let reply = send(&mut session, "B001Z");
    assert_eq!(wires(&reply), ["K0"]);
    assert_eq!(reply.next, Next::Think);
    assert_eq!(session.to_move().unwrap().1.len(), 1);
    let reply = send(&mut session, "B009W");
    assert_eq!(
        wires(&reply),
        ["K2", "Cerror: BACKREQ: there is no move 9 with White to move in this game of 1 plies"]
    );
}

#[test]
fn a_game_request_during_a_game_is_declined() {
    let mut session = follower();
    send(&mut session, &request('W', None));
    let reply = send(&mut session, &request('W', None));
    assert_eq!(
        wires(&reply),
        [
            format!("A{:<32}2", "follower"),
            "Cerror: GAMEREQ during a game: end it with GAMEEND first".to_string()
        ]
    );
    assert_eq!(reply.next, Next::Think, "the game goes on");
}

#[test]
fn the_initiator_hears_a_declined_request() {
    let mut session = Session::<International>::new(Role::Initiator, "initiator");
    assert_eq!(session.next(), Next::RequestGame);
    let settings = GameSettings { start: Board::start(), ours: Color::White, minutes: 5, moves: 0 };
    let reply = session.request_game(settings).unwrap();
    assert_eq!(wires(&reply), [format!("R01{:<32}Z005000A", "initiator")]);
    let reply = send(&mut session, &format!("A{:<32}2", "Scan"));
    assert!(matches!(reply.events[..], [Event::Declined(AcceptCode::Declined)]));
    assert_eq!(reply.next, Next::Close);
}

/// The GAMEREQ of a position names each square in number order.
#[test]
fn positions_are_sent_square_by_square() {
    let board = Board::<International>::from_fen("B:WK46,33:BK5,12").unwrap();
    let text = position_text(&board);
    assert_eq!(text.len(), 51);
    for (square, letter) in [(0, 'Z'), (5, 'Z'), (12, 'z'), (33, 'w'), (46, 'W'), (1, 'e')] {
        assert_eq!(text.chars().nth(square), Some(letter), "{square}: {text}");
    }
}
