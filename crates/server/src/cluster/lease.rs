//! The node's lease, renewed from a thread of its own on a database connection of its own.
//!
//! A live node must never look dead: a node that misses its renewals for [`LEASE`] is reaped
//! by the others and, when it notices, drops every game it holds. Renewing on the server's
//! runtime would tie the lease to how busy the runtime is, and through the cluster's pool to
//! how many queries wait for a connection; under a heavy load (thousands of moves a second on
//! a small machine) both stretched past the lease and live nodes reaped one another. Here a
//! renewal waits for nothing but the database itself.

use std::sync::{Arc, Weak};

use sqlx::postgres::{PgConnectOptions, PgConnection};
use sqlx::{ConnectOptions, Executor};
use tokio::runtime::Handle;

use super::{Cluster, DB_NOW_MS, LEASE, RENEW};

/// The statement that registers a node (or renews a registration already there): its id,
/// lease, and where and with what key the others open their links to it.
pub(super) fn register_statement() -> String {
    format!(
        "INSERT INTO nodes (id, alive_until_ms, started_ms, link_addr, link_key) \
         VALUES ($1, {DB_NOW_MS} + $2, {DB_NOW_MS}, $3, $4) \
         ON CONFLICT (id) DO UPDATE SET alive_until_ms = EXCLUDED.alive_until_ms, \
           link_addr = EXCLUDED.link_addr, link_key = EXCLUDED.link_key"
    )
}

/// Starts renewing `cluster`'s lease every [`RENEW`] until the cluster is dropped. A lease
/// found taken (the node was cut off or paused for longer than [`LEASE`]) makes the node
/// drop its games, on the server's runtime (`main`), and register again.
pub(super) fn keep(cluster: &Arc<Cluster>) -> std::io::Result<()> {
    let weak = Arc::downgrade(cluster);
    let options = cluster.pool.connect_options().as_ref().clone();
    let main = Handle::current();
    let node = cluster.node.clone();
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build()?;
    std::thread::Builder::new()
        .name(format!("lease {node}"))
        .spawn(move || runtime.block_on(renew_forever(weak, node, options, main)))?;
    Ok(())
}

async fn renew_forever(cluster: Weak<Cluster>, node: String, options: PgConnectOptions, main: Handle) {
    let mut tick = tokio::time::interval(RENEW);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut connection: Option<PgConnection> = None;
    loop {
        tick.tick().await;
        match cluster.upgrade() {
            None => return,
            Some(cluster) if cluster.is_draining() => continue,
            Some(_) => {}
        }
        if connection.is_none() {
            match options.connect().await {
                Ok(c) => connection = Some(c),
                Err(e) => {
                    tracing::warn!("node {node}: connecting to renew the lease: {e}");
                    continue;
                }
            }
        }
        let Some(c) = connection.as_mut() else { continue };
        let link = match cluster.upgrade() {
            Some(cluster) => (cluster.link_addr(), cluster.bus.links().key().to_string()),
            None => return,
        };
        match renew(c, &node, link).await {
            Ok(true) => {}
            Ok(false) => lease_lost(&cluster, &node, &main),
            Err(e) => {
                tracing::warn!("node {node}: renewing the lease: {e}");
                connection = None;
            }
        }
    }
}

/// Renews the lease; `false` if it had run out and been taken, after which the node is
/// registered again (unless it drains).
async fn renew(
    connection: &mut PgConnection,
    node: &str,
    (link_addr, link_key): (Option<String>, String),
) -> Result<bool, sqlx::Error> {
    let renewed = connection
        .execute(
            sqlx::query(&format!("UPDATE nodes SET alive_until_ms = {DB_NOW_MS} + $2 WHERE id = $1"))
                .bind(node)
                .bind(LEASE.as_millis() as i64),
        )
        .await?;
    if renewed.rows_affected() == 1 {
        return Ok(true);
    }
    let statement = register_statement();
    let register =
        sqlx::query(&statement).bind(node).bind(LEASE.as_millis() as i64).bind(link_addr).bind(link_key);
    connection.execute(register).await?;
    Ok(false)
}

fn lease_lost(cluster: &Weak<Cluster>, node: &str, main: &Handle) {
    tracing::warn!("node {node}: lease lost; dropping every game held here");
    let Some(registry) = cluster.upgrade().and_then(|c| c.registry()) else { return };
    main.spawn(async move {
        registry.drop_local_games();
        crate::matchmaking::republish(&registry).await;
    });
}
