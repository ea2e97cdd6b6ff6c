//! Operations over real sockets: `--log-format json` writes JSON lines.

mod common;

use std::time::Duration;

use common::ServerProcess;
use serde_json::Value;

#[tokio::test]
async fn json_logs_are_one_object_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let server = ServerProcess::try_start_with(&common::sqlite_file(&dir), &["--log-format", "json"])
        .unwrap_or_else(|why| panic!("{why}"));
    // The line saying where to open the page follows the first line on stdout at once.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let logged = loop {
        let stderr = server.stderr.lock().unwrap().clone();
        if stderr.contains("in a browser") || std::time::Instant::now() > deadline {
            break stderr;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let line =
        logged.lines().find(|line| line.contains("in a browser")).unwrap_or_else(|| panic!("{logged}"));
    let entry: Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
    assert_eq!(entry["level"], "INFO", "{entry}");
    assert!(entry["fields"]["message"].as_str().unwrap().contains(&server.addr.to_string()), "{entry}");
    assert!(entry["timestamp"].is_string(), "{entry}");
}
