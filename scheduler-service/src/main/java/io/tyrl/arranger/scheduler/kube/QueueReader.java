package io.tyrl.arranger.scheduler.kube;

import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;

/**
 * Reads a Queue into the core's {@link QueueInfo}; a queue without {@code state} is Open, without
 * {@code priority} 0.
 */
final class QueueReader {

  private QueueReader() {}

  static QueueInfo queue(V1alpha1Queue queue) {
    var spec = queue.getSpec();
    Resource capability =
        spec == null || spec.getCapability() == null
            ? null
            : PodRequests.quantities(spec.getCapability());
    JobQueuePolicy policy =
        spec == null || spec.getJobQueuePolicy() == null
            ? null
            : JobQueuePolicy.parse(spec.getJobQueuePolicy().getValue());
    int priority = spec == null || spec.getPriority() == null ? 0 : spec.getPriority();
    boolean open =
        spec == null || spec.getState() == null || !"Closed".equals(spec.getState().getValue());
    return new QueueInfo(
        queue.getMetadata().getName(),
        spec == null || spec.getWeight() == null ? 1 : spec.getWeight(),
        capability,
        spec == null || spec.getReclaimable() == null || spec.getReclaimable(),
        policy,
        priority,
        open);
  }
}
