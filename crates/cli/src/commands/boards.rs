//! `moves` and `perft` for the variants the rules library plays on boards of any size
//! (`BoardVariant`: International and its family, the national 8x8 games, Turkish): the same
//! contracts as for English and Russian, the code written once against `RuleSet` and compiled
//! per variant; and the positions other commands read for these variants.

use std::time::Instant;

use anyhow::{bail, Context};
use checkers_rules::board::{board_perft_divide, Board, BoardPerft, BoardVariant, RuleSet};
use checkers_rules::with_board_variant;

use crate::common::PositionArgs;

/// The position `--fen` and `--moves` name, on the board of rule set `V`.
fn position<V: RuleSet>(args: &PositionArgs) -> anyhow::Result<Board<V>> {
    Ok(positions::<V>(args)?.pop().expect("at least the starting position"))
}

/// The starting position and the one after each of `--moves`, on the board of rule set `V`:
/// the last is the position asked for, the others its game's history (for the draw rules).
pub fn positions<V: RuleSet>(args: &PositionArgs) -> anyhow::Result<Vec<Board<V>>> {
    let start = match &args.fen {
        None => Board::<V>::start(),
        Some(text) => Board::<V>::from_fen(text).with_context(|| format!("bad --fen `{text}`"))?,
    };
    let mut positions = vec![start];
    let words = args.moves.as_deref().unwrap_or("").split_whitespace();
    // Move numbers (`12.`, `12...`) are skipped, so a game's moves can be pasted as they are.
    let moves = words.filter(|w| !(w.ends_with('.') && w.starts_with(|c: char| c.is_ascii_digit())));
    for (i, text) in moves.enumerate() {
        let board = positions[positions.len() - 1];
        let mv = board
            .parse_move(text)
            .with_context(|| format!("bad --moves: move {} `{text}` in {}", i + 1, board.to_fen()))?;
        positions.push(board.play_unchecked(&mv));
    }
    Ok(positions)
}

/// The legal moves, one a line, sorted as strings: the long form, or the Hub form.
pub fn moves(variant: BoardVariant, args: &PositionArgs, hub_form: bool) -> anyhow::Result<Vec<String>> {
    with_board_variant!(variant, V => {
        let board = position::<V>(args)?;
        let mut lines: Vec<String> = board
            .legal_moves()
            .iter()
            .map(|mv| if hub_form { mv.to_hub() } else { mv.to_pdn(&board) })
            .collect();
        lines.sort();
        Ok(lines)
    })
}

/// What `perft` can do on these boards: no hash table and no route counting (yet).
pub struct PerftRequest<'a> {
    pub position: &'a PositionArgs,
    pub depth: u32,
    pub divide: bool,
    pub threads: usize,
}

/// The leaf count (and per root move with `divide`), the root moves shared between threads.
pub fn perft(variant: BoardVariant, request: &PerftRequest) -> anyhow::Result<(u64, Vec<(String, u64)>)> {
    with_board_variant!(variant, V => perft_of::<V>(request))
}

fn perft_of<V: RuleSet>(request: &PerftRequest) -> anyhow::Result<(u64, Vec<(String, u64)>)> {
    let board = position::<V>(request.position)?;
    if request.depth == 0 {
        return Ok((1, Vec::new()));
    }
    let started = Instant::now();
    let divide: Vec<(String, u64)> = if request.threads <= 1 {
        board_perft_divide(&board, request.depth).into_iter().map(|(mv, n)| (mv.to_pdn(&board), n)).collect()
    } else {
        let roots = board.legal_moves().to_vec();
        let next = std::sync::atomic::AtomicUsize::new(0);
        let counts = std::sync::Mutex::new(vec![0u64; roots.len()]);
        std::thread::scope(|scope| {
            for _ in 0..request.threads.min(roots.len()) {
                scope.spawn(|| {
                    let mut perft = BoardPerft::<V>::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(mv) = roots.get(i) else { break };
                        let n = perft.count(&board.play_unchecked(mv), request.depth - 1);
                        if let Ok(mut counts) = counts.lock() {
                            counts[i] = n;
                        }
                    }
                });
            }
        });
        let counts = counts.into_inner().unwrap_or_default();
        roots.iter().zip(counts).map(|(mv, n)| (mv.to_pdn(&board), n)).collect()
    };
    let total = divide.iter().map(|(_, n)| n).sum();
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "perft({}) = {total} in {seconds:.3} s, {:.1} M leaves/s",
        request.depth,
        total as f64 / seconds.max(1e-9) / 1e6
    );
    Ok((total, if request.divide { divide } else { Vec::new() }))
}

/// Refuses the `perft` options these boards do not have yet.
pub fn check_perft_options(variant: BoardVariant, paths: bool, hash: usize) -> anyhow::Result<()> {
    if paths {
        bail!("--paths: {variant} counts moves only (routes that make one move count once)");
    }
    if hash > 0 {
        bail!("--hash: {variant} perft has no table yet; leave --hash out");
    }
    Ok(())
}
