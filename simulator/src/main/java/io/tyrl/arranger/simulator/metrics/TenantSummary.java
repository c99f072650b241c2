package io.tyrl.arranger.simulator.metrics;

import java.util.List;

/**
 * How one run served a queue tree; docs/simulator.md defines each figure.
 *
 * @param graceSeconds how long a queue may stay below its guarantee before it counts as a guarantee
 *     violation
 * @param guaranteeViolations stretches longer than the grace in which a queue asked for at least
 *     its guarantee and held less
 * @param owedViolations stretches longer than the grace in which a queue held less than
 *     min(guarantee, demand)
 * @param shareDevMax the largest queue's mean |held − fair share|, any level, as a fraction of the
 *     cluster's GPUs
 * @param coreEvictions whole-job victims (a job lost its core)
 * @param coreEvictionsWhileSurplus those chosen while another started job held elastic workers
 *     above its minimum
 * @param coreEvictionsSurplusCouldAvoid of those, the ones where some node could have held the
 *     largest pod the room was made for had only takeable surplus on it gone (an upper bound)
 * @param coreEvictionsMoved of the core evictions, the jobs reclaim moved to gather free room in
 *     pieces (they restarted, but their queue lost no room)
 * @param surplusEvictions victims that lost elastic workers only
 * @param surplusPods the pods of those victims
 */
public record TenantSummary(
    String variant,
    double graceSeconds,
    int guaranteeViolations,
    int owedViolations,
    double shareDevMax,
    int coreEvictions,
    int coreEvictionsWhileSurplus,
    int coreEvictionsSurplusCouldAvoid,
    int coreEvictionsMoved,
    int surplusEvictions,
    int surplusPods,
    List<LevelSummary> levels,
    List<TenantQueueSummary> queues) {

  public TenantSummary {
    levels = List.copyOf(levels);
    queues = List.copyOf(queues);
  }
}
