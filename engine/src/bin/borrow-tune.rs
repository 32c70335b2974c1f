//! `borrow-tune`: fits the evaluation's weights to labelled positions and
//! writes them as `engine/src/eval/weights.rs` (see `engine::tune`).

use std::path::PathBuf;
use std::process::ExitCode;

use engine::tune::{Config, run};

const USAGE: &str = "\
borrow-tune: fit the evaluation's weights to labelled positions (Texel's method).

usage: borrow-tune --data FILE [--data FILE...] [OPTIONS]

  --data FILE         lines 'FEN | score | result' (White's side; plain or gzip),
                      or borrow datagen's binary records if FILE ends in .bin
  --out FILE          write the weights as Rust source there
                      (engine/src/eval/weights.rs to use them; default: not written)
  --epochs N          passes of full-batch Adam (default 400)
  --lr X              Adam's step, centipawns (default 1.0)
  --lambda X          share of the game result in the target, 0..1 (default 0.5)
  --k X               the logistic scale (default: fitted to the data)
  --max-positions N   read at most N positions
  --threads N         threads (default: all cores)
  --report N          print the losses every N epochs (default 25)
  --wdl               instead: fit UCI_ShowWDL's win/draw/loss model (engine::win_rate)
                      to the --data positions' results and print its source
  -h, --help          this help
  --version           the version

Exit status: 0 done, 2 bad arguments or data.
";

fn parse(args: &[String]) -> Result<Option<(Config, bool)>, String> {
    let mut cfg = Config::default();
    let mut wdl = false;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (key, inline) = match arg.split_once('=') {
            Some((k, v)) if k.starts_with("--") => (k, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        if matches!(key, "-h" | "--help") {
            print!("{USAGE}");
            return Ok(None);
        }
        if key == "--version" {
            println!("borrow-tune {}", env!("CARGO_PKG_VERSION"));
            return Ok(None);
        }
        if key == "--wdl" {
            wdl = true;
            continue;
        }
        let mut value = || {
            inline
                .clone()
                .or_else(|| it.next().cloned())
                .ok_or_else(|| format!("{key} needs a value"))
        };
        fn num<T: std::str::FromStr>(key: &str, v: &str) -> Result<T, String> {
            v.parse()
                .map_err(|_| format!("{key}: '{v}' is not a valid number"))
        }
        match key {
            "--data" => cfg.data.push(PathBuf::from(value()?)),
            "--out" => cfg.out = Some(PathBuf::from(value()?)),
            "--epochs" => cfg.epochs = num(key, &value()?)?,
            "--lr" => cfg.learning_rate = num(key, &value()?)?,
            "--lambda" => {
                let l: f64 = num(key, &value()?)?;
                if !(0.0..=1.0).contains(&l) {
                    return Err(format!("--lambda: {l} is not between 0 and 1"));
                }
                cfg.lambda = l;
            }
            "--k" => cfg.k = Some(num(key, &value()?)?),
            "--max-positions" => cfg.max_positions = num(key, &value()?)?,
            "--threads" => cfg.threads = num::<usize>(key, &value()?)?.max(1),
            "--report" => cfg.report_every = num(key, &value()?)?,
            _ => return Err(format!("unknown argument '{arg}' (see --help)")),
        }
    }
    if cfg.data.is_empty() {
        return Err("no --data file given (see --help)".into());
    }
    Ok(Some((cfg, wdl)))
}

/// `--wdl`: fits and prints the model.
fn fit_wdl(cfg: &Config) -> ExitCode {
    match engine::tune::win_rate::run(&cfg.data) {
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
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cfg = match parse(&args) {
        Ok(Some((cfg, true))) => return fit_wdl(&cfg),
        Ok(Some((cfg, false))) => cfg,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("borrow-tune: {e}");
            return ExitCode::from(2);
        }
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
