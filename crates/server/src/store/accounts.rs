//! Accounts and their sessions: a name, the Argon2id hash of its password (never the
//! password), and the hashes of the session tokens of the browsers logged in to it.

use sqlx::{AnyConnection, Row};

use super::{Store, StoreError, Write};
use crate::pairing::AccountId;
use crate::rated::Account;

/// An account as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredAccount {
    pub id: AccountId,
    pub name: String,
    pub password_hash: String,
    pub created_ms: i64,
}

/// A session: the SHA-256 of its token, its account, when it began and when it ends.
#[derive(Clone, Debug)]
pub struct SessionRow {
    pub token_hash: String,
    pub account: AccountId,
    pub created_ms: i64,
    pub expires_ms: i64,
}

/// A change to the accounts or their sessions.
pub(super) enum AccountWrite {
    Insert {
        account: StoredAccount,
        name_key: String,
    },
    Session(SessionRow),
    EndSession(String),
    /// Sessions whose time is up (any account's), before the time given.
    EndExpired(i64),
}

impl AccountWrite {
    pub(super) async fn run(&self, conn: &mut AnyConnection) -> Result<(), sqlx::Error> {
        match self {
            AccountWrite::Insert { account, name_key } => {
                sqlx::query(
                    "INSERT INTO accounts (id, name, name_key, password_hash, created_ms) VALUES ($1, $2, $3, $4, $5)",
                )
                .bind(account.id)
                .bind(&account.name)
                .bind(name_key)
                .bind(&account.password_hash)
                .bind(account.created_ms)
                .execute(conn)
                .await?;
            }
            AccountWrite::Session(session) => {
                sqlx::query(
                    "INSERT INTO sessions (token_hash, account_id, created_ms, expires_ms) VALUES ($1, $2, $3, $4)",
                )
                .bind(&session.token_hash)
                .bind(session.account)
                .bind(session.created_ms)
                .bind(session.expires_ms)
                .execute(conn)
                .await?;
            }
            AccountWrite::EndSession(token_hash) => {
                sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                    .bind(token_hash)
                    .execute(conn)
                    .await?;
            }
            AccountWrite::EndExpired(now_ms) => {
                sqlx::query("DELETE FROM sessions WHERE expires_ms <= $1").bind(now_ms).execute(conn).await?;
            }
        }
        Ok(())
    }
}

/// Whether a write failed on a unique key (a name taken, by another's sign-up in between).
pub fn is_unique_violation(error: &StoreError) -> bool {
    matches!(error, StoreError::Db(sqlx::Error::Database(e)) if e.is_unique_violation())
}

impl Store {
    /// Creates an account and its first session, in one transaction. A name taken (ignoring
    /// case) fails with an error that [`is_unique_violation`] recognises.
    pub async fn create_account(
        &self,
        account: StoredAccount,
        name_key: String,
        session: SessionRow,
    ) -> Result<(), StoreError> {
        self.write(vec![
            Write::Account(AccountWrite::Insert { account, name_key }),
            Write::Account(AccountWrite::Session(session)),
        ])
        .await
    }

    /// Opens a session; sessions past their time are deleted with it.
    pub async fn create_session(&self, session: SessionRow) -> Result<(), StoreError> {
        let now = session.created_ms;
        self.write(vec![
            Write::Account(AccountWrite::EndExpired(now)),
            Write::Account(AccountWrite::Session(session)),
        ])
        .await
    }

    /// Ends a session (logging out): its token is worth nothing from then on.
    pub async fn end_session(&self, token_hash: &str) -> Result<(), StoreError> {
        self.write(vec![Write::Account(AccountWrite::EndSession(token_hash.to_string()))]).await
    }

    /// The account named `name_key` (a name in lower case).
    pub async fn account_by_name(&self, name_key: &str) -> Result<Option<StoredAccount>, StoreError> {
        let row = sqlx::query("SELECT id, name, password_hash, created_ms FROM accounts WHERE name_key = $1")
            .bind(name_key)
            .fetch_optional(&self.pool)
            .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(StoredAccount {
            id: row.try_get("id")?,
            name: row.try_get("name")?,
            password_hash: row.try_get("password_hash")?,
            created_ms: row.try_get("created_ms")?,
        }))
    }

    /// The account of the session whose token hashes to `token_hash`, if it has not ended.
    pub async fn session_account(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<Option<Account>, StoreError> {
        let row = sqlx::query(
            "SELECT a.id, a.name FROM sessions s JOIN accounts a ON a.id = s.account_id \
             WHERE s.token_hash = $1 AND s.expires_ms > $2",
        )
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        Ok(Some(Account { id: row.try_get("id")?, name: row.try_get("name")? }))
    }
}
