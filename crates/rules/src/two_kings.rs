//! A lone king against a lone king, solved once.
//!
//! The Russian rule: a lone king against a lone king is a draw only when neither side can
//! force the capture of the other king. With flying kings one sometimes can: White Kd4
//! against Black Ka1 with White to move wins by d4-h8, after which every move of the
//! cornered king lands on the long diagonal and is taken.
//!
//! There are 32 × 31 placements of the two kings and two sides to move. They are solved the
//! first time any is asked about, by fixed-point iteration over the move generator: a side
//! with a capture takes the other king (captures are compulsory) and leaves it without
//! pieces, which loses; a position is won when some move reaches a lost one and lost when
//! every move reaches a won one (or there is none). What never becomes won or lost is a
//! draw: neither side can force a capture. Afterwards an answer is a table lookup, cheap
//! enough for a search to ask at every node with two kings.

use std::sync::OnceLock;

use crate::position::{Color, Position, Variant};
use crate::square::SquareSet;

/// The result with best play of a lone king against a lone king, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoneKingsResult {
    /// The side to move can force the capture of the other king.
    Win,
    /// The other side can force the capture of the king of the side to move.
    Loss,
    /// Neither side can force a capture.
    Draw,
}

/// Two kings on 32 squares, two sides to move; entries whose kings share a square are unused.
const TABLE_SIZE: usize = 32 * 32 * 2;

/// The results of every two-king position of one variant, with the number of plies each
/// takes to decide (0 for draws), by [`table_index`].
struct Table {
    results: [LoneKingsResult; TABLE_SIZE],
    plies: [u8; TABLE_SIZE],
}

/// The result with best play of `position` for its side to move when it holds one white
/// king and one black king and nothing else, under its variant's moves; `None` for any other
/// position.
///
/// In Russian draughts only the drawn ones end the game (see
/// [`is_drawn_king_against_king`]); the won ones are played on until the capture.
#[inline]
pub fn lone_kings_result(position: &Position) -> Option<LoneKingsResult> {
    table_index(position).map(|i| table(position.variant).results[i])
}

/// How many plies the side that wins `position` (a lone king against a lone king) needs to
/// capture the other king against the best defence; `None` for draws and any other position.
pub fn lone_kings_plies_to_capture(position: &Position) -> Option<u32> {
    let i = table_index(position)?;
    let table = table(position.variant);
    (table.results[i] != LoneKingsResult::Draw).then(|| u32::from(table.plies[i]))
}

/// Russian draughts: whether `position` is a lone king against a lone king that neither side
/// can force the capture of, which the rules call a draw at once. False in every other
/// position, a won king against king included, and in every other variant.
#[inline]
pub fn is_drawn_king_against_king(position: &Position) -> bool {
    position.variant == Variant::Russian && lone_kings_result(position) == Some(LoneKingsResult::Draw)
}

/// The entry of a position with exactly one king of each colour and nothing else.
#[inline]
fn table_index(position: &Position) -> Option<usize> {
    let (white, black) = (position.white, position.black);
    if white.count_ones() != 1 || black.count_ones() != 1 || position.kings != white | black {
        return None;
    }
    // Each rank holds four dark squares, so half a dark square's bit index numbers it 0-31.
    let (w, b) = ((white.trailing_zeros() / 2) as usize, (black.trailing_zeros() / 2) as usize);
    Some((w * 32 + b) * 2 + usize::from(position.turn == Color::Black))
}

#[inline]
fn table(variant: Variant) -> &'static Table {
    static ENGLISH: OnceLock<Table> = OnceLock::new();
    static RUSSIAN: OnceLock<Table> = OnceLock::new();
    let cell = match variant {
        Variant::English => &ENGLISH,
        Variant::Russian => &RUSSIAN,
    };
    cell.get_or_init(|| solve(variant))
}

/// Every two-king position of `variant`, at its table index (`None` where the kings would
/// share a square).
fn positions(variant: Variant) -> Vec<Option<Position>> {
    let mut positions = vec![None; TABLE_SIZE];
    for w in 0..32u32 {
        for b in (0..32u32).filter(|&b| b != w) {
            for turn in [Color::White, Color::Black] {
                let (white, black) = (SquareSet(dark_bit(w)), SquareSet(dark_bit(b)));
                let sets = [SquareSet::EMPTY, white, SquareSet::EMPTY, black];
                let position =
                    Position::from_sets(variant, turn, sets).expect("two kings are a valid position");
                let index = table_index(&position).expect("a two-king position");
                positions[index] = Some(position);
            }
        }
    }
    positions
}

/// The bit of the dark square numbered `n` (0-31) as [`table_index`] numbers them.
fn dark_bit(n: u32) -> u64 {
    let rank = n / 4;
    let file = 2 * (n % 4) + rank % 2;
    1 << (rank * 8 + file)
}

fn solve(variant: Variant) -> Table {
    let positions = positions(variant);
    // Each position's moves, as the entry they reach, or `None` for a capture (the side
    // left without pieces has lost at once).
    let children: Vec<Vec<Option<usize>>> = positions
        .iter()
        .map(|position| {
            let Some(position) = position else { return Vec::new() };
            position.legal_moves().iter().map(|mv| table_index(&position.play_unchecked(mv))).collect()
        })
        .collect();
    // Round by round, from what earlier rounds decided: a position decided in round `n`
    // is decided in `n` plies with best play. What no round decides stays a draw.
    let mut table = Table { results: [LoneKingsResult::Draw; TABLE_SIZE], plies: [0; TABLE_SIZE] };
    for round in 1.. {
        let reached = |child: &Option<usize>| match child {
            None => Some(LoneKingsResult::Loss),
            Some(c) => (table.plies[*c] > 0).then_some(table.results[*c]),
        };
        let mut decided = Vec::new();
        for (i, moves) in children.iter().enumerate() {
            if positions[i].is_none() || table.plies[i] > 0 {
                continue;
            }
            if moves.iter().any(|c| reached(c) == Some(LoneKingsResult::Loss)) {
                decided.push((i, LoneKingsResult::Win));
            } else if moves.iter().all(|c| reached(c) == Some(LoneKingsResult::Win)) {
                decided.push((i, LoneKingsResult::Loss));
            }
        }
        if decided.is_empty() {
            break;
        }
        for (i, result) in decided {
            table.results[i] = result;
            table.plies[i] = round;
        }
    }
    table
}
