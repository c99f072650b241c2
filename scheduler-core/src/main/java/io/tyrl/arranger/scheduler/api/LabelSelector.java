package io.tyrl.arranger.scheduler.api;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A Kubernetes label selector: every {@code matchLabels} pair and every {@code matchExpressions}
 * requirement must hold (operators In, NotIn, Exists, DoesNotExist). An empty selector matches
 * every pod, as in Kubernetes; a term without a selector is given {@link #NOTHING}.
 */
public record LabelSelector(
    Map<String, String> matchLabels,
    List<NodeSelectorRequirement> matchExpressions,
    boolean matchesNothing) {

  public static final LabelSelector EVERYTHING = new LabelSelector(Map.of(), List.of(), false);
  public static final LabelSelector NOTHING = new LabelSelector(Map.of(), List.of(), true);

  public LabelSelector {
    matchLabels =
        matchLabels == null
            ? Map.of()
            : java.util.Collections.unmodifiableMap(new TreeMap<>(matchLabels));
    matchExpressions = matchExpressions == null ? List.of() : List.copyOf(matchExpressions);
  }

  public static LabelSelector of(
      Map<String, String> matchLabels, List<NodeSelectorRequirement> matchExpressions) {
    return new LabelSelector(matchLabels, matchExpressions, false);
  }

  public static LabelSelector matchLabels(String... keyValues) {
    Map<String, String> labels = new TreeMap<>();
    for (int i = 0; i + 1 < keyValues.length; i += 2) {
      labels.put(keyValues[i], keyValues[i + 1]);
    }
    return of(labels, List.of());
  }

  public boolean matches(Map<String, String> labels) {
    if (matchesNothing) {
      return false;
    }
    for (Map.Entry<String, String> entry : matchLabels.entrySet()) {
      if (!entry.getValue().equals(labels.get(entry.getKey()))) {
        return false;
      }
    }
    for (NodeSelectorRequirement requirement : matchExpressions) {
      if (!requirement.matches(labels)) {
        return false;
      }
    }
    return true;
  }
}
