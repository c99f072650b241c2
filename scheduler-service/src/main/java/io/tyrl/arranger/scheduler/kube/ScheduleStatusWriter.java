package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.SchedulingReasons;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.InvolvedObject;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.ReasonCode;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends each changed job's scheduler-owned status as a JSON merge patch on {@code /status}, in the
 * background, and records Events through the service's {@link EventRecorder}: a waiting job's
 * reason with the very words its status gets (once written, whenever the reason or the message
 * changes, and again every repeat interval while it stays the same — counted on one Event), its
 * victims, and its placement once it had waited.
 *
 * <p>The cycle never waits for the API server. A decision enters the {@link AssumedStatuses} before
 * its write is handed to the writer threads, so the next snapshot holds it whether or not the write
 * has landed, and a job whose write is still in flight is not written again. Each patch is guarded
 * by the resourceVersion the decision was made from: on a conflict the decision is dropped and
 * forgotten (it was made on stale state; a later cycle decides afresh), as is one whose write fails
 * or is fenced. A job whose write fails never stops the others.
 *
 * <p>Back-pressure: at most {@code backlog} writes are in flight. A change found when that many are
 * is neither assumed nor sent — it is deferred, and the next cycle decides the job again on what
 * the informer and the assumptions then show. How each write ended is told to the {@link Outcomes}.
 */
public final class ScheduleStatusWriter {

  private static final Logger log = LoggerFactory.getLogger(ScheduleStatusWriter.class);
  static final String COMPONENT = "arranger-scheduler";

  /**
   * What one cycle handed to the writer.
   *
   * @param submitted writes handed to the writer threads
   * @param deferred changes left for a later cycle because the backlog was full
   * @param repeatedEvents Events of unchanged waiting reasons recorded again in this cycle
   */
  public record Submission(int submitted, int deferred, int repeatedEvents) {}

  /** How a write ended. */
  public enum Kind {
    WRITTEN,
    GONE,
    CONFLICT,
    FENCED,
    FAILED
  }

  /** Told how each write ended, from the writer thread that sent it. */
  @FunctionalInterface
  public interface Outcomes {
    /**
     * @param events Events recorded for the write (handed to the recorder, which sends them later)
     */
    void finished(Kind kind, int events);
  }

  record Outcome(Kind kind, int events) {}

  /** How often an unchanged pending reason is announced again when the service does not say. */
  public static final Duration DEFAULT_REPEAT_INTERVAL = Duration.ofMinutes(5);

  /** Writes in flight at most when the service does not say. */
  public static final int DEFAULT_BACKLOG = 2048;

  private final StatusPatcher patcher;
  private final Gson gson;
  private final ExecutorService writers;
  private final AssumedStatuses assumed;
  private final EventRecorder events;
  private final PendingAnnouncements announcements;
  private final Outcomes outcomes;
  private final int backlog;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final Object idle = new Object();

  /**
   * @param repeatInterval how often the unchanged reason of a job that keeps waiting is recorded
   *     again
   * @param backlog how many writes may be in flight at once before changes are deferred
   */
  public ScheduleStatusWriter(
      StatusPatcher patcher,
      ApiClient client,
      ExecutorService writers,
      AssumedStatuses assumed,
      EventRecorder events,
      Duration repeatInterval,
      int backlog,
      Outcomes outcomes) {
    if (backlog < 1) {
      throw new IllegalArgumentException("backlog must be at least 1, got " + backlog);
    }
    this.patcher = patcher;
    this.gson = client.getJSON().getGson();
    this.writers = writers;
    this.assumed = assumed;
    this.events = events;
    this.announcements = new PendingAnnouncements(repeatInterval);
    this.backlog = backlog;
    this.outcomes = outcomes;
  }

  /** With an Event recorder of its own (tests, tools). */
  public ScheduleStatusWriter(
      StatusPatcher patcher,
      ApiClient client,
      ExecutorService writers,
      AssumedStatuses assumed,
      LeadershipFence fence,
      Outcomes outcomes) {
    this(
        patcher,
        client,
        writers,
        assumed,
        EventRecorder.standalone(client, COMPONENT, COMPONENT, fence, Clock.systemUTC()),
        DEFAULT_REPEAT_INTERVAL,
        DEFAULT_BACKLOG,
        outcomes);
  }

  /**
   * Hands the changed jobs' writes to the writer threads and returns at once.
   *
   * @param jobsByKey the jobs as the decisions saw them (the informer's, with assumed statuses)
   */
  public Submission write(
      Map<String, V1alpha1TYJob> jobsByKey,
      Map<String, JobDecision> decisions,
      Map<String, List<Victim>> victims,
      ScheduleStatusChange.PodUids podUids,
      Instant now) {
    int submitted = 0;
    int deferred = 0;
    int repeated = 0;
    for (Map.Entry<String, JobDecision> entry : decisions.entrySet()) {
      String key = entry.getKey();
      JobDecision decision = entry.getValue();
      V1alpha1TYJob job = jobsByKey.get(key);
      if (job == null || assumed.inFlight(key)) {
        continue;
      }
      List<Victim> jobVictims = victims.getOrDefault(key, List.of());
      String baseVersion = job.getMetadata().getResourceVersion();
      var change =
          ScheduleStatusChange.between(
              job.getStatus(), decision, jobVictims, podUids, baseVersion, now);
      if (change.isPresent()) {
        // Only the cycle's thread adds to inFlight, so the check cannot be overtaken.
        if (inFlight.get() >= backlog) {
          deferred++;
          continue;
        }
        assumed.assume(key, baseVersion, statusAfter(job.getStatus(), change.get()), now);
        submit(key, job, change.get(), jobVictims, now);
        submitted++;
      } else if (decision.reason() == null) {
        announcements.forget(key);
      } else if (announcements.repeatDue(
          key, decision.reason().statusValue(), decision.message(), now)) {
        // The status already says this: the same words again, counted on the Event that carries
        // them.
        record(job, EventType.WARNING, decision.reason().statusValue(), decision.message());
        repeated++;
      }
    }
    announcements.retain(decisions.keySet());
    if (deferred > 0) {
      log.debug(
          "{} status writes in flight: {} changed jobs deferred to a later cycle",
          backlog,
          deferred);
    }
    return new Submission(submitted, deferred, repeated);
  }

  /** Writes in flight now. */
  public int inFlight() {
    return inFlight.get();
  }

  /**
   * Waits until no write is in flight (a graceful stop, tests).
   *
   * @return false if some were still in flight when the timeout passed
   */
  public boolean awaitIdle(Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (idle) {
      while (inFlight.get() > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        TimeUnit.NANOSECONDS.timedWait(idle, left);
      }
    }
    return true;
  }

  private void submit(
      String key,
      V1alpha1TYJob job,
      ScheduleStatusChange change,
      List<Victim> victims,
      Instant now) {
    inFlight.incrementAndGet();
    try {
      writers.execute(
          () -> {
            try {
              Outcome outcome = apply(key, job, change, victims, now);
              outcomes.finished(outcome.kind(), outcome.events());
            } catch (RuntimeException | Error e) {
              assumed.forget(key);
              outcomes.finished(Kind.FAILED, 0);
              log.error("status write of TYJob {} failed unexpectedly", key, e);
            } finally {
              finishedOne();
            }
          });
    } catch (RejectedExecutionException e) {
      // The service is stopping: the decision is forgotten like any write that did not land.
      assumed.forget(key);
      outcomes.finished(Kind.FAILED, 0);
      finishedOne();
      log.warn("status write of TYJob {} not sent: the writer threads are shut down", key);
    }
  }

  private void finishedOne() {
    if (inFlight.decrementAndGet() == 0) {
      synchronized (idle) {
        idle.notifyAll();
      }
    }
  }

  /** The job's status as it will be once the change's patch is applied. */
  private V1alpha1TYJobStatus statusAfter(V1alpha1TYJobStatus status, ScheduleStatusChange change) {
    JsonElement current = status == null ? null : gson.toJsonTree(status);
    JsonElement patch = JsonParser.parseString(change.patch()).getAsJsonObject().get("status");
    return gson.fromJson(JsonMergePatch.apply(current, patch), V1alpha1TYJobStatus.class);
  }

  private Outcome apply(
      String key,
      V1alpha1TYJob job,
      ScheduleStatusChange change,
      List<Victim> victims,
      Instant now) {
    StatusPatcher.Target target =
        new StatusPatcher.Target(
            ArrangerResources.GROUP,
            ArrangerResources.VERSION,
            ArrangerResources.TYJOBS,
            job.getMetadata().getNamespace(),
            job.getMetadata().getName());
    StatusPatcher.Result result;
    try {
      result = patcher.patch(target, change.patch());
    } catch (RuntimeException e) {
      assumed.forget(key);
      log.warn(
          "status write of TYJob {} failed; the next cycle decides it again: {}",
          key,
          e.getMessage());
      return new Outcome(Kind.FAILED, 0);
    }
    if (result instanceof StatusPatcher.Result.Patched patched) {
      assumed.written(key, patched.resourceVersion(), now);
      return new Outcome(Kind.WRITTEN, announce(key, job, change, victims, now));
    }
    assumed.forget(key);
    if (result instanceof StatusPatcher.Result.Conflict) {
      log.debug(
          "TYJob {} changed since the decision was made; dropped, the next cycle decides afresh",
          key);
      return new Outcome(Kind.CONFLICT, 0);
    }
    return new Outcome(result instanceof StatusPatcher.Result.Fenced ? Kind.FENCED : Kind.GONE, 0);
  }

  /**
   * The Events of a written change. A waiting job's reason is recorded with the message its status
   * now holds, word for word, whenever either changed.
   */
  private int announce(
      String key,
      V1alpha1TYJob job,
      ScheduleStatusChange change,
      List<Victim> victims,
      Instant now) {
    int recorded = 0;
    JobDecision decision = change.decision();
    if (change.reasonOrMessageChanged()) {
      ReasonCode reason = decision.reason();
      record(job, EventType.WARNING, reason.statusValue(), decision.message());
      announcements.announced(key, reason.statusValue(), decision.message(), now);
      recorded++;
    } else if (decision.reason() == null) {
      announcements.forget(key);
    }
    if (!victims.isEmpty() && !victims.equals(ScheduleStatusChange.recorded(job.getStatus()))) {
      record(
          job,
          EventType.NORMAL,
          SchedulingReasons.PREEMPTING,
          victims.stream()
              .map(
                  v ->
                      v.pods().size()
                          + " pods of "
                          + v.jobKey()
                          + (v.wholeJob() ? " (whole job)" : "")
                          + ": "
                          + v.reason())
              .collect(Collectors.joining("; ")));
      recorded++;
    }
    // A job placed at its first decision gets no Event of its own: the controller's Event of the
    // stage
    // change names its leader's node. One that had waited (with a Warning saying why) is told it no
    // longer does.
    if (change.newlyPlaced() && hadWaited(job.getStatus())) {
      record(
          job,
          EventType.NORMAL,
          SchedulingReasons.SCHEDULED,
          decision.state().wireName()
              + " after waiting ("
              + job.getStatus().getScheduling().getReason()
              + "): "
              + decision.allocations().size()
              + " pods placed");
      recorded++;
    }
    return recorded;
  }

  private static boolean hadWaited(V1alpha1TYJobStatus status) {
    return status != null
        && status.getScheduling() != null
        && status.getScheduling().getReason() != null;
  }

  private void record(V1alpha1TYJob job, EventType type, String reason, String message) {
    events.record(
        new InvolvedObject(
            ArrangerResources.API_VERSION,
            ArrangerResources.TYJOB_KIND,
            job.getMetadata().getNamespace(),
            job.getMetadata().getName(),
            job.getMetadata().getUid()),
        type,
        reason,
        message);
  }
}
