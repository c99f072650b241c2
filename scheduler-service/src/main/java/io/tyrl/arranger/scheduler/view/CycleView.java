package io.tyrl.arranger.scheduler.view;

import java.time.Instant;
import java.util.List;

/**
 * Everything the operator's view shows of one cycle, immutable.
 *
 * @param queues in service order, each followed by its subtree
 * @param waiting queue by queue in service order, each queue's jobs by position
 * @param evictions the most recent first, over the last cycles ({@link LastCycle#EVICTIONS_KEPT})
 */
public record CycleView(
    Instant time,
    List<QueueView> queues,
    List<WaitingJob> waiting,
    List<NodeView> nodes,
    List<EvictionView> evictions) {

  public CycleView {
    queues = List.copyOf(queues);
    waiting = List.copyOf(waiting);
    nodes = List.copyOf(nodes);
    evictions = List.copyOf(evictions);
  }
}
