//! A Hub session that runs each search to its end before reading on.

use super::error::HubError;
use super::game::SessionEngine;
use super::session::{Action, Hub};
use super::wire::error_line;
use crate::limits::StopHandle;

/// A Hub session that runs each search to its end before reading on: for scripts and tests.
/// Ponder searches run as normal ones (there is no `ponder-hit` to wait for), and a search
/// under `level infinite` alone would never end, so it is refused.
pub struct SyncSession {
    hub: Hub,
    engine: Option<SessionEngine>,
}

impl Default for SyncSession {
    fn default() -> SyncSession {
        SyncSession::new()
    }
}

impl SyncSession {
    pub fn new() -> SyncSession {
        SyncSession { hub: Hub::new(), engine: None }
    }

    pub fn hub(&self) -> &Hub {
        &self.hub
    }

    /// The engine, once built (by `init` or the first search).
    pub fn engine(&self) -> Option<&SessionEngine> {
        self.engine.as_ref()
    }

    /// Feeds one line; returns every line the engine sends in answer (for `go`, the `info`
    /// lines and the `done` line). `None` after `quit`.
    pub fn feed(&mut self, line: &str) -> Option<Vec<String>> {
        let reply = self.hub.handle(line);
        let mut out = reply.lines;
        match reply.action {
            Action::None | Action::Stop | Action::PonderHit => {}
            Action::Quit => return None,
            Action::Init(options) => self.engine = Some(SessionEngine::new(self.hub.variant(), options)),
            Action::NewGame => {
                if let Some(engine) = &mut self.engine {
                    engine.new_game();
                }
            }
            Action::Search(job) => {
                let job = job.thinking();
                if job.limits.is_unbounded() {
                    out.push(error_line(&HubError::BadValue {
                        argument: "level".to_string(),
                        value: "infinite".to_string(),
                        expected: "a bounded level in a session that cannot be stopped".into(),
                    }));
                } else {
                    let (variant, options) = (self.hub.variant(), self.hub.engine_options());
                    let engine = self.engine.get_or_insert_with(|| SessionEngine::new(variant, options));
                    let done = job.run(engine, &StopHandle::new(), &mut |line| out.push(line));
                    out.push(done);
                }
                self.hub.search_finished();
            }
        }
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hub::{move_from_hub, move_to_hub, position_to_hub, Numbering};
    use checkers_rules::{Position, Variant};

    fn start(variant: Variant) -> Position {
        Position::start(variant)
    }

    fn session(lines: &[&str]) -> Vec<String> {
        let mut s = SyncSession::new();
        let mut out = Vec::new();
        for line in lines {
            match s.feed(line) {
                Some(l) => out.extend(l),
                None => break,
            }
        }
        out
    }

    #[test]
    fn handshake_lists_parameters_then_waits() {
        let out = session(&[
            "hub",
            "set-param name=variant value=russian",
            "set-param name=numbering value=pydraughts",
            "init",
            "ping",
            "quit",
            "ping",
        ]);
        assert_eq!(
            out[0],
            format!(
                "id name=checkers version={} author=\"the checkers project\" country=none",
                env!("CARGO_PKG_VERSION")
            )
        );
        assert_eq!(
            out[1],
            "param name=variant value=english type=enum values=\"english russian international brazilian \
             canadian frisian frysk antidraughts breakthrough italian spanish portuguese czech pool thai turkish\""
        );
        assert_eq!(out[2], "param name=numbering value=standard type=enum values=\"standard pydraughts\"");
        assert!(out[3].starts_with("param name=hash value=64 type=int"));
        assert!(out[4].starts_with("param name=threads value=1 type=int"));
        assert_eq!(out[5], "param name=book value=false type=bool");
        assert_eq!(&out[6..], ["wait", "ready", "pong"]);
    }

    /// With `book` on, a position of the opening book is answered at once with the book's
    /// best move, in the session's numbering; off (the default), the engine searches.
    #[test]
    fn the_book_answers_at_once_when_asked() {
        for (variant, numbering) in
            [("english", "standard"), ("russian", "standard"), ("russian", "pydraughts")]
        {
            let v: Variant = variant.parse().unwrap();
            let start = Position::start(v);
            let numbering_kind = Numbering::parse(numbering).unwrap();
            let best = crate::book::book(v).lookup(&start).unwrap()[0].mv;
            let expected = format!("done move={}", move_to_hub(&best, v, numbering_kind));
            let pos = format!("pos pos={}", position_to_hub(&start, numbering_kind));
            let variant_line = format!("set-param name=variant value={variant}");
            let numbering_line = format!("set-param name=numbering value={numbering}");
            let script = |book: &'static str| {
                vec![
                    variant_line.clone(),
                    numbering_line.clone(),
                    format!("set-param name=book value={book}"),
                    "set-param name=hash value=4".to_string(),
                    "init".to_string(),
                    pos.clone(),
                    "level depth=3".to_string(),
                    "go think".to_string(),
                ]
            };
            let script_on = script("true");
            let out = session(&script_on.iter().map(String::as_str).collect::<Vec<_>>());
            let after_ready = out.iter().position(|l| l == "ready").unwrap();
            assert_eq!(out[after_ready + 1..].len(), 2, "{out:?}");
            assert!(out[after_ready + 1].starts_with("info depth=0 score="), "{out:?}");
            assert_eq!(out[after_ready + 2], expected);
            let script_off = script("false");
            let out = session(&script_off.iter().map(String::as_str).collect::<Vec<_>>());
            assert!(out.iter().any(|l| l.starts_with("info depth=3 ")), "{out:?}");
        }
        let out = session(&["set-param name=book value=maybe"]);
        assert!(out[0].contains("true or false"), "{out:?}");
    }

    /// A scripted GUI session: a game position with moves, a depth level, the answer; then a
    /// forced capture, answered at once.
    #[test]
    fn scripted_session_searches_the_position_after_the_moves() {
        let out = session(&[
            "hub",
            "set-param name=hash value=4",
            "init",
            "new-game",
            "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 23-19\"",
            "level depth=6",
            "go think",
        ]);
        let after_ready = out.iter().position(|l| l == "ready").unwrap();
        let (done, infos) = out[after_ready + 1..].split_last().unwrap();
        assert!(infos.iter().all(|l| l.starts_with("info depth=")), "{infos:?}");
        assert!(infos.last().unwrap().starts_with("info depth=6 "), "{infos:?}");
        let mut p = start(Variant::English);
        for m in ["11-15", "23-19"] {
            p = p.play_unchecked(&p.parse_move(m).unwrap());
        }
        let best = done.strip_prefix("done move=").unwrap().split(' ').next().unwrap();
        let mv = move_from_hub(&p, best, Numbering::Standard).unwrap();
        let ponder = done.split(" ponder=").nth(1).unwrap();
        assert!(move_from_hub(&p.play_unchecked(&mv), ponder, Numbering::Standard).is_ok(), "{done}");

        // 15x22 over 18 is the only move: answered without a search, with a depth-0 line.
        let out =
            session(&["init", "pos pos=Bbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"11-15 22-18\"", "go think"]);
        assert_eq!(out.len(), 3, "{out:?}");
        assert!(out[1].starts_with("info depth=0 "), "{out:?}");
        assert!(out[2].starts_with("done move=15x22x18"), "{out:?}");
    }

    #[test]
    fn pydraughts_session_answers_in_its_numbering() {
        let out = session(&[
            "hub",
            "set-param name=variant value=russian",
            "set-param name=numbering value=pydraughts",
            "init",
            "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"9-13\"",
            "level nodes=3000",
            "go think",
        ]);
        let done = out.last().unwrap();
        let best = done.strip_prefix("done move=").unwrap().split(' ').next().unwrap();
        let p = start(Variant::Russian);
        let p = p.play_unchecked(&move_from_hub(&p, "9-13", Numbering::Pydraughts).unwrap());
        let mv = move_from_hub(&p, best, Numbering::Pydraughts).unwrap();
        assert_eq!(mv.from().rank(), 5, "a Black man of rank 6 moves first: {best}");
    }
}
