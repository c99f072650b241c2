package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.model.V1alpha1TYJobStatusScheduling;
import io.tyrl.arranger.model.V1alpha1TYJobStatusVictims;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a cycle's decision changes in a TYJob's scheduler-owned status, as a JSON merge patch.
 *
 * <p>Only changed jobs are written, so a cycle over thousands of pending jobs whose situation did
 * not change writes nothing. Allocations are patched key by key (a removed placement is written as
 * null), which leaves the controller's own removals alone.
 *
 * @param patch the merge patch body
 * @param reasonChanged the pending reason differs from the one recorded
 * @param newlyPlaced the job went from nothing placed to placed
 * @param reasonOrMessageChanged the job has a pending reason, and it or its message differs from the
 *     one recorded: the Event that reports the status must carry the new words
 */
public record ScheduleStatusChange(String patch, boolean reasonChanged, boolean newlyPlaced, JobDecision decision,
    boolean reasonOrMessageChanged) {

  /**
   * @param victims the victims this job's preemption or reclaim waits for, as they should stand in
   *     {@code status.victims} (empty clears them)
   */
  public static Optional<ScheduleStatusChange> between(V1alpha1TYJobStatus status, JobDecision decision,
      List<Victim> victims, String resourceVersion, Instant now) {
    return between(status, decision, victims, (namespace, pod) -> Optional.empty(), resourceVersion, now);
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
  public static Optional<ScheduleStatusChange> between(V1alpha1TYJobStatus status, JobDecision decision,
      List<Victim> victims, PodUids podUids, String resourceVersion, Instant now) {
    String currentState = status == null || status.getScheduleState() == null
        ? null : status.getScheduleState().getValue();
    Map<String, String> currentAllocations = status == null || status.getAllocations() == null
        ? Map.of() : status.getAllocations();
    V1alpha1TYJobStatusScheduling scheduling = status == null ? null : status.getScheduling();
    String currentReason = scheduling == null ? null : scheduling.getReason();
    String currentMessage = scheduling == null ? null : scheduling.getMessage();
    Instant currentWaiting = scheduling == null || scheduling.getWaitingSince() == null
        ? null : scheduling.getWaitingSince().toInstant();

    String state = decision.state().wireName();
    String reason = decision.reasonIfAny().map(r -> r.statusValue()).orElse(null);
    String message = decision.message().isEmpty() ? null : decision.message();
    Instant waiting = decision.waitingSince();
    Map<String, Object> allocationChanges = new HashMap<>();
    decision.allocations().forEach((pod, node) -> {
      if (!node.equals(currentAllocations.get(pod))) {
        allocationChanges.put(pod, node);
      }
    });
    currentAllocations.keySet().stream().filter(pod -> !decision.allocations().containsKey(pod))
        .forEach(pod -> allocationChanges.put(pod, null));

    boolean victimsChanged = !recorded(status).equals(victims);
    boolean stateChanged = !state.equals(currentState);
    boolean reasonChanged = !Objects.equals(reason, currentReason);
    boolean messageChanged = !Objects.equals(message, currentMessage);
    boolean changed = stateChanged || reasonChanged || victimsChanged || !allocationChanges.isEmpty()
        || messageChanged || !sameSecond(waiting, currentWaiting);
    if (!changed) {
      return Optional.empty();
    }
    JsonObject schedulingPatch = new JsonObject();
    schedulingPatch.add("reason", text(reason));
    schedulingPatch.add("message", text(message));
    schedulingPatch.addProperty("lastCycleTime", now.toString());
    if (stateChanged || reasonChanged || (scheduling != null && scheduling.getLastTransitionTime() == null)) {
      schedulingPatch.addProperty("lastTransitionTime", now.toString());
    }
    schedulingPatch.add("waitingSince", waiting == null ? JsonNull.INSTANCE : text(waiting.toString()));
    JsonObject allocations = new JsonObject();
    allocationChanges.forEach((pod, node) -> allocations.add(pod, node == null ? JsonNull.INSTANCE : text((String) node)));
    JsonObject statusPatch = new JsonObject();
    statusPatch.addProperty("scheduleState", state);
    if (!allocations.isEmpty()) {
      statusPatch.add("allocations", allocations);
    }
    statusPatch.add("scheduling", schedulingPatch);
    if (victimsChanged) {
      statusPatch.add("victims", victims.isEmpty() ? JsonNull.INSTANCE : victimsJson(victims, podUids));
    }
    JsonObject patch = new JsonObject();
    JsonObject metadata = new JsonObject();
    // Guarded by the version the decision was made from: a concurrent write turns into a 409.
    metadata.addProperty("resourceVersion", resourceVersion);
    patch.add("metadata", metadata);
    patch.add("status", statusPatch);
    boolean newlyPlaced = currentAllocations.isEmpty() && !decision.allocations().isEmpty()
        && decision.state() != ScheduleState.UNSCHEDULED;
    return Optional.of(new ScheduleStatusChange(patch.toString(), reasonChanged && reason != null, newlyPlaced,
        decision, reason != null && (reasonChanged || messageChanged)));
  }

  /** The victims recorded in the job's status, in the core's terms. */
  public static List<Victim> recorded(V1alpha1TYJobStatus status) {
    if (status == null || status.getVictims() == null) {
      return List.of();
    }
    List<Victim> victims = new ArrayList<>();
    for (V1alpha1TYJobStatusVictims victim : status.getVictims()) {
      victims.add(new Victim(victim.getNamespace(), victim.getJob(),
          victim.getPods() == null ? List.of() : victim.getPods(), Boolean.TRUE.equals(victim.getWholeJob()),
          victim.getReason(), causeOf(victim)));
    }
    return victims;
  }

  /** A victim entry written before the cause was recorded was preempted or reclaimed as its text says. */
  private static ReasonCode causeOf(V1alpha1TYJobStatusVictims victim) {
    if (victim.getCause() != null) {
      return victim.getCause() == V1alpha1TYJobStatusVictims.CauseEnum.RECLAIMED ? ReasonCode.RECLAIMED : ReasonCode.PREEMPTED;
    }
    return victim.getReason() != null && victim.getReason().startsWith("reclaimed") ? ReasonCode.RECLAIMED : ReasonCode.PREEMPTED;
  }

  private static JsonArray victimsJson(List<Victim> victims, PodUids podUids) {
    JsonArray array = new JsonArray();
    for (Victim victim : victims) {
      JsonObject item = new JsonObject();
      item.addProperty("namespace", victim.namespace());
      item.addProperty("job", victim.job());
      JsonArray pods = new JsonArray();
      JsonArray uids = new JsonArray();
      for (String pod : victim.pods()) {
        pods.add(pod);
        podUids.uid(victim.namespace(), pod).ifPresent(uids::add);
      }
      item.add("pods", pods);
      item.add("podUIDs", uids);
      item.addProperty("wholeJob", victim.wholeJob());
      item.addProperty("reason", victim.reason());
      item.addProperty("cause", victim.cause().statusValue());
      array.add(item);
    }
    return array;
  }

  private static boolean sameSecond(Instant a, Instant b) {
    return a == null ? b == null : b != null && a.getEpochSecond() == b.getEpochSecond();
  }

  private static com.google.gson.JsonElement text(String value) {
    return value == null ? JsonNull.INSTANCE : new com.google.gson.JsonPrimitive(value);
  }
}
