#!/usr/bin/env bash
# Runs Arranger locally on a real control plane: etcd + kube-apiserver with the CRDs, the default
# Queue and 16 simulated nodes with a simulated kubelet; both services from their jars; the samples
# in config/samples applied and followed until every job has ended; then everything is stopped.
# Provisions the control-plane binaries first if they are missing (the first run builds
# kube-apiserver from Debian's source package: several minutes).
# Usage: scripts/run-local.sh [--keep] [--nodes N] [--samples DIR] [--timeout SECONDS] [--leader-run-time SECONDS]
#   --keep   stay up after the samples have ended, until Ctrl-C
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
version=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' pom.xml | head -n1)
classpath_file="$root/testing/target/local-cluster.classpath"

if ! command -v kubectl >/dev/null; then
  echo "[run-local] installing kubectl (Debian package kubernetes-client)"
  if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq && "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kubernetes-client \
    || echo "[run-local] could not install kubectl; the cluster still runs, reach it with any Kubernetes client"
fi
scripts/control-plane.sh provision >/dev/null
echo "[run-local] building Arranger's jars (tests skipped)"
./mvnw -q -B -DskipTests install
./mvnw -q -B -pl testing dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=runtime

args=(--scheduler-jar "$root/scheduler-service/target/scheduler-service-$version.jar"
      --controller-jar "$root/controller-service/target/controller-service-$version.jar")
if [ -d "$root/config/samples" ]; then
  args+=(--samples "$root/config/samples")
fi
exec java -Darranger.projectRoot="$root" -Dlogback.configurationFile=local-cluster-logback.xml \
  -cp "$root/testing/target/classes:$(cat "$classpath_file")" \
  io.tyrl.arranger.testing.LocalCluster "${args[@]}" "$@"
