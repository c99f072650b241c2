package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.scheduler.api.BasicPolicy;
import io.tyrl.arranger.scheduler.api.GangMode;
import io.tyrl.arranger.scheduler.api.Resource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * Makes RL training traces: each job is a GPU leader (1, 2, 4 or 8 GPUs) with one elastic actor
 * set, half of them CPU actors (16 cpu), half GPU actors (2 GPUs, e.g. rollout engines), 1 to 16 of
 * them in a heavy-tailed (Pareto) number; a minimum of a quarter to all of them; Strict or
 * NonStrict gangs; mostly the default priority; half ask for LeaderFirst; log-normal run times
 * (median 20 minutes, capped at 6 hours); Poisson arrivals at the rate that makes the offered load
 * the settings' {@code load}. The same settings always give the same trace.
 */
public final class TraceGenerator {

  private static final double MEDIAN_RUN_SECONDS = 20 * 60;
  private static final double RUN_SIGMA = 1.0;
  private static final double MIN_RUN_SECONDS = 60;
  private static final double MAX_RUN_SECONDS = 6 * 3600;

  private TraceGenerator() {}

  public static Trace generate(GeneratorSettings settings) {
    SplittableRandom random = new SplittableRandom(settings.seed());
    Map<String, Integer> queues = new TreeMap<>(settings.queues());
    List<String> queueNames = List.copyOf(queues.keySet());
    List<Shape> shapes = new ArrayList<>(settings.jobs());
    for (int i = 0; i < settings.jobs(); i++) {
      shapes.add(shape(random, queueNames.get(random.nextInt(queueNames.size()))));
    }
    double horizon = horizonSeconds(shapes, settings.cluster().capacity(), settings.load());
    double rate = settings.jobs() / horizon;
    List<TraceJob> jobs = new ArrayList<>(settings.jobs());
    double clock = 0;
    int digits = Integer.toString(settings.jobs() - 1).length();
    for (int i = 0; i < shapes.size(); i++) {
      clock += -Math.log(1 - random.nextDouble()) / rate;
      Shape shape = shapes.get(i);
      String name = "rl-" + String.format("%0" + digits + "d", i);
      jobs.add(
          new TraceJob(
              name,
              Math.round(clock * 1000) / 1000.0,
              shape.queue,
              queues.get(shape.queue),
              shape.priority,
              shape.leader,
              shape.worker,
              shape.workers,
              shape.minWorkers,
              Duration.ofSeconds(shape.runSeconds),
              shape.gang,
              null,
              shape.basicPolicy));
    }
    return new Trace(jobs);
  }

  /**
   * The time over which the jobs' demand is {@code load} of the cluster on its most demanded
   * resource.
   */
  static double horizonSeconds(List<Shape> shapes, Resource capacity, double load) {
    double horizon = 0;
    for (String resource : List.of(Resource.CPU, Resource.MEMORY, Resource.GPU)) {
      double demand = 0;
      for (Shape shape : shapes) {
        demand += (double) shape.full().get(resource) * shape.runSeconds;
      }
      long available = capacity.get(resource);
      if (available > 0) {
        horizon = Math.max(horizon, demand / (available * load));
      }
    }
    return horizon;
  }

  static Shape shape(SplittableRandom random, String queue) {
    int leaderGpus = pick(random, new int[] {1, 2, 4, 8}, new double[] {0.25, 0.25, 0.3, 0.2});
    Resource leader =
        Resource.of(
            "cpu",
            Integer.toString(8 * leaderGpus),
            "memory",
            (64 * leaderGpus) + "Gi",
            "nvidia.com/gpu",
            Integer.toString(leaderGpus));
    boolean gpuActors = random.nextDouble() < 0.5;
    Resource worker =
        gpuActors
            ? Resource.of("cpu", "16", "memory", "128Gi", "nvidia.com/gpu", "2")
            : Resource.of("cpu", "16", "memory", "32Gi");
    int workers = boundedPareto(random, 1, 16);
    int minWorkers = Math.max(1, (int) Math.ceil(workers * (0.25 + 0.75 * random.nextDouble())));
    GangMode gang = random.nextDouble() < 0.4 ? GangMode.NON_STRICT : GangMode.STRICT;
    int priority = random.nextDouble() < 0.7 ? 5 : 1 + random.nextInt(10);
    BasicPolicy basicPolicy = random.nextDouble() < 0.5 ? BasicPolicy.LEADER_FIRST : null;
    double run = MEDIAN_RUN_SECONDS * Math.exp(RUN_SIGMA * gaussian(random));
    long runSeconds = Math.round(Math.min(MAX_RUN_SECONDS, Math.max(MIN_RUN_SECONDS, run)));
    return new Shape(
        queue, priority, leader, worker, workers, minWorkers, runSeconds, gang, basicPolicy);
  }

  /**
   * A Pareto (shape 1.2) count from {@code min}, capped at {@code max}: most are small, a few are
   * large.
   */
  private static int boundedPareto(SplittableRandom random, int min, int max) {
    double value = min / Math.pow(1 - random.nextDouble(), 1 / 1.2);
    return (int) Math.min(max, Math.floor(value));
  }

  private static double gaussian(SplittableRandom random) {
    // Box–Muller; SplittableRandom has no nextGaussian on Java 17.
    double u = 1 - random.nextDouble();
    double v = random.nextDouble();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }

  private static int pick(SplittableRandom random, int[] values, double[] weights) {
    double draw = random.nextDouble();
    double sum = 0;
    for (int i = 0; i < values.length; i++) {
      sum += weights[i];
      if (draw < sum) {
        return values[i];
      }
    }
    return values[values.length - 1];
  }

  record Shape(
      String queue,
      int priority,
      Resource leader,
      Resource worker,
      int workers,
      int minWorkers,
      long runSeconds,
      GangMode gang,
      BasicPolicy basicPolicy) {

    Resource full() {
      return leader.plus(worker.times(workers));
    }
  }
}
