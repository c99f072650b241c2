package io.tyrl.arranger.simulator.metrics;

/**
 * The cluster's allocation from {@code seconds} until the next point: GPUs and millicores held by
 * jobs that have started (their minimum placed), GPUs held by jobs still waiting for their minimum
 * (NonStrict reservations), and per queue (in the run's queue order) the GPUs its jobs hold and the
 * GPUs its present jobs ask for in all (placed or not).
 */
public record AllocationPoint(
    double seconds,
    long startedGpu,
    long startedMilliCpu,
    long reservedGpu,
    long[] queueHeldGpu,
    long[] queueDemandGpu) {}
