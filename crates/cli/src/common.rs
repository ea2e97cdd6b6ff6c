//! Arguments and helpers shared by several subcommands.

use std::path::PathBuf;

use anyhow::Context;
use checkers_engine::MAX_HASH_MB;
use checkers_rules::board::BoardVariant;
use checkers_rules::{Color, Position, SquareNotation, Variant};
use clap::ValueEnum;

/// `--variant` values: English and Russian (the 8x8 `Position`), then the variants the rules
/// library plays on its boards of any size.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum VariantArg {
    #[default]
    English,
    Russian,
    International,
    Brazilian,
    Canadian,
    Frisian,
    Frysk,
    Antidraughts,
    Breakthrough,
    Italian,
    Spanish,
    Portuguese,
    Czech,
    Pool,
    Thai,
    Turkish,
}

/// A variant as the code that plays it sees it: one of the two 8x8 games of `Position`, or
/// one of the rules library's boards.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VariantChoice {
    Checkers(Variant),
    Board(BoardVariant),
}

impl VariantArg {
    /// Which code plays the variant.
    pub fn choice(self) -> VariantChoice {
        match (self, self.board()) {
            (VariantArg::English, _) => VariantChoice::Checkers(Variant::English),
            (VariantArg::Russian, _) => VariantChoice::Checkers(Variant::Russian),
            (_, Some(board)) => VariantChoice::Board(board),
            // Every other name is a board variant's (the test below holds the two lists alike).
            (_, None) => VariantChoice::Checkers(Variant::English),
        }
    }

    /// The variant as the rules library's boards of any size know it, if it is one of them.
    pub fn board(self) -> Option<BoardVariant> {
        // The two enums spell each variant alike: the name is the one mapping between them.
        self.name().parse().ok()
    }

    /// The name on the command line.
    fn name(self) -> String {
        self.to_possible_value().map(|v| v.get_name().to_string()).unwrap_or_default()
    }
}

/// `--notation` values.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum NotationArg {
    #[default]
    Numeric,
    Algebraic,
}

impl From<NotationArg> for SquareNotation {
    fn from(n: NotationArg) -> SquareNotation {
        match n {
            NotationArg::Numeric => SquareNotation::Numeric,
            NotationArg::Algebraic => SquareNotation::Algebraic,
        }
    }
}

/// Refuses a transposition table size (`--hash`, in MB) the engine cannot be given.
pub fn check_hash_mb(mb: usize) -> anyhow::Result<()> {
    if !(1..=MAX_HASH_MB).contains(&mb) {
        anyhow::bail!("--hash is in MB, between 1 and {MAX_HASH_MB}");
    }
    Ok(())
}

/// How the variant's players write squares: numbers in English, a1-h8 in Russian (the
/// terminal game and its records, and reviewed games).
pub fn customary_notation(variant: Variant) -> SquareNotation {
    match variant {
        Variant::English => SquareNotation::Numeric,
        Variant::Russian => SquareNotation::Algebraic,
    }
}

/// A side as PDN's `Black` and `White` tags name it.
pub fn side_tag(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}

/// The variant, optional FEN and optional moves every position-taking command accepts.
#[derive(clap::Args, Debug, Clone)]
pub struct PositionArgs {
    /// Rules to play by.
    #[arg(long, value_enum, default_value_t = VariantArg::English)]
    pub variant: VariantArg,
    /// Start from this position (PDN FEN, e.g. `B:W21,22,K30:B1,2,K5`) instead of the start.
    #[arg(long)]
    pub fen: Option<String>,
    /// Then play these moves (e.g. `11-15 22-18 15x22`, or a game's moves copied with their
    /// numbers: `1. 11-15 22-18 2. 15x22`).
    #[arg(long)]
    pub moves: Option<String>,
}

impl PositionArgs {
    /// The 8x8 variant (an error for a variant of the rules library's boards, which the
    /// commands read through their own positions: `commands/boards.rs`).
    pub fn variant(&self) -> anyhow::Result<Variant> {
        match self.variant.choice() {
            VariantChoice::Checkers(variant) => Ok(variant),
            VariantChoice::Board(board) => {
                anyhow::bail!("{board} is played on its own board, not the 8x8 one")
            }
        }
    }
    pub fn position(&self) -> anyhow::Result<Position> {
        Ok(self.positions()?.pop().expect("at least the starting position"))
    }
    /// The starting position and the one after each of `--moves`, the last the position asked
    /// for (the others are its game's history, for the draw rules).
    pub fn positions(&self) -> anyhow::Result<Vec<Position>> {
        let variant = self.variant()?;
        let start = match &self.fen {
            None => Position::start(variant),
            Some(text) => Position::from_fen(variant, text).with_context(|| format!("bad --fen `{text}`"))?,
        };
        let mut positions = vec![start];
        let words = self.moves.as_deref().unwrap_or("").split_whitespace();
        // Move numbers (`12.`, `12...`) are skipped, so a game's moves can be pasted as they are.
        let moves = words.filter(|w| !(w.ends_with('.') && w.starts_with(|c: char| c.is_ascii_digit())));
        for (i, text) in moves.enumerate() {
            let current = positions[positions.len() - 1];
            let mv = current
                .parse_move(text)
                .with_context(|| format!("bad --moves: move {} `{text}` in {}", i + 1, current.to_fen()))?;
            positions.push(current.play_unchecked(&mv));
        }
        Ok(positions)
    }
}

/// The next line of `input`, its `\n` or `\r\n` taken off, bytes that are not UTF-8 replaced
/// (a person's keyboard or another program may send any encoding; only ASCII words matter);
/// `None` at the end of input or on a read error.
pub fn read_lossy_line(input: &mut impl std::io::BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&bytes).trim_end_matches(['\n', '\r']).to_string()),
    }
}

/// Where the engine keeps its solved endgame databases between runs: `CHECKERS_CACHE_DIR`
/// when set (set empty, nowhere), else `checkers` in `XDG_CACHE_HOME` or in `~/.cache`.
pub fn cache_dir() -> Option<PathBuf> {
    cache_dir_from(|name| std::env::var_os(name))
}

fn cache_dir_from(variable: impl Fn(&str) -> Option<std::ffi::OsString>) -> Option<PathBuf> {
    let set = |name: &str| variable(name).map(PathBuf::from);
    if let Some(dir) = set("CHECKERS_CACHE_DIR") {
        return (!dir.as_os_str().is_empty()).then_some(dir);
    }
    let base = set("XDG_CACHE_HOME")
        .filter(|dir| dir.is_absolute())
        .or_else(|| set("HOME").filter(|home| home.is_absolute()).map(|home| home.join(".cache")))?;
    Some(base.join("checkers"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_but_english_and_russian_is_a_board_variant() {
        for arg in VariantArg::value_variants() {
            let checkers = matches!(arg, VariantArg::English | VariantArg::Russian);
            assert_eq!(arg.board().is_none(), checkers, "{arg:?}");
            assert_eq!(matches!(arg.choice(), VariantChoice::Checkers(_)), checkers, "{arg:?}");
            if let Some(board) = arg.board() {
                assert_eq!(arg.choice(), VariantChoice::Board(board));
            }
        }
        assert_eq!(BoardVariant::ALL.len() + 2, VariantArg::value_variants().len());
    }

    #[test]
    fn the_cache_folder_follows_the_environment() {
        let with = |pairs: &[(&str, &str)]| {
            cache_dir_from(move |name| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| v.into()))
        };
        assert_eq!(with(&[("HOME", "/home/ann")]), Some(PathBuf::from("/home/ann/.cache/checkers")));
        assert_eq!(
            with(&[("HOME", "/home/ann"), ("XDG_CACHE_HOME", "/var/cache/ann")]),
            Some("/var/cache/ann/checkers".into())
        );
        // A relative XDG_CACHE_HOME is invalid by the XDG rules, and ignored.
        assert_eq!(
            with(&[("HOME", "/home/ann"), ("XDG_CACHE_HOME", "cache")]),
            Some("/home/ann/.cache/checkers".into())
        );
        assert_eq!(with(&[("HOME", "/home/ann"), ("CHECKERS_CACHE_DIR", "dbs")]), Some("dbs".into()));
        assert_eq!(with(&[("HOME", "/home/ann"), ("CHECKERS_CACHE_DIR", "")]), None);
        assert_eq!(with(&[]), None);
    }
}
