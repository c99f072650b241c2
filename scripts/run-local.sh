#!/usr/bin/env bash
# Runs Arranger's local real control plane (etcd + kube-apiserver, CRDs, default Queue, simulated
# nodes) until Ctrl-C. Provisions the control-plane binaries first if they are missing (the first
# run builds kube-apiserver from Debian's source package: several minutes).
# Usage: scripts/run-local.sh [--nodes N] [--kubeconfig FILE]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
classpath_file="$root/testing/target/local-cluster.classpath"

if ! command -v kubectl >/dev/null; then
  echo "[run-local] installing kubectl (Debian package kubernetes-client)"
  if [ "$(id -u)" -eq 0 ]; then sudo_cmd=(); else sudo_cmd=(sudo); fi
  "${sudo_cmd[@]}" apt-get update -qq && "${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq kubernetes-client \
    || echo "[run-local] could not install kubectl; the cluster still runs, reach it with any Kubernetes client"
fi
scripts/control-plane.sh provision >/dev/null
echo "[run-local] building Arranger (tests skipped)"
./mvnw -q -B -DskipTests -pl testing -am install
./mvnw -q -B -pl testing dependency:build-classpath -Dmdep.outputFile="$classpath_file" -Dmdep.includeScope=runtime
exec java -Darranger.projectRoot="$root" \
  -cp "$root/testing/target/classes:$(cat "$classpath_file")" \
  io.tyrl.arranger.testing.LocalCluster "$@"
