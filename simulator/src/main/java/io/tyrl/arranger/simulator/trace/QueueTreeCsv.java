package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.Resource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads and writes a queue tree as CSV: a header naming the columns (any order), then one queue a
 * line, each parent before its children; blank lines and lines starting with {@code #} are skipped.
 * Quantities are Kubernetes quantities; an empty guarantee column is nothing guaranteed, an empty
 * capability column no limit on that resource. Unlike a trace's job rows, a queue row that cannot
 * be read refuses the whole file: leaving a queue out would orphan its children and jobs.
 */
public final class QueueTreeCsv {

  public static final List<String> COLUMNS =
      List.of(
          "name",
          "parent",
          "weight",
          "priority",
          "guarantee_cpu",
          "guarantee_memory",
          "guarantee_gpu",
          "capability_cpu",
          "capability_memory",
          "capability_gpu");

  private QueueTreeCsv() {}

  public static QueueTree read(Path file) {
    try {
      return read(Files.readAllLines(file, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read queue tree " + file, e);
    }
  }

  public static QueueTree read(List<String> lines) {
    Map<String, Integer> header = null;
    List<QueueSpec> queues = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      int lineNumber = i + 1;
      if (header == null) {
        header = header(line, lineNumber);
        continue;
      }
      String[] fields = lines.get(i).split(",", -1);
      if (fields.length != header.size()) {
        throw problem(
            lineNumber, "", "expected " + header.size() + " fields, found " + fields.length);
      }
      Row row = new Row(header, fields, lineNumber);
      String name = row.raw("name");
      if (name.isEmpty()) {
        throw problem(lineNumber, "name", "must not be empty");
      }
      int weight = row.integer("weight", 1);
      int priority = row.integer("priority", 0);
      Resource guarantee = row.resources("guarantee_", false);
      Resource capability = row.resources("capability_", true);
      try {
        queues.add(new QueueSpec(name, row.raw("parent"), weight, priority, guarantee, capability));
        new QueueTree(queues);
      } catch (IllegalArgumentException e) {
        throw problem(lineNumber, "", e.getMessage());
      }
    }
    if (header == null) {
      throw new IllegalArgumentException(
          "the queue tree has no header line (expected columns " + String.join(",", COLUMNS) + ")");
    }
    if (queues.isEmpty()) {
      throw new IllegalArgumentException("the queue tree lists no queue");
    }
    return new QueueTree(queues);
  }

  public static void write(QueueTree tree, Path file) {
    try (Writer writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      writer.write(String.join(",", COLUMNS));
      writer.write('\n');
      for (QueueSpec queue : tree.queues()) {
        writer.write(String.join(",", row(queue)));
        writer.write('\n');
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write queue tree " + file, e);
    }
  }

  static List<String> row(QueueSpec queue) {
    Resource capability = queue.capability();
    return List.of(
        queue.name(),
        queue.parent() == null ? "" : queue.parent(),
        Integer.toString(queue.weight()),
        Integer.toString(queue.priority()),
        quantity(queue.guarantee(), Resource.CPU),
        quantity(queue.guarantee(), Resource.MEMORY),
        quantity(queue.guarantee(), Resource.GPU),
        quantity(capability, Resource.CPU),
        quantity(capability, Resource.MEMORY),
        quantity(capability, Resource.GPU));
  }

  private static String quantity(Resource resource, String name) {
    if (resource == null || !resource.quantities().containsKey(name)) {
      return "";
    }
    return Resource.formatQuantity(name, resource.get(name));
  }

  private static Map<String, Integer> header(String line, int lineNumber) {
    Map<String, Integer> header = new LinkedHashMap<>();
    String[] names = line.split(",", -1);
    for (int i = 0; i < names.length; i++) {
      String name = names[i].strip().toLowerCase(Locale.ROOT);
      if (!COLUMNS.contains(name)) {
        throw problem(
            lineNumber,
            "",
            "unknown column '"
                + names[i].strip()
                + "' in the header (known: "
                + String.join(",", COLUMNS)
                + ")");
      }
      if (header.put(name, i) != null) {
        throw problem(lineNumber, "", "column " + name + " appears twice in the header");
      }
    }
    if (!header.containsKey("name")) {
      throw problem(lineNumber, "", "the header lacks the required column name");
    }
    return header;
  }

  private static IllegalArgumentException problem(int line, String column, String message) {
    return new IllegalArgumentException(
        "queue tree line "
            + line
            + (column.isEmpty() ? "" : ", column " + column)
            + ": "
            + message);
  }

  private record Row(Map<String, Integer> header, String[] fields, int line) {

    String raw(String column) {
      Integer index = header.get(column);
      return index == null ? "" : fields[index].strip();
    }

    int integer(String column, int fallback) {
      String value = raw(column);
      if (value.isEmpty()) {
        return fallback;
      }
      try {
        return Integer.parseInt(value);
      } catch (NumberFormatException e) {
        throw problem(line, column, "'" + value + "' is not a whole number");
      }
    }

    /** The prefix's columns as a resource; null when none is set and {@code nullWhenUnset}. */
    Resource resources(String prefix, boolean nullWhenUnset) {
      Map<String, Long> canonical = new HashMap<>();
      for (String resource : List.of(Resource.CPU, Resource.MEMORY, Resource.GPU)) {
        String column = prefix + (resource.equals(Resource.GPU) ? "gpu" : resource);
        String value = raw(column);
        if (value.isEmpty()) {
          continue;
        }
        long amount;
        try {
          amount = Resource.of(resource, value).get(resource);
        } catch (IllegalArgumentException e) {
          throw problem(line, column, "'" + value + "' is not a quantity (" + e.getMessage() + ")");
        }
        if (amount < 0) {
          throw problem(line, column, "'" + value + "' is negative");
        }
        canonical.put(resource, amount);
      }
      if (canonical.isEmpty()) {
        return nullWhenUnset ? null : Resource.EMPTY;
      }
      return Resource.ofCanonical(canonical);
    }
  }
}
