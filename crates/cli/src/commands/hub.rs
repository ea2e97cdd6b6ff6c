//! `checkers hub`: the engine over the Hub protocol on standard input and output, in every
//! variant.
//!
//! The protocol itself (parsing, positions, numbering, answers) is
//! `checkers_engine::hub::Hub`; this is only the loop around it. The engine
//! (`SessionEngine`, of whichever variant the session plays) is kept between searches. A reader thread turns
//! standard input into events; searches run on a worker thread, so `ping`, `stop` and
//! `ponder-hit` are heard while the engine thinks. Lines that arrive while a search is being
//! stopped wait until it has answered `done`, so a GUI may send `stop` and the next search
//! at once.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use checkers_engine::hub::{
    error_line, Action, GoMode, Hub, HubError, HubVariant, SearchJob, SessionEngine, MAX_LINE_BYTES,
};
use checkers_engine::{Engine, StopHandle};

#[derive(clap::Args, Debug)]
pub struct Args {}

enum Event {
    /// A line of input, or why it was refused.
    Line(Result<String, HubError>),
    /// Standard input closed: the GUI is gone.
    Eof,
    /// The worker finished a search and hands the engine back, with the `done` line that
    /// answers the search.
    SearchDone(Box<SessionEngine>, String),
}

/// A search on the worker thread.
struct Running {
    job: SearchJob,
    stop: StopHandle,
    worker: JoinHandle<()>,
    /// The search was told to stop; lines wait until it is done.
    stopping: bool,
    /// A `ponder-hit` came: when the ponder search ends, search the same position normally
    /// instead of answering.
    then_think: bool,
}

/// Writes one line and flushes; `false` once standard output is gone.
fn send(line: &str) -> bool {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{line}").and_then(|()| out.flush()).is_ok()
}

pub fn run(_args: Args) -> anyhow::Result<()> {
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    thread::spawn(move || {
        let mut input = std::io::stdin().lock();
        while let Some(line) = read_line(&mut input) {
            if reader_events.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader_events.send(Event::Eof);
    });
    serve(&events, &inbox);
    Ok(())
}

/// The next line of input without its `\n` (or `\r\n`); `None` at the end of input. A line
/// that is not UTF-8 or is longer than [`MAX_LINE_BYTES`] is refused and skipped whole, so
/// one bad line costs only itself (a GUI's stray byte must not end the session).
fn read_line(input: &mut impl BufRead) -> Option<Result<String, HubError>> {
    let mut bytes = Vec::new();
    let mut too_long = false;
    let mut newline = false;
    while !newline {
        let available = match input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        if available.is_empty() {
            break;
        }
        let (content, used) = match available.iter().position(|&b| b == b'\n') {
            Some(i) => {
                newline = true;
                (&available[..i], i + 1)
            }
            None => (available, available.len()),
        };
        if !too_long {
            if bytes.len() + content.len() > MAX_LINE_BYTES {
                // The rest of the line is read and dropped; the line is refused whole.
                too_long = true;
                bytes = Vec::new();
            } else {
                bytes.extend_from_slice(content);
            }
        }
        input.consume(used);
    }
    if too_long {
        return Some(Err(HubError::TooLong(MAX_LINE_BYTES)));
    }
    if !newline && bytes.is_empty() {
        return None;
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Some(String::from_utf8(bytes).map_err(|_| HubError::NotText))
}

fn serve(events: &Sender<Event>, inbox: &Receiver<Event>) {
    let mut hub = Hub::new();
    let mut engine: Option<Box<SessionEngine>> = None;
    let mut running: Option<Running> = None;
    let mut waiting: VecDeque<Result<String, HubError>> = VecDeque::new();
    loop {
        let busy_stopping = running.as_ref().is_some_and(|r| r.stopping);
        let event = match waiting.pop_front() {
            Some(line) if !busy_stopping => Event::Line(line),
            other => {
                if let Some(line) = other {
                    waiting.push_front(line);
                }
                match inbox.recv() {
                    Ok(event) => event,
                    Err(_) => return,
                }
            }
        };
        match event {
            Event::Eof => {
                if let Some(r) = &running {
                    r.stop.stop();
                }
                return;
            }
            Event::SearchDone(returned, done_line) => {
                engine = Some(returned);
                let Some(done) = running.take() else { continue };
                let _ = done.worker.join();
                if done.then_think {
                    let job = done.job.thinking();
                    running = Some(start(&job, &mut engine, &hub, events));
                } else {
                    if !send(&done_line) {
                        return;
                    }
                    hub.search_finished();
                }
            }
            Event::Line(line) => {
                if running.as_ref().is_some_and(|r| r.stopping) {
                    waiting.push_back(line);
                    continue;
                }
                let line = match line {
                    Ok(line) => line,
                    Err(refused) => {
                        if !send(&error_line(&refused)) {
                            return;
                        }
                        continue;
                    }
                };
                let reply = hub.handle(&line);
                if let (Action::Init(_), HubVariant::Eight(variant)) = (&reply.action, hub.variant()) {
                    // A GUI may start the clock as soon as it reads `ready`: solve the endgame
                    // database first (about a second), so the first `go` is not late.
                    Engine::prepare_endgame(variant);
                }
                for answer in &reply.lines {
                    if !send(answer) {
                        return;
                    }
                }
                match reply.action {
                    Action::None => {}
                    Action::Quit => {
                        if let Some(r) = &running {
                            r.stop.stop();
                        }
                        return;
                    }
                    Action::Init(options) => {
                        engine = Some(Box::new(SessionEngine::new(hub.variant(), options)));
                    }
                    Action::NewGame => {
                        if let Some(engine) = &mut engine {
                            engine.new_game();
                        }
                    }
                    Action::Search(job) => running = Some(start(&job, &mut engine, &hub, events)),
                    Action::Stop => {
                        if let Some(r) = &mut running {
                            r.stop.stop();
                            r.stopping = true;
                        }
                    }
                    Action::PonderHit => {
                        if let Some(r) = running.as_mut().filter(|r| r.job.mode == GoMode::Ponder) {
                            r.stop.stop();
                            r.stopping = true;
                            r.then_think = true;
                        }
                    }
                }
            }
        }
    }
}

/// Starts `job` on a worker thread with the engine (built now if `init` never came; rebuilt
/// by the search if the variant changed since).
fn start(
    job: &SearchJob,
    engine: &mut Option<Box<SessionEngine>>,
    hub: &Hub,
    events: &Sender<Event>,
) -> Running {
    let mut owned =
        engine.take().unwrap_or_else(|| Box::new(SessionEngine::new(hub.variant(), hub.engine_options())));
    let stop = StopHandle::new();
    let worker_stop = stop.clone();
    let worker_job = job.clone();
    let events = events.clone();
    let worker = thread::spawn(move || {
        let done_line = worker_job.run(&mut owned, &worker_stop, &mut |line| {
            send(&line);
        });
        let _ = events.send(Event::SearchDone(owned, done_line));
    });
    Running { job: job.clone(), stop, worker, stopping: false, then_think: false }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every line `read_line` gives for `bytes`, read through a buffer of `capacity` bytes
    /// (small, so that lines arrive in pieces).
    fn read_all(bytes: &[u8], capacity: usize) -> Vec<Result<String, HubError>> {
        let mut input = std::io::BufReader::with_capacity(capacity, bytes);
        std::iter::from_fn(|| read_line(&mut input)).collect()
    }

    /// What the reader must give: the input split at each `\n` (nothing after a final one),
    /// one `\r` taken off the end of a line, then each line judged on its own.
    fn model(bytes: &[u8]) -> Vec<Result<String, HubError>> {
        let mut pieces: Vec<&[u8]> = bytes.split(|&b| b == b'\n').collect();
        if pieces.last().is_some_and(|p| p.is_empty()) {
            pieces.pop();
        }
        pieces
            .into_iter()
            .map(|piece| {
                if piece.len() > MAX_LINE_BYTES {
                    return Err(HubError::TooLong(MAX_LINE_BYTES));
                }
                let piece = piece.strip_suffix(b"\r").unwrap_or(piece);
                String::from_utf8(piece.to_vec()).map_err(|_| HubError::NotText)
            })
            .collect()
    }

    #[test]
    fn bad_lines_are_refused_alone() {
        let lines = read_all(b"ping\r\n\xffgo\n\nlevel nodes=1\r\nquit", 4);
        assert_eq!(
            lines,
            vec![
                Ok("ping".to_string()),
                Err(HubError::NotText),
                Ok(String::new()),
                Ok("level nodes=1".to_string()),
                Ok("quit".to_string()),
            ]
        );
        let mut long = vec![b'a'; MAX_LINE_BYTES];
        long.extend_from_slice(b"\n");
        long.extend(std::iter::repeat_n(b'b', MAX_LINE_BYTES + 1));
        long.extend_from_slice(b"\nping\n");
        let lines = read_all(&long, 8192);
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].as_ref().map(String::len), Ok(MAX_LINE_BYTES));
        assert_eq!(lines[1], Err(HubError::TooLong(MAX_LINE_BYTES)));
        assert_eq!(lines[2], Ok("ping".to_string()));
        assert!(read_all(b"", 4).is_empty());
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 2000, failure_persistence: None, ..ProptestConfig::default() })]

        #[test]
        fn reader_agrees_with_the_model(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'\n'), Just(b'\r'), Just(0xff), Just(0xc3), Just(0xa9), any::<u8>(), b'a'..=b'z'],
                0..200,
            ),
            capacity in 1usize..16,
        ) {
            prop_assert_eq!(read_all(&bytes, capacity), model(&bytes));
        }
    }
}
