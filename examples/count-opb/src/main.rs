//! Reads an OPB file (a 0-1 program) and counts its solutions with the `xcc` backend, every
//! solution checked by the verifier: `cargo run -p zeroone-example-count-opb -- FILE.opb`
//! (default: `pick.opb` beside this crate's manifest).

use std::path::PathBuf;
use std::process::ExitCode;

use zeroone_backends::backend::{count_verified, make_backend, BackendOptions, Count};
use zeroone_model::read::{opb, read_str};

/// The solutions of the OPB program at `path`, counted by `xcc` (exact, every witness verified).
fn count_file(path: &PathBuf) -> Result<Count, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let model =
        read_str(opb::FORMAT, &text, &path.display().to_string()).map_err(|e| e.to_string())?;
    let mut xcc = make_backend("xcc", &BackendOptions::default()).map_err(|e| e.to_string())?;
    let counted = count_verified(xcc.as_mut(), &model, None).map_err(|e| e.to_string())?;
    Ok(counted.count)
}

fn main() -> ExitCode {
    let path = std::env::args_os()
        .nth(1)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pick.opb"));
    match count_file(&path) {
        Ok(count) => {
            println!("{count}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sample_has_three_solutions_by_xcc_and_by_brute_force() {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("pick.opb");
        assert_eq!(count_file(&path), Ok(Count::from(3u128)));
        // The same count by trying every assignment (brute needs no feature either).
        let text = std::fs::read_to_string(&path).unwrap();
        let model = read_str(opb::FORMAT, &text, "pick.opb").unwrap();
        let mut brute = make_backend("brute", &BackendOptions::default()).unwrap();
        let counted = count_verified(brute.as_mut(), &model, None).unwrap();
        assert_eq!(
            (counted.count, counted.exhaustive),
            (Count::from(3u128), true)
        );
        // Whatever engines are built in (this crate alone: none of the heavy ones; inside the
        // workspace's `cargo test`, cargo unifies the features and all), `auto` picks one that is.
        let mut auto = make_backend("auto", &BackendOptions::default()).unwrap();
        assert_eq!(
            count_verified(auto.as_mut(), &model, None).unwrap().count,
            3
        );
    }

    #[test]
    fn a_missing_file_is_an_error() {
        assert!(count_file(&PathBuf::from("no/such/file.opb")).is_err());
    }
}
