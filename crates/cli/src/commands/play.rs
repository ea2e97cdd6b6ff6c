//! `checkers play`: the terminal game, as the project specifies it: a person against the
//! computer (or two people at one keyboard) on a board drawn in the terminal.
//!
//! Every variant: English and Russian on the 8x8 code, the others on the boards of any size
//! (International and its family, the national 8x8 games, Canadian, Turkish); the game loop
//! and the commands are written once against the small traits of `variant`, which each kind
//! of position implements (`checkers`, `boards`).
//!
//! The board with `b`/`B` for Black and `r`/`R` (or `w`/`W`) for the other side, the square
//! names to its right, the last move marked. The player types moves (`11-15`, `11 15`,
//! `9x18x27`, the short `9x27`; algebraic `c3-d4` in Russian, Brazilian, Czech and Turkish)
//! or commands (`help`, `hint`, `undo`, `draw`, `resign`, `flip`, `moves`, `board`,
//! `save [FILE]`, `new`, `quit`, `review` once the game is over; see `commands`); a move
//! that is not legal is refused with the reason and asked for again. The computer plays at
//! levels 1-9.
//!
//! Every game goes to a PDN record (`gamerec.txt` unless `--record` says otherwise), written
//! after every move, after earlier games in the file. Input is read line by line whether or
//! not it is a terminal, so whole games can be piped in; the end of input, like `quit` and
//! Ctrl-C, leaves the record complete, and `--continue` goes on with the record's last game.
//! The terminal is never put in a special mode, so nothing needs restoring beyond the colour,
//! which every coloured piece of text resets.

mod board;
mod board_text;
mod boards;
mod checkers;
mod commands;
mod input;
mod record;
mod variant;

use std::io::{self, BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Context};
use checkers_engine::{Engine, EngineOptions, Level, SearchPosition, StopHandle};
use checkers_rules::board::Board;
use checkers_rules::{escape_controls, excerpt, with_board_variant, AnyPdnGame, Color, Position};

use crate::common::{read_lossy_line, VariantArg, VariantChoice};
use board::{Letters, Style, RESET};
use record::{pdn_date_today, LastGame, RecordFile};
use variant::{About, Ending, TerminalGame, TerminalPosition, Typed};

/// Where games are recorded unless `--record` says otherwise: the record file the terminal
/// game keeps by its specification.
const DEFAULT_RECORD: &str = "gamerec.txt";

/// Nodes the engine searches in each position when it reviews a finished game (about a
/// twentieth of a second each).
const REVIEW_NODES: u64 = 500_000;

/// The level a newcomer meets: sees simple shots, leaves chances.
const DEFAULT_LEVEL: u32 = 4;

#[derive(clap::Args, Debug)]
pub struct Args {
    /// Rules to play by: `english` (the default), `russian`, or any other variant
    /// (`international`, `brazilian`, `canadian`, `frisian`, ..., `turkish`).
    #[arg(long, value_enum)]
    variant: Option<VariantArg>,
    /// The computer's strength, 1 (beginner) to 9 (master). Default: 4, or with `--continue`
    /// the level the game was played at.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=9))]
    level: Option<u32>,
    /// Go on with the last game of the record file (`--record`) where it was left: its rules,
    /// position and moves, and who played which side at what level (unless `--side` or
    /// `--level` say otherwise). The game is written on in its place in the file.
    #[arg(long = "continue", conflicts_with_all = ["variant", "fen"])]
    continue_game: bool,
    /// Who the people at the keyboard play: `black`, `white`, `both` (two players, no computer)
    /// or `none` (watch the computer play itself). Default: the side that moves first (Black
    /// in English and Pool, White in the others).
    #[arg(long, value_enum)]
    side: Option<SideArg>,
    /// Start from this position (the variant's PDN FEN, e.g. `B:W18,K30:B14,K5`) instead of
    /// the start.
    #[arg(long)]
    fen: Option<String>,
    /// The most the computer thinks per move, in seconds (it answers sooner when its level's
    /// search is done).
    #[arg(long, value_name = "SECONDS")]
    time: Option<f64>,
    /// The PDN file every game is added to.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_RECORD)]
    record: PathBuf,
    /// Letters for the pieces of the side that is not Black: `red` (r, R) or `white` (w, W).
    /// Default: red in English, white in the others.
    #[arg(long, value_enum)]
    letters: Option<Letters>,
    /// Seed for the computer's choices (the same seed, level and moves give the same game).
    /// Default: a new one each run.
    #[arg(long)]
    seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum SideArg {
    Black,
    White,
    Both,
    None,
}

/// Who plays a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Player {
    Human,
    Computer,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if args.continue_game {
        let last = record::last_game(&args.record)?;
        return match &last.game {
            AnyPdnGame::Checkers(game) => {
                let moves = game.moves().to_vec();
                start_game(&args, game.start(), Some(Continued { last: &last, moves }))
            }
            AnyPdnGame::Board(game) => with_board_variant!(game.variant(), V => {
                let game = game.get::<V>().context("the continued game's variant")?;
                let moves = game.moves().to_vec();
                start_game(&args, game.start(), Some(Continued { last: &last, moves }))
            }),
        };
    }
    let variant = args.variant.unwrap_or(VariantArg::English);
    let bad_fen = |text: &str| format!("bad --fen `{}`", excerpt(text));
    match variant.choice() {
        VariantChoice::Board(board) => with_board_variant!(board, V => {
            let start = match &args.fen {
                None => Board::<V>::start(),
                Some(text) => board_text::board_from_fen::<V>(text).with_context(|| bad_fen(text))?,
            };
            start_game(&args, start, None)
        }),
        VariantChoice::Checkers(variant) => {
            let start = match &args.fen {
                None => Position::start(variant),
                Some(text) => Position::from_fen(variant, text).with_context(|| bad_fen(text))?,
            };
            start_game(&args, start, None)
        }
    }
}

/// The last game of the record, to go on with: where it is in the file, its tags, its moves.
struct Continued<'a, P: SearchPosition> {
    last: &'a LastGame,
    moves: Vec<P::Move>,
}

/// Plays from `start` (after the continued game's moves, if any) until the player leaves.
fn start_game<P: TerminalPosition>(
    args: &Args,
    start: P,
    continued: Option<Continued<'_, P>>,
) -> anyhow::Result<()> {
    let about = start.about();
    let tagged_level = |color: Color| continued.as_ref().and_then(|c| c.last.computer_level(color));
    let think_limit = match args.time {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 && t <= 86_400.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => bail!("--time is seconds per move, more than 0 and at most 86400; found {t}"),
    };
    let level_number = args
        .level
        .or_else(|| tagged_level(Color::White).or_else(|| tagged_level(Color::Black)))
        .unwrap_or(DEFAULT_LEVEL);
    let Some(level) = Level::new(level_number) else { bail!("--level must be between 1 and 9") };
    start.prepare_engine();
    let side = args.side.unwrap_or(match (&continued, about.first) {
        // The continued game's people go on playing their sides.
        (Some(_), _) => match (tagged_level(Color::Black), tagged_level(Color::White)) {
            (Some(_), Some(_)) => SideArg::None,
            (Some(_), None) => SideArg::White,
            (None, Some(_)) => SideArg::Black,
            (None, None) => SideArg::Both,
        },
        (None, Color::Black) => SideArg::Black,
        (None, Color::White) => SideArg::White,
    });
    let players = |color: Color| match (side, color) {
        (SideArg::Both, _) => Player::Human,
        (SideArg::None, _) => Player::Computer,
        (SideArg::Black, Color::Black) | (SideArg::White, Color::White) => Player::Human,
        _ => Player::Computer,
    };
    let letters = args.letters.unwrap_or(about.letters);
    let colour = io::stdout().is_terminal()
        && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        && std::env::var("TERM").map_or(true, |t| t != "dumb");
    let record = match &continued {
        Some(c) => RecordFile::open_continuing(&args.record, c.last.text_start)?,
        None => RecordFile::open(&args.record)?,
    };
    let mut game = P::Game::from_position(start);
    if let Some(c) = &continued {
        for mv in &c.moves {
            // The PDN reader played every move on the board: each is legal where it stands.
            game.play(*mv).map_err(|e| anyhow::anyhow!(e)).context("a move of the continued game")?;
        }
    }
    let last = continued.as_ref().map(|c| c.last);
    let human_name = [Color::Black, Color::White]
        .into_iter()
        .find(|&c| players(c) == Player::Human && tagged_level(c).is_none())
        .and_then(|c| last.and_then(|last| last.player_name(c)))
        .or_else(|| std::env::var("USER").or_else(|_| std::env::var("USERNAME")).ok())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| "Player".to_string());
    let date = last.and_then(|last| last.game.tag("Date")).map_or_else(pdn_date_today, str::to_string);
    let seed = args.seed.unwrap_or_else(|| {
        SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(1)
    });

    let record = Arc::new(Mutex::new(record));
    watch_for_interrupt(Arc::clone(&record), colour);

    let stdin = io::stdin();
    let echo = !stdin.is_terminal();
    let mut session = Session {
        style: Style { letters, colour, flipped: false },
        about,
        players: [players(Color::White), players(Color::Black)],
        level,
        think_limit,
        seed,
        start,
        game,
        engine: Engine::new(EngineOptions { hash_mb: 32, threads: 1 }),
        record,
        date,
        human_name,
        games_started: 1,
        input: stdin.lock(),
        echo,
        shown_at: None,
        announced: false,
        copies: Vec::new(),
        watching_pause: (side == SideArg::None && io::stdout().is_terminal())
            .then_some(Duration::from_millis(700)),
    };
    session.welcome();
    if let Some(c) = &continued {
        let saved = match c.last.text_start {
            Some(_) => "it goes on in its place there",
            None => "it goes on as a new game at the end of that file",
        };
        session.say(&format!(
            "Continuing the last game of {} after {} moves; {saved}.",
            args.record.display(),
            c.moves.len()
        ));
    }
    session.play()
}

/// On Ctrl-C: wait for a record being written to be complete, reset the colour, say where
/// the game is, and leave.
fn watch_for_interrupt(record: Arc<Mutex<RecordFile>>, colour: bool) {
    let _ = ctrlc::set_handler(move || {
        let record = record.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        let reset = if colour { RESET } else { "" };
        let saved = if record.has_current_game() {
            format!(" The game is saved in {}.", record.name())
        } else {
            String::new()
        };
        let mut out = io::stdout();
        let _ = writeln!(out, "{reset}\nInterrupted.{saved}");
        let _ = out.flush();
        std::process::exit(130);
    });
}

/// Text broken at spaces into lines of at most 80 columns (a word longer than that stands
/// alone on its line).
fn wrapped(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut line = 0;
    for word in text.split(' ') {
        if line > 0 && line + 1 + word.len() > 80 {
            out.push('\n');
            line = 0;
        } else if line > 0 {
            out.push(' ');
            line += 1;
        }
        out.push_str(word);
        line += word.len();
    }
    out
}

/// Stops a search after a time limit, unless dropped first.
struct Deadline(#[allow(dead_code)] mpsc::Sender<()>);

impl Deadline {
    fn start(limit: Duration, stop: StopHandle) -> Deadline {
        let (sender, receiver) = mpsc::channel::<()>();
        std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = receiver.recv_timeout(limit) {
                stop.stop();
            }
        });
        Deadline(sender)
    }
}

/// Whether the loop goes on after a line of input.
enum Flow {
    Continue,
    Quit,
}

struct Session<P: TerminalPosition, R: BufRead> {
    style: Style,
    /// What the player is told of the variant.
    about: About,
    /// Who plays White (index 0) and Black (index 1).
    players: [Player; 2],
    level: Level,
    think_limit: Option<Duration>,
    seed: u64,
    start: P,
    game: P::Game,
    engine: Engine<P>,
    record: Arc<Mutex<RecordFile>>,
    date: String,
    human_name: String,
    games_started: u64,
    input: R,
    /// Repeat each line read after its prompt (input that is not a terminal shows nowhere).
    echo: bool,
    /// The number of moves played when the board was last shown.
    shown_at: Option<usize>,
    /// Whether the current game's end has been announced.
    announced: bool,
    /// A pause after each move when a person watches the computer play itself.
    watching_pause: Option<Duration>,
    /// Files this game was saved to with `save FILE` (a second save there replaces the first).
    copies: Vec<RecordFile>,
}

impl<P: TerminalPosition, R: BufRead> Session<P, R> {
    fn player(&self, color: Color) -> Player {
        self.players[usize::from(color == Color::Black)]
    }

    fn name(&self, color: Color) -> &'static str {
        self.style.side_name(color)
    }

    /// The only human's colour when one person plays the computer.
    fn lone_human(&self) -> Option<Color> {
        match (self.player(Color::Black), self.player(Color::White)) {
            (Player::Human, Player::Computer) => Some(Color::Black),
            (Player::Computer, Player::Human) => Some(Color::White),
            _ => None,
        }
    }

    fn say(&self, text: &str) {
        // A closed output must not stop the game (or its record); writes may fail quietly.
        let mut out = io::stdout().lock();
        let _ = writeln!(out, "{text}");
    }

    /// How the game ended, if it has, the sides named as the player sees them.
    fn ending(&self) -> Option<Ending> {
        let style = self.style;
        self.game.ending(&move |color| style.side_name(color))
    }

    /// The first lines a player sees, each short enough for an 80-column terminal.
    fn welcome(&self) {
        let about = &self.about;
        let welcome = format!("Welcome to {}!", about.title);
        let how = format!("Type a move like {}, or `help` for commands.", about.example);
        if welcome.len() + 1 + how.len() <= 80 {
            self.say(&format!("{welcome} {how}"));
        } else {
            self.say(&welcome);
            self.say(&how);
        }
        self.say(about.squares);
        let first = self.game.start().turn();
        let line = match (self.player(Color::Black), self.player(Color::White)) {
            (Player::Human, Player::Human) => {
                format!("Two players at one keyboard; {} moves first.", self.name(first))
            }
            (Player::Computer, Player::Computer) => {
                format!("The computer plays itself at level {} ({}).", self.level, self.level.name())
            }
            _ => {
                let human = self.lone_human().unwrap_or(Color::Black);
                let computer = human.opponent();
                let (you_first, it_first) =
                    if first == human { (", moving first", "") } else { ("", ", moves first") };
                format!(
                    "You: {} ({}){you_first}. Computer: {} ({}), level {} ({}){it_first}.",
                    self.name(human),
                    self.style.side_letters(human),
                    self.name(computer),
                    self.style.side_letters(computer),
                    self.level,
                    self.level.name()
                )
            }
        };
        self.say(&line);
    }

    fn show_board(&mut self) {
        let position = self.game.position();
        let caption = |color: Color| {
            let who = match (self.player(color), self.lone_human()) {
                (Player::Human, Some(_)) => "you".to_string(),
                (Player::Human, None) => "player".to_string(),
                (Player::Computer, _) => format!("computer, level {}", self.level),
            };
            let (pieces, kings) = position.pieces(color);
            let kings = match kings {
                0 => String::new(),
                1 => ", 1 king".to_string(),
                n => format!(", {n} kings"),
            };
            let plural = if pieces == 1 { "" } else { "s" };
            format!(
                "{} ({}): {who}; {pieces} piece{plural}{kings}",
                self.name(color),
                self.style.side_letters(color)
            )
        };
        let (top, bottom) =
            if self.style.flipped { (Color::White, Color::Black) } else { (Color::Black, Color::White) };
        let grid = position.grid(self.game.moves().last());
        self.say("");
        self.say(self.style.render(&grid, &caption(top), &caption(bottom)).trim_end());
        if !self.game.is_over() {
            let turn = position.turn();
            let whose = match (self.player(turn), self.lone_human()) {
                (Player::Human, Some(_)) => " (you)",
                (Player::Computer, _) => " (computer)",
                _ => "",
            };
            self.say(&self.style.bold(&format!("{} to move{whose}.", self.name(turn))));
        }
        self.shown_at = Some(self.game.moves().len());
    }

    /// The game as PDN, with the players, date and result.
    fn pdn_text(&self) -> String {
        let player_name = |color: Color| match self.player(color) {
            Player::Human => self.human_name.clone(),
            Player::Computer => record::computer_name(self.level),
        };
        let (black, white) = (player_name(Color::Black), player_name(Color::White));
        let tags =
            [("Event", "Casual game"), ("Date", self.date.as_str()), ("Black", &black), ("White", &white)];
        self.game.to_pdn(&tags, self.ending().as_ref())
    }

    /// Writes the record; says so if it cannot.
    fn save_record(&self) {
        let nothing_to_record = self.game.moves().is_empty() && !self.game.is_over();
        let text = self.pdn_text();
        let mut record = self.record.lock().unwrap_or_else(|p| p.into_inner());
        let written = if nothing_to_record { record.withdraw() } else { record.write(&text) };
        if let Err(e) = written {
            let name = record.name().to_string();
            drop(record);
            self.say(&format!("Could not write the record to {name}: {e}. Try `save OTHER-FILE`."));
        }
    }

    fn announce_end(&mut self) {
        let Some(ending) = self.ending() else { return };
        if self.shown_at != Some(self.game.moves().len()) {
            self.show_board();
        }
        self.say(&self.style.bold(&format!("Game over. {}.", ending.text)));
        if let Some(human) = self.lone_human() {
            match ending.winner {
                Some(w) if w == human => self.say("You win. Well played!"),
                Some(_) => self.say("The computer wins."),
                None => {}
            }
        }
        self.save_record();
        let record = self.record.lock().unwrap_or_else(|p| p.into_inner());
        let saved = format!("The game is recorded in {}.", record.name());
        drop(record);
        self.say(&format!("{saved} Type `new` for another game, `undo` to take back, or `quit`."));
        self.announced = true;
    }

    /// The game loop: the computer moves when it is its turn, otherwise a line is read.
    fn play(&mut self) -> anyhow::Result<()> {
        loop {
            if self.game.is_over() {
                if !self.announced {
                    self.announce_end();
                }
            } else if self.player(self.game.position().turn()) == Player::Computer {
                self.computer_moves();
                if self.lone_human().is_none() {
                    self.show_board();
                    if let Some(pause) = self.watching_pause {
                        std::thread::sleep(pause);
                    }
                }
                continue;
            } else if self.shown_at != Some(self.game.moves().len()) {
                self.show_board();
            }
            let prompt = if self.game.is_over() {
                "> ".to_string()
            } else {
                format!("{}> ", self.name(self.game.position().turn()))
            };
            let Some(line) = self.read_line(&prompt) else {
                self.leave("End of input. ");
                return Ok(());
            };
            if let Flow::Quit = self.handle(&line) {
                return Ok(());
            }
        }
    }

    /// Prints the prompt and reads a line (`None` at the end of input).
    fn read_line(&mut self, prompt: &str) -> Option<String> {
        {
            let mut out = io::stdout().lock();
            let _ = write!(out, "{}", self.style.bold(prompt));
            let _ = out.flush();
        }
        match read_lossy_line(&mut self.input) {
            None => {
                self.say("");
                None
            }
            Some(line) => {
                if self.echo {
                    self.say(&escape_controls(&line));
                }
                Some(line)
            }
        }
    }

    fn human_moves(&mut self, text: &str) {
        if self.game.is_over() {
            self.say("The game is over. Type `new` for another game, `undo` to take back, or `quit`.");
            return;
        }
        let position = self.game.position();
        let style = self.style;
        match position.read_move(text, &move |color| style.side_name(color)) {
            Typed::Move(mv) => {
                let shown = position.move_text(&mv);
                // The move was just found among the legal ones, so playing it cannot fail.
                if self.game.play(mv).is_ok() {
                    let who = match self.lone_human() {
                        Some(_) => "You play".to_string(),
                        None => format!("{} plays", self.name(position.turn())),
                    };
                    self.say(&format!("{who} {shown}."));
                    self.save_record();
                }
            }
            Typed::Refused(why) => self.say(&wrapped(&why)),
            Typed::NotMoveText => self.one_word(text),
        }
    }

    /// A single word that is not a command: a square (show its moves) or not understood.
    fn one_word(&self, text: &str) {
        let position = self.game.position();
        if let Some(square) = position.square(text) {
            let mut from_here: Vec<String> = self
                .game
                .legal_moves()
                .iter()
                .filter(|m| P::move_start(m) == square)
                .map(|m| position.move_text(m))
                .collect();
            from_here.sort();
            if from_here.is_empty() {
                let style = self.style;
                let why = position.no_move_from(square, &move |color| style.side_name(color));
                self.say(&wrapped(&format!("{}: {why}.", text.trim())));
            } else {
                self.say(&wrapped(&format!(
                    "From {}: {}.",
                    position.square_name(square),
                    from_here.join(", ")
                )));
            }
            return;
        }
        self.say(&format!(
            "I don't understand `{}`. Type a move such as {}, or `help` for the commands.",
            excerpt(text.trim()),
            self.about.example
        ));
    }

    /// The history a search needs: the positions before the current one.
    fn history(&self) -> Vec<P> {
        let positions = self.game.positions();
        positions[..positions.len() - 1].to_vec()
    }

    fn computer_moves(&mut self) {
        let position = self.game.position();
        let history = self.history();
        let stop = StopHandle::new();
        let _deadline = self.think_limit.map(|limit| Deadline::start(limit, stop.clone()));
        let seed = self.seed.wrapping_add(self.games_started.wrapping_mul(1_000_003));
        // Against a person the top levels vary their openings from game to game.
        let chosen = self.level.choose_move_varied(&mut self.engine, &position, &history, seed, &stop);
        let from_book = self.level.opens_from_book(&position);
        // The engine always finds a move when there is one; fall back to the first all the same.
        let Some(mv) = chosen.or_else(|| self.game.legal_moves().first().copied()) else { return };
        let shown = position.move_text(&mv);
        if self.game.play(mv).is_ok() {
            let source = if from_book { " from its opening book" } else { "" };
            self.say(&format!("{} (computer) plays {shown}{source}.", self.name(position.turn())));
            self.save_record();
        }
    }
}
