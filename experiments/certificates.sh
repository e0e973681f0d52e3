#!/usr/bin/env bash
# Certificates' cost, one command (README "Certificates"): for each model and backend, the
# median backend time of `count` without and with `--proof` (RUNS runs each, the same release
# binary, one after the other), their ratio, the proof's size (bytes per search node) and the
# time `veripb` takes to check it (once; CHECK_LIMIT seconds at most, 0: not run). Writes
# reports/certificates.md. Usage: bash experiments/certificates.sh (after cargo build --release).
set -euo pipefail
cd "$(dirname "$0")/.."
Z="${ZEROONE:-target/release/zeroone}"
RUNS="${RUNS:-3}"
CHECK_LIMIT="${CHECK_LIMIT:-900}"
MODELS="${MODELS:-n-queens-12 langford-11 pentominoes-5x12}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
seconds() { sed -n 's/.*"seconds":\([0-9.e-]*\).*/\1/p' | head -1; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
nodes() { sed -n 's/.*"nodes":\([0-9]*\).*/\1/p' | head -1; }
out=reports/certificates.md
{
  echo "# Certificates: the cost of proof logging and checking"
  echo
  echo "Written by \`bash experiments/certificates.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, shared;"
  echo "\`$("$Z" --version)\`, \`$(veripb --version 2>/dev/null | head -1)\`). Times are medians of $RUNS runs of the"
  echo "backend's own clock (\`seconds\`); \`--proof\` includes writing the proof as the search runs;"
  echo "check is \`veripb\` on the proof, wall clock, once. Nodes: the search's nodes without the proof."
  echo
  echo "| model | backend | count | plain s | --proof s | ratio | proof MB | bytes/node | check s | certified |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
} > "$out"
for m in $MODELS; do
  file="experiments/exact-cover/$m.json"
  for b in "bitset" "xcc engine=counts"; do
    set -- $b
    args=(--backend "$1")
    if [ $# -gt 1 ]; then args+=(--param "$2"); fi
    plain=(); proved=()
    for _ in $(seq "$RUNS"); do
      line="$("$Z" count "$file" "${args[@]}" --json)"
      plain+=("$(echo "$line" | seconds)")
      n="$(echo "$line" | nodes)"
      count="$(echo "$line" | sed -n 's/.*"count":\([0-9]*\).*/\1/p')"
      rm -rf "$work/p"
      proved+=("$("$Z" count "$file" "${args[@]}" --json --proof "$work/p" | seconds)")
    done
    p="$(printf '%s\n' "${plain[@]}" | median)"
    q="$(printf '%s\n' "${proved[@]}" | median)"
    pbp="$(ls "$work"/p/*.pbp)"
    bytes="$(stat -c %s "$pbp")"
    start="$(date +%s.%N)"
    if [ "$CHECK_LIMIT" = 0 ]; then
      ok="not run"
    elif verdict="$(timeout "$CHECK_LIMIT" "$Z" check "${pbp%.pbp}.opb" "$pbp" 2>&1)"; then
      ok="yes"
    elif [ $? = 124 ]; then
      ok="stopped at ${CHECK_LIMIT} s"
    else
      ok="no: $(echo "$verdict" | head -1 | cut -c1-80)"
    fi
    check="$(echo "$(date +%s.%N) - $start" | bc)"
    awk -v m="$m" -v b="$b" -v c="$count" -v p="$p" -v q="$q" -v by="$bytes" -v n="$n" -v ch="$check" -v ok="$ok" \
      'BEGIN { printf "| %s | %s | %s | %.3f | %.3f | %.2f | %.1f | %.0f | %.1f | %s |\n", m, b, c, p, q, q / p, by / 1e6, by / n, ch, ok }' >> "$out"
  done
done
echo "wrote $out"
