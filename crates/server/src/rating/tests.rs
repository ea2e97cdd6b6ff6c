use proptest::prelude::*;

use super::*;

/// `x` rounded to `decimals` places, as an integer (so comparisons are exact).
fn rounded(x: f64, decimals: i32) -> i64 {
    (x * 10f64.powi(decimals)).round() as i64
}

fn rating(rating: f64, rd: f64, volatility: f64) -> Rating {
    Rating { rating, rd, volatility }
}

#[test]
fn glickmans_worked_example_unrounded() {
    let player = rating(1500.0, 200.0, 0.06);
    let games = [
        PeriodGame { opponent: rating(1400.0, 30.0, 0.06), score: Score::Win },
        PeriodGame { opponent: rating(1550.0, 100.0, 0.06), score: Score::Loss },
        PeriodGame { opponent: rating(1700.0, 300.0, 0.06), score: Score::Loss },
    ];
    let after = player.after_period(&games);
    assert_eq!(rounded(after.rating, 4), 1464_0507, "{after:?}");
    assert_eq!(rounded(after.rd, 4), 151_5165, "{after:?}");
    assert_eq!(rounded(after.volatility, 6), 59996, "{after:?}");
}

#[test]
fn a_new_player_starts_at_the_papers_values_and_is_provisional() {
    assert_eq!(Rating::default(), rating(1500.0, 350.0, 0.06));
    assert!(Rating::START.is_provisional());
    assert!(rating(1500.0, 110.01, 0.06).is_provisional());
    assert!(!rating(1500.0, 110.0, 0.06).is_provisional());
}

#[test]
fn equal_players_drawing_keep_their_ratings() {
    let player = rating(1620.0, 80.0, 0.06);
    let after = player.after_game(player, Score::Draw);
    assert_eq!(after.rating, player.rating);
}

#[test]
fn a_game_between_equals_moves_both_by_the_same_amount() {
    let (winner, loser) = rate_game(Standing::NEW, Standing::NEW, Score::Win, 0);
    assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
    assert_eq!(rounded(winner.rating - 1500.0, 9), rounded(1500.0 - loser.rating, 9));
    assert_eq!(winner.rd, loser.rd);
    assert_eq!(winner.volatility, loser.volatility);
}

#[test]
fn idle_days_count_whole_days_only() {
    let last = Some(1_000_000);
    assert_eq!(idle_days(None, 5 * DAY_MS), 0);
    assert_eq!(idle_days(last, 1_000_000 + DAY_MS - 1), 0);
    assert_eq!(idle_days(last, 1_000_000 + DAY_MS), 1);
    assert_eq!(idle_days(last, 1_000_000 + 2 * DAY_MS - 60_000), 1);
    assert_eq!(idle_days(last, 1_000_000 + 30 * DAY_MS + 5), 30);
    assert_eq!(idle_days(last, 0), 0, "a clock that went backwards counts nothing");
}

#[test]
fn idle_growth_follows_the_formula_and_stops_at_350() {
    let player = rating(1700.0, 60.0, 0.06);
    let phi = 60.0 / SCALE;
    let expected = (phi * phi + 0.06 * 0.06 * 10.0).sqrt() * SCALE;
    assert_eq!(player.after_idle_days(10).rd, expected);
    assert_eq!(player.after_idle_days(0), player);
    assert_eq!(player.after_idle_days(1_000_000).rd, MAX_RD);
    let after = player.after_idle_days(10);
    assert_eq!((after.rating, after.volatility), (player.rating, player.volatility));
}

#[test]
fn rate_game_grows_each_rd_first_and_rates_against_the_grown_opponent() {
    let now = 100 * DAY_MS;
    let first = Standing { rating: rating(1650.0, 70.0, 0.06), last_rated_ms: Some(now - 40 * DAY_MS - 5) };
    let second = Standing { rating: rating(1590.0, 120.0, 0.059), last_rated_ms: Some(now - DAY_MS / 2) };
    let first_before = first.rating.after_idle_days(40);
    let second_before = second.rating;
    let (a, b) = rate_game(first, second, Score::Loss, now);
    assert_eq!(a, first_before.after_game(second_before, Score::Loss));
    assert_eq!(b, second_before.after_game(first_before, Score::Win));
    assert_ne!(first_before, first.rating, "forty idle days grow the RD");
}

#[test]
fn an_empty_period_is_one_idle_day() {
    let player = rating(1400.0, 90.0, 0.07);
    assert_eq!(player.after_period(&[]), player.after_idle_days(1));
}

/// Playing one game per period, an established player's RD settles near 60: step 6 adds the
/// volatility back before each game's information is taken off (see the module docs).
#[test]
fn rds_settle_near_60_with_one_game_per_period() {
    let (mut a, mut b) = (Standing::NEW, Standing::NEW);
    for game in 0..400 {
        let score = [Score::Win, Score::Loss, Score::Draw][game % 3];
        let (x, y) = rate_game(a, b, score, 0);
        a.rating = x;
        b.rating = y;
    }
    assert!((50.0..70.0).contains(&a.rating.rd), "{:?}", a.rating);
    assert!(!a.rating.is_provisional());
}

#[test]
fn speed_classes_at_their_boundaries() {
    use SpeedClass::*;
    assert_eq!(SpeedClass::from_clock(179, 0), Bullet);
    assert_eq!(SpeedClass::from_clock(180, 0), Blitz);
    assert_eq!(SpeedClass::from_clock(479, 0), Blitz);
    assert_eq!(SpeedClass::from_clock(480, 0), Rapid);
    assert_eq!(SpeedClass::from_clock(1499, 0), Rapid);
    assert_eq!(SpeedClass::from_clock(1500, 0), Classical);
    // The increment counts forty times: 60 + 40 × 3 = 180.
    assert_eq!(SpeedClass::from_clock(59, 3), Bullet);
    assert_eq!(SpeedClass::from_clock(60, 3), Blitz);
    assert_eq!(SpeedClass::from_clock(0, 12), Rapid);
    assert_eq!(SpeedClass::from_clock(900, 15), Classical);
    assert_eq!(SpeedClass::from_clock_ms(179_999, 0), Bullet);
    assert_eq!(SpeedClass::from_clock_ms(i64::MAX, i64::MAX), Classical);
    assert_eq!(SpeedClass::from_clock(u32::MAX, u32::MAX), Classical);
}

#[test]
fn speed_class_names() {
    for speed in SpeedClass::ALL {
        assert_eq!(speed.name().parse::<SpeedClass>(), Ok(speed));
        assert_eq!(serde_json::to_string(&speed).unwrap(), format!("\"{speed}\""));
        assert_eq!(serde_json::from_str::<SpeedClass>(&format!("\"{speed}\"")).unwrap(), speed);
    }
    assert_eq!("Blitz".parse::<SpeedClass>(), Err(UnknownSpeed("Blitz".to_string())));
}

fn any_rating() -> impl Strategy<Value = Rating> {
    (0.0..3500.0f64, 30.0..=350.0f64, 0.01..0.2f64).prop_map(|(r, rd, vol)| rating(r, rd, vol))
}

fn any_score() -> impl Strategy<Value = Score> {
    prop_oneof![Just(Score::Win), Just(Score::Draw), Just(Score::Loss)]
}

/// The rating mirrored about 1500, which Glicko-2 treats as swapping wins and losses.
fn mirrored(r: Rating) -> Rating {
    Rating { rating: 2.0 * START_RATING - r.rating, ..r }
}

proptest! {
    #[test]
    fn a_win_never_lowers_a_rating_and_a_loss_never_raises_it(player in any_rating(), opponent in any_rating()) {
        prop_assert!(player.after_game(opponent, Score::Win).rating >= player.rating);
        prop_assert!(player.after_game(opponent, Score::Loss).rating <= player.rating);
    }

    #[test]
    fn the_game_always_takes_rd_below_the_periods_grown_rd(player in any_rating(), opponent in any_rating(), score in any_score()) {
        let after = player.after_game(opponent, score);
        let phi_star = ((player.rd / SCALE).powi(2) + after.volatility.powi(2)).sqrt() * SCALE;
        prop_assert!(after.rd < phi_star, "{after:?} against φ* {phi_star}");
    }

    #[test]
    fn a_provisional_rd_shrinks_after_a_game_within_400_points(
        player in (0.0..3500.0f64, PROVISIONAL_RD..=350.0f64, 0.01..=0.1f64).prop_map(|(r, rd, vol)| rating(r, rd, vol)),
        opponent in any_rating(),
        gap in -400.0..=400.0f64,
        score in any_score(),
    ) {
        let opponent = Rating { rating: player.rating + gap, ..opponent };
        let after = player.after_game(opponent, score);
        prop_assert!(after.rd < player.rd, "{player:?} against {opponent:?}: {after:?}");
    }

    #[test]
    fn rd_grows_with_idle_days_and_never_above_350(player in any_rating(), d1 in 0u64..5000, extra in 0u64..5000) {
        let sooner = player.after_idle_days(d1);
        let later = player.after_idle_days(d1 + extra);
        prop_assert!(player.rd <= sooner.rd && sooner.rd <= later.rd && later.rd <= MAX_RD);
        if d1 > 0 && player.rd < MAX_RD {
            prop_assert!(sooner.rd > player.rd);
        }
    }

    #[test]
    fn the_volatility_stays_positive_and_finite(
        player in (-500.0..5000.0f64, 1.0..=350.0f64, 0.001..1.0f64),
        opponents in prop::collection::vec(((-500.0..5000.0f64, 1.0..=350.0f64), any_score()), 1..12),
    ) {
        let player = rating(player.0, player.1, player.2);
        let games: Vec<PeriodGame> = opponents
            .into_iter()
            .map(|((r, rd), score)| PeriodGame { opponent: rating(r, rd, 0.06), score })
            .collect();
        let after = player.after_period(&games);
        prop_assert!(after.volatility > 0.0 && after.volatility.is_finite(), "{after:?}");
        prop_assert!(after.rating.is_finite() && after.rd.is_finite() && after.rd > 0.0, "{after:?}");
    }

    #[test]
    fn outcomes_are_symmetric(player in any_rating(), opponent in any_rating(), score in any_score()) {
        let after = player.after_game(opponent, score);
        let mirror = mirrored(player).after_game(mirrored(opponent), score.opposite());
        // Equal up to rounding and step 5's tolerance: E and 1 − E are computed apart, and
        // the Illinois steps may stop one step apart (within ε = 1e-6 on ln σ²).
        prop_assert!((mirrored(mirror).rating - after.rating).abs() < 1e-6);
        prop_assert!((mirror.rd - after.rd).abs() < 1e-6);
        prop_assert!((mirror.volatility - after.volatility).abs() < 1e-7);
    }

    #[test]
    fn equal_players_move_by_equal_and_opposite_amounts(player in any_rating(), score in any_score()) {
        let (a, b) = rate_game(Standing { rating: player, last_rated_ms: None }, Standing { rating: player, last_rated_ms: None }, score, 0);
        prop_assert!(((a.rating - player.rating) + (b.rating - player.rating)).abs() < 1e-9);
        prop_assert_eq!(a.rd, b.rd);
    }
}
