//! `borrow-experiment sample-openings`: the opening suite the experiment
//! ships with, picked by a seeded shuffle.

use crate::args::SampleOptions;
use matches::openings::Format;

/// Picks `count` of the positions of an EPD text with a seeded shuffle
/// (the `book` crate's SplitMix64 and Fisher–Yates), and returns their lines
/// verbatim, in the order of the source. Lines that are blank, comments, or
/// not positions the match referee accepts are never picked. Fails if there
/// are fewer usable positions than `count`.
pub fn sample_openings(text: &str, count: usize, seed: u64) -> Result<Vec<&str>, String> {
    let mut usable: Vec<&str> = Vec::new();
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (o, e) = matches::openings::read(trimmed, Format::Epd, None);
        if o.len() == 1 && e.is_empty() {
            usable.push(line);
        }
    }
    if usable.len() < count {
        return Err(format!(
            "only {} usable positions, {count} asked for",
            usable.len()
        ));
    }
    let mut index: Vec<usize> = (0..usable.len()).collect();
    rng::Rng::new(seed).shuffle(&mut index);
    let mut chosen = index[..count].to_vec();
    chosen.sort_unstable();
    Ok(chosen.into_iter().map(|i| usable[i]).collect())
}

/// Runs `sample-openings`.
pub fn run_sample(s: &SampleOptions) -> Result<String, String> {
    let text = book::read_text(&s.from).map_err(|e| format!("{}: {e}", s.from.display()))?;
    let lines = sample_openings(&text, s.count, s.seed)?;
    let mut body = lines.join("\n");
    body.push('\n');
    std::fs::write(&s.out, body).map_err(|e| format!("{}: {e}", s.out.display()))?;
    Ok(format!(
        "{}: {} of {} (seed {})",
        s.out.display(),
        book::plural(lines.len(), "position"),
        s.from.display(),
        s.seed
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sampling_openings() {
        let text = "\
# comment
rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1
not a position

rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq - 0 1
rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 1
rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3
";
        let a = sample_openings(text, 3, 5).unwrap();
        assert_eq!(a, sample_openings(text, 3, 5).unwrap());
        assert_eq!(a.len(), 3);
        // In source order, only positions a game can start from.
        let all = sample_openings(text, 4, 9).unwrap();
        assert_eq!(all.len(), 4);
        assert!(all[0].contains("4P3"));
        assert!(all[3].contains("5N2"));
        let positions: Vec<usize> = a
            .iter()
            .map(|l| all.iter().position(|x| x == l).unwrap())
            .collect();
        assert!(positions.windows(2).all(|w| w[0] < w[1]));
        let seeds: std::collections::HashSet<Vec<&str>> = (0..20)
            .map(|s| sample_openings(text, 2, s).unwrap())
            .collect();
        assert!(seeds.len() > 1, "the seed changes the choice");
        assert!(sample_openings(text, 5, 0).unwrap_err().contains("only 4"));
    }
}
