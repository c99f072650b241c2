/**
 * The scheduling core's values: what a cycle reads (the {@link
 * io.tyrl.arranger.scheduler.api.Snapshot} of nodes, queues and jobs, with {@code JobInfo}, {@code
 * NodeInfo}, {@code TaskInfo} and {@code Resource}) and what it decides ({@link
 * io.tyrl.arranger.scheduler.api.CycleResult}: one {@code JobDecision} per job, victims, queue
 * summaries, the {@code ReasonCode} a user sees).
 *
 * <p>Immutable records and enums only. Start at {@code Snapshot} for the input and {@code
 * CycleResult} for the output.
 */
package io.tyrl.arranger.scheduler.api;
