//! The backend options shared by every command that runs a backend (flattened into each).

use std::collections::BTreeMap;

use clap::Args;
use zeroone::backend::{
    make_backend, registry, time_limit_from_seconds, Backend, BackendError, BackendOptions,
    MAX_TIME_LIMIT,
};

use super::CliError;

/// `--backend NAME` and the options handed to it. Backend-specific flags land in
/// `BackendOptions::params` under their own names; `--param key=value` sets any other key. An
/// option the chosen backend does not read (a `params` key, `--seed`) is refused, never
/// ignored; `--time-limit` and `--memory-limit` hold for every backend (see `isolated.rs`).
#[derive(Debug, Clone, Args)]
pub struct BackendArgs {
    /// Backend to run (see `zeroone backends`); the default, `auto`, is exact and takes any
    /// model: `xcc` where it reads every row (unit-weight rows, no objective), `bitset`
    /// otherwise; records name the engine that ran.
    #[arg(long, default_value = "auto")]
    pub backend: String,
    /// Wall-clock limit per puzzle, in seconds, above 0 and at most one year. A backend that can stop
    /// itself does so; any other runs the puzzle in a worker process, killed after the limit
    /// (plus a grace) and reported as `timeout`.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Memory limit per puzzle, in MB (address space of the worker process running it).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Seed for any randomness in the backend (VSA codes; refused by backends with none).
    #[arg(long, value_name = "S")]
    pub seed: Option<u64>,
    /// Vector dimension (VSA backends): param `dim`.
    #[arg(long, value_name = "D")]
    pub dim: Option<usize>,
    /// Code book (VSA backends): param `code`.
    #[arg(long, value_parser = ["gaussian", "unitary"])]
    pub code: Option<String>,
    /// Solve the LP relaxation rather than the 0-1 problem (MILP backends): param `relax`.
    #[arg(long)]
    pub relax: bool,
    /// Keep only these constraint families, comma-separated. The model itself is restricted
    /// (for every backend, and for the verifier), so this is not a backend parameter.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub families: Option<Vec<String>>,
    /// Branching order of `enum`: param `order` (`bitset` and `vsa` always branch MRV).
    #[arg(long, value_parser = ["fixed", "mrv"])]
    pub order: Option<String>,
    /// Optimisation: stop once the relative gap `|value - bound| / max(1, |value|)` is at
    /// most G (e.g. 0.01 for 1%); the answer is `feasible` with its bound and gap (`optimal`
    /// only at gap 0). Param `gap`; refused by backends that cannot honour it.
    #[arg(long, value_name = "G")]
    pub gap: Option<f64>,
    /// Optimisation: stop once the absolute gap `|value - bound|` is at most A (a whole
    /// number). Param `abs-gap`; refused by backends that cannot honour it.
    #[arg(long, value_name = "A")]
    pub abs_gap: Option<u128>,
    /// Any other backend parameter, as key=value (repeatable).
    #[arg(long = "param", value_name = "KEY=VALUE", value_parser = parse_param)]
    pub params: Vec<(String, String)>,
}

fn parse_param(text: &str) -> Result<(String, String), String> {
    match text.split_once('=') {
        Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.trim().to_string())),
        _ => Err(format!("expected KEY=VALUE, found '{text}'")),
    }
}

impl BackendArgs {
    /// The options these flags describe. A key set twice (a flag and `--param`, or two
    /// `--param`s) is an error.
    pub fn options(&self) -> Result<BackendOptions, CliError> {
        let time_limit = match self.time_limit {
            None => None,
            Some(s) => Some(time_limit_from_seconds(s).ok_or_else(|| {
                CliError::BadInput(format!(
                    "--time-limit {s}: expected a number of seconds above 0 and at most {}",
                    MAX_TIME_LIMIT.as_secs()
                ))
            })?),
        };
        let mut params = BTreeMap::new();
        let mut set = |key: &str, value: String, flag: &str| -> Result<(), CliError> {
            if params.insert(key.to_string(), value).is_some() {
                return Err(CliError::BadInput(format!(
                    "backend parameter '{key}' is given twice ({flag})"
                )));
            }
            Ok(())
        };
        if let Some(d) = self.dim {
            set("dim", d.to_string(), "--dim")?;
        }
        if let Some(c) = &self.code {
            set("code", c.clone(), "--code")?;
        }
        if self.relax {
            set("relax", "true".into(), "--relax")?;
        }
        if let Some(o) = &self.order {
            set("order", o.clone(), "--order")?;
        }
        if let Some(g) = self.gap {
            if !(g.is_finite() && g >= 0.0) {
                return Err(CliError::BadInput(format!(
                    "--gap {g}: expected a relative gap, a number from 0 (e.g. 0.01 for 1%)"
                )));
            }
            set("gap", g.to_string(), "--gap")?;
        }
        if let Some(a) = self.abs_gap {
            set("abs-gap", a.to_string(), "--abs-gap")?;
        }
        for (k, v) in &self.params {
            set(k, v.clone(), "--param")?;
        }
        Ok(BackendOptions {
            time_limit,
            seed: self.seed.unwrap_or(0),
            params,
        })
    }

    /// Makes the backend; an unknown name, an option it does not read or a bad value is bad
    /// input (exit 2).
    pub fn make(&self) -> Result<Box<dyn Backend>, CliError> {
        let options = self.options()?;
        self.refuse_unused_flags()?;
        make_backend(&self.backend, &options).map_err(|e| CliError::BadInput(e.to_string()))
    }

    /// `--seed` given to a backend that does not use it. (Unknown `params` keys are refused by
    /// `make_backend` itself.)
    fn refuse_unused_flags(&self) -> Result<(), CliError> {
        let Some(info) = registry().into_iter().find(|b| b.name == self.backend) else {
            return Ok(()); // make_backend names the known backends
        };
        // Every backend takes --time-limit: one that cannot stop itself runs in a worker
        // process that is killed at the limit (see isolated.rs).
        let unused = [("seed", self.seed.is_some() && !info.uses_seed)];
        match unused.iter().find(|(_, refused)| *refused) {
            Some((key, _)) => Err(CliError::BadInput(
                BackendError::UnknownOption {
                    backend: info.name.into(),
                    key: (*key).into(),
                    accepted: info.accepted(),
                }
                .to_string(),
            )),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Debug, Parser)]
    struct Wrapper {
        #[command(flatten)]
        backend: BackendArgs,
    }

    fn options(args: &[&str]) -> Result<BackendOptions, CliError> {
        let mut all = vec!["test"];
        all.extend_from_slice(args);
        Wrapper::try_parse_from(all).unwrap().backend.options()
    }

    #[test]
    fn every_flag_lands_in_the_options() {
        let o = options(&[
            "--time-limit",
            "1.5",
            "--seed",
            "7",
            "--dim",
            "1024",
            "--code",
            "unitary",
            "--relax",
            "--families",
            "row,column",
            "--order",
            "mrv",
            "--param",
            "restarts=3",
        ])
        .unwrap();
        assert_eq!(o.time_limit, Some(std::time::Duration::from_millis(1500)));
        assert_eq!(o.seed, 7);
        let expected: Vec<(&str, &str)> = vec![
            ("code", "unitary"),
            ("dim", "1024"),
            ("order", "mrv"),
            ("relax", "true"),
            ("restarts", "3"),
        ];
        let got: Vec<(&str, &str)> = o
            .params
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .collect();
        assert_eq!(got, expected);
    }

    #[test]
    fn defaults_are_auto_with_no_params() {
        let w = Wrapper::try_parse_from(["test"]).unwrap();
        assert_eq!(w.backend.backend, "auto");
        let o = w.backend.options().unwrap();
        assert_eq!(o, BackendOptions::default());
    }

    #[test]
    fn a_key_given_twice_is_refused() {
        assert!(options(&["--order", "mrv", "--param", "order=fixed"]).is_err());
        assert!(options(&["--param", "k=1", "--param", "k=2"]).is_err());
        assert!(Wrapper::try_parse_from(["test", "--code", "binary"]).is_err());
        assert!(Wrapper::try_parse_from(["test", "--param", "=3"]).is_err());
    }

    #[test]
    fn time_limits_outside_zero_to_a_year_are_refused_not_a_panic() {
        for bad in ["1e20", "1e300", "NaN", "-1", "inf", "31536001", "0"] {
            let flag = format!("--time-limit={bad}");
            let e = options(&[&flag]).unwrap_err().to_string();
            assert!(e.contains("above 0 and at most 31536000"), "{bad}: {e}");
        }
        let ok = options(&["--time-limit", "31536000"]).unwrap();
        assert_eq!(ok.time_limit, Some(MAX_TIME_LIMIT));
    }

    fn make(args: &[&str]) -> Result<Box<dyn Backend>, CliError> {
        let mut all = vec!["test"];
        all.extend_from_slice(args);
        Wrapper::try_parse_from(all).unwrap().backend.make()
    }

    #[test]
    fn options_the_backend_does_not_read_are_refused_with_what_it_takes() {
        let cases: [(&[&str], &str); 5] = [
            (
                &["--backend", "milp", "--param", "relaxx=true"],
                "'milp' does not take option 'relaxx' (it takes: relax, presolve, time_limit)",
            ),
            (
                &["--backend", "enum", "--param", "ordr=mrv"],
                "'enum' does not take option 'ordr'",
            ),
            (
                &["--backend", "sat", "--relax"],
                "'sat' does not take option 'relax' (it takes: pairwise-up-to, pb-encoding, bound-fixing, time_limit)",
            ),
            (
                &["--backend", "enum", "--relax"],
                "'enum' does not take option 'relax'",
            ),
            (
                &["--backend", "brute", "--dim", "64"],
                "'brute' does not take option 'dim' (it takes: none)",
            ),
        ];
        for (args, wanted) in cases {
            match make(args) {
                Err(CliError::BadInput(m)) => assert!(m.contains(wanted), "{args:?}: {m}"),
                Err(other) => panic!("{args:?}: {other:?}"),
                Ok(b) => panic!("{args:?}: accepted by {}", b.name()),
            }
        }
        assert!(make(&["--backend", "bitset", "--seed", "3"]).is_err());
        assert!(make(&["--backend", "vsa", "--seed", "3", "--dim", "64"]).is_ok());
        assert!(make(&["--backend", "milp", "--relax", "--time-limit", "2"]).is_ok());
        // Every backend takes a time limit: one that cannot stop itself runs in a worker.
        assert!(make(&["--backend", "brute", "--time-limit", "1"]).is_ok());
    }
}
