package io.tyrl.arranger.testing.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Scrapes Prometheus endpoints of the processes under test in the background: the peak of a gauge
 * (heap in use, resident memory) and, for the Arranger scheduler, the duration of each cycle, read
 * from the change of a timer's {@code _count}/{@code _sum} between scrapes (the scrape interval is
 * shorter than the scheduler's period, so almost every change is exactly one cycle).
 */
final class Sampler implements AutoCloseable {

  /** One endpoint: its text, and what to keep from it. */
  record Target(
      String name,
      Supplier<String> scrape,
      String peakMetric,
      Map<String, String> peakLabels,
      List<String> timers) {}

  private final List<Target> targets;
  private final Duration interval;
  private final Map<String, Double> peaks = new ConcurrentHashMap<>();
  private final Map<String, List<Double>> observations = new ConcurrentHashMap<>();
  private final Map<String, double[]> last = new ConcurrentHashMap<>();
  private final Map<String, PromText> lastText = new ConcurrentHashMap<>();
  private final Thread thread;
  private volatile boolean closed;

  Sampler(List<Target> targets, Duration interval) {
    this.targets = targets;
    this.interval = interval;
    targets.forEach(target -> scrape(target, true));
    thread = new Thread(this::run, "bench-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  private void run() {
    while (!closed) {
      try {
        Thread.sleep(interval.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      targets.forEach(target -> scrape(target, false));
    }
  }

  private void scrape(Target target, boolean first) {
    String text;
    try {
      text = target.scrape().get();
    } catch (RuntimeException e) {
      return;
    }
    if (text == null) {
      return;
    }
    PromText prom = PromText.parse(text);
    lastText.put(target.name(), prom);
    double peak =
        prom.sum(
            target.peakMetric(),
            labels ->
                target.peakLabels().entrySet().stream()
                    .allMatch(e -> e.getValue().equals(labels.get(e.getKey()))));
    if (!Double.isNaN(peak)) {
      peaks.merge(target.name(), peak, Math::max);
    }
    for (String timer : target.timers()) {
      double count = prom.sum(timer + "_count");
      double sum = prom.sum(timer + "_sum");
      if (Double.isNaN(count)) {
        continue;
      }
      String key = target.name() + "/" + timer;
      double[] previous = last.put(key, new double[] {count, sum});
      if (!first && previous != null && count > previous[0]) {
        double cycles = count - previous[0];
        double mean = (sum - previous[1]) / cycles;
        List<Double> list =
            observations.computeIfAbsent(
                key, k -> java.util.Collections.synchronizedList(new ArrayList<>()));
        for (int i = 0; i < cycles; i++) {
          list.add(mean);
        }
      }
    }
  }

  /** Scrapes once more now, so that the end of the phase is in. */
  void finish() {
    closed = true;
    thread.interrupt();
    try {
      thread.join(5000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    targets.forEach(target -> scrape(target, false));
  }

  double peak(String target) {
    return peaks.getOrDefault(target, Double.NaN);
  }

  /** Per-cycle durations (seconds) seen for a target's timer during the phase. */
  List<Double> observations(String target, String timer) {
    return List.copyOf(observations.getOrDefault(target + "/" + timer, List.of()));
  }

  PromText lastText(String target) {
    return lastText.get(target);
  }

  @Override
  public void close() {
    closed = true;
    thread.interrupt();
  }
}
