package io.tyrl.arranger.scheduler.kube;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import io.tyrl.arranger.crd.contract.status.QueueStatusFields;
import io.tyrl.arranger.scheduler.api.DecayedUsage;
import io.tyrl.arranger.scheduler.api.QueueUsage;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * A queue's past usage as {@code Queue.status.usage} holds it, both ways: what the leader writes
 * and what the next leader reads back. Amounts are written to a thousandth of a resource-second,
 * and times to the millisecond, so a round trip gives the usage back to within that.
 *
 * <pre>
 * usage:
 *   asOf: 2026-11-27T10:00:00.000Z
 *   summary: nvidia.com/gpu 42.0%          # the resource used most, its share of the cluster
 *   resourceSeconds: {nvidia.com/gpu: 1234567.891, cpu: 9876.5}
 *   clusterShare: {nvidia.com/gpu: 0.42, cpu: 0.013}
 *   slots: [{start: ..., resourceSeconds: {...}}]
 *   namespaces: {alice: {resourceSeconds: {...}, slots: [...]}}
 *   reset: "2026-11-27"                    # the reset annotation's value last acted on
 * </pre>
 */
final class QueueUsageStatus {

  /** What a stored status says: the usage (NONE when absent) and the reset last acted on. */
  record Stored(QueueUsage usage, String reset) {
    static final Stored NONE = new Stored(QueueUsage.NONE, null);
  }

  private QueueUsageStatus() {}

  /**
   * The usage object to write.
   *
   * @param clusterShares per resource, the share of the cluster held on average (shown, not read
   *     back)
   */
  static JsonObject toJson(QueueUsage usage, Map<String, Double> clusterShares, String reset) {
    JsonObject json = new JsonObject();
    DecayedUsage queue = usage.queue();
    if (queue.asOf() != null) {
      json.addProperty(QueueStatusFields.USAGE_AS_OF, time(queue.asOf()));
    }
    json.addProperty(QueueStatusFields.USAGE_SUMMARY, summary(clusterShares));
    json.add(QueueStatusFields.USAGE_RESOURCE_SECONDS, amounts(queue.total()));
    JsonObject shares = new JsonObject();
    new TreeMap<>(clusterShares)
        .forEach((name, share) -> shares.addProperty(name, round(share, 1e6)));
    json.add(QueueStatusFields.USAGE_CLUSTER_SHARE, shares);
    json.add(QueueStatusFields.USAGE_SLOTS, slots(queue));
    JsonObject namespaces = new JsonObject();
    usage
        .namespaces()
        .forEach(
            (namespace, namespaceUsage) -> {
              JsonObject entry = new JsonObject();
              entry.add(QueueStatusFields.USAGE_RESOURCE_SECONDS, amounts(namespaceUsage.total()));
              entry.add(QueueStatusFields.USAGE_SLOTS, slots(namespaceUsage));
              namespaces.add(namespace, entry);
            });
    json.add(QueueStatusFields.USAGE_NAMESPACES, namespaces);
    if (reset != null) {
      json.addProperty(QueueStatusFields.USAGE_RESET, reset);
    }
    return json;
  }

  /**
   * {@code "nvidia.com/gpu 42.0%"}: the resource with the largest share of the cluster held on
   * average, and that share; {@code "none"} before anything was held.
   */
  static String summary(Map<String, Double> clusterShares) {
    String most = null;
    double largest = 0;
    for (Map.Entry<String, Double> entry : new TreeMap<>(clusterShares).entrySet()) {
      if (entry.getValue() > largest) {
        largest = entry.getValue();
        most = entry.getKey();
      }
    }
    return most == null ? "none" : String.format(Locale.ROOT, "%s %.1f%%", most, 100 * largest);
  }

  /**
   * Reads a stored status leniently: no usage, or usage that cannot be read, is no history (the
   * problem is returned for the caller to log); the reset value is read whatever the rest holds.
   */
  static Stored read(JsonObject status) throws MalformedUsageException {
    JsonElement element = status == null ? null : status.get(QueueStatusFields.USAGE);
    if (element == null || element.isJsonNull()) {
      return Stored.NONE;
    }
    if (!element.isJsonObject()) {
      throw new MalformedUsageException("status.usage is not an object");
    }
    JsonObject usage = element.getAsJsonObject();
    String reset = text(usage.get(QueueStatusFields.USAGE_RESET));
    JsonElement asOfElement = usage.get(QueueStatusFields.USAGE_AS_OF);
    if (asOfElement == null) {
      return new Stored(QueueUsage.NONE, reset);
    }
    Instant asOf = instant(asOfElement, "status.usage.asOf");
    DecayedUsage queue = decayed(asOf, usage, "status.usage");
    SortedMap<String, DecayedUsage> namespaces = new TreeMap<>();
    JsonElement namespacesElement = usage.get(QueueStatusFields.USAGE_NAMESPACES);
    if (namespacesElement != null && namespacesElement.isJsonObject()) {
      for (Map.Entry<String, JsonElement> entry : namespacesElement.getAsJsonObject().entrySet()) {
        String path = "status.usage.namespaces." + entry.getKey();
        if (!entry.getValue().isJsonObject()) {
          throw new MalformedUsageException(path + " is not an object");
        }
        namespaces.put(entry.getKey(), decayed(asOf, entry.getValue().getAsJsonObject(), path));
      }
    }
    return new Stored(new QueueUsage(queue, namespaces), reset);
  }

  /** Why a stored usage could not be read, naming the field. */
  static final class MalformedUsageException extends Exception {
    MalformedUsageException(String message) {
      super(message);
    }
  }

  /**
   * The merge patch that turns {@code stored} into {@code desired}: objects are merged, so every
   * key stored but no longer desired (a namespace gone, a resource no longer held) is written as
   * null; anything else is replaced.
   */
  static JsonElement mergePatch(JsonElement stored, JsonElement desired) {
    if (desired == null || !desired.isJsonObject() || stored == null || !stored.isJsonObject()) {
      return desired;
    }
    JsonObject patch = new JsonObject();
    JsonObject storedObject = stored.getAsJsonObject();
    for (Map.Entry<String, JsonElement> entry : desired.getAsJsonObject().entrySet()) {
      patch.add(entry.getKey(), mergePatch(storedObject.get(entry.getKey()), entry.getValue()));
    }
    for (String key : storedObject.keySet()) {
      if (!desired.getAsJsonObject().has(key)) {
        patch.add(key, com.google.gson.JsonNull.INSTANCE);
      }
    }
    return patch;
  }

  private static DecayedUsage decayed(Instant asOf, JsonObject json, String path)
      throws MalformedUsageException {
    JsonElement slotsElement = json.get(QueueStatusFields.USAGE_SLOTS);
    List<DecayedUsage.Slot> slots = new ArrayList<>();
    if (slotsElement != null && slotsElement.isJsonArray()) {
      JsonArray array = slotsElement.getAsJsonArray();
      for (int i = 0; i < array.size(); i++) {
        String slotPath = path + ".slots[" + i + "]";
        if (!array.get(i).isJsonObject()) {
          throw new MalformedUsageException(slotPath + " is not an object");
        }
        JsonObject slot = array.get(i).getAsJsonObject();
        Instant start = instant(slot.get(QueueStatusFields.USAGE_SLOT_START), slotPath + ".start");
        slots.add(
            new DecayedUsage.Slot(
                start,
                amounts(
                    slot.get(QueueStatusFields.USAGE_RESOURCE_SECONDS),
                    slotPath + ".resourceSeconds")));
      }
    }
    return new DecayedUsage(asOf, slots);
  }

  private static SortedMap<String, Double> amounts(JsonElement element, String path)
      throws MalformedUsageException {
    SortedMap<String, Double> amounts = new TreeMap<>();
    if (element == null || !element.isJsonObject()) {
      return amounts;
    }
    for (Map.Entry<String, JsonElement> entry : element.getAsJsonObject().entrySet()) {
      double amount;
      try {
        amount = entry.getValue().getAsDouble();
      } catch (RuntimeException e) {
        throw new MalformedUsageException(
            path + "." + entry.getKey() + " is not a number: " + entry.getValue());
      }
      if (!Double.isFinite(amount) || amount < 0) {
        throw new MalformedUsageException(
            path + "." + entry.getKey() + " must be a finite number >= 0, was " + amount);
      }
      amounts.put(entry.getKey(), amount);
    }
    return amounts;
  }

  private static JsonArray slots(DecayedUsage usage) {
    JsonArray slots = new JsonArray();
    for (DecayedUsage.Slot slot : usage.slots()) {
      JsonObject json = new JsonObject();
      json.addProperty(QueueStatusFields.USAGE_SLOT_START, time(slot.start()));
      json.add(QueueStatusFields.USAGE_RESOURCE_SECONDS, amounts(slot.resourceSeconds()));
      slots.add(json);
    }
    return slots;
  }

  private static JsonObject amounts(Map<String, Double> amounts) {
    JsonObject json = new JsonObject();
    amounts.forEach((name, amount) -> json.addProperty(name, round(amount, 1000)));
    return json;
  }

  private static double round(double value, double per) {
    return Math.round(value * per) / per;
  }

  private static String time(Instant instant) {
    return instant.truncatedTo(ChronoUnit.MILLIS).toString();
  }

  private static Instant instant(JsonElement element, String path) throws MalformedUsageException {
    String text = text(element);
    if (text == null) {
      throw new MalformedUsageException(path + " is missing");
    }
    try {
      return OffsetDateTime.parse(text).toInstant();
    } catch (DateTimeParseException e) {
      throw new MalformedUsageException(path + " is not an RFC 3339 time: " + text);
    }
  }

  private static String text(JsonElement element) {
    return element != null && element.isJsonPrimitive() ? element.getAsString() : null;
  }
}
