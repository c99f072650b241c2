package io.tyrl.arranger.scheduler.kube;

import com.google.gson.Gson;
import com.google.gson.JsonElement;
import com.google.gson.JsonParser;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.leader.LeadershipFence;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each changed job's scheduler-owned status with a JSON merge patch on {@code /status}, a
 * few jobs at a time, and records an Event when a job's pending reason changes or it gets placed.
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

  /** What one cycle's writes came to. */
  public record WriteReport(int written, int failed, int conflicts, int fenced, int events) {

    static WriteReport of(List<Outcome> outcomes) {
      int events = outcomes.stream().mapToInt(Outcome::events).sum();
      return new WriteReport(count(outcomes, Kind.WRITTEN), count(outcomes, Kind.FAILED),
          count(outcomes, Kind.CONFLICT), count(outcomes, Kind.FENCED), events);
    }

    private static int count(List<Outcome> outcomes, Kind kind) {
      return (int) outcomes.stream().filter(outcome -> outcome.kind() == kind).count();
    }
  }

  enum Kind { WRITTEN, GONE, CONFLICT, FENCED, FAILED }

  record Outcome(Kind kind, int events) {}

  private final StatusPatcher patcher;
  private final CoreV1Api core;
  private final Gson gson;
  private final ExecutorService writers;
  private final AssumedStatuses assumed;
  private final LeadershipFence fence;

  public ScheduleStatusWriter(StatusPatcher patcher, ApiClient client, ExecutorService writers,
      AssumedStatuses assumed, LeadershipFence fence) {
    this.patcher = patcher;
    this.core = new CoreV1Api(client);
    this.gson = client.getJSON().getGson();
    this.writers = writers;
    this.assumed = assumed;
    this.fence = fence;
  }

  /**
   * Writes the changed jobs.
   *
   * @param jobsByKey the jobs as the decisions saw them (the informer's, with assumed statuses)
   */
  public WriteReport write(Map<String, V1alpha1TYJob> jobsByKey, Map<String, JobDecision> decisions,
      Map<String, List<Victim>> victims, ScheduleStatusChange.PodUids podUids, Instant now) {
    Map<String, Future<Outcome>> pending = new java.util.LinkedHashMap<>();
    decisions.forEach((key, decision) -> {
      V1alpha1TYJob job = jobsByKey.get(key);
      if (job == null || assumed.inFlight(key)) {
        return;
      }
      List<Victim> jobVictims = victims.getOrDefault(key, List.of());
      String baseVersion = job.getMetadata().getResourceVersion();
      ScheduleStatusChange.between(job.getStatus(), decision, jobVictims, podUids, baseVersion, now)
          .ifPresent(change -> {
            assumed.assume(key, baseVersion, statusAfter(job.getStatus(), change), now);
            pending.put(key, writers.submit(() -> apply(key, job, change, jobVictims, now)));
          });
    });
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
    return WriteReport.of(outcomes);
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
      return new Outcome(Kind.WRITTEN, announce(job, change, victims, now));
    }
    assumed.forget(key);
    if (result instanceof StatusPatcher.Result.Conflict) {
      log.debug("TYJob {} changed since the decision was made; dropped, the next cycle decides afresh", key);
      return new Outcome(Kind.CONFLICT, 0);
    }
    return new Outcome(result instanceof StatusPatcher.Result.Fenced ? Kind.FENCED : Kind.GONE, 0);
  }

  private int announce(V1alpha1TYJob job, ScheduleStatusChange change, List<Victim> victims, Instant now) {
    int events = 0;
    if (change.reasonChanged()) {
      events += emit(job, "Warning", change.decision().reasonIfAny().map(r -> r.statusValue()).orElse("Pending"),
          change.decision().message(), now);
    }
    if (!victims.isEmpty() && !victims.equals(ScheduleStatusChange.recorded(job.getStatus()))) {
      events += emit(job, "Normal", "Preempting", victims.stream()
          .map(v -> v.pods().size() + " pods of " + v.jobKey() + (v.wholeJob() ? " (whole job)" : "") + ": " + v.reason())
          .collect(Collectors.joining("; ")), now);
    }
    if (change.newlyPlaced()) {
      events += emit(job, "Normal", "Scheduled", change.decision().state().statusValue() + ": "
          + change.decision().allocations().size() + " pods placed", now);
    }
    return events;
  }

  private int emit(V1alpha1TYJob job, String type, String reason, String message, Instant now) {
    if (!fence.mayWrite()) {
      return 0;
    }
    OffsetDateTime time = now.atOffset(ZoneOffset.UTC);
    CoreV1Event event = new CoreV1Event()
        .metadata(new V1ObjectMeta().namespace(job.getMetadata().getNamespace())
            .name(job.getMetadata().getName() + "." + UUID.randomUUID().toString().substring(0, 13).replace("-", "")))
        .involvedObject(new V1ObjectReference().apiVersion(ArrangerResources.API_VERSION)
            .kind(ArrangerResources.TYJOB_KIND).namespace(job.getMetadata().getNamespace())
            .name(job.getMetadata().getName()).uid(job.getMetadata().getUid())
            .resourceVersion(job.getMetadata().getResourceVersion()))
        .type(type).reason(reason).message(message.isEmpty() ? reason : message)
        .source(new V1EventSource().component(COMPONENT))
        .firstTimestamp(time).lastTimestamp(time).count(1);
    try {
      core.createNamespacedEvent(job.getMetadata().getNamespace(), event).execute();
      return 1;
    } catch (ApiException e) {
      log.warn("cannot record event {} on {}/{} (HTTP {}): {}", reason, job.getMetadata().getNamespace(),
          job.getMetadata().getName(), e.getCode(), e.getResponseBody());
      return 0;
    } catch (RuntimeException e) {
      log.warn("cannot record event {} on {}/{}: {}", reason, job.getMetadata().getNamespace(),
          job.getMetadata().getName(), e.toString());
      return 0;
    }
  }
}
