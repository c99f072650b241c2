package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.framework.JobState;
import io.tyrl.arranger.scheduler.framework.QueueState;
import io.tyrl.arranger.scheduler.framework.ResourceDimensions;
import io.tyrl.arranger.scheduler.framework.Session;
import io.tyrl.arranger.scheduler.framework.TaskState;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Why preempt or reclaim, having searched for victims for a job, evicted no one: the words the
 * job's reason ends with, after what the placing actions say about room. Without them a job of a
 * queue below its share or guarantee read only "0/100 nodes fit learner", as if nothing had tried
 * to make room for it.
 */
final class EvictionMissWording {

  static final int QUEUES_NAMED = 6;

  private EvictionMissWording() {}

  /**
   * {@code reclaim found no room: queue a holds 0 of its 4 nvidia.com/gpu guarantee; on no node
   * would the pods it may take or move (of queues b, c) make room for its learner (nvidia.com/gpu
   * 4, cpu 1); jobs of queues b, c may not go whole before their reclaimMinRuntime}; null when the
   * search had no running job to look at: then the placing actions' words on room say all there is
   * (no queue holds more than reclaim may take), and a cluster of one queue is not told about
   * reclaim on every pending job.
   */
  static String reclaim(Session session, JobState job, VictimSelector.Miss miss) {
    // Reclaim runs only where the proportion plugin set shares, and that plugin chooses victims, so
    // unlike preempt it never misses for want of a plugin that does.
    if (miss.candidateQueues().isEmpty()) {
      return null;
    }
    String guarantee = belowGuarantee(session, job);
    return "reclaim found no room: "
        + (guarantee == null ? "" : guarantee + "; ")
        + noPlan(session, miss, "reclaimMinRuntime");
  }

  /**
   * {@code evicting lower-priority pods would not make room for its gang minimum}, or why preempt
   * could choose none at all.
   */
  static String preempt(Session session, VictimSelector.Miss miss) {
    if (!session.tiers().choosesPreemptionVictims()) {
      return "preempt found no room: no plugin of the configuration's tiers chooses victims for"
          + " preemption";
    }
    String why = "evicting lower-priority pods would not make room for its gang minimum";
    return miss.keptWhole().isEmpty()
        ? why
        : why + "; " + keptWhole(miss.keptWhole(), "preemptMinRuntime");
  }

  private static String noPlan(Session session, VictimSelector.Miss miss, String minRuntime) {
    String victims = "the pods it may take or move (of " + queues(miss.candidateQueues()) + ")";
    String text =
        miss.pod() == null
            ? victims + " would not make room for its gang minimum"
            : "on no node would "
                + victims
                + " make room for its "
                + miss.pod().info().roleName()
                + " ("
                + request(session, miss.pod())
                + ")";
    return miss.keptWhole().isEmpty()
        ? text
        : text + "; " + keptWhole(miss.keptWhole(), minRuntime);
  }

  private static String keptWhole(Set<QueueState> queues, String minRuntime) {
    return "jobs of " + queues(queues) + " may not go whole before their " + minRuntime;
  }

  /**
   * {@code queue b}, {@code queues b, c}; past {@value #QUEUES_NAMED} names, {@code and 7 more}: in
   * a tree of a hundred teams the reason stays readable (and within an Event's length).
   */
  private static String queues(Set<QueueState> queues) {
    String named =
        queues.stream().limit(QUEUES_NAMED).map(QueueState::path).collect(Collectors.joining(", "));
    int more = queues.size() - QUEUES_NAMED;
    return (queues.size() == 1 ? "queue " : "queues ")
        + named
        + (more > 0 ? " and " + more + " more" : "");
  }

  private static String request(Session session, TaskState pod) {
    ResourceDimensions dimensions = session.dimensions();
    StringBuilder text = new StringBuilder();
    for (int d : pod.requestedDimensions()) {
      if (d != ResourceDimensions.PODS) {
        String name = dimensions.name(d);
        text.append(text.length() > 0 ? ", " : "")
            .append(name)
            .append(' ')
            .append(Resource.formatQuantity(name, pod.request(d)));
      }
    }
    return text.toString();
  }

  /**
   * {@code queue a holds 0 of its 4 nvidia.com/gpu guarantee}: the first resource the job's minimum
   * asks for of which its queue holds less than its guarantee; null if none.
   */
  private static String belowGuarantee(Session session, JobState job) {
    QueueState queue = job.queue();
    long[] minimum = job.minimumRequest();
    for (int d = 0; d < minimum.length; d++) {
      if (d != ResourceDimensions.PODS
          && minimum[d] > 0
          && queue.allocated(d) < queue.guarantee(d)) {
        String name = session.dimensions().name(d);
        return "queue "
            + queue.path()
            + " holds "
            + Resource.formatQuantity(name, queue.allocated(d))
            + " of its "
            + Resource.formatQuantity(name, queue.guarantee(d))
            + " "
            + name
            + " guarantee";
      }
    }
    return null;
  }
}
