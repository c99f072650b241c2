package io.tyrl.arranger.scheduler.framework;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Why no node fits a task: how many nodes rejected it for each reason (each node counted once, by
 * its first reason).
 */
public record FitDiagnosis(int totalNodes, int fittingNodes, Map<String, Integer> rejections) {

  public FitDiagnosis {
    rejections = Map.copyOf(new TreeMap<>(rejections));
  }

  /** {@code 0/40 nodes fit actor: 31 Insufficient nvidia.com/gpu, 9 untolerated taint gpu=a100}. */
  public String describe(String subject) {
    if (totalNodes == 0) {
      return "no nodes to fit " + subject;
    }
    List<Map.Entry<String, Integer>> entries = new ArrayList<>(rejections.entrySet());
    entries.sort(
        (a, b) ->
            a.getValue().equals(b.getValue())
                ? a.getKey().compareTo(b.getKey())
                : b.getValue() - a.getValue());
    StringBuilder text =
        new StringBuilder()
            .append(fittingNodes)
            .append('/')
            .append(totalNodes)
            .append(" nodes fit ")
            .append(subject);
    String separator = ": ";
    for (Map.Entry<String, Integer> entry : entries) {
      text.append(separator).append(entry.getValue()).append(' ').append(entry.getKey());
      separator = ", ";
    }
    return text.toString();
  }
}
