package io.tyrl.arranger.simulator.metrics;

/**
 * One queue's figures in a run: its weight, the mean fraction of the cluster's GPUs it held and
 * deserved over the window, the mean of |held − deserved| as a fraction of the cluster's GPUs, and
 * its jobs' queueing delays.
 */
public record QueueSummary(
    String queue,
    int weight,
    double heldShare,
    double deservedShare,
    double deviation,
    double waitP50,
    double waitP95,
    int jobs) {}
