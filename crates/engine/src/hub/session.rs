//! The Hub session as a state machine: from each input line to the answer lines and the one
//! thing the caller must do next.

use std::borrow::Cow;
use std::time::Duration;

use checkers_rules::{Position, Variant};

use super::error::HubError;
use super::game::{read_game, HubGame};
use super::job::{GoMode, SearchJob};
use super::numbering::{move_to_hub, Numbering};
use super::variant::HubVariant;
use super::wire::{error_line, quote, score_to_hub, HubLine};
use crate::engine::EngineOptions;
use crate::limits::{Clock, Limits, MAX_DEPTH, MAX_HASH_MB, MAX_THREADS};

/// How the engine introduces itself in answer to `hub`.
const ENGINE_NAME: &str = "checkers";
const ENGINE_AUTHOR: &str = "the checkers project";
/// The largest transposition table the `hash` parameter offers a GUI, in MB: a range a GUI's
/// setting shows whole, well within what the engine accepts ([`MAX_HASH_MB`]).
pub const HUB_MAX_HASH_MB: usize = 4096;
/// The most search threads the `threads` parameter offers (the engine accepts
/// [`MAX_THREADS`]).
pub const HUB_MAX_THREADS: usize = 64;
const _: () = assert!(HUB_MAX_HASH_MB <= MAX_HASH_MB && HUB_MAX_THREADS <= MAX_THREADS);
/// The longest time a `level` may give, in seconds (115 days): longer ones are refused
/// rather than overflow the clock's arithmetic.
const MAX_LEVEL_SECONDS: f64 = 1e7;
/// What a search is allowed when no `level` was given: one second.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// What the caller must do after a line, besides sending the answer lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    None,
    /// Build (or rebuild) the engine with these options, for the session's variant
    /// ([`Hub::variant`]).
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
    variant: HubVariant,
    numbering: Numbering,
    options: EngineOptions,
    initialized: bool,
    /// Whether `go think` in a position of the opening book answers at once with the book's
    /// best move (parameter `book`, off unless set, so that matches measure the search).
    book: bool,
    /// The position to search and the positions before it.
    position: Option<HubGame>,
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
            variant: HubVariant::Eight(Variant::English),
            numbering: Numbering::Standard,
            options: EngineOptions::default(),
            initialized: false,
            book: false,
            position: None,
            limits: Limits::movetime(DEFAULT_MOVE_TIME),
            searching: false,
        }
    }

    pub fn variant(&self) -> HubVariant {
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
            format!(
                "param name=variant value={} type=enum values={}",
                self.variant.name(),
                quote(&HubVariant::names(" "))
            ),
            format!(
                "param name=numbering value={} type=enum values=\"standard pydraughts\"",
                self.numbering.name()
            ),
            format!("param name=hash value={} type=int min=1 max={HUB_MAX_HASH_MB}", self.options.hash_mb),
            format!("param name=threads value={} type=int min=1 max={HUB_MAX_THREADS}", self.options.threads),
            format!("param name=book value={} type=bool", self.book),
            "wait".to_string(),
        ]
    }

    fn set_param(&mut self, line: &HubLine) -> Result<Reply, HubError> {
        let name = line.require("name")?;
        let value = line.require("value")?;
        let bad = |expected: Cow<'static, str>| HubError::BadValue {
            argument: name.to_string(),
            value: value.to_string(),
            expected,
        };
        match name {
            "variant" => {
                let variant = HubVariant::parse(value)
                    .ok_or_else(|| bad(format!("one of {}", HubVariant::names(", ")).into()))?;
                if variant != self.variant {
                    // A position belongs to its variant.
                    self.position = None;
                }
                self.variant = variant;
            }
            "numbering" => {
                self.numbering =
                    Numbering::parse(value).ok_or_else(|| bad("standard or pydraughts".into()))?
            }
            "book" => {
                self.book = match value.to_ascii_lowercase().as_str() {
                    "true" | "on" | "1" => true,
                    "false" | "off" | "0" => false,
                    _ => return Err(bad("true or false".into())),
                }
            }
            "hash" | "threads" => {
                let (max, slot, range) = match name {
                    "hash" => (HUB_MAX_HASH_MB, &mut self.options.hash_mb, "MB from 1 to"),
                    _ => (HUB_MAX_THREADS, &mut self.options.threads, "1 to"),
                };
                let n = value.parse::<usize>().ok().filter(|n| (1..=max).contains(n));
                *slot = n.ok_or_else(|| bad(format!("{range} {max}").into()))?;
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
        let moves = line.get("moves").unwrap_or("");
        self.position = Some(read_game(self.variant, self.numbering, text, moves)?);
        Ok(())
    }

    fn set_level(&mut self, line: &HubLine) -> Result<(), HubError> {
        fn number<T: std::str::FromStr>(
            line: &HubLine,
            key: &str,
            ok: impl Fn(&T) -> bool,
            expected: impl Into<Cow<'static, str>>,
        ) -> Result<Option<T>, HubError> {
            match line.get(key) {
                None => Ok(None),
                Some(text) => match text.parse::<T>() {
                    Ok(v) if ok(&v) => Ok(Some(v)),
                    _ => Err(HubError::BadValue {
                        argument: key.to_string(),
                        value: text.to_string(),
                        expected: expected.into(),
                    }),
                },
            }
        }
        let seconds = |v: &f64| v.is_finite() && *v >= 0.0 && *v < MAX_LEVEL_SECONDS;
        let depth_range = format!("a depth from 1 to {MAX_DEPTH}");
        let depth = number::<u32>(line, "depth", |d| (1..=MAX_DEPTH).contains(d), depth_range)?;
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
        let game = self.position.clone().ok_or(HubError::NoPosition)?;
        if !game.has_legal_move() {
            // The protocol promises no such search; answer with pydraughts' null move so a
            // waiting client is not left hanging.
            let error = if game.no_move_wins() { HubError::NoLegalMoveWins } else { HubError::NoLegalMove };
            return Ok(Reply::lines(vec![error_line(&error), "done move=0-0".to_string()]));
        }
        // The opening books are English's and Russian's.
        let book_position = game.position::<Position>().filter(|_| self.book && mode == GoMode::Think);
        if let Some(position) = book_position {
            if let Some([entry, ..]) = crate::book::book(position.variant()).playable(position) {
                let mv = move_to_hub(&entry.mv, position.variant(), self.numbering);
                return Ok(Reply::lines(vec![
                    format!("info depth=0 score={} pv={}", score_to_hub(entry.score), quote(&mv)),
                    format!("done move={mv}"),
                ]));
            }
        }
        let reply = Reply::action(Action::Search(SearchJob {
            game,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_lines_get_errors_and_change_nothing() {
        let mut hub = Hub::new();
        let errors = [
            "fly",
            "set-param name=variant value=killer",
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
        assert_eq!(hub.variant(), HubVariant::Eight(Variant::English));
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

    /// The limits the Hub offers and checks come from named constants; what they say on the
    /// wire is pinned here.
    #[test]
    fn the_limits_read_the_same_on_the_wire() {
        let mut hub = Hub::new();
        let answer = |hub: &mut Hub, line: &str| hub.handle(line).lines;
        for (line, refusal) in [
            ("set-param name=hash value=0", "bad value `0` for `hash`: expected MB from 1 to 4096"),
            ("set-param name=threads value=65", "bad value `65` for `threads`: expected 1 to 64"),
            ("level depth=101", "bad value `101` for `depth`: expected a depth from 1 to 100"),
            ("level time=1e8", "bad value `1e8` for `time`: expected seconds, 0 or more"),
        ] {
            assert_eq!(answer(&mut hub, line), [format!("error message=\"{refusal}\"")]);
        }
        let introduction = answer(&mut hub, "hub");
        assert!(introduction.contains(&"param name=hash value=64 type=int min=1 max=4096".to_string()));
        assert!(introduction.contains(&"param name=threads value=1 type=int min=1 max=64".to_string()));
        assert!(answer(&mut hub, "set-param name=hash value=4096").is_empty());
        assert!(answer(&mut hub, "set-param name=threads value=64").is_empty());
        assert!(answer(&mut hub, "level depth=100").is_empty());
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
