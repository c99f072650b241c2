package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.crd.contract.TYJobDefaults;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The parts of {@code TYJob.spec} the lifecycle acts on, as stored. Values are not checked here:
 * {@code JobValidator} turns every bad one into a message naming its field.
 *
 * <p>The API server fills the CRD's defaults; where a field is absent anyway (an object stored
 * before a default existed) the adapter passes the CRD's default from {@code TYJobDefaults}. A
 * value the TYJob model cannot hold (kube-apiserver 1.20 stores an integer beyond int32, ignoring
 * the CRD's {@code format: int32}) is never wrapped or replaced by a default: the adapter reads no
 * spec then, only {@link #unreadable()}.
 *
 * @param cleanPodPolicy the raw {@code spec.cleanPodPolicy}; empty means the default ({@code All})
 * @param unplanned fields that are only validated
 * @param unreadable the value the adapter could not read, when it could read no spec; the other
 *     fields then hold nothing of the job
 */
public record JobSpecView(
    LeaderSpecView leader,
    List<WorkerSetSpecView> workerSets,
    long restartLimit,
    long minWorkersNum,
    String cleanPodPolicy,
    boolean terminating,
    UnplannedSpecView unplanned,
    Optional<UnreadableField> unreadable) {

  public JobSpecView {
    leader = Objects.requireNonNullElse(leader, new LeaderSpecView("", null));
    workerSets = workerSets == null ? List.of() : List.copyOf(workerSets);
    cleanPodPolicy = Objects.requireNonNullElse(cleanPodPolicy, "");
    unplanned = Objects.requireNonNullElse(unplanned, UnplannedSpecView.none());
    unreadable = Objects.requireNonNullElse(unreadable, Optional.empty());
  }

  public JobSpecView(
      LeaderSpecView leader,
      List<WorkerSetSpecView> workerSets,
      long restartLimit,
      long minWorkersNum,
      String cleanPodPolicy,
      boolean terminating,
      UnplannedSpecView unplanned) {
    this(
        leader,
        workerSets,
        restartLimit,
        minWorkersNum,
        cleanPodPolicy,
        terminating,
        unplanned,
        Optional.empty());
  }

  /** A spec without the fields the lifecycle only validates. */
  public JobSpecView(
      LeaderSpecView leader,
      List<WorkerSetSpecView> workerSets,
      long restartLimit,
      long minWorkersNum,
      String cleanPodPolicy,
      boolean terminating) {
    this(
        leader,
        workerSets,
        restartLimit,
        minWorkersNum,
        cleanPodPolicy,
        terminating,
        UnplannedSpecView.none());
  }

  /** The policy to clean up with; the default when the stored value is not one we know. */
  public CleanPodPolicy cleanPodPolicyOrDefault() {
    return CleanPodPolicy.fromWireName(cleanPodPolicy).orElse(CleanPodPolicy.DEFAULT);
  }

  /** A spec of which nothing could be read because of {@code field}. */
  public static JobSpecView unreadable(UnreadableField field) {
    return new JobSpecView(
        null,
        List.of(),
        TYJobDefaults.RESTART_LIMIT,
        TYJobDefaults.MIN_WORKERS_NUM,
        "",
        TYJobDefaults.TERMINATING,
        UnplannedSpecView.none(),
        Optional.of(field));
  }
}
