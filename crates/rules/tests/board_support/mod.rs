//! What the differential tests of the boards of any size share: a seeded random number
//! generator and random valid placements of any variant.

#![allow(dead_code)] // each test file uses a different part of it

use std::collections::BTreeSet;

use checkers_rules::board::{Board, BoardSetup, Geometry, RuleSet};
use checkers_rules::{Color, Role};

/// A small deterministic generator (xorshift64*), so a failure names a reproducible case.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A random valid placement: up to `most` pieces a side, a third of them kings and every
/// piece on its crowning row a king.
pub fn random_board<V: RuleSet>(rng: &mut Rng, most: u64) -> Board<V> {
    let squares = <V::Geometry as Geometry>::SQUARES;
    let top = <V::Geometry as Geometry>::SIDE - 1;
    let mut setup = BoardSetup {
        turn: Some(if rng.below(2) == 0 { Color::White } else { Color::Black }),
        ..BoardSetup::default()
    };
    let mut used = BTreeSet::new();
    for color in [Color::White, Color::Black] {
        for _ in 0..1 + rng.below(most) {
            let square = 1 + rng.below(u64::from(squares)) as u32;
            if !used.insert(square) {
                continue;
            }
            let rank = <V::Geometry as Geometry>::coords(square).1;
            let crowning_row = if color == Color::White { rank == top } else { rank == 0 };
            let king = crowning_row || rng.below(3) == 0;
            let list = match (color, king) {
                (Color::White, false) => &mut setup.white_men,
                (Color::White, true) => &mut setup.white_kings,
                (Color::Black, false) => &mut setup.black_men,
                (Color::Black, true) => &mut setup.black_kings,
            };
            list.push(square);
        }
    }
    Board::from_setup(&setup).expect("the placement is valid")
}

/// What [`random_games`] saw: positions, those with a capture to play, those with a king.
#[derive(Debug, Default)]
pub struct Seen {
    pub positions: usize,
    pub captures: usize,
    pub king_positions: usize,
}

/// Plays `games` random games of at most 200 plies from the start, seeded by `seed`, calling
/// `check` on every position (it returns the number of legal moves there).
pub fn random_games<V: RuleSet>(seed: u64, games: usize, mut check: impl FnMut(&Board<V>) -> usize) -> Seen {
    let mut rng = Rng(seed);
    let mut seen = Seen::default();
    let squares = <V::Geometry as Geometry>::SQUARES;
    for _ in 0..games {
        let mut board = Board::<V>::start();
        for _ in 0..200 {
            let n = check(&board);
            seen.positions += 1;
            if n == 0 {
                break;
            }
            seen.captures += usize::from(board.has_capture());
            seen.king_positions +=
                usize::from((1..=squares).any(|s| board.piece_at(s).is_some_and(|p| p.role == Role::King)));
            let moves = board.legal_moves();
            board = board.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        }
    }
    eprintln!(
        "{} positions, {} with captures, {} with kings",
        seen.positions, seen.captures, seen.king_positions
    );
    seen
}
