#!/usr/bin/env bash
# Regenerates the committed reports under reports/ with the current code: one command.
#
#   experiments/regenerate.sh          re-render every report from its record file (reports/*.jsonl);
#                                      nothing is run or counted again, so the long counts
#                                      (hex-width-25*, search-space) are only redrawn
#   experiments/regenerate.sh --run    first rerun backends-sudoku, backends-queens,
#                                      backends-hex, optimisation and standard-formats from
#                                      scratch with every zeroone backend and every peer the
#                                      experiment lists (HiGHS, CP-SAT, CBC; standard-formats
#                                      also SCIP, Exact, CaDiCaL, miniexact) in the same command,
#                                      then re-render everything
#
# --run builds zeroone with `--features highs` (needs cmake and libclang-dev; without them the
# build falls back to the default features and the reports say HiGHS did not run) and makes a
# virtual environment target/venv-peers with experiments/peers/requirements.txt (OR-Tools, PuLP
# with its CBC, highspy, PySCIPOpt, Exact, python-sat, miniexact); a peer that cannot be
# installed is left out and the reports say so. Budget on
# a 2-core machine: a few minutes for the three experiments at their committed sizes (budget:
# well under 40 minutes). Interrupted? Run the same command with RESUME=1 to continue the
# record files instead of starting them over. ONLY="smoke quick" limits both steps to those
# experiments; ZEROONE=path/to/zeroone uses that binary instead of building one.
set -euo pipefail
cd "$(dirname "$0")/.."

RUN=0
[[ "${1:-}" == "--run" ]] && RUN=1
COMPARISONS=(backends-sudoku backends-queens backends-hex optimisation standard-formats)
wanted() { [[ -z "${ONLY:-}" ]] || [[ " $ONLY " == *" $1 "* ]]; }
PEERS_DIR=target/peers
VENV=${VENV:-target/venv-peers}
JOBS=${JOBS:-1}

if [[ -n "${ZEROONE:-}" ]]; then
  # A binary given by the caller (CI, a prebuilt release): no build.
  if "$ZEROONE" backends | grep -q '^highs'; then HIGHS=1; else HIGHS=0; fi
elif (( RUN )); then
  if cargo build --release --features highs; then HIGHS=1; else
    echo "regenerate: the highs feature did not build; HiGHS is left out" >&2
    cargo build --release; HIGHS=0
  fi
  ZEROONE=target/release/zeroone
else
  cargo build --release; HIGHS=0
  ZEROONE=target/release/zeroone
fi

PYTHON=""
if (( RUN )); then
  if [[ -x "$VENV/bin/python" ]] || python3 -m venv "$VENV"; then
    if "$VENV/bin/pip" install -q -r experiments/peers/requirements.txt; then PYTHON="$VENV/bin/python"; fi
  fi
  [[ -z "$PYTHON" ]] && echo "regenerate: the peers' packages could not be installed; the Python peers are left out" >&2
  mkdir -p "$PEERS_DIR"
  for name in "${COMPARISONS[@]}"; do
    wanted "$name" || continue
    exp=experiments/$name.toml
    if [[ -n "${RESUME:-}" ]]; then mode=--resume; else mode=--fresh; fi
    # --no-peers: this script runs the peers below (HiGHS built in when it can, the Python ones
    # only when their packages installed) and joins them with `merge`.
    "$ZEROONE" run "$exp" --jobs "$JOBS" "$mode" --quiet --no-peers
    inputs=()
    if (( HIGHS )); then
      "$ZEROONE" run "$exp" --peer highs --jobs "$JOBS" --reports "$PEERS_DIR" "$mode" --quiet
      inputs+=("$PEERS_DIR/$name.peer-highs.jsonl")
    fi
    if [[ -n "$PYTHON" ]]; then
      rm -rf "$PEERS_DIR/models-$name"
      "$ZEROONE" run "$exp" --export-models "$PEERS_DIR/models-$name"
      [[ -z "${RESUME:-}" ]] && rm -f "$PEERS_DIR/$name.peers.jsonl"
      # The peers the experiment lists, each under the experiment's own time limit and
      # repetitions (exported with the models). `highs` comes from highspy only when zeroone
      # was built without its own HiGHS backend (which then ran as `--peer highs` above).
      listed=$(sed -n 's/^peers *= *\[\(.*\)\].*/\1/p' "$exp" | tr -d '",')
      for solver in $listed; do
        if [[ "$solver" == highs ]] && (( HIGHS )); then continue; fi
        "$PYTHON" experiments/peers/peers.py --solver "$solver" --zeroone "$ZEROONE" \
          --models "$PEERS_DIR/models-$name" --out "$PEERS_DIR/$name.peers.jsonl"
      done
      inputs+=("$PEERS_DIR/$name.peers.jsonl")
    fi
    if (( ${#inputs[@]} )); then "$ZEROONE" merge "$exp" "${inputs[@]}"; fi
  done
fi

# Every experiment with a record file: rewrite its reports from the records alone.
for exp in experiments/*.toml; do
  name=$(basename "$exp" .toml)
  [[ -f reports/$name.jsonl ]] || continue
  wanted "$name" || continue
  "$ZEROONE" report "$exp"
done
