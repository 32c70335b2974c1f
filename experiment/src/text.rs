//! How the experiment's numbers are written in its tables and its plot.

/// Thousands separated by commas: `1752927` → `1,752,927`.
pub fn grouped(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// An Elo figure with its sign and one decimal: `+12.3`, `-4.0`; `0.0`
/// where it rounds to zero (no `-0.0`).
pub fn signed(x: f64) -> String {
    if x.abs() < 0.05 {
        "0.0".into()
    } else {
        format!("{x:+.1}")
    }
}

/// Time factors as the report writes them: "0.5, 0.7, 1.4, 2".
pub fn factor_list(factors: &[f64]) -> String {
    factors
        .iter()
        .map(|f| f.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
