//! The match's schedule, shared by the runner and `-resume`: which engine
//! has White in each game of a round, and the game's PGN `Round` tag.

/// Whether the first engine has White in game `game` of round `round`
/// (both 0-based): with pairs in the first game, with single games in
/// every other round.
pub fn first_is_white(games_per_round: usize, round: usize, game: usize) -> bool {
    if games_per_round == 2 {
        game == 0
    } else {
        round.is_multiple_of(2)
    }
}

/// PGN's `Round` tag of a game: `R.G` for pairs, `R` for single games
/// (1-based).
pub fn round_tag(games_per_round: usize, round: usize, game: usize) -> String {
    if games_per_round == 2 {
        format!("{}.{}", round + 1, game + 1)
    } else {
        (round + 1).to_string()
    }
}
