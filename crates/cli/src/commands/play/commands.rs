//! The commands a player types during a game (`help`, `hint`, `undo`, `draw`, `resign`,
//! `flip`, `moves`, `board`, `save`, `new`, `quit`, `review`): the dispatch of a line of input
//! and what each command does. Moves typed are played by the game loop in the parent module.

use std::io::BufRead;

use checkers_engine::review::{review_game, score_text, tally, Verdict};
use checkers_engine::DrawAnswer;
use checkers_rules::{escape_controls, Color};

use super::input::Input;
use super::record::{pdn_date_today, RecordFile};
use super::variant::{Declared, TerminalGame, TerminalPosition};
use super::{wrapped, Flow, Player, Session, DEFAULT_RECORD, REVIEW_NODES};

impl<P: TerminalPosition, R: BufRead> Session<P, R> {
    pub(super) fn handle(&mut self, line: &str) -> Flow {
        match Input::parse(line) {
            Input::Empty => {}
            Input::Help => self.help(),
            Input::Board => self.show_board(),
            Input::Flip => {
                self.style.flipped = !self.style.flipped;
                self.show_board();
            }
            Input::Moves => self.list_moves(),
            Input::Hint => self.hint(),
            Input::Review => self.review(),
            Input::Undo => self.undo(),
            Input::Draw => self.offer_draw(),
            Input::Resign => self.resign(),
            Input::Save(file) => self.save(file),
            Input::New => self.new_game(),
            Input::Quit => {
                self.leave("");
                return Flow::Quit;
            }
            Input::Move(text) => self.human_moves(&text),
        }
        Flow::Continue
    }

    fn help(&self) {
        self.say(&self.about.help_moves);
        let review = "once the game is over, the engine's verdict on every move";
        self.say(&format!(
            "Commands:\n  \
             hint         the computer suggests a move\n  \
             undo         take back your last move (and the computer's answer)\n  \
             draw         offer a draw\n  \
             resign       give up this game\n  \
             flip         turn the board around\n  \
             moves        list the legal moves\n  \
             board        show the board again\n  \
             review       {review}\n  \
             save [FILE]  save the game (it is saved after every move anyway)\n  \
             new          start a new game\n  \
             quit         leave (the game stays in the record)",
        ));
        let record = self.record.lock().unwrap_or_else(|p| p.into_inner());
        self.say(&format!("Every game is recorded in {} (PDN).", record.name()));
    }

    fn list_moves(&self) {
        let position = self.game.position();
        let mut moves: Vec<(u32, String)> =
            self.game.legal_moves().iter().map(|m| (P::move_start(m), position.move_text(m))).collect();
        if moves.is_empty() {
            self.say("The game is over: there are no moves.");
            return;
        }
        moves.sort();
        let list: Vec<String> = moves.into_iter().map(|(_, t)| t).collect();
        self.say(&wrapped(&format!("Legal moves: {}.", list.join(", "))));
    }

    fn hint(&mut self) {
        if self.game.is_over() {
            self.say("The game is over: there is nothing to suggest.");
            return;
        }
        let position = self.game.position();
        let history = self.history();
        match checkers_engine::hint(&mut self.engine, &position, &history) {
            Some(mv) => self.say(&format!("Hint: {}.", position.move_text(&mv))),
            None => self.say("There is no move to suggest."),
        }
    }

    /// The engine's review of the finished game: each mistake and blunder with the move the
    /// engine would have played, and a count for each side.
    fn review(&mut self) {
        let game = &self.game;
        if !game.is_over() {
            self.say("The review is for a finished game: play it out or resign first (`hint` suggests a move now).");
            return;
        }
        let moves = game.moves();
        if moves.is_empty() {
            self.say("There are no moves to review.");
            return;
        }
        let count = if moves.len() == 1 { "1 move".to_string() } else { format!("{} moves", moves.len()) };
        self.say(&format!("Reviewing {count}…"));
        let start = game.start();
        let limits = checkers_engine::Limits::nodes(REVIEW_NODES);
        let reviews = review_game(&mut self.engine, &start, moves, &limits, &mut |_| {});
        let positions = self.game.positions();
        // Numbered as the record numbers them: a move number for each pair of plies.
        let first = self.about.first;
        let first_is_first = start.turn() == first;
        for (ply, (review, before)) in reviews.iter().zip(positions).enumerate() {
            let mark = match review.verdict {
                Verdict::Good => continue,
                Verdict::Mistake => "?",
                Verdict::Blunder => "??",
            };
            let number = (ply + usize::from(!first_is_first)) / 2 + 1;
            let dots = if review.mover == first { "." } else { "..." };
            let best = before.move_text(&review.best);
            self.say(&format!(
                "  {number}{dots} {}{mark} ({}): {}; {best} kept {}",
                before.move_text(&review.played),
                self.name(review.mover),
                score_text(review.score),
                score_text(review.best_score),
            ));
        }
        let side = |color: Color| {
            let who = match self.player(color) {
                Player::Human if self.lone_human().is_some() => " (you)",
                Player::Computer if self.lone_human().is_some() => " (computer)",
                _ => "",
            };
            tally(&reviews, color).describe(&format!("{}{who}", self.name(color)))
        };
        self.say(&format!(
            "Review ({} thousand nodes a position; ? a mistake, ?? a blunder): {}; {}.",
            REVIEW_NODES / 1000,
            side(first),
            side(first.opponent())
        ));
    }

    /// Takes back the last thing that happened: an agreed draw or a resignation (no move goes
    /// with it), else the last move (against the computer, the player's last move and the
    /// computer's answer).
    fn undo(&mut self) {
        if let Some(declared) = self.game.withdraw_declaration() {
            let what = match declared {
                Declared::Draw => "the draw agreement",
                Declared::Resignation => "the resignation",
                Declared::Time => "the loss on time",
            };
            self.say(&format!("Took back {what}; play on."));
            self.announced = false;
            self.save_record();
            self.show_board();
            return;
        }
        let moves_before = self.game.moves().len();
        match self.lone_human() {
            Some(human) => {
                let positions = self.game.positions();
                let human_has_moved = positions[..positions.len() - 1].iter().any(|p| p.turn() == human);
                if !human_has_moved {
                    self.say("There is no move of yours to take back.");
                    return;
                }
                // Back to the position before the human's last move.
                while self.game.undo() && self.game.position().turn() != human {}
            }
            None => {
                if !self.game.undo() {
                    self.say("There is no move to take back.");
                    return;
                }
            }
        }
        let taken = moves_before - self.game.moves().len();
        self.say(&format!("Took back {taken} move{}.", if taken == 1 { "" } else { "s" }));
        self.announced = false;
        self.save_record();
        self.show_board();
    }

    fn offer_draw(&mut self) {
        if self.game.is_over() {
            self.say("The game is over already.");
            return;
        }
        let position = self.game.position();
        let offering = position.turn();
        let accepted = match self.player(offering.opponent()) {
            Player::Computer => {
                let history = self.history();
                match self.level.answer_draw(&mut self.engine, &position, &history, offering.opponent()) {
                    DrawAnswer::Accept => true,
                    DrawAnswer::DeclineAhead => {
                        self.say("The computer declines the draw: it likes its chances. Play on.");
                        false
                    }
                    DrawAnswer::DeclineTooEarly => {
                        self.say("The computer declines the draw: the game has hardly begun. Play on.");
                        false
                    }
                }
            }
            Player::Human => {
                let other = self.name(offering.opponent());
                self.say(&format!("{} offers a draw. {other}, do you accept? (yes/no)", self.name(offering)));
                let answer = self.read_line(&format!("{other}> ")).unwrap_or_default();
                let yes = matches!(answer.trim().to_ascii_lowercase().as_str(), "y" | "yes");
                if !yes {
                    self.say(&format!("{other} declines the draw. Play on."));
                }
                yes
            }
        };
        if accepted && self.game.agree_draw() {
            self.say("The draw is agreed.");
        }
    }

    fn resign(&mut self) {
        if self.game.is_over() {
            self.say("The game is over already.");
            return;
        }
        let color = self.lone_human().unwrap_or(self.game.position().turn());
        self.game.resign(color);
    }

    fn save(&mut self, file: Option<String>) {
        self.save_record();
        let name = self.record.lock().unwrap_or_else(|p| p.into_inner()).name().to_string();
        let Some(file) = file else {
            if self.game.moves().is_empty() && !self.game.is_over() {
                self.say("No move has been played yet: there is nothing to save.");
            } else {
                self.say(&format!("Saved in {name}."));
            }
            return;
        };
        let text = self.pdn_text();
        let written = match self.copies.iter_mut().find(|c| c.is_file(std::path::Path::new(&file))) {
            Some(copy) => copy.write(&text).map_err(|e| e.to_string()),
            None => RecordFile::open(std::path::Path::new(&file)).map_err(|e| format!("{e:#}")).and_then(
                |mut copy| {
                    let written = copy.write(&text).map_err(|e| e.to_string());
                    self.copies.push(copy);
                    written
                },
            ),
        };
        match written {
            Ok(()) => self.say(&format!("Saved in {}.", escape_controls(&file))),
            Err(e) => self.say(&format!("Could not save in {}: {e}.", escape_controls(&file))),
        }
    }

    fn new_game(&mut self) {
        if !self.game.is_over() && !self.game.moves().is_empty() {
            self.say("The unfinished game stays in the record.");
        }
        self.save_record();
        {
            let mut record = self.record.lock().unwrap_or_else(|p| p.into_inner());
            if let Err(e) = record.close_game() {
                let name = record.name().to_string();
                drop(record);
                self.say(&format!("Could not read the record {name} back: {e}."));
            }
        }
        self.game = P::Game::from_position(self.start);
        self.copies.clear();
        self.games_started += 1;
        self.date = pdn_date_today();
        self.announced = false;
        self.shown_at = None;
        self.say(&format!("New game. {} moves first.", self.name(self.start.turn())));
    }

    pub(super) fn leave(&self, why: &str) {
        self.save_record();
        let record = self.record.lock().unwrap_or_else(|p| p.into_inner());
        let saved = if record.has_current_game() {
            let state = if self.game.is_over() {
                String::new()
            } else {
                let file = match record.name() {
                    DEFAULT_RECORD => String::new(),
                    name => format!(" --record {name}"),
                };
                format!(" (unfinished; `checkers play --continue{file}` goes on with it)")
            };
            format!("The game is saved in {}{state}. ", record.name())
        } else {
            String::new()
        };
        drop(record);
        self.say(&format!("{why}{saved}Goodbye."));
    }
}
