package io.tyrl.arranger.controller.lifecycle;

import java.util.List;
import java.util.Objects;

/**
 * The parts of {@code TYJob.spec} the lifecycle acts on, as stored. Values are not checked here:
 * {@code JobValidator} turns every bad one into a message naming its field.
 *
 * <p>The API server fills the CRD's defaults; where a field is absent anyway (an object stored
 * before a default existed) the adapter passes the {@code DEFAULT_*} constant below.
 *
 * @param cleanPodPolicy the raw {@code spec.cleanPodPolicy}; empty means the default ({@code All})
 */
public record JobSpecView(
    LeaderSpecView leader,
    List<WorkerSetSpecView> workerSets,
    int restartLimit,
    int minWorkersNum,
    String cleanPodPolicy,
    boolean terminating) {

  public static final int DEFAULT_RESTART_LIMIT = 3;
  public static final int DEFAULT_MIN_WORKERS_NUM = 1;

  public JobSpecView {
    leader = Objects.requireNonNullElse(leader, new LeaderSpecView("", null));
    workerSets = workerSets == null ? List.of() : List.copyOf(workerSets);
    cleanPodPolicy = Objects.requireNonNullElse(cleanPodPolicy, "");
  }

  /** The policy to clean up with; the default when the stored value is not one we know. */
  public CleanPodPolicy cleanPodPolicyOrDefault() {
    return CleanPodPolicy.fromWireName(cleanPodPolicy).orElse(CleanPodPolicy.DEFAULT);
  }

  /** The number of workers the spec asks for over all WorkerSets (ignoring invalid counts). */
  public long totalWorkers() {
    return workerSets.stream().mapToLong(set -> Math.max(0, set.counts())).sum();
  }
}
