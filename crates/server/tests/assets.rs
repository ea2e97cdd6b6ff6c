//! The page and its files over a real socket: compressed for a client that takes gzip, and
//! tagged so that a browser's copy is checked with `If-None-Match` and answered 304.

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// A response as read off the socket: status, headers (names in lower case) and body bytes
/// (chunked bodies joined).
struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

fn get(addr: SocketAddr, path: &str, headers: &[(&str, &str)]) -> Reply {
    let mut stream = TcpStream::connect(addr).expect("http connects");
    stream.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let extra: String = headers.iter().map(|(n, v)| format!("{n}: {v}\r\n")).collect();
    write!(stream, "GET {path} HTTP/1.1\r\nHost: {addr}\r\n{extra}Connection: close\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("http response");
    let split = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a head");
    let head = String::from_utf8(raw[..split].to_vec()).unwrap();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let mut body = raw[split + 4..].to_vec();
    if headers.iter().any(|(n, v)| n == "transfer-encoding" && v == "chunked") {
        body = dechunk(&body);
    }
    Reply { status, headers, body }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let end = raw.windows(2).position(|w| w == b"\r\n").expect("a chunk size");
        let size = usize::from_str_radix(std::str::from_utf8(&raw[..end]).unwrap().trim(), 16).unwrap();
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[end + 2..end + 2 + size]);
        raw = &raw[end + 2 + size + 2..];
    }
}

fn gunzip(bytes: &[u8]) -> String {
    let mut text = String::new();
    flate2::read::GzDecoder::new(bytes).read_to_string(&mut text).expect("gzip");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_are_gzipped_when_asked_and_a_known_copy_is_answered_304() {
    let dir = tempfile::tempdir().unwrap();
    let running = common::server_in(&dir).await;
    let addr = running.addr;
    for path in ["/", "/js/board.js", "/style.css", "/g/nosuchgame"] {
        let plain = get(addr, path, &[]);
        assert!([200, 404].contains(&plain.status), "{path}: {}", plain.status);
        assert_eq!(plain.header("content-encoding"), None, "{path}");
        let tag = plain.header("etag").unwrap_or_else(|| panic!("{path} has an ETag")).to_string();
        assert_eq!(plain.header("cache-control"), Some("no-cache"), "{path}");

        let zipped = get(addr, path, &[("Accept-Encoding", "gzip")]);
        assert_eq!(zipped.status, plain.status, "{path}");
        assert_eq!(zipped.header("content-encoding"), Some("gzip"), "{path}");
        assert!(
            zipped.body.len() < plain.body.len(),
            "{path}: {} >= {}",
            zipped.body.len(),
            plain.body.len()
        );
        assert_eq!(gunzip(&zipped.body).as_bytes(), plain.body, "{path}");
        assert_eq!(zipped.header("etag"), Some(tag.as_str()), "{path}");

        if plain.status == 200 {
            let again = get(addr, path, &[("If-None-Match", &tag), ("Accept-Encoding", "gzip")]);
            assert_eq!(again.status, 304, "{path}");
            assert!(again.body.is_empty(), "{path}");
            assert_eq!(again.header("etag"), Some(tag.as_str()), "{path}");
            let changed = get(addr, path, &[("If-None-Match", "W/\"0123456789abcdef\"")]);
            assert_eq!((changed.status, changed.body), (200, plain.body.clone()), "{path}");
        }
    }
    running.stop().await.unwrap();
}
