/**
 * Workloads: a generated trace of RL jobs, or one read from a CSV of job submissions, and the
 * cluster's shape.
 *
 * <p>Start at {@code Trace}.
 */
package io.tyrl.arranger.simulator.trace;
