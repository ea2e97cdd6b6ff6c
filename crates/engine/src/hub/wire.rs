//! The wire syntax: reading a Hub line into its command and arguments, and writing the values
//! and scores the engine's answers carry.

use crate::score::Score;

use super::error::HubError;

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

    pub(super) fn require(&self, key: &'static str) -> Result<&str, HubError> {
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

#[cfg(test)]
mod tests {
    use super::*;

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
    fn scores_read_as_pydraughts_reads_them() {
        assert_eq!(score_to_hub(Score::hundredths(35)), "0.35");
        assert_eq!(score_to_hub(Score::hundredths(-120)), "-1.20");
        assert_eq!(score_to_hub(Score::win_in(7)), "99.93");
        assert_eq!(score_to_hub(Score::loss_in(6)), "-99.94");
    }
}
