//! The nine playing levels, from beginner to master, and the judgements a game needs from
//! the computer (hints, draw offers).
//!
//! Levels 1-6 search to a fixed shallow depth with a blurred evaluation and now and then
//! play the second-best of two nearly equal moves, as a club player would; levels 7-9 are
//! the full engine under growing node budgets (level 9 about half a second a move on the
//! development machine). In Russian, levels 1-8 judge positions by the fitted tables and only
//! level 9 by the network, which keeps level 9 clearly above level 8. Budgets are counted in
//! nodes, not time, so a level plays the same on any machine, and with the same seed the same
//! move (on a one-thread engine that starts the game fresh: levels 7-9 keep their table from
//! one move of a game to the next, so a whole game replays exactly).

use std::fmt;
use std::str::FromStr;

use checkers_rules::{Color, Move};

use crate::engine::{Engine, SearchInfo, SearchResult};
use crate::game::SearchPosition;
use crate::limits::{Limits, StopHandle};
use crate::mix::splitmix64;
use crate::score::Score;
use crate::search::SearchConfig;

/// A playing level, 1 (beginner) to 9 (master).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// How a level searches.
struct Settings {
    depth: Option<u32>,
    nodes: Option<u64>,
    /// Half-width of the evaluation blur, in hundredths of a man.
    noise: i32,
    /// Percent chance of playing the second-best move when it is within `margin`.
    second_best_percent: u64,
    margin: i32,
    /// How far from the level's own move, in hundredths of a man, another may score and still
    /// be played for variety early in a game ([`Level::choose_move_varied`]); 0 for none.
    variety_margin: i32,
}

/// Plies from the game's first position during which [`Level::choose_move_varied`] varies.
const VARIETY_PLIES: usize = 12;
/// The depth at which [`Level::choose_move_varied`] compares the moves.
const VARIETY_DEPTH: u32 = 12;

impl Level {
    pub const MIN: Level = Level(1);
    pub const MAX: Level = Level(9);

    /// The level numbered `n`, if 1 ≤ n ≤ 9.
    pub fn new(n: u32) -> Option<Level> {
        (Level::MIN.number()..=Level::MAX.number()).contains(&n).then_some(Level(n as u8))
    }
    pub fn number(self) -> u32 {
        u32::from(self.0)
    }
    /// Levels 1 to 9.
    pub fn all() -> impl Iterator<Item = Level> {
        (Level::MIN.0..=Level::MAX.0).map(Level)
    }

    /// A one-word name.
    pub fn name(self) -> &'static str {
        ["beginner", "novice", "casual", "improver", "club", "strong club", "expert", "advanced", "master"]
            [usize::from(self.0 - 1)]
    }

    /// A line for help text: what playing this level is like.
    pub fn describe(self) -> &'static str {
        match self.0 {
            1 => "beginner: looks two moves ahead, misjudges positions, sometimes picks a lesser move",
            2 => "novice: three moves ahead, still loose in judgement",
            3 => "casual: four moves ahead, sees simple shots",
            4 => "improver: five moves ahead, fewer slips",
            5 => "club player: six moves ahead, sound but shallow",
            6 => "strong club player: eight moves ahead, rarely errs",
            7 => "expert: full engine, a short think (about 30 thousand positions a move)",
            8 => "advanced: full engine, about 300 thousand positions a move",
            _ => "master: full engine, about 3 million positions (under a second) a move",
        }
    }

    fn settings(self) -> Settings {
        let shallow = |depth, noise, second_best_percent, margin| Settings {
            depth: Some(depth),
            nodes: None,
            noise,
            second_best_percent,
            margin,
            variety_margin: 0,
        };
        let full = |nodes, variety_margin| Settings {
            depth: None,
            nodes: Some(nodes),
            noise: 0,
            second_best_percent: 0,
            margin: 0,
            variety_margin,
        };
        match self.0 {
            1 => shallow(2, 50, 30, 40),
            2 => shallow(3, 40, 25, 30),
            3 => shallow(4, 30, 20, 25),
            4 => shallow(5, 20, 15, 20),
            5 => shallow(6, 12, 10, 15),
            6 => shallow(8, 6, 5, 10),
            7 => full(30_000, 15),
            8 => full(300_000, 10),
            _ => full(3_000_000, 6),
        }
    }

    /// Whether this level judges `position` by the fitted tables rather than the variant's
    /// network. In Russian only level 9 has the network: with it at both, level 9's ten times
    /// the nodes scored only 0.55 against level 8 (the network is worth about 100 Elo at
    /// equal nodes, more than the extra nodes are), while below it the tables' ladder stands.
    fn tables_only<P: SearchPosition>(self, position: &P) -> bool {
        position.tables_below_top_level() && self.0 < 9
    }

    /// The search limits this level plays under (levels 1-6 also blur their evaluation).
    pub fn limits(self) -> Limits {
        let s = self.settings();
        Limits { depth: s.depth, nodes: s.nodes, ..Limits::default() }
    }

    /// The move this level plays, or `None` if there is no legal move. Deterministic for a
    /// given `seed` on a one-thread engine and the same earlier searches: the engine's tables
    /// are cleared first unless this search continues the game of its latest one at a
    /// full-strength level (7-9).
    pub fn choose_move<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        seed: u64,
    ) -> Option<P::Move> {
        self.choose_move_with_stop(engine, position, history, seed, &StopHandle::new())
    }

    /// As [`Level::choose_move`], stoppable from another thread (it then plays the best move
    /// found so far).
    pub fn choose_move_with_stop<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        seed: u64,
        stop: &StopHandle,
    ) -> Option<P::Move> {
        self.search(engine, position, history, seed, stop, &mut |_| {}).best_move
    }

    /// As [`Level::choose_move_with_stop`], for a game against a person. In a position of
    /// the opening book ([`crate::book`]) the full-strength levels (7-9) play at once, as the
    /// seed picks, any book move scored within a few hundredths of a man of the best. Out of
    /// the book, in the first
    /// `VARIETY_PLIES` plies of the game (counted from `history`'s first position), they
    /// play, as the seed picks, the level's own move or any other
    /// that a search of `VARIETY_DEPTH` plies scores within a few hundredths of a man of it
    /// (above or below: a move the short search likes much better than the deep search's
    /// choice is one the deep search saw through) and that a search as long as the level's
    /// own, of the position after it, scores within twice that of the level's own move; so
    /// that the same replies do not meet the same game every time. Levels 1-6 vary already.
    /// Deterministic for a seed, as the plain choice, which matches and the level ladder use.
    pub fn choose_move_varied<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        seed: u64,
        stop: &StopHandle,
    ) -> Option<P::Move> {
        self.choose_move_scored(engine, position, history, seed, stop).map(|choice| choice.mv)
    }

    /// As [`Level::choose_move_varied`] (the same move), with what the level thinks of it:
    /// the score of the position after the move for the side that played it, when the full
    /// engine judged it (levels 7-9: from the book or the search, even one stopped early);
    /// `None` from levels 1-6, whose judgement is blurred on purpose. A program can answer a
    /// draw offer from it ([`DrawAnswer::from_score`]) without searching again.
    pub fn choose_move_scored<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        seed: u64,
        stop: &StopHandle,
    ) -> Option<Choice<P::Move>> {
        let settings = self.settings();
        let with_score =
            |mv: P::Move, score: Score| Choice { mv, score: (settings.noise == 0).then_some(score) };
        if let Some((mv, score)) = self.book_entry(position, seed) {
            return Some(with_score(mv, score));
        }
        let margin = settings.variety_margin;
        let result = self.search(engine, position, history, seed, stop, &mut |_| {});
        let mut best = with_score(result.best_move?, result.score);
        if result.depth == 0 {
            best.score = None; // stopped before its first iteration: no judgement yet
        }
        if margin == 0 || history.len() >= VARIETY_PLIES || stop.is_stopped() || result.score.is_decisive() {
            return Some(best);
        }
        let judged = SearchConfig { tables_only: self.tables_only(position), ..SearchConfig::default() };
        let scored = engine.root_scores(position, history, VARIETY_DEPTH, judged);
        let Some(reference) = scored.iter().find(|(mv, _)| *mv == best.mv).map(|(_, score)| *score) else {
            return Some(best);
        };
        if reference.is_decisive() {
            return Some(best);
        }
        let near: Vec<P::Move> = scored
            .iter()
            .filter(|(_, score)| !score.is_decisive() && (score.value() - reference.value()).abs() <= margin)
            .map(|(mv, _)| *mv)
            .collect();
        let choice = near[seeded_index(seed, position, near.len())];
        if choice == best.mv {
            return Some(best);
        }
        // A short search misses traps laid deeper: the other move must also hold up under a
        // search as long as the level's own, else the level plays its own move.
        let after = position.play_unchecked(&choice);
        let mut line = history.to_vec();
        line.push(*position);
        let limits = Limits { nodes: settings.nodes, ..Limits::default() };
        let check = engine.search_with(&after, &line, &limits, stop, judged, &mut |_| {});
        let holds = !stop.is_stopped()
            && !check.score.is_decisive()
            && -check.score.value() >= result.score.value() - 2 * margin;
        Some(if holds { with_score(choice, -check.score) } else { best })
    }

    /// The opening book's move for this level and seed, if the level plays from the book
    /// (7-9) and the book holds the position: any book move scored within the level's
    /// variety margin of the best, as the seed picks. [`Level::choose_move_varied`] plays it.
    pub fn book_move<P: SearchPosition>(self, position: &P, seed: u64) -> Option<P::Move> {
        self.book_entry(position, seed).map(|(mv, _)| mv)
    }

    /// The book's entry for [`Level::book_move`]: the move with its score.
    fn book_entry<P: SearchPosition>(self, position: &P, seed: u64) -> Option<(P::Move, Score)> {
        let margin = self.settings().variety_margin;
        if margin == 0 {
            return None;
        }
        // Best first, every move scored exactly by a search about as deep as level 9's own.
        let moves = position.book_moves()?;
        let best = moves.first()?.1.value();
        let near = moves.iter().take_while(|(_, score)| best - score.value() <= margin).count();
        Some(moves[seeded_index(seed, position, near)])
    }

    /// Whether this level answers `position` from its opening book: then
    /// [`Level::choose_move_varied`] plays a book move there, whatever the seed, so a program
    /// that shows a game can say so after the fact.
    pub fn opens_from_book<P: SearchPosition>(self, position: &P) -> bool {
        self.book_move(position, 0).is_some()
    }

    /// The level's search with its progress reported: the result's `best_move` is the move
    /// the level plays (sometimes not the first of the reported line, at levels 1-6).
    pub fn search<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        seed: u64,
        stop: &StopHandle,
        on_info: &mut dyn FnMut(&SearchInfo<P::Move>),
    ) -> SearchResult<P::Move> {
        let s = self.settings();
        // The full engine keeps what it learned on the game's earlier moves (the table holds
        // positions, true in any game); a blurred level starts afresh, as its noise changes
        // from move to move.
        if s.noise != 0 || !engine.continues_game(position, history) {
            engine.new_game();
        }
        let seed = splitmix64(seed ^ position.hash_key());
        let config = SearchConfig {
            eval_noise: s.noise,
            noise_seed: seed,
            no_endgame_database: s.depth.is_some(),
            tables_only: self.tables_only(position),
            ..SearchConfig::default()
        };
        let mut result = engine.search_with(position, history, &self.limits(), stop, config, on_info);
        if s.second_best_percent == 0 || stop.is_stopped() || result.depth == 0 {
            return result;
        }
        let roll = splitmix64(seed.rotate_left(17)) % 100;
        if roll >= s.second_best_percent {
            return result;
        }
        let mut scored = engine.root_scores(position, history, s.depth.unwrap_or(1), config);
        scored.sort_by_key(|(_, score)| std::cmp::Reverse(*score));
        if scored.len() >= 2
            && !scored[1].1.is_decisive()
            && scored[0].1.value() - scored[1].1.value() <= s.margin
        {
            result.best_move = Some(scored[1].0);
            result.score = scored[1].1;
            result.pv = vec![scored[1].0];
        }
        result
    }

    /// Whether the computer, playing `engine_side` at this level, accepts a draw offer.
    pub fn accepts_draw<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        engine_side: Color,
    ) -> bool {
        self.answer_draw(engine, position, history, engine_side) == DrawAnswer::Accept
    }

    /// The computer's answer to a draw offer, with its reason: it accepts when it judges
    /// itself worse, or the game level once the opening is over (a level opening is not yet
    /// a draw: players who offer one at move three expect a game).
    pub fn answer_draw<P: SearchPosition>(
        self,
        engine: &mut Engine<P>,
        position: &P,
        history: &[P],
        engine_side: Color,
    ) -> DrawAnswer {
        let score = judge(engine, position, history, engine_side, &Limits::nodes(DRAW_JUDGE_NODES));
        DrawAnswer::from_score(score, position, history.len())
    }
}

/// Nodes of the search that judges a draw offer ([`Level::answer_draw`]).
const DRAW_JUDGE_NODES: u64 = 300_000;

/// A score within this many hundredths of a man of zero is a level game.
const LEVEL_MARGIN: i32 = 15;
/// The opening, for draw offers: fewer plies played than this with more pieces on the board
/// than the variant's opening count (16 of 24 on 8x8: [`SearchPosition::opening_pieces`]).
const OPENING_PLIES: usize = 30;

/// How the computer answers a draw offer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawAnswer {
    Accept,
    /// It judges itself ahead.
    DeclineAhead,
    /// The game is level but still in its opening.
    DeclineTooEarly,
}

impl DrawAnswer {
    /// The answer to a draw offer in `position`, reached after `plies_played` plies, from the
    /// computer's `score` of it for its own side (by [`judge`], or from its latest move's
    /// search: [`Level::choose_move_scored`]).
    pub fn from_score<P: SearchPosition>(score: Score, position: &P, plies_played: usize) -> DrawAnswer {
        if score.is_win() || score.value() > LEVEL_MARGIN {
            return DrawAnswer::DeclineAhead;
        }
        if score.value() < -LEVEL_MARGIN {
            return DrawAnswer::Accept;
        }
        if plies_played < OPENING_PLIES && position.piece_count() > position.opening_pieces() {
            DrawAnswer::DeclineTooEarly
        } else {
            DrawAnswer::Accept
        }
    }
}

/// A level's move and its own score of it ([`Level::choose_move_scored`]); `M` is the
/// variant's move type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice<M = Move> {
    pub mv: M,
    /// The position after `mv`, for the side that played it; `None` from a blurred level.
    pub score: Option<Score>,
}

/// One of `len` choices (`len` > 0), as the game's seed picks in this position.
fn seeded_index<P: SearchPosition>(seed: u64, position: &P, len: usize) -> usize {
    (splitmix64(seed ^ position.hash_key()).rotate_left(29) % len as u64) as usize
}

/// The score of a position for `side`, from a search under `limits` (deterministic under a
/// node or depth limit, on a one-thread engine: the table is cleared first).
pub fn judge<P: SearchPosition>(
    engine: &mut Engine<P>,
    position: &P,
    history: &[P],
    side: Color,
    limits: &Limits,
) -> Score {
    engine.new_game();
    let result = engine.search(position, history, limits, &StopHandle::new(), &mut |_| {});
    if position.turn() == side {
        result.score
    } else {
        -result.score
    }
}

/// A suggestion for the side to move: the full engine's choice under a modest node budget
/// (deterministic). `None` if there is no legal move.
pub fn hint<P: SearchPosition>(engine: &mut Engine<P>, position: &P, history: &[P]) -> Option<P::Move> {
    engine.new_game();
    engine.search(position, history, &Limits::nodes(2_000_000), &StopHandle::new(), &mut |_| {}).best_move
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A level number that is not 1-9.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("level must be a number from 1 to 9, found `{0}`")]
pub struct LevelError(pub String);

impl FromStr for Level {
    type Err = LevelError;
    fn from_str(s: &str) -> Result<Level, LevelError> {
        s.trim().parse::<u32>().ok().and_then(Level::new).ok_or_else(|| LevelError(s.to_string()))
    }
}
