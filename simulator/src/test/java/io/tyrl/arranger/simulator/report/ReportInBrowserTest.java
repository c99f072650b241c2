package io.tyrl.arranger.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.simulator.metrics.JobOutcome;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the report in a real browser (Debian's Chromium, headless, installed by scripts/chromium.sh
 * when missing) and reads what each chart drew: the points Chart.js laid out and the opaque pixels
 * in its plot area, as the page's script records them on each canvas.
 */
class ReportInBrowserTest {

  private static HeadlessChromium chromium;

  @BeforeAll
  static void provisionChromium() throws Exception {
    chromium = HeadlessChromium.provision();
  }

  @Test
  void everyChartOfTheReportDrawsItsDataWithNoNetwork(@TempDir Path directory) throws Exception {
    Comparison comparison = SmallComparison.of(60, 3);
    Path html = directory.resolve("report.html");
    HtmlReport.write(comparison, html);

    String dom = chromium.dumpDom(html, Duration.ofMinutes(2));

    List<String> expected = HtmlReport.charts(comparison).stream().map(ChartSpec::id).toList();
    Map<String, long[]> drawn = HeadlessChromium.drawnCharts(dom);
    assertThat(drawn.keySet()).containsExactlyElementsOf(expected);
    drawn.forEach(
        (id, figures) -> {
          assertThat(figures[0]).as("points drawn by chart %s", id).isPositive();
          assertThat(figures[1]).as("opaque pixels in the plot area of chart %s", id).isPositive();
        });
    assertThat(HeadlessChromium.chartsRendered(dom)).isEqualTo(expected.size());
  }

  @Test
  void aChartLeftWithoutDataIsSeen(@TempDir Path directory) throws Exception {
    Comparison full = SmallComparison.of(30, 4);
    // The same runs with no job finished: the completion-time chart has nothing to draw.
    List<RunRecord> unfinished =
        full.runs().stream()
            .map(
                run ->
                    new RunRecord(
                        run.variant(),
                        run.queues(),
                        run.queueWeights(),
                        run.capacityGpu(),
                        run.capacityMilliCpu(),
                        run.windowEnd(),
                        run.endSeconds(),
                        run.points(),
                        run.jobs().stream()
                            .map(
                                job ->
                                    new JobOutcome(
                                        job.name(),
                                        job.queue(),
                                        job.submitted(),
                                        job.started(),
                                        Double.NaN,
                                        job.failure(),
                                        job.restarts(),
                                        job.deadlocked()))
                            .toList(),
                        run.preemptions(),
                        run.reclaims(),
                        run.cycles(),
                        run.wallMillis(),
                        run.cpuMillis()))
            .toList();
    Path html = directory.resolve("report.html");
    HtmlReport.write(SmallComparison.of(full.bound(), unfinished), html);

    Map<String, long[]> drawn =
        HeadlessChromium.drawnCharts(chromium.dumpDom(html, Duration.ofMinutes(2)));

    assertThat(drawn.get("completion-times")[0]).isZero();
    assertThat(drawn.get("completion-times")[1]).isZero();
    assertThat(drawn.get("gpu-allocation")[0]).isPositive();
  }

  @Test
  void aPageWhoseScriptFailsMarksNoChart(@TempDir Path directory) throws Exception {
    Path html = directory.resolve("broken.html");
    String page = HtmlReport.render(SmallComparison.of(20, 5));
    // Chart.js is missing: the page's script stops at its first chart.
    java.nio.file.Files.writeString(html, page.replace("new Chart(", "new MissingChart("));

    String dom = chromium.dumpDom(html, Duration.ofMinutes(2));

    assertThat(HeadlessChromium.drawnCharts(dom).values())
        .allSatisfy(figures -> assertThat(figures[0]).isEqualTo(-1));
    assertThat(HeadlessChromium.chartsRendered(dom)).isEqualTo(-1);
  }
}
