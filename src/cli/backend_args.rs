//! The backend options shared by every command that runs a backend (flattened into each).

use std::collections::BTreeMap;
use std::time::Duration;

use clap::Args;
use zeroone::backend::{make_backend, Backend, BackendOptions};

use super::CliError;

/// `--backend NAME` and the options handed to it. Backend-specific flags land in
/// `BackendOptions::params` under their own names; `--param key=value` sets any other key.
#[derive(Debug, Clone, Args)]
pub struct BackendArgs {
    /// Backend to run (see `zeroone backends`).
    #[arg(long, default_value = "brute")]
    pub backend: String,
    /// Wall-clock limit per puzzle, in seconds: the puzzle runs in a worker process, which is
    /// killed after the limit (plus a grace) when the backend cannot stop itself.
    #[arg(long, value_name = "SECS")]
    pub time_limit: Option<f64>,
    /// Memory limit per puzzle, in MB (address space of the worker process running it).
    #[arg(long, value_name = "MB", value_parser = clap::value_parser!(u64).range(1..))]
    pub memory_limit: Option<u64>,
    /// Seed for any randomness in the backend (VSA codes, tie-breaks).
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
    /// Vector dimension (VSA backends): param `dim`.
    #[arg(long, value_name = "D")]
    pub dim: Option<usize>,
    /// Code book (VSA backends): param `code`.
    #[arg(long, value_parser = ["gaussian", "unitary"])]
    pub code: Option<String>,
    /// Solve the LP relaxation rather than the 0-1 problem (MILP backends): param `relax`.
    #[arg(long)]
    pub relax: bool,
    /// Keep only these constraint families, comma-separated: param `families`.
    #[arg(long, value_name = "A,B,C", value_delimiter = ',')]
    pub families: Option<Vec<String>>,
    /// Branching order (search backends): param `order`.
    #[arg(long, value_parser = ["fixed", "mrv"])]
    pub order: Option<String>,
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
            Some(s) if s.is_finite() && s >= 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => {
                return Err(CliError::BadInput(format!(
                    "--time-limit: expected a number of seconds >= 0, found {s}"
                )))
            }
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
        if let Some(f) = &self.families {
            set("families", f.join(","), "--families")?;
        }
        if let Some(o) = &self.order {
            set("order", o.clone(), "--order")?;
        }
        for (k, v) in &self.params {
            set(k, v.clone(), "--param")?;
        }
        Ok(BackendOptions {
            time_limit,
            seed: self.seed,
            params,
        })
    }

    /// Makes the backend; an unknown name or a bad option is bad input (exit 2).
    pub fn make(&self) -> Result<Box<dyn Backend>, CliError> {
        let options = self.options()?;
        make_backend(&self.backend, &options).map_err(|e| CliError::BadInput(e.to_string()))
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
        assert_eq!(o.time_limit, Some(Duration::from_millis(1500)));
        assert_eq!(o.seed, 7);
        let expected: Vec<(&str, &str)> = vec![
            ("code", "unitary"),
            ("dim", "1024"),
            ("families", "row,column"),
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
    fn defaults_are_brute_with_no_params() {
        let w = Wrapper::try_parse_from(["test"]).unwrap();
        assert_eq!(w.backend.backend, "brute");
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
}
