package io.tyrl.arranger.controller.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.custom.Quantity;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.models.V1Container;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1PodSpec;
import io.kubernetes.client.openapi.models.V1PodTemplateSpec;
import io.kubernetes.client.openapi.models.V1ResourceRequirements;
import io.kubernetes.client.openapi.models.V1Volume;
import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.LeaderSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.UnreadableField;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.status.Condition;
import io.tyrl.arranger.controller.lifecycle.status.ConditionStatus;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.TYJobDefaults;
import io.tyrl.arranger.crd.contract.status.Allocations;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import io.tyrl.arranger.crd.contract.status.GpuDeviceSeats;
import io.tyrl.arranger.crd.contract.status.SchedulingStatus;
import io.tyrl.arranger.crd.contract.status.StatusFields;
import io.tyrl.arranger.crd.contract.status.VictimEntry;
import io.tyrl.arranger.crd.read.PlainJson;
import io.tyrl.arranger.crd.read.TYJobDecoder;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobSpec;
import io.tyrl.arranger.model.V1alpha1TYJobSpecGang;
import io.tyrl.arranger.model.V1alpha1TYJobSpecLeader;
import io.tyrl.arranger.model.V1alpha1TYJobSpecWorkerSets;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.model.V1alpha1TYJobStatusEviction;
import io.tyrl.arranger.model.V1alpha1TYJobStatusLeader;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a TYJob as stored (raw JSON) into a {@link JobSnapshot}, through the {@link TYJobDecoder}
 * the scheduler reads TYJobs with. A spec with a value the model cannot hold (a count beyond int32,
 * {@code "three"} for a number, a template pods cannot be made from) is handed to validation as
 * {@link JobSpecView#unreadable}, naming the field by its path in the words the scheduler uses, so
 * that one malformed job fails validation instead of failing the read; values the model holds are
 * checked against the bounds by validation. The parts of the status the scheduler writes, and the
 * avoided nodes, are decoded by the contract's status codec.
 */
public final class JobViewMapper {

  private static final TYJobDecoder DECODER = new TYJobDecoder(JSON.getGson());

  public JobSnapshot map(JsonObject raw) {
    TYJobDecoder.Reading reading = DECODER.read(raw);
    V1alpha1TYJob job = reading.job();
    V1ObjectMeta metadata = Objects.requireNonNullElseGet(job.getMetadata(), V1ObjectMeta::new);
    V1alpha1TYJobStatus status =
        Objects.requireNonNullElseGet(job.getStatus(), V1alpha1TYJobStatus::new);
    JsonObject storedStatus =
        Objects.requireNonNullElseGet(TYJobDecoder.object(raw, "status"), JsonObject::new);

    Optional<V1PodTemplateSpec> leaderTemplate = Optional.empty();
    Map<String, V1PodTemplateSpec> workerTemplates = new LinkedHashMap<>();
    List<V1Volume> volumes = List.of();
    JobSpecView spec;
    if (reading.refusal().isPresent()) {
      TYJobDecoder.Refusal refusal = reading.refusal().get();
      spec = JobSpecView.unreadable(new UnreadableField(refusal.path(), refusal.complaint()));
    } else {
      V1alpha1TYJobSpec read = job.getSpec();
      V1alpha1TYJobSpecLeader leader =
          Objects.requireNonNullElseGet(read.getLeader(), V1alpha1TYJobSpecLeader::new);
      leaderTemplate = Optional.ofNullable(leader.getTemplate());
      List<WorkerSetSpecView> workerSets = new ArrayList<>();
      for (V1alpha1TYJobSpecWorkerSets set : listOrEmpty(read.getWorkerSets())) {
        V1alpha1TYJobSpecWorkerSets workerSet =
            Objects.requireNonNullElseGet(set, V1alpha1TYJobSpecWorkerSets::new);
        String name = Objects.requireNonNullElse(workerSet.getName(), "");
        if (workerSet.getTemplate() != null) {
          workerTemplates.putIfAbsent(name, workerSet.getTemplate());
        }
        workerSets.add(
            new WorkerSetSpecView(
                name,
                orDefault(workerSet.getCounts(), TYJobDefaults.WORKER_SET_COUNTS),
                templateView(workerSet.getTemplate())));
      }
      volumes = listOrEmpty(read.getVolumes()).stream().filter(Objects::nonNull).toList();
      spec =
          new JobSpecView(
              new LeaderSpecView(leader.getName(), templateView(leader.getTemplate())),
              workerSets,
              orDefault(read.getRestartLimit(), TYJobDefaults.RESTART_LIMIT),
              orDefault(read.getMinWorkersNum(), TYJobDefaults.MIN_WORKERS_NUM),
              read.getCleanPodPolicy() == null ? "" : read.getCleanPodPolicy().getValue(),
              Objects.requireNonNullElse(read.getTerminating(), TYJobDefaults.TERMINATING),
              unplanned(read));
    }
    JobView view =
        new JobView(
            metadata.getNamespace(),
            metadata.getName(),
            Objects.requireNonNullElse(metadata.getGeneration(), 0L),
            spec,
            schedulerStatus(status, storedStatus),
            controllerStatus(status, storedStatus));
    return new JobSnapshot(
        view.namespace(),
        view.name(),
        Objects.requireNonNullElse(metadata.getUid(), ""),
        Objects.requireNonNullElse(metadata.getResourceVersion(), ""),
        instant(metadata.getCreationTimestamp()),
        view,
        leaderTemplate,
        workerTemplates,
        volumes,
        VictimEntry.decodeAll(PlainJson.toPlain(storedStatus.get(StatusFields.VICTIMS))),
        GpuDeviceSeats.decode(PlainJson.toPlain(storedStatus.get(StatusFields.GPU_DEVICES))));
  }

  /**
   * {@code status.eviction} as written by {@link StatusPatchDocument#eviction}; empty when it has
   * no reason.
   */
  static Optional<EvictionNotice> eviction(JsonObject note) {
    JsonObject status = new JsonObject();
    status.add("eviction", note);
    return Optional.ofNullable(DECODER.status(status))
        .flatMap(read -> eviction(read.getEviction()));
  }

  private static Optional<EvictionNotice> eviction(V1alpha1TYJobStatusEviction eviction) {
    if (eviction == null || eviction.getReason() == null) {
      return Optional.empty();
    }
    return Optional.of(
        new EvictionNotice(
            eviction.getReason().getValue(),
            eviction.getMessage(),
            listOrEmpty(eviction.getPods()).stream().filter(Objects::nonNull).toList()));
  }

  /** The fields only validated: the scheduler's, and the volume names. */
  private static UnplannedSpecView unplanned(V1alpha1TYJobSpec spec) {
    V1alpha1TYJobSpecGang gang =
        Objects.requireNonNullElseGet(spec.getGang(), V1alpha1TYJobSpecGang::new);
    List<String> volumeNames =
        listOrEmpty(spec.getVolumes()).stream()
            .map(volume -> volume == null ? null : volume.getName())
            .toList();
    return new UnplannedSpecView(
        spec.getPriority() == null ? null : spec.getPriority().longValue(),
        spec.getQueue(),
        gang.getWaitTime(),
        gang.getGroup(),
        volumeNames);
  }

  /** An absent template reads as an empty one, which validation reports as having no containers. */
  private static PodTemplateView templateView(V1PodTemplateSpec template) {
    V1PodSpec podSpec =
        template == null || template.getSpec() == null ? new V1PodSpec() : template.getSpec();
    return new PodTemplateView(
        containers(podSpec.getContainers()), containers(podSpec.getInitContainers()));
  }

  private static List<ContainerView> containers(List<V1Container> containers) {
    return listOrEmpty(containers).stream()
        .filter(Objects::nonNull)
        .map(
            container -> {
              V1ResourceRequirements resources = container.getResources();
              return new ContainerView(
                  container.getName(),
                  quantities(resources == null ? null : resources.getRequests()),
                  quantities(resources == null ? null : resources.getLimits()));
            })
        .toList();
  }

  /** Quantities as text, as validation reads them; the model has parsed each already. */
  private static Map<String, String> quantities(Map<String, Quantity> quantities) {
    Map<String, String> text = new LinkedHashMap<>();
    if (quantities != null) {
      quantities.forEach(
          (resource, quantity) -> {
            if (quantity != null) {
              text.put(resource, quantity.toSuffixedString());
            }
          });
    }
    return text;
  }

  private static SchedulerStatusView schedulerStatus(
      V1alpha1TYJobStatus status, JsonObject stored) {
    SchedulingStatus scheduling =
        SchedulingStatus.decode(PlainJson.toPlain(stored.get(StatusFields.SCHEDULING)));
    return new SchedulerStatusView(
        ScheduleState.fromWireNameOrUnscheduled(
            status.getScheduleState() == null ? null : status.getScheduleState().getValue()),
        Allocations.decode(PlainJson.toPlain(stored.get(StatusFields.ALLOCATIONS))),
        scheduling.reason(),
        scheduling.message());
  }

  private static ControllerStatus controllerStatus(V1alpha1TYJobStatus status, JsonObject stored) {
    List<Condition> conditions =
        listOrEmpty(status.getConditions()).stream()
            .filter(Objects::nonNull)
            .map(
                condition ->
                    new Condition(
                        Objects.requireNonNullElse(condition.getType(), ""),
                        ConditionStatus.fromWireNameOrUnknown(
                            condition.getStatus() == null
                                ? null
                                : condition.getStatus().getValue()),
                        Objects.requireNonNullElse(condition.getReason(), ""),
                        Objects.requireNonNullElse(condition.getMessage(), ""),
                        instant(condition.getLastTransitionTime())))
            .toList();
    V1alpha1TYJobStatusLeader leader =
        Objects.requireNonNullElseGet(status.getLeader(), V1alpha1TYJobStatusLeader::new);
    LeaderSummary leaderSummary =
        new LeaderSummary(
            Optional.ofNullable(leader.getPod()),
            Optional.ofNullable(leader.getNode()),
            Optional.ofNullable(leader.getAddress()),
            Optional.ofNullable(leader.getPhase()).flatMap(PodPhase::fromWireName),
            Objects.requireNonNullElse(leader.getRestarts(), 0));
    List<WorkerSetSummary> workerSets =
        listOrEmpty(status.getWorkerSets()).stream()
            .filter(Objects::nonNull)
            .map(
                set ->
                    new WorkerSetSummary(
                        Objects.requireNonNullElse(set.getName(), ""),
                        Objects.requireNonNullElse(set.getDesired(), 0),
                        Objects.requireNonNullElse(set.getCreated(), 0),
                        Objects.requireNonNullElse(set.getReady(), 0),
                        Objects.requireNonNullElse(set.getRestarts(), 0)))
            .toList();
    return new ControllerStatus(
        Stage.fromWireNameOrPending(
            status.getStage() == null ? null : status.getStage().getValue()),
        conditions,
        leaderSummary,
        workerSets,
        Objects.requireNonNullElse(status.getReadyWorkers(), 0),
        instant(status.getStartTime()),
        instant(status.getCompletionTime()),
        Objects.requireNonNullElse(status.getObservedGeneration(), 0L),
        eviction(status.getEviction()),
        Objects.requireNonNullElse(status.getAllocatedNodes(), 0),
        AvoidedNodeEntry.decodeAll(PlainJson.toPlain(stored.get(StatusFields.AVOID_NODES))));
  }

  private static long orDefault(Integer value, int fallback) {
    return value == null ? fallback : value;
  }

  private static <T> List<T> listOrEmpty(List<T> list) {
    return list == null ? List.of() : list;
  }

  private static Optional<Instant> instant(OffsetDateTime time) {
    return Optional.ofNullable(time).map(OffsetDateTime::toInstant);
  }
}
