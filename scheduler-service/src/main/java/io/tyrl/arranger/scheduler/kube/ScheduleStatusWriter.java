package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.kubernetes.client.openapi.ApiException;
import io.kubernetes.client.openapi.JSON;
import io.kubernetes.client.openapi.apis.CoreV1Api;
import io.kubernetes.client.openapi.models.CoreV1Event;
import io.kubernetes.client.openapi.models.V1EventSource;
import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.kubernetes.client.openapi.models.V1ObjectReference;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.scheduler.api.JobDecision;
import io.tyrl.arranger.scheduler.api.Victim;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each changed job's scheduler-owned status with a JSON merge patch on {@code /status}, a
 * few jobs at a time, and records an Event when a job's pending reason changes or it gets placed.
 * A job whose write fails is reported and retried at the next cycle; it never stops the others.
 */
public final class ScheduleStatusWriter {

  private static final Logger log = LoggerFactory.getLogger(ScheduleStatusWriter.class);
  static final String COMPONENT = "arranger-scheduler";

  /** What one cycle's writes came to. */
  public record WriteReport(int written, int failed, int events) {}

  private final StatusPatcher patcher;
  private final CoreV1Api core;
  private final JSON json;
  private final ExecutorService writers;

  public ScheduleStatusWriter(StatusPatcher patcher, ApiClient client, ExecutorService writers) {
    this.patcher = patcher;
    this.core = new CoreV1Api(client);
    this.json = client.getJSON();
    this.writers = writers;
  }

  /** Writes the changed jobs; {@code mayWrite} turns false when this replica stops leading mid-way. */
  public WriteReport write(Map<String, V1alpha1TYJob> jobsByKey, Map<String, JobDecision> decisions,
      Map<String, List<Victim>> victims, Instant now, BooleanSupplier mayWrite) {
    List<Future<Integer>> pending = new ArrayList<>();
    decisions.forEach((key, decision) -> {
      V1alpha1TYJob job = jobsByKey.get(key);
      if (job == null) {
        return;
      }
      List<Victim> jobVictims = victims.getOrDefault(key, List.of());
      ScheduleStatusChange.between(job.getStatus(), decision, jobVictims, job.getMetadata().getResourceVersion(), now)
          .ifPresent(change -> pending.add(writers.submit(() ->
              mayWrite.getAsBoolean() ? apply(job, change, jobVictims, now) : 0)));
    });
    int written = 0;
    int failed = 0;
    int events = 0;
    for (Future<Integer> future : pending) {
      try {
        events += future.get();
        written++;
      } catch (ExecutionException e) {
        failed++;
        log.warn("status write failed: {}", e.getCause().getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed += pending.size() - written - failed;
        break;
      }
    }
    return new WriteReport(written, failed, events);
  }

  private int apply(V1alpha1TYJob job, ScheduleStatusChange change, List<Victim> victims, Instant now) {
    String namespace = job.getMetadata().getNamespace();
    String name = job.getMetadata().getName();
    StatusPatcher.Target target = new StatusPatcher.Target(ArrangerResources.GROUP, ArrangerResources.VERSION,
        ArrangerResources.TYJOBS, namespace, name);
    Optional<JsonObject> patched = patcher.patch(target, fresh -> fresh
        .map(object -> recompute(object, change.decision(), victims, now))
        .orElse(change.patch()));
    if (patched.isEmpty()) {
      return 0;
    }
    int events = 0;
    if (change.reasonChanged()) {
      events += emit(job, "Warning", change.decision().reasonIfAny().map(r -> r.statusValue()).orElse("Pending"),
          change.decision().message(), now);
    }
    if (!victims.isEmpty() && !victims.equals(ScheduleStatusChange.recorded(job.getStatus()))) {
      events += emit(job, "Normal", "Preempting", victims.stream()
          .map(v -> v.pods().size() + " pods of " + v.jobKey() + (v.wholeJob() ? " (whole job)" : "") + ": " + v.reason())
          .collect(java.util.stream.Collectors.joining("; ")), now);
    }
    if (change.newlyPlaced()) {
      events += emit(job, "Normal", "Scheduled", change.decision().state().statusValue() + ": "
          + change.decision().allocations().size() + " pods placed", now);
    }
    return events;
  }

  /** After a conflict: the same decision against the job as it is now. */
  private String recompute(JsonObject fresh, JobDecision decision, List<Victim> victims, Instant now) {
    V1alpha1TYJob current = json.deserialize(fresh.toString(), V1alpha1TYJob.class);
    return ScheduleStatusChange.between(current.getStatus(), decision, victims,
            current.getMetadata().getResourceVersion(), now)
        .map(ScheduleStatusChange::patch)
        .orElse("{}");
  }

  private int emit(V1alpha1TYJob job, String type, String reason, String message, Instant now) {
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
