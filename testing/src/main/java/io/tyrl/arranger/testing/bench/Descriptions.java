package io.tyrl.arranger.testing.bench;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * How the progress lines and the report describe a run's writes, CPU seconds, heap peaks and the
 * API server's time.
 */
final class Descriptions {

  private Descriptions() {}

  static String cpu(PhaseRun run) {
    return "CPU s: "
        + run.cpuSeconds().entrySet().stream()
            .map(e -> e.getKey() + " " + Report.num(e.getValue(), 1))
            .collect(Collectors.joining(", "))
        + " (of "
        + Report.num(2 * run.seconds(), 1)
        + " on 2 cores)";
  }

  /** Writes by verb and resource, the most first. */
  static String writes(Map<String, Double> writes) {
    return writes.entrySet().stream()
        .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
        .map(e -> e.getKey() + " " + Report.num(e.getValue(), 0))
        .collect(Collectors.joining(", "));
  }

  static String mebibytes(Map<String, Double> peaks) {
    return peaks.entrySet().stream()
        .map(e -> e.getKey() + " " + Report.num(e.getValue(), 0) + " MiB")
        .collect(Collectors.joining(", "));
  }

  /**
   * Where the API server's time went between two scrapes: request time by verb and resource
   * (apiserver_request_duration_seconds_sum, wall time summed over concurrent requests,
   * long-running watches excluded) and watch events sent by kind, with their bytes.
   */
  static String apiServerTime(PromText before, PromText after) {
    Map<String, Double> time =
        PromText.diff(
            before.sumBy(
                "apiserver_request_duration_seconds_sum",
                "verb",
                "group",
                "resource",
                "subresource"),
            after.sumBy(
                "apiserver_request_duration_seconds_sum",
                "verb",
                "group",
                "resource",
                "subresource"));
    time.keySet().removeIf(key -> key.startsWith("WATCH"));
    Map<String, Double> events =
        PromText.diff(
            before.sumBy("apiserver_watch_events_total", "kind"),
            after.sumBy("apiserver_watch_events_total", "kind"));
    Map<String, Double> bytes =
        PromText.diff(
            before.sumBy("apiserver_watch_events_sizes_sum", "kind"),
            after.sumBy("apiserver_watch_events_sizes_sum", "kind"));
    String requestTime =
        time.entrySet().stream()
            .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
            .limit(8)
            .map(e -> e.getKey() + " " + Report.num(e.getValue(), 1) + " s")
            .collect(Collectors.joining(", "));
    String watch =
        events.entrySet().stream()
            .sorted(Map.Entry.<String, Double>comparingByValue().reversed())
            .limit(6)
            .map(
                e ->
                    e.getKey()
                        + " "
                        + Report.num(e.getValue(), 0)
                        + " events / "
                        + Report.num(bytes.getOrDefault(e.getKey(), 0.0) / (1 << 20), 1)
                        + " MiB")
            .collect(Collectors.joining(", "));
    return "kube-apiserver request time: " + requestTime + "; watch events sent: " + watch;
  }
}
