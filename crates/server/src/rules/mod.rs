//! The rules of every variant as the server needs them, behind one type: [`AnyGame`], a game
//! of any variant (English and Russian on the 8x8 code, every other variant on the rules
//! library's boards of any size), with the few operations the server asks of a game: its
//! positions as FEN, its legal moves as the page shows them, a move played from a client's
//! text or squares, its end as the protocol's result and reason, its PDN, and the engine's
//! moves, draw answers, reviews and lines. Moves cross the boundary as [`AnyMove`]s, which
//! carry a move's Hub form (unique among a position's legal moves).
//!
//! The typed side is one trait, [`VariantRules`] (`position.rs`), implemented for the 8x8
//! positions (`eight.rs`) and the boards (`boards.rs`); the engine is called through generic
//! functions (`engines.rs`), compiled for each position type and chosen by the game's variant
//! (`with_board_variant!`), so no search runs through a pointer.

mod boards;
mod eight;
mod engines;
mod position;
mod record;

use std::fmt;

use checkers_engine::review::{review_game, MoveReview};
use checkers_engine::{
    BoardEngine, Choice, DrawAnswer, Level, Limits, MoveBuffer, Score, SearchInfo, StopHandle,
};
use checkers_rules::board::Board;
use checkers_rules::{with_board_variant, Color, PdnResult, Position, ResultStyle, WinReason};

pub use engines::Engines;
pub use position::{Declared, VariantRules};
pub use record::GameRecord;

use crate::variant::GameVariant;

/// A legal move, by its Hub form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AnyMove(String);

impl AnyMove {
    /// The Hub form (`11-15`, `9x27x14x23`; names on Turkish's board): what is stored.
    pub fn hub(&self) -> &str {
        &self.0
    }
}

/// A legal move as the page and the protocol show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveInfo {
    pub mv: AnyMove,
    /// The long form, as the variant's players write it.
    pub text: String,
    pub from: u32,
    pub to: u32,
    /// The squares the piece stops on, start first.
    pub route: Vec<u32>,
    pub captured: Vec<u32>,
}

/// How a game ended by its rules, or by a declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct End {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// The stable code of the reason, as stored and sent (`no_legal_move`, `resignation`,
    /// `twenty_five_move_rule`, ...).
    pub reason: &'static str,
    /// A sentence saying who won and why (`White wins: Black resigned`).
    pub message: String,
}

/// The stable code of a win's reason, the same in every variant.
fn win_code(reason: WinReason) -> &'static str {
    match reason {
        WinReason::NoLegalMove => "no_legal_move",
        WinReason::Resignation => "resignation",
        WinReason::Time => "time",
    }
}

/// A game of one position type, behind [`AnyGame`]'s pointer.
#[derive(Clone)]
struct Typed<P: VariantRules> {
    game: P::Game,
}

impl<P: VariantRules> fmt::Debug for Typed<P> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.game.fmt(f)
    }
}

impl<P: VariantRules> Typed<P> {
    fn position(&self) -> P {
        *self.positions().last().unwrap_or(&P::start(&self.game))
    }
    fn positions(&self) -> &[P] {
        P::positions(&self.game)
    }
    fn played_moves(&self) -> &[P::Move] {
        P::moves(&self.game)
    }
    /// The position before move `ply` (0: the start), if the game has one.
    fn at(&self, ply: usize) -> Option<P> {
        self.positions().get(ply).copied()
    }
    fn erase(mv: &P::Move) -> AnyMove {
        AnyMove(P::hub(mv))
    }
    fn info(position: &P, mv: &P::Move) -> MoveInfo {
        let (from, to) = P::ends(mv);
        MoveInfo {
            mv: Self::erase(mv),
            text: position.move_text(mv),
            from,
            to,
            route: position.route(mv),
            captured: P::captured(mv),
        }
    }
    fn erase_review(review: MoveReview<P::Move>) -> MoveReview<AnyMove> {
        MoveReview {
            played: Self::erase(&review.played),
            mover: review.mover,
            best: Self::erase(&review.best),
            best_score: review.best_score,
            score: review.score,
            loss: review.loss,
            verdict: review.verdict,
        }
    }
}

/// What [`AnyGame`] asks of a game, whatever its position type.
trait Played: Send + Sync + fmt::Debug {
    fn clone_box(&self) -> Box<dyn Played>;
    fn variant(&self) -> GameVariant;
    fn first_mover(&self) -> Color;
    fn plies(&self) -> usize;
    fn moves(&self) -> Vec<AnyMove>;
    fn fen_at(&self, ply: usize) -> Option<String>;
    fn turn_at(&self, ply: usize) -> Option<Color>;
    fn outcome(&self) -> Option<End>;
    fn legal(&self) -> Vec<MoveInfo>;
    fn describe(&self, ply: usize, mv: &AnyMove) -> Option<MoveInfo>;
    fn fen_after(&self, mv: &AnyMove) -> Option<String>;
    fn line_text(&self, ply: usize, line: &[AnyMove]) -> String;
    fn read_at(&self, ply: usize, text: &str) -> Result<AnyMove, String>;
    fn read_line(&self, ply: usize, text: &str) -> Option<Vec<AnyMove>>;
    fn find(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<AnyMove, String>;
    fn play(&mut self, mv: &AnyMove) -> Result<(), String>;
    fn declare(&mut self, declared: Declared) -> bool;
    fn truncate(&mut self, plies: usize);
    fn record(&self) -> GameRecord;
    fn opens_from_book(&self, ply: usize, level: Level) -> bool;
    fn choose(
        &self,
        engines: &mut Engines,
        level: Level,
        seed: u64,
        stop: &StopHandle,
    ) -> Option<Choice<AnyMove>>;
    fn judge(&self, engines: &mut Engines, side: Color, limits: &Limits) -> Score;
    fn draw_answer(&self, score: Score) -> DrawAnswer;
    fn review(&self, engines: &mut Engines, limits: &Limits) -> Vec<MoveReview<AnyMove>>;
    fn lines(&self, engines: &mut Engines, limits: &Limits, count: usize) -> Vec<SearchInfo<AnyMove>>;
}

impl<P: VariantRules> Played for Typed<P> {
    fn clone_box(&self) -> Box<dyn Played> {
        Box::new(self.clone())
    }
    fn variant(&self) -> GameVariant {
        P::start(&self.game).variant()
    }
    fn first_mover(&self) -> Color {
        P::start(&self.game).first_mover()
    }
    fn plies(&self) -> usize {
        self.played_moves().len()
    }
    fn moves(&self) -> Vec<AnyMove> {
        self.played_moves().iter().map(Self::erase).collect()
    }
    fn fen_at(&self, ply: usize) -> Option<String> {
        self.at(ply).map(|p| p.fen())
    }
    fn turn_at(&self, ply: usize) -> Option<Color> {
        self.at(ply).map(|p| p.turn())
    }
    fn outcome(&self) -> Option<End> {
        P::outcome(&self.game)
    }
    fn legal(&self) -> Vec<MoveInfo> {
        let position = self.position();
        position.legal_moves().as_slice().iter().map(|mv| Self::info(&position, mv)).collect()
    }
    fn describe(&self, ply: usize, mv: &AnyMove) -> Option<MoveInfo> {
        let position = self.at(ply)?;
        position.legal_by_hub(mv.hub()).map(|mv| Self::info(&position, &mv))
    }
    fn fen_after(&self, mv: &AnyMove) -> Option<String> {
        let position = self.position();
        position.legal_by_hub(mv.hub()).map(|mv| position.play_unchecked(&mv).fen())
    }
    fn line_text(&self, ply: usize, line: &[AnyMove]) -> String {
        let Some(mut current) = self.at(ply) else { return String::new() };
        let mut words = Vec::with_capacity(line.len());
        for mv in line {
            let Some(mv) = current.legal_by_hub(mv.hub()) else { break };
            words.push(current.move_text(&mv));
            current = current.play_unchecked(&mv);
        }
        words.join(" ")
    }
    fn read_at(&self, ply: usize, text: &str) -> Result<AnyMove, String> {
        let position = self.at(ply).ok_or_else(|| format!("the game has no position after {ply} moves"))?;
        position.read_move(text).map(|mv| Self::erase(&mv))
    }
    fn read_line(&self, ply: usize, text: &str) -> Option<Vec<AnyMove>> {
        let mut current = self.at(ply)?;
        let mut line = Vec::new();
        for word in text.split_whitespace() {
            let mv = current.read_move(word).ok()?;
            line.push(Self::erase(&mv));
            current = current.play_unchecked(&mv);
        }
        Some(line)
    }
    fn find(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<AnyMove, String> {
        self.position().find_move(from, to, captured).map(|mv| Self::erase(&mv))
    }
    fn play(&mut self, mv: &AnyMove) -> Result<(), String> {
        let position = self.position();
        let Some(typed) = position.legal_by_hub(mv.hub()) else {
            return Err(format!("{} is not a legal move here", mv.hub()));
        };
        P::play(&mut self.game, typed)
    }
    fn declare(&mut self, declared: Declared) -> bool {
        P::declare(&mut self.game, declared)
    }
    fn truncate(&mut self, plies: usize) {
        let mut game = P::new_game(P::start(&self.game));
        for &mv in self.played_moves().iter().take(plies) {
            // Each was legal when played, from the same start.
            let _ = P::play(&mut game, mv);
        }
        self.game = game;
    }
    fn record(&self) -> GameRecord {
        P::record(&self.game)
    }
    fn opens_from_book(&self, ply: usize, level: Level) -> bool {
        self.at(ply).is_some_and(|position| level.opens_from_book(&position))
    }
    fn choose(
        &self,
        engines: &mut Engines,
        level: Level,
        seed: u64,
        stop: &StopHandle,
    ) -> Option<Choice<AnyMove>> {
        let positions = self.positions();
        let (position, history) = positions.split_last()?;
        let choice = level.choose_move_scored(engines.get::<P>(), position, history, seed, stop)?;
        Some(Choice { mv: Self::erase(&choice.mv), score: choice.score })
    }
    fn judge(&self, engines: &mut Engines, side: Color, limits: &Limits) -> Score {
        let positions = self.positions();
        let (position, history) = positions.split_last().unwrap_or((&positions[0], &[]));
        checkers_engine::judge(engines.get::<P>(), position, history, side, limits)
    }
    fn draw_answer(&self, score: Score) -> DrawAnswer {
        DrawAnswer::from_score(score, &self.position(), self.plies())
    }
    fn review(&self, engines: &mut Engines, limits: &Limits) -> Vec<MoveReview<AnyMove>> {
        let start = P::start(&self.game);
        let reviews = review_game(engines.get::<P>(), &start, self.played_moves(), limits, &mut |_| {});
        reviews.into_iter().map(Self::erase_review).collect()
    }
    fn lines(&self, engines: &mut Engines, limits: &Limits, count: usize) -> Vec<SearchInfo<AnyMove>> {
        let positions = self.positions();
        let Some((position, history)) = positions.split_last() else { return Vec::new() };
        engines::best_lines(engines.get::<P>(), position, history, limits, count)
            .into_iter()
            .map(|info| SearchInfo {
                line: info.line,
                depth: info.depth,
                seldepth: info.seldepth,
                score: info.score,
                nodes: info.nodes,
                elapsed: info.elapsed,
                pv: info.pv.iter().map(Self::erase).collect(),
            })
            .collect()
    }
}

/// A game of any variant: where it started, its moves, and how it ended.
pub struct AnyGame(Box<dyn Played>);

impl Clone for AnyGame {
    fn clone(&self) -> AnyGame {
        AnyGame(self.0.clone_box())
    }
}

impl fmt::Debug for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl From<Position> for AnyGame {
    /// A game from `start`.
    fn from(start: Position) -> AnyGame {
        AnyGame::of(start)
    }
}

impl<V: BoardEngine> From<Board<V>> for AnyGame {
    /// A game from `start`.
    fn from(start: Board<V>) -> AnyGame {
        AnyGame::of(start)
    }
}

impl AnyGame {
    /// A game from `start`, in its variant.
    pub fn of<P: VariantRules>(start: P) -> AnyGame {
        AnyGame(Box::new(Typed::<P> { game: P::new_game(start) }))
    }

    /// A game of `variant` from its start position.
    pub fn new(variant: GameVariant) -> AnyGame {
        match variant {
            GameVariant::Eight(variant) => AnyGame::of(Position::start(variant)),
            GameVariant::Board(variant) => {
                with_board_variant!(variant, V => AnyGame::of(Board::<V>::start()))
            }
        }
    }

    /// A game of `variant` from the position `fen` gives, or why it gives none.
    pub fn from_fen(variant: GameVariant, fen: &str) -> Result<AnyGame, String> {
        match variant {
            GameVariant::Eight(variant) => {
                Position::from_fen(variant, fen).map(AnyGame::of).map_err(|e| e.to_string())
            }
            GameVariant::Board(variant) => with_board_variant!(variant, V => {
                let fen = if checkers_rules::names_allowed::<<V as checkers_rules::board::RuleSet>::Geometry>() {
                    checkers_rules::names_to_numbers::<<V as checkers_rules::board::RuleSet>::Geometry>(fen)
                } else {
                    fen.to_string()
                };
                Board::<V>::from_fen(&fen).map(AnyGame::of).map_err(|e| e.to_string())
            }),
        }
    }

    pub fn variant(&self) -> GameVariant {
        self.0.variant()
    }

    /// The side that moves first in the variant.
    pub fn first_mover(&self) -> Color {
        self.0.first_mover()
    }

    /// The number of moves played.
    pub fn plies(&self) -> usize {
        self.0.plies()
    }

    pub fn start_fen(&self) -> String {
        self.fen_at(0).unwrap_or_default()
    }

    /// The position now, as FEN.
    pub fn fen(&self) -> String {
        self.fen_at(self.plies()).unwrap_or_default()
    }

    /// The position before move `ply` (0: the start; the number of moves: now), as FEN.
    pub fn fen_at(&self, ply: usize) -> Option<String> {
        self.0.fen_at(ply)
    }

    /// The side to move now.
    pub fn turn(&self) -> Color {
        self.turn_at(self.plies()).unwrap_or(Color::White)
    }

    /// The side to move before move `ply`.
    pub fn turn_at(&self, ply: usize) -> Option<Color> {
        self.0.turn_at(ply)
    }

    pub fn outcome(&self) -> Option<End> {
        self.0.outcome()
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    /// The game's result as the protocol and the database write it, from the side that moves
    /// first in the variant: `1-0` it won, `0-1` it lost, `1/2-1/2`, `*` while the game goes on.
    pub fn result_text(&self) -> &'static str {
        let result = match self.outcome() {
            None => PdnResult::Unknown,
            Some(end) => end.winner.map_or(PdnResult::Draw, PdnResult::Win),
        };
        result.to_pdn_first(self.first_mover(), ResultStyle::Default)
    }

    /// The legal moves of the side to move (a finished game's position may still have some).
    pub fn legal(&self) -> Vec<MoveInfo> {
        self.0.legal()
    }

    /// A move legal before move `ply`, as the page shows it.
    pub fn describe(&self, ply: usize, mv: &AnyMove) -> Option<MoveInfo> {
        self.0.describe(ply, mv)
    }

    /// The last move played, as the page shows it.
    pub fn last_move(&self) -> Option<MoveInfo> {
        let ply = self.plies().checked_sub(1)?;
        self.describe(ply, self.moves().last()?)
    }

    /// The position after `mv`, legal now, as FEN.
    pub fn fen_after(&self, mv: &AnyMove) -> Option<String> {
        self.0.fen_after(mv)
    }

    /// Moves played one after another from the position before move `ply`, written as the
    /// variant's players write them, separated by spaces (stops at one that is not legal).
    pub fn line_text(&self, ply: usize, line: &[AnyMove]) -> String {
        self.0.line_text(ply, line)
    }

    /// The legal move that move text names now, or why it names none.
    pub fn read_move(&self, text: &str) -> Result<AnyMove, String> {
        self.0.read_at(self.plies(), text)
    }

    /// The legal move that move text names before move `ply`.
    pub fn read_move_at(&self, ply: usize, text: &str) -> Result<AnyMove, String> {
        self.0.read_at(ply, text)
    }

    /// The moves of a line written as [`AnyGame::line_text`] writes them, played one after
    /// another from the position before move `ply`; `None` if one is not legal where it falls.
    pub fn read_line(&self, ply: usize, text: &str) -> Option<Vec<AnyMove>> {
        self.0.read_line(ply, text)
    }

    /// The legal move from `from` to `to` now (taking `captured`, if given), or why there is
    /// none.
    pub fn find_move(&self, from: u32, to: u32, captured: Option<&[u32]>) -> Result<AnyMove, String> {
        self.0.find(from, to, captured)
    }

    /// The legal move whose Hub form is `hub`, now.
    pub fn legal_move(&self, hub: &str) -> Option<AnyMove> {
        self.describe(self.plies(), &AnyMove(hub.to_string())).map(|info| info.mv)
    }

    /// Plays a legal move, or says why it cannot.
    pub fn play(&mut self, mv: &AnyMove) -> Result<(), String> {
        self.0.play(mv)
    }

    /// Reads move text and plays it.
    pub fn play_text(&mut self, text: &str) -> Result<AnyMove, String> {
        let mv = self.read_move(text)?;
        self.play(&mv)?;
        Ok(mv)
    }

    /// Declares a result; false if the game is already over.
    pub fn declare(&mut self, declared: Declared) -> bool {
        self.0.declare(declared)
    }

    /// Keeps only the first `plies` moves (the game's end is decided again).
    pub fn truncate(&mut self, plies: usize) {
        self.0.truncate(plies)
    }

    /// The game with only its first `plies` moves.
    pub fn truncated(&self, plies: usize) -> AnyGame {
        let mut game = self.clone();
        game.truncate(plies);
        game
    }

    /// Every move played, in order.
    pub fn moves(&self) -> Vec<AnyMove> {
        self.0.moves()
    }

    /// Every move played, in order, written as the variant's players write them.
    pub fn move_texts(&self) -> Vec<String> {
        self.moves()
            .iter()
            .enumerate()
            .filter_map(|(ply, mv)| self.describe(ply, mv))
            .map(|info| info.text)
            .collect()
    }

    /// The PDN record of the game (start, moves, result; no tags).
    pub fn record(&self) -> GameRecord {
        self.0.record()
    }

    /// Whether `level` answers the position before move `ply` from its opening book.
    pub fn opens_from_book(&self, ply: usize, level: Level) -> bool {
        self.0.opens_from_book(ply, level)
    }

    /// The move `level` plays now, with its own score of it (`None` with no move).
    pub fn choose_move(
        &self,
        engines: &mut Engines,
        level: Level,
        seed: u64,
        stop: &StopHandle,
    ) -> Option<Choice<AnyMove>> {
        self.0.choose(engines, level, seed, stop)
    }

    /// The position's score now for `side`, from a search under `limits`.
    pub fn judge(&self, engines: &mut Engines, side: Color, limits: &Limits) -> Score {
        self.0.judge(engines, side, limits)
    }

    /// The computer's answer to a draw offer now, from its `score` of the position.
    pub fn draw_answer(&self, score: Score) -> DrawAnswer {
        self.0.draw_answer(score)
    }

    /// Every move judged by the engine under `limits` a position.
    pub fn review(&self, engines: &mut Engines, limits: &Limits) -> Vec<MoveReview<AnyMove>> {
        self.0.review(engines, limits)
    }

    /// The engine's `count` best lines now (see [`engines::best_lines`]).
    pub fn lines(&self, engines: &mut Engines, limits: &Limits, count: usize) -> Vec<SearchInfo<AnyMove>> {
        self.0.lines(engines, limits, count)
    }
}
