//! The HTTP door: accepts connections, holds each client to its share of them, and serves
//! each with a deadline on its request headers (see [`ClientLimits`]). Every request carries its
//! peer's address as axum's `ConnectInfo<SocketAddr>`.

use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, watch};
use tower_service::Service;

use crate::limits::{client_key, ClientLimits, Shares};

/// Connections open per client, each client held to `cap`.
struct OpenConnections {
    cap: usize,
    open: Shares,
}

impl OpenConnections {
    /// A place for one more connection of `client`, or `None` if it holds its share already.
    fn admit(self: &Arc<Self>, client: IpAddr) -> Option<ConnectionPlace> {
        self.open.take(client, self.cap).then(|| ConnectionPlace { connections: self.clone(), client })
    }
}

/// One open connection's place in its client's share, given back when dropped.
struct ConnectionPlace {
    connections: Arc<OpenConnections>,
    client: IpAddr,
}

impl Drop for ConnectionPlace {
    fn drop(&mut self) {
        self.connections.open.give_back(self.client);
    }
}

/// A connection that holds its place for as long as it lives: an HTTP connection upgraded to a
/// WebSocket keeps it until the WebSocket closes.
struct Counted {
    tcp: TcpStream,
    _place: ConnectionPlace,
}

impl AsyncRead for Counted {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write(cx, buf)
    }
    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.tcp).poll_write_vectored(cx, bufs)
    }
    fn is_write_vectored(&self) -> bool {
        self.tcp.is_write_vectored()
    }
    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_flush(cx)
    }
    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.tcp).poll_shutdown(cx)
    }
}

/// Serves `app` on `listener` until `stop` completes, then stops accepting and waits for the
/// HTTP connections to finish their requests (WebSockets already handed over are not waited
/// for).
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &ClientLimits,
    stop: impl Future<Output = ()>,
) -> io::Result<()> {
    let connections =
        Arc::new(OpenConnections { cap: limits.connections_per_client, open: Shares::default() });
    let (stopping, stop_seen) = watch::channel(false);
    // Every connection task holds a sender: `recv` ends once all of them have ended.
    let (running, mut all_ended) = mpsc::channel::<()>(1);
    tokio::pin!(stop);
    loop {
        let (tcp, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_failed(e).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        // Past its share, a client's connection is closed at once, before anything is read.
        let Some(place) = connections.admit(client_key(peer.ip())) else { continue };
        // Moves are small messages that must go out at once, not wait to be coalesced (Nagle).
        let _ = tcp.set_nodelay(true);
        let io = TokioIo::new(Counted { tcp, _place: place });
        let connection =
            serve_connection(io, peer, app.clone(), limits.header_read_timeout, stop_seen.clone());
        let running = running.clone();
        tokio::spawn(async move {
            connection.await;
            drop(running);
        });
    }
    drop(listener);
    let _ = stopping.send(true);
    drop(running);
    let _ = all_ended.recv().await;
    Ok(())
}

/// A failed `accept`: the connection is gone (nothing to do), or the process is out of file
/// descriptors or memory, when accepting again at once would spin.
async fn accept_failed(e: io::Error) {
    let gone = matches!(
        e.kind(),
        io::ErrorKind::ConnectionRefused | io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset
    );
    if !gone {
        tracing::warn!("cannot accept a connection: {e}");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// One HTTP/1 connection: requests go to `app` with the peer's address; upgrades (the
/// WebSocket) are handed over; the headers of each request must arrive within
/// `header_read_timeout` of the server starting to wait for them.
async fn serve_connection(
    io: TokioIo<Counted>,
    peer: SocketAddr,
    app: Router,
    header_read_timeout: Duration,
    mut stopping: watch::Receiver<bool>,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(ConnectInfo(peer));
        app.clone().call(request)
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(header_read_timeout);
    let connection = builder.serve_connection(io, service).with_upgrades();
    tokio::pin!(connection);
    let stop = async move {
        let _ = stopping.wait_for(|stop| *stop).await;
    };
    tokio::select! {
        // An error here is the client's (gone, too slow, not HTTP): nothing to report.
        _ = connection.as_mut() => {}
        () = stop => {
            connection.as_mut().graceful_shutdown();
            let _ = connection.await;
        }
    }
}
