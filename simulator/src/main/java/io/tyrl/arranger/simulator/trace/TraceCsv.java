package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.scheduler.plugins.nodeorder.NodeOrderPlugin;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Reads and writes traces as CSV: a header naming the columns (any order), then one job submission
 * a line; blank lines and lines starting with {@code #} are skipped. Quantities are Kubernetes
 * quantities. See docs/simulator.md for the columns. A row that cannot be read is left out and
 * reported with its line and column; the other rows are still read. A header that lacks a required
 * column or names an unknown one refuses the whole file.
 */
public final class TraceCsv {

  public static final List<String> COLUMNS =
      List.of(
          "submit_s",
          "name",
          "queue",
          "queue_weight",
          "priority",
          "leader_cpu",
          "leader_memory",
          "leader_gpu",
          "worker_cpu",
          "worker_memory",
          "worker_gpu",
          "workers",
          "min_workers",
          "duration_s",
          "gang",
          "wait_time_s",
          "basic_policy");
  public static final Set<String> REQUIRED =
      Set.of("submit_s", "name", "queue", "leader_cpu", "leader_memory", "workers", "duration_s");

  private TraceCsv() {}

  public static CsvImport read(Path file) {
    return read(file, null);
  }

  /**
   * With a queue tree, every job's queue must be one of its leaves, and {@code queue_weight}, when
   * given, must be the tree's weight (which it defaults to).
   */
  public static CsvImport read(Path file, QueueTree tree) {
    try {
      return read(Files.readAllLines(file, StandardCharsets.UTF_8), tree);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read trace " + file, e);
    }
  }

  public static CsvImport read(List<String> lines) {
    return read(lines, null);
  }

  public static CsvImport read(List<String> lines, QueueTree tree) {
    int headerIndex = 0;
    while (headerIndex < lines.size() && skipped(lines.get(headerIndex))) {
      headerIndex++;
    }
    if (headerIndex == lines.size()) {
      throw new IllegalArgumentException(
          "the trace has no header line (expected columns " + String.join(",", COLUMNS) + ")");
    }
    Map<String, Integer> header = header(lines.get(headerIndex), headerIndex + 1);
    List<TraceJob> jobs = new ArrayList<>();
    List<CsvProblem> problems = new ArrayList<>();
    Set<String> names = new HashSet<>();
    Map<String, Integer> queueWeights = new HashMap<>();
    for (int i = headerIndex + 1; i < lines.size(); i++) {
      String line = lines.get(i);
      if (skipped(line)) {
        continue;
      }
      int lineNumber = i + 1;
      try {
        TraceJob job = new RowReader(header, line.split(",", -1), lineNumber, tree).job();
        if (!names.add(job.name())) {
          throw new RowException(
              "name", "job " + job.name() + " is named twice; the first one is kept");
        }
        Integer weight = queueWeights.putIfAbsent(job.queue(), job.queueWeight());
        if (weight != null && weight != job.queueWeight()) {
          names.remove(job.name());
          throw new RowException(
              "queue_weight",
              "queue "
                  + job.queue()
                  + " has weight "
                  + weight
                  + " in earlier rows, not "
                  + job.queueWeight());
        }
        jobs.add(job);
      } catch (RowException e) {
        problems.add(new CsvProblem(lineNumber, e.column, e.getMessage()));
      }
    }
    return new CsvImport(new Trace(jobs, tree), problems);
  }

  public static void write(Trace trace, Path file) {
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writer.write(String.join(",", COLUMNS));
      writer.write('\n');
      for (TraceJob job : trace.jobs()) {
        writer.write(String.join(",", row(job)));
        writer.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write trace " + file, e);
    }
  }

  static List<String> row(TraceJob job) {
    return List.of(
        number(job.submitSeconds()),
        job.name(),
        job.queue(),
        Integer.toString(job.queueWeight()),
        Integer.toString(job.priority()),
        cpu(job.leader()),
        bytes(job.leader()),
        gpu(job.leader()),
        cpu(job.worker()),
        bytes(job.worker()),
        gpu(job.worker()),
        Integer.toString(job.workers()),
        Integer.toString(job.minWorkers()),
        Long.toString(job.duration().toSeconds()),
        job.gang() == GangMode.STRICT ? "Strict" : "NonStrict",
        job.waitTime() == null ? "" : Long.toString(job.waitTime().toSeconds()),
        job.basicPolicy() == null ? "" : job.basicPolicy().name());
  }

  private static boolean skipped(String line) {
    String trimmed = line.strip();
    return trimmed.isEmpty() || trimmed.startsWith("#");
  }

  private static Map<String, Integer> header(String line, int lineNumber) {
    Map<String, Integer> header = new LinkedHashMap<>();
    String[] names = line.split(",", -1);
    for (int i = 0; i < names.length; i++) {
      String name = names[i].strip().toLowerCase(Locale.ROOT);
      if (!COLUMNS.contains(name)) {
        throw new IllegalArgumentException(
            "line "
                + lineNumber
                + ": unknown column '"
                + names[i].strip()
                + "' in the header (known: "
                + String.join(",", COLUMNS)
                + ")");
      }
      if (header.put(name, i) != null) {
        throw new IllegalArgumentException(
            "line " + lineNumber + ": column " + name + " appears twice in the header");
      }
    }
    List<String> missing =
        REQUIRED.stream().filter(name -> !header.containsKey(name)).sorted().toList();
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          "line "
              + lineNumber
              + ": the header lacks the required column(s) "
              + String.join(", ", missing));
    }
    return header;
  }

  private static String number(double value) {
    return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
  }

  private static String cpu(Resource resource) {
    long milli = resource.milliCpu();
    return milli % 1000 == 0 ? Long.toString(milli / 1000) : milli + "m";
  }

  private static String bytes(Resource resource) {
    long bytes = resource.memory();
    long gi = 1L << 30;
    long mi = 1L << 20;
    return bytes % gi == 0
        ? bytes / gi + "Gi"
        : bytes % mi == 0 ? bytes / mi + "Mi" : Long.toString(bytes);
  }

  private static String gpu(Resource resource) {
    return Long.toString(Gpus.whole(resource));
  }

  /** A row that cannot be read, naming the column at fault. */
  private static final class RowException extends RuntimeException {
    private final String column;

    RowException(String column, String message) {
      super(message);
      this.column = column;
    }
  }

  /** Reads one row's fields by column name. */
  private record RowReader(Map<String, Integer> header, String[] fields, int line, QueueTree tree) {

    TraceJob job() {
      if (fields.length != header.size()) {
        throw new RowException("", "expected " + header.size() + " fields, found " + fields.length);
      }
      String name = text("name");
      double submit = decimal("submit_s");
      String queue = text("queue");
      int weight;
      if (tree == null) {
        weight = integer("queue_weight", 1, 1, 1_000_000);
      } else {
        if (!tree.isLeaf(queue)) {
          throw new RowException(
              "queue",
              "queue "
                  + queue
                  + (tree.contains(queue)
                      ? " has child queues (jobs live in leaf queues)"
                      : " is not in the queue tree"));
        }
        int treeWeight = tree.queue(queue).weight();
        weight = integer("queue_weight", treeWeight, 1, 1_000_000);
        if (weight != treeWeight) {
          throw new RowException(
              "queue_weight",
              "queue " + queue + " has weight " + treeWeight + " in the queue tree, not " + weight);
        }
      }
      int priority = integer("priority", 5, 1, 10);
      Resource leader = resources("leader_cpu", "leader_memory", "leader_gpu");
      Resource worker = resources("worker_cpu", "worker_memory", "worker_gpu");
      int workers = integer("workers", null, 0, 100_000);
      int minWorkers = integer("min_workers", Math.min(1, workers), 0, workers);
      long duration = integer("duration_s", null, 1, Integer.MAX_VALUE);
      GangMode gang = gang();
      Integer waitTime = optionalInteger("wait_time_s", 1, Integer.MAX_VALUE);
      BasicPolicy policy = policy();
      try {
        return new TraceJob(
            name,
            submit,
            queue,
            weight,
            priority,
            leader,
            worker,
            workers,
            minWorkers,
            Duration.ofSeconds(duration),
            gang,
            waitTime == null ? null : Duration.ofSeconds(waitTime),
            policy);
      } catch (IllegalArgumentException e) {
        throw new RowException("", e.getMessage());
      }
    }

    private String raw(String column) {
      Integer index = header.get(column);
      return index == null ? "" : fields[index].strip();
    }

    private String text(String column) {
      String value = raw(column);
      if (value.isEmpty()) {
        throw new RowException(column, "must not be empty");
      }
      return value;
    }

    private double decimal(String column) {
      String value = text(column);
      try {
        double parsed = Double.parseDouble(value);
        if (!(parsed >= 0) || Double.isInfinite(parsed)) {
          throw new RowException(column, "'" + value + "' is not a finite number >= 0");
        }
        return parsed;
      } catch (NumberFormatException e) {
        throw new RowException(column, "'" + value + "' is not a number");
      }
    }

    private int integer(String column, Integer fallback, int min, int max) {
      String value = raw(column);
      if (value.isEmpty()) {
        if (fallback == null) {
          throw new RowException(column, "must not be empty");
        }
        return fallback;
      }
      Integer parsed = optionalInteger(column, min, max);
      return parsed;
    }

    private Integer optionalInteger(String column, int min, int max) {
      String value = raw(column);
      if (value.isEmpty()) {
        return null;
      }
      try {
        int parsed = Integer.parseInt(value);
        if (parsed < min || parsed > max) {
          throw new RowException(column, value + " is outside " + min + ".." + max);
        }
        return parsed;
      } catch (NumberFormatException e) {
        throw new RowException(column, "'" + value + "' is not a whole number");
      }
    }

    private Resource resources(String cpuColumn, String memoryColumn, String gpuColumn) {
      Map<String, Long> canonical = new HashMap<>();
      canonical.put(Resource.CPU, quantity(cpuColumn, Resource.CPU));
      canonical.put(Resource.MEMORY, quantity(memoryColumn, Resource.MEMORY));
      canonical.put(Resource.GPU, quantity(gpuColumn, Resource.GPU));
      canonical.values().removeIf(value -> value == 0);
      return Resource.ofCanonical(canonical);
    }

    private long quantity(String column, String resource) {
      String value = raw(column);
      if (value.isEmpty()) {
        return 0;
      }
      try {
        long parsed = Resource.of(resource, value).get(resource);
        if (parsed < 0) {
          throw new RowException(column, "'" + value + "' is negative");
        }
        return parsed;
      } catch (IllegalArgumentException e) {
        throw new RowException(
            column, "'" + value + "' is not a quantity (" + e.getMessage() + ")");
      }
    }

    private GangMode gang() {
      String value = raw("gang");
      if (value.isEmpty()) {
        return GangMode.STRICT;
      }
      return switch (value.toLowerCase(Locale.ROOT)) {
        case "strict" -> GangMode.STRICT;
        case "nonstrict" -> GangMode.NON_STRICT;
        default ->
            throw new RowException("gang", "'" + value + "' is neither Strict nor NonStrict");
      };
    }

    private BasicPolicy policy() {
      String value = raw("basic_policy");
      if (value.isEmpty()) {
        return null;
      }
      for (BasicPolicy policy : NodeOrderPlugin.BASIC_POLICIES) {
        if (policy.name().equalsIgnoreCase(value)) {
          return policy;
        }
      }
      throw new RowException(
          "basic_policy",
          "'"
              + value
              + "' is not one of "
              + NodeOrderPlugin.BASIC_POLICIES.stream()
                  .map(BasicPolicy::name)
                  .collect(Collectors.joining(", ")));
    }
  }
}
