//! Match statistics: the score, the Elo difference with its 95% error bar (as cutechess-cli
//! computes them, from the trinomial win/draw/loss counts), and the sequential probability
//! ratio test that decides early whether one player is stronger by `elo1` or at most `elo0`.
//! Each opening is played twice with the colours reversed, and the two games are not
//! independent (an opening that favours one colour tends to give each side a win), so the
//! score of the complete pairs is also given with the error bar of their pentanomial counts
//! (pairs scoring 0, ½, 1, 1½ or 2 points), as fishtest reports it, and the SPRT takes the
//! pair as its sample: the generalised SPRT on logistic Elo as fishtest computes it, the
//! pentanomial distribution's maximum-likelihood estimates under each hypothesis.

/// The two-sided 95% quantile of the normal distribution.
const Z95: f64 = 1.959_963_984_540_054;
/// The count given to a pair outcome not seen yet, so that every outcome stays possible under
/// both hypotheses (fishtest's regularisation): without it a run of identical pairs would
/// have an infinite ratio and decide at once.
const UNSEEN_OUTCOME: f64 = 1e-3;

/// Wins, losses and draws of the first player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

impl Tally {
    /// Adds a game in which the first player scored `points` (1, ½ or 0).
    pub fn count(&mut self, points: f64) {
        match points {
            p if p > 0.75 => self.wins += 1,
            p if p < 0.25 => self.losses += 1,
            _ => self.draws += 1,
        }
    }

    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// Points per game, 0 to 1 (a draw is half a point); `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// The variance of one game's points around the mean score.
    fn variance(&self) -> Option<f64> {
        let mu = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (f64::from(self.wins), f64::from(self.draws), f64::from(self.losses));
        Some((w * (1.0 - mu).powi(2) + d * (0.5 - mu).powi(2) + l * mu.powi(2)) / n)
    }

    /// The Elo difference the score implies; infinite for a clean sweep.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// The ends of the 95% interval of the Elo difference (infinite where it reaches a score
    /// of 0 or 1); cutechess-cli's error bar is half its width.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let mu = self.score()?;
        Some(elo_interval(mu, (self.variance()? / f64::from(self.games())).sqrt()))
    }
}

/// The complete pairs of games of a match (one opening, each player once with each colour),
/// by the first player's points in the pair: `counts[k]` pairs scored `k / 2` points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    pub counts: [u32; 5],
}

impl Pairs {
    /// The pairs among finished games given as (opening, points) with points 0, 0.5 or 1; an
    /// opening with one game finished (a stopped match, `--skip-games` mid-pair) is left out.
    pub fn of_games(games: impl IntoIterator<Item = (usize, f64)>) -> Pairs {
        let mut by_opening: std::collections::BTreeMap<usize, Vec<f64>> = Default::default();
        for (opening, points) in games {
            by_opening.entry(opening).or_default().push(points);
        }
        let mut pairs = Pairs::default();
        for points in by_opening.values().filter(|p| p.len() == 2) {
            let half_points = ((points[0] + points[1]) * 2.0).round() as usize;
            pairs.counts[half_points.min(4)] += 1;
        }
        pairs
    }

    pub fn count(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Points per game over the pairs, 0 to 1; `None` before any pair.
    pub fn score(&self) -> Option<f64> {
        let n = self.count();
        let half_points: u32 = self.counts.iter().enumerate().map(|(k, &c)| k as u32 * c).sum();
        (n > 0).then(|| f64::from(half_points) / (4.0 * f64::from(n)))
    }

    /// The Elo difference the pairs' score implies; infinite for a clean sweep.
    pub fn elo(&self) -> Option<f64> {
        self.score().map(elo_of_score)
    }

    /// The variance of one pair's score (points per game, 0 to 1) around the mean score.
    fn variance(&self) -> Option<f64> {
        let mu = self.score()?;
        let spread: f64 =
            self.counts.iter().zip(PAIR_SCORES).map(|(&c, score)| f64::from(c) * (score - mu).powi(2)).sum();
        Some(spread / f64::from(self.count()))
    }

    /// The ends of the 95% interval of the Elo difference the pairs give.
    pub fn elo_interval(&self) -> Option<(f64, f64)> {
        let mu = self.score()?;
        Some(elo_interval(mu, (self.variance()? / f64::from(self.count())).sqrt()))
    }
}

/// The Elo differences at the ends of the 95% interval of a mean score `mu` with standard
/// error `deviation` (infinite where it reaches a score of 0 or 1).
fn elo_interval(mu: f64, deviation: f64) -> (f64, f64) {
    (elo_of_score(mu - Z95 * deviation), elo_of_score(mu + Z95 * deviation))
}

/// For a clean sweep of `games` games (every one won), the least Elo difference not ruled out
/// at 95%: below it, winning them all has a chance under 2.5% (the one-sided tail of the
/// two-sided interval used elsewhere), counting draws as impossible, which only widens it.
pub fn sweep_lower_bound(games: u32) -> f64 {
    elo_of_score(0.025f64.powf(1.0 / f64::from(games.max(1))))
}

/// The Elo difference at which the stronger side expects `score` points a game.
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// The expected score at an Elo difference.
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The points per game of a pair of each outcome (`Pairs::counts` index: half-points 0 to 4).
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The pentanomial distribution with mean score `mean` most likely to have produced the
/// `observed` frequencies (all positive, summing to 1): `observed[k] / (1 + x (a_k - mean))`,
/// where `x` is the root of `sum observed[k] (a_k - mean) / (1 + x (a_k - mean)) = 0`
/// (Lagrange's condition; M. Van den Bergh's note on the multinomial MLE behind fishtest).
/// The sum falls as `x` rises between the poles `-1 / (1 - mean)` and `1 / mean`, so
/// bisection finds the root.
fn likeliest_with_mean(observed: &[f64; 5], mean: f64) -> [f64; 5] {
    let condition = |x: f64| -> f64 {
        (0..5).map(|k| observed[k] * (PAIR_SCORES[k] - mean) / (1.0 + x * (PAIR_SCORES[k] - mean))).sum()
    };
    let (mut low, mut high) = (-1.0 / (1.0 - mean), 1.0 / mean);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if middle <= low || middle >= high {
            break;
        }
        if condition(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let x = (low + high) / 2.0;
    std::array::from_fn(|k| observed[k] / (1.0 + x * (PAIR_SCORES[k] - mean)))
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtVerdict {
    Continue,
    /// The first player is stronger by `elo1` (H1).
    AcceptH1,
    /// The first player is not stronger than `elo0` (H0).
    AcceptH0,
}

/// A sequential probability ratio test of H0: Elo = `elo0` against H1: Elo = `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
}

impl std::str::FromStr for Sprt {
    type Err = String;
    /// Reads `elo0,elo1,alpha,beta`, e.g. `0,10,0.05,0.05`.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let values: Vec<f64> = text
            .split(',')
            .map(|v| v.trim().parse::<f64>())
            .collect::<Result<_, _>>()
            .map_err(|_| format!("`{text}` is not elo0,elo1,alpha,beta (four numbers)"))?;
        let [elo0, elo1, alpha, beta] = values[..] else {
            return Err(format!("`{text}` is not elo0,elo1,alpha,beta (four numbers)"));
        };
        if !(elo0.is_finite() && elo1.is_finite() && elo0 < elo1) {
            return Err(format!("SPRT needs elo0 < elo1, found {elo0} and {elo1}"));
        }
        // Further out the expected score is 0 or 1 to the precision of a float.
        if elo0 < -1000.0 || elo1 > 1000.0 {
            return Err(format!("SPRT Elo bounds must lie within -1000 and 1000, found {elo0} and {elo1}"));
        }
        if !(alpha > 0.0 && alpha < 0.5 && beta > 0.0 && beta < 0.5) {
            return Err(format!("SPRT alpha and beta must be between 0 and 0.5, found {alpha} and {beta}"));
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }
}

impl Sprt {
    /// The log-likelihood ratio of H1 against H0 after the complete `pairs` (0 before any).
    /// Each pair is one sample: a game whose opening's other game is not finished waits for
    /// it, and one whose other game is not in the schedule (`--skip-games` mid-pair) never
    /// counts.
    pub fn llr(&self, pairs: &Pairs) -> f64 {
        if pairs.count() == 0 {
            return 0.0;
        }
        let counts = pairs.counts.map(|c| if c == 0 { UNSEEN_OUTCOME } else { f64::from(c) });
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let under_h0 = likeliest_with_mean(&observed, score_of_elo(self.elo0));
        let under_h1 = likeliest_with_mean(&observed, score_of_elo(self.elo1));
        n * (0..5).map(|k| observed[k] * (under_h1[k] / under_h0[k]).ln()).sum::<f64>()
    }

    /// The bounds on the LLR: below the first H0 is accepted, above the second H1.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    pub fn verdict(&self, pairs: &Pairs) -> SprtVerdict {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtVerdict::AcceptH1
        } else if llr <= lower {
            SprtVerdict::AcceptH0
        } else {
            SprtVerdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tolerance: f64) -> bool {
        (a - b).abs() <= tolerance
    }

    /// Half the width of an interval, as cutechess-cli prints its error bar.
    fn margin((low, high): (f64, f64)) -> f64 {
        (high - low) / 2.0
    }

    #[test]
    fn elo_of_known_scores() {
        assert_eq!(elo_of_score(0.5), 0.0);
        assert!(close(elo_of_score(0.75), 190.848, 1e-3));
        assert!(close(elo_of_score(0.64), 99.951, 1e-3));
        assert!(close(elo_of_score(0.25), -190.848, 1e-3));
        assert!(close(score_of_elo(190.848), 0.75, 1e-6));
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    /// cutechess-cli prints "Elo difference: 34.9 +/- 34.2" for +60 -40 =100.
    #[test]
    fn elo_and_error_bar_as_cutechess() {
        let t = Tally { wins: 60, losses: 40, draws: 100 };
        assert_eq!(t.score(), Some(0.55));
        assert!(close(t.elo().unwrap(), 34.860, 1e-3), "{:?}", t.elo());
        assert!(close(margin(t.elo_interval().unwrap()), 34.159, 1e-3), "{:?}", t.elo_interval());
        let t = Tally { wins: 120, losses: 80, draws: 114 };
        assert!(close(t.elo().unwrap(), 44.501, 1e-3));
        assert!(close(margin(t.elo_interval().unwrap()), 30.861, 1e-3));
        assert_eq!(Tally::default().elo(), None);
        let sweep = Tally { wins: 3, losses: 0, draws: 0 };
        assert_eq!(sweep.elo(), Some(f64::INFINITY));
        assert_eq!(sweep.elo_interval(), Some((f64::INFINITY, f64::INFINITY)));
    }

    /// The ratios are those of fishtest's `LLR_logistic` for the same pentanomial counts
    /// (worked out apart from this code: a bisection for each hypothesis's likeliest
    /// distribution, unseen outcomes counted 0.001).
    #[test]
    fn sprt_log_likelihood_ratio_and_bounds() {
        let sprt: Sprt = "0,10,0.05,0.05".parse().unwrap();
        let (lower, upper) = sprt.bounds();
        assert!(close(lower, -2.944_439, 1e-6) && close(upper, 2.944_439, 1e-6));
        assert_eq!(sprt.llr(&Pairs::default()), 0.0);
        // 40 openings each won once by each side, 10 won with one colour and drawn with the
        // other; and the mirror image.
        let ahead = Pairs { counts: [0, 0, 40, 10, 0] };
        assert!(close(sprt.llr(&ahead), 1.417_949, 1e-5), "{}", sprt.llr(&ahead));
        let behind = Pairs { counts: [0, 10, 40, 0, 0] };
        assert!(close(sprt.llr(&behind), -1.459_543, 1e-5), "{}", sprt.llr(&behind));
        let spread = Pairs { counts: [2, 6, 70, 14, 8] };
        assert!(close(sprt.llr(&spread), 1.660_931, 1e-5), "{}", sprt.llr(&spread));
        assert_eq!(sprt.verdict(&spread), SprtVerdict::Continue);
        // Nothing but one-point pairs slowly accepts "no difference".
        assert!(close(sprt.llr(&Pairs { counts: [0, 0, 9, 0, 0] }), -0.256_705, 1e-5));
        assert_eq!(sprt.verdict(&Pairs { counts: [0, 0, 120, 0, 0] }), SprtVerdict::AcceptH0);
        // A sweep does not decide at once: one pair won twice is little evidence.
        let wide: Sprt = "0,50,0.05,0.05".parse().unwrap();
        assert!(close(wide.llr(&Pairs { counts: [0, 0, 0, 0, 1] }), 0.133_837, 1e-5));
        assert!(close(wide.llr(&Pairs { counts: [0, 0, 0, 0, 20] }), 2.672_083, 1e-5));
        assert_eq!(wide.verdict(&Pairs { counts: [0, 0, 0, 0, 20] }), SprtVerdict::Continue);
        assert_eq!(wide.verdict(&Pairs { counts: [0, 0, 0, 0, 25] }), SprtVerdict::AcceptH1);
        assert_eq!(wide.verdict(&Pairs { counts: [25, 0, 0, 0, 0] }), SprtVerdict::AcceptH0);
        assert_eq!(sprt.verdict(&Pairs { counts: [0, 10, 200, 0, 0] }), SprtVerdict::AcceptH0);
        // With so little spread, a few pairs decide: 200 one-point pairs and 5 of 1½ (+4 Elo)
        // lean to H0, with 10 (+8 Elo) H1 is accepted.
        assert!(close(sprt.llr(&Pairs { counts: [0, 0, 200, 5, 0] }), -0.493_837, 1e-5));
        assert!(close(sprt.llr(&Pairs { counts: [0, 0, 200, 10, 0] }), 3.843_294, 1e-5));
        assert_eq!(sprt.verdict(&Pairs { counts: [0, 0, 200, 10, 0] }), SprtVerdict::AcceptH1);
    }

    /// Over every small pentanomial count: the ratio is finite, and swapping the players
    /// (the counts reversed, the hypotheses mirrored) turns it round exactly.
    #[test]
    fn sprt_ratio_is_finite_and_symmetric_between_the_players() {
        let sprt: Sprt = "-5,15,0.05,0.05".parse().unwrap();
        let mirrored = Sprt { elo0: -15.0, elo1: 5.0, ..sprt };
        for code in 0..4u32.pow(5) {
            let counts: [u32; 5] = std::array::from_fn(|k| code / 4u32.pow(k as u32) % 4);
            let mut reversed = counts;
            reversed.reverse();
            let (there, back) = (sprt.llr(&Pairs { counts }), mirrored.llr(&Pairs { counts: reversed }));
            assert!(there.is_finite(), "{counts:?}: {there}");
            assert!(close(there, -back, 1e-6), "{counts:?}: {there} against {back}");
        }
    }

    #[test]
    fn sprt_text_is_checked() {
        assert!("0,10,0.05".parse::<Sprt>().is_err());
        assert!("10,0,0.05,0.05".parse::<Sprt>().is_err());
        assert!("0,10,0.7,0.05".parse::<Sprt>().is_err());
        assert!("a,b,c,d".parse::<Sprt>().is_err());
        assert!("0,5000,0.05,0.05".parse::<Sprt>().is_err());
        assert!("-1000,1000,0.05,0.05"
            .parse::<Sprt>()
            .unwrap()
            .llr(&Pairs { counts: [1, 2, 3, 4, 5] })
            .is_finite());
    }

    #[test]
    fn pairs_are_counted_by_opening_and_narrow_the_error_bar_when_colour_decides() {
        // Openings 0-3 complete, opening 4 with one game: left out.
        let games =
            [(0, 1.0), (0, 0.0), (1, 0.5), (1, 0.5), (2, 1.0), (2, 0.5), (3, 0.0), (3, 0.0), (4, 1.0)];
        let pairs = Pairs::of_games(games);
        assert_eq!(pairs.counts, [1, 0, 2, 1, 0]);
        assert_eq!(pairs.score(), Some(0.4375));
        assert_eq!(Pairs::default().score(), None);
        // 40 openings each won once by each side, 10 won with one colour and drawn with the
        // other: the same games as +50 -40 =10, whose per-game error bar is wider, since it
        // counts the colour's wins as chance.
        let pairs = Pairs { counts: [0, 0, 40, 10, 0] };
        let tally = Tally { wins: 50, losses: 40, draws: 10 };
        assert_eq!(pairs.score(), tally.score());
        let (paired, single) = (margin(pairs.elo_interval().unwrap()), margin(tally.elo_interval().unwrap()));
        assert!(close(paired, 19.476, 1e-3), "{paired}");
        assert!(paired < single / 3.0, "{paired} against {single}");
        assert_eq!(Pairs { counts: [0, 0, 0, 0, 3] }.elo_interval(), Some((f64::INFINITY, f64::INFINITY)));
    }
}
