//! The database as the user names it after `--db`: a SQLite file, or a URL. Turned into a URL
//! sqlx reads, and shown back to people without its password.

use crate::store::StoreError;

/// What stands for a password wherever one would be shown.
const HIDDEN: &str = "***";

/// Turns what the user typed after `--db` into a URL sqlx understands.
pub fn normalise_url(text: &str) -> Result<String, StoreError> {
    if is_postgres(text) {
        return Ok(text.to_string());
    }
    if text.starts_with("sqlite:") {
        let mut url = text.to_string();
        if !url.contains("mode=") && !url.contains(":memory:") {
            url.push(if url.contains('?') { '&' } else { '?' });
            url.push_str("mode=rwc");
        }
        return Ok(url);
    }
    if text.contains("://") || text.is_empty() {
        return Err(StoreError::BadUrl(redact(text)));
    }
    Ok(format!("sqlite://{text}?mode=rwc"))
}

pub fn is_postgres(text: &str) -> bool {
    text.starts_with("postgres://") || text.starts_with("postgresql://")
}

/// Where the password of a URL is: in its user information (`user:password@`) and in a
/// `password=` parameter. Byte ranges of `text`.
fn password_ranges(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut ranges = Vec::new();
    let Some(scheme_end) = text.find("://") else { return ranges };
    let authority_start = scheme_end + 3;
    let authority_end =
        text[authority_start..].find(['/', '?', '#']).map_or(text.len(), |at| authority_start + at);
    if let Some(at) = text[authority_start..authority_end].rfind('@') {
        let userinfo = authority_start..authority_start + at;
        if let Some(colon) = text[userinfo.clone()].find(':') {
            ranges.push(userinfo.start + colon + 1..userinfo.end);
        }
    }
    if let Some(query) = text.find('?') {
        let mut start = query + 1;
        for parameter in text[query + 1..].split(['&', '#']) {
            if let Some((key, _)) = parameter.split_once('=') {
                if key.eq_ignore_ascii_case("password") {
                    ranges.push(start + key.len() + 1..start + parameter.len());
                }
            }
            start += parameter.len() + 1;
        }
    }
    ranges
}

/// The URL as it may be shown: its password, if any, replaced by `***`.
pub fn redact(text: &str) -> String {
    let mut shown = text.to_string();
    // From the last to the first, so the earlier ranges stay where they were.
    let mut ranges = password_ranges(text);
    ranges.sort_by_key(|r| std::cmp::Reverse(r.start));
    for range in ranges {
        if !range.is_empty() {
            shown.replace_range(range, HIDDEN);
        }
    }
    shown
}

/// `message` with the password of the URL `text` taken out wherever it appears, as written in
/// the URL and percent-decoded.
pub fn scrub(message: &str, text: &str) -> String {
    let mut message = message.replace(text, &redact(text));
    for range in password_ranges(text) {
        let written = &text[range];
        for secret in [percent_decoded(written), written.to_string()] {
            if !secret.is_empty() {
                message = message.replace(&secret, HIDDEN);
            }
        }
    }
    message
}

fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_shown_without_their_password() {
        let cases = [
            ("postgres://user:secret@127.0.0.1:1/x", "postgres://user:***@127.0.0.1:1/x"),
            (
                "postgresql://user:s%40cret@db.example/x?sslmode=require",
                "postgresql://user:***@db.example/x?sslmode=require",
            ),
            (
                "postgres://user@host/db?password=secret&sslmode=disable",
                "postgres://user@host/db?password=***&sslmode=disable",
            ),
            ("postgres://u:p@q@host/db", "postgres://u:***@host/db"),
            ("postgres://host/db", "postgres://host/db"),
            ("games.db", "games.db"),
            ("sqlite://games.db?mode=rwc", "sqlite://games.db?mode=rwc"),
        ];
        for (url, shown) in cases {
            assert_eq!(redact(url), shown, "{url}");
        }
    }

    #[test]
    fn messages_lose_the_password_as_written_and_decoded() {
        let url = "postgres://ann:pa%3Ass@host/db";
        let message = format!("cannot use {url}: the password pa:ss (written pa%3Ass) was refused");
        let scrubbed = scrub(&message, url);
        assert_eq!(
            scrubbed,
            "cannot use postgres://ann:***@host/db: the password *** (written ***) was refused"
        );
    }

    #[test]
    fn what_follows_db_becomes_a_url() {
        assert_eq!(normalise_url("games.db").unwrap(), "sqlite://games.db?mode=rwc");
        assert_eq!(normalise_url("sqlite::memory:").unwrap(), "sqlite::memory:");
        assert_eq!(normalise_url("postgres://u:p@h/d").unwrap(), "postgres://u:p@h/d");
        let refused = normalise_url("mysql://u:secret@h/d").unwrap_err().to_string();
        assert!(refused.contains("mysql://u:***@h/d") && !refused.contains("secret"), "{refused}");
    }
}
