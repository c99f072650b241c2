package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.TopologyRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * Marks part of a trace's multi-node jobs as asking for topology, on a cluster labelled by {@link
 * ClusterShape#withTopology()}. Of the jobs whose minimum needs more than one node, in trace order,
 * with L the narrowest level whose domain could hold the minimum (rack, block, else zone): the
 * first of every four is Required L, the second Required the level above L and Preferred L (a job
 * that fits a rack: one block, a rack if room allows), the third Preferred L only, the fourth asks
 * nothing. Reproducible: the marks depend only on the trace.
 */
public final class TopologyMarks {

  private TopologyMarks() {}

  public static Trace mark(Trace trace, ClusterShape cluster) {
    long nodeGpus = Gpus.whole(cluster.perNode());
    long rackGpus = nodeGpus * ClusterShape.RACK_NODES;
    long blockGpus = rackGpus * ClusterShape.BLOCK_RACKS;
    long zoneGpus = blockGpus * ClusterShape.ZONE_BLOCKS;
    List<TraceJob> marked = new ArrayList<>(trace.jobs().size());
    int multiNode = 0;
    for (TraceJob job : trace.jobs()) {
      long gpus = Gpus.whole(job.minimumRequest());
      if (gpus <= nodeGpus) {
        marked.add(job);
        continue;
      }
      String narrowest =
          gpus <= rackGpus
              ? ClusterShape.RACK
              : gpus <= blockGpus
                  ? ClusterShape.BLOCK
                  : gpus <= zoneGpus ? ClusterShape.ZONE : null;
      int depth = narrowest == null ? -1 : ClusterShape.LEVELS.indexOf(narrowest);
      String wider = depth > 0 ? ClusterShape.LEVELS.get(depth - 1) : narrowest;
      TopologyRequest request =
          switch (multiNode++ % 4) {
            case 0 -> new TopologyRequest(narrowest, null);
            case 1 ->
                new TopologyRequest(
                    wider, narrowest == null || narrowest.equals(wider) ? null : narrowest);
            case 2 -> new TopologyRequest(null, narrowest);
            default -> TopologyRequest.NONE;
          };
      marked.add(job.withTopology(request));
    }
    return new Trace(marked, trace.queues());
  }
}
