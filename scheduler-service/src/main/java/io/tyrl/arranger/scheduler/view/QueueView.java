package io.tyrl.arranger.scheduler.view;

import io.tyrl.arranger.scheduler.api.Resource;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * A queue at the end of the last cycle, as its status reports it.
 *
 * @param parent null at the top level
 * @param depth 0 at the top level, so a page can indent the tree
 * @param treeProblem why its place in the tree is invalid; null when it is valid
 * @param usage its past usage in resource-hours, decayed (fairness over time): {@code
 *     "nvidia.com/gpu 12.3 h · cpu 40.0 h"}; null without history
 */
public record QueueView(
    String name,
    String parent,
    int depth,
    boolean overused,
    int pendingJobs,
    int inqueueJobs,
    int runningJobs,
    String treeProblem,
    List<ResourceBar> resources,
    String usage) {

  public QueueView {
    resources = List.copyOf(resources);
  }

  /**
   * Resource-hours per resource counted in units (GPUs, cores, pods of a device plugin): bytes of
   * memory or storage held for hours read as noise beside them, and are left out.
   */
  static String usage(Map<String, Double> resourceSeconds) {
    StringBuilder text = new StringBuilder();
    new TreeMap<>(resourceSeconds)
        .forEach(
            (resource, seconds) -> {
              if (!resource.equals(Resource.MEMORY)
                  && !resource.equals(Resource.EPHEMERAL_STORAGE)) {
                text.append(text.isEmpty() ? "" : " · ")
                    .append(String.format(Locale.ROOT, "%s %.1f h", resource, seconds / 3600));
              }
            });
    return text.isEmpty() ? null : text.toString();
  }
}
