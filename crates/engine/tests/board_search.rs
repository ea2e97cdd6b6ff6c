//! The engine on every variant of the rules library's boards: legal moves at every level,
//! whole games to their end, and the game ends each variant has of its own (Breakthrough's
//! first king, Antidraughts' losing every piece) found by the search.

use checkers_engine::{BoardEngine, Engine, EngineOptions, Level, Limits, StopHandle};
use checkers_rules::board::{
    Antidraughts, Board, BoardGame, BoardOutcome, BoardVariant, Breakthrough, International,
};
use checkers_rules::{with_board_variant, Color};

fn engine<V: BoardEngine>() -> Engine<Board<V>> {
    Engine::new(EngineOptions { hash_mb: 4, threads: 1 })
}

/// Two levels play a game from the start; every move is legal, and the game ends by the
/// variant's rules or at the ply limit.
fn play_a_game<V: BoardEngine>(white: Level, black: Level, seed: u64) -> (BoardGame<V>, usize) {
    let mut game = BoardGame::<V>::new();
    let (mut white_engine, mut black_engine) = (engine::<V>(), engine::<V>());
    let mut plies = 0;
    while !game.is_over() && plies < 300 {
        let position = game.position();
        let history = &game.positions()[..game.positions().len() - 1];
        let (level, engine) = match position.turn() {
            Color::White => (white, &mut white_engine),
            Color::Black => (black, &mut black_engine),
        };
        let mv = level
            .choose_move(engine, &position, history, seed + plies as u64)
            .unwrap_or_else(|| panic!("{}: a move in {}", V::NAME, position.to_fen()));
        game.play(mv).unwrap_or_else(|e| panic!("{}: {e} in {}", V::NAME, position.to_fen()));
        plies += 1;
    }
    (game, plies)
}

#[test]
fn every_variant_is_played_legally_to_the_end() {
    for variant in BoardVariant::ALL {
        let (outcome, plies) = with_board_variant!(variant, V => {
            let (game, plies) = play_a_game::<V>(Level::new(1).unwrap(), Level::new(3).unwrap(), 7);
            (game.outcome(), plies)
        });
        assert!(plies > 10, "{variant}: {plies} plies, {outcome:?}");
    }
}

#[test]
fn every_level_moves_from_every_start() {
    for variant in BoardVariant::ALL {
        with_board_variant!(variant, V => {
            let start = Board::<V>::start();
            let mut engine = engine::<V>();
            // Levels 8 and 9 differ from 7 only by their node budgets.
            for level in Level::all().take(7) {
                let mv = level.choose_move(&mut engine, &start, &[], 3).expect("a move");
                assert!(start.is_legal(&mv), "{variant} level {level}: {mv:?}");
            }
        });
    }
}

#[test]
fn a_search_reports_lines_of_legal_moves() {
    let start = Board::<International>::start();
    let mut engine = engine::<International>();
    let mut infos = Vec::new();
    let result = engine.search(&start, &[], &Limits::depth(8), &StopHandle::new(), &mut |info| {
        infos.push(info.clone());
    });
    assert_eq!(result.depth, 8);
    assert_eq!(infos.len(), 8, "an info a depth");
    let mut position = start;
    for mv in &result.pv {
        assert!(position.is_legal(mv), "{mv:?} in {}", position.to_fen());
        position = position.play_unchecked(mv);
    }
    assert!(result.score.value().abs() < 100, "the start is about level: {}", result.score);
}

#[test]
fn breakthrough_crowns_first() {
    // White crowns at once (6-1); Black would crown next move.
    let position = Board::<Breakthrough>::from_fen("W:W6,36:B45,16").unwrap();
    let mut engine = engine::<Breakthrough>();
    let result = engine.search(&position, &[], &Limits::depth(4), &StopHandle::new(), &mut |_| {});
    let mv = result.best_move.unwrap();
    assert_eq!((mv.from(), mv.to()), (6, 1));
    assert!(result.score.is_win(), "{}", result.score);
    // Black to move in the same position crowns first instead.
    let black = position.with_turn(Color::Black);
    let result = engine.search(&black, &[], &Limits::depth(4), &StopHandle::new(), &mut |_| {});
    let mv = result.best_move.unwrap();
    assert_eq!(mv.from(), 45);
    assert!(result.score.is_win(), "{}", result.score);
}

#[test]
fn antidraughts_gives_its_last_man_away() {
    // White's last man: 28-22 is taken by 17x28 (White has then no piece: it wins); 28-23
    // is not taken, and White must still lose its man later.
    let position = Board::<Antidraughts>::from_fen("W:W28:B17,5").unwrap();
    let mut engine = engine::<Antidraughts>();
    let result = engine.search(&position, &[], &Limits::depth(4), &StopHandle::new(), &mut |_| {});
    let mv = result.best_move.unwrap();
    assert_eq!((mv.from(), mv.to()), (28, 22));
    assert!(result.score.is_win(), "{}", result.score);
    let mut game = BoardGame::from_position(position);
    game.play(mv).unwrap();
    let reply = game.legal_moves()[0];
    game.play(reply).unwrap();
    assert!(
        matches!(game.outcome(), Some(BoardOutcome::VariantWin { winner: Color::White, .. })),
        "{:?}",
        game.outcome()
    );
}

#[test]
fn the_stronger_level_wins_more_often() {
    // A smoke test of the ladder, not its measure (docs/benchmarks.md has that): level 7
    // against level 1 in International, a game with each colour.
    let (strong, weak) = (Level::new(7).unwrap(), Level::new(1).unwrap());
    let (first, _) = play_a_game::<International>(strong, weak, 11);
    let (second, _) = play_a_game::<International>(weak, strong, 12);
    let strong_won =
        |game: &BoardGame<International>, side: Color| game.outcome().and_then(|o| o.winner()) == Some(side);
    let lost = |game: &BoardGame<International>, side: Color| {
        game.outcome().and_then(|o| o.winner()) == Some(side.opponent())
    };
    assert!(!lost(&first, Color::White) && !lost(&second, Color::Black));
    assert!(strong_won(&first, Color::White) || strong_won(&second, Color::Black));
}
