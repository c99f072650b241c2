package io.tyrl.arranger.simulator.cli;

import io.tyrl.arranger.simulator.metrics.LevelSummary;
import io.tyrl.arranger.simulator.metrics.TenantQueueSummary;
import io.tyrl.arranger.simulator.metrics.TenantSummary;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/** Prints how each configuration served the queue tree: a table per queue, then per level. */
final class TenantTables {

  private TenantTables() {}

  static void print(List<TenantSummary> summaries, PrintStream out) {
    out.printf(
        Locale.ROOT,
        "%-14s %-18s %3s %4s %3s %5s %5s %8s %8s %8s %8s %6s %8s %9s %5s %5s %9s %9s %5s%n",
        "configuration",
        "queue",
        "lvl",
        "wght",
        "pri",
        "guar",
        "cap",
        "held",
        "fair",
        "dev",
        "below-g",
        "viol",
        "longest",
        "viol-owed",
        "core",
        "surp",
        "wait-p50",
        "wait-p95",
        "jobs");
    for (TenantSummary s : summaries) {
      for (TenantQueueSummary q : s.queues()) {
        out.printf(
            Locale.ROOT,
            "%-14s %-18s %3d %4d %3d %5d %5s %8s %8s %8s %8s %6d %8.0f %9d %5d %5d %9.1f %9.1f %5d%n",
            s.variant(),
            (q.level() > 1 ? "  ".repeat(q.level() - 1) : "") + q.queue(),
            q.level(),
            q.weight(),
            q.priority(),
            q.guaranteeGpu(),
            q.capabilityGpu() == Long.MAX_VALUE ? "-" : Long.toString(q.capabilityGpu()),
            Formats.percent(q.heldShare()),
            Formats.percent(q.fairShare()),
            Formats.percent(q.deviation()),
            Formats.percent(q.belowGuaranteeShare()),
            q.guaranteeViolations(),
            q.longestBelowSeconds(),
            q.owedViolations(),
            q.coreEvictions(),
            q.surplusEvictions(),
            q.waitP50(),
            q.waitP95(),
            q.jobs());
      }
    }
    out.printf(
        Locale.ROOT,
        "%n%-14s %5s %6s %12s %13s %10s%n",
        "configuration",
        "level",
        "queues",
        "share-dev-max",
        "share-dev-mean",
        "violations");
    for (TenantSummary s : summaries) {
      for (LevelSummary level : s.levels()) {
        out.printf(
            Locale.ROOT,
            "%-14s %5d %6d %12s %13s %10d%n",
            s.variant(),
            level.level(),
            level.queues(),
            Formats.percent(level.shareDevMax()),
            Formats.percent(level.shareDevMean()),
            level.guaranteeViolations());
      }
    }
    out.printf(
        Locale.ROOT,
        "%n%-14s %10s %10s %13s %15s %11s %13s %9s %9s %7s%n",
        "configuration",
        "violations",
        "viol-owed",
        "share-dev-max",
        "core-evictions",
        "of-which-",
        "surplus-could",
        "of-which-",
        "surplus-",
        "surplus");
    out.printf(
        Locale.ROOT,
        "%-14s %10s %10s %13s %15s %11s %13s %9s %9s %7s%n",
        "",
        "",
        "",
        "",
        "",
        "w/-surplus",
        "make-room",
        "moves",
        "evictions",
        "pods");
    for (TenantSummary s : summaries) {
      out.printf(
          Locale.ROOT,
          "%-14s %10d %10d %13s %15d %11d %13d %9d %9d %7d%n",
          s.variant(),
          s.guaranteeViolations(),
          s.owedViolations(),
          Formats.percent(s.shareDevMax()),
          s.coreEvictions(),
          s.coreEvictionsWhileSurplus(),
          s.coreEvictionsSurplusCouldAvoid(),
          s.coreEvictionsMoved(),
          s.surplusEvictions(),
          s.surplusPods());
    }
    out.printf(
        Locale.ROOT,
        "(shares: mean %% of the cluster's GPUs over the window; below-g: %% of the run asking"
            + " for at least its guarantee and holding less; viol: such stretches longer than %.0f s;"
            + " longest: the longest stretch in s; viol-owed: stretches below min(guarantee, demand)"
            + " longer than the grace; core/surp: whole-job and elastic-only victims of the queue's"
            + " jobs)%n%n",
        summaries.get(0).graceSeconds());
  }
}
