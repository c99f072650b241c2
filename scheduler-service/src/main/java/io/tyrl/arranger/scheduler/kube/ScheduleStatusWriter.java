package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.EventType;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each changed job's scheduler-owned status with a JSON merge patch on {@code /status}, a
 * few jobs at a time, and records Events through the service's {@link EventRecorder}: a waiting job's
 * reason with the very words its status gets (once written, whenever the reason or the message
 * changes, and again every repeat interval while it stays the same — counted on one Event), its
 * victims, and its placement.
 *
 * <p>A decision enters the {@link AssumedStatuses} before its write is sent, so the next snapshot
 * holds it whether or not the informer has caught up. Each patch is guarded by the resourceVersion
 * the decision was made from: on a conflict the decision is dropped and forgotten (it was made on
 * stale state; the next cycle decides afresh), as is one whose write fails or is fenced. A job whose
 * write fails never stops the others.
 */
public final class ScheduleStatusWriter {

  private static final Logger log = LoggerFactory.getLogger(ScheduleStatusWriter.class);
  static final String COMPONENT = "arranger-scheduler";

  /**
   * What one cycle's writes came to.
   *
   * @param events Events recorded (handed to the recorder, which writes them later)
   */
  public record WriteReport(int written, int failed, int conflicts, int fenced, int events) {

    static WriteReport of(List<Outcome> outcomes, int repeatedEvents) {
      int events = repeatedEvents + outcomes.stream().mapToInt(Outcome::events).sum();
      return new WriteReport(count(outcomes, Kind.WRITTEN), count(outcomes, Kind.FAILED),
          count(outcomes, Kind.CONFLICT), count(outcomes, Kind.FENCED), events);
    }

    private static int count(List<Outcome> outcomes, Kind kind) {
      return (int) outcomes.stream().filter(outcome -> outcome.kind() == kind).count();
    }
  }

  enum Kind { WRITTEN, GONE, CONFLICT, FENCED, FAILED }

  record Outcome(Kind kind, int events) {}

  /** How often an unchanged pending reason is announced again when the service does not say. */
  public static final Duration DEFAULT_REPEAT_INTERVAL = Duration.ofMinutes(5);

  private final StatusPatcher patcher;
  private final Gson gson;
  private final ExecutorService writers;
  private final AssumedStatuses assumed;
  private final EventRecorder events;
  private final PendingAnnouncements announcements;

  /**
   * @param repeatInterval how often the unchanged reason of a job that keeps waiting is recorded again
   */
  public ScheduleStatusWriter(StatusPatcher patcher, ApiClient client, ExecutorService writers,
      AssumedStatuses assumed, EventRecorder events, Duration repeatInterval) {
    this.patcher = patcher;
    this.gson = client.getJSON().getGson();
    this.writers = writers;
    this.assumed = assumed;
    this.events = events;
    this.announcements = new PendingAnnouncements(repeatInterval);
  }

  /** With an Event recorder of its own (tests, tools). */
  public ScheduleStatusWriter(StatusPatcher patcher, ApiClient client, ExecutorService writers,
      AssumedStatuses assumed, LeadershipFence fence) {
    this(patcher, client, writers, assumed, EventRecorder.standalone(client, COMPONENT, COMPONENT, fence,
        Clock.systemUTC()), DEFAULT_REPEAT_INTERVAL);
  }

  /**
   * Writes the changed jobs.
   *
   * @param jobsByKey the jobs as the decisions saw them (the informer's, with assumed statuses)
   */
  public WriteReport write(Map<String, V1alpha1TYJob> jobsByKey, Map<String, JobDecision> decisions,
      Map<String, List<Victim>> victims, ScheduleStatusChange.PodUids podUids, Instant now) {
    Map<String, Future<Outcome>> pending = new java.util.LinkedHashMap<>();
    int[] repeated = {0};
    decisions.forEach((key, decision) -> {
      V1alpha1TYJob job = jobsByKey.get(key);
      if (job == null || assumed.inFlight(key)) {
        return;
      }
      List<Victim> jobVictims = victims.getOrDefault(key, List.of());
      String baseVersion = job.getMetadata().getResourceVersion();
      var change = ScheduleStatusChange.between(job.getStatus(), decision, jobVictims, podUids, baseVersion, now);
      if (change.isPresent()) {
        assumed.assume(key, baseVersion, statusAfter(job.getStatus(), change.get()), now);
        pending.put(key, writers.submit(() -> apply(key, job, change.get(), jobVictims, now)));
      } else if (decision.reason() == null) {
        announcements.forget(key);
      } else if (announcements.repeatDue(key, decision.reason().statusValue(), decision.message(), now)) {
        // The status already says this: the same words again, counted on the Event that carries them.
        record(job, EventType.WARNING, decision.reason().statusValue(), decision.message());
        repeated[0]++;
      }
    });
    announcements.retain(decisions.keySet());
    List<Outcome> outcomes = new ArrayList<>();
    for (Map.Entry<String, Future<Outcome>> write : pending.entrySet()) {
      try {
        outcomes.add(write.getValue().get());
      } catch (ExecutionException e) {
        assumed.forget(write.getKey());
        outcomes.add(new Outcome(Kind.FAILED, 0));
        log.error("status write of TYJob {} failed unexpectedly", write.getKey(), e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return WriteReport.of(outcomes, repeated[0]);
  }

  /** The job's status as it will be once the change's patch is applied. */
  private V1alpha1TYJobStatus statusAfter(V1alpha1TYJobStatus status, ScheduleStatusChange change) {
    JsonElement current = status == null ? null : gson.toJsonTree(status);
    JsonElement patch = JsonParser.parseString(change.patch()).getAsJsonObject().get("status");
    return gson.fromJson(JsonMergePatch.apply(current, patch), V1alpha1TYJobStatus.class);
  }

  private Outcome apply(String key, V1alpha1TYJob job, ScheduleStatusChange change, List<Victim> victims,
      Instant now) {
    StatusPatcher.Target target = new StatusPatcher.Target(ArrangerResources.GROUP, ArrangerResources.VERSION,
        ArrangerResources.TYJOBS, job.getMetadata().getNamespace(), job.getMetadata().getName());
    StatusPatcher.Result result;
    try {
      result = patcher.patch(target, change.patch());
    } catch (RuntimeException e) {
      assumed.forget(key);
      log.warn("status write of TYJob {} failed; the next cycle decides it again: {}", key, e.getMessage());
      return new Outcome(Kind.FAILED, 0);
    }
    if (result instanceof StatusPatcher.Result.Patched patched) {
      assumed.written(key, patched.resourceVersion(), now);
      return new Outcome(Kind.WRITTEN, announce(key, job, change, victims, now));
    }
    assumed.forget(key);
    if (result instanceof StatusPatcher.Result.Conflict) {
      log.debug("TYJob {} changed since the decision was made; dropped, the next cycle decides afresh", key);
      return new Outcome(Kind.CONFLICT, 0);
    }
    return new Outcome(result instanceof StatusPatcher.Result.Fenced ? Kind.FENCED : Kind.GONE, 0);
  }

  /**
   * The Events of a written change. A waiting job's reason is recorded with the message its status
   * now holds, word for word, whenever either changed.
   */
  private int announce(String key, V1alpha1TYJob job, ScheduleStatusChange change, List<Victim> victims, Instant now) {
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
      record(job, EventType.NORMAL, "Preempting", victims.stream()
          .map(v -> v.pods().size() + " pods of " + v.jobKey() + (v.wholeJob() ? " (whole job)" : "") + ": " + v.reason())
          .collect(Collectors.joining("; ")));
      recorded++;
    }
    if (change.newlyPlaced()) {
      record(job, EventType.NORMAL, "Scheduled", decision.state().wireName() + ": "
          + decision.allocations().size() + " pods placed");
      recorded++;
    }
    return recorded;
  }

  private void record(V1alpha1TYJob job, EventType type, String reason, String message) {
    events.record(new InvolvedObject(ArrangerResources.API_VERSION, ArrangerResources.TYJOB_KIND,
        job.getMetadata().getNamespace(), job.getMetadata().getName(), job.getMetadata().getUid()), type, reason, message);
  }
}
