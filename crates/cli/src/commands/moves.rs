//! `checkers moves`: the legal moves of a position, one a line, sorted as strings.

use checkers_rules::SquareNotation;

use crate::common::{NotationArg, PositionArgs};

#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// `pdn` prints the long form (`9x18x27`); `hub` prints `from-to` or `fromxtoxcaptured...`.
    #[arg(long, value_enum, default_value_t = Format::Pdn)]
    format: Format,
    /// Squares as numbers (1-32) or algebraic names (a1-h8).
    #[arg(long, value_enum, default_value_t = NotationArg::Numeric)]
    notation: NotationArg,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Format {
    Pdn,
    Hub,
}

pub fn run(args: Args) -> anyhow::Result<()> {
    if let Some(variant) = args.position.variant.board() {
        // Each of these variants has one way to write squares: numbers, or names on Turkish's
        // board, which has no customary numbers (so either `--notation` gives its names).
        if matches!(args.notation, NotationArg::Algebraic) && !variant.algebraic() {
            anyhow::bail!("--notation algebraic: {variant} squares are numbers (1-{})", variant.squares());
        }
        for line in super::boards::moves(variant, &args.position, matches!(args.format, Format::Hub))? {
            println!("{line}");
        }
        return Ok(());
    }
    let position = args.position.position()?;
    let notation: SquareNotation = args.notation.into();
    let mut lines: Vec<String> = position
        .legal_moves()
        .iter()
        .map(|m| match args.format {
            Format::Pdn => m.to_pdn(&position, notation),
            Format::Hub => m.to_hub(),
        })
        .collect();
    lines.sort();
    for line in lines {
        println!("{line}");
    }
    Ok(())
}
