package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.status.Allocations;
import io.tyrl.arranger.crd.contract.status.GpuDeviceSeats;
import io.tyrl.arranger.crd.contract.status.SchedulingStatus;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.crd.contract.status.VictimEntry;
import io.tyrl.arranger.crd.read.PlainJson;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.model.V1alpha1TYJobStatusScheduling;
import io.tyrl.arranger.model.V1alpha1TYJobStatusVictims;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cycle's decision changes in a TYJob's scheduler-owned status, as a JSON merge patch.
 *
 * <p>Only changed jobs are written, so a cycle over thousands of pending jobs whose situation did
 * not change writes nothing. Allocations, GPU device seats and topology domains are patched key by
 * key (a removed placement is written as null), which leaves the controller's own removals alone.
 *
 * @param patch the merge patch body
 * @param reasonChanged the pending reason differs from the one recorded
 * @param newlyPlaced the job went from nothing placed to placed
 * @param reasonOrMessageChanged the job has a pending reason, and it or its message differs from
 *     the one recorded: the Event that reports the status must carry the new words
 */
public record ScheduleStatusChange(
    String patch,
    boolean reasonChanged,
    boolean newlyPlaced,
    JobDecision decision,
    boolean reasonOrMessageChanged) {

  /**
   * @param victims the victims this job's preemption or reclaim waits for, as they should stand in
   *     {@code status.victims} (empty clears them)
   */
  public static Optional<ScheduleStatusChange> between(
      V1alpha1TYJobStatus status,
      JobDecision decision,
      List<Victim> victims,
      String resourceVersion,
      Instant now) {
    return between(
        status, decision, victims, (namespace, pod) -> Optional.empty(), resourceVersion, now);
  }

  /** Looks up the UID of a victim pod as cached now. */
  @FunctionalInterface
  public interface PodUids {
    Optional<String> uid(String namespace, String podName);
  }

  /**
   * @param podUids the UIDs recorded beside victim pods' names, so that the controller evicts that
   *     very pod and the snapshot never mistakes a later pod of the same name for a leaving one
   */
  public static Optional<ScheduleStatusChange> between(
      V1alpha1TYJobStatus status,
      JobDecision decision,
      List<Victim> victims,
      PodUids podUids,
      String resourceVersion,
      Instant now) {
    String currentState =
        status == null || status.getScheduleState() == null
            ? null
            : status.getScheduleState().getValue();
    Map<String, String> currentAllocations =
        status == null || status.getAllocations() == null ? Map.of() : status.getAllocations();
    V1alpha1TYJobStatusScheduling scheduling = status == null ? null : status.getScheduling();
    String currentReason = scheduling == null ? null : scheduling.getReason();
    String currentMessage = scheduling == null ? null : scheduling.getMessage();
    Instant currentWaiting =
        scheduling == null || scheduling.getWaitingSince() == null
            ? null
            : scheduling.getWaitingSince().toInstant();

    String state = decision.state().wireName();
    String reason = decision.reasonIfAny().map(r -> r.statusValue()).orElse(null);
    String message = decision.message().isEmpty() ? null : decision.message();
    Instant waiting = decision.waitingSince();
    Map<String, String> allocationChanges = keyChanges(decision.allocations(), currentAllocations);
    Map<String, Integer> currentDevices =
        status == null || status.getGpuDevices() == null ? Map.of() : status.getGpuDevices();
    Map<String, Integer> deviceChanges = keyChanges(decision.gpuDevices(), currentDevices);
    Map<String, String> currentDomains =
        status == null || status.getTopologyDomains() == null
            ? Map.of()
            : status.getTopologyDomains();
    Map<String, String> domainChanges = keyChanges(decision.topologyDomains(), currentDomains);

    boolean victimsChanged = !recorded(status).equals(victims);
    boolean stateChanged = !state.equals(currentState);
    boolean reasonChanged = !Objects.equals(reason, currentReason);
    boolean messageChanged = !Objects.equals(message, currentMessage);
    boolean changed =
        stateChanged
            || reasonChanged
            || victimsChanged
            || !allocationChanges.isEmpty()
            || !deviceChanges.isEmpty()
            || !domainChanges.isEmpty()
            || messageChanged
            || !sameSecond(waiting, currentWaiting);
    if (!changed) {
      return Optional.empty();
    }
    boolean transition =
        stateChanged
            || reasonChanged
            || (scheduling != null && scheduling.getLastTransitionTime() == null);
    Map<String, Object> statusPatch = new LinkedHashMap<>();
    statusPatch.put(StatusFields.SCHEDULE_STATE, state);
    if (!allocationChanges.isEmpty()) {
      statusPatch.put(StatusFields.ALLOCATIONS, Allocations.patch(allocationChanges));
    }
    if (!deviceChanges.isEmpty()) {
      statusPatch.put(StatusFields.GPU_DEVICES, GpuDeviceSeats.patch(deviceChanges));
    }
    if (!domainChanges.isEmpty()) {
      statusPatch.put(StatusFields.TOPOLOGY_DOMAINS, new LinkedHashMap<>(domainChanges));
    }
    statusPatch.put(
        StatusFields.SCHEDULING,
        SchedulingStatus.cyclePatch(reason, message, now, transition ? now : null, waiting));
    if (victimsChanged) {
      statusPatch.put(StatusFields.VICTIMS, VictimEntry.encodeAll(entries(victims, podUids)));
    }
    JsonObject patch = new JsonObject();
    JsonObject metadata = new JsonObject();
    // Guarded by the version the decision was made from: a concurrent write turns into a 409.
    metadata.addProperty("resourceVersion", resourceVersion);
    patch.add("metadata", metadata);
    patch.add("status", PlainJson.toJson(statusPatch));
    boolean newlyPlaced =
        currentAllocations.isEmpty()
            && !decision.allocations().isEmpty()
            && decision.state() != ScheduleState.UNSCHEDULED;
    return Optional.of(
        new ScheduleStatusChange(
            patch.toString(),
            reasonChanged && reason != null,
            newlyPlaced,
            decision,
            reason != null && (reasonChanged || messageChanged)));
  }

  /**
   * A merge patch's entries turning {@code current} into {@code wanted}: each key whose value is
   * new or differs, and each key no longer wanted as null.
   */
  private static <V> Map<String, V> keyChanges(Map<String, V> wanted, Map<String, V> current) {
    Map<String, V> changes = new HashMap<>();
    wanted.forEach(
        (key, value) -> {
          if (!value.equals(current.get(key))) {
            changes.put(key, value);
          }
        });
    for (String key : current.keySet()) {
      if (!wanted.containsKey(key)) {
        changes.put(key, null);
      }
    }
    return changes;
  }

  /** The victims recorded in the job's status, in the core's terms. */
  public static List<Victim> recorded(V1alpha1TYJobStatus status) {
    if (status == null || status.getVictims() == null) {
      return List.of();
    }
    List<Victim> victims = new ArrayList<>();
    for (V1alpha1TYJobStatusVictims victim : status.getVictims()) {
      VictimEntry entry =
          new VictimEntry(
              victim.getNamespace(),
              victim.getJob(),
              victim.getPods(),
              victim.getPodUIDs(),
              Boolean.TRUE.equals(victim.getWholeJob()),
              victim.getReason(),
              victim.getCause() == null ? null : victim.getCause().getValue());
      victims.add(
          new Victim(
              victim.getNamespace(),
              victim.getJob(),
              entry.pods(),
              entry.wholeJob(),
              victim.getReason(),
              ReasonCode.RECLAIMED.statusValue().equals(entry.evictionCause())
                  ? ReasonCode.RECLAIMED
                  : ReasonCode.PREEMPTED));
    }
    return victims;
  }

  private static List<VictimEntry> entries(List<Victim> victims, PodUids podUids) {
    List<VictimEntry> entries = new ArrayList<>(victims.size());
    for (Victim victim : victims) {
      List<String> uids = new ArrayList<>();
      victim.pods().forEach(pod -> podUids.uid(victim.namespace(), pod).ifPresent(uids::add));
      entries.add(
          new VictimEntry(
              victim.namespace(),
              victim.job(),
              victim.pods(),
              uids,
              victim.wholeJob(),
              victim.reason(),
              victim.cause().statusValue()));
    }
    return entries;
  }

  private static boolean sameSecond(Instant a, Instant b) {
    return a == null ? b == null : b != null && a.getEpochSecond() == b.getEpochSecond();
  }
}
