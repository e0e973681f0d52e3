"""Records as pandas DataFrames: the tidy CSV's columns, from committed records and from a run."""

import json
import shutil
from fractions import Fraction

import pandas as pd

import zeroone

# The fixed columns of the report CSV (src/harness/report.rs CSV_COLUMNS), in order.
CSV_COLUMNS = [
    "instance", "source", "file", "size", "backend", "name", "task", "repetition", "status",
    "verified", "certificate", "check_seconds", "seconds", "wall_seconds", "cpu_seconds",
    "peak_rss_mb", "limit_by", "count", "exhaustive", "objective", "bound", "gap", "sense",
    "variables", "rows",
    "original_variables", "original_rows", "reason",
]


def test_committed_records_read_with_the_csv_columns_and_exact_counts(root):
    frame = zeroone.records(root / "reports/counts-hex.jsonl")
    assert list(frame.columns[: len(CSV_COLUMNS)]) == CSV_COLUMNS
    committed = pd.read_csv(root / "reports/counts-hex.csv", dtype={"count": str})
    assert list(frame.columns) == list(committed.columns)
    assert len(frame) == len(committed)
    counted = frame[frame["count"].notna()]
    assert len(counted) > 0
    assert all(type(c) is int for c in counted["count"])
    assert sorted(str(c) for c in counted["count"]) == sorted(committed["count"].dropna())
    assert frame["seconds"].dtype == float


def test_gap_is_the_relative_gap_of_objective_and_bound_as_the_json_lines_give_them(root):
    path = root / "reports/optimisation.jsonl"
    frame = zeroone.records(path)
    assert frame["gap"].dtype == float
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    assert len(lines) == len(frame)
    open_gaps = 0
    for line, (_, row) in zip(lines, frame.iterrows()):
        if "objective" in line and "bound" in line:
            value, bound = line["objective"], line["bound"]
            exact = Fraction(abs(value - bound), max(1, abs(value)))
            assert row["gap"] == float(exact), (line["instance"], line["backend"])
            open_gaps += exact > 0
        else:
            assert pd.isna(row["gap"]), (line["instance"], line["backend"])
    assert open_gaps > 0, "the committed records hold runs stopped short of the optimum"


def test_run_writes_records_and_returns_them(root, tmp_path):
    experiment = tmp_path / "tiny.toml"
    shutil.copy(root / "models/hex-5.hex", tmp_path / "hex-5.hex")
    experiment.write_text(
        'title = "tiny"\ndescription = "two backends on one board"\nkind = "solve"\n'
        'repetitions = 2\ntime_limit = 10\n\n[[instances]]\nfile = "hex-5.hex"\n\n'
        '[[backends]]\nname = "bitset"\n\n[[backends]]\nname = "sat"\n'
    )
    frame = zeroone.run(experiment, reports=tmp_path / "reports", jobs=1)
    assert list(frame.columns[: len(CSV_COLUMNS)]) == CSV_COLUMNS
    boards = sum(1 for _ in zeroone.load(tmp_path / "hex-5.hex"))
    assert len(frame) == 2 * 2 * boards
    assert set(frame["status"]) == {"solved"} and frame["verified"].all()
    assert (tmp_path / "reports/tiny.md").exists()
    # Resuming finds every run on record and runs nothing again.
    again = zeroone.run(experiment, reports=tmp_path / "reports", jobs=1)
    assert again["seconds"].tolist() == frame["seconds"].tolist()


def test_run_writes_into_the_experiments_own_reports_dir_as_the_cli_does(root, tmp_path):
    experiment = tmp_path / "own.toml"
    shutil.copy(root / "models/hex-5.hex", tmp_path / "hex-5.hex")
    experiment.write_text(
        'title = "own"\ndescription = "its own reports folder"\nkind = "solve"\n'
        'reports_dir = "results"\n\n[[instances]]\nfile = "hex-5.hex"\n\n'
        '[[backends]]\nname = "bitset"\n'
    )
    frame = zeroone.run(experiment, jobs=1)
    assert (tmp_path / "results/own.jsonl").exists()
    assert (tmp_path / "results/own.md").exists()
    assert len(frame) > 0 and frame["file"].eq("hex-5.hex").all()
    # Run again: every run is on record there, so nothing runs again.
    again = zeroone.run(experiment, jobs=1)
    assert again["seconds"].tolist() == frame["seconds"].tolist()
