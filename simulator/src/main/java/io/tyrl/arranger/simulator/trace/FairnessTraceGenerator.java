package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The fairness-over-time trace: two teams of equal weight and no guarantee. Team A runs a sweep
 * alone for {@code sweepHours} while team B is idle; then both submit continuously for {@code
 * hours}. Every job is one learner and seven actors of one GPU each (8 GPUs, all needed to start)
 * running 30 to 90 minutes. During the sweep A offers 1.2 times the cluster's GPUs; afterwards each
 * team offers {@code perTeamLoad} times them, so together they ask more than the cluster has and
 * compete the whole time. Arrivals are Poisson; the same settings always give the same trace.
 */
public final class FairnessTraceGenerator {

  public static final String TEAM_A = "team-a";
  public static final String TEAM_B = "team-b";

  /** GPUs per job: a learner and seven actors, one GPU each. */
  static final int JOB_GPUS = 8;

  static final double SWEEP_LOAD = 1.2;

  /**
   * @param perTeamLoad each team's offered GPU load once both submit, as a share of the cluster
   */
  public record Settings(
      double sweepHours, double hours, long clusterGpus, double perTeamLoad, long seed) {
    public Settings {
      if (!(sweepHours >= 0) || !(hours > 0)) {
        throw new IllegalArgumentException(
            "the sweep's hours must be >= 0 and the contended hours > 0, were "
                + sweepHours
                + " and "
                + hours);
      }
      if (clusterGpus < JOB_GPUS) {
        throw new IllegalArgumentException(
            "the cluster needs at least " + JOB_GPUS + " GPUs, has " + clusterGpus);
      }
      if (!(perTeamLoad > 0)) {
        throw new IllegalArgumentException("per-team load must be > 0, was " + perTeamLoad);
      }
    }

    /** When both teams stop submitting. */
    public double endSeconds() {
      return (sweepHours + hours) * 3600;
    }
  }

  private FairnessTraceGenerator() {}

  public static Trace generate(Settings settings) {
    SplittableRandom random = new SplittableRandom(settings.seed());
    List<Timed> timed = new ArrayList<>();
    double sweepEnd = settings.sweepHours() * 3600;
    double end = settings.endSeconds();
    double meanRun = 3600;
    // Jobs per second that offer `load` of the cluster: load × GPUs / (GPUs per job × mean run).
    double sweepRate = SWEEP_LOAD * settings.clusterGpus() / (JOB_GPUS * meanRun);
    double teamRate = settings.perTeamLoad() * settings.clusterGpus() / (JOB_GPUS * meanRun);
    arrivals(random, 0, sweepEnd, sweepRate, TEAM_A, timed);
    arrivals(random, sweepEnd, end, teamRate, TEAM_A, timed);
    arrivals(random, sweepEnd, end, teamRate, TEAM_B, timed);
    timed.sort(Comparator.comparingDouble(Timed::seconds).thenComparing(Timed::queue));
    Resource gpu = Resource.of("cpu", "8", "memory", "64Gi", Resource.GPU, "1");
    int digits = Integer.toString(Math.max(0, timed.size() - 1)).length();
    List<TraceJob> jobs = new ArrayList<>(timed.size());
    for (int i = 0; i < timed.size(); i++) {
      Timed job = timed.get(i);
      jobs.add(
          new TraceJob(
              job.queue() + "-" + String.format("%0" + digits + "d", i),
              job.seconds(),
              job.queue(),
              1,
              5,
              gpu,
              gpu,
              JOB_GPUS - 1,
              JOB_GPUS - 1,
              Duration.ofSeconds(job.runSeconds()),
              GangMode.STRICT,
              null,
              null));
    }
    Map<String, Integer> weights = new LinkedHashMap<>();
    weights.put(TEAM_A, 1);
    weights.put(TEAM_B, 1);
    return new Trace(jobs, QueueTree.flat(weights));
  }

  private record Timed(double seconds, String queue, long runSeconds) {}

  /** Poisson arrivals of one team between {@code from} and {@code to}, each run 30 to 90 min. */
  private static void arrivals(
      SplittableRandom random,
      double from,
      double to,
      double rate,
      String queue,
      List<Timed> into) {
    double clock = from;
    while (true) {
      clock += -Math.log(1 - random.nextDouble()) / rate;
      if (clock >= to) {
        return;
      }
      long runSeconds = 1800 + random.nextLong(3601);
      into.add(new Timed(Math.round(clock * 1000) / 1000.0, queue, runSeconds));
    }
  }
}
