#!/usr/bin/env bash
# Chaos run on the local cluster: a real etcd + kube-apiserver with 16 simulated nodes, 2 scheduler
# and 2 controller replicas from their jars (short leases), a steady stream of good TYJobs; the
# scheduler or controller leader SIGKILLed at random moments (50 times by default), the API server
# frozen (SIGSTOP) for 60 s once, the malformed TYJob corpus submitted when it exists; invariants
# sampled every 300 ms all along. Takes up to 30 minutes; not part of .ci/run. Exit code 0 only when
# every count is zero, every takeover happened and the services recovered. Its last line:
#   chaos failovers=N double-allocations=0 overcommitted-nodes=0 duplicate-pods=0 lost-jobs=0 stuck-jobs=0
#         max-takeover-s=S outage-s=60 recovered=yes malformed=M handled=M
# Usage: scripts/chaos.sh [--failovers N] [--seed S] [--nodes N] [--outage SECONDS] [--malformed DIR]
#                         [--stuck-after SECONDS] [--job-interval-ms MS] [--drain-timeout SECONDS]
# Service logs: .local-cluster/chaos/<service>-<slot>-<generation>.log
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n1)
classpath_file="$root/testing/target/runtime.classpath"

scripts/control-plane.sh provision >/dev/null
echo "[chaos] building Arranger's jars (tests skipped)"
# package, not install: the run takes everything from this tree's target folders. The classpath is
# written in the same build so that the reactor resolves shared-crd-model to the jar just packaged.
./mvnw -q -B -DskipTests package dependency:build-classpath -Dmdep.outputFile=target/runtime.classpath \
  -Dmdep.includeScope=runtime

args=(--scheduler-jar "$root/scheduler-service/target/scheduler-service-$version.jar"
      --controller-jar "$root/controller-service/target/controller-service-$version.jar"
      --work-dir "$root/.local-cluster/chaos"
      --malformed "$root/testing/src/main/resources/malformed-tyjobs")
rm -f "$root"/.local-cluster/chaos/*.log
exec java -Xmx512m -Darranger.projectRoot="$root" -Dlogback.configurationFile=local-cluster-logback.xml \
  -cp "$root/testing/target/classes:$(cat "$classpath_file")" \
  io.tyrl.arranger.testing.chaos.ChaosRun "${args[@]}" "$@"
