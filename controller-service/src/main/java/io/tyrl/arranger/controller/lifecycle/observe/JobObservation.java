package io.tyrl.arranger.controller.lifecycle.observe;

import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import java.time.Instant;
import java.util.Collection;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Everything one plan is made from: the job, its pods keyed by name, the slots its spec asks for,
 * and the time. Built once per plan so every stage reads the same facts.
 *
 * @param foreignPods pods of other owners that hold names of this job's pods, by name
 * @param workerSlots empty for a job that failed validation or whose spec is outside the bounds:
 *     its counts may be anything, and such a job needs no worker slots, only cleanup
 */
public record JobObservation(
    JobView job,
    Map<String, PodView> podsByName,
    PodSlot.Leader leaderSlot,
    List<PodSlot.Worker> workerSlots,
    Map<String, ForeignPod> foreignPods,
    Instant now) {

  public static JobObservation of(
      JobView job,
      List<PodView> pods,
      List<ForeignPod> foreign,
      Instant now,
      boolean slotsMayBeMade) {
    Map<String, PodView> podsByName = new LinkedHashMap<>();
    for (PodView pod : pods) {
      podsByName.putIfAbsent(pod.name(), pod);
    }
    List<PodSlot.Worker> workerSlots =
        slotsMayBeMade ? PodNaming.workerSlots(job.name(), job.spec()) : List.of();
    Map<String, ForeignPod> foreignByName = new LinkedHashMap<>();
    for (ForeignPod pod : foreign) {
      foreignByName.putIfAbsent(pod.name(), pod);
    }
    return new JobObservation(
        job,
        Collections.unmodifiableMap(podsByName),
        PodNaming.leaderSlot(job.name(), job.spec()),
        workerSlots,
        Collections.unmodifiableMap(foreignByName),
        now);
  }

  /**
   * A pod of another owner under this name, which keeps the job's own pod of that name from being
   * created.
   */
  public Optional<ForeignPod> foreignPod(String name) {
    return Optional.ofNullable(foreignPods.get(name));
  }

  public String jobName() {
    return job.name();
  }

  public JobSpecView spec() {
    return job.spec();
  }

  public SchedulerStatusView scheduler() {
    return job.scheduler();
  }

  public ControllerStatus status() {
    return job.status();
  }

  public Collection<PodView> pods() {
    return podsByName.values();
  }

  public Optional<PodView> pod(String name) {
    return Optional.ofNullable(podsByName.get(name));
  }

  public Optional<PodView> leaderPod() {
    return pod(leaderSlot.podName());
  }

  public Optional<String> allocation(String podName) {
    return job.scheduler().allocatedNode(podName);
  }

  /**
   * Whether the scheduler's placement of this pod still stands: it is allocated, and to the node
   * the pod is on. A pod whose allocation is gone has already been given back (and, if it failed,
   * counted); one on another node is a leftover of an earlier placement.
   */
  public boolean allocationStandsFor(PodView pod) {
    Optional<String> allocated = allocation(pod.name());
    return allocated.isPresent() && pod.nodeName().map(allocated.get()::equals).orElse(true);
  }

  /** Pods of the job whose names match no slot of the current spec (e.g. after a scale-down). */
  public List<PodView> podsOutsideSpec() {
    Set<String> slotNames = new HashSet<>();
    slotNames.add(leaderSlot.podName());
    workerSlots.forEach(slot -> slotNames.add(slot.podName()));
    return pods().stream().filter(pod -> !slotNames.contains(pod.name())).toList();
  }

  /** Worker pods of the spec that are Running, Ready and not being deleted. */
  public int servingWorkers() {
    return (int)
        workerSlots.stream()
            .map(slot -> podsByName.get(slot.podName()))
            .filter(pod -> pod != null && pod.isServing())
            .count();
  }
}
