package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.observe.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.LeaderSpecView;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.crd.contract.status.Allocations;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import io.tyrl.arranger.crd.contract.status.SchedulingStatus;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.crd.contract.status.VictimEntry;
import io.tyrl.arranger.crd.read.PlainJson;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a TYJob as stored (raw JSON) into a {@link JobSnapshot}.
 *
 * <p>Pod templates and volumes are read by the {@link TYJobDecoder} the scheduler reads TYJobs with,
 * one by one: a template the model refuses is handed to validation as
 * {@link PodTemplateView#unreadable()}, naming the refused field as the scheduler does, so that one
 * malformed job fails validation instead of failing the read. The scalars of the spec are read as
 * stored instead of through the model, which cannot hold what validation must see: a count beyond an
 * {@code int} (kube-apiserver 1.20 ignores {@code format: int32}) or a value of the wrong type.
 * The parts of the status the scheduler writes are decoded by the contract's status codec.
 */
public final class JobViewMapper {

  private final TYJobDecoder decoder = new TYJobDecoder(JSON.getGson());

  public JobSnapshot map(JsonObject job) {
    JsonObject metadata = RawJson.objectOrEmpty(job, "metadata");
    JsonObject spec = RawJson.objectOrEmpty(job, "spec");
    JsonObject status = RawJson.objectOrEmpty(job, "status");
    String name = RawJson.string(metadata, "name").orElse("");

    JsonObject leader = RawJson.objectOrEmpty(spec, "leader");
    DecodedTemplate leaderTemplate = decodeTemplate(leader.get("template"));
    List<WorkerSetSpecView> workerSets = new ArrayList<>();
    Map<String, V1PodTemplateSpec> workerTemplates = new LinkedHashMap<>();
    for (JsonObject workerSet : RawJson.objects(spec, "workerSets")) {
      String setName = RawJson.string(workerSet, "name").orElse("");
      DecodedTemplate template = decodeTemplate(workerSet.get("template"));
      template.template().ifPresent(decoded -> workerTemplates.putIfAbsent(setName, decoded));
      // As a long: the API server may have stored any integer here (1.20 ignores format: int32),
      // and validation must see it as it is, not wrapped or replaced by the default.
      workerSets.add(new WorkerSetSpecView(setName, RawJson.longOr(workerSet, "counts", TYJobDefaults.WORKER_SET_COUNTS), template.view()));
    }
    DecodedVolumes volumes = decodeVolumes(spec.get("volumes"));

    JobSpecView specView = new JobSpecView(
        new LeaderSpecView(RawJson.string(leader, "name").orElse(""), leaderTemplate.view()),
        workerSets,
        RawJson.longOr(spec, "restartLimit", TYJobDefaults.RESTART_LIMIT),
        RawJson.longOr(spec, "minWorkersNum", TYJobDefaults.MIN_WORKERS_NUM),
        RawJson.string(spec, "cleanPodPolicy").orElse(""),
        RawJson.booleanOr(spec, "terminating", false),
        unplanned(spec));
    JobView view = new JobView(
        RawJson.string(metadata, "namespace").orElse(""),
        name,
        RawJson.number(metadata, "generation").orElse(0L),
        withVolumeProblem(specView, volumes),
        schedulerStatus(status),
        controllerStatus(status));
    return new JobSnapshot(
        view.namespace(),
        name,
        RawJson.string(metadata, "uid").orElse(""),
        RawJson.string(metadata, "resourceVersion").orElse(""),
        RawJson.string(metadata, "creationTimestamp").flatMap(JobViewMapper::instant),
        view,
        leaderTemplate.template(),
        workerTemplates,
        volumes.volumes(),
        victims(status));
  }

  /**
   * Volumes are not part of the planner's view; one that cannot be read makes every pod of the job
   * impossible to build, so it is reported through the leader template, whose pods need it too.
   */
  private static JobSpecView withVolumeProblem(JobSpecView spec, DecodedVolumes volumes) {
    if (volumes.problem().isEmpty()) {
      return spec;
    }
    PodTemplateView template = spec.leader().template();
    PodTemplateView flagged = new PodTemplateView(template.containers(), template.initContainers(),
        Optional.of("cannot be combined with spec.volumes: " + volumes.problem().get()));
    return spec.withLeader(new LeaderSpecView(spec.leader().name(), flagged));
  }

  /** The fields only validated: the scheduler's, and the volume names. */
  private static UnplannedSpecView unplanned(JsonObject spec) {
    JsonObject gang = RawJson.objectOrEmpty(spec, "gang");
    List<String> volumeNames = RawJson.objects(spec, "volumes").stream()
        .map(volume -> RawJson.string(volume, "name").orElse(null))
        .toList();
    return new UnplannedSpecView(
        RawJson.number(spec, "priority").orElse(null),
        RawJson.string(spec, "queue").orElse(null),
        RawJson.string(gang, "waitTime").orElse(null),
        RawJson.string(gang, "group").orElse(null),
        volumeNames);
  }

  private record DecodedTemplate(PodTemplateView view, Optional<V1PodTemplateSpec> template) {}

  private record DecodedVolumes(List<V1Volume> volumes, Optional<String> problem) {}

  /** An absent template reads as an empty one, which validation reports as having no containers. */
  private DecodedTemplate decodeTemplate(JsonElement raw) {
    JsonObject template = raw != null && raw.isJsonObject() ? raw.getAsJsonObject() : new JsonObject();
    JsonObject podSpec = RawJson.objectOrEmpty(template, "spec");
    List<ContainerView> containers = containers(podSpec, "containers");
    List<ContainerView> initContainers = containers(podSpec, "initContainers");
    TYJobDecoder.Template decoded = decoder.template(template);
    // However the model refuses it (a field pods do not have, a quantity, a date), no pod can be built from it.
    Optional<String> problem = decoded.refusal().map(refusal -> "is not a valid pod template: " + refusal);
    return new DecodedTemplate(new PodTemplateView(containers, initContainers, problem), decoded.template());
  }

  private DecodedVolumes decodeVolumes(JsonElement raw) {
    TYJobDecoder.Volumes decoded = decoder.volumes(raw);
    return new DecodedVolumes(decoded.volumes(), decoded.refusal()
        .map(refusal -> refusal.path() + " is not a valid volume: " + refusal.complaint()));
  }

  private static List<ContainerView> containers(JsonObject podSpec, String member) {
    return RawJson.objects(podSpec, member).stream()
        .map(container -> {
          JsonObject resources = RawJson.objectOrEmpty(container, "resources");
          return new ContainerView(RawJson.string(container, "name").orElse(""),
              RawJson.textMap(resources, "requests"), RawJson.textMap(resources, "limits"));
        })
        .toList();
  }

  private static SchedulerStatusView schedulerStatus(JsonObject status) {
    SchedulingStatus scheduling = SchedulingStatus.decode(PlainJson.toPlain(status.get(StatusFields.SCHEDULING)));
    return new SchedulerStatusView(
        ScheduleState.fromWireNameOrUnscheduled(RawJson.string(status, StatusFields.SCHEDULE_STATE).orElse(null)),
        Allocations.decode(PlainJson.toPlain(status.get(StatusFields.ALLOCATIONS))),
        scheduling.reason(),
        scheduling.message());
  }

  private static ControllerStatus controllerStatus(JsonObject status) {
    List<Condition> conditions = RawJson.objects(status, "conditions").stream()
        .map(condition -> new Condition(
            RawJson.string(condition, "type").orElse(""),
            ConditionStatus.fromWireNameOrUnknown(RawJson.string(condition, "status").orElse(null)),
            RawJson.string(condition, "reason").orElse(""),
            RawJson.string(condition, "message").orElse(""),
            RawJson.string(condition, "lastTransitionTime").flatMap(JobViewMapper::instant)))
        .toList();
    JsonObject leader = RawJson.objectOrEmpty(status, "leader");
    LeaderSummary leaderSummary = new LeaderSummary(
        RawJson.string(leader, "pod"),
        RawJson.string(leader, "node"),
        RawJson.string(leader, "address"),
        RawJson.string(leader, "phase").flatMap(PodPhase::fromWireName),
        RawJson.intOr(leader, "restarts", 0));
    List<WorkerSetSummary> workerSets = RawJson.objects(status, "workerSets").stream()
        .map(set -> new WorkerSetSummary(
            RawJson.string(set, "name").orElse(""),
            RawJson.intOr(set, "desired", 0),
            RawJson.intOr(set, "created", 0),
            RawJson.intOr(set, "ready", 0),
            RawJson.intOr(set, "restarts", 0)))
        .toList();
    return new ControllerStatus(
        Stage.fromWireNameOrPending(RawJson.string(status, StatusFields.STAGE).orElse(null)),
        conditions,
        leaderSummary,
        workerSets,
        RawJson.intOr(status, "readyWorkers", 0),
        RawJson.string(status, "startTime").flatMap(JobViewMapper::instant),
        RawJson.string(status, "completionTime").flatMap(JobViewMapper::instant),
        RawJson.number(status, "observedGeneration").orElse(0L),
        RawJson.object(status, "eviction").flatMap(JobViewMapper::eviction),
        RawJson.intOr(status, "allocatedNodes", 0),
        avoidedNodes(status));
  }

  private static List<AvoidedNodeEntry> avoidedNodes(JsonObject status) {
    return AvoidedNodeEntry.decodeAll(PlainJson.toPlain(status.get(StatusFields.AVOID_NODES)));
  }

  /** {@code status.eviction} as stored; empty when it has no reason. */
  static Optional<EvictionNotice> eviction(JsonObject eviction) {
    return RawJson.string(eviction, "reason")
        .map(reason -> new EvictionNotice(reason, RawJson.string(eviction, "message").orElse(""),
            RawJson.strings(eviction, "pods")));
  }

  private static List<VictimEntry> victims(JsonObject status) {
    return VictimEntry.decodeAll(PlainJson.toPlain(status.get(StatusFields.VICTIMS)));
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(Instant.parse(text));
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }
}
