package io.tyrl.arranger.testing.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/** The benchmark's arithmetic and its table: medians, percentiles, ratios and fixed-width rows. */
public final class Report {

  private final List<String> header;
  private final List<List<String>> rows = new ArrayList<>();

  public Report(String... header) {
    this.header = List.of(header);
  }

  public Report row(String... cells) {
    if (cells.length != header.size()) {
      throw new IllegalArgumentException(
          "row of " + cells.length + " cells for " + header.size() + " columns");
    }
    rows.add(List.of(cells));
    return this;
  }

  /** A Markdown-style table with every column padded to its widest cell. */
  public String render() {
    int[] widths = new int[header.size()];
    List<List<String>> all = new ArrayList<>();
    all.add(header);
    all.addAll(rows);
    for (List<String> row : all) {
      for (int i = 0; i < row.size(); i++) {
        widths[i] = Math.max(widths[i], row.get(i).length());
      }
    }
    StringBuilder out = new StringBuilder();
    appendRow(out, header, widths);
    List<String> rule = new ArrayList<>();
    for (int width : widths) {
      rule.add("-".repeat(width));
    }
    appendRow(out, rule, widths);
    rows.forEach(row -> appendRow(out, row, widths));
    return out.toString();
  }

  private static void appendRow(StringBuilder out, List<String> cells, int[] widths) {
    out.append('|');
    for (int i = 0; i < cells.size(); i++) {
      String cell = cells.get(i);
      out.append(' ').append(cell).append(" ".repeat(widths[i] - cell.length())).append(" |");
    }
    out.append('\n');
  }

  /** The median (the mean of the middle two for an even count); NaN for none. */
  public static double median(Collection<Double> values) {
    List<Double> sorted = values.stream().filter(v -> !Double.isNaN(v)).sorted().toList();
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int n = sorted.size();
    return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
  }

  /** The q-quantile by nearest rank (q in [0,1]); NaN for none. */
  public static double quantile(Collection<Double> values, double q) {
    List<Double> sorted = values.stream().filter(v -> !Double.isNaN(v)).sorted().toList();
    if (sorted.isEmpty()) {
      return Double.NaN;
    }
    int rank = (int) Math.ceil(q * sorted.size());
    return sorted.get(Math.min(sorted.size() - 1, Math.max(0, rank - 1)));
  }

  public static double ratio(double numerator, double denominator) {
    return denominator == 0 || Double.isNaN(denominator) ? Double.NaN : numerator / denominator;
  }

  /** A number with the given decimals, or "n/a". */
  public static String num(double value, int decimals) {
    return Double.isNaN(value) || Double.isInfinite(value)
        ? "n/a"
        : String.format(Locale.ROOT, "%." + decimals + "f", value);
  }

  /** Each run's value, e.g. "812 / 790 / 845". */
  public static String runs(List<Double> values, int decimals) {
    return values.stream().map(v -> num(v, decimals)).collect(Collectors.joining(" / "));
  }

  /**
   * What Arranger's placements cost the API server, medians over the runs.
   *
   * @param requestsPerPod every API request but watches, by everyone, per pod
   * @param tyJobWritesPerJob TYJob writes (status above all) by the services, per job
   * @param eventsPerJob Events written (created or counted again) per job
   * @param cycleP99Millis the scheduler's cycle p99 during the burst
   */
  public record Cost(
      double requestsPerPod,
      double tyJobWritesPerJob,
      double eventsPerJob,
      double cycleP99Millis) {}

  /**
   * Pods per second of each way of doing the same work, medians over the runs; NaN for a phase not
   * run.
   *
   * @param arranger both services, TYJobs in, pods placed
   * @param jobsPath batch/v1 Jobs through kube-controller-manager's Job controller and
   *     kube-scheduler
   * @param kubeScheduler plain pods the benchmark creates, bound by kube-scheduler
   * @param ceiling pods with their node preset, nothing decided
   * @param podsOnly pods shaped as Arranger's, nodes preset, both services watching
   */
  public record Rates(
      double arranger, double jobsPath, double kubeScheduler, double ceiling, double podsOnly) {}

  /** The last line, the one scripts read. */
  public static String summaryLine(int nodes, int pods, Rates rates, Cost cost) {
    return ("e2e nodes=%d pods=%d arranger=%s jobs-path=%s kube-scheduler=%s ceiling=%s pods-only=%s"
            + " api-requests-per-pod=%s tyjob-writes-per-job=%s events-per-job=%s cycle-p99-ms=%s")
        .formatted(
            nodes,
            pods,
            num(rates.arranger(), 0),
            num(rates.jobsPath(), 0),
            num(rates.kubeScheduler(), 0),
            num(rates.ceiling(), 0),
            num(rates.podsOnly(), 0),
            num(cost.requestsPerPod(), 2),
            num(cost.tyJobWritesPerJob(), 2),
            num(cost.eventsPerJob(), 2),
            num(cost.cycleP99Millis(), 0));
  }

  /**
   * The big job's line: one TYJob of {@code actors} actors, seconds from its create until every pod
   * was Running (median), and each run's.
   */
  public static String bigJobLine(int actors, double seconds, String eachRun) {
    return "big-job actors=%d seconds-to-all-running=%s (runs: %s)"
        .formatted(actors, num(seconds, 1), eachRun);
  }

  /**
   * The line that bounds what Arranger can reach here: pods shaped as Arranger's, created with
   * their nodes preset while both services watch, per second, and that rate over the ceiling's and
   * kube-scheduler's of the same run.
   */
  public static String floorLine(
      int nodes, int pods, double podsOnly, double kubeScheduler, double ceiling) {
    return "floor nodes=%d pods=%d pods-only=%s pods-only-per-ceiling=%s pods-only-per-kube-scheduler=%s"
        .formatted(
            nodes,
            pods,
            num(podsOnly, 0),
            num(ratio(podsOnly, ceiling), 2),
            num(ratio(podsOnly, kubeScheduler), 2));
  }
}
