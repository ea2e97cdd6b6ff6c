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
        if matches!(args.notation, NotationArg::Algebraic) {
            anyhow::bail!("--notation algebraic: {variant} squares are numbers (1-{})", squares(variant));
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

/// The number of squares of a board variant's board (half of them all).
fn squares(variant: checkers_rules::board::BoardVariant) -> u32 {
    variant.board_side() * variant.board_side() / 2
}
