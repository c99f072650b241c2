package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.controller.lifecycle.observe.ContainerView;
import io.tyrl.arranger.controller.lifecycle.observe.JobSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.LeaderSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.PodNaming;
import io.tyrl.arranger.controller.lifecycle.observe.PodTemplateView;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.observe.UnplannedSpecView;
import io.tyrl.arranger.controller.lifecycle.observe.WorkerSetSpecView;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.EvictionNotice;
import io.tyrl.arranger.controller.lifecycle.status.LeaderSummary;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.controller.lifecycle.status.WorkerSetSummary;
import io.tyrl.arranger.crd.contract.PodNames;
import io.tyrl.arranger.crd.contract.ScheduleState;
import io.tyrl.arranger.crd.contract.Stage;
import io.tyrl.arranger.crd.contract.status.AvoidedNodeEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Fluent builder of {@link JobView}s for tests. Defaults: job {@code train}, leader {@code
 * learner}, one WorkerSet {@code actor} of 2, restartLimit 3, minWorkersNum 1, cleanPodPolicy All,
 * Pending, Unscheduled. Pod names follow: {@code train-learner}, {@code train-actor-0}, ...
 */
public final class JobFixture {

  public static final Instant EARLIER = Instant.parse("2026-01-01T00:00:00Z");

  private String name = "train";
  private long generation = 1;
  private String leaderName = "learner";
  private PodTemplateView leaderTemplate = template();
  private final List<WorkerSetSpecView> workerSets = new ArrayList<>();
  private long restartLimit = 3;
  private long minWorkersNum = 1;
  private UnplannedSpecView unplanned = UnplannedSpecView.none();
  private String cleanPodPolicy = "All";
  private boolean terminating;
  private Stage stage = Stage.PENDING;
  private ScheduleState scheduleState = ScheduleState.UNSCHEDULED;
  private final Map<String, String> allocations = new LinkedHashMap<>();
  private Optional<String> schedulingReason = Optional.empty();
  private Optional<String> schedulingMessage = Optional.empty();
  private int leaderRestarts;
  private final Map<String, Integer> workerSetRestarts = new LinkedHashMap<>();
  private Optional<PodPhase> leaderObserved = Optional.empty();
  private Optional<Instant> startTime = Optional.empty();
  private Optional<Instant> completionTime = Optional.empty();
  private Optional<EvictionNotice> eviction = Optional.empty();
  private List<AvoidedNodeEntry> avoidNodes = List.of();

  public static JobFixture job() {
    return new JobFixture();
  }

  public static PodTemplateView template() {
    return PodTemplateView.of(
        new ContainerView("main", Map.of("cpu", "1", "memory", "1Gi"), Map.of("memory", "2Gi")));
  }

  public JobFixture named(String jobName) {
    this.name = jobName;
    return this;
  }

  public JobFixture generation(long value) {
    this.generation = value;
    return this;
  }

  public JobFixture leader(String value) {
    this.leaderName = value;
    return this;
  }

  public JobFixture leaderTemplate(PodTemplateView value) {
    this.leaderTemplate = value;
    return this;
  }

  public JobFixture workerSet(String workerSetName, long counts) {
    return workerSet(new WorkerSetSpecView(workerSetName, counts, template()));
  }

  public JobFixture workerSet(WorkerSetSpecView workerSet) {
    workerSets.add(workerSet);
    return this;
  }

  /** The fields the lifecycle only validates: priority, queue, gang, volume names. */
  public JobFixture unplanned(UnplannedSpecView value) {
    this.unplanned = value;
    return this;
  }

  public JobFixture restartLimit(long value) {
    this.restartLimit = value;
    return this;
  }

  public JobFixture minWorkers(long value) {
    this.minWorkersNum = value;
    return this;
  }

  public JobFixture cleanPodPolicy(String value) {
    this.cleanPodPolicy = value;
    return this;
  }

  public JobFixture terminating() {
    this.terminating = true;
    return this;
  }

  public JobFixture stage(Stage value) {
    this.stage = value;
    return this;
  }

  public JobFixture scheduled(ScheduleState value) {
    this.scheduleState = value;
    return this;
  }

  public JobFixture schedulingReason(String reason, String message) {
    this.schedulingReason = Optional.of(reason);
    this.schedulingMessage = Optional.of(message);
    return this;
  }

  public JobFixture allocate(String podName, String node) {
    allocations.put(podName, node);
    return this;
  }

  /** Allocates the leader and every worker of the spec built so far, all on {@code node}. */
  public JobFixture allocateAll(String node) {
    JobView view = build();
    allocate(PodNames.leader(name, leaderName), node);
    PodNaming.workerSlots(name, view.spec()).forEach(slot -> allocate(slot.podName(), node));
    return this;
  }

  public JobFixture leaderRestarts(int value) {
    this.leaderRestarts = value;
    return this;
  }

  public JobFixture workerSetRestarts(String workerSetName, int value) {
    workerSetRestarts.put(workerSetName, value);
    return this;
  }

  /** The last written status saw the leader pod in {@code phase}. */
  public JobFixture leaderObserved(PodPhase phase) {
    this.leaderObserved = Optional.of(phase);
    return this;
  }

  public JobFixture started(Instant value) {
    this.startTime = Optional.of(value);
    return this;
  }

  /** {@code status.eviction}: these pods are being evicted for another job. */
  public JobFixture evicted(String reason, String message, String... pods) {
    this.eviction = Optional.of(new EvictionNotice(reason, message, List.of(pods)));
    return this;
  }

  /** {@code status.avoidNodes} as last written. */
  public JobFixture avoiding(AvoidedNodeEntry... nodes) {
    this.avoidNodes = List.of(nodes);
    return this;
  }

  public JobFixture completed(Instant value) {
    this.completionTime = Optional.of(value);
    return this;
  }

  public JobView build() {
    List<WorkerSetSpecView> sets =
        workerSets.isEmpty() ? List.of(new WorkerSetSpecView("actor", 2, template())) : workerSets;
    JobSpecView spec =
        new JobSpecView(
            new LeaderSpecView(leaderName, leaderTemplate),
            sets,
            restartLimit,
            minWorkersNum,
            cleanPodPolicy,
            terminating,
            unplanned);
    List<WorkerSetSummary> summaries = new ArrayList<>();
    workerSetRestarts.forEach(
        (set, restarts) -> summaries.add(new WorkerSetSummary(set, 0, 0, 0, restarts)));
    ControllerStatus status =
        new ControllerStatus(
            stage,
            List.of(),
            new LeaderSummary(
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                leaderObserved,
                leaderRestarts),
            summaries,
            0,
            startTime,
            completionTime,
            generation,
            eviction,
            0,
            avoidNodes);
    return new JobView(
        "ns",
        name,
        generation,
        spec,
        new SchedulerStatusView(scheduleState, allocations, schedulingReason, schedulingMessage),
        status);
  }
}
