//! Hostile input to the Hub protocol: arbitrary lines and near misses of real commands, in
//! sequences, in every variant. No line may panic; every answer is one well-formed line; whatever a search is
//! asked for has a legal move to find and limits that can be computed; and after any such
//! sequence a plain session (variant, position, level, go) still works.
//!
//! Only the protocol's state machine is driven (no search runs): a hostile `level` may ask
//! for a search of hours, which is the GUI's right. The `checkers hub` loop around it is tested
//! over real pipes in the command-line crate.

use checkers_engine::hub::{board_to_hub, position_to_hub, Action, Hub, HubLine, HubVariant, Numbering};
use checkers_rules::board::Board;
use checkers_rules::{with_board_variant, Position};
use proptest::prelude::*;

/// The start of `variant` as a Hub position.
fn start(variant: HubVariant) -> String {
    match variant {
        HubVariant::Eight(variant) => position_to_hub(&Position::start(variant), Numbering::Standard),
        HubVariant::Board(variant) => with_board_variant!(variant, V => board_to_hub(&Board::<V>::start())),
    }
}

/// A value as a GUI (or a fuzzer) might send it: valid ones, edge numbers, broken positions
/// and move lists, quoting trouble.
fn value() -> impl Strategy<Value = String> {
    let position = proptest::sample::select(HubVariant::ALL.map(start).to_vec());
    let broken_position = (position.clone(), 0usize..73, "[wbWBe x?\u{e9}]").prop_map(|(p, i, c)| {
        let mut chars: Vec<char> = p.chars().collect();
        let at = i.min(chars.len() - 1);
        chars[at] = c.chars().next().unwrap_or('x');
        chars.into_iter().collect()
    });
    let square = prop_oneof![0u32..=80, Just(u32::MAX)];
    let named = proptest::sample::select(vec!["a3", "a4", "b3", "h8", "a9", "i1", "d4"]);
    let turkish_move = (named.clone(), prop_oneof![Just("-"), Just("x")], named)
        .prop_map(|(a, sep, b)| format!("\"{a}{sep}{b}\""));
    let one_move =
        (square.clone(), prop_oneof![Just("-"), Just("x")], square.clone(), proptest::option::of(square))
            .prop_map(|(a, sep, b, c)| match c {
                Some(c) => format!("{a}{sep}{b}x{c}"),
                None => format!("{a}{sep}{b}"),
            });
    let moves = proptest::collection::vec(one_move, 0..6).prop_map(|m| format!("\"{}\"", m.join(" ")));
    prop_oneof![
        position,
        broken_position,
        moves,
        Just("\"11-15 23-19 8-11\"".to_string()),
        Just("\"9-13 22-18 13x22\"".to_string()),
        Just("\"32-28 19-23 28x19\"".to_string()),
        Just("\"a3-a4 b6-b5 a4-a5\"".to_string()),
        turkish_move,
        "[0-9]{1,25}",
        Just("-1".to_string()),
        Just("1e309".to_string()),
        Just("NaN".to_string()),
        Just("inf".to_string()),
        Just("0.0000001".to_string()),
        Just("4097".to_string()),
        Just("65".to_string()),
        proptest::sample::select(HubVariant::ALL.map(|v| v.name().to_string()).to_vec()),
        Just("frysk!".to_string()),
        Just("killer".to_string()),
        Just("pydraughts".to_string()),
        Just("standard".to_string()),
        Just("\"\"".to_string()),
        Just("\"unterminated".to_string()),
        "(?s).{0,12}",
    ]
}

fn argument() -> impl Strategy<Value = String> {
    let key = prop_oneof![
        Just("pos"),
        Just("moves"),
        Just("name"),
        Just("value"),
        Just("depth"),
        Just("nodes"),
        Just("move-time"),
        Just("time"),
        Just("inc"),
        Just("infinite"),
        Just("think"),
        Just("ponder"),
        Just("analyze"),
        Just("variant"),
        Just("numbering"),
        Just("hash"),
        Just("threads"),
        Just("="),
    ];
    (key, proptest::option::weighted(0.8, value())).prop_map(|(key, value)| match value {
        Some(value) => format!("{key}={value}"),
        None => key.to_string(),
    })
}

fn line() -> impl Strategy<Value = String> {
    let command = prop_oneof![
        Just("hub"),
        Just("init"),
        Just("set-param"),
        Just("new-game"),
        Just("pos"),
        Just("level"),
        Just("go"),
        Just("ping"),
        Just("stop"),
        Just("ponder-hit"),
        Just("quit"),
        Just("gopher"),
    ];
    let near_miss = (command, proptest::collection::vec(argument(), 0..4), "[ \t]{0,2}")
        .prop_map(|(command, args, tail)| format!("{command} {}{tail}", args.join(" ")));
    prop_oneof![4 => near_miss, 1 => "(?s).{0,80}"]
}

/// Feeds one line and checks the answer; the state machine is told a search has ended at
/// once, as the real loop does when its search answers.
fn feed(hub: &mut Hub, text: &str) -> Result<Action, TestCaseError> {
    let reply = hub.handle(text);
    for answer in &reply.lines {
        prop_assert!(!answer.is_empty(), "an empty answer to {text:?}");
        prop_assert!(!answer.contains(char::is_control), "a control character in {answer:?}");
        if answer.starts_with("error") {
            let parsed = HubLine::parse(answer);
            prop_assert!(
                matches!(&parsed, Ok(Some(line)) if line.command == "error" && line.has("message")),
                "a malformed error answer {answer:?} to {text:?}"
            );
        }
    }
    match &reply.action {
        Action::Search(job) => {
            prop_assert!(job.game.has_legal_move(), "a search of a lost position for {text:?}");
            let _ = job.effective_limits();
            let _ = job.thinking();
            hub.search_finished();
        }
        Action::Init(options) => {
            prop_assert!((1..=64).contains(&options.threads), "{options:?}");
            prop_assert!((1..=4096).contains(&options.hash_mb), "{options:?}");
        }
        _ => {}
    }
    Ok(reply.action)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn hostile_lines_leave_a_working_session(lines in proptest::collection::vec(line(), 1..25)) {
        let mut hub = Hub::new();
        for text in &lines {
            feed(&mut hub, text)?;
        }
        for variant in HubVariant::ALL {
            feed(&mut hub, &format!("set-param name=variant value={variant}"))?;
            feed(&mut hub, "set-param name=numbering value=standard")?;
            feed(&mut hub, &format!("pos pos={} moves=\"\"", start(variant)))?;
            feed(&mut hub, "level nodes=1000")?;
            let action = feed(&mut hub, "go think")?;
            prop_assert!(matches!(action, Action::Search(_)), "no search after {lines:?}");
        }
    }
}
