//! `borrow-tune`: fits the hand-crafted evaluation's weights to labelled
//! positions and writes them as `engine/src/eval/weights.rs` (see
//! [`tune::texel`]), or fits `UCI_ShowWDL`'s model (`--wdl`). Its command
//! line is clap's, as the engine's, the trainer's and the book tool's.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use tune::{Config, run};

/// borrow-tune: fit the evaluation's weights to labelled positions
/// (Texel's method)
#[derive(Parser, Debug)]
#[command(
    name = "borrow-tune",
    version,
    after_help = "Exit status: 0 done, 2 bad arguments or data."
)]
struct Cli {
    /// Labelled positions: 'FEN | score | result' lines (White's side; plain,
    /// gzip or xz), marlinformat records (*.bin) or viriformat games (*.vf,
    /// *.vf.xz)
    #[arg(long, required = true, num_args = 1.., value_name = "FILE")]
    data: Vec<PathBuf>,
    /// Write the weights as Rust source there (engine/src/eval/weights.rs to
    /// use them) [default: not written]
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Passes of full-batch Adam
    #[arg(long, value_name = "N", default_value_t = Config::default().epochs)]
    epochs: usize,
    /// Adam's step, centipawns
    #[arg(long, value_name = "X", default_value_t = Config::default().learning_rate)]
    lr: f64,
    /// The share of the game result in the target, 0 to 1
    #[arg(long, value_name = "X", default_value_t = Config::default().lambda,
          value_parser = parse_share)]
    lambda: f64,
    /// The logistic scale [default: fitted to the data]
    #[arg(long, value_name = "X")]
    k: Option<f64>,
    /// Read at most N positions [default: all]
    #[arg(long, value_name = "N")]
    max_positions: Option<usize>,
    /// Threads [default: the cores]
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    threads: Option<u64>,
    /// Print the losses every N epochs
    #[arg(long, value_name = "N", default_value_t = Config::default().report_every)]
    report: usize,
    /// Instead: fit UCI_ShowWDL's win/draw/loss model (engine::win_rate) to
    /// the positions' results and print its source
    #[arg(long)]
    wdl: bool,
}

fn parse_share(s: &str) -> Result<f64, String> {
    let x: f64 = s.parse().map_err(|_| format!("'{s}' is not a number"))?;
    if (0.0..=1.0).contains(&x) {
        Ok(x)
    } else {
        Err(format!("{x} is not between 0 and 1"))
    }
}

/// `--wdl`: fits and prints the model.
fn fit_wdl(data: &[PathBuf]) -> ExitCode {
    match tune::win_rate::run(data) {
        Ok(f) => {
            let m = f.model;
            println!(
                "{} positions read, {} fitted on; loss (mean -ln p of the result) {:.5} with the current model, {:.5} fitted",
                f.read, f.used, f.loss.0, f.loss.1
            );
            println!(
                "pub const MODEL: Model = Model {{\n    a: [{:.1}, {:.1}],\n    b: [{:.1}, {:.1}],\n}};",
                m.a[0], m.a[1], m.b[0], m.b[1]
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("borrow-tune: {e}");
            ExitCode::from(2)
        }
    }
}

fn main() -> ExitCode {
    // Help, version and bad arguments: clap prints them and exits (0 or 2).
    let cli = Cli::parse();
    if cli.wdl {
        return fit_wdl(&cli.data);
    }
    let defaults = Config::default();
    let cfg = Config {
        data: cli.data,
        max_positions: cli.max_positions.unwrap_or(defaults.max_positions),
        epochs: cli.epochs,
        learning_rate: cli.lr,
        lambda: cli.lambda,
        k: cli.k,
        threads: cli.threads.map_or(defaults.threads, |t| t as usize),
        report_every: cli.report,
        out: cli.out,
    };
    match run(&cfg, |line| eprintln!("{line}")) {
        Ok(t) => {
            println!(
                "K {:.4}; loss (training, validation) before {:.6}, {:.6}; after {:.6}, {:.6}",
                t.k, t.loss_before.0, t.loss_before.1, t.loss_after.0, t.loss_after.1
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("borrow-tune: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_line_is_well_formed() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn a_share_outside_zero_to_one_is_refused() {
        assert!(Cli::try_parse_from(["borrow-tune", "--data", "a", "--lambda", "1.5"]).is_err());
        assert!(Cli::try_parse_from(["borrow-tune", "--lambda", "0.5"]).is_err());
        let cli =
            Cli::try_parse_from(["borrow-tune", "--data", "a", "b", "--lambda=0.25"]).unwrap();
        assert_eq!((cli.data.len(), cli.lambda), (2, 0.25));
    }
}
