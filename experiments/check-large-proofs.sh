#!/usr/bin/env bash
# The proofs too large for experiments/certificates.sh's checking budget (over its CHECK_MAX_MB),
# checked to the end: for each counting model of the issue-38 list whose proof is over 50 MB,
# one `--proof` run (release binary) and one `zeroone check` (veripb) of it, timed by GNU time
# (wall, user + system CPU of the checker process tree, its peak resident set). Writes
# reports/certificates-large.md. Restartable: each finished row is kept in
# target/certificates-large/rows/ (FRESH=1 forgets them), and a row is written only once its
# check has ended, so an interrupted run loses at most the check under way.
#
#   cargo build --release && bash experiments/check-large-proofs.sh
#
# Settings (environment):
#   CHECK_LIMIT=7200  seconds one check may take before it is stopped (the row then says so)
#   MODELS="..."      the models (experiments/exact-cover/NAME.json); default: those whose proofs
#                     certificates.md left unchecked
#   BACKENDS="..."    default: "bitset" and "xcc engine=counts"
#   REPORT_ONLY=1     write the report from the rows finished so far (while a run goes on)
# The checker reads about 0.2 MB of proof a second on a 2-core machine, so the default list
# (about 800 MB of proofs) takes hours of CPU; run it beside other work with `nice`, and read the
# CPU column rather than the wall clock.
set -euo pipefail
cd "$(dirname "$0")/.."
Z="${ZEROONE:-target/release/zeroone}"
CHECK_LIMIT="${CHECK_LIMIT:-7200}"
MODELS="${MODELS:-langford-11 n-queens-13 pentominoes-6x10 pentominoes-5x12}"
state=target/certificates-large
rows="$state/rows"
[ "${FRESH:-0}" = 1 ] && rm -rf "$state"
mkdir -p "$rows"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
[ -n "${BACKENDS:-}" ] || BACKENDS_LIST=("bitset" "xcc engine=counts")
[ -n "${BACKENDS:-}" ] && read -r -a BACKENDS_LIST <<< "$BACKENDS"

# row MODEL BACKEND: one proof made and checked; writes the row file when the check has ended.
row() {
  local model="$1" backend="$2" key verdict count mb seconds
  key="$model.${backend// /_}"
  [ -s "$rows/$key" ] && return
  local args=(--backend "${backend%% *}" --jobs 1 --json)
  [ "$backend" != "${backend%% *}" ] && args+=(--param "${backend#* }")
  rm -rf "$work/p"
  "$Z" count "experiments/exact-cover/$model.json" "${args[@]}" --proof "$work/p" > "$work/out"
  count="$(grep -o '"claim":"count [0-9]*' "$work/out" | grep -o '[0-9]*$' | head -1 || true)"
  seconds="$(grep -o '"seconds":[0-9.e+-]*' "$work/out" | head -1 | cut -d: -f2)"
  mb="$(stat -c %s "$work"/p/*.pbp | awk '{ s += $1 } END { printf "%.1f", s / 1e6 }')"
  local rc=0
  timeout "$CHECK_LIMIT" /usr/bin/time -f '%e|%U|%S|%M' -o "$work/time" \
    "$Z" check "$work"/p/*.opb "$work"/p/*.pbp > "$work/verdict" 2>&1 || rc=$?
  case "$rc" in
    0) verdict="yes" ;;
    124 | 137) verdict="stopped at ${CHECK_LIMIT} s"; echo "$CHECK_LIMIT|0|0|0" > "$work/time" ;;
    *) verdict="no: $(head -1 "$work/verdict" | tr '|' '/' | cut -c1-80)" ;;
  esac
  IFS='|' read -r wall user sys rss < <(tail -1 "$work/time")
  printf '%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$model" "$backend" "$count" "$seconds" "$mb" \
    "$wall" "$(echo "$user + $sys" | bc)" "$((rss / 1024))" "$verdict" > "$rows/$key"
  echo "$(date -u +%H:%M:%S) $key: $(cat "$rows/$key")" >&2
}

[ "${REPORT_ONLY:-0}" = 1 ] || for m in $MODELS; do
  for b in "${BACKENDS_LIST[@]}"; do
    row "$m" "$b"
  done
done

out=reports/certificates-large.md
{
  echo "# Certificates: the large proofs, checked to the end"
  echo
  echo "Written by \`bash experiments/check-large-proofs.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores,"
  echo "shared with other work, so the checker ran under \`nice\` beside builds; \`$("$Z" --version)\`,"
  echo "\`$(veripb --version 2>/dev/null | head -1)\`). These are the proofs that"
  echo "[certificates.md](certificates.md) leaves unchecked for size. *solve s* is the \`--proof\`"
  echo "run's own clock; *check wall s* the checker's wall clock (\`zeroone check\`, which runs"
  echo "veripb), *check CPU s* its user + system CPU seconds (GNU time, the process and its"
  echo "children; the figure to read on a loaded machine), *peak MB* its largest resident set."
  echo "Each check may take CHECK_LIMIT = $CHECK_LIMIT s."
  echo
  echo "| model | backend | count | solve s | proof MB | check wall s | check CPU s | MB/CPU s | peak MB | certified |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
  for f in $(ls -1tr "$rows"); do
    awk -F'|' '{ r = ($7 > 0) ? sprintf("%.2f", $5 / $7) : "-";
                 printf "| %s | %s | %s | %.2f | %s | %.0f | %.0f | %s | %s | %s |\n",
                   $1, $2, $3, $4, $5, $6, $7, r, $8, $9 }' "$rows/$f"
  done
} > "$out"
echo "wrote $out" >&2
