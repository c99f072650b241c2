package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.PodNames;
import java.util.Map;
import java.util.Objects;

/**
 * One pod of a job. Its name is deterministic — {@code <job>-<leader.name>} or {@code
 * <job>-<workerSet>-<index>} — so allocations and pods match by name. {@code nodeName} is set
 * exactly when the status is placed or releasing.
 *
 * @param roleName the leader's name or the WorkerSet's name, used in messages ("0/40 nodes fit
 *     actor")
 * @param index the worker's index in its WorkerSet; 0 for the leader
 * @param labels the labels the pod carries (its template's and the ones Arranger adds), which other
 *     pods' affinity and spread constraints select on
 */
public record TaskInfo(
    String podName,
    TaskRole role,
    String roleName,
    int index,
    Resource request,
    PlacementConstraints constraints,
    TaskStatus status,
    String nodeName,
    Map<String, String> labels) {

  public TaskInfo {
    if (podName == null || podName.isBlank()) {
      throw new IllegalArgumentException("task podName must not be blank");
    }
    Objects.requireNonNull(role, "role of task " + podName);
    if (roleName == null || roleName.isBlank()) {
      throw new IllegalArgumentException("task " + podName + ": roleName must not be blank");
    }
    if (index < 0) {
      throw new IllegalArgumentException("task " + podName + ": index must be >= 0, was " + index);
    }
    request = request == null ? Resource.EMPTY : request;
    long gpuMilli = request.get(Resource.GPU);
    if (gpuMilli >= 1000 && gpuMilli % 1000 != 0) {
      // A device holds at most one GPU and a pod's share is never split across devices.
      throw new IllegalArgumentException(
          "task "
              + podName
              + ": nvidia.com/gpu "
              + Resource.formatQuantity(Resource.GPU, gpuMilli)
              + " is neither a share of one GPU (below 1) nor whole GPUs");
    }
    constraints = constraints == null ? PlacementConstraints.NONE : constraints;
    status = status == null ? TaskStatus.PENDING : status;
    boolean needsNode = status != TaskStatus.PENDING;
    if (needsNode && (nodeName == null || nodeName.isBlank())) {
      throw new IllegalArgumentException(
          "task " + podName + " is " + status + " but has no nodeName");
    }
    if (!needsNode && nodeName != null) {
      throw new IllegalArgumentException(
          "task " + podName + " is PENDING but names node " + nodeName);
    }
    labels = labels == null ? Map.of() : Map.copyOf(labels);
  }

  /** A task without labels. */
  public TaskInfo(
      String podName,
      TaskRole role,
      String roleName,
      int index,
      Resource request,
      PlacementConstraints constraints,
      TaskStatus status,
      String nodeName) {
    this(podName, role, roleName, index, request, constraints, status, nodeName, Map.of());
  }

  public static TaskInfo leader(String jobName, String leaderName, Resource request) {
    return new TaskInfo(
        PodNames.leader(jobName, leaderName),
        TaskRole.LEADER,
        leaderName,
        0,
        request,
        null,
        null,
        null);
  }

  public static TaskInfo worker(String jobName, String workerSet, int index, Resource request) {
    return new TaskInfo(
        PodNames.worker(jobName, workerSet, index),
        TaskRole.WORKER,
        workerSet,
        index,
        request,
        null,
        null,
        null);
  }

  public boolean isLeader() {
    return role == TaskRole.LEADER;
  }

  /** A pod without requests ("best effort"), left to the backfill action. */
  public boolean isBestEffort() {
    return request.isEmpty();
  }

  public TaskInfo withConstraints(PlacementConstraints newConstraints) {
    return new TaskInfo(
        podName, role, roleName, index, request, newConstraints, status, nodeName, labels);
  }

  public TaskInfo withStatus(TaskStatus newStatus, String node) {
    return new TaskInfo(
        podName, role, roleName, index, request, constraints, newStatus, node, labels);
  }

  public TaskInfo withLabels(Map<String, String> newLabels) {
    return new TaskInfo(
        podName, role, roleName, index, request, constraints, status, nodeName, newLabels);
  }
}
