#!/usr/bin/env bash
# Benchmarks full scheduling cycles of the pure core on synthetic clusters (500, 1,000 and 5,000 nodes;
# 2,000 pending jobs of 10 pods). Prints a table and, last, "core-cycle nodes=5000 pods=20000 ms=.. heapMiB=..".
# Usage: scripts/bench-core.sh [warmups] [runs]        (defaults 3 and 7)
# Not a test: nothing here runs during ./mvnw verify.
set -euo pipefail
cd "$(dirname "$0")/.."

./mvnw -q -pl scheduler-service -am -DskipTests package
./mvnw -q -pl scheduler-service dependency:build-classpath -Dmdep.outputFile=target/bench-classpath.txt -Dmdep.includeScope=test >/dev/null

module=scheduler-service
classpath="$module/target/classes:$module/target/test-classes:$(cat "$module/target/bench-classpath.txt")"
# -Xmx1g: the target is a cycle within 1 GiB of heap; the table reports the heap pools' peak usage.
exec java -Xmx1g -cp "$classpath" io.tyrl.arranger.scheduler.bench.CoreCycleBenchmark "$@"
