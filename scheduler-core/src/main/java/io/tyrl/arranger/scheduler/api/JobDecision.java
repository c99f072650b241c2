package io.tyrl.arranger.scheduler.api;

import io.tyrl.arranger.crd.contract.ScheduleState;
import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cycle decided for one job: its schedule state, pod name → node for every placed pod, and —
 * when the job is not fully placed — a reason code and a message for {@code status.scheduling}.
 *
 * @param reason null when every pod is placed
 * @param waitingSince when the job's current wait for its gang minimum began (written back as
 *     {@code status.scheduling.waitingSince} and returned in the next snapshot); null once the
 *     minimum is placed or has run, or when the job failed
 * @param gpuDevices for each placed pod holding part of one GPU, the index of the device of its
 *     node it is seated on (written to {@code status.gpuDevices}, read back in the next snapshot);
 *     pods asking whole GPUs, or none, have no entry
 * @param topologyDomains for a job asking topology levels, the domain (label value) by level of the
 *     node its leader is placed on — or, while its leader is not placed, the ones recorded before
 *     ({@link JobInfo#topologyDomains()}): written to {@code status.topologyDomains}, read back in
 *     the next snapshot; empty for a job asking none
 */
public record JobDecision(
    ScheduleState state,
    Map<String, String> allocations,
    ReasonCode reason,
    String message,
    Instant waitingSince,
    Map<String, Integer> gpuDevices,
    Map<String, String> topologyDomains) {

  public JobDecision {
    Objects.requireNonNull(state, "state");
    allocations = Map.copyOf(allocations);
    message = message == null ? "" : message;
    gpuDevices = Map.copyOf(gpuDevices);
    topologyDomains = Map.copyOf(topologyDomains);
  }

  /** A decision for a job asking no topology level. */
  public JobDecision(
      ScheduleState state,
      Map<String, String> allocations,
      ReasonCode reason,
      String message,
      Instant waitingSince,
      Map<String, Integer> gpuDevices) {
    this(state, allocations, reason, message, waitingSince, gpuDevices, Map.of());
  }

  /** A decision whose placed pods hold no part of a GPU, for a job asking no topology level. */
  public JobDecision(
      ScheduleState state,
      Map<String, String> allocations,
      ReasonCode reason,
      String message,
      Instant waitingSince) {
    this(state, allocations, reason, message, waitingSince, Map.of());
  }

  public Optional<ReasonCode> reasonIfAny() {
    return Optional.ofNullable(reason);
  }
}
