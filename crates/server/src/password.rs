//! Passwords: what a name and a password must be, and the Argon2id hashes that are all the
//! server keeps of a password. Hashing is slow on purpose (about 50 ms of one core), so it
//! runs on blocking threads, a bounded number at once ([`Hasher`]): a flood of sign-ups or
//! log-ins waits its turn, or is told the server is busy, and never holds up the async
//! workers or takes more than its threads from the engine.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use tokio::sync::Semaphore;

use crate::error::{ApiError, ErrorCode};

/// Shortest and longest account name, in characters (each one of `A-Z a-z 0-9 _ -`).
pub const NAME_CHARS: std::ops::RangeInclusive<usize> = 3..=20;
/// Shortest password, in characters.
pub const MIN_PASSWORD_CHARS: usize = 8;
/// Longest password, in bytes: it bounds the work of hashing one.
pub const MAX_PASSWORD_BYTES: usize = 1000;

/// Argon2id's memory in KiB, passes and lanes: one hash or check costs about 50 ms of one
/// core (docs/benchmarks.md has the measurement) and 19 MiB of memory.
pub const MEMORY_KIB: u32 = 19 * 1024;
pub const PASSES: u32 = 7;
pub const LANES: u32 = 1;

/// Hashes running at once, at most (each holds a blocking thread and [`MEMORY_KIB`]).
pub const HASHES_AT_ONCE: usize = 1;
/// Hashes waiting for their turn, at most; past it a request is answered `busy`.
pub const HASHES_WAITING: usize = 64;

/// A hash of a password nobody has, with the same parameters as every new hash: checked
/// against when a name is unknown, so that an unknown name costs what a wrong password does.
const DUMMY_HASH: &str =
    "$argon2id$v=19$m=19456,t=7,p=1$c2FsdHNhbHRzYWx0c2FsdA$Z8j1mJrDVzVSgdPJvvjQD5d0S0g1QcDE1tMyH4GzSUs";

/// Whether `name` may name an account: 3 to 20 of `A-Z a-z 0-9 _ -`.
pub fn is_valid_name(name: &str) -> bool {
    NAME_CHARS.contains(&name.len())
        && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The form of a name that two names equal ignoring case share (unique in the database).
pub fn name_key(name: &str) -> String {
    name.to_ascii_lowercase()
}

/// Refuses a name that may not name an account (`bad_name`).
pub fn check_name(name: &str) -> Result<(), ApiError> {
    if is_valid_name(name) {
        return Ok(());
    }
    Err(ApiError::new(
        ErrorCode::BadName,
        "a name is 3 to 20 characters, each a letter A-Z or a-z, a digit, _ or -",
    ))
}

/// Refuses a password too long to hash (`bad_request`), before any work is done on it.
pub fn check_password_length(password: &str) -> Result<(), ApiError> {
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(ApiError::bad_request(format!("a password is at most {MAX_PASSWORD_BYTES} bytes")));
    }
    Ok(())
}

/// Refuses a new password that is too short (`weak_password`) or too long (`bad_request`).
pub fn check_new_password(password: &str) -> Result<(), ApiError> {
    check_password_length(password)?;
    if password.chars().count() < MIN_PASSWORD_CHARS {
        return Err(ApiError::new(
            ErrorCode::WeakPassword,
            format!("a password is at least {MIN_PASSWORD_CHARS} characters"),
        ));
    }
    Ok(())
}

fn argon2() -> Argon2<'static> {
    // The parameters are constants within Argon2's bounds.
    let params = Params::new(MEMORY_KIB, PASSES, LANES, None).unwrap_or(Params::DEFAULT);
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// The PHC string (`$argon2id$v=19$m=...`) of `password` with a fresh random salt.
pub fn hash_now(password: &str) -> Option<String> {
    let salt = SaltString::encode_b64(&crate::token::random_salt()).ok()?;
    argon2().hash_password(password.as_bytes(), &salt).ok().map(|hash| hash.to_string())
}

/// Whether `password` is the one `phc` was made from (the parameters are the stored hash's
/// own). A stored hash that cannot be read matches nothing.
pub fn verify_now(password: &str, phc: &str) -> bool {
    match PasswordHash::new(phc) {
        Ok(hash) => Argon2::default().verify_password(password.as_bytes(), &hash).is_ok(),
        Err(_) => false,
    }
}

/// Runs password hashes on blocking threads, [`HASHES_AT_ONCE`] at a time, with at most
/// [`HASHES_WAITING`] waiting.
#[derive(Clone)]
pub struct Hasher {
    running: Arc<Semaphore>,
    waiting: Arc<AtomicUsize>,
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher { running: Arc::new(Semaphore::new(HASHES_AT_ONCE)), waiting: Arc::new(AtomicUsize::new(0)) }
    }
}

/// Gives back a place in the queue when dropped.
struct Waiting(Arc<AtomicUsize>);

impl Drop for Waiting {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::AcqRel);
    }
}

impl Hasher {
    /// Runs `work` on a blocking thread in turn; `busy` when too many wait already.
    async fn run<T: Send + 'static>(&self, work: impl FnOnce() -> T + Send + 'static) -> Result<T, ApiError> {
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= HASHES_WAITING {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(busy());
        }
        let place = Waiting(self.waiting.clone());
        let permit = self.running.acquire().await.map_err(|_| busy())?;
        let done = tokio::task::spawn_blocking(work).await.map_err(|_| busy());
        drop((permit, place));
        done
    }

    /// A new password's hash.
    pub async fn hash(&self, password: String) -> Result<String, ApiError> {
        self.run(move || hash_now(&password)).await?.ok_or_else(busy)
    }

    /// Whether `password` matches the stored hash `phc`; with no hash (an unknown name) it is
    /// checked against a dummy, so that the answer takes as long, and is `false`.
    pub async fn verify(&self, password: String, phc: Option<String>) -> Result<bool, ApiError> {
        self.run(move || match phc {
            Some(phc) => verify_now(&password, &phc),
            None => {
                let _ = verify_now(&password, DUMMY_HASH);
                false
            }
        })
        .await
    }
}

fn busy() -> ApiError {
    ApiError::new(ErrorCode::Busy, "too many log-ins at once: try again in a few seconds")
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn names_are_3_to_20_of_letters_digits_underscore_and_dash() {
        for good in ["abc", "Ann_Lee-2", "ABCDEFGHIJKLMNOPQRST", "___"] {
            assert!(is_valid_name(good), "{good}");
        }
        for bad in [
            "ab",
            "ABCDEFGHIJKLMNOPQRSTU",
            "a b",
            "<b>x</b>",
            "x'; DROP TABLE accounts; --",
            "Zoë",
            "",
            "a.b",
        ] {
            assert!(!is_valid_name(bad), "{bad}");
        }
        assert_eq!(name_key("Ann_Lee"), name_key("aNN_lEE"));
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]
        #[test]
        fn a_valid_name_is_exactly_the_allowed_bytes(name in "\\PC{0,24}") {
            let expected = (3..=20).contains(&name.chars().count())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            prop_assert_eq!(is_valid_name(&name), expected);
        }
    }

    #[test]
    fn passwords_are_8_characters_to_1000_bytes() {
        assert_eq!(check_new_password("1234567").unwrap_err().code, ErrorCode::WeakPassword);
        assert!(check_new_password("ééééééé\u{e9}").is_ok(), "characters, not bytes");
        assert!(check_new_password(&"x".repeat(1000)).is_ok());
        assert_eq!(check_new_password(&"x".repeat(1001)).unwrap_err().code, ErrorCode::BadRequest);
    }

    #[test]
    fn a_hash_checks_its_own_password_only_and_keeps_the_parameters() {
        let hash = hash_now("correct horse").unwrap();
        assert!(hash.starts_with(&format!("$argon2id$v=19$m={MEMORY_KIB},t={PASSES},p={LANES}$")), "{hash}");
        assert!(!hash.contains("correct horse"));
        assert!(verify_now("correct horse", &hash));
        assert!(!verify_now("correct horsE", &hash));
        assert!(!verify_now("correct horse", "not a hash"));
        // The dummy is made with today's parameters, so an unknown name costs the same.
        let params = |phc: &str| phc.split('$').nth(3).map(str::to_string);
        assert_eq!(params(DUMMY_HASH), params(&hash));
        assert!(PasswordHash::new(DUMMY_HASH).is_ok());
    }
}
