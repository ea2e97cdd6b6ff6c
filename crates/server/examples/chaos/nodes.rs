//! The chaos run's nodes: `checkers serve` processes of the same build, each on an address of
//! its own that it keeps across restarts, and the database they share (a PostgreSQL schema
//! made for the run, or a SQLite file).

use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};

/// How long a node may take to start listening.
const START_PATIENCE: Duration = Duration::from_secs(60);

/// The `checkers` binary of the build this example belongs to (`target/release/checkers`
/// beside `target/release/examples/chaos`).
pub fn checkers_binary() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe()?;
    let dir = exe.parent().and_then(Path::parent).context("the target directory")?;
    let bin = dir.join(format!("checkers{}", std::env::consts::EXE_SUFFIX));
    if !bin.exists() {
        bail!("{} is missing: build it first (cargo build --release -p checkers)", bin.display());
    }
    Ok(bin)
}

/// One `checkers serve` process, started again on the same address after each kill.
pub struct Node {
    pub addr: SocketAddr,
    child: Option<Child>,
    binary: PathBuf,
    db: String,
    log: PathBuf,
}

impl Node {
    /// Starts a node on a free loopback port; its standard error goes to `log`.
    pub fn start(binary: &Path, db: &str, log: PathBuf) -> anyhow::Result<Node> {
        let addr = std::net::TcpListener::bind("127.0.0.1:0")?.local_addr()?;
        let mut node = Node { addr, child: None, binary: binary.to_path_buf(), db: db.to_string(), log };
        node.restart()?;
        Ok(node)
    }

    /// Starts the node's process (again) and waits until it listens.
    pub fn restart(&mut self) -> anyhow::Result<()> {
        let log = File::options().create(true).append(true).open(&self.log)?;
        let mut child = Command::new(&self.binary)
            .args(["serve", "--addr", &self.addr.to_string(), "--db", &self.db])
            .stdout(Stdio::piped())
            .stderr(log)
            .spawn()
            .with_context(|| format!("starting {}", self.binary.display()))?;
        let stdout = child.stdout.take().context("the node's standard output")?;
        let (first_line, arrived) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut stdout = BufReader::new(stdout);
            let mut line = String::new();
            let _ = stdout.read_line(&mut line);
            let _ = first_line.send(line);
            // Whatever else it writes is read and dropped, so that it never blocks on a full pipe.
            let _ = std::io::copy(&mut stdout, &mut std::io::sink());
        });
        let line = arrived.recv_timeout(START_PATIENCE).unwrap_or_default();
        if !line.starts_with("listening on") {
            let _ = child.kill();
            let _ = child.wait();
            bail!(
                "the node on {} did not start (first line {line:?}); its log is {}",
                self.addr,
                self.log.display()
            );
        }
        self.child = Some(child);
        Ok(())
    }

    /// SIGKILL: nothing of the node's own runs.
    pub fn kill(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// The node's resident memory in KiB (Linux), from `/proc`.
    pub fn rss_kib(&self) -> Option<u64> {
        let pid = self.child.as_ref()?.id();
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find_map(|l| l.strip_prefix("VmRSS:"))?;
        line.trim().trim_end_matches("kB").trim().parse().ok()
    }

    /// The node's `/metrics` text (over HTTP/1.0, so never chunked), if it answers.
    pub fn metrics(&self) -> Option<String> {
        let mut stream = TcpStream::connect_timeout(&self.addr, Duration::from_secs(2)).ok()?;
        stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
        write!(stream, "GET /metrics HTTP/1.0\r\nHost: {}\r\n\r\n", self.addr).ok()?;
        let mut response = String::new();
        stream.read_to_string(&mut response).ok()?;
        Some(response.split_once("\r\n\r\n")?.1.to_string())
    }

    /// The CPU time the node's current process has used, in seconds (Linux).
    pub fn cpu_seconds(&self) -> Option<f64> {
        cpu_seconds(&self.child.as_ref()?.id().to_string())
    }
}

/// A gauge's or counter's value in a `/metrics` text.
pub fn metric(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// A histogram of a `/metrics` text: its count, and the bucket bounds (in ms) within which
/// half and 99% of its observations fall.
pub fn histogram(text: &str, name: &str) -> Option<(f64, f64, f64)> {
    let count = metric(text, &format!("{name}_count"))?;
    let prefix = format!("{name}_bucket{{le=\"");
    let buckets: Vec<(f64, f64)> = text
        .lines()
        .filter_map(|l| {
            let (bound, value) = l.strip_prefix(&prefix)?.split_once("\"} ")?;
            Some((bound.parse().unwrap_or(f64::INFINITY), value.trim().parse().ok()?))
        })
        .collect();
    let within =
        |q: f64| buckets.iter().find(|(_, n)| *n >= q * count).map_or(f64::INFINITY, |(b, _)| b * 1000.0);
    Some((count, within(0.5), within(0.99)))
}

/// The CPU time (user and system) process `pid` (or `self`) has used, in seconds, from
/// `/proc` (Linux; counted in the usual 100 ticks a second).
pub fn cpu_seconds(pid: &str) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (in parentheses): utime and stime are the 12th and
    // 13th of them.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill();
    }
}

/// The run's database: a schema of its own in a PostgreSQL database (dropped at the end),
/// or a SQLite file.
pub struct Database {
    /// What the nodes are given as `--db`.
    pub url: String,
    /// The PostgreSQL database's URL and the schema made in it.
    schema: Option<(String, String)>,
}

impl Database {
    /// A fresh schema in the PostgreSQL database `postgres`, else a SQLite file in `dir`.
    pub async fn new(postgres: Option<&str>, dir: &Path) -> anyhow::Result<Database> {
        let Some(base) = postgres else {
            return Ok(Database { url: dir.join("chaos.db").display().to_string(), schema: None });
        };
        let name = format!("chaos_{}", checkers_server::token::new_game_id());
        let pool = sqlx::PgPool::connect(base).await.context("connecting to --db")?;
        sqlx::query(&format!("CREATE SCHEMA {name}")).execute(&pool).await?;
        pool.close().await;
        let url =
            format!("{base}{}options=-c%20search_path%3D{name}", if base.contains('?') { '&' } else { '?' });
        Ok(Database { url, schema: Some((base.to_string(), name)) })
    }

    /// The schema's name, on PostgreSQL.
    pub fn schema(&self) -> Option<&str> {
        self.schema.as_ref().map(|(_, name)| name.as_str())
    }

    /// A URL sqlx opens: the SQLite file's with its scheme.
    pub fn sqlx_url(&self) -> String {
        match self.schema {
            Some(_) => self.url.clone(),
            None => format!("sqlite://{}", self.url),
        }
    }

    /// Drops the run's schema (its games with it).
    pub async fn drop_schema(&self) -> anyhow::Result<()> {
        if let Some((base, name)) = &self.schema {
            let pool = sqlx::PgPool::connect(base).await?;
            sqlx::query(&format!("DROP SCHEMA {name} CASCADE")).execute(&pool).await?;
            pool.close().await;
        }
        Ok(())
    }
}

/// The nodes, started and killed in turn; the peak memory seen of each.
pub struct Cluster {
    pub nodes: Vec<Node>,
    /// Per node: the most resident memory seen (KiB), the games in play then (in all), and
    /// the node's own live games and WebSocket connections then.
    pub peak: Vec<Peak>,
    /// Per node: the CPU time its processes used, in seconds (of those stopped so far).
    pub cpu: Vec<f64>,
    pub kills: Vec<Kill>,
}

/// A node's most resident memory, and what it held then.
#[derive(Clone, Copy, Default)]
pub struct Peak {
    pub rss_kib: u64,
    pub games_in_play: usize,
    pub live_games: f64,
    pub connections: f64,
}

/// A node killed and started again.
pub struct Kill {
    pub at: Duration,
    pub node: usize,
    /// How long its new process took to listen.
    pub restarted_in: Duration,
}

impl Cluster {
    pub fn start(count: usize, binary: &Path, db: &str, logs: &Path) -> anyhow::Result<Cluster> {
        let nodes = (0..count)
            .map(|i| Node::start(binary, db, logs.join(format!("node{}.log", i + 1))))
            .collect::<anyhow::Result<Vec<_>>>()?;
        Ok(Cluster { peak: vec![Peak::default(); count], cpu: vec![0.0; count], nodes, kills: Vec::new() })
    }

    /// No nodes (what is left once they are taken away).
    pub fn none() -> Cluster {
        Cluster { nodes: Vec::new(), peak: Vec::new(), cpu: Vec::new(), kills: Vec::new() }
    }

    /// Notes each node's resident memory, with `games` in play.
    pub fn sample(&mut self, games: usize) {
        for (node, peak) in self.nodes.iter().zip(&mut self.peak) {
            let Some(rss_kib) = node.rss_kib().filter(|rss| *rss > peak.rss_kib) else { continue };
            let text = node.metrics().unwrap_or_default();
            let live_games = metric(&text, "checkers_live_games").unwrap_or(f64::NAN);
            let connections = metric(&text, "checkers_websocket_connections").unwrap_or(f64::NAN);
            *peak = Peak { rss_kib, games_in_play: games, live_games, connections };
        }
    }

    /// Kills node `node` with SIGKILL and starts it again on its address.
    pub fn kill_and_restart(&mut self, node: usize, since: Instant) -> anyhow::Result<()> {
        let at = since.elapsed();
        self.cpu[node] += self.nodes[node].cpu_seconds().unwrap_or(0.0);
        self.nodes[node].kill();
        let restarting = Instant::now();
        self.nodes[node].restart()?;
        self.kills.push(Kill { at, node, restarted_in: restarting.elapsed() });
        Ok(())
    }

    /// Each node's `/metrics` text now (empty if it does not answer).
    pub fn metrics(&self) -> Vec<String> {
        self.nodes.iter().map(|n| n.metrics().unwrap_or_default()).collect()
    }

    /// Kills every node, counting their CPU time.
    pub fn stop_all(&mut self) {
        for (node, cpu) in self.nodes.iter_mut().zip(&mut self.cpu) {
            *cpu += node.cpu_seconds().unwrap_or(0.0);
            node.kill();
        }
    }
}
