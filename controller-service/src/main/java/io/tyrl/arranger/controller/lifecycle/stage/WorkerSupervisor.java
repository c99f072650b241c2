package io.tyrl.arranger.controller.lifecycle.stage;

import io.tyrl.arranger.controller.lifecycle.observe.JobObservation;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.plan.DeletionReason;
import io.tyrl.arranger.controller.lifecycle.plan.PlanDraft;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import java.time.Duration;
import java.util.Optional;

/**
 * Watches the workers of a started job. A worker that failed or was lost is deleted, its slot given
 * back to the scheduler, and the loss counted against its WorkerSet's {@code restartLimit}; one the
 * kubelet refused, or that was evicted for another job ({@link EvictionNotice}), is given back
 * without counting. Pods the spec has no slot for are removed.
 *
 * <p>A loss is counted only while the pod's allocation still stands: counting and giving the
 * allocation back are written in one status patch, so a pod whose allocation is already gone has
 * been counted, and re-planning after a partly applied plan does not count it again.
 */
public final class WorkerSupervisor {

  private final JobTermination termination;
  private final Duration refusingNodeAvoidance;

  public WorkerSupervisor(JobTermination termination, Duration refusingNodeAvoidance) {
    this.termination = termination;
    this.refusingNodeAvoidance = refusingNodeAvoidance;
  }

  /** Whether the job goes on in its stage; false once a WorkerSet exceeded its restart limit. */
  boolean supervise(JobObservation observation, PlanDraft draft) {
    for (PodSlot.Worker slot : observation.workerSlots()) {
      observation.pod(slot.podName()).ifPresent(pod -> review(observation, draft, slot, pod));
    }
    for (PodView pod : observation.podsOutsideSpec()) {
      if (pod.name().equals(observation.leaderSlot().podName())) {
        continue;
      }
      if (!pod.deleting()) {
        draft.delete(pod.name(), DeletionReason.NOT_IN_SPEC);
      }
      if (observation.allocation(pod.name()).isPresent()) {
        draft.release(pod.name());
      }
    }
    return enforceRestartLimit(observation, draft);
  }

  private void review(
      JobObservation observation, PlanDraft draft, PodSlot.Worker slot, PodView pod) {
    PodStanding standing = PodStanding.of(pod);
    switch (standing) {
      case ACTIVE, UNREACHABLE, SUCCEEDED -> {}
      case REJECTED ->
          giveBack(observation, draft, slot, pod, false, DeletionReason.REJECTED_BY_KUBELET);
      case FAILED, DELETING -> {
        boolean evictedForAnotherJob =
            observation.status().eviction().filter(notice -> notice.names(pod.name())).isPresent();
        giveBack(
            observation,
            draft,
            slot,
            pod,
            !evictedForAnotherJob,
            evictedForAnotherJob
                ? DeletionReason.EVICTED_FOR_ANOTHER_JOB
                : DeletionReason.WORKER_FAILED);
      }
    }
  }

  private void giveBack(
      JobObservation observation,
      PlanDraft draft,
      PodSlot.Worker slot,
      PodView pod,
      boolean countsAsRestart,
      DeletionReason why) {
    if (!observation.allocationStandsFor(pod)) {
      // Already given back (and counted) by an earlier plan, or a leftover of an older placement.
      if (!pod.deleting()) {
        draft.delete(
            pod.name(),
            observation.allocation(pod.name()).isPresent() ? DeletionReason.STALE_PLACEMENT : why);
      }
      return;
    }
    draft.release(pod.name());
    if (!pod.deleting()) {
      draft.delete(pod.name(), why);
    }
    String node = pod.nodeName().orElse("(none)");
    String reason = pod.statusReason().orElse(pod.deleting() ? "deleted" : "no reason given");
    Optional<EvictionNotice> eviction =
        observation.status().eviction().filter(notice -> notice.names(pod.name()));
    if (eviction.isPresent()) {
      draft.event(
          EventType.WARNING,
          eviction.get().reason(),
          "worker pod \"%s\" of workerSet \"%s\" evicted: %s; given back for rescheduling, not counted as a restart"
              .formatted(pod.name(), slot.workerSet(), eviction.get().message()));
      return;
    }
    if (!countsAsRestart) {
      pod.nodeName().ifPresent(refusing -> draft.avoid(refusing, reason));
      String avoided =
          pod.nodeName().isPresent()
              ? "; node %s is avoided for this job until %s"
                  .formatted(node, observation.now().plus(refusingNodeAvoidance))
              : "";
      draft.event(
          EventType.WARNING,
          LifecycleReasons.WORKER_REJECTED,
          "the kubelet on node %s refused worker pod \"%s\": %s; given back for rescheduling, not counted as a restart%s"
              .formatted(node, pod.name(), reason, avoided));
      return;
    }
    int restarts = draft.countWorkerSetRestart(slot.workerSet());
    draft.event(
        EventType.WARNING,
        LifecycleReasons.WORKER_LOST,
        "worker pod \"%s\" of workerSet \"%s\" lost on node %s (%s); given back for rescheduling, restart %d of %d"
            .formatted(
                pod.name(),
                slot.workerSet(),
                node,
                reason,
                restarts,
                observation.spec().restartLimit()));
  }

  private boolean enforceRestartLimit(JobObservation observation, PlanDraft draft) {
    long restartLimit = observation.spec().restartLimit();
    Optional<WorkerSetSpecView> exceeded =
        observation.spec().workerSets().stream()
            .filter(workerSet -> draft.workerSetRestarts(workerSet.name()) > restartLimit)
            .findFirst();
    if (exceeded.isEmpty()) {
      return true;
    }
    String name = exceeded.get().name();
    termination.fail(
        observation,
        draft,
        LifecycleReasons.WORKER_SET_RESTART_LIMIT_EXCEEDED,
        "workerSet \"%s\" has been restarted %d times, more than restartLimit %d"
            .formatted(name, draft.workerSetRestarts(name), restartLimit));
    return false;
  }
}
