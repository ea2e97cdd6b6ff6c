//! The text in which a worker writes a review or the best lines it found (its job's result)
//! and the node reads them back: one line a move reviewed, or a line found, its fields
//! separated by tabs, moves in the protocol's notation and scores as the engine writes them.
//! A result that does not read back as moves legal where they fall is no result at all.

use std::time::Duration;

use checkers_engine::review::{loss, verdict_of, MoveReview};
use checkers_engine::{Score, SearchInfo};
use checkers_rules::{Game, Position};

use crate::pdn::{line_text, move_text};

/// A review of `game` as text: per move, the engine's choice, the score it keeps and the score
/// after the move played (what the move itself and its verdict follow from).
pub fn review_text(game: &Game, reviews: &[MoveReview]) -> String {
    let rows: Vec<String> = reviews
        .iter()
        .zip(game.positions())
        .map(|(review, before)| {
            format!("{}\t{}\t{}", move_text(before, &review.best), review.best_score, review.score)
        })
        .collect();
    rows.join("\n")
}

/// A review of `game` read back from [`review_text`]; its losses and verdicts worked out as
/// the engine's review works them out.
pub fn read_review(game: &Game, text: &str) -> Option<Vec<MoveReview>> {
    let rows: Vec<&str> = text.lines().collect();
    if rows.len() > game.moves().len() {
        return None;
    }
    rows.iter()
        .zip(game.moves())
        .zip(game.positions())
        .map(|((row, &played), before)| {
            let mut fields = row.split('\t');
            let best = before.parse_move(fields.next()?).ok()?;
            let best_score: Score = fields.next()?.parse().ok()?;
            let score: Score = fields.next()?.parse().ok()?;
            let loss = if played == best { 0 } else { loss(best_score, score) };
            let verdict = verdict_of(loss);
            Some(MoveReview { played, mover: before.turn(), best, best_score, score, loss, verdict })
        })
        .collect()
}

/// The engine's lines in `position` as text: per line its rank, depth, selective depth,
/// score, nodes, milliseconds and moves.
pub fn lines_text(position: &Position, lines: &[SearchInfo]) -> String {
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
                line_text(position, &info.pv)
            )
        })
        .collect();
    rows.join("\n")
}

/// Lines in `position` read back from [`lines_text`].
pub fn read_lines(position: &Position, text: &str) -> Option<Vec<SearchInfo>> {
    text.lines()
        .map(|row| {
            let mut fields = row.split('\t');
            let mut number = || fields.next()?.parse::<u64>().ok();
            let (line, depth, seldepth) = (number()?, number()?, number()?);
            let score: Score = fields.next()?.parse().ok()?;
            let nodes: u64 = fields.next()?.parse().ok()?;
            let elapsed = Duration::from_millis(fields.next()?.parse().ok()?);
            let mut current = *position;
            let mut pv = Vec::new();
            for text in fields.next()?.split_whitespace() {
                let mv = current.parse_move(text).ok()?;
                current = current.play_unchecked(&mv);
                pv.push(mv);
            }
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
    use checkers_engine::{Engine, EngineOptions, Limits, StopHandle};
    use checkers_rules::Variant;

    fn engine() -> Engine {
        Engine::new(EngineOptions { hash_mb: 1, threads: 1 })
    }

    #[test]
    fn a_review_reads_back_as_it_was_made() {
        for (variant, moves) in [
            (Variant::English, "11-15 23-19 8-11 22-17 15-18"),
            (Variant::Russian, "c3-d4 f6-e5 d4:f6 g7:e5"),
        ] {
            let mut game = Game::new(variant);
            for text in moves.split(' ') {
                game.play_text(text).unwrap();
            }
            let reviews = checkers_engine::review::review_game(
                &mut engine(),
                &game.start(),
                game.moves(),
                &Limits::nodes(2_000),
                &mut |_| {},
            );
            let text = review_text(&game, &reviews);
            assert_eq!(read_review(&game, &text), Some(reviews), "{text}");
        }
    }

    #[test]
    fn lines_read_back_as_they_were_found() {
        let position = Position::start(Variant::Russian);
        let mut lines = Vec::new();
        engine().search_lines(&position, &[], &Limits::nodes(5_000), &StopHandle::new(), 3, &mut |info| {
            lines.push(info.clone())
        });
        assert!(!lines.is_empty());
        // Elapsed time travels in whole milliseconds.
        for info in &mut lines {
            info.elapsed = Duration::from_millis(info.elapsed.as_millis() as u64);
        }
        let text = lines_text(&position, &lines);
        assert_eq!(read_lines(&position, &text), Some(lines), "{text}");
        assert_eq!(read_lines(&position, ""), Some(Vec::new()), "no line: no move");
    }

    #[test]
    fn a_result_that_does_not_fit_is_none() {
        let mut game = Game::new(Variant::English);
        game.play_text("11-15").unwrap();
        let position = game.position();
        assert_eq!(read_review(&game, "22-18\t0\t0"), None, "not a legal move there");
        assert_eq!(read_review(&game, "11-15\t0"), None, "a field missing");
        assert_eq!(read_review(&game, "11-15\t0\t0\n11-15\t0\t0"), None, "more moves than the game's");
        assert_eq!(read_lines(&position, "1\t4\t6\t35\t100\t3\t11-15"), None, "not White's move");
        assert_eq!(read_lines(&position, "1\t4\t6\tnothing\t100\t3\t22-18"), None);
    }
}
