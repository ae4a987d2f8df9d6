#!/bin/bash
# GET one animal, Ark at another commit against this checkout, both started as `npm start` starts the server
# (src/main.ts, logger on, workers on), on the local PostgreSQL, each with its own database; wrk runs alternate
# between the two (ROUNDS rounds × PASS_SECONDS s, 5 × 8 by default, 20 connections) and each line prints req/s and the server
# process's CPU µs per request (utime + stime from /proc); the last line, the median of each round's new ÷ old CPU (a
# round's two passes run seconds apart, so a shared machine's drift moves both). Usage:
#   git worktree add --detach /tmp/ark-old <commit> && (cd /tmp/ark-old && npm ci)
#   bash bench/compare-get-one.sh /tmp/ark-old
# Needs wrk (Debian's package) and a PostgreSQL at 127.0.0.1:5432 with trust authentication.
set -e
OLD_DIR=${1:?usage: bench/compare-get-one.sh <checkout of the other commit>}
NEW_DIR=$(cd "$(dirname "$0")/.." && pwd)
PG=postgresql://postgres@127.0.0.1:5432
declare -A DIR=([old]=$OLD_DIR [new]=$NEW_DIR) PORTS=([old]=3101 [new]=3102) KEY ID PID
trap 'kill ${PID[old]} ${PID[new]} 2>/dev/null' EXIT
for v in old new; do
  psql -h 127.0.0.1 -U postgres -d postgres -qc "DROP DATABASE IF EXISTS ark_ab_$v" -c "CREATE DATABASE ark_ab_$v" 2>/dev/null
  cd "${DIR[$v]}"
  export DATABASE_URL=$PG/ark_ab_$v
  npx ark org create demo --name "Demo Rescue" --currency USD --time-zone America/New_York --country US >/dev/null
  KEY[$v]=$(npx ark key create demo --role admin --label bench | tail -n 1)
  ARK_SMTP_INBOUND_PORT=$((PORTS[$v] + 100)) PORT=${PORTS[$v]} ARK_RATE_LIMIT_PER_MINUTE=100000000 \
    node --import tsx src/main.ts >"/tmp/ark-ab-$v.log" 2>&1 &
  PID[$v]=$!
done
for v in old new; do for _ in $(seq 1 90); do curl -s -o /dev/null "http://127.0.0.1:${PORTS[$v]}/" && break; sleep 1; done; done
NOTES='Friendly with other dogs, shy with cats at first. Walks well on a leash, knows sit and down. Needs a fenced yard; loves squeaky toys and long naps.'
for v in old new; do
  ID[$v]=$(curl -s -H "Host: demo.localhost" -H "Authorization: Bearer ${KEY[$v]}" -H 'content-type: application/json' \
    -d "{\"name\":\"Biscuit\",\"species\":\"dog\",\"breed\":\"Labrador Retriever mix\",\"status\":\"Available\",\"intakeDate\":\"2026-01-05\",\"sex\":\"female\",\"notes\":\"$NOTES\"}" \
    "http://127.0.0.1:${PORTS[$v]}/api/v1/animals" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log((j.data??j).id)})')
  wrk -t1 -c10 -d3s -H "Host: demo.localhost" -H "Authorization: Bearer ${KEY[$v]}" "http://127.0.0.1:${PORTS[$v]}/api/v1/animals/${ID[$v]}" >/dev/null
done
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
RATIOS=()
declare -A US
for r in $(seq 1 "${ROUNDS:-5}"); do
  for v in old new; do
    c0=$(cpu "${PID[$v]}")
    out=$(wrk -t2 -c20 -d"${PASS_SECONDS:-8}"s -H "Host: demo.localhost" -H "Authorization: Bearer ${KEY[$v]}" "http://127.0.0.1:${PORTS[$v]}/api/v1/animals/${ID[$v]}")
    c1=$(cpu "${PID[$v]}")
    req=$(echo "$out" | awk '/Requests\/sec/{print $2}')
    n=$(echo "$out" | awk '/requests in/{print $1}')
    non2xx=$(echo "$out" | awk '/Non-2xx/{print $NF}')
    US[$v]=$(((c1 - c0) * 10000 / n))
    echo "round $r $v req/s $req server CPU µs/req ${US[$v]} ${non2xx:+non-2xx: $non2xx}"
  done
  RATIOS+=("$(awk -v a="${US[new]}" -v b="${US[old]}" 'BEGIN{printf "%.3f", a / b}')")
done
echo "new ÷ old CPU per request, per round: ${RATIOS[*]}; median $(printf '%s\n' "${RATIOS[@]}" | sort -n | awk '{a[NR]=$1} END{print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}')"
