#!/usr/bin/env bash
# Mutation testing of a pure core with PIT: the scheduler's (api, framework, actions, plugins, conf, topology, replay) by
# default, or the controller's lifecycle (module controller-service).
# Runs the core's unit tests once, then PIT (profile "mutation" of the module), and prints
#   mutation score=<percent> killed=<n> survived=<n>
# where killed counts every detected mutant (killed, timed out, memory or run error) and survived
# every undetected one (survived or not covered by any test), followed by the classes with the most
# survivors. The full report is <module>/target/pit-reports/index.html.
# Usage: scripts/mutation.sh [threads] [classes] [module]
#   threads  default 1: the machine is shared; PIT is heavy
#   classes  PIT's class globs, comma-separated (default: the whole core), e.g.
#            io.tyrl.arranger.scheduler.framework.NodeSearch* to re-check one class after adding tests
#   module   scheduler-core (default) or controller-service (its lifecycle packages)
# Not a test: nothing here runs during ./mvnw verify.
set -euo pipefail
cd "$(dirname "$0")/.."

threads="${1:-1}"
classes=()
if [[ -n "${2:-}" ]]; then
  classes=("-Dpit.targetClasses=$2")
fi
module="${3:-scheduler-core}"
case "$module" in
  scheduler-core) tests='io/tyrl/arranger/scheduler/**/*Test' ;;
  controller-service) tests='io/tyrl/arranger/controller/lifecycle/**/*Test' ;;
  *) echo "module must be scheduler-core or controller-service, got $module" >&2; exit 2 ;;
esac
./mvnw -q -pl "$module" -am -Pmutation test -Dpit.threads="$threads" "${classes[@]}" \
  -Dtest="$tests" -Dsurefire.failIfNoSpecifiedTests=false

report=$module/target/pit-reports/mutations.xml
if [[ ! -f "$report" ]]; then
  echo "no PIT report at $report" >&2
  exit 1
fi
killed=$(grep -o "detected='true'" "$report" | wc -l | tr -d ' ')
survived=$(grep -o "detected='false'" "$report" | wc -l | tr -d ' ')
total=$((killed + survived))
if [[ "$total" -eq 0 ]]; then
  echo "PIT generated no mutants" >&2
  exit 1
fi
score=$(awk -v k="$killed" -v t="$total" 'BEGIN { printf "%.1f", 100 * k / t }')
echo "mutation score=${score} killed=${killed} survived=${survived}"
echo "most survivors by class:"
grep "detected='false'" "$report" | sed -n "s#.*<mutatedClass>\([^<]*\)</mutatedClass>.*#\1#p" \
  | sort | uniq -c | sort -rn | head -15
