#!/usr/bin/env bash
# Benchmarks full scheduling cycles of the pure core on synthetic clusters. Prints two tables and the lines
#   core-cycle nodes=5000 pods=20000 ms=.. heapMiB=..              (2,000 jobs of 10 pods; target <= 500 ms, <= 1 GiB)
#   core-cycle-tree nodes=5000 pods=20000 queues=100 levels=3 ms=.. (the same jobs in a 3-level queue tree with guarantees; target <= 500 ms)
#   core-cycle-topology nodes=5000 pods=20000 levels=3 ms=..    (the same jobs, 2 in 3 asking a rack or a block; target <= 500 ms)
#   core-cycle-gpushare nodes=5000 pods=20000 shared=50% ms=..   (the same jobs, 5 of each job's 9 actors asking 250m GPU; target <= 500 ms)
#   core-cycle-gang nodes=1000 jobs=200 pods-per-job=257 ms=..     (Strict gangs, none fitting; target <= 100 ms)
#   core-cycle nodes=20000 pods=100000 ms=.. heapMiB=..            (10,000 jobs of 10 pods; target <= 3000 ms, <= 2 GiB)
# Usage: scripts/bench-core.sh [warmups] [runs]        (defaults 3 and 7)
# Not a test: nothing here runs during ./mvnw verify.
set -euo pipefail
cd "$(dirname "$0")/.."

# One reactor run: the sibling modules' jars are resolved from the reactor, not from ~/.m2 (never installed there).
./mvnw -q -pl scheduler-core -am -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test >/dev/null

module=scheduler-core
classpath="$module/target/classes:$module/target/test-classes:$(cat "$module/target/bench-classpath.txt")"
# Each suite in its own JVM, capped at its target's heap; the tables report the heap pools' peak usage.
java -Xmx1g -cp "$classpath" io.tyrl.arranger.scheduler.bench.CoreCycleBenchmark standard "$@"
exec java -Xmx2g -cp "$classpath" io.tyrl.arranger.scheduler.bench.CoreCycleBenchmark large "$@"
