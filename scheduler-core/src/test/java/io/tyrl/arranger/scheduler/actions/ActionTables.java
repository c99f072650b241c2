package io.tyrl.arranger.scheduler.actions;

import io.tyrl.arranger.scheduler.api.CycleResult;
import io.tyrl.arranger.scheduler.api.Victim;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Reads a cycle's victims in the shape the preempt and reclaim tables expect them. */
final class ActionTables {

  private ActionTables() {}

  /**
   * Preemptor job key → victim job name → its evicted pods, sorted and comma-separated, prefixed
   * {@code whole:} when the whole job goes.
   */
  static Map<String, Map<String, String>> victims(CycleResult result) {
    Map<String, Map<String, String>> byPreemptor = new TreeMap<>();
    result
        .victims()
        .forEach(
            (preemptor, victims) -> {
              Map<String, String> byJob = new TreeMap<>();
              for (Victim victim : victims) {
                List<String> pods = new ArrayList<>(victim.pods());
                pods.sort(String::compareTo);
                byJob.put(
                    victim.job(), (victim.wholeJob() ? "whole:" : "") + String.join(",", pods));
              }
              byPreemptor.put(preemptor, byJob);
            });
    return byPreemptor;
  }
}
