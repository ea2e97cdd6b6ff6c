//! Drawing the board: the pieces on the left, the square names on the right (numbers, or
//! algebraic names where the variant's players use them), the last move marked, in colour or
//! in plain text; boards of any size (8x8, 10x10, 12x12 dark squares, Turkish's 64 squares),
//! from the picture a variant gives of its position ([`Grid`]).

use checkers_rules::{Color, Piece, Role};

use super::variant::{Cell, Grid};

/// The letter drawn for the pieces of the side that is not Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Letters {
    /// `r` and `R`: Red, as in the original English game.
    Red,
    /// `w` and `W`: White, as Russian players (and those of every other variant) expect.
    White,
}

/// How the board is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    pub letters: Letters,
    /// Colour escape codes (only for a terminal that wants them).
    pub colour: bool,
    /// Turned round: White's side at the top.
    pub flipped: bool,
}

/// The colours of a board: the squares painted and the pieces' letters, in the 256-colour
/// palette. The board paints its own squares, so the pieces read the same on light and dark
/// terminals; colours 16-255 are the same in every xterm-compatible terminal whatever its
/// theme (only 0-15 follow it). Every piece letter stands out from the squares it can stand
/// on by a contrast ratio of at least 4.5:1 (WCAG's level for text), worked out from the
/// xterm palette's RGB values (a test checks it). No one background gives 4.5:1 to black,
/// red and white letters at once, so each choice of letters has its own board.
struct Palette {
    light_square: &'static str,
    dark_square: &'static str,
    last_move_square: &'static str,
    black_piece: &'static str,
    other_piece: &'static str,
}

/// Black and red pieces on a maple board: light squares 230 (#ffffd7), dark squares 180
/// (#d7af87), the last move's squares 151 (#afd7af). Black 16 (#000000) on 180 is 10.4:1, on
/// 151 13.2:1; dark red 88 (#870000) on 180 is 5.1:1, on 151 6.5:1. (Before: bright red 160
/// on brown 94 was 1.06:1.)
const RED_BOARD: Palette = Palette {
    light_square: "\x1b[48;5;230m",
    dark_square: "\x1b[48;5;180m",
    last_move_square: "\x1b[48;5;151m",
    black_piece: "\x1b[1;38;5;16m",
    other_piece: "\x1b[1;38;5;88m",
};

/// Black and white pieces on a rosewood board: light squares 230 (#ffffd7), dark squares 131
/// (#af5f5f), the last move's squares 29 (#00875f). Black 16 on 131 is 4.6:1, on 29 4.6:1;
/// white 231 (#ffffff) on 131 is 4.5:1, on 29 4.5:1 (a background between black and white
/// can give both no more than about 4.6:1).
const WHITE_BOARD: Palette = Palette {
    light_square: "\x1b[48;5;230m",
    dark_square: "\x1b[48;5;131m",
    last_move_square: "\x1b[48;5;29m",
    black_piece: "\x1b[1;38;5;16m",
    other_piece: "\x1b[1;38;5;231m",
};

const DIM: &str = "\x1b[2m";
const BOLD: &str = "\x1b[1m";
pub const RESET: &str = "\x1b[0m";

impl Style {
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

    fn palette(&self) -> &'static Palette {
        match self.letters {
            Letters::Red => &RED_BOARD,
            Letters::White => &WHITE_BOARD,
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
    fn rows(&self, side: u32) -> Vec<Vec<(u32, u32)>> {
        let ranks: Vec<u32> = if self.flipped { (0..side).collect() } else { (0..side).rev().collect() };
        let files: Vec<u32> = if self.flipped { (0..side).rev().collect() } else { (0..side).collect() };
        ranks.iter().map(|&r| files.iter().map(|&f| (f, r)).collect()).collect()
    }

    /// The board and, to its right, the square names; the last move's squares (start and
    /// end) are marked, `[ ]` in plain text and lit in colour. `top` and `bottom` are the
    /// captions written above and below (each side's name by its home row). Ranks and files
    /// are labelled where the squares have names. A board wider than 10 squares has its two
    /// pictures one space apart, so that it fits an 80-column terminal.
    pub fn render(&self, grid: &Grid, top: &str, bottom: &str) -> String {
        let side = grid.side;
        let coordinates = grid.coordinates;
        let margin = if coordinates { "   " } else { "  " };
        let gap = if side > 10 { " " } else { "    " };
        let width = 3 * side as usize;
        let frame = format!("{margin}+{}+{gap}+{}+", "-".repeat(width), "-".repeat(width + 1));
        let mut out = String::new();
        out.push_str(&format!("{margin} {top}\n"));
        out.push_str(&frame);
        out.push('\n');
        for row in self.rows(side) {
            let label = if coordinates { format!("{:>2} ", row[0].1 + 1) } else { margin.to_string() };
            let mut board = String::new();
            let mut names = String::new();
            for &(file, rank) in &row {
                match grid
                    .cells
                    .get(rank as usize)
                    .and_then(|r| r.get(file as usize))
                    .and_then(Option::as_ref)
                {
                    None => {
                        board.push_str(&self.paint(self.palette().light_square, "   "));
                        names.push_str("   ");
                    }
                    Some(Cell { piece, name, marked }) => {
                        board.push_str(&self.cell(*piece, *marked));
                        names.push_str(&self.paint(DIM, &format!("{name:>3}")));
                    }
                }
            }
            out.push_str(&format!("{label}|{board}|{gap}|{names} |\n"));
        }
        out.push_str(&frame);
        out.push('\n');
        if coordinates {
            let files: String =
                self.rows(side)[0].iter().map(|&(f, _)| format!(" {} ", (b'a' + f as u8) as char)).collect();
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
        let palette = self.palette();
        let background = if marked { palette.last_move_square } else { palette.dark_square };
        match piece {
            None => format!("{background}   {RESET}"),
            Some(p) => {
                let fg = match p.color {
                    Color::Black => palette.black_piece,
                    Color::White => palette.other_piece,
                };
                format!("{background}{fg} {} {RESET}", self.letter(p))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::variant::TerminalPosition;
    use super::*;
    use checkers_rules::board::{Board, Canadian};
    use checkers_rules::{Position, Variant};

    fn plain(letters: Letters) -> Style {
        Style { letters, colour: false, flipped: false }
    }

    #[test]
    fn english_start_with_numbers() {
        let style = plain(Letters::Red);
        let text = style.render(&Position::start(Variant::English).grid(None), "top", "bottom");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[0], "   top");
        assert_eq!(lines[2], "  |    b     b     b     b |    |     1     2     3     4 |");
        assert_eq!(lines[5], "  | .     .     .     .    |    | 13    14    15    16    |");
        assert_eq!(lines[9], "  | r     r     r     r    |    | 29    30    31    32    |");
        assert_eq!(lines[11], "   bottom");
    }

    /// The RGB of a colour of the xterm 256-colour palette (16-255).
    fn xterm_rgb(code: u32) -> [f64; 3] {
        if code >= 232 {
            let v = f64::from(8 + 10 * (code - 232));
            return [v, v, v];
        }
        let steps = [0.0, 95.0, 135.0, 175.0, 215.0, 255.0];
        let i = (code - 16) as usize;
        [steps[i / 36], steps[i / 6 % 6], steps[i % 6]]
    }

    /// WCAG 2 contrast ratio between two palette colours.
    fn contrast(a: u32, b: u32) -> f64 {
        let luminance = |code| {
            let [r, g, b] = xterm_rgb(code).map(|c| {
                let c = c / 255.0;
                if c <= 0.039_28 {
                    c / 12.92
                } else {
                    ((c + 0.055) / 1.055).powf(2.4)
                }
            });
            0.2126 * r + 0.7152 * g + 0.0722 * b
        };
        let (la, lb) = (luminance(a), luminance(b));
        (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
    }

    /// The number after `prefix` up to the next `m`, in an escape sequence of `text`.
    fn code_after(text: &str, prefix: &str) -> Option<u32> {
        let start = text.find(prefix)? + prefix.len();
        text[start..].split('m').next()?.parse().ok()
    }

    #[test]
    fn every_piece_stands_out_from_its_square() {
        let start = Position::start(Variant::Russian);
        let mv = start.parse_move("c3-d4").unwrap();
        let after = start.play_unchecked(&mv);
        for letters in [Letters::Red, Letters::White] {
            let style = Style { letters, colour: true, flipped: false };
            let board = style.render(&after.grid(Some(&mv)), "", "");
            let mut cells = 0;
            for cell in board.split(RESET) {
                let (Some(bg), Some(fg)) = (code_after(cell, "\x1b[48;5;"), code_after(cell, "\x1b[1;38;5;"))
                else {
                    continue;
                };
                cells += 1;
                let ratio = contrast(fg, bg);
                assert!(ratio >= 4.5, "{letters:?}: colour {fg} on {bg} is {ratio:.2}:1");
            }
            assert_eq!(cells, 24, "every piece is drawn in colour, one on the last move's square");
        }
        // The escape codes themselves: a red man on a dark square, a black king on the last
        // move's square, a white man, an empty dark square.
        let red = Style { letters: Letters::Red, colour: true, flipped: false };
        let man = |color| Some(Piece { color, role: Role::Man });
        assert_eq!(red.cell(man(Color::White), false), "\x1b[48;5;180m\x1b[1;38;5;88m r \x1b[0m");
        let king = Some(Piece { color: Color::Black, role: Role::King });
        assert_eq!(red.cell(king, true), "\x1b[48;5;151m\x1b[1;38;5;16m B \x1b[0m");
        let white = Style { letters: Letters::White, ..red };
        assert_eq!(white.cell(man(Color::White), false), "\x1b[48;5;131m\x1b[1;38;5;231m w \x1b[0m");
        assert_eq!(white.cell(None, false), "\x1b[48;5;131m   \x1b[0m");
    }

    #[test]
    fn russian_with_coordinates_and_marks() {
        let style = plain(Letters::White);
        let start = Position::start(Variant::Russian);
        let mv = start.parse_move("c3-d4").unwrap();
        let after = start.play_unchecked(&mv);
        let text = style.render(&after.grid(Some(&mv)), "", "");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines[6], " 4 |    .    [w]    .     . |    |    b4    d4    f4    h4 |");
        assert_eq!(lines[7], " 3 | w    [.]    w     w    |    | a3    c3    e3    g3    |");
        assert_eq!(lines[11], "     a  b  c  d  e  f  g  h ");
        let flipped = Style { flipped: true, ..style }.render(&after.grid(None), "", "");
        assert!(flipped.lines().nth(11).unwrap().starts_with("     h  g  f"));
        assert_eq!(
            flipped.lines().nth(2).unwrap(),
            " 1 |    w     w     w     w |    |    g1    e1    c1    a1 |"
        );
    }

    /// The 12x12 board and its numbers fit 80 columns, the two pictures one space apart.
    #[test]
    fn canadian_fits_eighty_columns() {
        let text = plain(Letters::White).render(&Board::<Canadian>::start().grid(None), "", "");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 16);
        assert!(lines.iter().all(|l| l.len() <= 80), "{text}");
        assert_eq!(
            lines[2],
            "  |    b     b     b     b     b     b | |     1     2     3     4     5     6 |"
        );
        assert_eq!(
            lines[13],
            "  | w     w     w     w     w     w    | | 67    68    69    70    71    72    |"
        );
    }
}
