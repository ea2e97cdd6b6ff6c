//! The players of a match: a level of ours (`level:5`), a configuration of ours (`depth:8`,
//! `nodes:20000`, `movetime:100`), or an external engine speaking Hub (`hub:PATH ARGS`).

use std::fmt;
use std::io::{BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use anyhow::{anyhow, bail, Context};
use checkers_engine::{Engine, EngineOptions, Level, Limits, SearchPosition, StopHandle};

use super::contest::Contest;
use crate::common::read_lossy_line;

/// A player as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    Level(Level),
    Depth(u32),
    Nodes(u64),
    /// Milliseconds a move.
    MoveTime(u64),
    /// A command line starting an engine that speaks Hub.
    Hub(String),
}

impl std::str::FromStr for PlayerSpec {
    type Err = String;
    fn from_str(text: &str) -> Result<PlayerSpec, String> {
        let expected = "expected level:1-9, depth:N, nodes:N, movetime:MS or hub:COMMAND";
        let (kind, value) = text.split_once(':').ok_or_else(|| format!("player `{text}`: {expected}"))?;
        let number = |max: u64| {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| format!("player `{text}`: `{value}` is not a number from 1 to {max}"))
        };
        match kind.trim() {
            "level" => {
                value.parse::<Level>().map(PlayerSpec::Level).map_err(|e| format!("player `{text}`: {e}"))
            }
            "depth" => number(100).map(|d| PlayerSpec::Depth(d as u32)),
            "nodes" => number(u64::MAX / 2).map(PlayerSpec::Nodes),
            "movetime" => number(3_600_000).map(PlayerSpec::MoveTime),
            "hub" if !value.trim().is_empty() => Ok(PlayerSpec::Hub(value.trim().to_string())),
            "hub" => {
                Err(format!("player `{text}`: hub needs the engine's command, e.g. hub:/path/to/scan hub"))
            }
            _ => Err(format!("player `{text}`: {expected}")),
        }
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Level(level) => write!(f, "level:{level}"),
            PlayerSpec::Depth(d) => write!(f, "depth:{d}"),
            PlayerSpec::Nodes(n) => write!(f, "nodes:{n}"),
            PlayerSpec::MoveTime(ms) => write!(f, "movetime:{ms}"),
            PlayerSpec::Hub(command) => write!(f, "hub:{command}"),
        }
    }
}

/// What a player needs to know besides its spec.
#[derive(Clone, Debug)]
pub struct PlayerSetup<C: Contest> {
    pub contest: C,
    pub hash_mb: usize,
    /// The `level` line arguments sent to Hub engines, e.g. `move-time=0.1`.
    pub hub_level: String,
    /// How long a Hub engine may take to answer before it is called stuck.
    pub hub_patience: Duration,
}

/// A player's move could not be had.
#[derive(Debug)]
pub enum PlayerError {
    /// The player answered a move that is not legal: it loses the game.
    Illegal(String),
    /// The player is broken (its process died or hung): the match stops.
    Broken(anyhow::Error),
}

/// The move type of a contest's positions.
type MoveOf<C> = <<C as Contest>::Position as SearchPosition>::Move;

/// A player ready to play games.
pub trait Player<C: Contest>: Send {
    fn new_game(&mut self) -> anyhow::Result<()>;
    /// The move for the side to move in `game` (which is not over). `seed` varies the choices
    /// of our levels from game to game.
    fn choose(&mut self, game: &C::Game, seed: u64) -> Result<MoveOf<C>, PlayerError>;
}

pub fn build<C: Contest>(spec: &PlayerSpec, setup: &PlayerSetup<C>) -> anyhow::Result<Box<dyn Player<C>>> {
    Ok(match spec {
        PlayerSpec::Hub(command) => Box::new(HubPlayer::start(command, setup)?),
        ours => Box::new({
            let start = setup.contest.start();
            // Solved while the first games start (8x8 only: other boards have none).
            std::thread::spawn(move || {
                start.endgame_database();
            });
            OurPlayer::<C> {
                spec: ours.clone(),
                engine: Engine::new(EngineOptions { hash_mb: setup.hash_mb, threads: 1 }),
            }
        }),
    })
}

struct OurPlayer<C: Contest> {
    spec: PlayerSpec,
    engine: Engine<C::Position>,
}

impl<C: Contest> Player<C> for OurPlayer<C> {
    fn new_game(&mut self) -> anyhow::Result<()> {
        self.engine.new_game();
        Ok(())
    }

    fn choose(&mut self, game: &C::Game, seed: u64) -> Result<MoveOf<C>, PlayerError> {
        let positions = C::positions(game);
        let position = positions[positions.len() - 1];
        let history = &positions[..positions.len() - 1];
        let limits = match self.spec {
            PlayerSpec::Level(level) => {
                return level
                    .choose_move(&mut self.engine, &position, history, seed)
                    .ok_or_else(|| PlayerError::Broken(anyhow!("asked to move with no legal move")));
            }
            PlayerSpec::Depth(d) => Limits::depth(d),
            PlayerSpec::Nodes(n) => Limits::nodes(n),
            PlayerSpec::MoveTime(ms) => Limits::movetime(Duration::from_millis(ms)),
            PlayerSpec::Hub(_) => unreachable!("Hub players are built as HubPlayer"),
        };
        self.engine
            .search(&position, history, &limits, &StopHandle::new(), &mut |_| {})
            .best_move
            .ok_or_else(|| PlayerError::Broken(anyhow!("asked to move with no legal move")))
    }
}

/// An external engine over the Hub protocol, in standard numbering.
struct HubPlayer<C: Contest> {
    contest: C,
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    level: String,
    patience: Duration,
}

impl<C: Contest> HubPlayer<C> {
    fn start(command: &str, setup: &PlayerSetup<C>) -> anyhow::Result<HubPlayer<C>> {
        // Refused before the engine starts when its positions cannot be written.
        setup.contest.hub_position(&setup.contest.start())?;
        let mut words = command.split_whitespace();
        let program = words.next().context("empty hub command")?;
        let mut child = Command::new(program)
            .args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("cannot start the Hub engine `{command}`"))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = child.stdout.take().context("no stdout")?;
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            // Engines print names and messages in encodings of their own; the words the match
            // reads are ASCII, so a stray byte must not pass for the engine's end.
            while let Some(line) = read_lossy_line(&mut reader) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut player = HubPlayer {
            contest: setup.contest,
            command: command.to_string(),
            child,
            stdin,
            lines,
            level: setup.hub_level.clone(),
            patience: setup.hub_patience,
        };
        player.send("hub")?;
        let intro = player.until("wait")?;
        let variant = setup.contest.name();
        let declares_variant = intro.iter().any(|l| l.starts_with("param ") && l.contains("name=variant"));
        if declares_variant {
            let offered = intro.iter().any(|l| l.contains("name=variant") && l.contains(variant));
            if !offered {
                bail!("the Hub engine `{command}` does not offer the variant {variant}");
            }
            player.send(&format!("set-param name=variant value={variant}"))?;
        }
        player.send("init")?;
        player.until("ready")?;
        Ok(player)
    }

    fn send(&mut self, line: &str) -> anyhow::Result<()> {
        writeln!(self.stdin, "{line}")
            .and_then(|()| self.stdin.flush())
            .with_context(|| format!("the Hub engine `{}` closed its input", self.command))
    }

    /// Reads lines up to the first whose command is `command`; returns them all.
    fn until(&mut self, command: &str) -> anyhow::Result<Vec<String>> {
        let mut seen = Vec::new();
        loop {
            let line = self.lines.recv_timeout(self.patience).map_err(|e| match e {
                mpsc::RecvTimeoutError::Timeout => {
                    anyhow!(
                        "the Hub engine `{}` sent no `{command}` within {:?}",
                        self.command,
                        self.patience
                    )
                }
                mpsc::RecvTimeoutError::Disconnected => {
                    anyhow!("the Hub engine `{}` exited before `{command}`", self.command)
                }
            })?;
            let found = line.split_whitespace().next() == Some(command);
            seen.push(line);
            if found {
                return Ok(seen);
            }
        }
    }
}

impl<C: Contest> Player<C> for HubPlayer<C> {
    fn new_game(&mut self) -> anyhow::Result<()> {
        self.send("new-game")
    }

    fn choose(&mut self, game: &C::Game, _seed: u64) -> Result<MoveOf<C>, PlayerError> {
        let start = C::positions(game)[0];
        let mut position = start;
        let mut moves = Vec::with_capacity(C::moves(game).len());
        for mv in C::moves(game) {
            moves.push(self.contest.hub_move(&position, mv));
            position = position.play_unchecked(mv);
        }
        let pos = self.contest.hub_position(&start).map_err(PlayerError::Broken)?;
        let level = self.level.clone();
        let exchange = (|| {
            if moves.is_empty() {
                self.send(&format!("pos pos={pos}"))?;
            } else {
                self.send(&format!("pos pos={pos} moves=\"{}\"", moves.join(" ")))?;
            }
            self.send(&format!("level {level}"))?;
            self.send("go think")?;
            self.until("done")
        })();
        let lines = exchange.map_err(PlayerError::Broken)?;
        let done = lines.last().map(String::as_str).unwrap_or_default();
        let answer = done
            .split_whitespace()
            .find_map(|arg| arg.strip_prefix("move="))
            .ok_or_else(|| PlayerError::Illegal(format!("`{done}` names no move")))?;
        self.contest
            .hub_parse(&position, answer)
            .map_err(|reason| PlayerError::Illegal(format!("{answer}: {reason}")))
    }
}

impl<C: Contest> Drop for HubPlayer<C> {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave on its own, then make sure it is gone.
        for _ in 0..20 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_and_print() {
        for text in ["level:5", "depth:8", "nodes:20000", "movetime:100", "hub:/usr/bin/scan hub"] {
            assert_eq!(text.parse::<PlayerSpec>().unwrap().to_string(), text);
        }
        for bad in ["level:0", "level:10", "depth:x", "nodes:0", "movetime:", "hub:", "fast", "elo:3000"] {
            assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
        }
    }
}
