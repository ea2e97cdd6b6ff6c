//! The rules of play of [`LiveGame`], one game at a time, without sockets.

use super::*;
use checkers_rules::{Position, Variant};

fn two_humans(clock: Option<ClockSpec>) -> LiveGame {
    let seats = [Seat::human(None, Some("w".into())), Seat::human(None, None)];
    let mut g = LiveGame::new("g".into(), Position::start(Variant::English), seats, clock, true, 0);
    g.join(None, "b".into(), Some("Bea".into()), 1000).unwrap();
    g
}

fn text(t: &str) -> MoveRequest {
    MoveRequest { text: Some(t.into()), ..Default::default() }
}

#[test]
fn turn_legality_and_clock() {
    let mut g = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 2_000 }));
    assert_eq!(g.status, Status::Playing);
    assert_eq!(g.flag_deadline_ms(), None, "no clock runs before the first moves");
    let mv = g.resolve_move(&text("11-15")).unwrap();
    assert_eq!(g.play(Color::White, mv.clone(), 2000), Err(Refusal::NotYourTurn("Black")));
    // Each side's first move costs no time and gains no increment, however long it took.
    let rec = g.play(Color::Black, mv, 90_000).unwrap();
    assert_eq!((rec.ply, rec.hub.as_str(), rec.black_ms, rec.white_ms), (0, "11-15", 60_000, 60_000));
    assert!(g.resolve_move(&text("11-15")).is_err());
    assert_eq!(g.flag_deadline_ms(), None);
    let rec = g.play(Color::White, g.resolve_move(&text("23-19")).unwrap(), 200_000).unwrap();
    assert_eq!((rec.black_ms, rec.white_ms), (60_000, 60_000));
    // Black's clock starts with White's first move; from then on, time and increment count.
    assert_eq!(g.flag_deadline_ms(), Some(260_000));
    let rec = g.play(Color::Black, g.resolve_move(&text("8-11")).unwrap(), 204_000).unwrap();
    assert_eq!((rec.black_ms, rec.white_ms), (58_000, 60_000));
    assert_eq!(g.flag_deadline_ms(), Some(264_000));
    assert!(!g.check_flag(263_999));
    assert!(g.check_flag(264_000));
    assert_eq!(g.status, Status::Finished);
    // White ran out of time; Black, who moves first in English, won: `1-0` in PDN.
    assert_eq!(g.game.result_text(), "1-0");
    assert_eq!(reason_code(&g.outcome().unwrap()), "time");
}

#[test]
fn the_computer_is_charged_for_its_search_not_for_waiting_and_never_flags() {
    let clock = Some(ClockSpec { base_ms: 10_000, increment_ms: 0 });
    // The person plays White; in English the computer, Black, moves first.
    let seats = [Seat::human(None, Some("w".into())), Seat::computer(9)];
    let mut g = LiveGame::new("g".into(), Position::start(Variant::English), seats, clock, false, 0);
    assert_eq!(g.computer_to_move(), Some(9));
    assert_eq!(g.flag_deadline_ms(), None, "waiting for an engine never flags the computer");
    assert!(!g.check_flag(60_000));
    let mv = g.resolve_move(&text("11-15")).unwrap();
    // Queued for 60 s, then a search of 400 ms, for its first move: that costs no time.
    let record = g.play_computer(mv, 60_000, 400).unwrap();
    assert_eq!(record.black_ms, 10_000);
    assert_eq!(g.flag_deadline_ms(), None, "nor does the person's first move");
    let reply = g.resolve_move(&text("22-18")).unwrap();
    g.play(Color::White, reply, 61_000).unwrap();
    assert_eq!(g.flag_deadline_ms(), None, "waiting for an engine never flags the computer");
    // Queued for 60 s again, then a search of 400 ms.
    let mv = g.game.legal()[0].mv.clone();
    let record = g.play_computer(mv, 121_000, 400).unwrap();
    assert_eq!(record.black_ms, 10_000 - 400 - COMPUTER_MOVE_OVERHEAD_MS);
    assert_eq!(g.flag_deadline_ms(), Some(131_000), "the person's clock runs as always");
    let reply = g.game.legal()[0].mv.clone();
    g.play(Color::White, reply, 122_000).unwrap();
    // The charge is never more than the time since the turn began, nor all the time left.
    let mv = g.game.legal()[0].mv.clone();
    let record = g.play_computer(mv, 122_005, 400).unwrap();
    assert_eq!(record.black_ms, 10_000 - 410 - 5);
    g.remaining_ms[1] = 30;
    let reply = g.game.legal()[0].mv.clone();
    g.play(Color::White, reply, 123_000).unwrap();
    let record = g.play_computer(g.game.legal()[0].mv.clone(), 131_000, 25).unwrap();
    assert_eq!((record.black_ms, g.status), (1, Status::Playing));
    // A resignation while the computer thinks does not charge it for the wait either.
    let reply = g.game.legal()[0].mv.clone();
    g.play(Color::White, reply, 131_000).unwrap();
    g.resign(Color::White, 151_000).unwrap();
    assert_eq!(g.remaining_ms[1], 1);
}

#[test]
fn snapshot_fields() {
    let mut g = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 0 }));
    let mv = g.resolve_move(&text("11-15")).unwrap();
    g.play(Color::Black, mv, 2000).unwrap();
    let state: serde_json::Value = serde_json::from_str(&crate::protocol::state_text(&g, 3000)).unwrap();
    let game = &state["game"];
    assert_eq!(state["t"], "state");
    assert_eq!((game["ply"].as_u64(), game["turn"].as_str()), (Some(1), Some("white")));
    assert_eq!(game["moves"], serde_json::json!(["11-15"]));
    assert_eq!(
        game["last_move"],
        serde_json::json!({"text": "11-15", "route": [11, 15], "captured": [], "book": false})
    );
    assert_eq!(game["legal"].as_array().map(Vec::len), Some(7));
    assert_eq!(
        game["clock"],
        serde_json::json!({"base_ms": 60_000, "increment_ms": 0, "white_ms": 60_000, "black_ms": 60_000, "running": null})
    );
    assert_eq!(game["players"]["black"], serde_json::json!({"kind": "human", "name": "Bea", "seated": true}));
    assert_eq!((game["result"].is_null(), game["draw_offer"].is_null()), (true, true));
}

#[test]
fn the_last_move_says_when_the_computer_played_it_from_its_book() {
    let book_flag = |g: &LiveGame| {
        let state: serde_json::Value = serde_json::from_str(&crate::protocol::state_text(g, 0)).unwrap();
        state["game"]["last_move"]["book"].as_bool()
    };
    for (level, from_book) in [(9, true), (7, true), (4, false)] {
        // The person plays Black and moves first; the computer (White) answers.
        let seats = [Seat::computer(level), Seat::human(None, Some("b".into()))];
        let mut g = LiveGame::new("g".into(), Position::start(Variant::English), seats, None, false, 0);
        let opening = g.resolve_move(&text("11-15")).unwrap();
        g.play(Color::Black, opening, 0).unwrap();
        assert_eq!(book_flag(&g), Some(false), "a person's move");
        let after = Position::from_fen(Variant::English, &g.game.fen()).unwrap();
        let level = Level::new(u32::from(level)).unwrap();
        let reply = level.book_move(&after, 3).unwrap_or_else(|| after.legal_moves()[0]);
        let reply = g.game.legal_move(&reply.to_hub()).unwrap();
        g.play(Color::White, reply, 0).unwrap();
        assert_eq!(book_flag(&g), Some(from_book), "level {}", level.number());
    }
}

#[test]
fn a_stored_move_the_rules_refuse_is_a_typed_replay_error() {
    let mut g = two_humans(None);
    let stored = |ply: u32, hub: &str| MoveRecord {
        ply,
        hub: hub.to_string(),
        pdn: String::new(),
        fen_after: String::new(),
        white_ms: 0,
        black_ms: 0,
        played_ms: 0,
    };
    assert_eq!(g.replay(&stored(0, "11-15")), Ok(()));
    let refused = g.replay(&stored(1, "11-15"));
    assert_eq!(refused, Err(ReplayError::NotLegal { ply: 1, text: "11-15".into() }));
    assert_eq!(refused.unwrap_err().to_string(), "stored move 11-15 (ply 1) is not legal");
    g.resign(Color::White, 0).unwrap();
    let after_the_end = g.replay(&stored(1, "22-18"));
    assert!(matches!(after_the_end, Err(ReplayError::Refused { ply: 1, .. })), "{after_the_end:?}");
}

#[test]
fn squares_form_and_ambiguity() {
    let g = two_humans(None);
    let req = MoveRequest { from: Some(9), to: Some(13), ..Default::default() };
    assert_eq!(g.resolve_move(&req).unwrap().hub(), "9-13");
    let bad = MoveRequest { from: Some(9), to: Some(33), ..Default::default() };
    assert!(matches!(g.resolve_move(&bad), Err(Refusal::IllegalMove(_))));
}

#[test]
fn draw_offer_accept_and_rematch_swaps_seats() {
    let mut g = two_humans(None);
    assert_eq!(g.accept_draw(Color::White, 0), Err(Refusal::NoDrawOffer));
    assert_eq!(g.offer_draw(Color::White, 0), Ok(false));
    assert_eq!(g.offer_draw(Color::Black, 0), Ok(true));
    assert_eq!(g.status, Status::Finished);
    assert_eq!(reason_code(&g.outcome().unwrap()), "agreement");
    assert!(g.ask_rematch(Color::White, "r".into(), 5).unwrap().is_none());
    let next = g.ask_rematch(Color::Black, "r".into(), 5).unwrap().unwrap();
    assert_eq!(next.seats[0].token_hash.as_deref(), Some("b"));
    assert_eq!(next.status, Status::Playing);
    assert_eq!(g.rematch_game.as_deref(), Some("r"));
}

#[test]
fn a_game_can_be_aborted_until_both_sides_have_moved() {
    let mut g = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 0 }));
    g.play(Color::Black, g.resolve_move(&text("11-15")).unwrap(), 2_000).unwrap();
    let mut aborted = g.clone();
    aborted.abort().unwrap();
    assert_eq!((aborted.status, aborted.aborted, aborted.outcome()), (Status::Finished, true, None));
    assert_eq!(aborted.abort(), Err(Refusal::GameOver));
    g.play(Color::White, g.resolve_move(&text("23-19")).unwrap(), 3_000).unwrap();
    assert!(!g.abortable());
    assert_eq!(g.abort(), Err(Refusal::TooLateToAbort));
    assert_eq!(g.status, Status::Playing);
}

#[test]
fn a_timed_game_the_opponent_left_is_claimed_as_a_win_or_a_draw() {
    let mut g = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 0 }));
    g.play(Color::Black, g.resolve_move(&text("11-15")).unwrap(), 2_000).unwrap();
    // Before both sides have moved, a game is aborted, not claimed.
    g.gone = Some(Color::White);
    assert!(!g.claimable_against(Color::White));
    assert_eq!(g.claim(Color::Black, false, 2_500), Err(Refusal::NothingToClaim));
    g.play(Color::White, g.resolve_move(&text("23-19")).unwrap(), 3_000).unwrap();
    assert!(g.claimable_against(Color::White));
    g.gone = None;
    assert_eq!(g.claim(Color::Black, false, 4_000), Err(Refusal::NothingToClaim), "nobody has left");
    g.gone = Some(Color::White);
    assert_eq!(g.claim(Color::White, false, 4_000), Err(Refusal::NothingToClaim), "only the one who stayed");
    let mut draw = g.clone();
    draw.claim(Color::Black, true, 4_000).unwrap();
    assert_eq!((draw.status, draw.abandoned_by), (Status::Finished, Some(Color::White)));
    assert_eq!(draw.outcome().map(|o| o.winner), Some(None));
    assert_eq!(draw.remaining_ms, [60_000, 59_000], "Black's clock stopped at the claim");
    g.claim(Color::Black, false, 4_000).unwrap();
    assert_eq!(g.outcome().and_then(|o| o.winner), Some(Color::Black));
    // An untimed game is not claimed (it ends once unplayed for long).
    let mut untimed = two_humans(None);
    untimed.gone = Some(Color::White);
    assert!(!untimed.claimable_against(Color::White));
}

#[test]
fn a_game_unplayed_for_long_ends_as_lichess_ends_it() {
    const DAY: i64 = 24 * 3600 * 1000;
    let mut g = two_humans(None);
    assert!(!g.end_if_unplayed(1000 + 7 * DAY - 1, 7 * DAY));
    let mut unmoved = g.clone();
    assert!(unmoved.end_if_unplayed(1000 + 7 * DAY, 7 * DAY));
    assert!(unmoved.aborted && unmoved.outcome().is_none(), "not both sides moved: aborted");
    g.play(Color::Black, g.resolve_move(&text("11-15")).unwrap(), 2_000).unwrap();
    g.play(Color::White, g.resolve_move(&text("23-19")).unwrap(), 3_000).unwrap();
    assert!(!g.end_if_unplayed(3_000 + 7 * DAY - 1, 7 * DAY), "the turn began with the last move");
    assert!(g.end_if_unplayed(3_000 + 7 * DAY, 7 * DAY));
    // Black, to move, loses.
    assert_eq!(
        (g.abandoned_by, g.outcome().and_then(|o| o.winner)),
        (Some(Color::Black), Some(Color::White))
    );
    // A running clock ends the game on time instead.
    let mut timed = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 0 }));
    timed.play(Color::Black, timed.resolve_move(&text("11-15")).unwrap(), 2_000).unwrap();
    timed.play(Color::White, timed.resolve_move(&text("23-19")).unwrap(), 3_000).unwrap();
    assert!(!timed.end_if_unplayed(3_000 + 7 * DAY, 7 * DAY));
}

#[test]
fn takebacks_are_asked_for_and_answered() {
    let mut g = two_humans(Some(ClockSpec { base_ms: 60_000, increment_ms: 0 }));
    assert_eq!(g.ask_takeback(Color::Black, 1_500), Err(Refusal::Takeback("you have no move to take back")));
    g.play(Color::Black, g.resolve_move(&text("11-15")).unwrap(), 2_000).unwrap();
    assert_eq!(g.ask_takeback(Color::Black, 2_500), Ok(false));
    assert_eq!(g.takeback_offer, Some(Color::Black));
    assert_eq!(
        g.answer_takeback(Color::Black, true, 2_600),
        Err(Refusal::Takeback("there is no takeback request to answer"))
    );
    g.answer_takeback(Color::White, false, 3_000).unwrap();
    assert_eq!((g.takeback_offer, g.ply()), (None, 1));
    g.ask_takeback(Color::Black, 3_500).unwrap();
    g.answer_takeback(Color::White, true, 4_000).unwrap();
    assert_eq!(
        (g.ply(), g.game.fen(), g.pdn_moves.len()),
        (0, Position::start(Variant::English).to_fen(), 0)
    );
    // Once the clocks run, a takeback of Black's move and White's reply leaves Black's clock
    // running from then on, with the time it showed.
    for (side, mv, at) in
        [(Color::Black, "11-15", 5_000), (Color::White, "23-19", 6_000), (Color::Black, "8-11", 9_000)]
    {
        g.play(side, g.resolve_move(&text(mv)).unwrap(), at).unwrap();
    }
    g.play(Color::White, g.resolve_move(&text("22-17")).unwrap(), 10_000).unwrap();
    assert_eq!(g.ask_takeback(Color::Black, 11_000), Ok(false));
    // A move instead of an answer lets the request lapse.
    let mut moved = g.clone();
    moved.play(Color::Black, moved.game.legal()[0].mv.clone(), 12_000).unwrap();
    assert_eq!(moved.takeback_offer, None);
    g.answer_takeback(Color::White, true, 12_000).unwrap();
    assert_eq!((g.ply(), g.turn()), (2, Color::Black));
    assert_eq!((g.remaining_ms, g.turn_started_ms), ([59_000, 57_000 - 2_000], Some(12_000)));
    // Against the computer, it is done at once.
    let seats = [Seat::computer(1), Seat::human(None, Some("b".into()))];
    let mut c = LiveGame::new("c".into(), Position::start(Variant::English), seats, None, false, 0);
    c.play(Color::Black, c.resolve_move(&text("11-15")).unwrap(), 1_000).unwrap();
    assert_eq!((c.ask_takeback(Color::Black, 2_000), c.ply()), (Ok(true), 0));
}
