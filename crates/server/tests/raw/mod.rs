//! Raw HTTP and WebSocket over TCP, for what a well-behaved client library will not do:
//! connecting from a chosen loopback address, headers sent slowly or never finished, frames
//! the protocol forbids. Shared by the hardening tests and the hostile-client example.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};

/// How long a request waits for its answer before it is given up.
const PATIENCE: Duration = Duration::from_secs(30);

/// A TCP connection to `addr` from `from` (on Linux every 127.x.y.z is this machine, so a test
/// can be several clients), or from the default address when `from` is `None`.
pub async fn connect_from(addr: SocketAddr, from: Option<[u8; 4]>) -> std::io::Result<TcpStream> {
    let Some(from) = from else { return TcpStream::connect(addr).await };
    let socket = TcpSocket::new_v4()?;
    socket.bind(SocketAddr::from((from, 0)))?;
    socket.connect(addr).await
}

/// A TCP connection from 127.0.0.`n`.
pub async fn tcp_from(addr: SocketAddr, n: u8) -> TcpStream {
    connect_from(addr, Some([127, 0, 0, n])).await.expect("tcp connects")
}

/// An HTTP answer as it came.
#[derive(Debug)]
pub struct Reply {
    /// 0 when the connection closed with no answer.
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Reply {
    /// A header's value (the name in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().skip(1).find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.trim().eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

/// Reads an answer until the server closes the connection (`Connection: close` was asked).
pub async fn read_reply(tcp: &mut TcpStream) -> Reply {
    let mut bytes = Vec::new();
    let _ = tokio::time::timeout(PATIENCE, tcp.read_to_end(&mut bytes)).await;
    let text = String::from_utf8_lossy(&bytes).to_string();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    Reply { status, head: head.to_string(), body: body.to_string() }
}

/// A GET of `path` on a new connection from `from`, with `headers` (each line ending in
/// `\r\n`) besides `Host` and `Connection: close`.
pub async fn get(addr: SocketAddr, from: Option<[u8; 4]>, path: &str, headers: &str) -> Reply {
    let Ok(mut tcp) = connect_from(addr, from).await else {
        return Reply { status: 0, head: String::new(), body: String::new() };
    };
    let request = format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\n{headers}Connection: close\r\n\r\n");
    if tcp.write_all(request.as_bytes()).await.is_err() {
        return Reply { status: 0, head: String::new(), body: String::new() };
    }
    read_reply(&mut tcp).await
}

/// A GET from 127.0.0.`n`.
pub async fn get_from(addr: SocketAddr, n: u8, path: &str) -> Reply {
    get(addr, Some([127, 0, 0, n]), path, "").await
}

/// How long until the server closes the connection (reading and dropping whatever it sends
/// first), or `None` if it is still open after `patience`.
pub async fn closed_within(tcp: &mut TcpStream, patience: Duration) -> Option<Duration> {
    let start = Instant::now();
    let mut buffer = [0u8; 4096];
    loop {
        match tokio::time::timeout_at((start + patience).into(), tcp.read(&mut buffer)).await {
            Err(_) => return None,
            Ok(Ok(0) | Err(_)) => return Some(start.elapsed()),
            Ok(Ok(_)) => continue,
        }
    }
}

/// Asks `tcp` to become a WebSocket (with `headers` besides the usual ones) and returns the
/// answer's head; the connection is a WebSocket if its status is 101.
pub async fn ws_handshake(tcp: &mut TcpStream, addr: SocketAddr, headers: &str) -> Reply {
    let request = format!(
        "GET /ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n{headers}\r\n"
    );
    if tcp.write_all(request.as_bytes()).await.is_err() {
        return Reply { status: 0, head: String::new(), body: String::new() };
    }
    // Read the head byte by byte: what follows it is the WebSocket's.
    let mut head = Vec::new();
    let mut byte = [0u8; 1];
    while !head.ends_with(b"\r\n\r\n") {
        match tokio::time::timeout(PATIENCE, tcp.read(&mut byte)).await {
            Ok(Ok(1)) => head.push(byte[0]),
            _ => break,
        }
    }
    let head = String::from_utf8_lossy(&head).to_string();
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut reply = Reply { status, head, body: String::new() };
    // A refusal's body, as long as it says (the connection stays open for more requests).
    let length: usize = reply.header("content-length").and_then(|n| n.parse().ok()).unwrap_or(0);
    let mut body = vec![0u8; length];
    if status != 101
        && tokio::time::timeout(PATIENCE, tcp.read_exact(&mut body)).await.is_ok_and(|r| r.is_ok())
    {
        reply.body = String::from_utf8_lossy(&body).to_string();
    }
    reply
}

/// A client frame: `first` is the first byte (FIN, reserved bits and opcode), the payload
/// masked as a client must.
pub fn frame(first: u8, payload: &[u8]) -> Vec<u8> {
    let mask = [0x37, 0xfa, 0x21, 0x3d];
    let mut bytes = vec![first];
    match payload.len() {
        n if n < 126 => bytes.push(0x80 | n as u8),
        n if n <= 0xffff => {
            bytes.push(0x80 | 126);
            bytes.extend_from_slice(&(n as u16).to_be_bytes());
        }
        n => {
            bytes.push(0x80 | 127);
            bytes.extend_from_slice(&(n as u64).to_be_bytes());
        }
    }
    bytes.extend_from_slice(&mask);
    bytes.extend(payload.iter().enumerate().map(|(i, b)| b ^ mask[i % 4]));
    bytes
}

/// The code of the close frame the server sends next, skipping other frames; `None` if the
/// connection ends without one.
pub async fn close_code(tcp: &mut TcpStream) -> Option<u16> {
    loop {
        let mut header = [0u8; 2];
        tokio::time::timeout(PATIENCE, tcp.read_exact(&mut header)).await.ok()?.ok()?;
        let length = match header[1] & 0x7f {
            126 => {
                let mut n = [0u8; 2];
                tcp.read_exact(&mut n).await.ok()?;
                u64::from(u16::from_be_bytes(n))
            }
            127 => {
                let mut n = [0u8; 8];
                tcp.read_exact(&mut n).await.ok()?;
                u64::from_be_bytes(n)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0u8; length as usize];
        tcp.read_exact(&mut payload).await.ok()?;
        if header[0] & 0x0f == 0x8 {
            return (payload.len() >= 2).then(|| u16::from_be_bytes([payload[0], payload[1]]));
        }
    }
}
