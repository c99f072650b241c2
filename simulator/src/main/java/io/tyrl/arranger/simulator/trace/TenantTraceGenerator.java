package io.tyrl.arranger.simulator.trace;

import io.tyrl.arranger.simulator.trace.TraceGenerator.Shape;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Makes a multi-team trace: the jobs are {@link TraceGenerator}'s RL jobs (a GPU learner and an
 * elastic actor set with a gang minimum), but each leaf queue submits its share of them in bursts —
 * a team launching a sweep or a set of experiments at once — rather than as one Poisson stream.
 * Burst sizes are geometric (at least one job), bursts start uniformly at random over the horizon,
 * and the jobs of a burst follow one another at exponential gaps. The horizon is the one that makes
 * the offered load (GPU·seconds asked over GPU·seconds the cluster has, on the most demanded
 * resource) equal the settings' {@code load}. The same settings always give the same trace.
 */
public final class TenantTraceGenerator {

  private TenantTraceGenerator() {}

  public static Trace generate(TenantSettings settings) {
    SplittableRandom random = new SplittableRandom(settings.seed());
    List<String> leaves =
        settings.tree().leaves().stream()
            .map(QueueSpec::name)
            .filter(settings.volume()::containsKey)
            .toList();
    int[] counts = jobsPerQueue(settings, leaves);
    List<List<Shape>> shapes = new ArrayList<>();
    List<Shape> all = new ArrayList<>();
    for (int q = 0; q < leaves.size(); q++) {
      List<Shape> queueShapes = new ArrayList<>();
      for (int i = 0; i < counts[q]; i++) {
        queueShapes.add(TraceGenerator.shape(random, leaves.get(q)));
      }
      shapes.add(queueShapes);
      all.addAll(queueShapes);
    }
    double horizon =
        TraceGenerator.horizonSeconds(all, settings.cluster().capacity(), settings.load());
    record Timed(double seconds, Shape shape) {}
    List<Timed> timed = new ArrayList<>();
    double burstContinues = 1 - 1 / settings.meanBurstJobs();
    for (List<Shape> queueShapes : shapes) {
      int next = 0;
      while (next < queueShapes.size()) {
        int size = 1;
        while (random.nextDouble() < burstContinues) {
          size++;
        }
        double clock = random.nextDouble() * horizon;
        for (int i = 0; i < size && next < queueShapes.size(); i++) {
          if (i > 0) {
            clock += -Math.log(1 - random.nextDouble()) * settings.meanGapInBurstSeconds();
          }
          timed.add(new Timed(Math.round(clock * 1000) / 1000.0, queueShapes.get(next++)));
        }
      }
    }
    timed.sort(Comparator.comparingDouble(Timed::seconds));
    int digits = Integer.toString(Math.max(0, timed.size() - 1)).length();
    List<TraceJob> jobs = new ArrayList<>(timed.size());
    for (int i = 0; i < timed.size(); i++) {
      Shape shape = timed.get(i).shape();
      jobs.add(
          new TraceJob(
              "rl-" + String.format("%0" + digits + "d", i),
              timed.get(i).seconds(),
              shape.queue(),
              settings.tree().queue(shape.queue()).weight(),
              shape.priority(),
              shape.leader(),
              shape.worker(),
              shape.workers(),
              shape.minWorkers(),
              Duration.ofSeconds(shape.runSeconds()),
              shape.gang(),
              null,
              shape.basicPolicy()));
    }
    return new Trace(jobs, settings.tree());
  }

  /** Each leaf's share of the jobs by volume, rounded by largest remainder to sum to the total. */
  static int[] jobsPerQueue(TenantSettings settings, List<String> leaves) {
    double total = leaves.stream().mapToDouble(settings.volume()::get).sum();
    int[] counts = new int[leaves.size()];
    double[] remainders = new double[leaves.size()];
    int given = 0;
    for (int q = 0; q < leaves.size(); q++) {
      double exact = settings.jobs() * settings.volume().get(leaves.get(q)) / total;
      counts[q] = (int) Math.floor(exact);
      remainders[q] = exact - counts[q];
      given += counts[q];
    }
    while (given < settings.jobs()) {
      int best = 0;
      for (int q = 1; q < leaves.size(); q++) {
        if (remainders[q] > remainders[best]) {
          best = q;
        }
      }
      counts[best]++;
      remainders[best] = -1;
      given++;
    }
    return counts;
  }
}
