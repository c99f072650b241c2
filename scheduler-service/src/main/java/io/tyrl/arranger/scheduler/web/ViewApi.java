package io.tyrl.arranger.scheduler.web;

import io.tyrl.arranger.scheduler.replay.CycleInput;
import io.tyrl.arranger.scheduler.replay.CycleInputJson;
import io.tyrl.arranger.scheduler.view.CycleView;
import io.tyrl.arranger.scheduler.view.EvictionView;
import io.tyrl.arranger.scheduler.view.LastCycle;
import io.tyrl.arranger.scheduler.view.NodeView;
import io.tyrl.arranger.scheduler.view.QueueView;
import io.tyrl.arranger.scheduler.view.WaitingJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.security.core.annotation.AuthenticationPrincipal;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The JSON API of the operator's window (and of anyone with a token: {@code Authorization:
 * Bearer}), all about the last cycle this replica ran. Every read is checked for the caller ({@link
 * ViewAccess}); what they may not see is left out or refused, never shown.
 */
@RestController
@RequestMapping("/api/v1")
class ViewApi {

  /** A waiting job as the pending-jobs API gives it: the view's, and how long it has waited. */
  record PendingJob(
      String namespace,
      String name,
      String queue,
      int position,
      String stage,
      String scheduleState,
      String reason,
      String message,
      Instant waitingSince,
      Long waitedSeconds) {

    static PendingJob of(WaitingJob job, Instant now) {
      return new PendingJob(
          job.namespace(),
          job.name(),
          job.queue(),
          job.position(),
          job.stage(),
          job.scheduleState(),
          job.reason(),
          job.message(),
          job.waitingSince(),
          job.waitingSince() == null
              ? null
              : Math.max(0, Duration.between(job.waitingSince(), now).toSeconds()));
    }
  }

  record PendingJobs(Instant cycle, String queue, String namespace, List<PendingJob> jobs) {}

  record Queues(Instant cycle, List<QueueView> queues) {}

  record Nodes(Instant cycle, List<NodeView> nodes) {}

  record Evictions(Instant cycle, List<EvictionView> evictions) {}

  private final LastCycle lastCycle;
  private final KubernetesReviews reviews;
  private final Clock clock;

  ViewApi(LastCycle lastCycle, KubernetesReviews reviews, Clock clock) {
    this.lastCycle = lastCycle;
    this.reviews = reviews;
    this.clock = clock;
  }

  /**
   * The waiting jobs the caller may see, queue by queue in service order, each with its position in
   * its queue among all the queue's waiting jobs (those of namespaces the caller may not see
   * included, as gaps).
   *
   * @param queue only this queue's jobs; it must exist
   * @param namespace only this namespace's jobs; the caller must be allowed to list its TYJobs
   */
  @GetMapping("/pending")
  PendingJobs pending(
      @AuthenticationPrincipal ViewUser user,
      @RequestParam(required = false) String queue,
      @RequestParam(required = false) String namespace) {
    CycleView view = lastCycle();
    ViewAccess access = new ViewAccess(reviews, user);
    if (namespace != null && !access.maySeeJobsOf(namespace)) {
      throw new ViewProblem(
          HttpStatus.FORBIDDEN, user.username() + " may not list tyjobs in namespace " + namespace);
    }
    if (queue != null && view.queues().stream().noneMatch(q -> q.name().equals(queue))) {
      throw new ViewProblem(
          HttpStatus.NOT_FOUND, "queue: no queue named " + queue + " in the last cycle");
    }
    Instant now = clock.instant();
    List<PendingJob> jobs =
        view.waiting().stream()
            .filter(job -> queue == null || queue.equals(job.queue()))
            .filter(job -> namespace == null || job.namespace().equals(namespace))
            .filter(job -> access.maySeeJobsOf(job.namespace()))
            .map(job -> PendingJob.of(job, now))
            .toList();
    return new PendingJobs(view.time(), queue, namespace, jobs);
  }

  @GetMapping("/queues")
  Queues queues(@AuthenticationPrincipal ViewUser user) {
    CycleView view = lastCycle();
    if (!new ViewAccess(reviews, user).mayListQueues()) {
      throw new ViewProblem(
          HttpStatus.FORBIDDEN, user.username() + " may not list queues.arranger.tyrl.io");
    }
    return new Queues(view.time(), view.queues());
  }

  /** The nodes, each listing only the jobs of namespaces the caller may see. */
  @GetMapping("/nodes")
  Nodes nodes(@AuthenticationPrincipal ViewUser user) {
    CycleView view = lastCycle();
    ViewAccess access = new ViewAccess(reviews, user);
    if (!access.mayListNodes()) {
      throw new ViewProblem(HttpStatus.FORBIDDEN, user.username() + " may not list nodes");
    }
    List<NodeView> nodes =
        view.nodes().stream()
            .map(
                node ->
                    new NodeView(
                        node.name(),
                        node.ready(),
                        node.unschedulable(),
                        node.resources(),
                        node.jobs().stream()
                            .filter(job -> access.maySeeJobsOf(job.namespace()))
                            .toList()))
            .toList();
    return new Nodes(view.time(), nodes);
  }

  /**
   * Recent evictions where the caller may see the victim's namespace or the preemptor's: the
   * statuses there already name the other side (the victim's reason names its preemptor, the
   * preemptor's {@code status.victims} its victims).
   */
  @GetMapping("/evictions")
  Evictions evictions(@AuthenticationPrincipal ViewUser user) {
    CycleView view = lastCycle();
    ViewAccess access = new ViewAccess(reviews, user);
    return new Evictions(
        view.time(),
        view.evictions().stream()
            .filter(
                eviction ->
                    access.maySeeJobsOf(eviction.victimNamespace())
                        || access.maySeeJobsOf(eviction.preemptorNamespace()))
            .toList());
  }

  /**
   * The last cycle's input and decisions as a file for {@code scripts/simulate.sh --snapshot}: it
   * holds every job, queue and node, so it needs {@code list} on all three cluster-wide.
   */
  @GetMapping(value = "/cycle-input", produces = MediaType.APPLICATION_JSON_VALUE)
  ResponseEntity<String> cycleInput(@AuthenticationPrincipal ViewUser user) {
    ViewAccess access = new ViewAccess(reviews, user);
    if (!access.mayListQueues() || !access.mayListNodes() || !access.maySeeEveryNamespace()) {
      throw new ViewProblem(
          HttpStatus.FORBIDDEN,
          user.username()
              + " may not list tyjobs in every namespace, queues and nodes, which the cycle's input"
              + " holds");
    }
    CycleInput input =
        lastCycle
            .input()
            .orElseThrow(() -> new ViewProblem(HttpStatus.SERVICE_UNAVAILABLE, NO_CYCLE));
    return ResponseEntity.ok()
        .header(
            HttpHeaders.CONTENT_DISPOSITION,
            "attachment; filename=\"arranger-cycle-" + input.time().getEpochSecond() + ".json\"")
        .body(CycleInputJson.write(input));
  }

  private static final String NO_CYCLE =
      "no cycle has run on this replica yet: it has only just started leading, or the request"
          + " reached it as the Lease changed hands (the leader runs the cycles)";

  private CycleView lastCycle() {
    return lastCycle
        .view()
        .orElseThrow(() -> new ViewProblem(HttpStatus.SERVICE_UNAVAILABLE, NO_CYCLE));
  }
}
