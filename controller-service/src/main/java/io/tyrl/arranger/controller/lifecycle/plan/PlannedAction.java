package io.tyrl.arranger.controller.lifecycle.plan;

import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.controller.lifecycle.observe.PodSlot;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.crd.reasons.EventType;
import java.util.Objects;
import java.util.Optional;

/**
 * One effect the Kubernetes adapter carries out for a {@link Plan}.
 *
 * <p>A plan lists its actions in the order they must be applied, and the adapter stops at the first
 * failure and requeues the job: the status write (every {@link ReleaseAllocation} together with the
 * {@link PatchStatus}) comes first, then deletes, creates and events. Writing status first matters
 * because it records restart counts atomically with giving allocations back; if a later delete
 * fails, the next plan sees the allocation gone and does not count the same failure twice.
 *
 * <p>One exception ({@link Plan#createsLeaderFirst()}): a plan that creates the leader and neither
 * deletes a pod nor gives a placement back creates the leader first, and its status — written only
 * once that create has succeeded — holds the leader as observed ({@code phase: Pending}). A name
 * held by a pod of another owner is then met by the create itself, before the status announces a
 * leader.
 */
public sealed interface PlannedAction {

  /**
   * Create the pod of {@code slot} on {@code nodeName} (set as {@code spec.nodeName}: the scheduler
   * already bound it), from the leader's or the WorkerSet's template, adding {@code environment} to
   * every container. An AlreadyExists answer means an earlier create succeeded: treat it as done.
   */
  record CreatePod(PodSlot slot, String nodeName, PodEnvironment environment)
      implements PlannedAction {
    public CreatePod {
      Objects.requireNonNull(slot, "slot");
      Objects.requireNonNull(nodeName, "nodeName");
      Objects.requireNonNull(environment, "environment");
    }

    public String podName() {
      return slot.podName();
    }

    public PodRole role() {
      return slot.role();
    }

    public Optional<String> leaderAddress() {
      return environment.leaderAddress();
    }
  }

  /** Delete the pod (NotFound means it is already gone: done). */
  /**
   * @param force delete at once ({@code gracePeriodSeconds: 0}): for a pod whose kubelet cannot
   *     confirm a graceful delete because its node is unreachable
   */
  record DeletePod(String podName, DeletionReason why, boolean force) implements PlannedAction {
    public DeletePod {
      Objects.requireNonNull(podName, "podName");
      Objects.requireNonNull(why, "why");
    }

    public DeletePod(String podName, DeletionReason why) {
      this(podName, why, false);
    }
  }

  /**
   * Give the placement of {@code podName} back to the scheduler.
   *
   * <p>{@code status.allocations} belongs to the scheduler, so the controller never rewrites it; it
   * only removes the one key: the adapter adds {@code "allocations": {"<podName>": null}} to the
   * JSON merge patch it sends to {@code /status} (the same patch as {@link PatchStatus}), with
   * {@code metadata.resourceVersion} of the job this plan was made from. A merge patch touches no
   * other key, and the resourceVersion turns a concurrent scheduler write into a 409, after which
   * the job is planned again from fresh state.
   */
  record ReleaseAllocation(String podName) implements PlannedAction {
    public ReleaseAllocation {
      Objects.requireNonNull(podName, "podName");
    }
  }

  /**
   * Write the controller-owned status fields. Sent as a JSON merge patch on {@code /status},
   * guarded by the job's resourceVersion, in which every field of {@code status} is written and an
   * absent optional value is written as JSON {@code null}, so stale values are cleared.
   */
  /**
   * @param onlyReports the new status differs from the stored one only in what reports on the pods
   *     and the spec ({@link ControllerStatus#differsOnlyInReportsFrom}): the adapter may hold it
   *     back for a while and send the reports of several changes in one write
   */
  record PatchStatus(ControllerStatus status, boolean onlyReports) implements PlannedAction {
    public PatchStatus {
      Objects.requireNonNull(status, "status");
    }

    public PatchStatus(ControllerStatus status) {
      this(status, false);
    }
  }

  /**
   * Show why the job was refused where {@code kubectl get tyj -o wide} looks for a reason: the
   * adapter writes {@code status.scheduling.reason} and {@code .message} in the same status patch
   * as {@link PatchStatus}. Planned only by the controller's own refusal (validation), on the plan
   * that fails the job: the scheduler no longer writes a job that has ended, so the two never
   * compete.
   */
  record ReportRefusal(String reason, String message) implements PlannedAction {
    public ReportRefusal {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }

  /** Record a Kubernetes Event on the TYJob. */
  record EmitEvent(EventType type, String reason, String message) implements PlannedAction {
    public EmitEvent {
      Objects.requireNonNull(type, "type");
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }
}
