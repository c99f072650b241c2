#!/usr/bin/env bash
# Endurance run on the local cluster: a real etcd + kube-apiserver with 100 simulated nodes, 2
# scheduler and 2 controller replicas from their jars, a steady stream of small TYJobs at 15 pods/s
# (what this two-core machine keeps up with over whole job lives, about 70 % CPU; see
# docs/performance.md) for H hours; a worker pod failed every 30 s, the leader of one service or the
# other killed every 30 min (started again under a new name), finished jobs deleted as a TTL would.
# Every minute each replica is made to collect its garbage (jcmd GC.run) and its heap, live threads,
# informer cache sizes and cycle histogram are read. Not part of .ci/run.
# Its last line:
#   soak hours=<h> jobs=<n> lost=<n> stuck=<n> heap-slope-mib-per-h=<x> threads-slope-per-h=<x>
#        cycle-p99-ms-first-hour=<ms> cycle-p99-ms-last-hour=<ms>
# The slopes are the steepest over any replica's stretch in one role (leader or standby), its first
# 5 minutes in the role left out, lasting at least 30 minutes (a quarter of a shorter run); the cycle
# p99s are over the first and the last hour (halves of a shorter run).
# Exit code 0 only when nothing was lost or stuck and every takeover happened.
# Usage: scripts/soak.sh [--hours H] [--seed S] [--nodes N] [--pods-per-second P]
#                        [--restart-every-minutes M] [--pod-failure-every-seconds S]
#                        [--sample-every-seconds S] [--leader-run-time SECONDS] [--stuck-after SECONDS]
# Service logs: .local-cluster/soak/<service>-<slot>-<generation>.log
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n1)
classpath_file="$root/testing/target/runtime.classpath"

scripts/control-plane.sh provision >/dev/null
echo "[soak] building Arranger's jars (tests skipped)"
./mvnw -q -B ${MAVEN_OFFLINE:+-o} -DskipTests package dependency:build-classpath \
  -Dmdep.outputFile=target/runtime.classpath -Dmdep.includeScope=runtime

rm -f "$root"/.local-cluster/soak/*.log
exec java -Xmx768m -Darranger.projectRoot="$root" -Dlogback.configurationFile=local-cluster-logback.xml \
  -cp "$root/testing/target/classes:$(cat "$classpath_file")" \
  io.tyrl.arranger.testing.chaos.SoakRun \
  --scheduler-jar "$root/scheduler-service/target/scheduler-service-$version.jar" \
  --controller-jar "$root/controller-service/target/controller-service-$version.jar" \
  --work-dir "$root/.local-cluster/soak" "$@"
