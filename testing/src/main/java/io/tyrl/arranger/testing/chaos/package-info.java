/**
 * The chaos run ({@code scripts/chaos.sh}): replicas killed and the API server frozen under a
 * steady stream of jobs, and the invariants checked from what the cluster recorded.
 *
 * <p>Start at {@code ChaosRun}.
 */
package io.tyrl.arranger.testing.chaos;
