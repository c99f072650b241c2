/**
 * What a run is measured by: allocation over time against a greedy bound, waits, queue shares
 * against their water-filled deserved shares, deadlocks, preemptions.
 *
 * <p>Start at {@code QualityMetrics}.
 */
package io.tyrl.arranger.simulator.metrics;
