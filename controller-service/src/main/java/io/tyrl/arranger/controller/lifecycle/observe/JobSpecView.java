package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.List;
import java.util.Objects;

/**
 * The parts of {@code TYJob.spec} the lifecycle acts on, as stored. Values are not checked here:
 * {@code JobValidator} turns every bad one into a message naming its field.
 *
 * <p>The API server fills the CRD's defaults; where a field is absent anyway (an object stored
 * before a default existed) the adapter passes the CRD's default from {@code TYJobDefaults}. Numbers are
 * {@code long}: kube-apiserver 1.20 does not enforce the CRD's {@code format: int32}, and a value
 * beyond an {@code int} must reach validation as it is, not wrapped or replaced by a default.
 *
 * @param cleanPodPolicy the raw {@code spec.cleanPodPolicy}; empty means the default ({@code All})
 * @param unplanned fields that are only validated
 */
public record JobSpecView(
    LeaderSpecView leader,
    List<WorkerSetSpecView> workerSets,
    long restartLimit,
    long minWorkersNum,
    String cleanPodPolicy,
    boolean terminating,
    UnplannedSpecView unplanned) {

  public JobSpecView {
    leader = Objects.requireNonNullElse(leader, new LeaderSpecView("", null));
    workerSets = workerSets == null ? List.of() : List.copyOf(workerSets);
    cleanPodPolicy = Objects.requireNonNullElse(cleanPodPolicy, "");
    unplanned = Objects.requireNonNullElse(unplanned, UnplannedSpecView.none());
  }

  /** A spec without the fields the lifecycle only validates. */
  public JobSpecView(LeaderSpecView leader, List<WorkerSetSpecView> workerSets, long restartLimit, long minWorkersNum,
      String cleanPodPolicy, boolean terminating) {
    this(leader, workerSets, restartLimit, minWorkersNum, cleanPodPolicy, terminating, UnplannedSpecView.none());
  }

  /** The policy to clean up with; the default when the stored value is not one we know. */
  public CleanPodPolicy cleanPodPolicyOrDefault() {
    return CleanPodPolicy.fromWireName(cleanPodPolicy).orElse(CleanPodPolicy.DEFAULT);
  }

  /** The same spec with another leader, e.g. one whose template carries a problem found elsewhere. */
  public JobSpecView withLeader(LeaderSpecView newLeader) {
    return new JobSpecView(newLeader, workerSets, restartLimit, minWorkersNum, cleanPodPolicy, terminating, unplanned);
  }
}
