package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each Queue's status — pending, inqueue and running job counts, allocated and deserved
 * resources, overused — from the cycle's {@link QueueSummary}, once per change: a queue whose
 * stored status (as the informer shows it) already says what the cycle found is not written, nor is
 * one whose last write the informer has not shown yet. So an idle cluster writes no Queue at all.
 *
 * <p>Each write is a JSON merge patch on {@code /status} through the {@link StatusPatcher} (fenced,
 * retried with backoff), guarded by the resourceVersion the status was compared with: on a 409 the
 * next cycle compares again. A resource that left {@code deserved} or {@code allocated} is written
 * as null, so it disappears.
 */
public final class QueueStatusWriter {

  private static final Logger log = LoggerFactory.getLogger(QueueStatusWriter.class);

  /** What one cycle's Queue writes came to. */
  public record Report(int written, int unchanged, int failed, int conflicts, int fenced) {}

  /**
   * A Queue status in comparable form: quantities as the strings written, counts as ints (absent is
   * 0).
   */
  record View(
      Map<String, String> deserved,
      Map<String, String> allocated,
      int pending,
      int inqueue,
      int running,
      boolean overused) {

    static View of(QueueSummary summary) {
      return new View(
          quantities(summary.deserved()),
          quantities(summary.allocated()),
          summary.pendingJobs(),
          summary.inqueueJobs(),
          summary.runningJobs(),
          summary.overused());
    }

    /**
     * Leniently. A missing or malformed count reads as -1, so that a Queue never written (an idle
     * one included, whose counts are all 0) is written once; a missing resource list reads as
     * empty.
     */
    static View of(JsonObject status) {
      if (status == null) {
        return new View(Map.of(), Map.of(), -1, -1, -1, false);
      }
      return new View(
          map(status.get("deserved")),
          map(status.get("allocated")),
          count(status.get("pending")),
          count(status.get("inqueue")),
          count(status.get("running")),
          flag(status.get("overused")));
    }

    private static Map<String, String> quantities(Resource resource) {
      Map<String, String> map = new TreeMap<>();
      resource
          .quantities()
          .forEach((name, value) -> map.put(name, Resource.formatQuantity(name, value)));
      return map;
    }

    private static Map<String, String> map(JsonElement element) {
      Map<String, String> map = new TreeMap<>();
      if (element != null && element.isJsonObject()) {
        element
            .getAsJsonObject()
            .entrySet()
            .forEach(
                entry -> {
                  if (entry.getValue().isJsonPrimitive()) {
                    map.put(entry.getKey(), entry.getValue().getAsString());
                  }
                });
      }
      return map;
    }

    private static int count(JsonElement element) {
      try {
        return element != null && element.isJsonPrimitive() ? element.getAsInt() : -1;
      } catch (NumberFormatException e) {
        return -1;
      }
    }

    private static boolean flag(JsonElement element) {
      return element != null
          && element.isJsonPrimitive()
          && element.getAsJsonPrimitive().isBoolean()
          && element.getAsBoolean();
    }
  }

  /** A write sent: the status written, and the resourceVersion it was compared with. */
  private record Written(View view, String baseVersion) {}

  private enum Kind {
    WRITTEN,
    FAILED,
    CONFLICT,
    FENCED,
    GONE
  }

  private final StatusPatcher patcher;
  private final ExecutorService writers;
  private final Map<String, Written> lastWritten = new ConcurrentHashMap<>();

  public QueueStatusWriter(StatusPatcher patcher, ExecutorService writers) {
    this.patcher = patcher;
    this.writers = writers;
  }

  /**
   * Writes the queues whose status changed.
   *
   * @param observed every cached Queue by name; a summary of a queue not cached (the {@code
   *     default} queue before it exists) is not written
   */
  public Report write(
      Map<String, QueueSummary> summaries, Map<String, ClusterInformers.ObservedQueue> observed) {
    int unchanged = 0;
    List<Future<Kind>> pending = new ArrayList<>();
    for (QueueSummary summary : summaries.values()) {
      ClusterInformers.ObservedQueue queue = observed.get(summary.name());
      if (queue == null) {
        continue;
      }
      View desired = View.of(summary);
      View stored = View.of(queue.status());
      if (desired.equals(stored)) {
        lastWritten.remove(summary.name());
        unchanged++;
        continue;
      }
      Written last = lastWritten.get(summary.name());
      if (last != null
          && last.view().equals(desired)
          && Objects.equals(last.baseVersion(), queue.resourceVersion())) {
        // Written already; the informer has not shown it yet.
        unchanged++;
        continue;
      }
      String patch = patch(desired, stored, queue.resourceVersion());
      pending.add(
          writers.submit(() -> send(summary.name(), desired, queue.resourceVersion(), patch)));
    }
    lastWritten.keySet().retainAll(observed.keySet());
    int[] kinds = new int[Kind.values().length];
    for (Future<Kind> future : pending) {
      try {
        kinds[future.get().ordinal()]++;
      } catch (ExecutionException e) {
        kinds[Kind.FAILED.ordinal()]++;
        log.error("Queue status write failed unexpectedly", e.getCause());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        break;
      }
    }
    return new Report(
        kinds[Kind.WRITTEN.ordinal()],
        unchanged,
        kinds[Kind.FAILED.ordinal()],
        kinds[Kind.CONFLICT.ordinal()],
        kinds[Kind.FENCED.ordinal()]);
  }

  private Kind send(String name, View desired, String baseVersion, String patch) {
    StatusPatcher.Target target =
        StatusPatcher.Target.clusterScoped(
            ArrangerResources.GROUP, ArrangerResources.VERSION, ArrangerResources.QUEUES, name);
    StatusPatcher.Result result;
    try {
      result = patcher.patch(target, patch);
    } catch (RuntimeException e) {
      lastWritten.remove(name);
      log.warn(
          "status write of Queue {} failed; the next cycle writes it again: {}",
          name,
          e.getMessage());
      return Kind.FAILED;
    }
    if (result instanceof StatusPatcher.Result.Patched) {
      lastWritten.put(name, new Written(desired, baseVersion));
      return Kind.WRITTEN;
    }
    lastWritten.remove(name);
    if (result instanceof StatusPatcher.Result.Conflict) {
      return Kind.CONFLICT;
    }
    return result instanceof StatusPatcher.Result.Fenced ? Kind.FENCED : Kind.GONE;
  }

  /** The merge patch from {@code stored} to {@code desired}, guarded by {@code resourceVersion}. */
  static String patch(View desired, View stored, String resourceVersion) {
    JsonObject status = new JsonObject();
    status.add("deserved", quantities(desired.deserved(), stored.deserved()));
    status.add("allocated", quantities(desired.allocated(), stored.allocated()));
    status.addProperty("pending", desired.pending());
    status.addProperty("inqueue", desired.inqueue());
    status.addProperty("running", desired.running());
    status.addProperty("overused", desired.overused());
    JsonObject metadata = new JsonObject();
    metadata.addProperty("resourceVersion", resourceVersion);
    JsonObject patch = new JsonObject();
    patch.add("metadata", metadata);
    patch.add("status", status);
    return patch.toString();
  }

  private static JsonObject quantities(Map<String, String> desired, Map<String, String> stored) {
    JsonObject json = new JsonObject();
    desired.forEach(json::addProperty);
    stored.keySet().stream()
        .filter(name -> !desired.containsKey(name))
        .forEach(name -> json.add(name, JsonNull.INSTANCE));
    return json;
  }
}
