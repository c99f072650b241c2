package io.tyrl.arranger.controller.kube;

import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.V1DeleteOptions;
import io.kubernetes.client.openapi.models.V1Pod;
import io.kubernetes.client.openapi.models.V1Preconditions;
import io.tyrl.arranger.controller.lifecycle.observe.ForeignPod;
import io.tyrl.arranger.controller.lifecycle.observe.PodRole;
import io.tyrl.arranger.controller.lifecycle.plan.Plan;
import io.tyrl.arranger.controller.lifecycle.plan.PlannedAction;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.LifecycleReasons;
import io.tyrl.arranger.kube.StatusPatchException;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies a {@link Plan} to the cluster in the order {@link PlannedAction} prescribes: one status
 * merge patch, then pod deletes, then pod creates, then events. It stops at the first failure and
 * throws, so the reconciler retries the job with backoff and plans it afresh.
 *
 * <p>One exception to the order ({@link Plan#createsLeaderFirst()}): the leader is created before
 * the status that announces it is written. A name held by a pod of another owner is then found by
 * the create's own 409, before the status says anything — without reading the pod on every leader
 * create. Should the status write fail after the create, the next plan finds the leader in the
 * cache and announces it then.
 *
 * <p>A plan's pods are created concurrently, at most {@code podCreators} across all jobs at once;
 * the plan waits for all of them, and the first failure is thrown once they have all answered. A
 * pod that shares a GPU is created only once its device's reservation is ready ({@link
 * GpuShareReservations}); until then it is left out, and the rest of the plan is applied.
 *
 * <p>Events are recorded once the status write has succeeded, even if a later delete or create
 * fails: they describe the transition the status now holds, and the next plan, which starts from
 * that status, will not announce it again.
 *
 * <p>Every write asks the {@link LeadershipFence} first: once this replica may no longer write as
 * leader, the rest of the plan is dropped (the next leader plans the job afresh).
 */
public final class PlanExecutor {

  /**
   * What became of a plan.
   *
   * @param newResourceVersion the job's resourceVersion after the status write; empty when the plan
   *     wrote no status
   * @param podsWaitForDevices some pods of the plan were not created because the GPU device they
   *     share is not ready yet (its reservation's change brings the job back)
   */
  public record Result(
      Outcome outcome, Optional<String> newResourceVersion, boolean podsWaitForDevices) {

    public Result(Outcome outcome, Optional<String> newResourceVersion) {
      this(outcome, newResourceVersion, false);
    }

    static Result of(Outcome outcome) {
      return new Result(outcome, Optional.empty());
    }
  }

  public enum Outcome {
    /** Every action was carried out. */
    APPLIED,
    /** The job changed since it was read (409 on the guarded status patch): nothing was applied. */
    CONFLICT,
    /** The job was deleted: nothing more to do. */
    JOB_GONE,
    /** This replica may no longer write as leader: the rest of the plan was not applied. */
    FENCED,
    /**
     * The leader to be created first shares a GPU device that is not ready yet: nothing was
     * applied.
     */
    LEADER_WAITS_FOR_DEVICE
  }

  private static final Logger log = LoggerFactory.getLogger(PlanExecutor.class);

  private final CoreV1Api core;
  private final StatusPatcher statusPatcher;
  private final PodFactory podFactory;
  private final JobEvents events;
  private final ControllerMetrics metrics;
  private final LeadershipFence fence;
  private final ForeignPods foreignPods;
  private final ExecutorService podCreators;
  private final PodExpectations expectations;
  private final GpuShareReservations reservations;

  public PlanExecutor(
      CoreV1Api core,
      StatusPatcher statusPatcher,
      PodFactory podFactory,
      JobEvents events,
      ControllerMetrics metrics,
      LeadershipFence fence,
      ForeignPods foreignPods,
      ExecutorService podCreators,
      PodExpectations expectations,
      GpuShareReservations reservations) {
    this.reservations = reservations;
    this.podCreators = podCreators;
    this.expectations = expectations;
    this.fence = fence;
    this.foreignPods = foreignPods;
    this.core = core;
    this.statusPatcher = statusPatcher;
    this.podFactory = podFactory;
    this.events = events;
    this.metrics = metrics;
  }

  /**
   * @param pods the job's pods as the plan saw them, by name: deletes are made conditional on their
   *     UIDs, so that a delete planned from a stale cache cannot hit a newer pod of the same name
   */
  public Result apply(JobSnapshot job, Map<String, V1Pod> pods, Plan plan) {
    Map<PlannedAction.CreatePod, GpuShareReservations.Device> devices = new HashMap<>();
    WaitingPods waitingPods = new WaitingPods();
    for (PlannedAction.CreatePod create : plan.creates()) {
      GpuShareReservations.Device device = reservations.deviceFor(job, create);
      if (device instanceof GpuShareReservations.Device.Waiting waiting) {
        waitingPods.add(create, waiting);
        log.debug(
            "pod {}/{} waits for GPU reservation {}: it {}",
            job.namespace(),
            create.podName(),
            waiting.reservation(),
            waiting.state());
        if (plan.createsLeaderFirst() && create.role() == PodRole.LEADER) {
          waitingPods.tell(job);
          return Result.of(Outcome.LEADER_WAITS_FOR_DEVICE);
        }
      } else {
        devices.put(create, device);
      }
    }
    boolean podsWait = !waitingPods.isEmpty();
    waitingPods.tell(job);
    List<String> releases =
        plan.releases().stream().map(PlannedAction.ReleaseAllocation::podName).toList();
    Optional<PlannedAction.CreatePod> leaderFirst =
        plan.createsLeaderFirst()
            ? plan.creates().stream().filter(create -> create.role() == PodRole.LEADER).findFirst()
            : Optional.empty();
    List<PlannedAction.CreatePod> creates =
        plan.creates().stream()
            .filter(create -> leaderFirst.map(leader -> leader != create).orElse(true))
            .filter(devices::containsKey)
            .toList();
    if (leaderFirst.isPresent()
        && !createIfLeading(job, leaderFirst.get(), devices.get(leaderFirst.get()))) {
      return Result.of(Outcome.FENCED);
    }
    Optional<String> newResourceVersion = Optional.empty();
    if (!releases.isEmpty() || plan.statusPatch().isPresent() || plan.refusal().isPresent()) {
      Result written = writeStatus(job, releases, plan);
      if (written.outcome() != Outcome.APPLIED) {
        return written;
      }
      newResourceVersion = written.newResourceVersion();
    }
    try {
      for (PlannedAction.DeletePod delete : plan.deletes()) {
        if (!deletePod(
            job.namespace(),
            delete.podName(),
            Optional.ofNullable(pods.get(delete.podName())),
            delete.why().name(),
            delete.force())) {
          return Result.of(Outcome.FENCED);
        }
      }
      if (!createAll(job, creates, devices)) {
        return Result.of(Outcome.FENCED);
      }
    } finally {
      for (PlannedAction.EmitEvent event : plan.events()) {
        events.record(job, event.type(), event.reason(), event.message());
      }
    }
    return new Result(Outcome.APPLIED, newResourceVersion, podsWait);
  }

  /**
   * The pods of one plan that wait for a GPU reservation, by reservation: one Event per reservation
   * that ended or has not started within the patience, naming its pods and what keeps it. The
   * message stays the same while the cause does, so repeats count on one Event.
   */
  private final class WaitingPods {
    /** The pods waiting on one reservation, and the node they were to run on. */
    private record OnReservation(
        GpuShareReservations.Device.Waiting waiting, String node, List<String> pods) {}

    private final Map<String, OnReservation> byReservation = new LinkedHashMap<>();

    void add(PlannedAction.CreatePod create, GpuShareReservations.Device.Waiting waiting) {
      byReservation
          .computeIfAbsent(
              waiting.reservation(),
              reservation -> new OnReservation(waiting, create.nodeName(), new ArrayList<>()))
          .pods()
          .add(create.podName());
    }

    boolean isEmpty() {
      return byReservation.isEmpty();
    }

    void tell(JobSnapshot job) {
      for (OnReservation group : byReservation.values()) {
        if (group.waiting().overdue(reservations.startPatience())) {
          events.record(
              job,
              EventType.WARNING,
              LifecycleReasons.GPU_RESERVATION_WAITING,
              GpuShareReservations.waitingMessage(group.pods(), group.node(), group.waiting()));
        }
      }
    }
  }

  private Result writeStatus(JobSnapshot job, List<String> releases, Plan plan) {
    String document =
        StatusPatchDocument.of(job.resourceVersion(), releases, plan.statusPatch(), plan.refusal());
    StatusPatcher.Target target =
        new StatusPatcher.Target(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.TYJOBS,
            job.namespace(),
            job.name());
    try {
      StatusPatcher.Result result = statusPatcher.patch(target, document);
      if (result instanceof StatusPatcher.Result.Patched patched) {
        return new Result(Outcome.APPLIED, Optional.ofNullable(patched.resourceVersion()));
      }
      if (result instanceof StatusPatcher.Result.Conflict) {
        log.debug("TYJob {} changed while it was being planned; planning again", job.key());
        return Result.of(Outcome.CONFLICT);
      }
      return Result.of(
          result instanceof StatusPatcher.Result.Gone ? Outcome.JOB_GONE : Outcome.FENCED);
    } catch (StatusPatchException e) {
      throw new PlanApplyException(
          "status patch of TYJob " + job.key() + " failed: " + e.getMessage(), e);
    }
  }

  /**
   * Deletes a pod; NotFound means it is already gone, and a UID mismatch that it was replaced: both
   * are done.
   *
   * @return false when nothing was sent because this replica may no longer write as leader
   */
  public boolean deletePod(String namespace, String name, Optional<V1Pod> seen, String reason) {
    return deletePod(namespace, name, seen, reason, false);
  }

  /**
   * @param force with {@code gracePeriodSeconds: 0}: gone at once, without waiting for its kubelet
   */
  public boolean deletePod(
      String namespace, String name, Optional<V1Pod> seen, String reason, boolean force) {
    if (!fence.mayWrite()) {
      log.debug(
          "pod {}/{} not deleted: this replica may no longer write as leader", namespace, name);
      return false;
    }
    V1DeleteOptions options = new V1DeleteOptions();
    seen.map(pod -> pod.getMetadata().getUid())
        .ifPresent(uid -> options.setPreconditions(new V1Preconditions().uid(uid)));
    if (force) {
      options.setGracePeriodSeconds(0L);
    }
    try {
      core.deleteNamespacedPod(name, namespace).body(options).execute();
      metrics.podDeleted(reason);
      log.info("{} pod {}/{} ({})", force ? "force-deleted" : "deleted", namespace, name, reason);
      return true;
    } catch (ApiException e) {
      if (e.getCode() == 404 || e.getCode() == 409) {
        log.debug("pod {}/{} was already gone (HTTP {})", namespace, name, e.getCode());
        return true;
      }
      throw new PlanApplyException(
          "cannot delete pod " + namespace + "/" + name + ": " + describe(e), e);
    }
  }

  /**
   * Creates the pods concurrently and waits for every answer.
   *
   * @return false when some were not sent because this replica may no longer write as leader
   */
  private boolean createAll(
      JobSnapshot job,
      List<PlannedAction.CreatePod> creates,
      Map<PlannedAction.CreatePod, GpuShareReservations.Device> devices) {
    if (creates.size() == 1) {
      return createIfLeading(job, creates.get(0), devices.get(creates.get(0)));
    }
    List<Future<Boolean>> answers = new ArrayList<>(creates.size());
    for (PlannedAction.CreatePod create : creates) {
      answers.add(podCreators.submit(() -> createIfLeading(job, create, devices.get(create))));
    }
    boolean allSent = true;
    RuntimeException first = null;
    for (Future<Boolean> answer : answers) {
      try {
        allSent &= answer.get();
      } catch (ExecutionException e) {
        RuntimeException failure =
            e.getCause() instanceof RuntimeException runtime
                ? runtime
                : new PlanApplyException(
                    "creating a pod of TYJob " + job.key() + " failed: " + e.getCause(),
                    e.getCause());
        if (first == null) {
          first = failure;
        } else {
          first.addSuppressed(failure);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        answers.forEach(pending -> pending.cancel(true));
        throw new PlanApplyException(
            "interrupted while creating the pods of TYJob " + job.key(), e);
      }
    }
    if (first != null) {
      throw first;
    }
    return allSent;
  }

  /**
   * @return false when nothing was sent because this replica may no longer write as leader
   */
  private boolean createIfLeading(
      JobSnapshot job, PlannedAction.CreatePod create, GpuShareReservations.Device device) {
    if (!fence.mayWrite()) {
      return false;
    }
    createPod(job, create, device);
    return true;
  }

  private void createPod(
      JobSnapshot job, PlannedAction.CreatePod create, GpuShareReservations.Device device) {
    V1Pod pod = podFactory.build(job, create, device);
    try {
      // The created pod comes back through the informer: its answer is not decoded here.
      core.getApiClient().execute(PodCreateCall.of(core.getApiClient(), job.namespace(), pod));
      expectations.created(job.key(), create.podName());
      metrics.podCreated(create.role());
      log.debug(
          "created pod {}/{} on node {}", job.namespace(), create.podName(), create.nodeName());
    } catch (ApiException e) {
      if (e.getCode() == 409) {
        // Ours (a create that got through before, its answer lost) is done; another owner's is
        // never
        // adopted: the next plan reports it and leaves the name alone until it is free.
        Optional<ForeignPod> foreign = foreignPods.check(job, create.podName());
        if (foreign.isEmpty()) {
          expectations.created(job.key(), create.podName());
          log.debug(
              "pod {}/{} already exists and is the job's own", job.namespace(), create.podName());
          return;
        }
        throw new PlanApplyException(
            "pod "
                + job.namespace()
                + "/"
                + create.podName()
                + " exists and is not TYJob "
                + job.key()
                + "'s ("
                + foreign.get().owner()
                + "); not adopted",
            e);
      }
      if (e.getCode() == 422 || e.getCode() == 400) {
        // The API server refuses the pod as built from the job's template: tell the user where it
        // shows.
        events.record(
            job,
            EventType.WARNING,
            LifecycleReasons.POD_CREATE_REFUSED,
            "the API server refused pod \"%s\": %s"
                .formatted(create.podName(), e.getResponseBody()));
      }
      throw new PlanApplyException(
          "cannot create pod " + job.namespace() + "/" + create.podName() + ": " + describe(e), e);
    }
  }

  private static String describe(ApiException e) {
    return e.getCode() == 0
        ? String.valueOf(e.getCause())
        : "HTTP " + e.getCode() + " " + e.getResponseBody();
  }
}
