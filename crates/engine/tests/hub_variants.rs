//! The Hub protocol's state machine line by line in the variants on boards of any size:
//! International, Frisian, Turkish and Canadian positions, moves and refusals in both
//! numberings, the variant names and aliases, and searches answered in each variant's
//! numbering by a [`SyncSession`].

use checkers_engine::hub::{
    board_move_from_hub, board_move_to_hub, board_to_hub, Action, GoMode, Hub, HubFen, HubVariant, Numbering,
    SearchJob, SyncSession,
};
use checkers_rules::board::{
    Board, BoardMove, BoardVariant, Canadian, Frisian, International, RuleSet, Turkish,
};
use checkers_rules::{Position, Variant};

/// Feeds lines that must be answered with nothing.
fn quiet(hub: &mut Hub, lines: &[&str]) {
    for line in lines {
        let reply = hub.handle(line);
        assert!(reply.lines.is_empty(), "{line}: {:?}", reply.lines);
    }
}

/// The one error line a line is answered with.
fn refused(hub: &mut Hub, line: &str) -> String {
    let reply = hub.handle(line);
    assert_eq!(reply.action, Action::None, "{line}");
    assert_eq!(reply.lines.len(), 1, "{line}: {:?}", reply.lines);
    let message = reply.lines[0].strip_prefix("error message=\"").and_then(|m| m.strip_suffix('"'));
    message.unwrap_or_else(|| panic!("{line}: {:?}", reply.lines)).to_string()
}

/// The search `go think` asks for.
fn search(hub: &mut Hub) -> SearchJob {
    let reply = hub.handle("go think");
    let Action::Search(job) = reply.action else { panic!("no search: {reply:?}") };
    hub.search_finished();
    job
}

/// The position `moves` (long or Hub form, standard numbering) lead to from `fen`, and the
/// positions before it.
fn replay<V: HubFen>(fen: &str, moves: &[&str]) -> (Board<V>, Vec<Board<V>>) {
    let mut board = V::read_fen(fen).unwrap();
    let mut history = Vec::new();
    for text in moves {
        let mv: BoardMove<V> = board.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        history.push(board);
        board = board.play_unchecked(&mv);
    }
    (board, history)
}

fn assert_game<V: RuleSet>(job: &SearchJob, expected: &(Board<V>, Vec<Board<V>>))
where
    Board<V>: checkers_engine::hub::HubPosition,
{
    assert_eq!(job.game.position::<Board<V>>(), Some(&expected.0));
    assert_eq!(job.game.history::<Board<V>>(), Some(expected.1.as_slice()));
    assert_eq!(job.game.position::<Position>(), None);
}

#[test]
fn every_variant_is_offered_and_named_as_clients_name_it() {
    let mut hub = Hub::new();
    let introduction = hub.handle("hub").lines;
    assert!(introduction.contains(
        &"param name=variant value=english type=enum values=\"english russian international brazilian canadian \
          frisian frysk antidraughts breakthrough italian spanish portuguese czech pool thai turkish\""
            .to_string()
    ));
    for variant in HubVariant::ALL {
        quiet(&mut hub, &[&format!("set-param name=variant value={variant}")]);
        assert_eq!(hub.variant(), variant);
    }
    for (alias, variant) in [
        ("standard", BoardVariant::International),
        ("normal", BoardVariant::International),
        ("fromPosition", BoardVariant::International),
        ("\"from position\"", BoardVariant::International),
        ("frysk!", BoardVariant::Frysk),
        ("losing", BoardVariant::Antidraughts),
        ("bt", BoardVariant::Breakthrough),
        ("FRISIAN", BoardVariant::Frisian),
    ] {
        quiet(&mut hub, &[&format!("set-param name=variant value={alias}")]);
        assert_eq!(hub.variant(), HubVariant::Board(variant), "{alias}");
    }
    let message = refused(&mut hub, "set-param name=variant value=killer");
    assert_eq!(
        message,
        "bad value `killer` for `variant`: expected one of english, russian, international, brazilian, canadian, \
         frisian, frysk, antidraughts, breakthrough, italian, spanish, portuguese, czech, pool, thai, turkish"
    );
    assert_eq!(hub.variant(), HubVariant::Board(BoardVariant::Frisian), "a refused name changes nothing");
    quiet(&mut hub, &["set-param name=variant value=American"]);
    assert_eq!(hub.variant(), HubVariant::Eight(Variant::English));
}

#[test]
fn international_positions_moves_and_refusals() {
    let mut hub = Hub::new();
    let start = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";
    quiet(
        &mut hub,
        &[
            "set-param name=variant value=international",
            &format!("pos pos={start} moves=\"32-28 19-23 28x19 14x23\""),
        ],
    );
    let expected = replay::<International>("W:W31-50:B1-20", &["32-28", "19-23", "28x19", "14x23"]);
    let job = search(&mut hub);
    assert_game::<International>(&job, &expected);
    assert_eq!(job.mode, GoMode::Think);
    // PDN FEN, and pydraughts' numbering (the same on this board).
    quiet(
        &mut hub,
        &[
            "set-param name=numbering value=pydraughts",
            "pos pos=W:W31-50:B1-20 moves=\"32-28 19-23 28x19x23 14x23x19\"",
        ],
    );
    assert_game::<International>(&search(&mut hub), &expected);
    quiet(&mut hub, &["set-param name=numbering value=standard"]);

    for (line, message) in [
        ("pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", "bad position `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`: expected 51 letters (W or B, then one of w b W B e for each of squares 1-50), found 33"),
        (&format!("pos pos={start} moves=\"31-25\""), "bad move 1 `31-25` in moves: 31 can go to 26 or 27"),
        (&format!("pos pos={start} moves=\"51-46\""), "bad move 1 `51-46` in moves: `51` is not a square 1-50"),
        (&format!("pos pos={start} moves=\"32-28 19-23 33-29\""), "bad move 3 `33-29` in moves: a capture of 1 piece is compulsory: 28x19"),
        (&format!("pos pos={start} moves=\"32x28\""), "bad move 1 `32x28` in moves: a capture is written with x, a quiet move with -"),
        ("pos pos=W:W51:B1", "bad position `W:W51:B1`: malformed FEN: FEN square `51` is not a square of the 10x10 board (squares are numbers 1-50)"),
    ] {
        assert_eq!(refused(&mut hub, line), message, "{line}");
        // A refused position is dropped: `go` is refused too.
        assert_eq!(refused(&mut hub, "go think"), "no position to search: send `pos pos=...` first");
    }
    // Changing the variant forgets the position.
    quiet(&mut hub, &[&format!("pos pos={start}"), "set-param name=variant value=frisian"]);
    assert!(refused(&mut hub, "go").starts_with("no position"));
}

#[test]
fn frisian_captures_along_files_the_value_rule_and_the_king_limit() {
    let mut hub = Hub::new();
    quiet(&mut hub, &["set-param name=variant value=frisian", "pos pos=W:W28:B29"]);
    let job = search(&mut hub);
    let board = job.game.position::<Board<Frisian>>().copied().unwrap();
    let moves: Vec<String> =
        board.legal_moves().iter().map(|m| board_move_to_hub(m, Numbering::Standard)).collect();
    assert_eq!(moves, ["28x30x29"], "a man takes along its rank");
    // Two kings outweigh three men: the route over the kings is the only capture.
    let fen = "W:W28:BK11,K22,13,24,29";
    quiet(&mut hub, &[&format!("pos pos={fen} moves=\"28x6x11x22\"")]);
    assert_game::<Frisian>(&search(&mut hub), &replay::<Frisian>(fen, &["28x17x6"]));
    assert!(refused(&mut hub, &format!("pos pos={fen} moves=\"28x19x24x29x13\"")).starts_with("bad move 1"));
    // A king that has made three quiet moves in a row may not make a fourth (the run comes
    // in lidraughts' FEN field; a Hub position starts with none).
    let limited = "W:W45,K28:B1:+0+328";
    let message = refused(&mut hub, &format!("pos pos={limited} moves=\"28-22\""));
    assert!(message.starts_with("bad move 1 `28-22` in moves: "), "{message}");
    quiet(&mut hub, &[&format!("pos pos={limited} moves=\"45-40\"")]);
    assert_game::<Frisian>(&search(&mut hub), &replay::<Frisian>(limited, &["45-40"]));
    let letters = board_to_hub(&Board::<Frisian>::from_fen("W:W45,K28:B1").unwrap());
    quiet(&mut hub, &[&format!("pos pos={letters} moves=\"28-22\"")]);
}

#[test]
fn turkish_squares_are_named_in_the_standard_numbering_and_counted_from_a1_in_pydraughts() {
    let mut hub = Hub::new();
    let start =
        format!("W{}{}{}{}{}", "e".repeat(8), "b".repeat(16), "e".repeat(16), "w".repeat(16), "e".repeat(8));
    quiet(
        &mut hub,
        &["set-param name=variant value=turkish", &format!("pos pos={start} moves=\"a3-a4 b6-b5 a4-a5\"")],
    );
    let expected = replay::<Turkish>("W:Wa2-h2,a3-h3:Ba6-h6,a7-h7", &["a3-a4", "b6-b5", "a4-a5"]);
    assert_game::<Turkish>(&search(&mut hub), &expected);
    let message = refused(&mut hub, &format!("pos pos={start} moves=\"17-25\""));
    assert_eq!(message, "bad move 1 `17-25` in moves: `17` is not a square a1 to h8");

    quiet(
        &mut hub,
        &[
            "set-param name=numbering value=pydraughts",
            &format!("pos pos={start} moves=\"17-25 42-34 25-33\""),
        ],
    );
    assert_game::<Turkish>(&search(&mut hub), &expected);
    let message = refused(&mut hub, &format!("pos pos={start} moves=\"a3-a4\""));
    assert_eq!(message, "bad move 1 `a3-a4` in moves: `a3` is not a square 1-64");
    // A strike, in both numberings.
    let strike = "W:Wd4:Bd5,c4,e4,d3";
    quiet(&mut hub, &[&format!("pos pos={strike} moves=\"28x44x36\"")]);
    let after = replay::<Turkish>(strike, &["d4xd6"]);
    assert_game::<Turkish>(&search(&mut hub), &after);
    quiet(
        &mut hub,
        &["set-param name=numbering value=standard", &format!("pos pos={strike} moves=\"d4xd6xd5\"")],
    );
    assert_game::<Turkish>(&search(&mut hub), &after);
    assert!(refused(&mut hub, &format!("pos pos=W{}", "e".repeat(50))).contains("expected 65 letters"));
}

#[test]
fn canadian_positions_have_seventy_two_squares() {
    let mut hub = Hub::new();
    let start = format!("W{}{}{}", "b".repeat(30), "e".repeat(12), "w".repeat(30));
    assert_eq!(board_to_hub(&Board::<Canadian>::start()), start);
    let first = Board::<Canadian>::start().legal_moves()[0];
    let text = board_move_to_hub(&first, Numbering::Standard);
    quiet(&mut hub, &["set-param name=variant value=canadian", &format!("pos pos={start} moves=\"{text}\"")]);
    let expected = replay::<Canadian>(&Board::<Canadian>::start().to_fen(), &[&text]);
    assert_game::<Canadian>(&search(&mut hub), &expected);
    let message = refused(&mut hub, &format!("pos pos={start} moves=\"73-67\""));
    assert_eq!(message, "bad move 1 `73-67` in moves: `73` is not a square 1-72");
    assert!(refused(&mut hub, &format!("pos pos=W{}", "e".repeat(50))).contains("expected 73 letters"));
    let blocked = board_move_from_hub(&expected.0, "1-7", Numbering::Pydraughts).unwrap_err();
    assert_eq!(blocked.to_string(), "the piece on 1 cannot move");
}

#[test]
fn antidraughts_without_a_move_has_won() {
    let mut hub = Hub::new();
    quiet(&mut hub, &["set-param name=variant value=antidraughts", "pos pos=W:W:B1"]);
    let reply = hub.handle("go think");
    assert_eq!(reply.action, Action::None);
    assert_eq!(reply.lines, ["error message=\"no legal move: the side to move has won\"", "done move=0-0"]);
    quiet(&mut hub, &["set-param name=variant value=international", "pos pos=W:W:B1"]);
    assert_eq!(hub.handle("go").lines[0], "error message=\"no legal move: the side to move has lost\"");
}

/// Whole searches: each variant answered with a legal move in its numbering, the engine
/// rebuilt when the variant changes and kept while it does not.
#[test]
fn searches_answer_in_each_variants_numbering() {
    let mut session = SyncSession::new();
    let feed = |session: &mut SyncSession, line: &str| session.feed(line).unwrap_or_default();
    feed(&mut session, "set-param name=hash value=4");
    feed(&mut session, "set-param name=variant value=turkish");
    assert_eq!(feed(&mut session, "init"), ["ready"]);
    assert!(session.engine().is_some_and(|e| e.is_for::<Board<Turkish>>()));
    for (numbering, n) in [("standard", Numbering::Standard), ("pydraughts", Numbering::Pydraughts)] {
        feed(&mut session, &format!("set-param name=numbering value={numbering}"));
        feed(
            &mut session,
            &format!(
                "pos pos=W{}{}{}{}{}",
                "e".repeat(8),
                "b".repeat(16),
                "e".repeat(16),
                "w".repeat(16),
                "e".repeat(8)
            ),
        );
        let out = feed(&mut session, "level depth=3");
        assert!(out.is_empty());
        let out = feed(&mut session, "go think");
        let (done, infos) = out.split_last().unwrap();
        assert!(infos.iter().all(|l| l.starts_with("info depth=")), "{out:?}");
        assert!(infos.last().unwrap().starts_with("info depth=3 "), "{out:?}");
        let best = done.strip_prefix("done move=").unwrap().split(' ').next().unwrap();
        // Square names in the standard numbering, numbers in pydraughts'.
        assert_eq!(best.starts_with(|c: char| c.is_ascii_lowercase()), n == Numbering::Standard, "{done}");
        assert!(board_move_from_hub(&Board::<Turkish>::start(), best, n).is_ok(), "{done}");
    }
    feed(&mut session, "set-param name=variant value=international");
    feed(&mut session, "set-param name=numbering value=standard");
    feed(&mut session, "pos pos=W:W31-50:B1-20");
    feed(&mut session, "level nodes=2000");
    let out = feed(&mut session, "go think");
    assert!(
        session.engine().is_some_and(|e| e.is_for::<Board<International>>()),
        "rebuilt for the new variant"
    );
    let best = out.last().unwrap().strip_prefix("done move=").unwrap().split(' ').next().unwrap();
    assert!(
        board_move_from_hub(&Board::<International>::start(), best, Numbering::Standard).is_ok(),
        "{out:?}"
    );
}
