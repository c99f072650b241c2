package io.tyrl.arranger.crd.bounds;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The parts of a TYJob that {@link TYJobBounds} checks, as plain values, so that any reader of a
 * TYJob (the generated model, raw JSON, a test) can have it checked. A {@code null} stands for a
 * field that is absent: the API server fills in defaults, and a value that is absent has no bound
 * to break (except a required name, which is reported as missing).
 *
 * <p>Numbers are {@code Long} although the CRD says {@code format: int32}: kube-apiserver 1.20 does
 * not enforce that format, so a stored value may not fit an {@code int}, and it must be reported as
 * it is rather than wrapped or replaced by a default.
 *
 * @param jobName {@code metadata.name}
 * @param leaderName {@code spec.leader.name}
 * @param workerSets {@code spec.workerSets}, in order
 * @param volumeNames {@code spec.volumes[].name}, in order
 */
public record TYJobShape(
    String jobName,
    String leaderName,
    List<WorkerSet> workerSets,
    Long restartLimit,
    Long minWorkersNum,
    Long priority,
    String queue,
    String gangWaitTime,
    String gangGroup,
    List<String> volumeNames) {

  /** One entry of {@code spec.workerSets}: its name and {@code counts}. */
  public record WorkerSet(String name, Long counts) {}

  public TYJobShape {
    // Not List.copyOf: a name may be null (absent), and absent names are reported, not rejected
    // here.
    workerSets =
        workerSets == null ? List.of() : Collections.unmodifiableList(new ArrayList<>(workerSets));
    volumeNames =
        volumeNames == null
            ? List.of()
            : Collections.unmodifiableList(new ArrayList<>(volumeNames));
  }

  /** A job of this name with nothing else set; fill it with the {@code with…} methods. */
  public static TYJobShape named(String jobName) {
    return new TYJobShape(jobName, null, List.of(), null, null, null, null, null, null, List.of());
  }

  public TYJobShape withLeader(String name) {
    return new TYJobShape(
        jobName,
        name,
        workerSets,
        restartLimit,
        minWorkersNum,
        priority,
        queue,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withWorkerSet(String name, Long counts) {
    List<WorkerSet> sets = new ArrayList<>(workerSets);
    sets.add(new WorkerSet(name, counts));
    return new TYJobShape(
        jobName,
        leaderName,
        sets,
        restartLimit,
        minWorkersNum,
        priority,
        queue,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withRestartLimit(Long value) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        value,
        minWorkersNum,
        priority,
        queue,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withMinWorkersNum(Long value) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        restartLimit,
        value,
        priority,
        queue,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withPriority(Long value) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        restartLimit,
        minWorkersNum,
        value,
        queue,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withQueue(String value) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        restartLimit,
        minWorkersNum,
        priority,
        value,
        gangWaitTime,
        gangGroup,
        volumeNames);
  }

  public TYJobShape withGang(String waitTime, String group) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        restartLimit,
        minWorkersNum,
        priority,
        queue,
        waitTime,
        group,
        volumeNames);
  }

  public TYJobShape withVolumes(List<String> names) {
    return new TYJobShape(
        jobName,
        leaderName,
        workerSets,
        restartLimit,
        minWorkersNum,
        priority,
        queue,
        gangWaitTime,
        gangGroup,
        names);
  }
}
