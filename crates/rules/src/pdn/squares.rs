//! Square names in the PDN of the boards of any size: the 8x8 dark-square boards' players may
//! write `c3-d4` for `22-18` (PDN 3.0 gives Brazilian and Czech algebraic notation), so the
//! board reader turns names into numbers before the library's parsers see the text, and the
//! writer turns numbers into names when asked. On a board whose squares are only named
//! (Turkish) the text is the library's own; on 10x10 and 12x12 squares are only numbers.
//! FEN also loses lidraughts' extra fields here. The three conversions are public: the online
//! game reads and writes its players' moves on these boards with them.

use crate::board::Geometry;

/// Whether text for the board `G` may name squares `a1`-`h8` in place of their numbers.
pub fn names_allowed<G: Geometry>() -> bool {
    G::SIDE == 8 && !G::ALGEBRAIC
}

/// `text` with every square name of the board `G` (`c3`: a file `a`-`h`, then one rank
/// digit, not followed by another digit) replaced by the square's number. A name that is no
/// playable square (`a2`) is left as it is, for the parser to refuse.
pub fn names_to_numbers<G: Geometry>(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let rank = chars.get(i + 1).and_then(|d| d.to_digit(10));
        let more_digits = chars.get(i + 2).is_some_and(char::is_ascii_digit);
        if let (true, Some(rank), false) = (('a'..='h').contains(&c), rank, more_digits) {
            let file = i32::from(c as u8 - b'a');
            if let Some(number) = G::at(file, rank as i32 - 1) {
                out.push_str(&number.to_string());
                i += 2;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    out
}

/// `text` (FEN or move text with numbered squares) with every number that is a square of
/// the board `G` replaced by its name.
pub fn numbers_to_names<G: Geometry>(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    let flush = |digits: &mut String, out: &mut String| {
        match digits.parse::<u32>().ok().filter(|n| (1..=G::SQUARES).contains(n)) {
            Some(number) => {
                let (file, rank) = G::coords(number);
                out.push(char::from(b'a' + file as u8));
                out.push_str(&(rank + 1).to_string());
            }
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

/// FEN text less the fields lidraughts adds after the two piece lists (`H0`, the half-move
/// clock; `F1`, the move number; Frisian's `+0+0` king-move runs), which PDN FEN has no
/// place for.
pub(super) fn without_lidraughts_fields(fen: &str) -> String {
    let fields: Vec<&str> = fen.split(':').collect();
    let extra = |f: &&&str| f.trim().starts_with(['H', 'F', '+']);
    let keep = fields.len() - fields.iter().skip(3).rev().take_while(extra).count();
    fields[..keep].join(":")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Dark10, Dark8, Full8, ItalianBoard};

    #[test]
    fn names_and_numbers_of_the_8x8_boards() {
        assert!(names_allowed::<Dark8>() && names_allowed::<ItalianBoard>());
        assert!(!names_allowed::<Dark10>() && !names_allowed::<Full8>());
        assert_eq!(names_to_numbers::<Dark8>("c3-d4"), "22-18");
        assert_eq!(names_to_numbers::<Dark8>("W:Wc3,Kd4:Bf6"), "W:W22,K18:B11");
        assert_eq!(names_to_numbers::<Dark8>("bc3 a2-b2 c33 22-18"), "b22 a2-25 c33 22-18");
        assert_eq!(numbers_to_names::<Dark8>("W:W22,K18:B11,33"), "W:Wc3,Kd4:Bf6,33");
        assert_eq!(numbers_to_names::<Dark8>("29x22"), "a1xc3");
        // The mirrored board: a1 is light, h1 is dark and numbered 32 by the FID.
        assert_eq!(names_to_numbers::<ItalianBoard>("h1 a1"), "32 a1");
    }

    #[test]
    fn lidraughts_fields_are_dropped() {
        assert_eq!(without_lidraughts_fields("W:W31-50:B1-20:H0:F1"), "W:W31-50:B1-20");
        assert_eq!(without_lidraughts_fields("W:W31:B1:+0+328"), "W:W31:B1");
        assert_eq!(without_lidraughts_fields("W:W31:B1:X"), "W:W31:B1:X");
        assert_eq!(without_lidraughts_fields("W:W31"), "W:W31");
        assert_eq!(without_lidraughts_fields(""), "");
    }
}
