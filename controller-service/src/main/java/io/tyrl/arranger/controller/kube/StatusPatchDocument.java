package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.status.Allocations;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import io.tyrl.arranger.crd.contract.status.SchedulingStatus;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.crd.read.PlainJson;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON merge patch a plan sends to {@code /status}.
 *
 * <p>It touches only what the controller owns: its status fields, every one written so that a value
 * the plan no longer has is cleared (JSON {@code null} removes a key in a merge patch), and single
 * keys of the scheduler's {@code allocations} set to {@code null} to give a placement back. {@code
 * metadata.resourceVersion} makes the API server refuse the patch with 409 if the job changed since
 * the plan was made, so a plan from stale state is never written.
 *
 * <p>Inside arrays (conditions, workerSets) absent values are left out rather than sent as null: a
 * merge patch replaces an array whole, and the CRD's schema would refuse a null string.
 */
public final class StatusPatchDocument {

  private StatusPatchDocument() {}

  public static String of(
      String resourceVersion, List<String> releasedAllocations, Optional<ControllerStatus> status) {
    return of(resourceVersion, releasedAllocations, status, Optional.empty());
  }

  /**
   * @param refusal the reason and message of a job the controller refuses, written as {@code
   *     status.scheduling.reason} and {@code .message} (which the scheduler no longer writes once
   *     the job has ended)
   */
  public static String of(
      String resourceVersion,
      List<String> releasedAllocations,
      Optional<ControllerStatus> status,
      Optional<PlannedAction.ReportRefusal> refusal) {
    JsonObject statusJson = new JsonObject();
    refusal.ifPresent(
        refused ->
            statusJson.add(
                StatusFields.SCHEDULING,
                PlainJson.toJson(
                    SchedulingStatus.refusalPatch(refused.reason(), refused.message()))));
    if (!releasedAllocations.isEmpty()) {
      Map<String, String> released = new LinkedHashMap<>();
      releasedAllocations.forEach(pod -> released.put(pod, null));
      statusJson.add(StatusFields.ALLOCATIONS, PlainJson.toJson(Allocations.patch(released)));
    }
    status.ifPresent(controllerStatus -> writeControllerStatus(controllerStatus, statusJson));
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    patch.add("status", statusJson);
    return patch.toString();
  }

  private static void writeControllerStatus(ControllerStatus status, JsonObject json) {
    json.addProperty(StatusFields.STAGE, status.stage().wireName());
    JsonArray conditions = new JsonArray();
    status.conditions().forEach(condition -> conditions.add(condition(condition)));
    json.add("conditions", conditions);
    json.add("leader", leader(status.leader()));
    JsonArray workerSets = new JsonArray();
    status.workerSets().forEach(summary -> workerSets.add(workerSet(summary)));
    json.add("workerSets", workerSets);
    json.addProperty("readyWorkers", status.readyWorkers());
    json.addProperty("workers", status.workersReadyOfDesired());
    json.addProperty("allocatedNodes", status.allocatedNodes());
    json.add(
        StatusFields.AVOID_NODES,
        PlainJson.toJson(AvoidedNodeEntry.encodeAll(status.avoidNodes())));
    putOrNull(json, "startTime", status.startTime().map(Instant::toString));
    putOrNull(json, "completionTime", status.completionTime().map(Instant::toString));
    json.addProperty("observedGeneration", status.observedGeneration());
    json.add(
        "eviction",
        status
            .eviction()
            .<JsonElement>map(StatusPatchDocument::eviction)
            .orElse(JsonNull.INSTANCE));
  }

  /** {@code status.eviction}, as the plan keeps it or as the victim evictor writes it. */
  public static JsonObject eviction(EvictionNotice notice) {
    JsonObject json = new JsonObject();
    json.addProperty("reason", notice.reason());
    json.addProperty("message", notice.message());
    JsonArray pods = new JsonArray();
    notice.pods().forEach(pods::add);
    json.add("pods", pods);
    return json;
  }

  private static JsonObject condition(Condition condition) {
    JsonObject json = new JsonObject();
    json.addProperty("type", condition.type());
    json.addProperty("status", condition.status().wireName());
    json.addProperty("reason", condition.reason());
    json.addProperty("message", condition.message());
    condition
        .lastTransitionTime()
        .ifPresent(time -> json.addProperty("lastTransitionTime", time.toString()));
    return json;
  }

  private static JsonObject leader(LeaderSummary leader) {
    JsonObject json = new JsonObject();
    putOrNull(json, "pod", leader.pod());
    putOrNull(json, "node", leader.node());
    putOrNull(json, "address", leader.address());
    // An absent phase must be stored as absent: the planner reads it as "the leader was never
    // seen".
    putOrNull(json, "phase", leader.phase().map(phase -> phase.wireName()));
    json.addProperty("restarts", leader.restarts());
    return json;
  }

  private static JsonObject workerSet(WorkerSetSummary summary) {
    JsonObject json = new JsonObject();
    json.addProperty("name", summary.name());
    json.addProperty("desired", summary.desired());
    json.addProperty("created", summary.created());
    json.addProperty("ready", summary.ready());
    json.addProperty("restarts", summary.restarts());
    return json;
  }

  private static void putOrNull(JsonObject json, String member, Optional<String> value) {
    if (value.isPresent()) {
      json.addProperty(member, value.get());
    } else {
      json.add(member, JsonNull.INSTANCE);
    }
  }
}
