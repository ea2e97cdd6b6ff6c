//! The text in which a worker writes a review or the best lines it found (its job's result)
//! and the node reads them back: one line a move reviewed, or a line found, its fields
//! separated by tabs, moves in the protocol's notation and scores as the engine writes them.
//! A result that does not read back as moves legal where they fall is no result at all.

use std::time::Duration;

use checkers_engine::review::{loss, verdict_of, MoveReview};
use checkers_engine::{Score, SearchInfo};

use crate::rules::{AnyGame, AnyMove};

/// A review of `game` as text: per move, the engine's choice, the score it keeps and the score
/// after the move played (what the move itself and its verdict follow from).
pub fn review_text(game: &AnyGame, reviews: &[MoveReview<AnyMove>]) -> String {
    let rows: Vec<String> = reviews
        .iter()
        .enumerate()
        .map(|(ply, review)| {
            let best = game.describe(ply, &review.best).map(|info| info.text).unwrap_or_default();
            format!("{best}\t{}\t{}", review.best_score, review.score)
        })
        .collect();
    rows.join("\n")
}

/// A review of `game` read back from [`review_text`]; its losses and verdicts worked out as
/// the engine's review works them out.
pub fn read_review(game: &AnyGame, text: &str) -> Option<Vec<MoveReview<AnyMove>>> {
    let rows: Vec<&str> = text.lines().collect();
    let moves = game.moves();
    if rows.len() > moves.len() {
        return None;
    }
    rows.iter()
        .zip(moves)
        .enumerate()
        .map(|(ply, (row, played))| {
            let mut fields = row.split('\t');
            let best = game.read_move_at(ply, fields.next()?).ok()?;
            let best_score: Score = fields.next()?.parse().ok()?;
            let score: Score = fields.next()?.parse().ok()?;
            let loss = if played == best { 0 } else { loss(best_score, score) };
            let verdict = verdict_of(loss);
            let mover = game.turn_at(ply)?;
            Some(MoveReview { played, mover, best, best_score, score, loss, verdict })
        })
        .collect()
}

/// The engine's lines in `game`'s position now as text: per line its rank, depth, selective
/// depth, score, nodes, milliseconds and moves.
pub fn lines_text(game: &AnyGame, lines: &[SearchInfo<AnyMove>]) -> String {
    let rows: Vec<String> = lines
        .iter()
        .map(|info| {
            format!(
                "{}\t{}\t{}\t{}\t{}\t{}\t{}",
                info.line,
                info.depth,
                info.seldepth,
                info.score,
                info.nodes,
                info.elapsed.as_millis(),
                game.line_text(game.plies(), &info.pv)
            )
        })
        .collect();
    rows.join("\n")
}

/// Lines in `game`'s position now read back from [`lines_text`].
pub fn read_lines(game: &AnyGame, text: &str) -> Option<Vec<SearchInfo<AnyMove>>> {
    text.lines()
        .map(|row| {
            let mut fields = row.split('\t');
            let mut number = || fields.next()?.parse::<u64>().ok();
            let (line, depth, seldepth) = (number()?, number()?, number()?);
            let score: Score = fields.next()?.parse().ok()?;
            let nodes: u64 = fields.next()?.parse().ok()?;
            let elapsed = Duration::from_millis(fields.next()?.parse().ok()?);
            let pv = game.read_line(game.plies(), fields.next()?)?;
            Some(SearchInfo {
                line: u32::try_from(line).ok()?,
                depth: u32::try_from(depth).ok()?,
                seldepth: u32::try_from(seldepth).ok()?,
                score,
                nodes,
                elapsed,
                pv,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Engines;
    use crate::variant::GameVariant;
    use checkers_engine::{EngineOptions, Limits};

    fn engines() -> Engines {
        Engines::new(EngineOptions { hash_mb: 1, threads: 1 })
    }

    fn game_of(variant: &str, moves: &str) -> AnyGame {
        let mut game = AnyGame::new(variant.parse::<GameVariant>().unwrap());
        for text in moves.split_whitespace() {
            game.play_text(text).unwrap();
        }
        game
    }

    #[test]
    fn a_review_reads_back_as_it_was_made() {
        for (variant, moves) in [
            ("english", "11-15 23-19 8-11 22-17 15-18"),
            ("russian", "c3-d4 f6-e5 d4:f6 g7:e5"),
            ("international", "32-28 19-23 28x19 14x23"),
            ("turkish", "a3-a4 a6-a5"),
        ] {
            let game = game_of(variant, moves);
            let reviews = game.review(&mut engines(), &Limits::nodes(2_000));
            assert_eq!(reviews.len(), game.plies());
            let text = review_text(&game, &reviews);
            assert_eq!(read_review(&game, &text), Some(reviews), "{text}");
        }
    }

    #[test]
    fn lines_read_back_as_they_were_found() {
        for variant in ["russian", "frisian", "canadian"] {
            let game = game_of(variant, "");
            let mut lines = game.lines(&mut engines(), &Limits::nodes(5_000), 3);
            assert!(!lines.is_empty());
            // Elapsed time travels in whole milliseconds.
            for info in &mut lines {
                info.elapsed = Duration::from_millis(info.elapsed.as_millis() as u64);
            }
            let text = lines_text(&game, &lines);
            assert_eq!(read_lines(&game, &text), Some(lines), "{text}");
            assert_eq!(read_lines(&game, ""), Some(Vec::new()), "no line: no move");
        }
    }

    #[test]
    fn a_result_that_does_not_fit_is_none() {
        let game = game_of("english", "11-15");
        assert_eq!(read_review(&game, "22-18\t0\t0"), None, "not a legal move there");
        assert_eq!(read_review(&game, "11-15\t0"), None, "a field missing");
        assert_eq!(read_review(&game, "11-15\t0\t0\n11-15\t0\t0"), None, "more moves than the game's");
        assert_eq!(read_lines(&game, "1\t4\t6\t35\t100\t3\t11-15"), None, "not White's move");
        assert_eq!(read_lines(&game, "1\t4\t6\tnothing\t100\t3\t22-18"), None);
    }
}
