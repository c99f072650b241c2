package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.scheduler.api.GangSpec;
import io.tyrl.arranger.scheduler.api.JobInfo;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.api.TaskInfo;
import io.tyrl.arranger.scheduler.api.TaskStatus;
import io.tyrl.arranger.simulator.trace.Gpus;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One job inside a run: where each of its pods is, the controller's stage, and what happened to it.
 * Mutable, owned by one {@link Simulation}; the scheduler sees it only as the immutable {@link
 * JobInfo} built from it.
 */
final class SimJob {

  static final String NAMESPACE = "sim";

  enum Phase {
    NOT_ARRIVED,
    WAITING,
    STARTED,
    ENDED
  }

  final TraceJob spec;
  final int queue;
  final String key;
  final Instant created;
  private final TaskInfo[] pendingTasks;
  private final long[] taskGpu;
  private final long[] taskMilliCpu;
  private final Map<String, Integer> taskIndex = new HashMap<>();
  final String[] nodeOf;
  final boolean[] releasing;

  /** Bumped each time a pod starts releasing, so that a stale release event is ignored. */
  final int[] releaseStamp;

  Phase phase = Phase.NOT_ARRIVED;
  Stage stage = Stage.PENDING;
  Instant waitingSince;

  /** When the job's minimum started running (stage Running); null when it is not running. */
  Instant runningSince;

  boolean awaitingVictims;

  /**
   * The devices the last decision seated the job's GPU shares on, as a status would record them.
   */
  Map<String, Integer> gpuDevices = Map.of();

  /**
   * Bumped when the job is evicted whole or ends, so that its pending RUN and FINISH events are
   * ignored.
   */
  int generation;

  double started = Double.NaN;
  double finished = Double.NaN;
  String failure;
  int restarts;
  boolean deadlocked;
  Boolean requiredInDomain;
  Boolean preferredInDomain;
  Boolean preferredMinimumInDomain;
  double partialSince = Double.NaN;

  long heldGpu;
  long heldMilliCpu;
  int heldPods;
  boolean countedAsStarted;

  private JobInfo info;

  /**
   * @param sharedRequests one instance per distinct request across the run, so that the core, which
   *     turns each distinct request object into a vector once per cycle, does so once per kind of
   *     pod
   */
  SimJob(TraceJob spec, int queue, Instant created, Map<Resource, Resource> sharedRequests) {
    this.spec = spec;
    this.queue = queue;
    this.key = NAMESPACE + "/" + spec.name();
    this.created = created;
    int tasks = 1 + spec.workers();
    pendingTasks = new TaskInfo[tasks];
    pendingTasks[0] =
        TaskInfo.leader(
            spec.name(),
            "learner",
            sharedRequests.computeIfAbsent(spec.leader(), request -> request));
    Resource workerRequest = sharedRequests.computeIfAbsent(spec.worker(), request -> request);
    for (int i = 0; i < spec.workers(); i++) {
      pendingTasks[1 + i] = TaskInfo.worker(spec.name(), "actor", i, workerRequest);
    }
    taskGpu = new long[tasks];
    taskMilliCpu = new long[tasks];
    for (int i = 0; i < tasks; i++) {
      taskIndex.put(pendingTasks[i].podName(), i);
      taskGpu[i] = Gpus.whole(pendingTasks[i].request());
      taskMilliCpu[i] = pendingTasks[i].request().milliCpu();
    }
    nodeOf = new String[tasks];
    releasing = new boolean[tasks];
    releaseStamp = new int[tasks];
  }

  int tasks() {
    return pendingTasks.length;
  }

  String podName(int task) {
    return pendingTasks[task].podName();
  }

  /** The task's index, or -1 when the job has no such pod. */
  int indexOf(String podName) {
    return taskIndex.getOrDefault(podName, -1);
  }

  Resource request(int task) {
    return pendingTasks[task].request();
  }

  boolean hasStartedBefore() {
    return !Double.isNaN(started);
  }

  boolean isStarted() {
    return stage == Stage.STARTING || stage == Stage.RUNNING;
  }

  void changed() {
    info = null;
  }

  JobInfo info() {
    if (info == null) {
      List<TaskInfo> tasks = new ArrayList<>(pendingTasks.length);
      for (int i = 0; i < pendingTasks.length; i++) {
        tasks.add(
            nodeOf[i] == null
                ? pendingTasks[i]
                : pendingTasks[i].withStatus(
                    releasing[i] ? TaskStatus.RELEASING : TaskStatus.ALLOCATED, nodeOf[i]));
      }
      info =
          JobInfo.builder(NAMESPACE, spec.name())
              .queue(spec.queue())
              .priority(spec.priority())
              .creationTime(created)
              .minWorkersNum(spec.minWorkers())
              .basicPolicy(spec.basicPolicy())
              .gang(new GangSpec(spec.gang(), spec.waitTime(), null))
              .waitingSince(waitingSince)
              .tasks(tasks)
              .awaitingVictims(awaitingVictims)
              .stage(stage)
              .runningSince(runningSince)
              .topology(spec.topology())
              .gpuDevices(gpuDevices)
              .build();
    }
    return info;
  }

  /** Whether the job has started and holds placed workers (not releasing) above its minimum. */
  boolean holdsSurplus() {
    if (phase != Phase.STARTED) {
      return false;
    }
    int workers = 0;
    for (int i = 1; i < nodeOf.length; i++) {
      if (nodeOf[i] != null && !releasing[i]) {
        workers++;
      }
    }
    return workers > spec.minWorkers();
  }

  /** Sums what the job's pods hold (placed or still releasing). */
  void recomputeHeld() {
    long gpu = 0;
    long cpu = 0;
    int pods = 0;
    for (int i = 0; i < nodeOf.length; i++) {
      if (nodeOf[i] != null) {
        gpu += taskGpu[i];
        cpu += taskMilliCpu[i];
        if (!releasing[i]) {
          pods++;
        }
      }
    }
    heldGpu = gpu;
    heldMilliCpu = cpu;
    heldPods = pods;
  }
}
