/**
 * Simulated time: jobs arrive, run and end; the scheduler's core runs its cycles over the simulated
 * cluster, paced as the service paces them.
 *
 * <p>Start at {@code Simulation}.
 */
package io.tyrl.arranger.simulator.engine;
