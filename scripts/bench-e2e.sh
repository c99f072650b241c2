#!/usr/bin/env bash
# End-to-end scheduling throughput on one real kube-apiserver (etcd + kube-apiserver 1.20.2 on
# loopback, N simulated nodes of 64 cpu / 256Gi / 8 GPUs / 500 pods):
#   1. the API server's raw create ceiling: M pods with spec.nodeName preset, by a tight concurrent client;
#   2. kube-scheduler 1.20.2 (client qps/burst 5000, leader election off): M plain pods until all are bound;
#   3. jobs: the path a user takes without Arranger: M/8 batch/v1 Jobs of parallelism and completions 8,
#      made into pods by kube-controller-manager 1.20.2's Job controller (qps/burst as kube-scheduler's)
#      and bound by kube-scheduler, until every pod is bound;
#   4. pods-only: Arranger's services up and watching while the benchmark itself creates M pods shaped as
#      the controller makes them, nodes preset, no TYJob — what Arranger's pods cost with nothing decided,
#      a bound on any placement by the services ("floor nodes=<N> pods=<M> pods-only=<pods/s> ...");
#   5. Arranger, both services from their jars: M/8 TYJobs of a leader + 7 workers until every pod
#      exists with its node, with the API server's writes per pod (apiserver_request_total, before/after).
# Each phase runs R times (median reported); prints progress, a table and a summary line:
# "e2e nodes=<N> pods=<M> arranger=<pods/s> jobs-path=<pods/s> kube-scheduler=<pods/s> ceiling=<pods/s>
#  pods-only=<pods/s> api-requests-per-pod=<n> tyjob-writes-per-job=<n> events-per-job=<n> cycle-p99-ms=<ms>".
# Without --nodes or --pods it measures two sizes, each on a fresh control plane — 5000 nodes and
# 10000 pods, then 100 nodes and 2000 pods (where kube-scheduler is at its best) — and prints their
# two floor lines, then their two summary lines, in that order; then one TYJob of a leader and 5,000
# actors (the CRD's most) on 48 nodes, from its create until every pod is Running, and last
# "big-job actors=5000 seconds-to-all-running=<s>" (alone: --big-job ACTORS [--nodes N]).
# Provisions the control-plane binaries first if they are missing (the first run builds them: minutes).
# Usage: scripts/bench-e2e.sh [--nodes N] [--pods M] [--repeats R]        (defaults above, 3 repeats)
#   more: [--phases ceiling,kube-scheduler,jobs,pods-only,arranger] [--threads T] [--connections C]
#         [--scheduler-property key=value]... [--controller-property key=value]... [--service-heap 1g]
#         [--service-jvm-option OPTION]... (e.g. -XX:StartFlightRecording=filename=F.jfr,settings=profile)
#         [--kube-scheduler-qps Q] [--timeout S] [--settle S] [--sample-ms MS] [--work-dir DIR]
#         [--api-server-profile S] (kube-apiserver's Go CPU profile of the first S s of each Arranger run,
#         written into the work folder; read it with go tool pprof -top FILE)
# A benchmark, not a test: nothing here runs during ./mvnw verify.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n1)
classpath_file="$root/testing/target/bench-e2e.classpath"

echo "[bench-e2e] provisioning the control-plane binaries (cached after the first run)"
scripts/control-plane.sh controller-manager >/dev/null
echo "[bench-e2e] building Arranger's jars (tests skipped)"
./mvnw -q -B ${MAVEN_OFFLINE:+-o} -DskipTests install
./mvnw -q -B ${MAVEN_OFFLINE:+-o} -pl testing dependency:build-classpath -Dmdep.outputFile="$classpath_file" \
  -Dmdep.includeScope=runtime >/dev/null

# The benchmark's own JVM drives the creates and watches the pods: 2 GiB is plenty at 10,000 pods.
# Each service runs with --service-heap (default 1g); kube-apiserver and etcd are not limited.
bench() {
  java -Xmx2g -Darranger.projectRoot="$root" -Dlogback.configurationFile=local-cluster-logback.xml \
    -cp "$root/testing/target/classes:$(cat "$classpath_file")" \
    io.tyrl.arranger.testing.bench.E2eThroughputBenchmark --project-root "$root" --version "$version" "$@"
}

sized=no
for arg in "$@"; do
  case "$arg" in --nodes|--pods|--big-job) sized=yes ;; esac
done
if [ "$sized" = yes ]; then
  bench "$@"
  exit
fi
logs=$(mktemp -d)
bench --nodes 5000 --pods 10000 "$@" | tee "$logs/large.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
bench --nodes 100 --pods 2000 "$@" | tee "$logs/small.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
bench --big-job 5000 "$@" | tee "$logs/big.log"
[ "${PIPESTATUS[0]}" -eq 0 ] || exit 1
echo
grep '^floor ' "$logs/large.log" | tail -n1 || true
grep '^floor ' "$logs/small.log" | tail -n1 || true
grep '^e2e ' "$logs/large.log" | tail -n1
grep '^e2e ' "$logs/small.log" | tail -n1
grep '^big-job ' "$logs/big.log" | tail -n1
