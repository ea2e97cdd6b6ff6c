//! Input text as messages show it. Errors quote what they could not read, and that text may
//! be anything (a binary file given as PDN, a pasted line with escape sequences): shown raw on
//! a terminal it would ring the bell, move the cursor or change the colours. So the characters
//! that act instead of showing are written as escapes, and a long excerpt is cut.

use std::borrow::Cow;

/// The most characters of bad input a message quotes (a full FEN, with kings, fits).
const SHOWN_CHARS: usize = 120;

/// `text` with every character that would act on a terminal rather than show written as an
/// escape: control characters as `\u{7}` (tab, line feed and carriage return as `\t`, `\n`,
/// `\r`), and the invisible marks that reorder text (bidirectional controls) likewise.
/// Everything else, non-ASCII letters included, is left as it is.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(acts_on_terminal) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        push_shown(&mut out, c);
    }
    Cow::Owned(out)
}

/// `text` as an error message quotes it: escaped as [`escape_controls`] does, and cut after
/// about 120 characters with `…`.
pub fn excerpt(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if out.chars().count() >= SHOWN_CHARS {
            out.push('…');
            break;
        }
        push_shown(&mut out, c);
    }
    out
}

fn push_shown(out: &mut String, c: char) {
    match c {
        '\t' => out.push_str("\\t"),
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        c if acts_on_terminal(c) => out.extend(c.escape_unicode()),
        c => out.push(c),
    }
}

/// Control characters (C0, DEL, C1) and the bidirectional formatting characters.
fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_are_escaped_and_long_text_cut() {
        assert!(matches!(escape_controls("c3-d4 é"), Cow::Borrowed("c3-d4 é")));
        assert_eq!(
            escape_controls("a\u{7}b\u{1b}[31m\tc\r\n\u{202e}"),
            "a\\u{7}b\\u{1b}[31m\\tc\\r\\n\\u{202e}"
        );
        assert_eq!(excerpt("11-15"), "11-15");
        let long = "x".repeat(500);
        assert_eq!(excerpt(&long), format!("{}…", "x".repeat(SHOWN_CHARS)));
        // The cut counts what is shown: escapes take their room.
        let bells = excerpt(&"\u{7}".repeat(100));
        assert!(bells.starts_with("\\u{7}\\u{7}") && bells.ends_with('…') && !bells.contains('\u{7}'));
        assert!(bells.chars().count() <= SHOWN_CHARS + 10);
    }
}
