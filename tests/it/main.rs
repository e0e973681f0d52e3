//! The integration tests, built as one binary (a cold `cargo test` links one test program
//! instead of one per file). Each file is a module named after its subject.

mod cli;
mod cli_export_generate;
mod cli_families;
mod cli_fuzz;
mod cli_stable;
mod cli_strict;
mod cli_table;
mod committed_reports;
mod conformance;
mod enum_levels;
mod export;
mod formats;
mod gauss_cli;
mod gauss_reports;
mod general_rows;
mod hardening;
mod harness;
mod isolation;
mod layers;
mod memo_count;
mod memout_rss;
mod milp_levels;
mod models;
mod optimisation;
mod plugin_kind;
mod plugins;
mod slurm;
mod snapshots_model;
mod solve_all;
mod star_killer;
mod streaming;
mod table_snapshots;
mod vsa_search;
mod xcc_semantics;
