package io.tyrl.arranger.crd.contract.status;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of {@code status.avoidNodes}: a node whose kubelet refused one of the job's pods. The
 * controller records it; the scheduler places the job's pods elsewhere until {@code until}.
 *
 * @param reason the kubelet's reason for refusing, e.g. {@code OutOfcpu}
 */
public record AvoidedNodeEntry(String node, String reason, Instant until) {

  private static final String NODE = "node";
  private static final String REASON = "reason";
  private static final String UNTIL = "until";

  public AvoidedNodeEntry {
    Objects.requireNonNull(node, "node");
    reason = Objects.requireNonNullElse(reason, "");
    Objects.requireNonNull(until, "until");
  }

  public Map<String, Object> encode() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(NODE, node);
    json.put(REASON, reason);
    json.put(UNTIL, until.toString());
    return json;
  }

  /** As stored; empty when the entry names no node or no time that parses. */
  public static Optional<AvoidedNodeEntry> decode(Object entry) {
    Map<?, ?> json = PlainValues.map(entry);
    Optional<String> node = PlainValues.text(json.get(NODE));
    Optional<Instant> until = PlainValues.instant(json.get(UNTIL));
    if (node.isEmpty() || until.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new AvoidedNodeEntry(
            node.get(), PlainValues.text(json.get(REASON)).orElse(""), until.get()));
  }

  /** The readable entries of {@code status.avoidNodes}. */
  public static List<AvoidedNodeEntry> decodeAll(Object avoidNodes) {
    List<AvoidedNodeEntry> entries = new ArrayList<>();
    PlainValues.maps(avoidNodes).forEach(entry -> decode(entry).ifPresent(entries::add));
    return entries;
  }

  /**
   * {@code status.avoidNodes} as the controller writes it: the whole list, which a merge patch
   * replaces.
   */
  public static List<Object> encodeAll(List<AvoidedNodeEntry> entries) {
    List<Object> json = new ArrayList<>(entries.size());
    entries.forEach(entry -> json.add(entry.encode()));
    return json;
  }
}
