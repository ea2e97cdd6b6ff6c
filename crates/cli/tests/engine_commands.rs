//! `checkers analyse` and `checkers bench` through the real binary: the output formats of
//! docs/protocol.md ("The command line"), and one line on stderr with exit code 2 for bad input.

use std::process::{Command, Output};

fn checkers(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkers")).args(args).output().expect("the binary runs")
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Checks `info depth D score S nodes N nps X pv ...` lines and the final `bestmove M`;
/// returns the best move.
fn check_analysis(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() >= 2, "{text}");
    for line in &lines[..lines.len() - 1] {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[0], "info", "{line}");
        assert_eq!(words[1], "depth", "{line}");
        assert!(words[2].parse::<u32>().is_ok(), "{line}");
        assert_eq!(words[3], "score", "{line}");
        let score = words[4];
        assert!(
            score.parse::<i32>().is_ok() || score.starts_with("win") || score.starts_with("loss"),
            "{line}"
        );
        assert_eq!(words[5], "nodes", "{line}");
        assert!(words[6].parse::<u64>().is_ok(), "{line}");
        assert_eq!(words[7], "nps", "{line}");
        assert!(words[8].parse::<u64>().is_ok(), "{line}");
        assert_eq!(words[9], "pv", "{line}");
        assert!(words.len() > 10, "a pv has at least one move: {line}");
    }
    let last = lines[lines.len() - 1];
    let best = last.strip_prefix("bestmove ").unwrap_or_else(|| panic!("{text}"));
    best.to_string()
}

/// The output's lines with the speed (`nps X`, the ninth word of an `info` line) left out:
/// what a repeated search must print again word for word.
fn without_speed(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| {
            l.split_whitespace()
                .enumerate()
                .filter(|(i, _)| *i != 8)
                .map(|(_, w)| w)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}

#[test]
fn analyse_prints_info_lines_then_the_best_move() {
    let out = checkers(&["analyse", "--variant", "english", "--depth", "6"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let best = check_analysis(&text);
    assert!(["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"].contains(&best.as_str()), "{best}");
    assert_eq!(text.lines().filter(|l| l.starts_with("info")).count(), 6, "one line per depth");

    // The shot of the engine tests, in Russian, with the long capture form in the pv.
    let out =
        checkers(&["analyse", "--variant", "russian", "--fen", "W:W22,25,27,29,32:B14,15", "--depth", "5"]);
    let text = stdout(&out);
    assert_eq!(check_analysis(&text), "22-18");
    assert!(text.contains("score win3"), "{text}");
    assert!(text.contains("x18x"), "{text}");

    // A node budget gives the same search every time, speed aside.
    let by_nodes = || {
        let out = checkers(&["analyse", "--nodes", "20000"]);
        assert!(out.status.success());
        let text = stdout(&out);
        check_analysis(&text);
        without_speed(&text)
    };
    let lines = by_nodes();
    assert_eq!(lines, by_nodes());
    let last_nodes: u64 = lines[lines.len() - 2].split_whitespace().nth(6).unwrap().parse().unwrap();
    assert!(last_nodes <= 20_000, "{lines:?}");
    assert_eq!(checkers(&["analyse", "--nodes", "0"]).status.code(), Some(2));
    assert_eq!(checkers(&["analyse", "--nodes", "10", "--level", "3"]).status.code(), Some(2));

    for limit in [["--movetime", "50"], ["--level", "1"], ["--level", "7"]] {
        let out = checkers(&["analyse", "--variant", "russian", limit[0], limit[1]]);
        assert!(out.status.success());
        check_analysis(&stdout(&out));
    }
}

/// `--multipv 3`: each depth prints three lines tagged `multipv 1..3` after the depth, with
/// three different first moves, best first; without the option no line carries the tag.
#[test]
fn analyse_plays_every_variant() {
    // Each variant's best move and every line's moves are legal: the first move of each line
    // is among `checkers moves`, and the same search repeats word for word.
    for variant in [
        "international",
        "brazilian",
        "canadian",
        "frisian",
        "frysk",
        "antidraughts",
        "breakthrough",
        "italian",
        "spanish",
        "portuguese",
        "czech",
        "pool",
        "thai",
        "turkish",
    ] {
        let moves = stdout(&checkers(&["moves", "--variant", variant]));
        let legal: Vec<&str> = moves.lines().collect();
        let args = ["analyse", "--variant", variant, "--depth", "5"];
        let out = checkers(&args);
        assert!(out.status.success(), "{variant}: {}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        let best = check_analysis(&text);
        assert!(legal.contains(&best.as_str()), "{variant}: {best} not in {legal:?}");
        for line in text.lines().filter(|l| l.starts_with("info")) {
            let first = line.split(" pv ").nth(1).and_then(|pv| pv.split_whitespace().next()).unwrap();
            assert!(legal.contains(&first), "{variant}: {line}");
        }
        assert_eq!(without_speed(&text), without_speed(&stdout(&checkers(&args))), "{variant}");
    }
    // After moves, at a level, and a lost position.
    let out = checkers(&["analyse", "--variant", "international", "--moves", "32-28 19-23", "--level", "3"]);
    assert!(check_analysis(&stdout(&out)).starts_with("28x"), "{}", stdout(&out));
    let out = checkers(&["analyse", "--variant", "turkish", "--fen", "W:Wa2:Ba3,a4,b2,c2", "--depth", "3"]);
    assert_eq!(stdout(&out).trim(), "bestmove (none)");
}

#[test]
fn analyse_ranks_several_lines() {
    let out = checkers(&["analyse", "--variant", "english", "--depth", "8", "--multipv", "3"]);
    assert!(out.status.success());
    let text = stdout(&out);
    let infos: Vec<Vec<&str>> =
        text.lines().filter(|l| l.starts_with("info")).map(|l| l.split_whitespace().collect()).collect();
    assert_eq!(infos.len(), 8 * 3, "{text}");
    for (i, depth) in infos.chunks(3).enumerate() {
        let ranks: Vec<&str> = depth.iter().map(|w| w[4]).collect();
        assert_eq!(ranks, ["1", "2", "3"], "{text}");
        assert!(depth.iter().all(|w| w[..4] == ["info", "depth", &(i + 1).to_string(), "multipv"]), "{text}");
        let scores: Vec<i32> = depth.iter().map(|w| w[6].parse().unwrap()).collect();
        assert!(scores.windows(2).all(|s| s[0] >= s[1]), "{text}");
        let firsts: std::collections::HashSet<&str> = depth.iter().map(|w| w[12]).collect();
        assert_eq!(firsts.len(), 3, "{text}");
    }
    let best = text.lines().last().unwrap().strip_prefix("bestmove ").unwrap();
    assert_eq!(infos[infos.len() - 3][12], best, "the first line's move is played");
    assert!(!stdout(&checkers(&["analyse", "--depth", "3"])).contains("multipv"));
    for bad in [["--multipv", "0"], ["--multipv", "65"]] {
        assert_eq!(checkers(&["analyse", "--depth", "3", bad[0], bad[1]]).status.code(), Some(2), "{bad:?}");
    }
    assert_eq!(checkers(&["analyse", "--level", "3", "--multipv", "2"]).status.code(), Some(2));
}

/// A position reached by `--moves` searches as the same position given by FEN.
#[test]
fn analyse_after_moves() {
    let analysis = |args: &[&str]| without_speed(&stdout(&checkers(args)));
    let by_moves = analysis(&["analyse", "--moves", "1. 11-15 23-19 2. 8-11", "--depth", "9"]);
    let by_fen = analysis(&["analyse", "--fen", "W:W19,21,22,24-32:B1-7,9,10,11,12,15", "--depth", "9"]);
    assert_eq!(by_moves, by_fen);
    assert_eq!(by_moves.len(), 10, "{by_moves:?}");
    assert_eq!(checkers(&["analyse", "--moves", "11-15 11-15", "--depth", "3"]).status.code(), Some(2));
}

#[test]
fn analyse_of_a_forced_or_lost_position() {
    // One legal move: played at once, still with an info line.
    let out = checkers(&["analyse", "--fen", "B:W18:B14", "--depth", "10"]);
    assert_eq!(check_analysis(&stdout(&out)), "14x23");
    // No legal move.
    let out = checkers(&["analyse", "--fen", "B:W32:B28", "--depth", "3"]);
    assert!(out.status.success());
    assert_eq!(stdout(&out).trim(), "bestmove (none)");
}

#[test]
fn bad_input_is_one_line_and_exit_2() {
    for args in [
        vec!["analyse", "--fen", "X:W1:B2", "--depth", "3"],
        vec!["analyse", "--fen", "W:W1:B2", "--depth", "3"],
        vec!["analyse", "--level", "10"],
        vec!["analyse", "--depth", "0"],
        vec!["analyse", "--movetime", "0"],
        vec!["bench", "--depth", "0"],
    ] {
        let out = checkers(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
    }
}

#[test]
fn a_board_variants_bad_input_is_one_line_and_exit_2() {
    for (args, says) in [
        (vec!["analyse", "--variant", "international", "--fen", "W:W51:B1"], "51"),
        (vec!["analyse", "--variant", "brazilian", "--fen", "W:W31-50:B1-20"], "bad --fen"),
        (vec!["analyse", "--variant", "international", "--moves", "32-27 19-24 27-20"], "move 3"),
    ] {
        let out = checkers(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn bench_prints_a_line_per_position_and_the_signature() {
    let run = || stdout(&checkers(&["bench", "--depth", "5"]));
    let text = run();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), checkers_engine::BENCH_POSITIONS.len() + 1, "{text}");
    let last: Vec<&str> = lines[lines.len() - 1].split_whitespace().collect();
    assert_eq!(last.len(), 4, "{text}");
    assert_eq!((last[0], last[2]), ("nodes", "nps"));
    let nodes: u64 = last[1].parse().unwrap();
    assert!(nodes > 0);
    // The signature repeats.
    let again = run();
    assert_eq!(again.lines().last().unwrap().split_whitespace().nth(1), Some(last[1]));
}

#[test]
fn bench_of_one_variant_searches_only_its_positions() {
    let total = |args: &[&str]| -> (usize, u64) {
        let text = stdout(&checkers(args));
        let last = text.lines().last().unwrap_or_default().to_string();
        let nodes = last.split_whitespace().nth(1).and_then(|n| n.parse().ok()).expect("nodes N nps X");
        (text.lines().count() - 1, nodes)
    };
    let (all_lines, all_nodes) = total(&["bench", "--depth", "5"]);
    let (english_lines, english_nodes) = total(&["bench", "--depth", "5", "--variant", "english"]);
    let (russian_lines, russian_nodes) = total(&["bench", "--depth", "5", "--variant", "russian"]);
    let count = |v| checkers_engine::BENCH_POSITIONS.iter().filter(|(variant, _)| *variant == v).count();
    assert_eq!(english_lines, count(checkers_rules::Variant::English));
    assert_eq!(russian_lines, count(checkers_rules::Variant::Russian));
    assert_eq!(english_lines + russian_lines, all_lines);
    // Each position is searched from a cleared table: the parts add up to the whole.
    assert_eq!(english_nodes + russian_nodes, all_nodes);
    let out = checkers(&["bench", "--variant", "italian"]);
    assert_eq!(out.status.code(), Some(2));
}

/// A reader that stops early (`checkers analyse ... | head -1`) ends the command quietly: no
/// panic about a broken pipe on standard error. (The deep search prints its later lines long
/// after the reader has gone.)
#[cfg(unix)]
#[test]
fn a_closed_pipe_ends_a_printing_command_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["analyse", "--variant", "english", "--depth", "24"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the checkers binary runs");
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("piped")).read_line(&mut first).expect("a line");
    // The reader is gone: the next lines go to a closed pipe.
    let out = child.wait_with_output().expect("the command ends");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!first.is_empty());
    assert!(!stderr.contains("panicked"), "{stderr}");
}

/// The endgame database is solved by the first run and kept on disk: later runs read it and
/// search exactly as the first did, and a damaged file is solved again and replaced.
#[test]
fn the_endgame_database_is_kept_between_runs() {
    let dir = std::env::temp_dir().join(format!("checkers-engine-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = || {
        let out = Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(["analyse", "--fen", "W:W21,K14:B8,K31", "--depth", "8"])
            .env("CHECKERS_CACHE_DIR", &dir)
            .output()
            .expect("the binary runs");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        // Everything but the speed, which varies from run to run.
        let text = stdout(&out);
        check_analysis(&text);
        text.lines()
            .map(|line| {
                let words: Vec<&str> = line.split_whitespace().collect();
                if words[0] == "info" {
                    [&words[..7], &words[9..]].concat().join(" ")
                } else {
                    line.to_string()
                }
            })
            .collect::<Vec<_>>()
    };
    let solved = run();
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0].file_name().unwrap().to_string_lossy().into_owned();
    assert!(name.starts_with("endgame-english-4-") && name.ends_with(".db"), "{name}");
    let size = std::fs::metadata(&files[0]).unwrap().len();
    assert_eq!(run(), solved);
    std::fs::write(&files[0], b"damaged").unwrap();
    assert_eq!(run(), solved);
    assert_eq!(std::fs::metadata(&files[0]).unwrap().len(), size);
    let _ = std::fs::remove_dir_all(&dir);
}
