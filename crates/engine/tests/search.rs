//! The engine's promises: it finds forced wins in composed positions within a node budget,
//! never returns an illegal move (whatever stops it), and repeats itself exactly under a
//! node budget with one thread.

use std::time::Duration;

use checkers_engine::{DrawAnswer, Engine, EngineOptions, Level, Limits, Score, StopHandle};
use checkers_rules::{Color, Position, SquareNotation, Variant};

fn engine() -> Engine {
    Engine::new(EngineOptions { hash_mb: 4, threads: 1 })
}

fn position(variant: Variant, fen: &str) -> Position {
    Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn best(engine: &mut Engine, p: &Position, limits: Limits) -> (String, Score) {
    let r = engine.search(p, &[], &limits, &StopHandle::new(), &mut |_| {});
    let mv = r.best_move.expect("a move");
    assert!(p.is_legal(&mv));
    (mv.to_pdn(p, SquareNotation::Numeric), r.score)
}

/// A sacrifice that forces a capture, answered by a double jump that takes every remaining
/// piece: 22-18 forces 14x23 (27x18x11) or 15x22 (25x18x9). Black is left with nothing: a win
/// in 3 plies, the quickest possible (White has no capture now, Black has two men). The
/// same holds in Russian (no backward capture is open to Black's men here), and for the
/// position turned round with Black to move.
#[test]
fn finds_the_sacrifice_that_clears_the_board() {
    let cases = [
        (Variant::English, "W:W22,25,27,29,32:B14,15", "22-18"),
        (Variant::English, "B:W18,19:B1,4,6,8,11", "11-15"),
        (Variant::Russian, "W:W22,25,27,29,32:B14,15", "22-18"),
        (Variant::Russian, "B:W18,19:B1,4,6,8,11", "11-15"),
    ];
    for (variant, fen, expected) in cases {
        let p = position(variant, fen);
        let (mv, score) = best(&mut engine(), &p, Limits::nodes(20_000));
        assert_eq!(mv, expected, "{variant} {fen}");
        assert_eq!(score, Score::win_in(3), "{variant} {fen}");
    }
}

/// Shots and two-for-ones: in each position one move, a sacrifice, wins a piece by force,
/// and no other move wins one. The positions were found by placing four to eight men a side at
/// random, material even, and keeping those where the minimax below (pieces counted, captures
/// followed to the end) gives exactly one move a piece more after five plies, that move hands
/// the opponent a capture, and a 20-ply search of the engine with two lines puts it ahead of
/// the next move by 0.8 of a man or more. The test checks the first two again with the
/// minimax, which does not use the engine, and that the engine finds the move within the
/// budget.
#[test]
fn finds_the_shot_in_built_positions() {
    const SHOTS: [(Variant, &str, &str); 15] = [
        (Variant::English, "B:W9,11,15,17,28,30,31:B4,12,13,16,21,22,24", "22-25"),
        (Variant::English, "W:W7,12,13,19,21,26,29,31:B3,6,8,9,11,16,20,24", "26-23"),
        (Variant::English, "W:W6,13,15,17,22,28,29,31:B1,7,12,16,18,20,23,26", "6-2"),
        (Variant::English, "W:W10,11,18,20,21,24,31:B2,3,5,7,16,22,26", "10-6"),
        (Variant::English, "B:W5,13,21,23,25,29,30:B8,9,11,15,16,17,26", "26-31"),
        (Variant::English, "W:W13,14,19,21,23,25,30,32:B1,6,18,20,22,24,26,28", "14-9"),
        (Variant::English, "B:W15,19,25,26:B1,11,17,18", "17-21"),
        (Variant::English, "W:W5,12,27,29,31:B2,6,13,15,22", "31-26"),
        (Variant::Russian, "B:W8,14,20,25,28,29,30:B4,5,11,16,21,22,23", "22-26"),
        (Variant::Russian, "W:W5,11,16,22,26,32:B9,12,14,15,18,28", "11-7"),
        (Variant::Russian, "B:W6,8,9,11,20,31,32:B15,17,19,22,24,25,27", "19-23"),
        (Variant::Russian, "W:W7,12,16,23,27,32:B5,15,19,21,25,28", "7-3"),
        (Variant::Russian, "B:W10,15,18,21,25,27:B1,2,6,9,20,28", "20-24"),
        (Variant::Russian, "B:W7,9,13,14,17,22,26,31:B1,2,6,8,11,12,20,24", "1-5"),
        (Variant::Russian, "W:W6,7,10,13,14,17,21,29:B4,5,16,22,23,26,27,28", "14-9"),
    ];
    /// Pieces of the side to move less the opponent's.
    fn balance(p: &Position) -> i32 {
        p.pieces(p.turn()).len() as i32 - p.pieces(p.turn().opponent()).len() as i32
    }
    /// The balance after `plies` more plies of best play, captures followed to the end; a side
    /// with no move has lost everything.
    fn minimax(p: &Position, plies: u32) -> i32 {
        let moves = p.legal_moves();
        let Some(first) = moves.as_slice().first() else { return -100 };
        if plies == 0 && !first.is_capture() {
            return balance(p);
        }
        moves.iter().map(|m| -minimax(&p.play_unchecked(m), plies.saturating_sub(1))).max().unwrap_or(-100)
    }
    for (variant, fen, key) in SHOTS {
        let p = position(variant, fen);
        assert_eq!(balance(&p), 0, "{fen}: even material");
        for mv in p.legal_moves().iter() {
            let text = mv.to_pdn(&p, SquareNotation::Numeric);
            let after = p.play_unchecked(mv);
            let gained = -minimax(&after, 4);
            if text == key {
                assert!(after.has_capture(), "{fen}: {key} is a sacrifice");
                assert!(gained >= 1, "{fen}: {key} wins a piece ({gained})");
            } else {
                assert!(gained <= 0, "{fen}: {text} wins a piece too ({gained})");
            }
        }
        let (found, score) = best(&mut engine(), &p, Limits::nodes(50_000));
        assert_eq!(found, key, "{variant} {fen}");
        assert!(score.value() >= 100, "{variant} {fen}: {score}");
    }
}

/// Several lines: every depth ranks distinct root moves, best first, as many as asked or as
/// the position has; the move played is the first line's.
#[test]
fn several_lines_rank_distinct_moves_best_first() {
    let cases = [
        // The clearing sacrifice above: 22-18 wins at once, every other move does not.
        ("W:W22,25,27,29,32:B14,15", 3, Some("22-18")),
        // Two moves only (32-27, 32-28), five lines asked.
        ("W:W32:B1", 5, None),
    ];
    for (fen, asked, winner) in cases {
        let p = position(Variant::English, fen);
        let mut infos = Vec::new();
        let r = engine().search_lines(&p, &[], &Limits::depth(6), &StopHandle::new(), asked, &mut |i| {
            infos.push(i.clone())
        });
        let lines = asked.min(p.legal_moves().len());
        // A proven win ends the deepening early.
        let deepest = infos.iter().map(|i| i.depth).max().expect("an iteration");
        for depth in 1..=deepest {
            let at: Vec<_> = infos.iter().filter(|i| i.depth == depth).collect();
            assert_eq!(at.iter().map(|i| i.line).collect::<Vec<_>>(), (1..=lines as u32).collect::<Vec<_>>());
            let firsts: std::collections::HashSet<_> = at.iter().map(|i| i.pv[0]).collect();
            assert_eq!(firsts.len(), lines, "{fen} depth {depth}: distinct moves");
            assert!(at.windows(2).all(|w| w[0].score >= w[1].score), "{fen} depth {depth}: best first");
            assert!(at.iter().all(|i| p.is_legal(&i.pv[0])));
        }
        let last = infos.iter().rfind(|i| i.line == 1).expect("a first line");
        assert_eq!(r.best_move, Some(last.pv[0]));
        assert_eq!(r.score, last.score);
        if let Some(winner) = winner {
            assert_eq!(r.best_move.map(|m| m.to_pdn(&p, SquareNotation::Numeric)).as_deref(), Some(winner));
            assert_eq!(r.score, Score::win_in(3));
            assert!(infos.iter().filter(|i| i.line > 1).all(|i| i.score < Score::win_in(3)));
        }
    }
}

/// A side with no legal move has lost: no move, and the score says so.
#[test]
fn a_side_with_no_moves_has_lost() {
    // Black's only man, on 28, is blocked by White's man on 32 and cannot jump off the board.
    for (variant, fen) in [(Variant::English, "B:W32:B28"), (Variant::Russian, "W:W:B1")] {
        let p = position(variant, fen);
        let r = engine().search(&p, &[], &Limits::depth(4), &StopHandle::new(), &mut |_| {});
        assert_eq!(r.best_move, None, "{fen}");
        assert_eq!(r.score, Score::loss_in(0), "{fen}");
    }
}

/// Positions from seeded random play, of both variants.
fn sample_positions(count: usize) -> Vec<Position> {
    let mut seed = 0x1234_5678_9abc_def0u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut out = Vec::new();
    while out.len() < count {
        let variant = Variant::ALL[out.len() % 2];
        let mut p = Position::start(variant);
        let plies = next() % 60;
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p = p.play_unchecked(&moves[(next() % moves.len() as u64) as usize]);
        }
        if !p.legal_moves().is_empty() {
            out.push(p);
        }
    }
    out
}

#[test]
fn every_limit_gives_a_legal_move() {
    let stopped = StopHandle::new();
    stopped.stop();
    let mut e = engine();
    for p in sample_positions(40) {
        let limits = [
            Limits::nodes(1),
            Limits::nodes(7),
            Limits::nodes(3_000),
            Limits::depth(1),
            Limits::depth(5),
            Limits::movetime(Duration::from_millis(1)),
            Limits::clock(Duration::from_millis(3), Duration::ZERO),
        ];
        for limits in limits {
            let r = e.search(&p, &[], &limits, &StopHandle::new(), &mut |_| {});
            let mv = r.best_move.expect("a legal move exists");
            assert!(p.is_legal(&mv), "{p:?} {limits:?}");
            if p.legal_moves().len() == 1 {
                assert_eq!(r.depth, 0, "a forced move is played at once");
            }
        }
        // Stopped before it starts, even with no other limit.
        let r = e.search(&p, &[], &Limits::infinite(), &stopped, &mut |_| {});
        assert!(p.is_legal(&r.best_move.expect("a move")));
        // Several lines, stopped anywhere in an iteration's ranking: a legal move all the
        // same, and no move ranked twice at a depth.
        for limits in [Limits::nodes(1), Limits::nodes(500), Limits::nodes(3_000), Limits::depth(4)] {
            let mut infos = Vec::new();
            let r = e.search_lines(&p, &[], &limits, &StopHandle::new(), 4, &mut |i| infos.push(i.clone()));
            assert!(p.is_legal(&r.best_move.expect("a legal move exists")), "{p:?} {limits:?}");
            for depth in infos.iter().map(|i| i.depth) {
                let firsts: Vec<_> = infos.iter().filter(|i| i.depth == depth).map(|i| i.pv[0]).collect();
                assert!(firsts.iter().all(|m| p.is_legal(m)), "{p:?} {limits:?}");
                let distinct: std::collections::HashSet<_> = firsts.iter().collect();
                assert_eq!(distinct.len(), firsts.len(), "{p:?} {limits:?}");
            }
        }
    }
}

#[test]
fn stopping_from_another_thread_returns_a_legal_move() {
    let p = Position::start(Variant::Russian);
    let stop = StopHandle::new();
    let stopper = stop.clone();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(30));
        stopper.stop();
    });
    let mut e = Engine::new(EngineOptions { hash_mb: 8, threads: 2 });
    let r = e.search(&p, &[], &Limits::infinite(), &stop, &mut |_| {});
    handle.join().unwrap();
    assert!(p.is_legal(&r.best_move.expect("a move")));
}

/// With helper threads the move played is still the main thread's deepest reported line, so
/// the last line a GUI shows is the one played.
#[test]
fn two_threads_play_the_deepest_line_they_report() {
    for p in sample_positions(6) {
        let mut e = Engine::new(EngineOptions { hash_mb: 8, threads: 2 });
        let mut deepest = 0;
        let mut last_pv = Vec::new();
        let r = e.search(
            &p,
            &[],
            &Limits::movetime(Duration::from_millis(40)),
            &StopHandle::new(),
            &mut |info| {
                deepest = deepest.max(info.depth);
                last_pv = info.pv.clone();
            },
        );
        let best = r.best_move.expect("a move");
        assert!(p.is_legal(&best));
        if r.depth > 0 {
            assert_eq!(r.depth, deepest, "{p:?}");
            // (A main thread stopped mid-iteration plays a root move that iteration proved
            // better, with no line.)
            assert!(r.pv == last_pv || r.pv == vec![best], "{p:?}");
        }
    }
}

#[test]
fn one_thread_under_a_node_budget_repeats_exactly() {
    for p in sample_positions(6) {
        let run = || {
            let mut e = engine();
            let r = e.search(&p, &[], &Limits::nodes(20_000), &StopHandle::new(), &mut |_| {});
            (r.best_move, r.nodes, r.score)
        };
        assert_eq!(run(), run());
        // And after new_game on a used engine.
        let mut e = engine();
        e.search(&Position::start(p.variant()), &[], &Limits::depth(6), &StopHandle::new(), &mut |_| {});
        e.new_game();
        let r = e.search(&p, &[], &Limits::nodes(20_000), &StopHandle::new(), &mut |_| {});
        assert_eq!((r.best_move, r.nodes, r.score), run());
    }
}

/// Level 7 playing both sides of a short game on one engine, which keeps its table from
/// move to move: the moves, seed by seed.
fn level_game(variant: Variant, plies: usize) -> Vec<String> {
    let level = Level::new(7).unwrap();
    let mut e = engine();
    let mut positions = vec![Position::start(variant)];
    let mut moves = Vec::new();
    for ply in 0..plies {
        let (p, history) = positions.split_last().unwrap();
        let Some(mv) = level.choose_move(&mut e, p, history, ply as u64) else { break };
        moves.push(mv.to_pdn(p, SquareNotation::Numeric));
        positions.push(p.play_unchecked(&mv));
    }
    moves
}

#[test]
fn full_levels_keep_their_table_within_a_game_and_replay_it_exactly() {
    let mut e = engine();
    let start = Position::start(Variant::English);
    e.search(&start, &[], &Limits::nodes(10_000), &StopHandle::new(), &mut |_| {});
    let next = start.play_unchecked(&start.legal_moves()[0]);
    assert!(e.continues_game(&start, &[]));
    assert!(e.continues_game(&next, &[start]), "the game goes on");
    let other = position(Variant::English, "B:W21,22,23:B10,11,12");
    assert!(!e.continues_game(&other, &[]), "another game");
    e.new_game();
    assert!(!e.continues_game(&start, &[]), "a new game forgets");
    for variant in Variant::ALL {
        assert_eq!(level_game(variant, 12), level_game(variant, 12), "{variant:?}");
    }

    // Level 7 searches the start, then the position two plies on: the start (which the second
    // search can never reach, men only go forward) is still in the table. Levels that blur
    // their evaluation, and a search outside the game, start from an empty table.
    let level = |n| Level::new(n).unwrap();
    let after_two = |e: &mut Engine, n| {
        e.new_game();
        let first = level(n).choose_move(e, &start, &[], 1).unwrap();
        let one = start.play_unchecked(&first);
        let reply = one.legal_moves()[0];
        let two = one.play_unchecked(&reply);
        level(n).choose_move(e, &two, &[start, one], 2).unwrap();
        e.known_depth(&start)
    };
    assert!(after_two(&mut e, 7).is_some_and(|d| d >= 4), "level 7 kept its table");
    assert_eq!(after_two(&mut e, 6), None, "level 6 clears its table every move");
    level(7).choose_move(&mut e, &other, &[], 3).unwrap();
    assert_eq!(e.known_depth(&start), None, "another game clears the table");
}

#[test]
fn levels_repeat_for_a_seed_and_play_legal_moves() {
    for p in sample_positions(6) {
        for level in [1, 3, 5, 7].map(|n| Level::new(n).unwrap()) {
            let a = level.choose_move(&mut engine(), &p, &[], 42);
            let b = level.choose_move(&mut engine(), &p, &[], 42);
            assert_eq!(a, b, "level {level}");
            assert!(p.is_legal(&a.unwrap()));
        }
    }
}

/// Against a person, the full-strength levels open a game in different ways from seed to
/// seed (each way repeatable): from the opening book where it has the position, else among
/// moves their own search rates nearly equal; later in the game, and in matches, the choice
/// is the plain one.
#[test]
fn full_levels_vary_their_openings_against_people() {
    let stop = StopHandle::new();
    for variant in [Variant::English, Variant::Russian] {
        let start = Position::start(variant);
        let level = Level::new(7).unwrap();
        let plain = level.choose_move(&mut engine(), &start, &[], 0).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        // Out of the book: the worst move each time, until the book no longer holds the
        // position (a few plies in, well inside the plies that vary).
        let book = checkers_engine::book(variant);
        let mut history = Vec::new();
        let mut outside = start;
        loop {
            let legal = outside.legal_moves();
            let mv = match book.lookup(&outside) {
                Some(moves) => moves[moves.len() - 1].mv,
                // Forced moves are passed through, not stored.
                None if legal.len() == 1 => legal[0],
                None => break,
            };
            history.push(outside);
            outside = outside.play_unchecked(&mv);
        }
        assert!((1..=8).contains(&history.len()), "{variant:?}: {} plies", history.len());
        let plain_outside = level.choose_move(&mut engine(), &outside, &history, 0).unwrap();
        let mut seen_outside = std::collections::BTreeSet::new();
        for seed in 0..10 {
            let varied = level.choose_move_varied(&mut engine(), &start, &[], seed, &stop).unwrap();
            assert_eq!(Some(varied), level.choose_move_varied(&mut engine(), &start, &[], seed, &stop));
            assert_eq!(Some(plain), level.choose_move(&mut engine(), &start, &[], seed), "{variant:?}");
            assert!(start.is_legal(&varied));
            seen.insert(varied.to_pdn(&start, SquareNotation::Numeric));
            let varied = level.choose_move_varied(&mut engine(), &outside, &history, seed, &stop).unwrap();
            assert_eq!(Some(plain_outside), level.choose_move(&mut engine(), &outside, &history, seed));
            assert!(outside.is_legal(&varied));
            seen_outside.insert(varied.to_pdn(&outside, SquareNotation::Numeric));
        }
        assert!(seen.len() >= 2, "{variant:?}: {seen:?}");
        assert!(seen_outside.len() >= 2, "{variant:?}: {seen_outside:?}");
        // Twelve plies into a game, out of the book, the choice is the plain one, whatever
        // the seed.
        let mut history = vec![start];
        let mut p = start;
        for _ in 0..12 {
            let mv = p.legal_moves().iter().copied().next().unwrap();
            p = p.play_unchecked(&mv);
            history.push(p);
        }
        history.pop();
        assert!(book.lookup(&p).is_none());
        for seed in 0..4 {
            assert_eq!(
                level.choose_move_varied(&mut engine(), &p, &history, seed, &stop),
                level.choose_move(&mut engine(), &p, &history, seed)
            );
        }
    }
}

/// In the book's positions the full-strength levels play a book move scored within their
/// margin of the best (0.15, 0.10, 0.06 of a man for levels 7-9); the levels that play by
/// a blurred search never open from it.
#[test]
fn full_levels_open_from_the_book() {
    let stop = StopHandle::new();
    for variant in [Variant::English, Variant::Russian] {
        let book = checkers_engine::book(variant);
        for position in book.positions().take(20) {
            let moves = book.lookup(position).unwrap();
            let best = moves[0].score.value();
            for (level, margin) in [(7, 15), (8, 10), (9, 6)] {
                let level = Level::new(level).unwrap();
                for seed in 0..3 {
                    let chosen = level.choose_move_varied(&mut engine(), position, &[], seed, &stop).unwrap();
                    let entry = moves.iter().find(|m| m.mv == chosen).expect("a book move");
                    assert!(
                        best - entry.score.value() <= margin,
                        "{variant:?} {}: {entry:?}",
                        position.to_fen()
                    );
                }
            }
        }
        let start = Position::start(variant);
        let level = Level::new(4).unwrap();
        for seed in 0..3 {
            assert_eq!(
                level.choose_move_varied(&mut engine(), &start, &[], seed, &stop),
                level.choose_move(&mut engine(), &start, &[], seed)
            );
        }
    }
}

#[test]
fn equal_kings_endings_score_near_zero() {
    let p = position(Variant::English, "W:WK1,K2:BK31,K32");
    let r = engine().search(&p, &[], &Limits::depth(8), &StopHandle::new(), &mut |_| {});
    assert!(r.score.value().abs() < 50, "{}", r.score);
}

/// A lone king against a lone king is not always drawn: White Kd4 (18) against Black Ka1
/// (29), White to move, wins by d4-h8 (18-4), after which every move of the cornered king is
/// taken. With Black to move the cornered king takes first; a king off the long diagonal
/// holds the draw.
#[test]
fn finds_the_win_of_a_lone_king_against_a_cornered_king() {
    for (fen, expected) in [("W:WK18:BK29", "18-4"), ("B:WK29:BK18", "18-4"), ("B:WK18:BK29", "29x4")] {
        let p = position(Variant::Russian, fen);
        let (mv, score) = best(&mut engine(), &p, Limits::depth(4));
        let plies = if expected.contains('x') { 1 } else { 3 };
        assert_eq!((mv.as_str(), score), (expected, Score::win_in(plies)), "{fen}");
    }
    let (_, score) = best(&mut engine(), &position(Variant::Russian, "W:WK18:BK1"), Limits::depth(8));
    assert_eq!(score, Score::DRAW);
}

/// At the horizon the capture search meets the cornered king with no capture to make: it
/// scores the position from the solved two-king table, not from the evaluation (about 0).
#[test]
fn the_capture_search_knows_a_cornered_lone_king_is_lost() {
    let p = position(Variant::Russian, "W:WK18:BK29");
    let (mv, score) = best(&mut engine(), &p, Limits::depth(1));
    assert_eq!((mv.as_str(), score), ("18-4", Score::win_in(3)));
}

/// Two captures into four-piece endings: 8x15 keeps more on the board, but the ending it
/// leaves is drawn; 14x21 leaves one the endgame database knows to be won. One ply is enough
/// when the database is consulted, and only the database gives a score this high (the
/// hand-set evaluation preferred 8x15; the network now agrees with the database).
#[test]
fn the_endgame_database_finds_the_won_ending() {
    let p = position(Variant::English, "W:WK32,K8,K14:B11,K17");
    let (mv, score) = best(&mut engine(), &p, Limits::depth(1));
    assert_eq!(mv, "14x21");
    assert!(score.value() > 5_000 && !score.is_decisive(), "{score}");
}

/// Both captures leave a database win (15x8, a man taken and a man one step from crowning,
/// and 27x18, which takes the king); the search takes the one its evaluation likes better, so
/// that it keeps making progress.
#[test]
fn of_two_database_wins_the_better_ending_is_chosen() {
    let p = position(Variant::English, "W:W19,15,27:BK23,11");
    let after = |text: &str| {
        let mv =
            p.legal_moves().iter().copied().find(|m| m.to_pdn(&p, SquareNotation::Numeric) == text).unwrap();
        -Engine::evaluate(&p.play_unchecked(&mv)).value()
    };
    let preferred = if after("15x8") > after("27x18") { "15x8" } else { "27x18" };
    assert_ne!(after("15x8"), after("27x18"), "the evaluation tells them apart");
    let (mv, score) = best(&mut engine(), &p, Limits::depth(1));
    assert_eq!(mv, preferred);
    assert!(score.value() > 5_000, "{score}");
}

/// Russian searches trust the database's draws (a draw without the move-count rules is one
/// with them): every capture here leaves three pieces against one that the evaluation scores
/// as well won, and the database as drawn.
#[test]
fn russian_searches_score_the_database_draws() {
    let p = position(Variant::Russian, "W:WK9,K21,K1:B10,K13");
    for mv in p.legal_moves().iter() {
        assert!(-Engine::evaluate(&p.play_unchecked(mv)).value() > 300);
    }
    let (_, score) = best(&mut engine(), &p, Limits::depth(1));
    assert_eq!(score, Score::DRAW);
}

/// Level 1 is weak, not absurd: it never hands over a man for nothing. Here 22-17 loses the
/// man to 13x22 with no return; 22-18, 30-25 and 30-26 are all safe.
#[test]
fn level_one_does_not_hang_a_man() {
    let p = position(Variant::English, "W:W22,30:B11,13");
    let mut e = engine();
    for seed in 0..24 {
        let mv = Level::MIN.choose_move(&mut e, &p, &[], seed).expect("a move");
        assert_ne!(mv.to_pdn(&p, SquareNotation::Numeric), "22-17", "seed {seed}");
    }
}

#[test]
fn levels_parse_and_describe_themselves() {
    assert_eq!("5".parse::<Level>().map(Level::number), Ok(5));
    assert!("0".parse::<Level>().is_err() && "10".parse::<Level>().is_err() && "x".parse::<Level>().is_err());
    let names: Vec<&str> = Level::all().map(Level::describe).collect();
    assert_eq!(names.len(), 9);
    assert!(names.iter().all(|d| !d.is_empty()));
    assert!(Level::all().zip(Level::all().skip(1)).all(|(a, b)| a < b));
}

/// A draw offer is taken when the computer is worse, or level once the opening is over; it
/// is refused when the computer is ahead, or level at the start.
#[test]
fn draw_offers_are_judged_by_score_and_stage() {
    let mut e = engine();
    let answer = |e: &mut Engine, p: &Position, history: &[Position], side: Color| {
        Level::MAX.answer_draw(e, p, history, side)
    };
    let start = Position::start(Variant::English);
    for side in [Color::Black, Color::White] {
        assert_eq!(answer(&mut e, &start, &[], side), DrawAnswer::DeclineTooEarly);
    }
    let kings = position(Variant::English, "B:WK18:BK1");
    assert_eq!(answer(&mut e, &kings, &[], Color::White), DrawAnswer::Accept);
    let ahead = position(Variant::English, "B:WK18,K22,K27:B1");
    assert_eq!(answer(&mut e, &ahead, &[], Color::White), DrawAnswer::DeclineAhead);
    assert_eq!(answer(&mut e, &ahead, &[], Color::Black), DrawAnswer::Accept);
    assert!(Level::MAX.accepts_draw(&mut e, &ahead, &[], Color::Black));
}

/// The scored choice plays the varied choice's move; the full-strength levels say what they
/// think of it (so a draw offer can be answered without another search), the blurred ones
/// do not; and the answer from a score follows the same rule as the answer from a search.
#[test]
fn a_full_level_scores_its_move_and_a_draw_is_answered_from_the_score() {
    let stop = StopHandle::new();
    let start = Position::start(Variant::English);
    let mut p = start;
    let mut history = Vec::new();
    for _ in 0..6 {
        let mv = p.legal_moves().iter().copied().next().unwrap();
        history.push(p);
        p = p.play_unchecked(&mv);
    }
    for (level, scored) in [(9, true), (7, true), (3, false)] {
        let level = Level::new(level).unwrap();
        for position in [&start, &p] {
            let history = if position == &start { &[][..] } else { &history[..] };
            let choice = level.choose_move_scored(&mut engine(), position, history, 5, &stop).unwrap();
            let varied = level.choose_move_varied(&mut engine(), position, history, 5, &stop);
            assert_eq!(Some(choice.mv), varied, "level {level}");
            assert_eq!(choice.score.is_some(), scored, "level {level}");
        }
    }
    let ahead = position(Variant::English, "B:WK18,K22,K27:B1");
    let score = checkers_engine::judge(&mut engine(), &ahead, &[], Color::White, &Limits::nodes(20_000));
    assert_eq!(DrawAnswer::from_score(score, &ahead, 0), DrawAnswer::DeclineAhead);
    assert_eq!(DrawAnswer::from_score(-score, &ahead, 0), DrawAnswer::Accept);
    assert_eq!(DrawAnswer::from_score(Score::DRAW, &start, 0), DrawAnswer::DeclineTooEarly);
    assert_eq!(DrawAnswer::from_score(Score::DRAW, &start, 40), DrawAnswer::Accept);
}
