//! The Hub protocol (version 2, as Fabien Letouzey's Scan describes it) for the 8x8 variants:
//! the engine's side of the conversation, as a state machine from one input line to the
//! output lines and the one thing the caller must do next (start or stop a search, build the
//! engine, quit). It does no I/O and starts no thread: the `checkers hub` command drives it
//! from standard input, and tests drive it line by line.
//!
//! Positions are `W`/`B` (side to move) followed by one letter per square 1-32 (`w`, `b`
//! men, `W`, `B` kings, `e` empty); PDN FEN is accepted too. Moves are `from-to`, captures
//! `from x to x captured...` (captured squares in any order on input, ascending on output).
//!
//! Two numberings are understood (parameter `numbering`):
//! - `standard`: every square in the numbering of RULES.md.
//! - `pydraughts`: what pydraughts' `HubEngine` (the client lidraughts bots run on) sends. Its
//!   positions come from its internal board (`li_fen_to_hub_fen`), where White always moves
//!   first and owns the high numbers, while its moves are in the variant's own numbering. In
//!   English checkers the position is therefore turned half a turn with the colours swapped
//!   (letter `i` is square `33 - i`, `w` is a Black piece, `W` to move means Black to move)
//!   and the moves are standard. In Russian draughts the position is standard and the moves
//!   count from a1: square `n` is on rank `(n - 1) / 4 + 1`, the `(n - 1) % 4`-th dark square
//!   of that rank (1 = a1, 4 = g1, 5 = b2, 32 = h8).

use std::time::Duration;

use checkers_rules::{Color, Move, Position, Setup, Square, SquareSet, Variant};
use thiserror::Error;

use crate::engine::{Engine, EngineOptions, SearchInfo, SearchResult};
use crate::limits::{Clock, Limits, StopHandle};
use crate::score::Score;

/// How the engine introduces itself in answer to `hub`.
const ENGINE_NAME: &str = "checkers";
const ENGINE_AUTHOR: &str = "the checkers project";
/// Largest transposition table a `hash` parameter may ask for, in MB.
const MAX_HASH_MB: usize = 4096;
const MAX_THREADS: usize = 64;
/// What a search is allowed when no `level` was given: one second.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// How squares are numbered on the wire (see the module documentation).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Numbering {
    /// RULES.md numbering for positions and moves.
    #[default]
    Standard,
    /// pydraughts' `HubEngine`: its internal board for positions, the variant's numbering
    /// for moves.
    Pydraughts,
}

impl Numbering {
    pub fn name(self) -> &'static str {
        match self {
            Numbering::Standard => "standard",
            Numbering::Pydraughts => "pydraughts",
        }
    }

    fn parse(text: &str) -> Option<Numbering> {
        match text {
            "standard" => Some(Numbering::Standard),
            "pydraughts" => Some(Numbering::Pydraughts),
            _ => None,
        }
    }

    /// The standard square of a square number as this numbering writes it in moves.
    fn move_square(self, variant: Variant, number: u32) -> Option<Square> {
        match (self, variant) {
            (Numbering::Pydraughts, Variant::Russian) => {
                (1..=32).contains(&number).then(|| flip_ranks(number)).and_then(Square::from_number)
            }
            _ => Square::from_number(number),
        }
    }

    /// The number this numbering writes in moves for a standard square.
    fn move_number(self, variant: Variant, square: Square) -> u32 {
        match (self, variant) {
            (Numbering::Pydraughts, Variant::Russian) => flip_ranks(square.number()),
            _ => square.number(),
        }
    }

    /// Whether positions come turned half a turn with the colours swapped.
    fn position_rotated(self, variant: Variant) -> bool {
        self == Numbering::Pydraughts && variant == Variant::English
    }
}

/// Numbers the squares rank by rank from the other end of the board: 1-4 (rank 8) become
/// 29-32 and so on, each rank keeping its left-to-right order. It is its own inverse.
fn flip_ranks(number: u32) -> u32 {
    let (row, column) = ((number - 1) / 4, (number - 1) % 4);
    (7 - row) * 4 + column + 1
}

/// Why a line was refused. Each becomes an `error message="..."` answer.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HubError {
    #[error("unknown command `{0}`")]
    UnknownCommand(String),
    #[error("unterminated quote in `{0}`")]
    UnterminatedQuote(String),
    #[error("`{command}` needs `{argument}=...`")]
    MissingArgument { command: String, argument: &'static str },
    #[error("bad value `{value}` for `{argument}`: expected {expected}")]
    BadValue { argument: String, value: String, expected: &'static str },
    #[error("unknown parameter `{0}` (known: variant, numbering, hash, threads, book)")]
    UnknownParameter(String),
    #[error("bad position `{text}`: {reason}")]
    BadPosition { text: String, reason: String },
    #[error("bad move {index} `{text}` in moves: {reason}")]
    BadMove { index: usize, text: String, reason: String },
    #[error("no position to search: send `pos pos=...` first")]
    NoPosition,
    #[error("`level` needs one of depth, nodes, move-time, time or infinite")]
    EmptyLevel,
    #[error("`{0}` cannot be used during a search (only ping, stop, ponder-hit and quit)")]
    Busy(String),
    #[error("`go` needs think, ponder or analyze, found `{0}`")]
    BadGoMode(String),
    #[error("no legal move: the side to move has lost")]
    NoLegalMove,
    #[error("the line is not UTF-8 text")]
    NotText,
    #[error("the line is longer than {0} bytes")]
    TooLong(usize),
}

/// The longest input line a Hub engine reads, in bytes: a `pos` line with the moves of a very
/// long game takes a few kilobytes; a line past this is refused instead of filling memory.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// One protocol line: `command arg=value arg="quoted value" flag ...`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HubLine {
    pub command: String,
    /// Arguments in order; a flag has no value.
    pub args: Vec<(String, Option<String>)>,
}

impl HubLine {
    /// Reads a line; `Ok(None)` for a blank one.
    pub fn parse(line: &str) -> Result<Option<HubLine>, HubError> {
        let mut rest = line.trim();
        if rest.is_empty() {
            return Ok(None);
        }
        let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let command = rest[..end].to_string();
        rest = rest[end..].trim_start();
        let mut args = Vec::new();
        while !rest.is_empty() {
            let end = rest.find(|c: char| c.is_whitespace() || c == '=').unwrap_or(rest.len());
            let key = rest[..end].to_string();
            rest = &rest[end..];
            if let Some(after) = rest.strip_prefix('=') {
                let (value, remaining) = if let Some(quoted) = after.strip_prefix('"') {
                    let close = quoted
                        .find('"')
                        .ok_or_else(|| HubError::UnterminatedQuote(line.trim().to_string()))?;
                    (&quoted[..close], &quoted[close + 1..])
                } else {
                    let end = after.find(char::is_whitespace).unwrap_or(after.len());
                    (&after[..end], &after[end..])
                };
                args.push((key, Some(value.to_string())));
                rest = remaining.trim_start();
            } else {
                args.push((key, None));
                rest = rest.trim_start();
            }
        }
        Ok(Some(HubLine { command, args }))
    }

    /// The value of an argument (the first if repeated); a flag reads as `""`.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.args.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_deref().unwrap_or(""))
    }

    /// Whether the argument (a flag or a key with a value) is present.
    pub fn has(&self, key: &str) -> bool {
        self.args.iter().any(|(k, _)| k == key)
    }

    fn require(&self, key: &'static str) -> Result<&str, HubError> {
        self.get(key)
            .ok_or_else(|| HubError::MissingArgument { command: self.command.clone(), argument: key })
    }
}

/// Quotes a value when the protocol needs it (spaces, `=`, quotes, or empty). Control
/// characters become spaces, so that an answer echoing hostile input is still one line.
pub fn quote(value: &str) -> String {
    let needs_quotes = value.is_empty()
        || value.contains(|c: char| c.is_whitespace() || c.is_control() || c == '=' || c == '"');
    let value: String = value
        .chars()
        .map(|c| match c {
            '"' => '\'',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect();
    if needs_quotes {
        format!("\"{value}\"")
    } else {
        value
    }
}

/// An `error` answer.
pub fn error_line(error: &HubError) -> String {
    format!("error message={}", quote(&error.to_string()))
}

/// Reads a Hub position (`W` + 32 letters), or PDN FEN, for `variant`.
pub fn position_from_hub(text: &str, variant: Variant, numbering: Numbering) -> Result<Position, HubError> {
    let bad = |reason: String| HubError::BadPosition { text: text.to_string(), reason };
    if text.contains(':') {
        return Position::from_fen(variant, text).map_err(|e| bad(e.to_string()));
    }
    let chars: Vec<char> = text.trim().chars().collect();
    if chars.len() != 33 {
        return Err(bad(format!(
            "expected 33 letters (W or B, then one of w b W B e for each of squares 1-32), found {}",
            chars.len()
        )));
    }
    let rotated = numbering.position_rotated(variant);
    let color = |c: Color| if rotated { c.opponent() } else { c };
    let turn = match chars[0] {
        'W' => color(Color::White),
        'B' => color(Color::Black),
        other => return Err(bad(format!("side to move must be W or B, found `{other}`"))),
    };
    let mut setup = Setup { turn: Some(turn), ..Setup::default() };
    for (i, &letter) in chars[1..].iter().enumerate() {
        let index = i as u32 + 1;
        let square = Square::from_number(if rotated { 33 - index } else { index })
            .ok_or_else(|| bad(format!("no square {index}")))?;
        let list = match letter {
            'e' | 'E' | '.' => continue,
            'w' => match color(Color::White) {
                Color::White => &mut setup.white_men,
                Color::Black => &mut setup.black_men,
            },
            'W' => match color(Color::White) {
                Color::White => &mut setup.white_kings,
                Color::Black => &mut setup.black_kings,
            },
            'b' => match color(Color::Black) {
                Color::White => &mut setup.white_men,
                Color::Black => &mut setup.black_men,
            },
            'B' => match color(Color::Black) {
                Color::White => &mut setup.white_kings,
                Color::Black => &mut setup.black_kings,
            },
            other => {
                return Err(bad(format!("square letter {index} must be one of w b W B e, found `{other}`")))
            }
        };
        list.push(square);
    }
    Position::from_setup(variant, &setup).map_err(|e| bad(e.to_string()))
}

/// Writes a position as a Hub position (`W` + 32 letters) in `numbering`.
pub fn position_to_hub(position: &Position, numbering: Numbering) -> String {
    let rotated = numbering.position_rotated(position.variant());
    let color = |c: Color| if rotated { c.opponent() } else { c };
    let mut out = String::with_capacity(33);
    out.push(color(position.turn()).letter());
    for index in 1..=32u32 {
        let Some(square) = Square::from_number(if rotated { 33 - index } else { index }) else {
            continue;
        };
        out.push(match position.piece_at(square) {
            None => 'e',
            Some(piece) => {
                let letter = if color(piece.color) == Color::White { 'w' } else { 'b' };
                if position.kings().contains(square) {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                }
            }
        });
    }
    out
}

/// Finds the legal move that Hub move text names in `position`.
pub fn move_from_hub(position: &Position, text: &str, numbering: Numbering) -> Result<Move, String> {
    let variant = position.variant();
    let text = text.trim();
    let capture = text.contains(['x', 'X', ':']);
    let parts: Vec<&str> = text.split(['-', 'x', 'X', ':']).collect();
    if parts.len() < 2 || (!capture && parts.len() != 2) {
        return Err("expected from-to or fromxtoxcaptured...".to_string());
    }
    let mut squares = Vec::with_capacity(parts.len());
    for part in &parts {
        let square = part
            .trim()
            .parse::<u32>()
            .ok()
            .and_then(|n| numbering.move_square(variant, n))
            .ok_or_else(|| format!("`{part}` is not a square 1-32"))?;
        squares.push(square);
    }
    let (from, to) = (squares[0], squares[1]);
    let captured: Option<&[Square]> = match (capture, squares.len()) {
        (false, _) => Some(&[]),
        // `fromxto` alone: accepted when it names one capture.
        (true, 2) => None,
        (true, _) => Some(&squares[2..]),
    };
    if let Some(list) = captured {
        let set: SquareSet = list.iter().copied().collect();
        if set.len() as usize != list.len() {
            return Err("a captured square is named twice".to_string());
        }
    }
    match position.find_move(from, to, captured) {
        Some(mv) if mv.is_capture() == capture => Ok(mv),
        Some(_) => Err("a capture is written with x, a quiet move with -".to_string()),
        None => Err(position.explain_illegal(from, to)),
    }
}

/// Writes a move as Hub text in `numbering` (captured squares ascending).
pub fn move_to_hub(mv: &Move, variant: Variant, numbering: Numbering) -> String {
    let number = |s: Square| numbering.move_number(variant, s);
    if !mv.is_capture() {
        return format!("{}-{}", number(mv.from()), number(mv.to()));
    }
    let mut captured: Vec<u32> = mv.captured().into_iter().map(number).collect();
    captured.sort_unstable();
    let mut out = format!("{}x{}", number(mv.from()), number(mv.to()));
    for n in captured {
        out.push_str(&format!("x{n}"));
    }
    out
}

/// A score as Hub writes it: men as a real number; a forced result as 100 less the plies to
/// the end in hundredths (`99.93`: a win in 7 plies), as Scan's 99.xx and as pydraughts reads.
pub fn score_to_hub(score: Score) -> String {
    match score.plies_to_end() {
        Some(plies) => {
            let value = 100.0 - f64::from(plies.min(9_999)) / 100.0;
            if score.is_win() {
                format!("{value:.2}")
            } else {
                format!("-{value:.2}")
            }
        }
        None => format!("{:.2}", f64::from(score.value()) / 100.0),
    }
}

/// The kind of search `go` asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GoMode {
    Think,
    /// Searches until `ponder-hit` or `stop` (the expected move is already in the position).
    Ponder,
    Analyze,
}

/// A search the caller must run: what [`Hub::handle`] returns for `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchJob {
    pub position: Position,
    /// The game's earlier positions, oldest first, for repetitions.
    pub history: Vec<Position>,
    pub limits: Limits,
    pub mode: GoMode,
    pub numbering: Numbering,
}

impl SearchJob {
    /// The limits the search runs under: a ponder search runs until stopped.
    pub fn effective_limits(&self) -> Limits {
        match self.mode {
            GoMode::Ponder => Limits { infinite: true, ..self.limits },
            _ => self.limits,
        }
    }

    /// The same search as a normal `go think` (what a `ponder-hit` turns a ponder search into).
    pub fn thinking(&self) -> SearchJob {
        SearchJob { mode: GoMode::Think, ..self.clone() }
    }

    /// Runs the search, handing each `info` line to `emit`, and returns its result (the
    /// caller sends [`SearchJob::done_line`] when the search is to be answered).
    pub fn run(&self, engine: &mut Engine, stop: &StopHandle, emit: &mut dyn FnMut(String)) -> SearchResult {
        let limits = self.effective_limits();
        let result = engine
            .search(&self.position, &self.history, &limits, stop, &mut |info| emit(self.info_line(info)));
        if result.depth == 0 && result.best_move.is_some() {
            // Played without an iteration (a forced move): still say what it is worth.
            emit(self.info_line(&SearchInfo {
                line: 1,
                depth: 0,
                seldepth: 0,
                score: result.score,
                nodes: result.nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
            }));
        }
        result
    }

    /// An `info` line: depth, seldepth, score (men), nodes, time (s), nps (millions, as Scan
    /// writes it) and the principal variation.
    pub fn info_line(&self, info: &SearchInfo) -> String {
        format!(
            "info depth={} seldepth={} score={} nodes={} time={:.3} nps={:.2} pv={}",
            info.depth,
            info.seldepth,
            score_to_hub(info.score),
            info.nodes,
            info.elapsed.as_secs_f64(),
            info.nps() as f64 / 1e6,
            quote(&self.line_text(&info.pv))
        )
    }

    /// The `done` line: the move and, when the line goes on, the expected answer.
    pub fn done_line(&self, result: &SearchResult) -> String {
        let variant = self.position.variant();
        let Some(best) = result.best_move.filter(|m| self.position.is_legal(m)) else {
            return "done move=0-0".to_string();
        };
        let mut line = format!("done move={}", move_to_hub(&best, variant, self.numbering));
        let after = self.position.play_unchecked(&best);
        if let Some(reply) = result.pv.get(1).filter(|m| result.pv[0] == best && after.is_legal(m)) {
            line.push_str(&format!(" ponder={}", move_to_hub(reply, variant, self.numbering)));
        }
        line
    }

    fn line_text(&self, line: &[Move]) -> String {
        let variant = self.position.variant();
        let mut current = self.position;
        let mut words = Vec::with_capacity(line.len());
        for mv in line {
            if !current.is_legal(mv) {
                break;
            }
            words.push(move_to_hub(mv, variant, self.numbering));
            current = current.play_unchecked(mv);
        }
        words.join(" ")
    }
}

/// What the caller must do after a line, besides sending the answer lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// Build (or rebuild) the engine with these options.
    Init(EngineOptions),
    /// Forget what the engine learned (a new, unrelated game).
    NewGame,
    /// Start this search; call [`Hub::search_finished`] when it has ended and been answered.
    Search(SearchJob),
    /// Stop the running search; it must still be answered with `done`.
    Stop,
    /// The expected move was played: stop pondering and search the same position normally
    /// (answering only that search).
    PonderHit,
    Quit,
}

/// The answer to one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    pub lines: Vec<String>,
    pub action: Action,
}

impl Reply {
    fn lines(lines: Vec<String>) -> Reply {
        Reply { lines, action: Action::None }
    }
    fn action(action: Action) -> Reply {
        Reply { lines: Vec::new(), action }
    }
    fn error(error: HubError) -> Reply {
        Reply::lines(vec![error_line(&error)])
    }
}

/// The engine's protocol state: parameters, the position and limits of the next search, and
/// whether a search is running.
#[derive(Clone, Debug)]
pub struct Hub {
    variant: Variant,
    numbering: Numbering,
    options: EngineOptions,
    initialized: bool,
    /// Whether `go think` in a position of the opening book answers at once with the book's
    /// best move (parameter `book`, off unless set, so that matches measure the search).
    book: bool,
    /// The position to search and the positions before it.
    position: Option<(Position, Vec<Position>)>,
    limits: Limits,
    searching: bool,
}

impl Default for Hub {
    fn default() -> Hub {
        Hub::new()
    }
}

impl Hub {
    pub fn new() -> Hub {
        Hub {
            variant: Variant::English,
            numbering: Numbering::Standard,
            options: EngineOptions::default(),
            initialized: false,
            book: false,
            position: None,
            limits: Limits::movetime(DEFAULT_MOVE_TIME),
            searching: false,
        }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }
    pub fn numbering(&self) -> Numbering {
        self.numbering
    }
    /// The options the engine should be built with.
    pub fn engine_options(&self) -> EngineOptions {
        self.options
    }
    pub fn is_searching(&self) -> bool {
        self.searching
    }
    /// The caller has answered the running search (or dropped it).
    pub fn search_finished(&mut self) {
        self.searching = false;
    }

    /// Handles one input line.
    pub fn handle(&mut self, line: &str) -> Reply {
        let parsed = match HubLine::parse(line) {
            Ok(Some(parsed)) => parsed,
            Ok(None) => return Reply::lines(Vec::new()),
            Err(e) => return Reply::error(e),
        };
        if self.searching {
            return match parsed.command.as_str() {
                "ping" => Reply::lines(vec!["pong".to_string()]),
                "stop" => Reply::action(Action::Stop),
                "ponder-hit" => Reply::action(Action::PonderHit),
                "quit" => Reply::action(Action::Quit),
                other => Reply::error(HubError::Busy(other.to_string())),
            };
        }
        let result = match parsed.command.as_str() {
            "hub" => Ok(Reply::lines(self.introduction())),
            "set-param" => self.set_param(&parsed),
            "init" => {
                self.initialized = true;
                Ok(Reply { lines: vec!["ready".to_string()], action: Action::Init(self.options) })
            }
            "new-game" => Ok(Reply::action(Action::NewGame)),
            "pos" => self.set_position(&parsed).map(|()| Reply::lines(Vec::new())),
            "level" => self.set_level(&parsed).map(|()| Reply::lines(Vec::new())),
            "go" => self.go(&parsed),
            "ping" => Ok(Reply::lines(vec!["pong".to_string()])),
            // Nothing is running: nothing to stop or to hit.
            "stop" | "ponder-hit" => Ok(Reply::lines(Vec::new())),
            "quit" => Ok(Reply::action(Action::Quit)),
            other => Err(HubError::UnknownCommand(other.to_string())),
        };
        result.unwrap_or_else(Reply::error)
    }

    fn introduction(&self) -> Vec<String> {
        vec![
            format!(
                "id name={ENGINE_NAME} version={} author={} country=none",
                env!("CARGO_PKG_VERSION"),
                quote(ENGINE_AUTHOR)
            ),
            format!("param name=variant value={} type=enum values=\"english russian\"", self.variant.name()),
            format!(
                "param name=numbering value={} type=enum values=\"standard pydraughts\"",
                self.numbering.name()
            ),
            format!("param name=hash value={} type=int min=1 max={MAX_HASH_MB}", self.options.hash_mb),
            format!("param name=threads value={} type=int min=1 max={MAX_THREADS}", self.options.threads),
            format!("param name=book value={} type=bool", self.book),
            "wait".to_string(),
        ]
    }

    fn set_param(&mut self, line: &HubLine) -> Result<Reply, HubError> {
        let name = line.require("name")?;
        let value = line.require("value")?;
        let bad =
            |expected| HubError::BadValue { argument: name.to_string(), value: value.to_string(), expected };
        match name {
            "variant" => {
                let variant = match value.to_ascii_lowercase().as_str() {
                    "english" | "american" => Variant::English,
                    "russian" => Variant::Russian,
                    _ => return Err(bad("english or russian")),
                };
                if variant != self.variant {
                    // A position belongs to its variant.
                    self.position = None;
                }
                self.variant = variant;
            }
            "numbering" => {
                self.numbering = Numbering::parse(value).ok_or_else(|| bad("standard or pydraughts"))?
            }
            "book" => {
                self.book = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(bad("true or false")),
                }
            }
            "hash" | "threads" => {
                let (max, slot) = match name {
                    "hash" => (MAX_HASH_MB, &mut self.options.hash_mb),
                    _ => (MAX_THREADS, &mut self.options.threads),
                };
                let n = value.parse::<usize>().ok().filter(|n| (1..=max).contains(n));
                *slot = n.ok_or_else(|| bad(if name == "hash" { "MB from 1 to 4096" } else { "1 to 64" }))?;
                if self.initialized {
                    return Ok(Reply::action(Action::Init(self.options)));
                }
            }
            other => return Err(HubError::UnknownParameter(other.to_string())),
        }
        Ok(Reply::lines(Vec::new()))
    }

    fn set_position(&mut self, line: &HubLine) -> Result<(), HubError> {
        // A refused position is dropped, so that a following `go` is refused too rather than
        // answered for a position the GUI did not mean.
        self.position = None;
        let text = line.require("pos")?;
        let start = position_from_hub(text, self.variant, self.numbering)?;
        let mut history = Vec::new();
        let mut current = start;
        for (i, word) in line.get("moves").unwrap_or("").split_whitespace().enumerate() {
            let mv = move_from_hub(&current, word, self.numbering).map_err(|reason| HubError::BadMove {
                index: i + 1,
                text: word.to_string(),
                reason,
            })?;
            history.push(current);
            current = current.play_unchecked(&mv);
        }
        self.position = Some((current, history));
        Ok(())
    }

    fn set_level(&mut self, line: &HubLine) -> Result<(), HubError> {
        fn number<T: std::str::FromStr>(
            line: &HubLine,
            key: &str,
            ok: impl Fn(&T) -> bool,
            expected: &'static str,
        ) -> Result<Option<T>, HubError> {
            match line.get(key) {
                None => Ok(None),
                Some(text) => match text.parse::<T>() {
                    Ok(v) if ok(&v) => Ok(Some(v)),
                    _ => Err(HubError::BadValue {
                        argument: key.to_string(),
                        value: text.to_string(),
                        expected,
                    }),
                },
            }
        }
        let seconds = |v: &f64| v.is_finite() && *v >= 0.0 && *v < 1e7;
        let depth = number::<u32>(line, "depth", |d| (1..=100).contains(d), "a depth from 1 to 100")?;
        let nodes = number::<u64>(line, "nodes", |n| *n >= 1, "a node count of at least 1")?;
        let move_time = number::<f64>(line, "move-time", |t| seconds(t) && *t > 0.0, "seconds above 0")?;
        let time = number::<f64>(line, "time", seconds, "seconds, 0 or more")?;
        let inc = number::<f64>(line, "inc", seconds, "seconds, 0 or more")?;
        let moves = number::<u32>(line, "moves", |m| *m >= 1, "a move count of at least 1")?;
        let infinite = line.has("infinite");
        if depth.is_none() && nodes.is_none() && move_time.is_none() && time.is_none() && !infinite {
            return Err(HubError::EmptyLevel);
        }
        let clock = time.map(|time| {
            let increment = Duration::from_secs_f64(inc.unwrap_or(0.0));
            // Hub adds the increment before the move: it is on the clock already.
            Clock { remaining: Duration::from_secs_f64(time) + increment, increment, moves_to_go: moves }
        });
        self.limits =
            Limits { depth, nodes, movetime: move_time.map(Duration::from_secs_f64), clock, infinite };
        Ok(())
    }

    fn go(&mut self, line: &HubLine) -> Result<Reply, HubError> {
        let mode = match line.args.first().map(|(k, _)| k.as_str()) {
            None | Some("think") => GoMode::Think,
            Some("ponder") => GoMode::Ponder,
            Some("analyze") | Some("analyse") => GoMode::Analyze,
            Some(other) => return Err(HubError::BadGoMode(other.to_string())),
        };
        let (position, history) = self.position.clone().ok_or(HubError::NoPosition)?;
        if !position.has_legal_move() {
            // The protocol promises no such search; answer with pydraughts' null move so a
            // waiting client is not left hanging.
            return Ok(Reply::lines(vec![error_line(&HubError::NoLegalMove), "done move=0-0".to_string()]));
        }
        if self.book && mode == GoMode::Think {
            if let Some([entry, ..]) = crate::book::book(position.variant()).playable(&position) {
                let mv = move_to_hub(&entry.mv, position.variant(), self.numbering);
                return Ok(Reply::lines(vec![
                    format!("info depth=0 score={} pv={}", score_to_hub(entry.score), quote(&mv)),
                    format!("done move={mv}"),
                ]));
            }
        }
        let reply = Reply::action(Action::Search(SearchJob {
            position,
            history,
            limits: self.limits,
            mode,
            numbering: self.numbering,
        }));
        // `go` before `init` is forgiven: the caller builds the engine on `Search` if needed.
        self.initialized = true;
        self.searching = true;
        Ok(reply)
    }
}

/// A Hub session that runs each search to its end before reading on: for scripts and tests.
/// Ponder searches run as normal ones (there is no `ponder-hit` to wait for), and a search
/// under `level infinite` alone would never end, so it is refused.
pub struct SyncSession {
    hub: Hub,
    engine: Option<Engine>,
}

impl Default for SyncSession {
    fn default() -> SyncSession {
        SyncSession::new()
    }
}

impl SyncSession {
    pub fn new() -> SyncSession {
        SyncSession { hub: Hub::new(), engine: None }
    }

    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// Feeds one line; returns every line the engine sends in answer (for `go`, the `info`
    /// lines and the `done` line). `None` after `quit`.
    pub fn feed(&mut self, line: &str) -> Option<Vec<String>> {
        let reply = self.hub.handle(line);
        let mut out = reply.lines;
        match reply.action {
            Action::None | Action::Stop | Action::PonderHit => {}
            Action::Quit => return None,
            Action::Init(options) => self.engine = Some(Engine::new(options)),
            Action::NewGame => {
                if let Some(engine) = &mut self.engine {
                    engine.new_game();
                }
            }
            Action::Search(job) => {
                let job = job.thinking();
                if job.limits.is_unbounded() {
                    out.push(error_line(&HubError::BadValue {
                        argument: "level".to_string(),
                        value: "infinite".to_string(),
                        expected: "a bounded level in a session that cannot be stopped",
                    }));
                } else {
                    let options = self.hub.engine_options();
                    let engine = self.engine.get_or_insert_with(|| Engine::new(options));
                    let result = job.run(engine, &StopHandle::new(), &mut |line| out.push(line));
                    out.push(job.done_line(&result));
                }
                self.hub.search_finished();
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start(variant: Variant) -> Position {
        Position::start(variant)
    }

    #[test]
    fn lines_parse_with_quotes_and_flags() {
        let line = HubLine::parse(r#"pos pos=Wbbe moves="11-15 23-19"  infinite"#).unwrap().unwrap();
        assert_eq!(line.command, "pos");
        assert_eq!(line.get("pos"), Some("Wbbe"));
        assert_eq!(line.get("moves"), Some("11-15 23-19"));
        assert!(line.has("infinite"));
        assert_eq!(line.get("infinite"), Some(""));
        assert_eq!(HubLine::parse("   ").unwrap(), None);
        assert_eq!(
            HubLine::parse(r#"pos moves="11-15"#),
            Err(HubError::UnterminatedQuote(r#"pos moves="11-15"#.into()))
        );
        let empty = HubLine::parse(r#"x a="" b=1"#).unwrap().unwrap();
        assert_eq!(
            empty.args,
            vec![("a".to_string(), Some(String::new())), ("b".to_string(), Some("1".to_string()))]
        );
    }

    #[test]
    fn standard_positions_round_trip() {
        let english = start(Variant::English);
        let text = position_to_hub(&english, Numbering::Standard);
        assert_eq!(text, "Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        assert_eq!(position_from_hub(&text, Variant::English, Numbering::Standard).unwrap(), english);
        let kings = Position::from_fen(Variant::Russian, "W:WK22,29:B4,K7").unwrap();
        let text = position_to_hub(&kings, Numbering::Standard);
        assert_eq!(text, "WeeebeeBeeeeeeeeeeeeeeWeeeeeeweee");
        assert_eq!(text.len(), 33);
        assert_eq!(position_from_hub(&text, Variant::Russian, Numbering::Standard).unwrap(), kings);
        let fen = position_from_hub("B:W21-32:B1-12", Variant::English, Numbering::Standard).unwrap();
        assert_eq!(fen, english);
    }

    #[test]
    fn bad_positions_are_refused_with_reasons() {
        let err =
            |t: &str| position_from_hub(t, Variant::English, Numbering::Standard).unwrap_err().to_string();
        assert!(err("Wbbb").contains("expected 33 letters"), "{}", err("Wbbb"));
        assert!(err(&format!("X{}", "e".repeat(32))).contains("side to move"));
        assert!(err(&format!("W{}z", "e".repeat(31))).contains("square letter 32"));
        assert!(
            err(&format!("Ww{}", "e".repeat(31))).contains("crowning row"),
            "{}",
            err(&format!("Ww{}", "e".repeat(31)))
        );
        assert!(err("W:W99:B1").contains("not a square"));
    }

    /// pydraughts' `Board('english')` sends `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww` for the start
    /// (its internal White moves first and is the real Black) and moves in standard numbers.
    #[test]
    fn pydraughts_english_positions_are_turned_and_recoloured() {
        let p =
            position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", Variant::English, Numbering::Pydraughts)
                .unwrap();
        assert_eq!(p, start(Variant::English));
        // pydraughts after 12-16: its internal square 17 (= 33 - 16) holds the moved man.
        let after =
            position_from_hub("Bbbbbbbbbbbbbeeeeweeeewwwwwwwwwww", Variant::English, Numbering::Pydraughts)
                .unwrap();
        let expected =
            start(Variant::English).play_unchecked(&start(Variant::English).parse_move("12-16").unwrap());
        assert_eq!(after, expected);
        assert_eq!(position_to_hub(&expected, Numbering::Pydraughts), "Bbbbbbbbbbbbbeeeeweeeewwwwwwwwwww");
        let mv = move_from_hub(&start(Variant::English), "12-16", Numbering::Pydraughts).unwrap();
        assert_eq!(move_to_hub(&mv, Variant::English, Numbering::Pydraughts), "12-16");
    }

    /// pydraughts' `Board('russian')`: positions in standard numbering, moves from a1 = 1
    /// (its first legal move `9-13` is a3-b4, standard 21-17).
    #[test]
    fn pydraughts_russian_moves_count_from_a1() {
        let russian = start(Variant::Russian);
        let p =
            position_from_hub("Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww", Variant::Russian, Numbering::Pydraughts)
                .unwrap();
        assert_eq!(p, russian);
        let mv = move_from_hub(&russian, "9-13", Numbering::Pydraughts).unwrap();
        assert_eq!(mv.to_hub(), "21-17");
        assert_eq!(mv.from().algebraic(), "a3");
        assert_eq!(move_to_hub(&mv, Variant::Russian, Numbering::Pydraughts), "9-13");
        let mut all: Vec<String> = russian
            .legal_moves()
            .iter()
            .map(|m| move_to_hub(m, Variant::Russian, Numbering::Pydraughts))
            .collect();
        all.sort();
        assert_eq!(all, ["10-13", "10-14", "11-14", "11-15", "12-15", "12-16", "9-13"]);
        for n in 1..=32 {
            assert_eq!(flip_ranks(flip_ranks(n)), n);
        }
    }

    #[test]
    fn captures_name_their_captured_squares() {
        // A flying king with several captures and landing squares.
        let p = Position::from_fen(Variant::Russian, "W:WK29,14:B18,K11,7").unwrap();
        assert!(p.legal_moves().iter().all(Move::is_capture));
        for mv in p.legal_moves().iter() {
            let hub = move_to_hub(mv, Variant::Russian, Numbering::Standard);
            assert_eq!(move_from_hub(&p, &hub, Numbering::Standard), Ok(*mv));
            assert_eq!(hub, mv.to_hub());
        }
        let e = Position::from_fen(Variant::English, "B:W14,15:B9,10,11").unwrap();
        assert_eq!(move_from_hub(&e, "9x18x14", Numbering::Standard).unwrap().to_hub(), "9x18x14");
        assert_eq!(move_from_hub(&e, "9x18", Numbering::Standard).unwrap().to_hub(), "9x18x14");
        assert!(move_from_hub(&e, "9-18", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "11-16", Numbering::Standard).unwrap_err().contains("capture"));
        assert!(move_from_hub(&e, "9x18x15", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "9x18x14x14", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "x", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "99-1", Numbering::Standard).is_err());
        assert!(move_from_hub(&e, "", Numbering::Standard).is_err());
    }

    #[test]
    fn scores_read_as_pydraughts_reads_them() {
        assert_eq!(score_to_hub(Score::centipawns(35)), "0.35");
        assert_eq!(score_to_hub(Score::centipawns(-120)), "-1.20");
        assert_eq!(score_to_hub(Score::win_in(7)), "99.93");
        assert_eq!(score_to_hub(Score::loss_in(6)), "-99.94");
    }

    fn session(lines: &[&str]) -> Vec<String> {
        let mut s = SyncSession::new();
        let mut out = Vec::new();
        for line in lines {
            match s.feed(line) {
                Some(l) => out.extend(l),
                None => break,
            }
        }
        out
    }

    #[test]
    fn handshake_lists_parameters_then_waits() {
        let out = session(&[
            "hub",
            "set-param name=variant value=russian",
            "set-param name=numbering value=pydraughts",
            "init",
            "ping",
            "quit",
            "ping",
        ]);
        assert_eq!(
            out[0],
            format!(
                "id name=checkers version={} author=\"the checkers project\" country=none",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(out[1], "param name=variant value=english type=enum values=\"english russian\"");
        assert_eq!(out[2], "param name=numbering value=standard type=enum values=\"standard pydraughts\"");
        assert!(out[3].starts_with("param name=hash value=64 type=int"));
        assert!(out[4].starts_with("param name=threads value=1 type=int"));
        assert_eq!(out[5], "param name=book value=false type=bool");
        assert_eq!(&out[6..], ["wait", "ready", "pong"]);
    }

    /// With `book` on, a position of the opening book is answered at once with the book's
    /// best move, in the session's numbering; off (the default), the engine searches.
    #[test]
    fn the_book_answers_at_once_when_asked() {
        for (variant, numbering) in
            [("english", "standard"), ("russian", "standard"), ("russian", "pydraughts")]
        {
            let v: Variant = variant.parse().unwrap();
            let start = Position::start(v);
            let numbering_kind = Numbering::parse(numbering).unwrap();
            let best = crate::book::book(v).lookup(&start).unwrap()[0].mv;
            let expected = format!("done move={}", move_to_hub(&best, v, numbering_kind));
            let pos = format!("pos pos={}", position_to_hub(&start, numbering_kind));
            let variant_line = format!("set-param name=variant value={variant}");
            let numbering_line = format!("set-param name=numbering value={numbering}");
            let script = |book: &'static str| {
                vec![
                    variant_line.clone(),
                    numbering_line.clone(),
                    format!("set-param name=book value={book}"),
                    "set-param name=hash value=4".to_string(),
                    "init".to_string(),
                    pos.clone(),
                    "level depth=3".to_string(),
                    "go think".to_string(),
                ]
            };
            let script_on = script("true");
            let out = session(&script_on.iter().map(String::as_str).collect::<Vec<_>>());
            let after_ready = out.iter().position(|l| l == "ready").unwrap();
            assert_eq!(out[after_ready + 1..].len(), 2, "{out:?}");
            assert!(out[after_ready + 1].starts_with("info depth=0 score="), "{out:?}");
            assert_eq!(out[after_ready + 2], expected);
            let script_off = script("false");
            let out = session(&script_off.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(out.iter().any(|l| l.starts_with("info depth=3 ")), "{out:?}");
        }
        let out = session(&["set-param name=book value=maybe"]);
        assert!(out[0].contains("true or false"), "{out:?}");
    }

    /// A scripted GUI session: a game position with moves, a depth level, the answer; then a
    /// forced capture, answered at once.
    #[test]
    fn scripted_session_searches_the_position_after_the_moves() {
        let out = session(&[
            "hub",
            "set-param name=hash value=4",
            "init",
            "new-game",
            "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"",
            "level depth=6",
            "go think",
        ]);
        let after_ready = out.iter().position(|l| l == "ready").unwrap();
        let (done, infos) = out[after_ready + 1..].split_last().unwrap();
        assert!(infos.iter().all(|l| l.starts_with("info depth=")), "{infos:?}");
        assert!(infos.last().unwrap().starts_with("info depth=6 "), "{infos:?}");
        let mut p = start(Variant::English);
        for m in ["11-15", "23-19"] {
            p = p.play_unchecked(&p.parse_move(m).unwrap());
        }
        let best = done.strip_prefix("done move=").unwrap().split(' ').next().unwrap();
        let mv = move_from_hub(&p, best, Numbering::Standard).unwrap();
        let ponder = done.split(" ponder=").nth(1).unwrap();
        assert!(move_from_hub(&p.play_unchecked(&mv), ponder, Numbering::Standard).is_ok(), "{done}");

        // 15x22 over 18 is the only move: answered without a search, with a depth-0 line.
        let out =
            session(&["init", "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 22-18\"", "go think"]);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[1].starts_with("info depth=0 "), "{out:?}");
        assert!(out[2].starts_with("done move=15x22x18"), "{out:?}");
    }

    #[test]
    fn pydraughts_session_answers_in_its_numbering() {
        let out = session(&[
            "hub",
            "set-param name=variant value=russian",
            "set-param name=numbering value=pydraughts",
            "init",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13\"",
            "level nodes=3000",
            "go think",
        ]);
        let done = out.last().unwrap();
        let best = done.strip_prefix("done move=").unwrap().split(' ').next().unwrap();
        let p = start(Variant::Russian);
        let p = p.play_unchecked(&move_from_hub(&p, "9-13", Numbering::Pydraughts).unwrap());
        let mv = move_from_hub(&p, best, Numbering::Pydraughts).unwrap();
        assert_eq!(mv.from().rank(), 5, "a Black man of rank 6 moves first: {best}");
    }

    #[test]
    fn bad_lines_get_errors_and_change_nothing() {
        let mut hub = Hub::new();
        let errors = [
            "fly",
            "set-param name=variant value=italian",
            "set-param name=colour value=red",
            "set-param name=hash value=0",
            "set-param value=1",
            "pos moves=\"11-15\"",
            "pos pos=Wxyz",
            "level depth=0",
            "level move-time=-1",
            "level time=abc",
            "level",
            "go think",
            "go sideways",
            "pos pos=\"unterminated",
        ];
        for line in errors {
            let reply = hub.handle(line);
            assert_eq!(reply.action, Action::None, "{line}");
            assert_eq!(reply.lines.len(), 1, "{line}");
            assert!(reply.lines[0].starts_with("error message="), "{line}: {:?}", reply.lines);
            assert!(HubLine::parse(&reply.lines[0]).unwrap().unwrap().get("message").is_some());
        }
        assert_eq!(hub.variant(), Variant::English);
        assert_eq!(hub.engine_options(), EngineOptions::default());
        // An illegal move in `moves` drops the position, so `go` is refused.
        assert!(hub.handle("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").lines.is_empty());
        let bad = hub.handle("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 11-15\"");
        assert!(bad.lines[0].contains("bad move 2 `11-15`"), "{:?}", bad.lines);
        assert!(hub.handle("go think").lines[0].contains("no position"));
    }

    #[test]
    fn during_a_search_only_ping_stop_ponder_hit_and_quit_are_taken() {
        let mut hub = Hub::new();
        hub.handle("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww");
        hub.handle("level infinite");
        let reply = hub.handle("go ponder");
        let Action::Search(job) = reply.action else { panic!("{reply:?}") };
        assert_eq!(job.mode, GoMode::Ponder);
        assert!(job.effective_limits().infinite);
        assert!(hub.is_searching());
        assert_eq!(hub.handle("ping").lines, ["pong"]);
        assert_eq!(hub.handle("ponder-hit").action, Action::PonderHit);
        assert!(hub.handle("pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww").lines[0].contains("during a search"));
        assert_eq!(hub.handle("stop").action, Action::Stop);
        hub.search_finished();
        assert_eq!(hub.handle("stop").action, Action::None);
        assert_eq!(hub.handle("quit").action, Action::Quit);
    }

    #[test]
    fn levels_set_the_limits() {
        let mut hub = Hub::new();
        hub.handle("pos pos=B:W21-32:B1-12");
        let job = |hub: &mut Hub, level: &str| {
            assert!(hub.handle(level).lines.is_empty(), "{level}");
            let Action::Search(job) = hub.handle("go think").action else { panic!() };
            hub.search_finished();
            job.limits
        };
        assert_eq!(job(&mut hub, "level depth=9"), Limits::depth(9));
        assert_eq!(job(&mut hub, "level nodes=5000"), Limits::nodes(5000));
        assert_eq!(job(&mut hub, "level move-time=0.25"), Limits::movetime(Duration::from_millis(250)));
        let clock = job(&mut hub, "level moves=10 time=60 inc=2").clock.unwrap();
        assert_eq!(clock.remaining, Duration::from_secs(62));
        assert_eq!(clock.increment, Duration::from_secs(2));
        assert_eq!(clock.moves_to_go, Some(10));
        assert!(job(&mut hub, "level infinite").infinite);
    }

    #[test]
    fn no_legal_move_is_answered_without_searching() {
        let mut hub = Hub::new();
        hub.handle("pos pos=B:W21:B");
        let reply = hub.handle("go think");
        assert_eq!(reply.action, Action::None);
        assert_eq!(reply.lines[1], "done move=0-0");
    }
}
