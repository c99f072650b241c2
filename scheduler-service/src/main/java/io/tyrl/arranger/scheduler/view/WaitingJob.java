package io.tyrl.arranger.scheduler.view;

import java.time.Instant;

/**
 * A job the last cycle could not (fully) place, where it stands in its queue.
 *
 * @param queue null for a job the scheduler could not read
 * @param position 1 for the job of its queue the next cycle considers first, among the queue's
 *     waiting jobs
 * @param stage the job's stage as the cycle read it ({@code Pending}, {@code Running}, …)
 * @param scheduleState what the cycle decided ({@code Unscheduled}, {@code ScheduledPartly}, …)
 * @param reason and {@code message}: exactly what the job's {@code status.scheduling} and its Event
 *     say
 * @param waitingSince when its current wait began ({@code status.scheduling.waitingSince}), or its
 *     creation when it has none
 */
public record WaitingJob(
    String namespace,
    String name,
    String queue,
    int position,
    String stage,
    String scheduleState,
    String reason,
    String message,
    Instant waitingSince) {}
