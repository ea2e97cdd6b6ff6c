//! What the player types: a command word, or move text.

/// One line of input, understood.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Input {
    Empty,
    Help,
    Hint,
    Undo,
    Draw,
    Resign,
    Flip,
    Moves,
    Board,
    /// The engine's review of the finished game.
    Review,
    /// `save` alone saves to the record; `save FILE` also writes the game to FILE.
    Save(Option<String>),
    New,
    Quit,
    /// Anything else is read as a move.
    Move(String),
}

impl Input {
    pub fn parse(line: &str) -> Input {
        let line = line.trim();
        let (word, rest) = match line.split_once(char::is_whitespace) {
            Some((w, r)) => (w, r.trim()),
            None => (line, ""),
        };
        let word = word.to_ascii_lowercase();
        match (word.as_str(), rest.is_empty()) {
            ("", _) => Input::Empty,
            ("help" | "?" | "h", true) => Input::Help,
            ("hint", true) => Input::Hint,
            ("undo" | "takeback" | "back", true) => Input::Undo,
            ("draw", true) => Input::Draw,
            ("resign", true) => Input::Resign,
            ("flip", true) => Input::Flip,
            ("moves", true) => Input::Moves,
            ("board", true) => Input::Board,
            ("review", true) => Input::Review,
            ("save", true) => Input::Save(None),
            ("save", false) => Input::Save(Some(rest.to_string())),
            ("new", true) => Input::New,
            ("quit" | "exit" | "q" | "bye", true) => Input::Quit,
            _ => Input::Move(line.to_string()),
        }
    }
}

/// Move text with its square numbers written in algebraic notation instead: the rules
/// library explains refusals with numbers, and Russian players read a1-h8.
pub fn numbers_to_algebraic(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        let square = digits.parse().ok().and_then(checkers_rules::Square::from_number);
        match square {
            Some(sq) => out.push_str(&sq.algebraic()),
            None => out.push_str(digits),
        }
        digits.clear();
    };
    for c in text.chars() {
        if c.is_ascii_digit() {
            digits.push(c);
        } else {
            if !digits.is_empty() {
                flush(&mut digits, &mut out);
            }
            out.push(c);
        }
    }
    if !digits.is_empty() {
        flush(&mut digits, &mut out);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_moves() {
        assert_eq!(Input::parse("  "), Input::Empty);
        assert_eq!(Input::parse("HELP"), Input::Help);
        assert_eq!(Input::parse("save games.pdn"), Input::Save(Some("games.pdn".into())));
        assert_eq!(Input::parse("save"), Input::Save(None));
        assert_eq!(Input::parse(" 11 15 "), Input::Move("11 15".into()));
        assert_eq!(Input::parse("hint me"), Input::Move("hint me".into()));
    }

    #[test]
    fn russian_squares() {
        assert_eq!(
            numbers_to_algebraic("a capture is compulsory: 22x15 or 21x14"),
            "a capture is compulsory: c3xe5 or a3xc5"
        );
        assert_eq!(numbers_to_algebraic("99 and 0"), "99 and 0");
    }
}
