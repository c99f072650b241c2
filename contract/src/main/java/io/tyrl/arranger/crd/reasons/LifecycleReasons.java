package io.tyrl.arranger.crd.reasons;

import java.util.List;

/**
 * The reasons the controller gives on a TYJob's Events and its conditions as the job moves through
 * its lifecycle, in one place with the scheduler's ({@link SchedulingReasons}). {@code
 * docs/what-you-see.md} explains each one in {@link #EVENTS}; a test keeps that page complete.
 */
public final class LifecycleReasons {

  /** The minimum is placed and the leader pod was created. */
  public static final String LEADER_CREATED = "LeaderCreated";

  /** After a reschedule the minimum is placed again and the leader pod was created anew. */
  public static final String LEADER_RECREATED = "LeaderRecreated";

  /** The leader runs: the job's minimum has run. */
  public static final String STARTED = "Started";

  /** The leader completed: the job succeeded. */
  public static final String LEADER_SUCCEEDED = "LeaderSucceeded";

  /** The leader pod disappeared or is being deleted. */
  public static final String LEADER_DELETED = "LeaderDeleted";

  /** The kubelet evicted the leader pod. */
  public static final String LEADER_EVICTED = "LeaderEvicted";

  /** The leader pod failed. */
  public static final String LEADER_FAILED = "LeaderFailed";

  /** The kubelet refused the leader pod after it was bound. */
  public static final String LEADER_REJECTED = "LeaderRejected";

  /** The leader was lost more often than {@code spec.restartLimit} allows. */
  public static final String RESTART_LIMIT_EXCEEDED = "RestartLimitExceeded";

  /** The kubelet refused a worker pod after it was bound. */
  public static final String WORKER_REJECTED = "WorkerRejected";

  /** A worker pod failed or disappeared. */
  public static final String WORKER_LOST = "WorkerLost";

  /** A WorkerSet lost its workers more often than {@code spec.restartLimit} allows. */
  public static final String WORKER_SET_RESTART_LIMIT_EXCEEDED = "WorkerSetRestartLimitExceeded";

  /** A node the job's pods ran on stopped answering and its pods were given up. */
  public static final String NODE_UNREACHABLE = "NodeUnreachable";

  /** A pod of another owner holds the name of one of the job's pods; it is never adopted. */
  public static final String POD_NAME_CONFLICT = "PodNameConflict";

  /** {@code spec.terminating} is true: the job was stopped by request. */
  public static final String TERMINATED = "Terminated";

  /** The API server refused to create one of the job's pods. */
  public static final String POD_CREATE_REFUSED = "PodCreateRefused";

  /**
   * A pod sharing a GPU waits for its device's reservation pod, which ended or has not held its GPU
   * within the patience ({@code arranger.controller.gpu-sharing.start-patience}).
   */
  public static final String GPU_RESERVATION_WAITING = "GpuReservationWaiting";

  /** Condition {@code Validated}: the spec passed validation. */
  public static final String VALID = "Valid";

  /**
   * Condition {@code Validated}: the spec did not pass validation (the Event says {@link
   * SchedulingReasons#INVALID_JOB}).
   */
  public static final String INVALID = "Invalid";

  /**
   * Condition {@code PodNameConflict}: no pod of another owner holds the job's pod names (any
   * more).
   */
  public static final String NAME_FREE = "NameFree";

  /** The reasons of the controller's Events. */
  public static final List<String> EVENTS =
      List.of(
          LEADER_CREATED,
          LEADER_RECREATED,
          STARTED,
          LEADER_SUCCEEDED,
          LEADER_DELETED,
          LEADER_EVICTED,
          LEADER_FAILED,
          LEADER_REJECTED,
          RESTART_LIMIT_EXCEEDED,
          WORKER_REJECTED,
          WORKER_LOST,
          WORKER_SET_RESTART_LIMIT_EXCEEDED,
          NODE_UNREACHABLE,
          POD_NAME_CONFLICT,
          TERMINATED,
          POD_CREATE_REFUSED,
          GPU_RESERVATION_WAITING);

  private LifecycleReasons() {}
}
