//! `checkers match` through the real binary: tiny matches in both variants (two openings,
//! low levels), against an external Hub engine (our own `checkers hub`), with an SPRT stop;
//! the PDN file of the games reads back with the rules library and agrees with the score,
//! and every move chosen in the match carries its thinking time, which the report sums.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use checkers_rules::{read_pdn, Color, PdnResult, Position, Variant};

/// A fresh folder for one test's files (under the system's temporary folder).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("checkers-match-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn checkers(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkers")).args(args).output().expect("the binary runs")
}

/// `(wins, losses, draws)` of the first player from the `Score of ...` line.
fn score(stdout: &str) -> (u32, u32, u32) {
    let line = stdout.lines().find(|l| l.starts_with("Score of ")).unwrap_or_else(|| panic!("{stdout}"));
    let counts = line.rsplit_once(": ").unwrap().1;
    let words: Vec<&str> = counts.split_whitespace().collect();
    assert_eq!(words[1], "-", "{line}");
    (words[0].parse().unwrap(), words[2].parse().unwrap(), words[4].parse().unwrap())
}

/// Reads the PDN file and checks it against the score: returns the games' count.
fn check_pdn(path: &Path, variant: Variant, first: &str, (wins, losses, draws): (u32, u32, u32)) -> usize {
    let text = std::fs::read_to_string(path).unwrap();
    let games = read_pdn(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let (mut w, mut l, mut d) = (0, 0, 0);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game.variant(), variant);
        assert_eq!(
            game.start(),
            Position::start(variant),
            "games start from the start, opening moves included"
        );
        assert_eq!(game.tag("Round"), Some((i + 1).to_string().as_str()));
        assert!(game.tag("Opening").is_some() && game.tag("Termination").is_some());
        let first_color = if game.tag("Black") == Some(first) { Color::Black } else { Color::White };
        assert!(game.tag(if first_color == Color::Black { "White" } else { "Black" }).is_some());
        match game.result() {
            PdnResult::Win(c) if c == first_color => w += 1,
            PdnResult::Win(_) => l += 1,
            PdnResult::Draw => d += 1,
            other => panic!("game {} has result {other:?}", i + 1),
        }
    }
    // Each opening twice, the first player on each side once.
    for pair in games.chunks_exact(2) {
        assert_eq!(pair[0].tag("Opening"), pair[1].tag("Opening"));
        assert_eq!(pair[0].tag("Black"), pair[1].tag("White"));
    }
    assert_eq!((w, l, d), (wins, losses, draws));
    games.len()
}

/// Checks that every move after the opening carries its thinking time (`{0.012s}`) and
/// returns how many moves the first and the second player made, each as (moves with a
/// choice, forced moves).
fn timed_moves(path: &Path, first: &str) -> [(usize, usize); 2] {
    let games = read_pdn(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut counts = [(0, 0); 2];
    for game in &games {
        let marked = |i: &usize| game.comment(*i).is_some_and(|c| c.starts_with("end of opening"));
        let opening_end = (0..game.moves().len()).find(marked).expect("the opening's end is marked");
        let first_color = if game.tag("Black") == Some(first) { Color::Black } else { Color::White };
        let mut position = game.start();
        for (i, mv) in game.moves().iter().enumerate() {
            if i > opening_end {
                let comment = game.comment(i).unwrap_or_else(|| panic!("move {i} has no time"));
                let seconds: f64 = comment
                    .strip_suffix('s')
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| panic!("{comment:?}"));
                assert!((0.0..60.0).contains(&seconds), "{comment}");
                let player = &mut counts[usize::from(position.turn() != first_color)];
                if position.legal_moves().len() == 1 {
                    player.1 += 1;
                } else {
                    player.0 += 1;
                }
            }
            position = position.play_unchecked(mv);
        }
    }
    counts
}

/// The counts in the report's `Time of PLAYER: 0.012 s a move (longest 0.030 s) over N moves,
/// F forced moves not counted` line: (N, F).
fn reported_moves(stdout: &str, player: &str) -> (usize, usize) {
    let prefix = format!("Time of {player}: ");
    let line = stdout.lines().find(|l| l.starts_with(&prefix)).unwrap_or_else(|| panic!("{stdout}"));
    let counts = line
        .split_once(" s) over ")
        .and_then(|(_, tail)| tail.strip_suffix(" forced moves not counted"))
        .and_then(|tail| tail.split_once(" moves, "))
        .and_then(|(n, f)| Some((n.parse().ok()?, f.parse().ok()?)));
    counts.unwrap_or_else(|| panic!("{line}"))
}

#[test]
fn tiny_matches_in_both_variants_write_pdn_that_reads_back() {
    let dir = scratch("tiny");
    for variant in ["english", "russian"] {
        let pdn = dir.join(format!("{variant}.pdn"));
        let out = checkers(&[
            "match",
            "level:2",
            "depth:1",
            "--variant",
            variant,
            "--openings",
            "2",
            "--concurrency",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
        ]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        let tally = score(&stdout);
        assert_eq!(tally.0 + tally.1 + tally.2, 4, "{stdout}");
        assert!(stdout.lines().any(|l| l.starts_with("Elo difference: ")), "{stdout}");
        // Two openings, both games of each played: two pairs.
        let pairs = stdout.lines().find(|l| l.starts_with("Opening pairs scoring")).expect(&stdout);
        assert!(pairs.contains(" of 2"), "{pairs}");
        let v = if variant == "english" { Variant::English } else { Variant::Russian };
        assert_eq!(check_pdn(&pdn, v, "level:2", tally), 4);
        let [by_first, by_second] = timed_moves(&pdn, "level:2");
        assert_eq!(reported_moves(&stdout, "level:2"), by_first, "{stdout}");
        assert_eq!(reported_moves(&stdout, "depth:1"), by_second, "{stdout}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn board_variants_play_matches_over_their_opening_sets() {
    let dir = scratch("boards");
    // International over its generated set, Italian over the eleven-man ballots (games from a
    // ballot's position), Brazilian over the Russian 150, Turkish over its level lines.
    for (variant, game_type) in
        [("international", "20"), ("italian", "22"), ("brazilian", "26"), ("turkish", "30")]
    {
        let pdn = dir.join(format!("{variant}.pdn"));
        let args = ["match", "level:2", "depth:1", "--variant", variant, "--openings", "2", "--quiet"];
        let mut with_file = args.to_vec();
        with_file.extend(["--pdn", pdn.to_str().unwrap()]);
        let out = checkers(&with_file);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{variant}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        let (wins, losses, draws) = score(&stdout);
        assert_eq!(wins + losses + draws, 4, "{stdout}");
        // The file reads back as four games of the variant, every move legal, with the score.
        let text = std::fs::read_to_string(&pdn).unwrap();
        let games = checkers_rules::read_any_pdn(&text).unwrap_or_else(|e| panic!("{variant}: {e}\n{text}"));
        assert_eq!(games.len(), 4);
        let mut first_points = 0.0;
        for (i, game) in games.iter().enumerate() {
            assert_eq!(game.game_type().to_string(), game_type, "{variant}");
            assert_eq!(game.tag("Round"), Some((i + 1).to_string().as_str()));
            let first_color = if game.tag("White") == Some("level:2") { Color::White } else { Color::Black };
            first_points += match game.result() {
                PdnResult::Win(c) if c == first_color => 1.0,
                PdnResult::Win(_) => 0.0,
                PdnResult::Draw => 0.5,
                other => panic!("{variant}: game {} has result {other:?}", i + 1),
            };
        }
        assert_eq!(first_points, f64::from(wins) + 0.5 * f64::from(draws), "{variant}: {stdout}");
        // Resumed from the file, nothing is left to play and the score is the same.
        let mut resumed = with_file.clone();
        resumed.push("--resume");
        let again = checkers(&resumed);
        let again_stdout = String::from_utf8_lossy(&again.stdout);
        assert!(again_stdout.contains("0 games (besides the 4 finished"), "{again_stdout}");
        assert_eq!(score(&again_stdout), (wins, losses, draws));
    }
    // A file of another variant is refused.
    let file = dir.join("international.pdn");
    let out = checkers(&[
        "match",
        "level:2",
        "depth:1",
        "--variant",
        "frisian",
        "--openings",
        "2",
        "--pdn",
        file.to_str().unwrap(),
        "--resume",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("GameType"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_external_hub_engine_plays_a_match() {
    let dir = scratch("hub");
    let pdn = dir.join("hub.pdn");
    let hub = format!("hub:{} hub", env!("CARGO_BIN_EXE_checkers"));
    let out = checkers(&[
        "match",
        &hub,
        "level:1",
        "--variant",
        "russian",
        "--openings",
        "1",
        "--hub-level",
        "depth=3",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let tally = score(&stdout);
    assert_eq!(check_pdn(&pdn, Variant::Russian, &hub[..], tally), 2);
    let [by_hub, by_level] = timed_moves(&pdn, &hub);
    assert!(by_hub.0 > 0 && by_level.0 > 0);
    assert_eq!((reported_moves(&stdout, &hub), reported_moves(&stdout, "level:1")), (by_hub, by_level));
    // The same over the board variants' Hub positions and moves: Frisian and Turkish.
    for (variant, game_type) in [("frisian", 40), ("turkish", 30)] {
        let pdn = dir.join(format!("hub-{variant}.pdn"));
        let args =
            ["match", &hub, "level:1", "--variant", variant, "--openings", "1", "--hub-level", "depth=3"];
        let mut args = args.to_vec();
        args.extend(["--pdn", pdn.to_str().unwrap()]);
        let out = checkers(&args);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{variant}: {stdout}{}", String::from_utf8_lossy(&out.stderr));
        let (w, l, d) = score(&stdout);
        assert_eq!(w + l + d, 2, "{stdout}");
        let games = checkers_rules::read_any_pdn(&std::fs::read_to_string(&pdn).unwrap()).unwrap();
        assert!(games.iter().all(|g| g.game_type() == game_type && g.move_count() > 10), "{variant}");
        assert!(stdout.contains(&format!("Time of {hub}: ")), "{stdout}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn an_engine_that_prints_other_encodings_still_plays() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("latin1");
    // Our own engine behind a first line in Latin-1, as an engine with an accented author's
    // name might print it.
    let script = dir.join("engine.sh");
    std::fs::write(&script, "#!/bin/sh\nprintf 'info message=caf\\351\\n'\nexec \"$1\" hub\n").unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hub = format!("hub:{} {}", script.display(), env!("CARGO_BIN_EXE_checkers"));
    let out = checkers(&["match", &hub, "level:1", "--openings", "1", "--hub-level", "depth=3", "--quiet"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let (wins, losses, draws) = score(&stdout);
    assert_eq!(wins + losses + draws, 2, "{stdout}");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    let out = checkers(&["match", "level:5", "level:1", "--openings", "20", "--sprt", "0,50,0.2,0.2"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let (w, l, d) = score(&stdout);
    // Early, but not on the first win: one pair, even of two wins, is not enough evidence.
    assert!((4..40).contains(&(w + l + d)), "{stdout}");
    let sprt = stdout.lines().find(|l| l.starts_with("SPRT: llr ")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(sprt.ends_with("was accepted"), "{sprt}");
    assert!(sprt.contains(" opening pairs, "), "{sprt}");
}

/// A match finished with `--skip-games` plays the very games the whole match would have
/// played under those numbers (same openings, colours and seeds), so its PDN can be joined to
/// the first part's.
#[test]
fn skipping_games_replays_the_rest_of_the_schedule_exactly() {
    let dir = scratch("skip");
    let run = |name: &str, extra: &[&str]| {
        let pdn = dir.join(name);
        let mut args = vec!["match", "level:3", "level:2", "--openings", "2", "--pdn", pdn.to_str().unwrap()];
        args.extend_from_slice(extra);
        let out = checkers(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        read_pdn(&std::fs::read_to_string(pdn).unwrap()).unwrap()
    };
    let whole = run("whole.pdn", &[]);
    let rest = run("rest.pdn", &["--skip-games", "1"]);
    assert_eq!((whole.len(), rest.len()), (4, 3));
    for (later, full) in rest.iter().zip(&whole[1..]) {
        assert_eq!(later.tag("Round"), full.tag("Round"));
        assert_eq!(later.tag("Opening"), full.tag("Opening"));
        assert_eq!(later.moves(), full.moves(), "game {:?}", full.tag("Round"));
    }
    let too_many = checkers(&["match", "level:1", "level:2", "--openings", "1", "--skip-games", "2"]);
    assert_eq!(too_many.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn bad_arguments_exit_with_2() {
    for args in [
        &["match", "level:10", "level:1"][..],
        &["match", "level:1", "warp:9"],
        &["match", "level:1", "level:2", "--openings", "0"],
        &["match", "level:1", "level:2", "--sprt", "1,2,3"],
        &["match", "level:1", "hub:/nonexistent/engine", "--openings", "1"],
    ] {
        let out = checkers(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.trim().is_empty(), "{args:?}");
    }
}

/// The PDN file grows game by game; Ctrl-C (SIGINT) lets the game under way finish, then the
/// score of the games played is printed and agrees with the file.
#[test]
fn an_interrupted_match_keeps_and_reports_its_games() {
    let dir = scratch("interrupted");
    let pdn = dir.join("games.pdn");
    let child = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["match", "level:4", "level:3", "--quiet", "--pdn"])
        .arg(&pdn)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary runs");
    // Wait (without a deadline that could fail a slow machine) for two finished games.
    loop {
        let games = std::fs::read_to_string(&pdn).ok().and_then(|t| read_pdn(&t).ok()).map(|g| g.len());
        if games.is_some_and(|n| n >= 2) {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let sent = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(sent.success());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    let stopped = stdout
        .lines()
        .find(|l| l.starts_with("Stopped by Ctrl-C after "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let (w, l, d) = score(&stdout);
    assert!(stopped.starts_with(&format!("Stopped by Ctrl-C after {} of ", w + l + d)), "{stdout}");
    assert!(w + l + d >= 2 && w + l + d < 100, "{stdout}");
    assert_eq!(check_pdn(&pdn, Variant::English, "level:4", (w, l, d)), (w + l + d) as usize);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Stopping: the games under way finish"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// A Hub engine that dies mid-match stops it with an error, but the games already finished
/// (and those under way in other workers, which are let finish) stay in the PDN file, and the
/// output names exactly which game numbers were finished and which were not played.
#[cfg(unix)]
#[test]
fn a_crashing_hub_engine_stops_the_match_and_says_which_games_it_kept() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("crash");
    let pdn = dir.join("games.pdn");
    // The first engine started is the real one; any later one dies at its first search
    // (`mkdir` is atomic, so exactly one is healthy).
    let script = dir.join("engine.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\n\
         if mkdir \"$2\" 2>/dev/null; then exec \"$1\" hub; fi\n\
         while read -r line; do\n\
           case \"$line\" in\n\
             hub) echo 'id name=crash version=0'; echo wait ;;\n\
             init) echo ready ;;\n\
             go*) exit 1 ;;\n\
           esac\n\
         done\n",
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let hub =
        format!("hub:{} {} {}", script.display(), env!("CARGO_BIN_EXE_checkers"), dir.join("lock").display());
    let out = checkers(&[
        "match",
        "level:1",
        &hub,
        "--openings",
        "2",
        "--concurrency",
        "2",
        "--quiet",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stdout}");
    assert!(stderr.contains("the match stopped") && stderr.contains("exited before"), "{stderr}");
    let line =
        stdout.lines().find(|l| l.starts_with("Games finished: ")).unwrap_or_else(|| panic!("{stdout}"));
    let (finished, missing) = line["Games finished: ".len()..]
        .trim_end_matches(" (`--resume` plays them).")
        .split_once("; not played: ")
        .unwrap();
    let expand = |text: &str| -> Vec<usize> {
        if text == "none" {
            return Vec::new();
        }
        text.split(", ")
            .flat_map(|range| {
                let (a, b) = range.split_once('-').unwrap_or((range, range));
                a.parse::<usize>().unwrap()..=b.parse::<usize>().unwrap()
            })
            .collect()
    };
    let (finished, missing) = (expand(finished), expand(missing));
    assert!(!missing.is_empty(), "{line}");
    let mut all: Vec<usize> = finished.iter().chain(&missing).copied().collect();
    all.sort_unstable();
    assert_eq!(all, vec![1, 2, 3, 4], "{line}");
    let kept: Vec<usize> = match std::fs::read_to_string(&pdn) {
        Ok(text) => {
            read_pdn(&text).unwrap().iter().map(|g| g.tag("Round").unwrap().parse().unwrap()).collect()
        }
        Err(_) => Vec::new(),
    };
    assert_eq!(kept, finished, "{line}");
    let (w, l, d) = score(&stdout);
    assert_eq!((w + l + d) as usize, kept.len(), "{stdout}");

    // The engine mended (its lock gone, the first one started is healthy), `--resume` plays
    // the games not played and the file holds the whole match.
    std::fs::remove_dir_all(dir.join("lock")).unwrap();
    let out = checkers(&[
        "match",
        "level:1",
        &hub,
        "--openings",
        "2",
        "--quiet",
        "--pdn",
        pdn.to_str().unwrap(),
        "--resume",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    let (w, l, d) = score(&stdout);
    assert_eq!(w + l + d, 4, "{stdout}");
    let rounds: Vec<String> = read_pdn(&std::fs::read_to_string(&pdn).unwrap())
        .unwrap()
        .iter()
        .map(|g| g.tag("Round").unwrap().to_string())
        .collect();
    assert_eq!(rounds, ["1", "2", "3", "4"]);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A match stopped with games finished out of order completes with `--resume`: the games in
/// its PDN file count and stay, only the missing ones are played, and the file ends as the
/// whole match's would. A file of other players, another variant or another opening set is
/// refused with the reason.
#[test]
fn resume_plays_only_the_games_missing_from_the_file() {
    let dir = scratch("resume");
    let pdn = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["match", "level:1", "level:2", "--openings", "2", "--quiet"];
        args.extend_from_slice(extra);
        checkers(&args)
    };
    let whole = run(&["--pdn", &pdn("whole.pdn")]);
    assert!(whole.status.success(), "{}", String::from_utf8_lossy(&whole.stderr));
    let games = read_pdn(&std::fs::read_to_string(pdn("whole.pdn")).unwrap()).unwrap();
    assert_eq!(games.len(), 4);
    // Games 1 and 3 finished; 2 and 4 not.
    let part: Vec<_> = games.iter().filter(|g| matches!(g.tag("Round"), Some("1" | "3"))).cloned().collect();
    std::fs::write(pdn("part.pdn"), checkers_rules::write_pdn(&part)).unwrap();
    let resumed = run(&["--pdn", &pdn("part.pdn"), "--resume"]);
    let stdout = String::from_utf8_lossy(&resumed.stdout);
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(stdout.contains("2 games (besides the 2 finished in the PDN file)"), "{stdout}");
    let whole_stdout = String::from_utf8_lossy(&whole.stdout);
    assert_eq!(score(&stdout), score(&whole_stdout));
    // The earlier games' times are read back from the file: the same moves are counted.
    for player in ["level:1", "level:2"] {
        assert_eq!(reported_moves(&stdout, player), reported_moves(&whole_stdout, player), "{stdout}");
    }
    let completed = read_pdn(&std::fs::read_to_string(pdn("part.pdn")).unwrap()).unwrap();
    assert_eq!(completed.len(), 4);
    for (a, b) in completed.iter().zip(&games) {
        assert_eq!((a.tag("Round"), a.moves(), a.result()), (b.tag("Round"), b.moves(), b.result()));
    }
    // Nothing left to play: the report of the whole match all the same.
    let again = run(&["--pdn", &pdn("part.pdn"), "--resume"]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success() && stdout.contains("0 games (besides the 4 finished"), "{stdout}");
    assert_eq!(score(&stdout), score(&String::from_utf8_lossy(&whole.stdout)));

    let refused = |args: &[&str], why: &str| {
        let out = checkers(args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{stderr}");
        assert!(stderr.contains(why), "{stderr}");
    };
    let file = pdn("whole.pdn");
    refused(&["match", "level:1", "level:3", "--openings", "2", "--pdn", &file, "--resume"], "not by level:");
    refused(
        &["match", "level:1", "level:2", "--openings", "1", "--pdn", &file, "--resume"],
        "this match has games 1 to 2",
    );
    refused(
        &[
            "match",
            "level:1",
            "level:2",
            "--variant",
            "russian",
            "--openings",
            "2",
            "--pdn",
            &file,
            "--resume",
        ],
        "not of russian",
    );
    refused(&["match", "level:1", "level:2", "--resume"], "--pdn");
    // Files that `checkers match` did not write as they are.
    let whole_text = std::fs::read_to_string(&file).unwrap();
    let mut doubled = games.clone();
    doubled.push(games[0].clone());
    let mut renamed = games.clone();
    renamed[1].set_tag("Opening", "11-15 22-17 15-19").unwrap();
    let mut unnumbered = games.clone();
    unnumbered[2].remove_tag("Round");
    for (name, text, why) in [
        ("doubled.pdn", checkers_rules::write_pdn(&doubled), "the file holds that game twice"),
        ("renamed.pdn", checkers_rules::write_pdn(&renamed), "game 2 in"),
        ("unnumbered.pdn", checkers_rules::write_pdn(&unnumbered), "has no game number"),
        ("broken.pdn", whole_text.replace("1. ", "1. 33-34 "), "is not a PDN file of games"),
    ] {
        std::fs::write(pdn(name), &text).unwrap();
        refused(&["match", "level:1", "level:2", "--openings", "2", "--pdn", &pdn(name), "--resume"], why);
        // Refused before anything is written: the file is as it was.
        assert_eq!(std::fs::read_to_string(pdn(name)).unwrap(), text);
    }
    let _ = std::fs::remove_dir_all(dir);
}
