package io.tyrl.arranger.testing.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A minimal reader of the Prometheus text format, enough for the benchmark: samples by metric name
 * and labels, and the API server's write requests ({@code apiserver_request_total}) by verb and
 * resource.
 */
public final class PromText {

  /** Verbs of {@code apiserver_request_total} that change state. */
  public static final List<String> WRITE_VERBS =
      List.of("POST", "PUT", "PATCH", "DELETE", "DELETECOLLECTION", "APPLY");

  /** One sample: metric name, labels, value. */
  public record Sample(String name, Map<String, String> labels, double value) {}

  private final List<Sample> samples;

  private PromText(List<Sample> samples) {
    this.samples = samples;
  }

  public static PromText parse(String text) {
    List<Sample> samples = new ArrayList<>();
    for (String line : text.split("\n")) {
      line = line.strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      Sample sample = parseLine(line);
      if (sample != null) {
        samples.add(sample);
      }
    }
    return new PromText(samples);
  }

  static Sample parseLine(String line) {
    int brace = line.indexOf('{');
    int space;
    String name;
    Map<String, String> labels = new LinkedHashMap<>();
    if (brace >= 0 && brace < line.indexOf(' ') || brace >= 0 && line.indexOf(' ') < 0) {
      name = line.substring(0, brace);
      int i = brace + 1;
      while (i < line.length() && line.charAt(i) != '}') {
        int eq = line.indexOf('=', i);
        String key = line.substring(i, eq).strip();
        int quote = line.indexOf('"', eq);
        StringBuilder value = new StringBuilder();
        int j = quote + 1;
        while (j < line.length() && line.charAt(j) != '"') {
          char c = line.charAt(j);
          if (c == '\\' && j + 1 < line.length()) {
            char next = line.charAt(++j);
            value.append(next == 'n' ? '\n' : next);
          } else {
            value.append(c);
          }
          j++;
        }
        labels.put(key, value.toString());
        i = j + 1;
        while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
          i++;
        }
      }
      space = i + 1;
    } else {
      space = line.indexOf(' ');
      if (space < 0) {
        return null;
      }
      name = line.substring(0, space);
    }
    String rest = line.substring(Math.min(space, line.length())).strip();
    int end = rest.indexOf(' ');
    String number = end < 0 ? rest : rest.substring(0, end);
    try {
      return new Sample(name, labels, parseValue(number));
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static double parseValue(String number) {
    return switch (number) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      case "NaN" -> Double.NaN;
      default -> Double.parseDouble(number);
    };
  }

  public List<Sample> samples() {
    return samples;
  }

  /** The sum of the samples of a metric whose labels pass the filter (NaN when there is none). */
  public double sum(String name, Predicate<Map<String, String>> labels) {
    double sum = 0;
    boolean any = false;
    for (Sample sample : samples) {
      if (sample.name().equals(name) && labels.test(sample.labels())) {
        sum += sample.value();
        any = true;
      }
    }
    return any ? sum : Double.NaN;
  }

  public double sum(String name) {
    return sum(name, labels -> true);
  }

  /**
   * The q-quantile of a histogram, estimated from its {@code _bucket} series summed over every
   * other label, by linear interpolation within the bucket, as Prometheus' {@code
   * histogram_quantile} does (NaN without observations).
   */
  public double histogramQuantile(String name, double q) {
    java.util.TreeMap<Double, Double> cumulative = new java.util.TreeMap<>();
    for (Sample sample : samples) {
      String le = sample.labels().get("le");
      if (sample.name().equals(name + "_bucket") && le != null) {
        cumulative.merge(parseValue(le), sample.value(), Double::sum);
      }
    }
    if (cumulative.isEmpty() || cumulative.lastEntry().getValue() <= 0) {
      return Double.NaN;
    }
    double rank = q * cumulative.lastEntry().getValue();
    double lowerBound = 0;
    double lowerCount = 0;
    for (Map.Entry<Double, Double> bucket : cumulative.entrySet()) {
      if (bucket.getValue() >= rank) {
        if (bucket.getKey().isInfinite()) {
          return lowerBound;
        }
        double inBucket = bucket.getValue() - lowerCount;
        return inBucket <= 0
            ? bucket.getKey()
            : lowerBound + (bucket.getKey() - lowerBound) * (rank - lowerCount) / inBucket;
      }
      lowerBound = bucket.getKey();
      lowerCount = bucket.getValue();
    }
    return lowerBound;
  }

  /**
   * The single value of a metric with exactly these label values among its labels (NaN when
   * absent).
   */
  public double value(String name, Map<String, String> labels) {
    return sum(
        name,
        have ->
            labels.entrySet().stream().allMatch(e -> e.getValue().equals(have.get(e.getKey()))));
  }

  /**
   * The API server's write requests so far, by {@code "VERB resource[/subresource]"} (the group
   * prefixed for non-core resources, e.g. {@code "PATCH arranger.tyrl.io/tyjobs/status"}).
   */
  public Map<String, Double> apiServerWrites() {
    return apiServerRequests(WRITE_VERBS::contains);
  }

  /**
   * Every request but watches ({@code apiserver_request_total} without WATCH), as "VERB
   * group/resource[/sub]".
   */
  public Map<String, Double> apiServerCalls() {
    return apiServerRequests(verb -> !verb.equals("WATCH") && !verb.isEmpty());
  }

  private Map<String, Double> apiServerRequests(java.util.function.Predicate<String> verbs) {
    Map<String, Double> writes = new TreeMap<>();
    for (Sample sample : samples) {
      if (!sample.name().equals("apiserver_request_total")) {
        continue;
      }
      Map<String, String> l = sample.labels();
      String verb = l.getOrDefault("verb", "");
      if (!verbs.test(verb)) {
        continue;
      }
      String group = l.getOrDefault("group", "");
      String resource =
          (group.isEmpty() ? "" : group + "/")
              + l.getOrDefault("resource", "")
              + (l.getOrDefault("subresource", "").isEmpty() ? "" : "/" + l.get("subresource"));
      writes.merge(verb + " " + resource, sample.value(), Double::sum);
    }
    return writes;
  }

  /** The samples of a metric summed by the values of the given labels, joined with spaces. */
  public Map<String, Double> sumBy(String name, String... labelKeys) {
    Map<String, Double> sums = new TreeMap<>();
    for (Sample sample : samples) {
      if (sample.name().equals(name)) {
        StringBuilder key = new StringBuilder();
        for (String labelKey : labelKeys) {
          String value = sample.labels().getOrDefault(labelKey, "");
          if (!value.isEmpty()) {
            key.append(key.length() == 0 ? "" : " ").append(value);
          }
        }
        sums.merge(key.toString(), sample.value(), Double::sum);
      }
    }
    return sums;
  }

  /** after − before, per key, dropping keys that did not change. */
  public static Map<String, Double> diff(Map<String, Double> before, Map<String, Double> after) {
    Map<String, Double> diff = new TreeMap<>();
    after.forEach(
        (key, value) -> {
          double delta = value - before.getOrDefault(key, 0.0);
          if (delta != 0) {
            diff.put(key, delta);
          }
        });
    return diff;
  }
}
