package io.tyrl.arranger.scheduler.view;

import java.time.Instant;

/**
 * One victim chosen by preemption or reclaim: who evicted whom, and the words the victim's status
 * gets.
 *
 * @param at the time of the cycle that chose it
 * @param pods how many of the victim's pods go
 * @param wholeJob the victim's gang minimum could not be kept: all its pods go
 * @param cause {@code Preempted} or {@code Reclaimed}
 */
public record EvictionView(
    Instant at,
    String preemptorNamespace,
    String preemptorName,
    String victimNamespace,
    String victimName,
    int pods,
    boolean wholeJob,
    String cause,
    String reason) {}
