#!/usr/bin/env bash
# Certificates' cost, one command (README "Certificates", issue 38 item 4): for every model of the
# issue's list and every backend that logs proofs, the backend time without and with `--proof`
# (the two runs back to back in the same loop, the same release binary), their ratio, the
# proof's size (total and bytes per search node) and the time `zeroone check` (veripb) takes on
# it. Writes reports/certificates.md.
#
#   cargo build --release && bash experiments/certificates.sh
#
# Settings (environment):
#   RUNS=3          runs of each model whose runs take under 2 s (median taken); one run above
#   CHECK_LIMIT=240 seconds each check may take (`timeout`); over it the row says "stopped at N s"
#   CHECK_MAX_MB=50 proofs larger than this (each) are not checked (the checker reads about 0.5 to
#                   1 MB of proof a CPU second on this machine, so they could not finish within
#                   CHECK_LIMIT; experiments/check-large-proofs.sh checks them); 0: check none
#   OPT_LIMIT=10    --time-limit of each optimisation run (with a proof, branch and bound prunes
#                   as without one, each prune logged as a pol derivation)
#   SUDOKUS=1000    royle 17-clue Sudokus proved unique (count with --limit 2)
#   SECTIONS="count star sudoku infeasible optimisation"  the parts to run (default: all)
#   FRESH=1         forget finished rows (kept in target/certificates/rows/, one file per row, so
#                   an interrupted run resumes where it stopped)
set -euo pipefail
cd "$(dirname "$0")/.."
Z="${ZEROONE:-target/release/zeroone}"
RUNS="${RUNS:-3}"
CHECK_LIMIT="${CHECK_LIMIT:-240}"
CHECK_MAX_MB="${CHECK_MAX_MB:-50}"
SUDOKUS="${SUDOKUS:-1000}"
OPT_LIMIT="${OPT_LIMIT:-10}"
SECTIONS="${SECTIONS:-count star sudoku infeasible optimisation}"
wanted() { [[ " $SECTIONS " == *" $1 "* ]]; }
state=target/certificates
rows="$state/rows"
[ "${FRESH:-0}" = 1 ] && rm -rf "$state"
mkdir -p "$rows" "$state/models"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Sum of the first "seconds" (the backend's own clock) of every JSON line.
sum_seconds() { awk 'match($0, /"seconds":[0-9.e+-]*/) { s += substr($0, RSTART + 10, RLENGTH - 10) } END { printf "%.6f\n", s }'; }
sum_nodes() { awk 'match($0, /"nodes":[0-9]*/) { s += substr($0, RSTART + 8, RLENGTH - 8) } END { print s + 0 }'; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

# The answer of a plain run, for the row: a count, "infeasible" or the optimum.
answer() {
  awk '{ if (match($0, /"count":[0-9]*/)) { n += substr($0, RSTART + 8, RLENGTH - 8); c = 1 }
         else if (match($0, /"objective":-?[0-9]*/)) { o = substr($0, RSTART + 12, RLENGTH - 12) }
         if (match($0, /"status":"[a-z]*"/)) st = substr($0, RSTART + 10, RLENGTH - 11) }
       END { if (o != "") print "optimum " o; else if (c) print n; else print st }'
}

# Checks every proof in $1; prints "SECONDS|VERDICT|MEDIAN_MS".
check_all() {
  local dir="$1" mb="$2" total=0 ok=0 n=0 stopped="" times=() pbp start t
  if [ "$CHECK_MAX_MB" = 0 ] || awk -v m="$mb" -v x="$CHECK_MAX_MB" 'BEGIN { exit !(m > x) }'; then
    echo "0|not checked (over ${CHECK_MAX_MB} MB)|"
    return
  fi
  for pbp in "$dir"/*.pbp; do
    n=$((n + 1))
    start="$(date +%s.%N)"
    if timeout "$CHECK_LIMIT" "$Z" check "${pbp%.pbp}.opb" "$pbp" > "$work/verdict" 2>&1; then
      ok=$((ok + 1))
    else
      cp "$work/verdict" "$work/rejected"
    fi
    t="$(echo "$(date +%s.%N) - $start" | bc)"
    if awk -v t="$t" -v l="$CHECK_LIMIT" 'BEGIN { exit !(t >= l) }'; then stopped="yes"; fi
    times+=("$t")
    total="$(echo "$total + $t" | bc)"
  done
  local med
  med="$(printf '%s\n' "${times[@]}" | median)"
  if [ "$ok" = "$n" ]; then
    echo "$total|yes ($n of $n)|$(echo "$med * 1000" | bc)"
  elif [ -n "$stopped" ]; then
    echo "$total|stopped at ${CHECK_LIMIT} s ($ok of $n checked)|"
  else
    echo "$total|no: $ok of $n ($(head -1 "$work/rejected" | tr '|' '/' | cut -c1-60))|"
  fi
}

# measure SECTION NAME BACKEND KIND FILE [ARGS...]: one row. KIND is count or solve.
measure() {
  local section="$1" name="$2" backend="$3" kind="$4" file="$5"
  shift 5
  local key="$section.$name.${backend// /_}"
  [ -s "$rows/$key" ] && return
  local args=(--backend "${backend%% *}" --jobs 1 --json)
  [ "$backend" != "${backend%% *}" ] && args+=(--param "${backend#* }")
  local plain=() proved=() nodes ans runs=1 i p q bytes mb verdict steps stopped=""
  for i in $(seq "$RUNS"); do
    "$Z" "$kind" "$file" "${args[@]}" "$@" > "$work/plain" || true
    plain+=("$(sum_seconds < "$work/plain")")
    rm -rf "$work/p"
    "$Z" "$kind" "$file" "${args[@]}" "$@" --proof "$work/p" > "$work/proved" || true
    proved+=("$(sum_seconds < "$work/proved")")
    grep -q '"claim":"nothing"' "$work/proved" && stopped=yes
    [ "$i" = 1 ] && { nodes="$(sum_nodes < "$work/plain")"; ans="$(answer < "$work/plain")"; }
    runs="$i"
    awk -v t="${plain[0]}" -v u="${proved[0]}" 'BEGIN { exit !(t >= 2 || u >= 2) }' && break
  done
  p="$(printf '%s\n' "${plain[@]}" | median)"
  q="$(printf '%s\n' "${proved[@]}" | median)"
  bytes="$(cat "$work"/p/*.pbp | wc -c)"
  # The largest single proof decides whether they are checked.
  mb="$(stat -c %s "$work"/p/*.pbp | sort -n | tail -1 | awk '{ printf "%.3f", $1 / 1e6 }')"
  # The proof's steps: one `rup` per search node left (the search with a proof may differ).
  steps="$(cat "$work"/p/*.pbp | grep -c '^rup' || true)"
  if [ -n "$stopped" ]; then
    chk=0 verdict="no: the --proof run stopped at its time limit" med=""
  else
    IFS='|' read -r chk verdict med <<< "$(check_all "$work/p" "$mb")"
  fi
  printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$section" "$name" "$backend" "$ans" "$runs" \
    "$p" "$q" "$bytes" "$nodes" "$chk" "$verdict" "$med" "$steps" > "$rows/$key"
  echo "$(date -u +%H:%M:%S) $key: $(cat "$rows/$key")" >&2
}

# The infeasible series: pigeonhole models, M pigeons (`= 1` rows) in N holes (at most one each),
# N = 5..8 and M = N+1..N+5, as OPB.
pigeonhole() {
  local m="$1" n="$2" p h v
  echo "* #variable= $((m * n)) #constraint= $((m + n))"
  for p in $(seq 0 $((m - 1))); do
    for h in $(seq 1 "$n"); do printf '+1 x%d ' $((p * n + h)); done
    echo "= 1 ;"
  done
  for h in $(seq 1 "$n"); do
    for p in $(seq 0 $((m - 1))); do printf -- '-1 x%d ' $((p * n + h)); done
    echo ">= -1 ;"
  done
}

# 1. Counts of the exact-cover models.
wanted count && for m in n-queens-12 n-queens-13 langford-11 pentominoes-5x12 pentominoes-6x10; do
  for b in "bitset" "xcc engine=counts"; do
    measure "count" "$m" "$b" count "experiments/exact-cover/$m.json"
  done
done
# 2. The bare 9x9 2-star Star Battle board (no regions).
{ echo "# stars: 2"; for _ in $(seq 9); do echo "........."; done; } > "$state/models/star-9x9-2-bare.star"
wanted star && for b in "bitset" "xcc engine=counts"; do
  measure "count" "star-9x9-2-bare" "$b" count "$state/models/star-9x9-2-bare.star"
done
# 3. Sudoku uniqueness: the first SUDOKUS royle 17-clue puzzles, counted up to 2.
head -n "$SUDOKUS" data/sudoku/royle_17clue.txt > "$state/models/royle-$SUDOKUS.txt"
wanted sudoku && for b in "bitset" "xcc engine=counts"; do
  measure "sudoku" "royle-17-clue-x$SUDOKUS" "$b" count "$state/models/royle-$SUDOKUS.txt" --limit 2
done
# 4. Twenty infeasible models.
wanted infeasible && for n in 5 6 7 8; do
  for m in $(seq $((n + 1)) $((n + 5))); do
    pigeonhole "$m" "$n" > "$state/models/php-$m-$n.opb"
    for b in "bitset" "xcc engine=counts"; do
      measure "infeasible" "php-$m-$n" "$b" count "$state/models/php-$m-$n.opb"
    done
  done
done
# 5. Twenty optimisation models (bitset: the backend that logs optima): the seeded instances of
# experiments/optimisation-instances.py and committed models.
[ -e models/generated/optimisation/knapsack-20.json ] || python3 experiments/optimisation-instances.py
wanted optimisation && for f in models/generated/optimisation/*.json models/queens-cheapest-6.json \
  models/set-cover-weighted.json models/knapsack-multi.toml \
  models/generated/optimisation-hard/wxc-60.json models/generated/optimisation-hard/queens-cost-14.json; do
  name="$(basename "${f%.*}")"
  measure "optimisation" "$name" "bitset" solve "$f" --time-limit "$OPT_LIMIT"
done
true

out=reports/certificates.md
load="$(cut -d' ' -f1-3 /proc/loadavg)"
{
  echo "# Certificates: the cost of proof logging and checking"
  echo
  echo "Written by \`bash experiments/certificates.sh\` on $(date -u +%Y-%m-%d) ($(nproc) cores, shared with"
  echo "other builds; load average at the end $load; \`$("$Z" --version)\`,"
  echo "\`$(veripb --version 2>/dev/null | head -1)\`)."
  echo
  echo "How each figure is taken: *plain s* and *--proof s* are the backend's own clock (\`seconds\`"
  echo "of \`--json\`, summed over the puzzles of a file), one \`--jobs 1\` run without and one with"
  echo "\`--proof\` back to back, repeated $RUNS times when both take under 2 s (median;"
  echo "*runs* says how many). *--proof s* includes writing the proof as the search runs. *ratio* is"
  echo "their quotient (the issue's target: at most 2). *nodes* are the plain run's search nodes;"
  echo "*rup steps* the proof's \`rup\` lines (one per search node left in the run with a proof, whose
search can differ); *B/node* the proof's bytes per plain node. *check s* is \`zeroone check\` (veripb) wall clock on"
  echo "every proof of the row, once each, at most CHECK_LIMIT = $CHECK_LIMIT s each; a proof over"
  echo "CHECK_MAX_MB = $CHECK_MAX_MB MB is not checked (it could not finish in that time)."
  echo
  echo "| section | model | backend | answer | runs | plain s | --proof s | ratio | proof MB | nodes | rup steps | B/node | check s | certified |"
  echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
  for section in count sudoku infeasible optimisation; do
    for f in $(ls -1tr "$rows" | grep "^$section\\." || true); do
      f="$rows/$f"
      awk -F'|' '{ r = ($6 > 0) ? sprintf("%.2f", $7 / $6) : "-"; bn = ($9 > 0) ? sprintf("%.0f", $8 / $9) : "-";
                   med = ($12 != "") ? sprintf(" (median %.0f ms)", $12) : "";
                   printf "| %s | %s | %s | %s | %s | %.4f | %.4f | %s | %.2f | %s | %s | %s | %.2f | %s%s |\n",
                     $1, $2, $3, $4, $5, $6, $7, r, $8 / 1e6, $9, $13, bn, $10, $11, med }' "$f"
    done
  done
} > "$out"
echo "wrote $out" >&2
