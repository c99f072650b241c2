/**
 * One scheduling cycle: the {@link io.tyrl.arranger.scheduler.framework.Scheduler} opens a {@link
 * io.tyrl.arranger.scheduler.framework.Session} over a snapshot (job, queue and node state), runs
 * the configured actions against the plugins' functions held in {@code Tiers}, and derives the
 * decisions at the end ({@code DecisionDeriver}). Actions place and evict through a {@code
 * Statement}, which can be committed or discarded as a whole; node search and fit diagnosis (why a
 * task fits nowhere) live here so that every action shares them.
 *
 * <p>Start at {@code Scheduler#schedule}, then {@code Session}.
 */
package io.tyrl.arranger.scheduler.framework;
