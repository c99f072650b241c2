/**
 * The end-to-end throughput benchmark ({@code scripts/bench-e2e.sh}): phases on one API server,
 * sampling of the processes and the API server's metrics, the report.
 *
 * <p>Start at {@code E2eThroughputBenchmark}.
 */
package io.tyrl.arranger.testing.bench;
