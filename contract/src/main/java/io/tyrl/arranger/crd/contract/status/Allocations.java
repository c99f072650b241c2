package io.tyrl.arranger.crd.contract.status;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code status.allocations}: pod name → the node the scheduler placed it on. */
public final class Allocations {

  private Allocations() {}

  /** The placements as stored; an entry whose node is not a scalar is left out. */
  public static Map<String, String> decode(Object allocations) {
    Map<String, String> decoded = new LinkedHashMap<>();
    PlainValues.map(allocations)
        .forEach(
            (pod, node) ->
                PlainValues.text(node).ifPresent(text -> decoded.put(String.valueOf(pod), text)));
    return decoded;
  }

  /**
   * A merge patch of single placements: pod → node, or pod → {@code null} to give the placement
   * back. Keys not named are left as they are, so the two services never overwrite each other's
   * changes.
   */
  public static Map<String, Object> patch(Map<String, String> changes) {
    return new LinkedHashMap<>(changes);
  }
}
