/**
 * The real control plane for integration tests (etcd and kube-apiserver on loopback), the CRDs
 * installed, simulated nodes and kubelet, the local cluster the run command starts, the services
 * started from their jars, and headless Chromium for the pages.
 *
 * <p>Start at {@code KubeApiServerExtension} for tests and {@code LocalCluster} for the run
 * command.
 */
package io.tyrl.arranger.testing;
