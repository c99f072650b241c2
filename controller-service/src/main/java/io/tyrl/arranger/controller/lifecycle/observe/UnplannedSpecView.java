package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Fields of {@code TYJob.spec} the lifecycle does not act on — the scheduler's, and the volumes the
 * adapter adds to every pod — but validates against the shared bounds, so that the controller and
 * the scheduler refuse the same jobs. {@code null} means absent.
 *
 * @param volumeNames {@code spec.volumes[].name}, in order (an entry is {@code null} when absent)
 */
public record UnplannedSpecView(
    Long priority, String queue, String gangWaitTime, String gangGroup, List<String> volumeNames) {

  public UnplannedSpecView {
    volumeNames =
        volumeNames == null
            ? List.of()
            : Collections.unmodifiableList(new ArrayList<>(volumeNames));
  }

  /** Nothing set: every field absent. */
  public static UnplannedSpecView none() {
    return new UnplannedSpecView(null, null, null, null, List.of());
  }
}
