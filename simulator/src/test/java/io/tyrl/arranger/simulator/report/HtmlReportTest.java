package io.tyrl.arranger.simulator.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.jayway.jsonpath.JsonPath;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {

  private static Comparison comparison;

  @BeforeAll
  static void simulate() {
    comparison = SmallComparison.of(40, 9);
  }

  @Test
  void theReportIsOneFileWithChartJsAndItsDataInline() {
    String html = HtmlReport.render(comparison);

    assertThat(html).contains("Chart.js v4").doesNotContain(" src=").doesNotContain(" href=");
    Matcher data =
        Pattern.compile(
                "<script type=\"application/json\" id=\"chart-data\">(.*?)</script>",
                Pattern.DOTALL)
            .matcher(html);
    assertThat(data.find()).isTrue();
    List<String> ids = JsonPath.read(data.group(1), "$[*].id");
    assertThat(ids)
        .containsExactly(
            "gpu-allocation",
            "cpu-allocation",
            "gpu-reserved",
            "queue-share-default",
            "queue-share-volcano-like",
            "queueing-delay",
            "completion-times");
    for (String id : ids) {
      assertThat(html).contains("<canvas id=\"" + id + "\"");
    }
    List<String> gpuLines = JsonPath.read(data.group(1), "$[0].datasets[*].label");
    assertThat(gpuLines).containsExactly("default", "volcano-like", "greedy bound");
    List<Object> points = JsonPath.read(data.group(1), "$[0].datasets[0].data");
    assertThat(points).hasSize(HtmlReport.BUCKETS);
    List<String> queueLines = JsonPath.read(data.group(1), "$[3].datasets[*].label");
    assertThat(queueLines)
        .hasSize(6)
        .contains("research (weight 4) held", "research (weight 4) deserved");
    assertThat(html)
        .contains("<td>default</td>")
        .contains("<td>volcano-like</td>")
        .contains("<td>greedy bound</td>");
  }

  @Test
  void textThatLooksLikeMarkupCannotEndTheDataElement() {
    assertThat(Json.string("</script><b>\"x\""))
        .isEqualTo("\"\\u003c/script\\u003e\\u003cb\\u003e\\\"x\\\"\"");
    assertThat(Json.number(12.00001)).isEqualTo("12");
    assertThat(Json.number(0.25)).isEqualTo("0.25");
    assertThat(Json.number(Double.NaN)).isEqualTo("null");
  }

  @Test
  void bucketsHoldTheTimeWeightedMeanOfTheSteps() {
    // 0 until 5, then 10 until 25, then 4; over [0, 30] in 3 buckets of 10:
    //   [0,10): 5 × 0 + 5 × 10 = 50 → 5;  [10,20): 10;  [20,30): 5 × 10 + 5 × 4 = 70 → 7
    double[][] buckets =
        Downsampling.bucketMeans(new double[] {0, 5, 25}, new double[] {0, 10, 4}, 30, 3);

    assertThat(buckets[0]).containsExactly(0, 10, 20);
    assertThat(buckets[1][0]).isCloseTo(5, within(1e-9));
    assertThat(buckets[1][1]).isCloseTo(10, within(1e-9));
    assertThat(buckets[1][2]).isCloseTo(7, within(1e-9));
  }

  @Test
  void theCsvHoldsEveryPointOfEverySeriesAndEveryJob(@TempDir Path directory) throws Exception {
    SeriesCsv.write(comparison, directory);

    List<String> series = Files.readAllLines(directory.resolve("series.csv"));
    long expected = comparison.bound().times().length;
    for (RunRecord run : comparison.runs()) {
      expected += (long) run.points().size() * (3 + 3 * run.queues().size());
    }
    assertThat(series.get(0)).isEqualTo("configuration,seconds,series,value");
    assertThat(series).hasSize((int) expected + 1);
    assertThat(series)
        .anyMatch(
            line -> line.startsWith("default,") && line.contains(",queue_gpu_deserved:research,"));
    assertThat(series).anyMatch(line -> line.startsWith("greedy-bound,"));

    List<String> jobs = Files.readAllLines(directory.resolve("jobs.csv"));
    assertThat(jobs)
        .hasSize(1 + comparison.runs().stream().mapToInt(run -> run.jobs().size()).sum());
    List<String> summary = Files.readAllLines(directory.resolve("summary.csv"));
    assertThat(summary).hasSize(1 + comparison.summaries().size() * 4);
  }
}
