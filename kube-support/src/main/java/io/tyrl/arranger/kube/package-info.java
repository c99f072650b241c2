/**
 * What both services need at the Kubernetes API's edge: clients and their properties, informers
 * with their lifecycle and watch scope, readiness against the API server, backoff, status patches,
 * the Gson used to decode pods and nodes from the stream.
 *
 * <p>Start at {@code KubernetesClients}.
 */
package io.tyrl.arranger.kube;
