package io.tyrl.arranger.simulator.report;

import io.tyrl.arranger.simulator.metrics.GreedyBound;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.RunSummary;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Configurations run on one trace, side by side: what the report shows.
 *
 * @param parameters what was run, in words (trace, cluster, settings), in display order
 */
public record Comparison(
    String title,
    Map<String, String> parameters,
    GreedyBound bound,
    List<RunRecord> runs,
    List<RunSummary> summaries) {

  public Comparison {
    parameters = new LinkedHashMap<>(parameters);
    runs = List.copyOf(runs);
    summaries = List.copyOf(summaries);
    if (runs.size() != summaries.size()) {
      throw new IllegalArgumentException("one summary per run expected");
    }
  }

  /** The latest time any run reached. */
  double endSeconds() {
    return runs.stream().mapToDouble(RunRecord::endSeconds).max().orElse(0);
  }
}
