package io.tyrl.arranger.simulator.report;

import io.tyrl.arranger.simulator.metrics.AllocationPoint;
import io.tyrl.arranger.simulator.metrics.DeservedShares;
import io.tyrl.arranger.simulator.metrics.JobOutcome;
import io.tyrl.arranger.simulator.metrics.QueueSummary;
import io.tyrl.arranger.simulator.metrics.RunRecord;
import io.tyrl.arranger.simulator.metrics.RunSummary;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The raw data behind the report, as CSV next to it: {@code series.csv} (every point of every
 * series, long format: configuration, seconds, series, value), {@code jobs.csv} (each job's outcome
 * per configuration) and {@code summary.csv} (the summary figures, one row per configuration and
 * queue).
 */
public final class SeriesCsv {

  private SeriesCsv() {}

  public static void write(Comparison comparison, Path directory) {
    try {
      Files.createDirectories(directory);
      writeSeries(comparison, directory.resolve("series.csv"));
      writeJobs(comparison, directory.resolve("jobs.csv"));
      writeSummary(comparison, directory.resolve("summary.csv"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write CSV into " + directory, e);
    }
  }

  private static void writeSeries(Comparison comparison, Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write("configuration,seconds,series,value\n");
      double[] times = comparison.bound().times();
      double[] gpus = comparison.bound().gpus();
      for (int i = 0; i < times.length; i++) {
        row(out, "greedy-bound", times[i], "gpu_allocated", gpus[i]);
      }
      for (RunRecord run : comparison.runs()) {
        int[] weights = run.queueWeights().stream().mapToInt(Integer::intValue).toArray();
        DeservedShares shares = DeservedShares.of(run);
        List<DeservedShares.QueueLabel> queues = shares.queues();
        for (AllocationPoint point : run.points()) {
          row(out, run.variant(), point.seconds(), "gpu_started", point.startedGpu());
          row(out, run.variant(), point.seconds(), "millicpu_started", point.startedMilliCpu());
          row(out, run.variant(), point.seconds(), "gpu_reserved", point.reservedGpu());
          double[] deserved = shares.leaves(point);
          if (shares.depth() > 1) {
            DeservedShares.QueuePoint all = shares.allQueues(point);
            for (int q = 0; q < queues.size(); q++) {
              String queue = queues.get(q).name();
              if (!queues.get(q).leaf()) {
                row(out, run.variant(), point.seconds(), "queue_gpu_held:" + queue, all.held()[q]);
                row(
                    out,
                    run.variant(),
                    point.seconds(),
                    "queue_gpu_deserved:" + queue,
                    all.fair()[q]);
              }
            }
          }
          for (int q = 0; q < weights.length; q++) {
            String queue = run.queues().get(q);
            row(
                out,
                run.variant(),
                point.seconds(),
                "queue_gpu_held:" + queue,
                point.queueHeldGpu()[q]);
            row(
                out,
                run.variant(),
                point.seconds(),
                "queue_gpu_demand:" + queue,
                point.queueDemandGpu()[q]);
            row(out, run.variant(), point.seconds(), "queue_gpu_deserved:" + queue, deserved[q]);
          }
        }
      }
    }
  }

  private static void row(Writer out, String variant, double seconds, String series, double value)
      throws IOException {
    out.write(variant + "," + csv(seconds) + "," + series + "," + csv(value) + "\n");
  }

  private static void writeJobs(Comparison comparison, Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(
          "configuration,job,queue,submitted_s,started_s,finished_s,failure,restarts,deadlocked\n");
      for (RunRecord run : comparison.runs()) {
        for (JobOutcome job : run.jobs()) {
          out.write(
              String.join(
                      ",",
                      run.variant(),
                      job.name(),
                      job.queue(),
                      blankIfNaN(job.submitted()),
                      blankIfNaN(job.started()),
                      blankIfNaN(job.finished()),
                      job.failure() == null ? "" : job.failure(),
                      Integer.toString(job.restarts()),
                      Boolean.toString(job.deadlocked()))
                  + "\n");
        }
      }
    }
  }

  private static void writeSummary(Comparison comparison, Path file) throws IOException {
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      out.write(
          "configuration,queue,weight,gpu_alloc,greedy_bound,deadlocks,share_dev,held_share,deserved_share,"
              + "wait_p50_s,wait_p95_s,jct_p50_s,jct_p95_s,preemptions,reclaims,failed,never_started\n");
      for (RunSummary s : comparison.summaries()) {
        out.write(
            String.join(
                    ",",
                    s.variant(),
                    "",
                    "",
                    csv(s.gpuAlloc()),
                    csv(s.greedyBound()),
                    Integer.toString(s.deadlocks()),
                    csv(s.shareDeviation()),
                    "",
                    "",
                    csv(s.waitP50()),
                    csv(s.waitP95()),
                    csv(s.jctP50()),
                    csv(s.jctP95()),
                    Integer.toString(s.preemptions()),
                    Integer.toString(s.reclaims()),
                    Integer.toString(s.failed()),
                    Integer.toString(s.neverStarted()))
                + "\n");
        for (QueueSummary q : s.queues()) {
          out.write(
              String.join(
                      ",",
                      s.variant(),
                      q.queue(),
                      Integer.toString(q.weight()),
                      "",
                      "",
                      "",
                      csv(q.deviation()),
                      csv(q.heldShare()),
                      csv(q.deservedShare()),
                      csv(q.waitP50()),
                      csv(q.waitP95()),
                      "",
                      "",
                      "",
                      "",
                      "",
                      "")
                  + "\n");
        }
      }
    }
  }

  private static String csv(double value) {
    return Double.isNaN(value) || Double.isInfinite(value) ? "" : Json.number(value);
  }

  private static String blankIfNaN(double value) {
    return Double.isNaN(value) ? "" : csv(value);
  }
}
