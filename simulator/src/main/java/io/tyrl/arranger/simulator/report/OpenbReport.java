package io.tyrl.arranger.simulator.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The openb replay's report: one HTML file (opens offline) with the GPU allocation ratio against
 * the GPU demand arrived, each measured configuration as a solid curve and each published policy of
 * the paper dashed, and the same numbers as {@code openb.csv}.
 */
public final class OpenbReport {

  /** One curve: the allocation ratio (%) at each arrived share (%). */
  public record Series(String name, int[] arrivedPercent, double[] allocatedPercent) {}

  private OpenbReport() {}

  public static void write(
      Path directory,
      String trace,
      String workloadNote,
      List<Series> measured,
      List<Series> published) {
    try {
      Files.createDirectories(directory);
      Files.writeString(
          directory.resolve("report.html"),
          render(trace, workloadNote, measured, published),
          StandardCharsets.UTF_8);
      Files.writeString(
          directory.resolve("openb.csv"), csv(measured, published), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the openb report to " + directory, e);
    }
  }

  static String csv(List<Series> measured, List<Series> published) {
    StringBuilder out = new StringBuilder("source,policy,arrived_pct,alloc_mean\n");
    for (Series series : measured) {
      append(out, "arranger", series);
    }
    for (Series series : published) {
      append(out, "paper", series);
    }
    return out.toString();
  }

  private static void append(StringBuilder out, String source, Series series) {
    for (int i = 0; i < series.arrivedPercent().length; i++) {
      out.append(source)
          .append(',')
          .append(series.name())
          .append(',')
          .append(series.arrivedPercent()[i])
          .append(',')
          .append(String.format(Locale.ROOT, "%.3f", series.allocatedPercent()[i]))
          .append('\n');
    }
  }

  static String render(
      String trace, String workloadNote, List<Series> measured, List<Series> published) {
    List<ChartSpec.Dataset> datasets = new ArrayList<>();
    for (Series series : measured) {
      datasets.add(dataset(series, false));
    }
    for (Series series : published) {
      datasets.add(dataset(series, true));
    }
    ChartSpec chart =
        ChartSpec.line(
            "openb-allocation",
            "GPU allocation ratio against GPU demand arrived, trace " + trace,
            "GPU demand arrived (% of capacity)",
            "GPUs allocated (% of capacity)",
            datasets);
    String title = "openb replay: " + trace;
    StringBuilder html = new StringBuilder(400_000);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(HtmlReport.escape(title))
        .append("</title>\n<style>\n")
        .append(HtmlReport.STYLE)
        .append("</style>\n</head>\n<body>\n<h1>")
        .append(HtmlReport.escape(title))
        .append("</h1>\n<p class=\"note\">Workloads: ")
        .append(HtmlReport.escape(workloadNote))
        .append(". Solid: Arranger's configurations, through the scheduler's core; dashed: the")
        .append(
            " FGD paper's published policies. The protocol and every figure: docs/simulator.md.")
        .append("</p>\n<section><h2>")
        .append(HtmlReport.escape(chart.title()))
        .append("</h2><div class=\"chart\"><canvas id=\"")
        .append(HtmlReport.escape(chart.id()))
        .append("\" data-chart></canvas></div></section>\n");
    html.append("<script>\n").append(HtmlReport.chartJs()).append("\n</script>\n");
    html.append("<script type=\"application/json\" id=\"chart-data\">[")
        .append(chart.toJson())
        .append("]</script>\n");
    html.append("<script>\n")
        .append(HtmlReport.PAGE_SCRIPT)
        .append("</script>\n</body>\n</html>\n");
    return html.toString();
  }

  private static ChartSpec.Dataset dataset(Series series, boolean dashed) {
    double[] xs = new double[series.arrivedPercent().length];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = series.arrivedPercent()[i];
    }
    return new ChartSpec.Dataset(
        (dashed ? "paper " : "") + series.name(), xs, series.allocatedPercent(), dashed, false);
  }
}
