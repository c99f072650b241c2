package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.tyrl.arranger.crd.contract.GoDurations;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.model.V1alpha1Queue;
import io.tyrl.arranger.model.V1alpha1QueueSpec;
import io.tyrl.arranger.scheduler.api.JobQueuePolicy;
import io.tyrl.arranger.scheduler.api.QueueInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Reads a Queue into the core's {@link QueueInfo}. A field a Queue stored before it existed lacks
 * keeps the old meaning: without {@code state} Open, without {@code priority} 0, without {@code
 * parent} top level, without {@code guarantee} guaranteed nothing, without a minimum runtime
 * inherited from the parent (none at the top).
 *
 * <p>A Queue with a value the core cannot take is left out of the snapshot with a problem naming
 * the queue and the field ({@link ClusterInformers.UnreadableQueue}), and the other queues are
 * read: its jobs wait as in a queue that does not exist, and the loop logs the problem.
 */
final class QueueReader {

  /** The queues read, and those left out with the reason. */
  record Read(List<QueueInfo> queues, List<ClusterInformers.UnreadableQueue> unreadable) {
    Read {
      queues = List.copyOf(queues);
      unreadable = List.copyOf(unreadable);
    }
  }

  private QueueReader() {}

  /** Each Queue as the informer holds it (raw JSON), decoded by the model, then read. */
  static Read readAll(Collection<JsonObject> raws, Gson gson) {
    List<QueueInfo> queues = new ArrayList<>();
    List<ClusterInformers.UnreadableQueue> unreadable = new ArrayList<>();
    for (JsonObject raw : raws) {
      JsonObject metadata = TYJobDecoder.object(raw, "metadata");
      String name = metadata == null ? null : TYJobDecoder.string(metadata, "name");
      name = name == null ? "?" : name;
      V1alpha1Queue queue;
      try {
        queue = gson.fromJson(raw, V1alpha1Queue.class);
      } catch (RuntimeException e) {
        unreadable.add(
            new ClusterInformers.UnreadableQueue(name, "spec: " + TYJobDecoder.describe(e)));
        continue;
      }
      try {
        queues.add(queue(queue));
      } catch (IllegalArgumentException e) {
        unreadable.add(new ClusterInformers.UnreadableQueue(name, e.getMessage()));
      }
    }
    return new Read(queues, unreadable);
  }

  /**
   * @throws IllegalArgumentException naming the field and the value the core cannot take: a minimum
   *     runtime that is no duration, a quantity beyond what can be counted (an older CRD without
   *     the patterns may have let them through)
   */
  static QueueInfo queue(V1alpha1Queue queue) {
    String name = queue.getMetadata().getName();
    V1alpha1QueueSpec spec = queue.getSpec() == null ? new V1alpha1QueueSpec() : queue.getSpec();
    Resource capability =
        spec.getCapability() == null ? null : quantities(spec.getCapability(), "spec.capability");
    JobQueuePolicy policy =
        spec.getJobQueuePolicy() == null
            ? null
            : JobQueuePolicy.parse(spec.getJobQueuePolicy().getValue());
    int priority = spec.getPriority() == null ? 0 : spec.getPriority();
    boolean open = spec.getState() == null || !"Closed".equals(spec.getState().getValue());
    return new QueueInfo(
        name,
        spec.getWeight() == null ? 1 : spec.getWeight(),
        capability,
        spec.getReclaimable() == null || spec.getReclaimable(),
        policy,
        priority,
        open,
        spec.getParent(),
        quantities(spec.getGuarantee(), "spec.guarantee"),
        duration(spec.getPreemptMinRuntime(), "spec.preemptMinRuntime"),
        duration(spec.getReclaimMinRuntime(), "spec.reclaimMinRuntime"));
  }

  private static Resource quantities(Map<String, Quantity> quantities, String field) {
    try {
      return PodRequests.quantities(quantities);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(field + "." + e.getMessage(), e);
    }
  }

  private static Duration duration(String text, String field) {
    return text == null ? null : GoDurations.parse(text, field);
  }
}
