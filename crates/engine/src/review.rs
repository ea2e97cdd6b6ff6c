//! Game review: each move of a game judged against the engine's own choice, by a search of
//! the position before it and one of the position after it, and called a mistake or a blunder
//! when it gives away much of what the position held.

use checkers_rules::{Color, Move, Position, SquareNotation};

use crate::engine::Engine;
use crate::game::{MoveBuffer, SearchPosition};
use crate::limits::{Limits, StopHandle};
use crate::score::Score;

/// A move that loses this much (hundredths of a man) against the engine's choice is a mistake.
pub const MISTAKE: i32 = 50;
/// One that loses this much is a blunder (so is one that lets a win go or walks into a loss).
pub const BLUNDER: i32 = 150;
/// The most a move is counted as losing, in hundredths of a man: a move that throws a game
/// away counts as three men, so that one lost game does not swamp an average.
pub const MAX_LOSS: i32 = 300;
/// Scores this far from even are won or lost endings: the endgame database's wins score about
/// 10,000 less the plies to them, far above any evaluation.
const DECIDED: i32 = 5_000;

/// How a move compares with the engine's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// The engine's choice, or a move that keeps about as much.
    Good,
    /// Loses at least [`MISTAKE`].
    Mistake,
    /// Loses at least [`BLUNDER`], lets a win go, or walks into a loss.
    Blunder,
}

/// One move of a reviewed game (`M`: the variant's move type, the 8x8 [`Move`] by default).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReview<M = Move> {
    /// The move played, and the side that played it.
    pub played: M,
    pub mover: Color,
    /// The engine's choice in the position before it, and that position's score for the side
    /// to move.
    pub best: M,
    pub best_score: Score,
    /// The position's score after the move played, for the side that played it.
    pub score: Score,
    /// What the move gave away against the engine's choice, in hundredths of a man, 0 to
    /// [`MAX_LOSS`] (0 for the engine's choice itself).
    pub loss: i32,
    pub verdict: Verdict,
}

/// One side's moves in a review, counted.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct SideTally {
    pub moves: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// The mean of the moves' losses, in hundredths of a man (0 with no moves).
    pub average_loss: f64,
}

impl SideTally {
    /// `Black: 1 mistake, 2 blunders, 0.31 a move lost on average` (`Black: no mistakes, ...`,
    /// `Black: no moves`), with the side named as the caller names it.
    pub fn describe(&self, side: &str) -> String {
        if self.moves == 0 {
            return format!("{side}: no moves");
        }
        let plural = |n: usize, word: &str| if n == 1 { format!("1 {word}") } else { format!("{n} {word}s") };
        let counted = if self.mistakes + self.blunders == 0 {
            "no mistakes".to_string()
        } else {
            format!("{}, {}", plural(self.mistakes, "mistake"), plural(self.blunders, "blunder"))
        };
        format!("{side}: {counted}, {:.2} a move lost on average", self.average_loss / 100.0)
    }
}

/// Counts `color`'s moves in a review.
pub fn tally<M>(reviews: &[MoveReview<M>], color: Color) -> SideTally {
    let own: Vec<&MoveReview<M>> = reviews.iter().filter(|r| r.mover == color).collect();
    let count = |verdict| own.iter().filter(|r| r.verdict == verdict).count();
    let total: i64 = own.iter().map(|r| i64::from(r.loss)).sum();
    SideTally {
        moves: own.len(),
        mistakes: count(Verdict::Mistake),
        blunders: count(Verdict::Blunder),
        average_loss: if own.is_empty() { 0.0 } else { total as f64 / own.len() as f64 },
    }
}

impl MoveReview<Move> {
    /// The comment a reviewed game gives this move: the score after it for the side that
    /// played it, and for a mistake or a blunder the engine's move from `before` (the position
    /// the move was played in) and what it kept: `-1.40, a blunder: 15-18 kept +0.32`.
    pub fn comment(&self, before: &Position, notation: SquareNotation) -> String {
        self.comment_with(&self.best.to_pdn(before, notation))
    }
}

impl<M> MoveReview<M> {
    /// The comment of [`MoveReview::comment`] with the engine's move already written (as
    /// `best_text`): for any variant's moves.
    pub fn comment_with(&self, best_text: &str) -> String {
        let score = score_text(self.score);
        let called = match self.verdict {
            Verdict::Good => return score,
            Verdict::Mistake => "a mistake",
            Verdict::Blunder => "a blunder",
        };
        format!("{score}, {called}: {best_text} kept {}", score_text(self.best_score))
    }
}

/// A score in words a player reads: men with two decimals (`+0.25`), `wins in 7 plies`,
/// `loses`, or `a won ending` for the endgame database's wins (whose distance it does not
/// know).
pub fn score_text(score: Score) -> String {
    match score.plies_to_end() {
        Some(0) if score.is_win() => "wins".to_string(),
        Some(0) => "loses".to_string(),
        Some(1) if score.is_win() => "wins in 1 ply".to_string(),
        Some(1) => "loses in 1 ply".to_string(),
        Some(n) if score.is_win() => format!("wins in {n} plies"),
        Some(n) => format!("loses in {n} plies"),
        None if score.value() >= DECIDED => "a won ending".to_string(),
        None if score.value() <= -DECIDED => "a lost ending".to_string(),
        None => format!("{:+.2}", f64::from(score.value()) / 100.0),
    }
}

/// Reviews `moves` played from `start` (each must be legal where it falls; the review stops
/// at the first that is not), searching every position under `limits` with one engine, whose
/// table carries from one position to the next. `on_move` hears how many positions are done.
/// With one thread and a node limit, the same game gives the same review.
pub fn review_game<P: SearchPosition>(
    engine: &mut Engine<P>,
    start: &P,
    moves: &[P::Move],
    limits: &Limits,
    on_move: &mut dyn FnMut(usize),
) -> Vec<MoveReview<P::Move>> {
    let mut positions = vec![*start];
    for mv in moves {
        let current = positions[positions.len() - 1];
        if !current.legal_moves().as_slice().contains(mv) {
            break;
        }
        positions.push(current.play_unchecked(mv));
    }
    engine.new_game();
    let stop = StopHandle::new();
    // Each position's best move and score for its side to move.
    let mut searched = Vec::with_capacity(positions.len());
    for (i, position) in positions.iter().enumerate() {
        searched.push(judge_position(engine, position, &positions[..i], limits, &stop));
        on_move(i + 1);
    }
    moves
        .iter()
        .zip(searched.windows(2))
        .zip(&positions)
        .map(|((&played, pair), before)| {
            let (best, best_score) = pair[0];
            // A move was played here, so the position has legal moves and the search named one.
            let best = best.unwrap_or(played);
            let score = -pair[1].1;
            let loss = if played == best { 0 } else { loss(best_score, score) };
            MoveReview {
                played,
                mover: before.turn(),
                best,
                best_score,
                score,
                loss,
                verdict: verdict_of(loss),
            }
        })
        .collect()
}

/// Forced moves followed before a search, at most.
const MAX_FORCED: usize = 32;

/// A position's best move and score for its side to move. Where the move is forced, the
/// search starts after it (and after any forced answers): the engine answers a forced move at
/// once with a static evaluation, which would miss what the move before it let in.
fn judge_position<P: SearchPosition>(
    engine: &mut Engine<P>,
    position: &P,
    history: &[P],
    limits: &Limits,
    stop: &StopHandle,
) -> (Option<P::Move>, Score) {
    let mut line = history.to_vec();
    let mut current = *position;
    let mut forced = Vec::new();
    for _ in 0..MAX_FORCED {
        let legal = current.legal_moves();
        let [only] = legal.as_slice() else { break };
        forced.push(*only);
        line.push(current);
        current = current.play_unchecked(only);
    }
    let result = engine.search(&current, &line, limits, stop, &mut |_| {});
    let plies = forced.len() as u32;
    let score = if plies % 2 == 1 { -result.score } else { result.score };
    // A forced result is as many plies further away as the forced moves before it.
    let score = match score.plies_to_end() {
        Some(n) if score.is_win() => Score::win_in(n + plies),
        Some(n) => Score::loss_in(n + plies),
        None => score,
    };
    (forced.first().copied().or(result.best_move), score)
}

/// What a position holds for the side to move, as far as a review tells apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Holds {
    Won,
    Lost,
    Open(i32),
}

fn holds(score: Score) -> Holds {
    match score.value() {
        v if v >= DECIDED => Holds::Won,
        v if v <= -DECIDED => Holds::Lost,
        v => Holds::Open(v),
    }
}

/// What a move other than the engine's choice gave away, 0 to [`MAX_LOSS`]: `before` is the
/// position's score with the engine's choice, `after` with the move played (both for the side
/// that moved). Letting a win go or walking into a loss gives away the most.
pub fn loss(before: Score, after: Score) -> i32 {
    match (holds(before), holds(after)) {
        (Holds::Won, Holds::Won) | (Holds::Lost, _) | (_, Holds::Won) => 0,
        (Holds::Won, _) | (_, Holds::Lost) => MAX_LOSS,
        (Holds::Open(before), Holds::Open(after)) => (before - after).clamp(0, MAX_LOSS),
    }
}

/// The verdict on a move that gave away `loss`.
pub fn verdict_of(loss: i32) -> Verdict {
    match loss {
        loss if loss >= BLUNDER => Verdict::Blunder,
        loss if loss >= MISTAKE => Verdict::Mistake,
        _ => Verdict::Good,
    }
}

/// The verdict on a move other than the engine's choice (see [`loss`]).
pub fn verdict(before: Score, after: Score) -> Verdict {
    verdict_of(loss(before, after))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineOptions;
    use checkers_rules::{Game, Variant};

    #[test]
    fn verdicts_by_what_the_move_gives_away() {
        let open = Score::hundredths;
        assert_eq!(verdict(open(20), open(-20)), Verdict::Good);
        assert_eq!(verdict(open(20), open(-30)), Verdict::Mistake);
        assert_eq!(verdict(open(20), open(-130)), Verdict::Blunder);
        assert_eq!(verdict(Score::win_in(9), open(0)), Verdict::Blunder, "a win let go");
        assert_eq!(verdict(open(9_800), open(300)), Verdict::Blunder, "a won ending let go");
        assert_eq!(verdict(open(0), Score::loss_in(12)), Verdict::Blunder, "into a loss");
        assert_eq!(verdict(Score::win_in(5), Score::win_in(9)), Verdict::Good, "a slower win");
        assert_eq!(verdict(Score::loss_in(5), Score::loss_in(3)), Verdict::Good, "lost anyway");
        assert_eq!(verdict(open(-40), Score::win_in(3)), Verdict::Good);
        assert_eq!(loss(open(20), open(-30)), 50);
        assert_eq!(loss(open(20), open(60)), 0, "better than the engine's own score");
        assert_eq!(loss(open(400), open(-600)), MAX_LOSS);
        assert_eq!(loss(Score::win_in(9), open(0)), MAX_LOSS);
    }

    #[test]
    fn a_move_that_walks_into_a_shot_is_a_blunder_and_the_engines_choice_is_good() {
        let mut game = Game::new(Variant::English);
        for text in ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"] {
            game.play_text(text).unwrap();
        }
        let position = game.position();
        let blunder = position.parse_move("11-16").unwrap();
        let mut engine = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
        let limits = Limits::nodes(50_000);
        let mut done = 0;
        let reviewed = review_game(&mut engine, &position, &[blunder], &limits, &mut |n| done = n);
        assert_eq!(done, 2, "both positions searched");
        let review = &reviewed[0];
        assert_eq!(review.verdict, Verdict::Blunder, "{review:?}");
        assert!(review.best_score.value() - review.score.value() >= BLUNDER, "{review:?}");
        let given = review.best_score.value() - review.score.value();
        assert_eq!((review.mover, review.loss), (Color::Black, given.min(MAX_LOSS)));
        assert_ne!(review.best, blunder);
        let again = review_game(&mut engine, &position, &[blunder], &limits, &mut |_| {});
        assert_eq!(again, reviewed, "the same review every time");
        let best = review_game(&mut engine, &position, &[review.best], &limits, &mut |_| {});
        assert_eq!(best[0].verdict, Verdict::Good);
    }

    #[test]
    fn a_forced_move_is_judged_by_what_follows_it() {
        // After 11-15 22-18 Black must take 15x22: the position's score is a search of what
        // follows the capture, not the evaluation of the position after it.
        let mut game = Game::new(Variant::English);
        for text in ["11-15", "22-18"] {
            game.play_text(text).unwrap();
        }
        let mut engine = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
        let limits = Limits::nodes(20_000);
        let (forced, score) = judge_position(&mut engine, &game.position(), &[], &limits, &StopHandle::new());
        let capture = game.position().legal_moves()[0];
        assert_eq!(forced, Some(capture));
        let after = game.position().play_unchecked(&capture);
        let mut fresh = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
        let searched = fresh.search(&after, &[game.position()], &limits, &StopHandle::new(), &mut |_| {});
        assert_eq!(score, -searched.score);
    }

    #[test]
    fn scores_and_comments_read_as_words() {
        let texts: Vec<String> = [
            Score::hundredths(25),
            Score::hundredths(-140),
            Score::DRAW,
            Score::win_in(7),
            Score::loss_in(1),
            Score::win_in(0),
            Score::hundredths(9_950),
        ]
        .into_iter()
        .map(score_text)
        .collect();
        assert_eq!(
            texts,
            ["+0.25", "-1.40", "+0.00", "wins in 7 plies", "loses in 1 ply", "wins", "a won ending"]
        );
        let start = Position::start(Variant::English);
        let moves = start.legal_moves();
        let review = MoveReview {
            played: moves[0],
            mover: Color::Black,
            best: moves[1],
            best_score: Score::hundredths(32),
            score: Score::hundredths(-140),
            loss: 172,
            verdict: Verdict::Blunder,
        };
        let best = moves[1].to_pdn(&start, SquareNotation::Numeric);
        assert_eq!(
            review.comment(&start, SquareNotation::Numeric),
            format!("-1.40, a blunder: {best} kept +0.32")
        );
        let good = MoveReview { verdict: Verdict::Good, loss: 10, ..review.clone() };
        assert_eq!(good.comment(&start, SquareNotation::Numeric), "-1.40");
        let reviews = [review, good.clone(), MoveReview { mover: Color::White, ..good }];
        let black = tally(&reviews, Color::Black);
        assert_eq!((black.moves, black.mistakes, black.blunders, black.average_loss), (2, 0, 1, 91.0));
        assert_eq!(black.describe("Black"), "Black: 0 mistakes, 1 blunder, 0.91 a move lost on average");
        assert_eq!(
            tally(&reviews, Color::White).describe("White"),
            "White: no mistakes, 0.10 a move lost on average"
        );
        assert_eq!(tally::<Move>(&[], Color::White).average_loss, 0.0);
        assert_eq!(tally::<Move>(&[], Color::White).describe("White"), "White: no moves");
    }

    #[test]
    fn the_review_stops_at_an_illegal_move() {
        let start = Position::start(Variant::English);
        let legal = start.legal_moves()[0];
        let mut engine = Engine::new(EngineOptions { hash_mb: 4, threads: 1 });
        let reviewed = review_game(&mut engine, &start, &[legal, legal], &Limits::nodes(2_000), &mut |_| {});
        assert_eq!(reviewed.len(), 1);
    }
}
