package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonNull;
import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.crd.reasons.EventType;
import io.tyrl.arranger.crd.reasons.QueueReasons;
import io.tyrl.arranger.kube.StatusPatcher;
import io.tyrl.arranger.kube.events.EventRecorder;
import io.tyrl.arranger.kube.events.InvolvedObject;
import io.tyrl.arranger.scheduler.api.QueueSummary;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes each Queue's status — pending, inqueue and running job counts, allocated, deserved,
 * guaranteed and over-quota resources, overused, the parent, and the {@code TreeValid} condition —
 * from the cycle's {@link QueueSummary}, once per change: a queue whose stored status (as the
 * informer shows it) already says what the cycle found is not written, nor is one whose last write
 * the informer has not shown yet. So an idle cluster writes no Queue at all.
 *
 * <p>Each write is a JSON merge patch on {@code /status} through the {@link StatusPatcher} (fenced,
 * retried with backoff), guarded by the resourceVersion the status was compared with: on a 409 the
 * next cycle compares again. A resource that left a resource list is written as null, so it
 * disappears. The condition's {@code lastTransitionTime} moves only when its status turns.
 *
 * <p>When a write makes a queue's tree problem appear or change, one Warning Event {@value
 * QueueReasons#INVALID_QUEUE_TREE} with the problem goes to the Queue, once that write has been
 * applied: the stored condition then says the same, so the next cycles (and the next leader) find
 * nothing to announce. A write refused or fenced announces nothing; the next cycle writes again.
 */
public final class QueueStatusWriter {

  private static final Logger log = LoggerFactory.getLogger(QueueStatusWriter.class);

  /** What one cycle's Queue writes came to. */
  public record Report(int written, int unchanged, int failed, int conflicts, int fenced) {}

  /**
   * The {@code TreeValid} condition in comparable form ({@code lastTransitionTime} aside): {@code
   * "True"} with no message, or {@code "False"} with the problem.
   */
  record TreeCondition(String status, String message) {

    static final TreeCondition VALID = new TreeCondition("True", "");

    static TreeCondition of(String treeProblem) {
      return treeProblem == null ? VALID : new TreeCondition("False", treeProblem);
    }

    boolean valid() {
      return "True".equals(status);
    }
  }

  /**
   * A Queue status in comparable form: quantities as the strings written, counts as ints (absent is
   * 0), the parent (null at the top level) and the tree condition (null when absent).
   */
  record View(
      Map<String, String> deserved,
      Map<String, String> allocated,
      int pending,
      int inqueue,
      int running,
      boolean overused,
      String parent,
      Map<String, String> guarantee,
      Map<String, String> overQuota,
      TreeCondition tree) {

    static View of(QueueSummary summary) {
      return new View(
          quantities(summary.deserved()),
          quantities(summary.allocated()),
          summary.pendingJobs(),
          summary.inqueueJobs(),
          summary.runningJobs(),
          summary.overused(),
          summary.parent(),
          quantities(summary.guarantee()),
          quantities(summary.overQuota()),
          TreeCondition.of(summary.treeProblem()));
    }

    /**
     * Leniently. A missing or malformed count reads as -1, so that a Queue never written (an idle
     * one included, whose counts are all 0) is written once; a missing resource list reads as
     * empty; a missing condition as null, so that it is written.
     */
    static View of(JsonObject status) {
      if (status == null) {
        return new View(Map.of(), Map.of(), -1, -1, -1, false, null, Map.of(), Map.of(), null);
      }
      return new View(
          map(status.get(QueueStatusFields.DESERVED)),
          map(status.get(QueueStatusFields.ALLOCATED)),
          count(status.get(QueueStatusFields.PENDING)),
          count(status.get(QueueStatusFields.INQUEUE)),
          count(status.get(QueueStatusFields.RUNNING)),
          flag(status.get(QueueStatusFields.OVERUSED)),
          text(status.get(QueueStatusFields.PARENT)),
          map(status.get(QueueStatusFields.GUARANTEE)),
          map(status.get(QueueStatusFields.OVER_QUOTA)),
          tree(status));
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

    private static String text(JsonElement element) {
      return element != null && element.isJsonPrimitive() ? element.getAsString() : null;
    }

    private static TreeCondition tree(JsonObject status) {
      JsonObject condition = treeCondition(status);
      if (condition == null) {
        return null;
      }
      String message = text(condition.get("message"));
      return new TreeCondition(text(condition.get("status")), message == null ? "" : message);
    }
  }

  /** The stored {@code TreeValid} entry of {@code status.conditions}, or null. */
  private static JsonObject treeCondition(JsonObject status) {
    JsonElement conditions = status == null ? null : status.get(QueueStatusFields.CONDITIONS);
    if (conditions == null || !conditions.isJsonArray()) {
      return null;
    }
    for (JsonElement element : conditions.getAsJsonArray()) {
      if (element.isJsonObject()
          && QueueStatusFields.TREE_VALID.equals(
              View.text(element.getAsJsonObject().get("type")))) {
        return element.getAsJsonObject();
      }
    }
    return null;
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
  private final EventRecorder events;
  private final Map<String, Written> lastWritten = new ConcurrentHashMap<>();

  /**
   * @param events where a queue's new tree problem is announced (fenced by the recorder itself)
   */
  public QueueStatusWriter(StatusPatcher patcher, ExecutorService writers, EventRecorder events) {
    this.patcher = patcher;
    this.writers = writers;
    this.events = events;
  }

  /**
   * Writes the queues whose status changed.
   *
   * @param observed every cached Queue by name; a summary of a queue not cached (the {@code
   *     default} queue before it exists) is not written
   * @param now the cycle's time: the {@code lastTransitionTime} of a condition that turns
   */
  public Report write(
      Map<String, QueueSummary> summaries,
      Map<String, ClusterInformers.ObservedQueue> observed,
      Instant now) {
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
      String patch =
          patch(
              desired,
              stored,
              queue.resourceVersion(),
              transitionTime(desired, queue.status(), now));
      Optional<String> announce = newTreeProblem(desired, stored);
      pending.add(writers.submit(() -> send(queue, desired, patch, announce)));
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

  /**
   * The tree problem to announce once the write is applied: the desired one, when the stored
   * condition does not say it already.
   */
  static Optional<String> newTreeProblem(View desired, View stored) {
    return desired.tree().valid() || desired.tree().equals(stored.tree())
        ? Optional.empty()
        : Optional.of(desired.tree().message());
  }

  /**
   * When the stored condition turned, if it has the status desired (a changed problem is no turn);
   * else {@code now}.
   */
  static Instant transitionTime(View desired, JsonObject storedStatus, Instant now) {
    JsonObject stored = treeCondition(storedStatus);
    if (stored == null || !desired.tree().status().equals(View.text(stored.get("status")))) {
      return now;
    }
    String time = View.text(stored.get("lastTransitionTime"));
    return time == null ? now : instant(time).orElse(now);
  }

  private static Optional<Instant> instant(String text) {
    try {
      return Optional.of(OffsetDateTime.parse(text).toInstant());
    } catch (DateTimeParseException e) {
      return Optional.empty();
    }
  }

  private Kind send(
      ClusterInformers.ObservedQueue queue,
      View desired,
      String patch,
      Optional<String> treeProblemToAnnounce) {
    String name = queue.name();
    String baseVersion = queue.resourceVersion();
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
      treeProblemToAnnounce.ifPresent(
          problem ->
              events.record(
                  new InvolvedObject(
                      ArrangerResources.API_VERSION,
                      ArrangerResources.QUEUE_KIND,
                      null,
                      name,
                      queue.uid()),
                  EventType.WARNING,
                  QueueReasons.INVALID_QUEUE_TREE,
                  problem));
      return Kind.WRITTEN;
    }
    lastWritten.remove(name);
    if (result instanceof StatusPatcher.Result.Conflict) {
      return Kind.CONFLICT;
    }
    return result instanceof StatusPatcher.Result.Fenced ? Kind.FENCED : Kind.GONE;
  }

  /**
   * The merge patch from {@code stored} to {@code desired}, guarded by {@code resourceVersion}; the
   * condition carries {@code transitionTime}.
   */
  static String patch(View desired, View stored, String resourceVersion, Instant transitionTime) {
    JsonObject status = new JsonObject();
    status.add(QueueStatusFields.DESERVED, quantities(desired.deserved(), stored.deserved()));
    status.add(QueueStatusFields.ALLOCATED, quantities(desired.allocated(), stored.allocated()));
    status.add(QueueStatusFields.GUARANTEE, quantities(desired.guarantee(), stored.guarantee()));
    status.add(QueueStatusFields.OVER_QUOTA, quantities(desired.overQuota(), stored.overQuota()));
    status.addProperty(QueueStatusFields.PENDING, desired.pending());
    status.addProperty(QueueStatusFields.INQUEUE, desired.inqueue());
    status.addProperty(QueueStatusFields.RUNNING, desired.running());
    status.addProperty(QueueStatusFields.OVERUSED, desired.overused());
    if (desired.parent() != null) {
      status.addProperty(QueueStatusFields.PARENT, desired.parent());
    } else {
      status.add(QueueStatusFields.PARENT, JsonNull.INSTANCE);
    }
    // The scheduler owns every condition of a Queue: the list is written whole.
    JsonObject condition = new JsonObject();
    condition.addProperty("type", QueueStatusFields.TREE_VALID);
    condition.addProperty("status", desired.tree().status());
    if (!desired.tree().valid()) {
      condition.addProperty("reason", QueueReasons.INVALID_QUEUE_TREE);
      condition.addProperty("message", desired.tree().message());
    }
    condition.addProperty(
        "lastTransitionTime", transitionTime.truncatedTo(ChronoUnit.SECONDS).toString());
    JsonArray conditions = new JsonArray();
    conditions.add(condition);
    status.add(QueueStatusFields.CONDITIONS, conditions);
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
