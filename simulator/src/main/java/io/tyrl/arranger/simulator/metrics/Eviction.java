package io.tyrl.arranger.simulator.metrics;

/**
 * One victim of a cycle: pods of one job that preempt or reclaim evicted.
 *
 * @param seconds when the cycle chose it
 * @param queue the victim job's queue
 * @param wholeJob true when the job lost its core (its gang minimum could not be kept: every pod
 *     went); false when only elastic workers above its minimum went (surplus)
 * @param started whether the job had started (its minimum placed) before it was chosen
 * @param pods how many of its pods were evicted
 * @param gpu the GPUs those pods held
 * @param surplusElsewhere true when, as the cycle began, another started job (neither the victim
 *     nor the job the room was made for) held elastic workers above its minimum in a queue holding
 *     more than min(guarantee, fair share): surplus that some rule could in principle have taken
 *     first (a queue within both keeps its surplus under every rule)
 * @param surplusCouldMakeRoom true when, besides, some node could have held the largest pod the job
 *     the room was made for still had to place had takeable surplus workers on it gone (GPUs only,
 *     that one pod only: an upper bound on the core evictions surplus alone could have avoided)
 * @param sameQueue true when the room was made for a job of the victim's own queue (preemption),
 *     false for another queue's (reclaim)
 * @param moved true when reclaim moved the job to gather free room in pieces onto one node (its
 *     pods fitted elsewhere in free room), rather than taking room from its queue
 */
public record Eviction(
    double seconds,
    String queue,
    String job,
    boolean wholeJob,
    boolean started,
    int pods,
    long gpu,
    boolean surplusElsewhere,
    boolean surplusCouldMakeRoom,
    boolean sameQueue,
    boolean moved) {}
