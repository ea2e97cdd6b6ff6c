//! Accounts: signing up, logging in and out, and the sessions that keep a browser logged in.
//!
//! A session is a random 256-bit token in a cookie; the database keeps only its SHA-256, so a
//! copy of the database logs nobody in. Logging out deletes the session; it also ends on its
//! own after [`SESSION_DAYS`]. Log-ins are limited per name ([`FAILURES_PER_NAME`] failures in
//! [`FAILURE_WINDOW`], then the name is refused until the oldest is that old) and, with
//! sign-ups, per client address ([`crate::ClientLimits::account_requests`]); an unknown name
//! and a wrong password get the same answer (`bad_credentials`) after the same work (a dummy
//! hash is checked for an unknown name).

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::{ApiError, ErrorCode};
use crate::limits::{Rate, RateLimiter};
use crate::password::{
    check_name, check_new_password, check_password_length, is_valid_name, name_key, Hasher,
};
use crate::rated::Account;
use crate::registry::lock;
use crate::store::{is_unique_violation, now_ms, SessionRow, Store, StoredAccount};
use crate::token::{hash_token, is_session_token, new_account_id, new_session_token};

/// How long a session lasts without logging out.
pub const SESSION_DAYS: i64 = 30;
/// Failed log-ins a name may have within [`FAILURE_WINDOW`]; past them it is refused.
pub const FAILURES_PER_NAME: usize = 5;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names whose failures are remembered at most; past it, the names with none left in the
/// window are forgotten, then the oldest.
const NAMES_REMEMBERED: usize = 10_000;

/// A refusal, with how long to wait when the client is going too fast.
#[derive(Debug)]
pub struct Refused {
    pub error: ApiError,
    pub retry_after: Option<Duration>,
}

impl From<ApiError> for Refused {
    fn from(error: ApiError) -> Refused {
        Refused { error, retry_after: None }
    }
}

/// A logged-in account and the token of its new session (for the cookie).
#[derive(Debug)]
pub struct LoggedIn {
    pub account: Account,
    pub token: String,
}

/// Signs up, logs in and out, and finds the account of a session.
pub struct Accounts {
    store: Store,
    hasher: Hasher,
    per_address: RateLimiter,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
}

fn too_fast(wait: Duration, what: &str) -> Refused {
    Refused {
        error: ApiError::rate_limited(format!("{what}; try again in {} s", crate::web::whole_seconds(wait))),
        retry_after: Some(wait),
    }
}

impl Accounts {
    /// `per_address`: sign-ups and log-ins each client address may make.
    pub fn new(store: Store, per_address: Rate) -> Accounts {
        Accounts {
            store,
            hasher: Hasher::default(),
            per_address: RateLimiter::new(per_address),
            failures: Mutex::new(HashMap::new()),
        }
    }

    fn admit(&self, client: IpAddr) -> Result<(), Refused> {
        self.per_address
            .check(client)
            .map_err(|wait| too_fast(wait, "too many sign-ups and log-ins from this address"))
    }

    /// Creates an account and logs it in.
    pub async fn sign_up(&self, name: &str, password: &str, client: IpAddr) -> Result<LoggedIn, Refused> {
        check_name(name)?;
        check_new_password(password)?;
        self.admit(client)?;
        let key = name_key(name);
        if self.store.account_by_name(&key).await.map_err(ApiError::from)?.is_some() {
            return Err(name_taken().into());
        }
        let password_hash = self.hasher.hash(password.to_string()).await?;
        let now = now_ms();
        let account =
            StoredAccount { id: new_account_id(), name: name.to_string(), password_hash, created_ms: now };
        let (session, token) = new_session(account.id, now);
        let logged_in = LoggedIn { account: Account { id: account.id, name: account.name.clone() }, token };
        match self.store.create_account(account, key, session).await {
            Ok(()) => Ok(logged_in),
            // Someone took the name while the password was hashed.
            Err(e) if is_unique_violation(&e) => Err(name_taken().into()),
            Err(e) => Err(ApiError::from(e).into()),
        }
    }

    /// Logs in to an account by its name (any case) and password.
    pub async fn log_in(&self, name: &str, password: &str, client: IpAddr) -> Result<LoggedIn, Refused> {
        check_password_length(password)?;
        self.admit(client)?;
        let key = name_key(name);
        self.check_failures(&key)?;
        // A name that cannot be one is looked up all the same: it is unknown, like any other.
        let stored = if name.len() <= 64 {
            self.store.account_by_name(&key).await.map_err(ApiError::from)?
        } else {
            None
        };
        let matches = self
            .hasher
            .verify(password.to_string(), stored.as_ref().map(|a| a.password_hash.clone()))
            .await?;
        let Some(stored) = stored.filter(|_| matches) else {
            // Only names that could be an account's are remembered (20 bytes at most each):
            // another name can never log in, and the address's limit holds its tries.
            if is_valid_name(name) {
                self.count_failure(key);
            }
            return Err(ApiError::new(ErrorCode::BadCredentials, "wrong name or password").into());
        };
        let (session, token) = new_session(stored.id, now_ms());
        self.store.create_session(session).await.map_err(ApiError::from)?;
        Ok(LoggedIn { account: Account { id: stored.id, name: stored.name }, token })
    }

    /// Ends the session of `token`, if it is one.
    pub async fn log_out(&self, token: &str) -> Result<(), ApiError> {
        if is_session_token(token) {
            self.store.end_session(&hash_token(token)).await?;
        }
        Ok(())
    }

    /// The account logged in with `token`; `None` for a token that is not one, unknown,
    /// ended or expired (a database error also counts as nobody logged in).
    pub async fn session(&self, token: &str) -> Option<Account> {
        session_account(&self.store, token).await
    }

    fn check_failures(&self, key: &str) -> Result<(), Refused> {
        let now = Instant::now();
        let mut failures = lock(&self.failures);
        let Some(times) = failures.get_mut(key) else { return Ok(()) };
        while times.front().is_some_and(|&t| now.duration_since(t) >= FAILURE_WINDOW) {
            times.pop_front();
        }
        match times.front() {
            Some(&oldest) if times.len() >= FAILURES_PER_NAME => Err(too_fast(
                FAILURE_WINDOW - now.duration_since(oldest),
                "too many failed log-ins for this name",
            )),
            _ => Ok(()),
        }
    }

    fn count_failure(&self, key: String) {
        let now = Instant::now();
        let mut failures = lock(&self.failures);
        if failures.len() >= NAMES_REMEMBERED && !failures.contains_key(&key) {
            failures.retain(|_, times| times.back().is_some_and(|&t| now.duration_since(t) < FAILURE_WINDOW));
            if failures.len() >= NAMES_REMEMBERED {
                failures.clear();
            }
        }
        let times = failures.entry(key).or_default();
        times.push_back(now);
        while times.len() > FAILURES_PER_NAME {
            times.pop_front();
        }
    }
}

/// The account logged in with `token` (see [`Accounts::session`]).
pub async fn session_account(store: &Store, token: &str) -> Option<Account> {
    if !is_session_token(token) {
        return None;
    }
    match store.session_account(&hash_token(token), now_ms()).await {
        Ok(account) => account,
        Err(e) => {
            tracing::warn!("reading a session: {e}");
            None
        }
    }
}

fn name_taken() -> ApiError {
    ApiError::new(
        ErrorCode::NameTaken,
        "an account has this name already (names are told apart ignoring case)",
    )
}

/// A new session for `account` from `now`, and its token.
fn new_session(account: i64, now: i64) -> (SessionRow, String) {
    let token = new_session_token();
    let row = SessionRow {
        token_hash: hash_token(&token),
        account,
        created_ms: now,
        expires_ms: now + SESSION_DAYS * 86_400_000,
    };
    (row, token)
}
