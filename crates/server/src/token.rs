//! Secrets and identifiers: seat tokens, friend games' invitation secrets and session tokens
//! (kept by players, stored only as hashes), password salts, game and account ids.

use sha2::{Digest, Sha256};

/// Random bytes from the operating system.
fn random_bytes<const N: usize>() -> [u8; N] {
    let mut buf = [0u8; N];
    // The OS random source failing is not something a server can recover from sensibly;
    // fall back to time-derived bytes so we never panic, and the ids stay unique enough.
    if getrandom::fill(&mut buf).is_err() {
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let digest = Sha256::digest(nanos.to_le_bytes());
        for (b, d) in buf.iter_mut().zip(digest.iter().cycle()) {
            *b = *d;
        }
    }
    buf
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A new seat token: 128 random bits as 32 hex digits.
pub fn new_seat_token() -> String {
    hex(&random_bytes::<16>())
}

/// A new invitation secret for a friend game: 128 random bits as 32 hex digits.
pub fn new_invite_secret() -> String {
    hex(&random_bytes::<16>())
}

/// What the database keeps of a seat token: its SHA-256, hex.
pub fn hash_token(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// A new session token for a log-in: 256 random bits as 64 hex digits.
pub fn new_session_token() -> String {
    hex(&random_bytes::<32>())
}

/// Whether text could be a session token (checked before it is looked up).
pub fn is_session_token(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

/// A password hash's random salt: 128 bits.
pub fn random_salt() -> [u8; 16] {
    random_bytes::<16>()
}

/// A new account id: a random positive 62-bit number (ids are made here, not by the
/// database, so one schema serves SQLite and PostgreSQL alike).
pub fn new_account_id() -> i64 {
    (u64::from_le_bytes(random_bytes::<8>()) >> 2) as i64
}

/// A new game id: 10 characters from a 31-letter alphabet without look-alikes (about 49 bits).
pub fn new_game_id() -> String {
    const ALPHABET: &[u8; 31] = b"abcdefghjkmnpqrstuvwxyz23456789";
    random_bytes::<10>().iter().map(|b| ALPHABET[usize::from(b % 31)] as char).collect()
}

/// Whether text could be a game id (checked before touching the database or a file name).
pub fn is_game_id(text: &str) -> bool {
    (1..=32).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_fresh_and_hash_stably() {
        let a = new_seat_token();
        let b = new_seat_token();
        assert_ne!(a, b);
        assert_eq!(a.len(), 32);
        assert_eq!(hash_token("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        let id = new_game_id();
        assert_eq!(id.len(), 10);
        assert!(is_game_id(&id));
        assert!(!is_game_id("../etc"));
        assert!(!is_game_id(""));
    }
}
