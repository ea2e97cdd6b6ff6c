//! The evaluation's weights: one plain integer for each term, fitted by the tuner.

#[cfg(any(test, feature = "tune"))]
use checkers_rules::Variant;

#[cfg(any(test, feature = "tune"))]
use super::tables::SquareValues;
use super::tables::{BlendedFormations, BlendedSquares, Patterns};

/// The weights of one variant. Plain integers so the tuner can fit them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    pub man: i32,
    pub king: i32,
    /// Per man on its own back rank, scaled by how many pieces remain.
    pub back_rank: i32,
    /// Both bridge squares held (English).
    pub bridge: i32,
    pub centre_man: i32,
    pub centre_king: i32,
    /// Per rank of advance per man, scaled up as the board empties.
    pub advance: i32,
    /// Per man backed on both rear diagonals.
    pub support: i32,
    /// Per free square a piece could step to.
    pub mobility: i32,
    pub trapped_king: i32,
    /// Per rank of advance of a man no enemy man can stop (out of eight steps to a king).
    pub runaway: i32,
    /// Kings on the main road and on the double road (Russian).
    pub main_diagonal: i32,
    pub double_diagonal: i32,
    /// Per piece off the board, for the side ahead in material.
    pub trade: i32,
    /// Per man more on one half of the board (files a-d or e-h) than on the other.
    pub imbalance: i32,
    /// Per piece of the side to move that the opponent could take if it were its turn (the
    /// capture search settles only the mover's captures), and once more for two or more.
    pub threatened: i32,
    pub double_threat: i32,
    /// Values by square, fitted to self-play results (`checkers-tune fit-squares`); none for a
    /// variant without them, whose evaluation then skips the per-piece reads altogether.
    pub squares: Option<&'static BlendedSquares>,
    /// Values of the men's formations (`checkers-tune fit-squares`), none for a variant
    /// without them.
    pub formations: Option<&'static BlendedFormations>,
    /// Values of the men of both sides together on two neighbouring ranks
    /// (`checkers-tune fit-squares`), none for a variant without them.
    pub patterns: Option<&'static Patterns>,
}

/// What the tuner (and the tests) read and adjust.
#[cfg(any(test, feature = "tune"))]
impl Weights {
    /// The number of weights, for the tuner.
    pub const COUNT: usize = 17;
    /// Their names, in declaration order.
    pub const NAMES: [&'static str; Weights::COUNT] = [
        "man",
        "king",
        "back_rank",
        "bridge",
        "centre_man",
        "centre_king",
        "advance",
        "support",
        "mobility",
        "trapped_king",
        "runaway",
        "main_diagonal",
        "double_diagonal",
        "trade",
        "imbalance",
        "threatened",
        "double_threat",
    ];

    /// Every weight, in declaration order, for the tuner to adjust one at a time.
    pub fn values_mut(&mut self) -> [&mut i32; Weights::COUNT] {
        [
            &mut self.man,
            &mut self.king,
            &mut self.back_rank,
            &mut self.bridge,
            &mut self.centre_man,
            &mut self.centre_king,
            &mut self.advance,
            &mut self.support,
            &mut self.mobility,
            &mut self.trapped_king,
            &mut self.runaway,
            &mut self.main_diagonal,
            &mut self.double_diagonal,
            &mut self.trade,
            &mut self.imbalance,
            &mut self.threatened,
            &mut self.double_threat,
        ]
    }

    /// The square values the evaluation adds (all zero for a variant without them).
    pub fn square_values(&self) -> SquareValues {
        self.squares.map_or(SquareValues::ZERO, |s| s.values)
    }

    pub fn of(variant: Variant) -> &'static Weights {
        match variant {
            Variant::English => &Weights::ENGLISH,
            Variant::Russian => &Weights::RUSSIAN,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weight_names_follow_the_declaration_order() {
        let mut w = Weights::ENGLISH;
        for (i, value) in w.values_mut().into_iter().enumerate() {
            *value = 1000 + i as i32;
        }
        let text = format!("{w:?}");
        for (i, name) in Weights::NAMES.iter().enumerate() {
            assert!(text.contains(&format!(" {name}: {},", 1000 + i)), "{name} in {text}");
        }
    }
}
