//! Drawing the board: the pieces on the left, the square names on the right (numbers in
//! English, algebraic names in Russian), the last move marked, in colour or in plain text.

use checkers_rules::{Color, Piece, Position, Role, Square, SquareNotation, Variant};

/// The letter drawn for the pieces of the side that is not Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Letters {
    /// `r` and `R`: Red, as in the original English game.
    Red,
    /// `w` and `W`: White, as Russian players expect.
    White,
}

/// How the board is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub variant: Variant,
    pub letters: Letters,
    /// Colour escape codes (only for a terminal that wants them).
    pub colour: bool,
    /// Turned round: White's side at the top.
    pub flipped: bool,
}

// 256-colour codes: a wooden board, dark squares darker, the last move's squares lit.
const LIGHT_SQUARE: &str = "\x1b[48;5;223m";
const DARK_SQUARE: &str = "\x1b[48;5;94m";
const LAST_MOVE_SQUARE: &str = "\x1b[48;5;136m";
const BLACK_PIECE: &str = "\x1b[1;38;5;16m";
const RED_PIECE: &str = "\x1b[1;38;5;160m";
const WHITE_PIECE: &str = "\x1b[1;38;5;231m";
const EMPTY_MARK: &str = "\x1b[38;5;137m";
const DIM: &str = "\x1b[2m";
const BOLD: &str = "\x1b[1m";
pub const RESET: &str = "\x1b[0m";

impl Style {
    /// How squares are written in this variant: numbers in English, a1-h8 in Russian.
    pub fn notation(&self) -> SquareNotation {
        crate::common::customary_notation(self.variant)
    }

    /// The name of a side as the players see it: Black, and Red or White.
    pub fn side_name(&self, color: Color) -> &'static str {
        match (color, self.letters) {
            (Color::Black, _) => "Black",
            (Color::White, Letters::Red) => "Red",
            (Color::White, Letters::White) => "White",
        }
    }

    /// The man and king letters of a side, as `b, B`.
    pub fn side_letters(&self, color: Color) -> String {
        let man = self.letter(Piece { color, role: Role::Man });
        let king = self.letter(Piece { color, role: Role::King });
        format!("{man}, {king}")
    }

    fn letter(&self, piece: Piece) -> char {
        let man = match (piece.color, self.letters) {
            (Color::Black, _) => 'b',
            (Color::White, Letters::Red) => 'r',
            (Color::White, Letters::White) => 'w',
        };
        match piece.role {
            Role::Man => man,
            Role::King => man.to_ascii_uppercase(),
        }
    }

    /// Wraps text in a colour code when colour is on.
    pub fn paint(&self, code: &str, text: &str) -> String {
        if self.colour {
            format!("{code}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    pub fn bold(&self, text: &str) -> String {
        self.paint(BOLD, text)
    }

    /// The rows from the top of the picture down, each a list of (file, rank) from the left.
    fn rows(&self) -> Vec<Vec<(u32, u32)>> {
        let ranks: Vec<u32> = if self.flipped { (0..8).collect() } else { (0..8).rev().collect() };
        let files: Vec<u32> = if self.flipped { (0..8).rev().collect() } else { (0..8).collect() };
        ranks.iter().map(|&r| files.iter().map(|&f| (f, r)).collect()).collect()
    }

    /// The board and, to its right, the square names; `last_move` squares (start and end of
    /// the last move) are marked, `[ ]` in plain text and lit in colour. `top` and `bottom`
    /// are the captions written above and below (each side's name by its home row).
    pub fn render(&self, position: &Position, last_move: &[Square], top: &str, bottom: &str) -> String {
        let coordinates = self.variant == Variant::Russian;
        let margin = if coordinates { "   " } else { "  " };
        let frame = format!("{margin}+{}+    +{}+", "-".repeat(24), "-".repeat(25));
        let mut out = String::new();
        out.push_str(&format!("{margin} {top}\n"));
        out.push_str(&frame);
        out.push('\n');
        for row in self.rows() {
            let label = if coordinates { format!(" {} ", row[0].1 + 1) } else { margin.to_string() };
            let mut board = String::new();
            let mut names = String::new();
            for &(file, rank) in &row {
                match Square::from_coords(file, rank) {
                    None => {
                        board.push_str(&self.paint(LIGHT_SQUARE, "   "));
                        names.push_str("   ");
                    }
                    Some(sq) => {
                        board.push_str(&self.cell(position.piece_at(sq), last_move.contains(&sq)));
                        let name = match self.notation() {
                            SquareNotation::Numeric => format!("{:>3}", sq.number()),
                            SquareNotation::Algebraic => format!("{:>3}", sq.algebraic()),
                        };
                        names.push_str(&self.paint(DIM, &name));
                    }
                }
            }
            out.push_str(&format!("{label}|{board}|    |{names} |\n"));
        }
        out.push_str(&frame);
        out.push('\n');
        if coordinates {
            let files: String =
                self.rows()[0].iter().map(|&(f, _)| format!(" {} ", (b'a' + f as u8) as char)).collect();
            out.push_str(&format!("{margin} {files}\n"));
        }
        out.push_str(&format!("{margin} {bottom}\n"));
        out
    }

    fn cell(&self, piece: Option<Piece>, marked: bool) -> String {
        let symbol = piece.map(|p| self.letter(p));
        if !self.colour {
            let c = symbol.unwrap_or('.');
            return if marked { format!("[{c}]") } else { format!(" {c} ") };
        }
        let background = if marked { LAST_MOVE_SQUARE } else { DARK_SQUARE };
        let (fg, c) = match piece {
            None => (EMPTY_MARK, ' '),
            Some(p) => {
                let fg = match (p.color, self.letters) {
                    (Color::Black, _) => BLACK_PIECE,
                    (Color::White, Letters::Red) => RED_PIECE,
                    (Color::White, Letters::White) => WHITE_PIECE,
                };
                (fg, self.letter(p))
            }
        };
        format!("{background}{fg} {c} {RESET}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(variant: Variant, letters: Letters) -> Style {
        Style { variant, letters, colour: false, flipped: false }
    }

    #[test]
    fn english_start_with_numbers() {
        let style = plain(Variant::English, Letters::Red);
        let text = style.render(&Position::start(Variant::English), &[], "top", "bottom");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   top");
        assert_eq!(lines[2], "  |    b     b     b     b |    |     1     2     3     4 |");
        assert_eq!(lines[5], "  | .     .     .     .    |    | 13    14    15    16    |");
        assert_eq!(lines[9], "  | r     r     r     r    |    | 29    30    31    32    |");
        assert_eq!(lines[11], "   bottom");
    }

    #[test]
    fn russian_with_coordinates_and_marks() {
        let style = plain(Variant::Russian, Letters::White);
        let start = Position::start(Variant::Russian);
        let mv = start.parse_move("c3-d4").unwrap();
        let after = start.play_unchecked(&mv);
        let text = style.render(&after, &[mv.from(), mv.to()], "", "");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[6], " 4 |    .    [w]    .     . |    |    b4    d4    f4    h4 |");
        assert_eq!(lines[7], " 3 | w    [.]    w     w    |    | a3    c3    e3    g3    |");
        assert_eq!(lines[11], "     a  b  c  d  e  f  g  h ");
        let flipped = Style { flipped: true, ..style }.render(&after, &[], "", "");
        assert!(flipped.lines().nth(11).unwrap().starts_with("     h  g  f"));
        assert_eq!(
            flipped.lines().nth(2).unwrap(),
            " 1 |    w     w     w     w |    |    g1    e1    c1    a1 |"
        );
    }
}
