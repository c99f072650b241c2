package io.tyrl.arranger.simulator.metrics;

/**
 * One queue of a tree over a run. Shares are mean fractions of the cluster's GPUs over the
 * measurement window; violations and evictions are counted over the whole run.
 *
 * @param level 1 at the top of the tree
 * @param guaranteeGpu its guarantee's GPUs
 * @param capabilityGpu its limit's GPUs; {@link Long#MAX_VALUE} for none
 * @param heldShare mean GPUs held by its jobs (its subtree's, for an inner queue)
 * @param fairShare mean {@link TreeFairShare} share
 * @param deviation mean |held − fair share|
 * @param belowGuaranteeShare the fraction of the run's time it asked for at least its guarantee and
 *     held less
 * @param guaranteeViolations such stretches longer than the grace
 * @param longestBelowSeconds the longest such stretch, counted or not
 * @param owedViolations stretches below min(guarantee, demand) longer than the grace
 * @param coreEvictions whole-job victims from its jobs
 * @param surplusEvictions victims of its jobs that lost elastic workers only
 */
public record TenantQueueSummary(
    String queue,
    String parent,
    int level,
    int weight,
    int priority,
    long guaranteeGpu,
    long capabilityGpu,
    double heldShare,
    double fairShare,
    double deviation,
    double belowGuaranteeShare,
    int guaranteeViolations,
    double longestBelowSeconds,
    int owedViolations,
    int coreEvictions,
    int surplusEvictions,
    double waitP50,
    double waitP95,
    int jobs) {}
