#!/usr/bin/env bash
# Replays a workload in simulated time through the scheduler's real, pure core and reports its quality,
# several configurations side by side with a Volcano-default-like baseline (docs/simulator.md).
#   scripts/simulate.sh                                   built-in trace: 10,000 RL jobs, 1,000 nodes, load 0.9,
#                                                         config/scheduler/default.yaml against the baseline
#   scripts/simulate.sh --trace my-jobs.csv --config config/scheduler/fair-share.yaml --config config/scheduler/default.yaml
#   scripts/simulate.sh --snapshot arranger-cycle.json --config config/scheduler/fair-share.yaml
#                                                         one live cycle (GET /api/v1/cycle-input, docs/ui.md) run
#                                                         again with its own and other configurations
# Prints a table per configuration, sim-perf lines (wall and CPU time against the 60 s target for 10,000 jobs
# over 1,000 nodes), and ends with
#   sim jobs=<n> nodes=<n> load=<l> gpu-alloc=<pct> greedy-bound=<pct> deadlocks=<n> share-dev=<pct>
#       p95-wait-s=<s> baseline-p95-wait-s=<s> report=<path>
# The report (one HTML file that opens offline) and its CSV go to --out (default simulation-report/).
# A measurement, not a test: nothing here runs during ./mvnw verify. --help lists every option.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# One reactor run: the core's jar is resolved from the reactor, never from ~/.m2.
./mvnw -q -B ${MAVEN_OFFLINE:+-o} -pl simulator -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/simulator-classpath.txt -Dmdep.includeScope=runtime >/dev/null

exec java -Xmx${SIMULATOR_HEAP:-3g} -Darranger.projectRoot="$root" \
  -cp "$root/simulator/target/classes:$(cat "$root/simulator/target/simulator-classpath.txt")" \
  io.tyrl.arranger.simulator.cli.SimulateCommand "$@"
