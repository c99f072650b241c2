package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.ArrangerResources;
import io.tyrl.arranger.model.V1alpha1TYJob;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Prints every TYJob's stage as it changes, until all have ended or the time is up. */
final class JobProgress {

  private JobProgress() {}

  /**
   * @return true if every job ended (Succeeded or Failed) in time
   */
  static boolean follow(ApiClient client, Duration timeout) throws InterruptedException {
    Instant deadline = Instant.now().plus(timeout);
    Map<String, String> last = new TreeMap<>();
    while (true) {
      List<V1alpha1TYJob> jobs;
      try {
        jobs = ArrangerResources.tyJobs(client).list().throwsApiException().getObject().getItems();
      } catch (Exception e) {
        System.out.println("cannot list TYJobs: " + e.getMessage());
        Thread.sleep(1000);
        continue;
      }
      Map<String, String> now = new TreeMap<>();
      for (V1alpha1TYJob job : jobs) {
        now.put(
            job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(), describe(job));
      }
      now.forEach(
          (job, state) -> {
            if (!state.equals(last.get(job))) {
              System.out.printf("  %-40s %s%n", job, state);
            }
          });
      last.clear();
      last.putAll(now);
      long open =
          now.values().stream()
              .filter(s -> !s.startsWith("Succeeded") && !s.startsWith("Failed"))
              .count();
      if (open == 0) {
        System.out.printf("all %d jobs have ended%n", now.size());
        return true;
      }
      if (Instant.now().isAfter(deadline)) {
        System.out.printf(
            "%d of %d jobs had not ended after %d s:%n", open, now.size(), timeout.toSeconds());
        now.forEach(
            (job, state) -> {
              if (!state.startsWith("Succeeded") && !state.startsWith("Failed")) {
                System.out.printf("  %-40s %s%n", job, state);
              }
            });
        return false;
      }
      Thread.sleep(1000);
    }
  }

  private static String describe(V1alpha1TYJob job) {
    var status = job.getStatus();
    if (status == null) {
      return "(new)";
    }
    String stage = status.getStage() == null ? "-" : status.getStage().getValue();
    String schedule =
        status.getScheduleState() == null ? "-" : status.getScheduleState().getValue();
    String why =
        status.getScheduling() == null || status.getScheduling().getReason() == null
            ? ""
            : "  "
                + status.getScheduling().getReason()
                + ": "
                + status.getScheduling().getMessage();
    return stage
        + " ("
        + schedule
        + ")"
        + (stage.equals("Succeeded") || stage.equals("Failed") ? "" : why);
  }
}
