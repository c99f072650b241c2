package io.tyrl.arranger.simulator.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The openb GPU-cluster trace (Alibaba's cluster-trace-gpu-v2023, released with the FGD paper): its
 * node list, its pod lists, and the published allocation ratios of the paper's policies on it. The
 * columns are the trace's own; a file that lacks one, or a value that is not a number, is refused
 * naming the file, the line and the column.
 */
public final class OpenbTrace {

  /** A node of the trace: {@code sn,cpu_milli,memory_mib,gpu,model}. */
  public record Node(String name, long milliCpu, long memoryMib, int gpus, String model) {}

  /**
   * A pod of the trace: {@code num_gpu} devices of which each is asked {@code gpu_milli} (a share
   * below 1000 only with one device); {@code gpuModels} the models allowed, empty for any.
   */
  public record Pod(
      String name,
      long milliCpu,
      long memoryMib,
      int gpus,
      long gpuMilliEach,
      List<String> gpuModels) {

    /** The milli-GPU the pod asks in all. */
    public long gpuMilli() {
      return gpus * gpuMilliEach;
    }
  }

  /** One published point: a policy's mean allocation ratio at one arrived share, over the seeds. */
  public record PublishedPoint(
      String workload, String policy, int arrivedPercent, double mean, double sd) {}

  private OpenbTrace() {}

  public static List<Node> nodes(Path file) {
    List<Node> nodes = new ArrayList<>();
    Table table = Table.read(file);
    for (int row = 0; row < table.rows.size(); row++) {
      nodes.add(
          new Node(
              table.text(row, "sn"),
              table.number(row, "cpu_milli"),
              table.number(row, "memory_mib"),
              (int) table.number(row, "gpu"),
              table.text(row, "model")));
    }
    return nodes;
  }

  /** The pods of a pod list, in the file's order (a sequence file's order column is its order). */
  public static List<Pod> pods(Path file) {
    List<Pod> pods = new ArrayList<>();
    Table table = Table.read(file);
    for (int row = 0; row < table.rows.size(); row++) {
      String spec = table.text(row, "gpu_spec");
      int gpus = (int) table.number(row, "num_gpu");
      long each = table.number(row, "gpu_milli");
      if (gpus > 1 && each != 1000) {
        throw table.problem(row, "gpu_milli", "a pod of several GPUs asks each whole (1000)");
      }
      pods.add(
          new Pod(
              table.text(row, "name"),
              table.number(row, "cpu_milli"),
              table.number(row, "memory_mib"),
              gpus,
              gpus == 0 ? 0 : each,
              spec.isBlank() ? List.of() : List.of(spec.split("\\|"))));
    }
    return pods;
  }

  /** A sequence's {@code sn,tie_rank}: among nodes of equal score the smallest rank is chosen. */
  public static Map<String, Integer> tieRanks(Path file) {
    Map<String, Integer> ranks = new HashMap<>();
    Table table = Table.read(file);
    for (int row = 0; row < table.rows.size(); row++) {
      ranks.put(table.text(row, "sn"), (int) table.number(row, "tie_rank"));
    }
    return ranks;
  }

  /**
   * The published workload for one seed, by the paper's protocol: the pods shuffled with the seed,
   * then drawn again with replacement until the GPUs asked reach {@code percentOfCapacity} of the
   * cluster's. Used for trace variants whose exact published sequences are not at hand; the shuffle
   * is Java's, not the paper's, so the pods and their order differ from the published run's while
   * following the same recipe.
   */
  public static List<Pod> resampled(
      List<Pod> pods, long clusterGpuMilli, int percentOfCapacity, long seed) {
    Random random = new Random(seed);
    List<Pod> shuffled = new ArrayList<>(pods);
    java.util.Collections.shuffle(shuffled, random);
    List<Pod> workload = new ArrayList<>(shuffled);
    long asked = 0;
    for (Pod pod : shuffled) {
      asked += pod.gpuMilli();
    }
    long target = clusterGpuMilli * percentOfCapacity / 100;
    int drawn = 0;
    while (asked < target && !pods.isEmpty()) {
      Pod pod = shuffled.get(random.nextInt(shuffled.size()));
      workload.add(
          new Pod(
              pod.name() + "-tuned-" + drawn++,
              pod.milliCpu(),
              pod.memoryMib(),
              pod.gpus(),
              pod.gpuMilliEach(),
              pod.gpuModels()));
      asked += pod.gpuMilli();
    }
    return workload;
  }

  /**
   * The published summary: per workload, policy and arrived share, the mean and standard deviation
   * over the seeds.
   */
  public static List<PublishedPoint> published(Path file) {
    List<PublishedPoint> points = new ArrayList<>();
    Table table = Table.read(file);
    for (int row = 0; row < table.rows.size(); row++) {
      points.add(
          new PublishedPoint(
              table.text(row, "workload"),
              table.text(row, "policy"),
              (int) table.number(row, "arrived_pct"),
              table.decimal(row, "alloc_mean"),
              table.decimal(row, "alloc_sd")));
    }
    return points;
  }

  /** A CSV file with a header row, read whole; fields hold no commas in this trace. */
  private static final class Table {
    final Path file;
    final Map<String, Integer> columns = new LinkedHashMap<>();
    final List<String[]> rows = new ArrayList<>();

    private Table(Path file) {
      this.file = file;
    }

    static Table read(Path file) {
      Table table = new Table(file);
      List<String> lines;
      try {
        lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read " + file, e);
      }
      if (lines.isEmpty()) {
        throw new IllegalArgumentException(file + ": empty, expected a header row");
      }
      String[] header = lines.get(0).split(",", -1);
      for (int i = 0; i < header.length; i++) {
        table.columns.put(header[i].trim(), i);
      }
      for (int i = 1; i < lines.size(); i++) {
        if (!lines.get(i).isBlank()) {
          table.rows.add(Arrays.copyOf(lines.get(i).split(",", -1), header.length));
        }
      }
      return table;
    }

    String text(int row, String column) {
      Integer index = columns.get(column);
      if (index == null) {
        throw new IllegalArgumentException(
            file + ": no column " + column + " (columns: " + columns.keySet() + ")");
      }
      String value = rows.get(row)[index];
      return value == null ? "" : value.trim();
    }

    long number(int row, String column) {
      String value = text(row, column);
      try {
        return Long.parseLong(value);
      } catch (NumberFormatException e) {
        throw problem(row, column, "'" + value + "' is not a whole number");
      }
    }

    double decimal(int row, String column) {
      String value = text(row, column);
      try {
        return Double.parseDouble(value);
      } catch (NumberFormatException e) {
        throw problem(row, column, "'" + value + "' is not a number");
      }
    }

    IllegalArgumentException problem(int row, String column, String what) {
      return new IllegalArgumentException(
          file + " line " + (row + 2) + ", column " + column + ": " + what);
    }
  }
}
