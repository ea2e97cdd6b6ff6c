//! `checkers hub`: the engine over the Hub protocol on standard input and output.
//!
//! The protocol itself (parsing, positions, numbering, answers) is
//! `checkers_engine::hub::Hub`; this is only the loop around it. A reader thread turns
//! standard input into events; searches run on a worker thread, so `ping`, `stop` and
//! `ponder-hit` are heard while the engine thinks. Lines that arrive while a search is being
//! stopped wait until it has answered `done`, so a GUI may send `stop` and the next search
//! at once.

use std::collections::VecDeque;
use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::{self, JoinHandle};

use checkers_engine::hub::{Action, GoMode, Hub, SearchJob};
use checkers_engine::{Engine, SearchResult, StopHandle};

#[derive(clap::Args, Debug)]
pub struct Args {}

enum Event {
    Line(String),
    /// Standard input closed: the GUI is gone.
    Eof,
    /// The worker finished a search and hands the engine back.
    SearchDone(Box<Engine>, SearchResult),
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
        for line in std::io::stdin().lock().lines() {
            let Ok(line) = line else { break };
            if reader_events.send(Event::Line(line)).is_err() {
                return;
            }
        }
        let _ = reader_events.send(Event::Eof);
    });
    serve(&events, &inbox);
    Ok(())
}

fn serve(events: &Sender<Event>, inbox: &Receiver<Event>) {
    let mut hub = Hub::new();
    let mut engine: Option<Box<Engine>> = None;
    let mut running: Option<Running> = None;
    let mut waiting: VecDeque<String> = VecDeque::new();
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
            Event::SearchDone(returned, result) => {
                engine = Some(returned);
                let Some(done) = running.take() else { continue };
                let _ = done.worker.join();
                if done.then_think {
                    let job = done.job.thinking();
                    running = Some(start(&job, &mut engine, &hub, events));
                } else {
                    if !send(&done.job.done_line(&result)) {
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
                let reply = hub.handle(&line);
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
                        engine = Some(Box::new(Engine::new(options)));
                        // The endgame database is solved while the GUI gets ready; the
                        // first `go` waits for it before its clock starts.
                        let variant = hub.variant();
                        std::thread::spawn(move || Engine::prepare_endgame(variant));
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

/// Starts `job` on a worker thread with the engine (built now if `init` never came).
fn start(job: &SearchJob, engine: &mut Option<Box<Engine>>, hub: &Hub, events: &Sender<Event>) -> Running {
    let mut owned = engine.take().unwrap_or_else(|| Box::new(Engine::new(hub.engine_options())));
    let stop = StopHandle::new();
    let worker_stop = stop.clone();
    let worker_job = job.clone();
    let events = events.clone();
    let worker = thread::spawn(move || {
        let result = worker_job.run(&mut owned, &worker_stop, &mut |line| {
            send(&line);
        });
        let _ = events.send(Event::SearchDone(owned, result));
    });
    Running { job: job.clone(), stop, worker, stopping: false, then_think: false }
}
