package io.tyrl.arranger.simulator.report;

import io.tyrl.arranger.simulator.metrics.AllocationPoint;
import io.tyrl.arranger.simulator.metrics.DeservedShares;
import io.tyrl.arranger.simulator.metrics.JobOutcome;
import io.tyrl.arranger.simulator.metrics.QueueSummary;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.RunSummary;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Properties;

/**
 * Writes the comparison as one HTML file that opens with no network: Chart.js (from its webjar on
 * the classpath) and the data are inlined. Once the page has drawn, each chart's canvas carries
 * {@code data-rendered-points} (the points Chart.js laid out) and {@code data-painted-pixels}
 * (opaque pixels sampled from its plot area: lines and bars, not the faint grid), and the body
 * carries {@code data-charts-rendered}; a browser test reads them.
 */
public final class HtmlReport {

  /** Points per line on the time charts; the CSV keeps every point. */
  static final int BUCKETS = 600;

  private static final int CDF_POINTS = 200;

  private HtmlReport() {}

  public static void write(Comparison comparison, Path file) {
    try {
      Path parent = file.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(file, render(comparison), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write report " + file, e);
    }
  }

  static String render(Comparison comparison) {
    List<ChartSpec> charts = charts(comparison);
    StringBuilder chartJson = new StringBuilder("[");
    for (int i = 0; i < charts.size(); i++) {
      chartJson.append(i > 0 ? ",\n" : "").append(charts.get(i).toJson());
    }
    chartJson.append(']');
    StringBuilder html = new StringBuilder(400_000);
    html.append("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>")
        .append(escape(comparison.title()))
        .append("</title>\n<style>\n")
        .append(STYLE)
        .append("</style>\n</head>\n<body>\n")
        .append("<h1>")
        .append(escape(comparison.title()))
        .append("</h1>\n");
    html.append("<table class=\"parameters\">\n");
    comparison
        .parameters()
        .forEach(
            (key, value) ->
                html.append("<tr><th>")
                    .append(escape(key))
                    .append("</th><td>")
                    .append(escape(value))
                    .append("</td></tr>\n"));
    html.append("</table>\n");
    html.append(summaryTable(comparison));
    html.append(
            "<p class=\"note\">Definitions of every figure: docs/simulator.md. Time charts show ")
        .append(BUCKETS)
        .append(
            " time-weighted buckets per line; the CSV next to this file has every point.</p>\n");
    for (ChartSpec chart : charts) {
      html.append("<section><h2>")
          .append(escape(chart.title()))
          .append("</h2><div class=\"chart\"><canvas id=\"")
          .append(escape(chart.id()))
          .append("\" data-chart></canvas></div></section>\n");
    }
    html.append("<script>\n").append(chartJs()).append("\n</script>\n");
    html.append("<script type=\"application/json\" id=\"chart-data\">")
        .append(chartJson)
        .append("</script>\n");
    html.append("<script>\n").append(PAGE_SCRIPT).append("</script>\n</body>\n</html>\n");
    return html.toString();
  }

  static List<ChartSpec> charts(Comparison comparison) {
    double end = comparison.endSeconds();
    List<ChartSpec> charts = new ArrayList<>();
    List<ChartSpec.Dataset> gpu = new ArrayList<>();
    List<ChartSpec.Dataset> cpu = new ArrayList<>();
    List<ChartSpec.Dataset> reserved = new ArrayList<>();
    for (RunRecord run : comparison.runs()) {
      gpu.add(
          timeLine(
              run.variant(),
              run,
              end,
              point -> 100.0 * point.startedGpu() / run.capacityGpu(),
              false));
      cpu.add(
          timeLine(
              run.variant(),
              run,
              end,
              point -> 100.0 * point.startedMilliCpu() / run.capacityMilliCpu(),
              false));
      reserved.add(
          timeLine(
              run.variant(),
              run,
              end,
              point -> 100.0 * point.reservedGpu() / run.capacityGpu(),
              false));
    }
    double[] boundPercent =
        Arrays.stream(comparison.bound().gpus())
            .map(value -> 100.0 * value / comparison.bound().capacityGpu())
            .toArray();
    gpu.add(
        hours(
            "greedy bound",
            Downsampling.bucketMeans(comparison.bound().times(), boundPercent, end, BUCKETS),
            true));
    charts.add(
        ChartSpec.line(
            "gpu-allocation",
            "GPUs held by started jobs (% of the cluster's)",
            "hours",
            "% of GPUs",
            gpu));
    charts.add(
        ChartSpec.line(
            "cpu-allocation",
            "CPU held by started jobs (% of the cluster's)",
            "hours",
            "% of cpu",
            cpu));
    charts.add(
        ChartSpec.line(
            "gpu-reserved",
            "GPUs held by jobs still waiting for their gang minimum (%)",
            "hours",
            "% of GPUs",
            reserved));
    for (RunRecord run : comparison.runs()) {
      charts.add(shareChart(run, end));
      if (DeservedShares.of(run).depth() > 1) {
        charts.add(innerQueueChart(run, end));
      }
    }
    charts.add(waitChart(comparison));
    charts.add(completionChart(comparison));
    return charts;
  }

  private static ChartSpec shareChart(RunRecord run, double end) {
    int queues = run.queues().size();
    int n = run.points().size();
    double[] times = new double[n];
    double[][] held = new double[queues][n];
    double[][] deserved = new double[queues][n];
    int[] weights = run.queueWeights().stream().mapToInt(Integer::intValue).toArray();
    DeservedShares shares = DeservedShares.of(run);
    for (int i = 0; i < n; i++) {
      AllocationPoint point = run.points().get(i);
      times[i] = point.seconds();
      double[] fair = shares.leaves(point);
      for (int q = 0; q < queues; q++) {
        held[q][i] = 100.0 * point.queueHeldGpu()[q] / run.capacityGpu();
        deserved[q][i] = 100.0 * fair[q] / run.capacityGpu();
      }
    }
    List<ChartSpec.Dataset> datasets = new ArrayList<>();
    for (int q = 0; q < queues; q++) {
      String queue = run.queues().get(q) + " (weight " + weights[q] + ")";
      datasets.add(
          hours(queue + " held", Downsampling.bucketMeans(times, held[q], end, BUCKETS), false));
      datasets.add(
          hours(
              queue + " deserved",
              Downsampling.bucketMeans(times, deserved[q], end, BUCKETS),
              true));
    }
    return ChartSpec.line(
        "queue-share-" + run.variant(),
        "Queues' GPUs, held and deserved (% of the cluster's) — " + run.variant(),
        "hours",
        "% of GPUs",
        datasets);
  }

  /**
   * The queues with children, each its subtree's GPUs held against its fair share ({@link
   * io.tyrl.arranger.simulator.metrics.TreeFairShare}).
   */
  private static ChartSpec innerQueueChart(RunRecord run, double end) {
    DeservedShares shares = DeservedShares.of(run);
    List<DeservedShares.QueueLabel> queues = shares.queues();
    int n = run.points().size();
    double[] times = new double[n];
    double[][] held = new double[queues.size()][n];
    double[][] fair = new double[queues.size()][n];
    for (int i = 0; i < n; i++) {
      AllocationPoint point = run.points().get(i);
      times[i] = point.seconds();
      DeservedShares.QueuePoint all = shares.allQueues(point);
      for (int q = 0; q < queues.size(); q++) {
        held[q][i] = 100.0 * all.held()[q] / run.capacityGpu();
        fair[q][i] = 100.0 * all.fair()[q] / run.capacityGpu();
      }
    }
    List<ChartSpec.Dataset> datasets = new ArrayList<>();
    for (int q = 0; q < queues.size(); q++) {
      DeservedShares.QueueLabel queue = queues.get(q);
      if (queue.leaf()) {
        continue;
      }
      String label =
          queue.name()
              + " (weight "
              + queue.weight()
              + ", guarantee "
              + queue.guaranteeGpu()
              + " GPUs)";
      datasets.add(
          hours(label + " held", Downsampling.bucketMeans(times, held[q], end, BUCKETS), false));
      datasets.add(
          hours(
              label + " fair share", Downsampling.bucketMeans(times, fair[q], end, BUCKETS), true));
    }
    return ChartSpec.line(
        "queue-share-inner-" + run.variant(),
        "Queues with children: their subtrees' GPUs, held and fair share (% of the cluster's) — "
            + run.variant(),
        "hours",
        "% of GPUs",
        datasets);
  }

  private static ChartSpec waitChart(Comparison comparison) {
    List<String> categories = new ArrayList<>();
    categories.add("all queues");
    RunSummary first = comparison.summaries().get(0);
    first.queues().forEach(queue -> categories.add(queue.queue()));
    List<ChartSpec.Dataset> datasets = new ArrayList<>();
    for (RunSummary summary : comparison.summaries()) {
      double[] p50 = new double[categories.size()];
      double[] p95 = new double[categories.size()];
      p50[0] = summary.waitP50();
      p95[0] = summary.waitP95();
      for (int q = 0; q < summary.queues().size(); q++) {
        QueueSummary queue = summary.queues().get(q);
        p50[q + 1] = queue.waitP50();
        p95[q + 1] = queue.waitP95();
      }
      datasets.add(
          new ChartSpec.Dataset(summary.variant() + " p50", new double[0], p50, false, false));
      datasets.add(
          new ChartSpec.Dataset(summary.variant() + " p95", new double[0], p95, false, false));
    }
    return ChartSpec.bar(
        "queueing-delay",
        "Queueing delay (submit → minimum placed), seconds",
        "seconds",
        categories,
        datasets);
  }

  private static ChartSpec completionChart(Comparison comparison) {
    List<ChartSpec.Dataset> datasets = new ArrayList<>();
    for (RunRecord run : comparison.runs()) {
      double[] jct =
          run.jobs().stream()
              .filter(JobOutcome::hasFinished)
              .mapToDouble(job -> (job.finished() - job.submitted()) / 3600)
              .sorted()
              .toArray();
      int points = Math.min(CDF_POINTS, jct.length);
      double[] xs = new double[points];
      double[] ys = new double[points];
      for (int i = 0; i < points; i++) {
        int index = (int) Math.round((double) (i + 1) * jct.length / points) - 1;
        xs[i] = jct[index];
        ys[i] = 100.0 * (index + 1) / run.jobs().size();
      }
      datasets.add(new ChartSpec.Dataset(run.variant(), xs, ys, false, false));
    }
    return ChartSpec.line(
        "completion-times",
        "Job completion time (submit → end): % of all jobs done within",
        "hours",
        "% of jobs",
        datasets);
  }

  private interface PointValue {
    double of(AllocationPoint point);
  }

  private static ChartSpec.Dataset timeLine(
      String label, RunRecord run, double end, PointValue value, boolean dashed) {
    int n = run.points().size();
    double[] times = new double[n];
    double[] values = new double[n];
    for (int i = 0; i < n; i++) {
      times[i] = run.points().get(i).seconds();
      values[i] = value.of(run.points().get(i));
    }
    return hours(label, Downsampling.bucketMeans(times, values, end, BUCKETS), dashed);
  }

  private static ChartSpec.Dataset hours(String label, double[][] series, boolean dashed) {
    double[] xs = Arrays.stream(series[0]).map(seconds -> seconds / 3600).toArray();
    return new ChartSpec.Dataset(label, xs, series[1], dashed, true);
  }

  private static String summaryTable(Comparison comparison) {
    StringBuilder table =
        new StringBuilder(
            "<table class=\"summary\">\n<tr><th>configuration</th><th>gpu-alloc</th>"
                + "<th>of greedy bound</th><th>cpu-alloc</th><th>gpu reserved</th><th>deadlocks</th><th>share-dev</th>"
                + "<th>wait p50 s</th><th>wait p95 s</th><th>JCT p50 s</th><th>JCT p95 s</th><th>preemptions</th><th>reclaims</th>"
                + "<th>restarts</th><th>failed</th><th>never started</th><th>cycles</th></tr>\n");
    for (RunSummary s : comparison.summaries()) {
      table
          .append("<tr><td>")
          .append(escape(s.variant()))
          .append("</td><td>")
          .append(percent(s.gpuAlloc()))
          .append("</td><td>")
          .append(percent(s.ofGreedyBound()))
          .append("</td><td>")
          .append(percent(s.cpuAlloc()))
          .append("</td><td>")
          .append(percent(s.gpuReserved()))
          .append("</td><td>")
          .append(s.deadlocks())
          .append("</td><td>")
          .append(percent(s.shareDeviation()))
          .append("</td><td>")
          .append(seconds(s.waitP50()))
          .append("</td><td>")
          .append(seconds(s.waitP95()))
          .append("</td><td>")
          .append(seconds(s.jctP50()))
          .append("</td><td>")
          .append(seconds(s.jctP95()))
          .append("</td><td>")
          .append(s.preemptions())
          .append("</td><td>")
          .append(s.reclaims())
          .append("</td><td>")
          .append(s.restarts())
          .append("</td><td>")
          .append(s.failed())
          .append("</td><td>")
          .append(s.neverStarted())
          .append("</td><td>")
          .append(s.cycles())
          .append("</td></tr>\n");
    }
    table
        .append("<tr><td>greedy bound</td><td>")
        .append(percent(comparison.summaries().get(0).greedyBound()))
        .append("</td><td colspan=\"15\"></td></tr>\n");
    return table.append("</table>\n").toString();
  }

  static String percent(double fraction) {
    return Double.isNaN(fraction) ? "–" : String.format(Locale.ROOT, "%.1f%%", 100 * fraction);
  }

  static String seconds(double value) {
    return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, "%.1f", value);
  }

  static String escape(String text) {
    return text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace("\"", "&quot;");
  }

  /** Chart.js's UMD bundle, from the webjar on the classpath. */
  static String chartJs() {
    String version;
    try (InputStream in =
        HtmlReport.class.getClassLoader().getResourceAsStream("simulator.properties")) {
      if (in == null) {
        throw new IllegalStateException("simulator.properties is missing from the classpath");
      }
      Properties properties = new Properties();
      properties.load(in);
      version = properties.getProperty("chartjs.version");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read simulator.properties", e);
    }
    String resource = "META-INF/resources/webjars/chart.js/" + version + "/dist/chart.umd.js";
    try (InputStream in = HtmlReport.class.getClassLoader().getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException(
            "Chart.js " + version + " is missing from the classpath (" + resource + ")");
      }
      String script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (script.contains("</script")) {
        throw new IllegalStateException(resource + " contains </script and cannot be inlined");
      }
      return script;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + resource, e);
    }
  }

  static final String STYLE =
      """
      body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
      table { border-collapse: collapse; margin: 1em 0; }
      th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: right; }
      th:first-child, td:first-child, .parameters th, .parameters td { text-align: left; }
      .chart { position: relative; width: 100%; max-width: 1100px; height: 360px; }
      .note { color: #555; }
      """;

  /** Draws every chart from the embedded data and marks each canvas with what it drew. */
  static final String PAGE_SCRIPT =
      """
      (function () {
        const palette = ['#1f77b4', '#d62728', '#2ca02c', '#9467bd', '#ff7f0e', '#8c564b', '#e377c2', '#17becf'];
        const specs = JSON.parse(document.getElementById('chart-data').textContent);
        let rendered = 0;
        specs.forEach(function (spec) {
          const canvas = document.getElementById(spec.id);
          const datasets = spec.datasets.map(function (d, i) {
            const color = palette[(spec.type === 'bar' ? i : Math.floor(i / (spec.id.startsWith('queue-share') ? 2 : 1))) % palette.length];
            return { label: d.label, data: d.data, borderColor: color, backgroundColor: color,
                     borderDash: d.dashed ? [6, 4] : [], stepped: d.stepped ? 'before' : false,
                     pointRadius: 0, borderWidth: 1.5, fill: false };
          });
          const chart = new Chart(canvas, {
            type: spec.type,
            data: spec.type === 'bar' ? { labels: spec.categories, datasets: datasets } : { datasets: datasets },
            options: {
              animation: false, responsive: true, maintainAspectRatio: false,
              plugins: { legend: { position: 'bottom' } },
              scales: spec.type === 'bar'
                ? { y: { title: { display: true, text: spec.yLabel }, beginAtZero: true } }
                : { x: { type: 'linear', title: { display: true, text: spec.xLabel } },
                    y: { title: { display: true, text: spec.yLabel }, beginAtZero: true } }
            }
          });
          let points = 0;
          chart.data.datasets.forEach(function (d, i) {
            const meta = chart.getDatasetMeta(i);
            points += meta.data.filter(function (e) { return e && !e.skip && Number.isFinite(e.y); }).length;
          });
          canvas.dataset.renderedPoints = String(points);
          const ctx = canvas.getContext('2d');
          const area = chart.chartArea;
          let painted = 0;
          if (area && area.right > area.left && area.bottom > area.top) {
            const pixels = ctx.getImageData(area.left, area.top, area.right - area.left, area.bottom - area.top).data;
            for (let p = 3; p < pixels.length; p += 16) {
              if (pixels[p] > 128) { painted++; }
            }
          }
          canvas.dataset.paintedPixels = String(painted);
          rendered++;
        });
        document.body.dataset.chartsRendered = String(rendered);
      })();
      """;
}
