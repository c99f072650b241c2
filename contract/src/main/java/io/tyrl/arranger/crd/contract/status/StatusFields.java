package io.tyrl.arranger.crd.contract.status;

/**
 * The parts of {@code TYJob.status} one service writes and the other reads, by their JSON names.
 * What each part holds is encoded and decoded by {@link Allocations}, {@link GpuDeviceSeats},
 * {@link SchedulingStatus}, {@link VictimEntry} and {@link AvoidedNodeEntry}; the stage and the
 * schedule state are {@link io.tyrl.arranger.crd.contract.Stage} and {@link
 * io.tyrl.arranger.crd.contract.ScheduleState}.
 */
public final class StatusFields {

  /** The scheduler's {@link io.tyrl.arranger.crd.contract.ScheduleState}. */
  public static final String SCHEDULE_STATE = "scheduleState";

  /** The controller's {@link io.tyrl.arranger.crd.contract.Stage}. */
  public static final String STAGE = "stage";

  /** The scheduler's placements; the controller gives single ones back. */
  public static final String ALLOCATIONS = "allocations";

  /**
   * The device of its node each pod holding part of one GPU was given; written by the scheduler
   * beside {@link #ALLOCATIONS}, read back by it to seat the pod there again, and by the controller
   * to tell the node which device the pod shares.
   */
  public static final String GPU_DEVICES = "gpuDevices";

  /**
   * Topology level → the domain of the node the job's leader was last placed on; written by the
   * scheduler key by key (a level the job no longer asks is written as null), read back by it to
   * place a job that lost its leader in the same domains again.
   */
  public static final String TOPOLOGY_DOMAINS = "topologyDomains";

  /**
   * Why the job is not placed; written by the scheduler, and by the controller for a job it
   * refuses.
   */
  public static final String SCHEDULING = "scheduling";

  /**
   * The pods of other jobs the scheduler chose to evict for this one; the controller evicts them.
   */
  public static final String VICTIMS = "victims";

  /**
   * Nodes whose kubelet refused one of the job's pods; written by the controller, avoided by the
   * scheduler.
   */
  public static final String AVOID_NODES = "avoidNodes";

  /** The controller's conditions, one entry per type. */
  public static final String CONDITIONS = "conditions";

  /**
   * The condition the controller sets True when the job's stage becomes Running and False when it
   * leaves it. Its {@code lastTransitionTime} moves only then, so while it is True it says when the
   * job's gang minimum started running: the scheduler's minimum runtimes count from it.
   */
  public static final String RUNNING_CONDITION = "Running";

  private StatusFields() {}
}
