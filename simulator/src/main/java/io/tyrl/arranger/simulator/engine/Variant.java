package io.tyrl.arranger.simulator.engine;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.conf.SchedulerConfiguration;
import io.tyrl.arranger.scheduler.conf.SchedulerConfigurationParser;
import io.tyrl.arranger.simulator.trace.QueueTree;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * One configuration to compare: a scheduler configuration, what it does to the jobs' own settings
 * before they reach the scheduler ({@code jobs}; the identity for Arranger's configurations), what
 * it does to the trace's queues ({@code queues}: the identity for Arranger's; the baseline, which
 * knows no queue tree, gets it flattened), and whether its loop starts cycles on changes ({@code
 * cyclesOnChange}: Arranger's does; Volcano's runs every period only).
 */
public record Variant(
    String name,
    String yaml,
    SchedulerConfiguration configuration,
    UnaryOperator<TraceJob> jobs,
    boolean cyclesOnChange,
    UnaryOperator<QueueTree> queues) {

  /** The baseline's configuration, on the classpath. */
  public static final String VOLCANO_LIKE_RESOURCE = "volcano-like.yaml";

  public static final String VOLCANO_LIKE_NAME = "volcano-like";

  public Variant {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(configuration, "configuration");
    Objects.requireNonNull(jobs, "jobs");
    Objects.requireNonNull(queues, "queues");
  }

  /** Queues given to the scheduler as the trace has them. */
  public Variant(
      String name,
      String yaml,
      SchedulerConfiguration configuration,
      UnaryOperator<TraceJob> jobs,
      boolean cyclesOnChange) {
    this(name, yaml, configuration, jobs, cyclesOnChange, UnaryOperator.identity());
  }

  /** One of Arranger's configurations: its loop starts cycles on changes. */
  public Variant(
      String name,
      String yaml,
      SchedulerConfiguration configuration,
      UnaryOperator<TraceJob> jobs) {
    this(name, yaml, configuration, jobs, true);
  }

  /**
   * A configuration file, named after it (without {@code .yaml}); the parser's error names the
   * file.
   */
  public static Variant fromFile(Path file, SchedulerConfigurationParser parser) {
    String yaml;
    try {
      yaml = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read scheduler configuration " + file, e);
    }
    String name = file.getFileName().toString().replaceFirst("\\.ya?ml$", "");
    try {
      return of(name, yaml, parser);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException(
          "scheduler configuration " + file + ": " + e.getMessage(), e);
    }
  }

  /** A configuration given as text, jobs left as they are. */
  public static Variant of(String name, String yaml, SchedulerConfigurationParser parser) {
    return new Variant(name, yaml, parser.parse(yaml), UnaryOperator.identity());
  }

  /**
   * The baseline that behaves like Volcano's default: its classic tiers, gangs all-or-nothing (a
   * NonStrict job is scheduled as Strict, since a Volcano PodGroup keeps no partial reservation),
   * and no LeaderFirst (a job asking for it gets the default node order); cycles every period only,
   * as Volcano's {@code schedulePeriod} loop runs; and flat queues: the trace's leaf queues at the
   * top level with their own weights and limits, no guarantees and priority 0 ({@link
   * QueueTree#flattened()}), as its proportion plugin shares the cluster by weight alone.
   */
  public static Variant volcanoLike(SchedulerConfigurationParser parser) {
    String yaml;
    try (InputStream in =
        Variant.class.getClassLoader().getResourceAsStream(VOLCANO_LIKE_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(VOLCANO_LIKE_RESOURCE + " is missing from the classpath");
      }
      yaml = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + VOLCANO_LIKE_RESOURCE, e);
    }
    return new Variant(
        VOLCANO_LIKE_NAME,
        yaml,
        parser.parse(yaml),
        Variant::volcanoJob,
        false,
        QueueTree::flattened);
  }

  static TraceJob volcanoJob(TraceJob job) {
    TraceJob strict = job.gang() == GangMode.NON_STRICT ? job.withGang(GangMode.STRICT) : job;
    return BasicPolicy.LEADER_FIRST.equals(strict.basicPolicy())
        ? strict.withBasicPolicy(null)
        : strict;
  }
}
