package io.tyrl.arranger.controller.lifecycle;

import io.tyrl.arranger.controller.lifecycle.observe.JobView;
import io.tyrl.arranger.controller.lifecycle.observe.PodView;
import io.tyrl.arranger.controller.lifecycle.observe.SchedulerStatusView;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.controller.lifecycle.status.ControllerStatus;
import io.tyrl.arranger.controller.lifecycle.status.PodPhase;
import io.tyrl.arranger.crd.contract.ScheduleState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * An in-memory stand-in for the API server, the scheduler and the kubelets, enough to apply plans
 * the way the adapter will: status (with released allocations) first, then deletes (which mark a
 * pod as being deleted), then creates (which refuse an existing name, like AlreadyExists).
 */
public final class FakeCluster {

  private JobView job;
  private final Map<String, PodView> pods = new LinkedHashMap<>();
  private final List<String> refusedCreates = new ArrayList<>();
  private final List<String> createdPods = new ArrayList<>();
  private final LifecyclePlanner planner = new LifecyclePlanner();
  private Instant now = PlanCase.NOW;

  public FakeCluster(JobView job) {
    this.job = job;
  }

  public JobView job() {
    return job;
  }

  Map<String, PodView> pods() {
    return pods;
  }

  List<String> createdPods() {
    return createdPods;
  }

  List<String> refusedCreates() {
    return refusedCreates;
  }

  /**
   * A job of a leader and two workers on the given placements, stepped until it is Running: the
   * leader created and run, then its workers created and run.
   */
  public static FakeCluster running(Map<String, String> allocations) {
    FakeCluster cluster = new FakeCluster(JobFixture.job().build());
    cluster.schedule(ScheduleState.SCHEDULED_SUCCEED, allocations);
    cluster.step();
    cluster.run("train-learner", "10.0.0.1");
    cluster.step();
    cluster.run("train-actor-0", "10.0.0.2");
    cluster.run("train-actor-1", "10.0.0.3");
    cluster.step();
    return cluster;
  }

  public Plan plan() {
    now = now.plusSeconds(1);
    return planner.plan(job, List.copyOf(pods.values()), now);
  }

  /** Plans and applies the plan fully. */
  public Plan step() {
    Plan plan = plan();
    applyStatus(plan);
    applyPods(plan);
    return plan;
  }

  /** Applies only the status write of a plan, as if every pod call afterwards had failed. */
  void applyStatus(Plan plan) {
    Map<String, String> allocations = new LinkedHashMap<>(job.scheduler().allocations());
    plan.releases().forEach(release -> allocations.remove(release.podName()));
    ControllerStatus status = plan.statusPatch().orElse(job.status());
    SchedulerStatusView scheduler =
        new SchedulerStatusView(
            job.scheduler().scheduleState(),
            allocations,
            job.scheduler().reason(),
            job.scheduler().message());
    job = new JobView(job.namespace(), job.name(), job.generation(), job.spec(), scheduler, status);
  }

  void applyPods(Plan plan) {
    for (PlannedAction.DeletePod delete : plan.deletes()) {
      pods.computeIfPresent(delete.podName(), (name, pod) -> markedForDeletion(pod));
    }
    for (PlannedAction.CreatePod create : plan.creates()) {
      if (pods.containsKey(create.podName())) {
        refusedCreates.add(create.podName());
      } else {
        createdPods.add(create.podName());
        pods.put(
            create.podName(),
            new PodView(
                create.podName(),
                PodPhase.PENDING,
                false,
                Optional.empty(),
                Optional.of(create.nodeName()),
                false,
                Optional.empty()));
      }
    }
  }

  public void schedule(ScheduleState state, Map<String, String> allocations) {
    Map<String, String> merged = new LinkedHashMap<>(job.scheduler().allocations());
    merged.putAll(allocations);
    job =
        new JobView(
            job.namespace(),
            job.name(),
            job.generation(),
            job.spec(),
            new SchedulerStatusView(state, merged, Optional.empty(), Optional.empty()),
            job.status());
  }

  /** The kubelet starts the pod: Running, Ready, with an IP. */
  public void run(String podName, String ip) {
    pods.computeIfPresent(
        podName,
        (name, pod) ->
            new PodView(
                name,
                PodPhase.RUNNING,
                true,
                Optional.of(ip),
                pod.nodeName(),
                pod.deleting(),
                Optional.empty()));
  }

  public void fail(String podName, String reason) {
    pods.computeIfPresent(
        podName,
        (name, pod) ->
            new PodView(
                name,
                PodPhase.FAILED,
                false,
                pod.podIp(),
                pod.nodeName(),
                pod.deleting(),
                Optional.of(reason)));
  }

  /** Pods marked for deletion disappear, as once their containers stopped. */
  void finishDeletions() {
    pods.values().removeIf(PodView::deleting);
  }

  private static PodView markedForDeletion(PodView pod) {
    return new PodView(
        pod.name(),
        pod.phase(),
        pod.ready(),
        pod.podIp(),
        pod.nodeName(),
        true,
        pod.statusReason());
  }
}
