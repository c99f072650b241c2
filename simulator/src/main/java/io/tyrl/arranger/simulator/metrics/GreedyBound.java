package io.tyrl.arranger.simulator.metrics;

import io.tyrl.arranger.scheduler.api.Resource;
import io.tyrl.arranger.simulator.trace.Gpus;
import io.tyrl.arranger.simulator.trace.Trace;
import io.tyrl.arranger.simulator.trace.TraceJob;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The allocation of an idealised greedy packer, the yardstick for a scheduler's: the cluster is one
 * pool (no node boundaries, so no fragmentation), there are no queues, shares, gangs, priorities or
 * cycles, and a job starts the moment its whole request (leader and every worker) fits in what the
 * pool has free, scanning waiting jobs in submit order and starting every one that fits (so a small
 * job passes a large one that does not fit). A job runs its duration with all its pods. A job
 * larger than the whole pool is left out.
 *
 * @param times when the allocation changed
 * @param gpus GPUs allocated from then on
 */
public record GreedyBound(double[] times, double[] gpus, long capacityGpu) {

  public static GreedyBound of(Trace trace, Resource capacity) {
    List<Double> times = new ArrayList<>();
    List<Double> gpus = new ArrayList<>();
    LinkedList<TraceJob> waiting = new LinkedList<>();
    PriorityQueue<double[]> running = new PriorityQueue<>((a, b) -> Double.compare(a[0], b[0]));
    List<TraceJob> started = new ArrayList<>();
    Resource free = capacity;
    long allocatedGpu = 0;
    int next = 0;
    List<TraceJob> jobs = trace.jobs();
    times.add(0.0);
    gpus.add(0.0);
    while (next < jobs.size() || !running.isEmpty()) {
      double nextArrival =
          next < jobs.size() ? jobs.get(next).submitSeconds() : Double.POSITIVE_INFINITY;
      double nextFinish = running.isEmpty() ? Double.POSITIVE_INFINITY : running.peek()[0];
      double now = Math.min(nextArrival, nextFinish);
      while (!running.isEmpty() && running.peek()[0] <= now) {
        TraceJob done = started.get((int) running.poll()[1]);
        free = free.plus(done.fullRequest());
        allocatedGpu -= Gpus.whole(done.fullRequest());
      }
      while (next < jobs.size() && jobs.get(next).submitSeconds() <= now) {
        TraceJob job = jobs.get(next++);
        if (job.fullRequest().fitsIn(capacity)) {
          waiting.add(job);
        }
      }
      for (Iterator<TraceJob> it = waiting.iterator(); it.hasNext(); ) {
        TraceJob job = it.next();
        if (job.fullRequest().fitsIn(free)) {
          it.remove();
          free = free.minus(job.fullRequest());
          allocatedGpu += Gpus.whole(job.fullRequest());
          started.add(job);
          running.add(new double[] {now + job.duration().toMillis() / 1000.0, started.size() - 1});
        }
      }
      if (times.get(times.size() - 1) == now) {
        gpus.set(gpus.size() - 1, (double) allocatedGpu);
      } else {
        times.add(now);
        gpus.add((double) allocatedGpu);
      }
    }
    return new GreedyBound(
        times.stream().mapToDouble(Double::doubleValue).toArray(),
        gpus.stream().mapToDouble(Double::doubleValue).toArray(),
        Gpus.whole(capacity));
  }

  /** The mean fraction of the cluster's GPUs allocated over [0, end]. */
  public double meanGpuFraction(double end) {
    return meanGpuFraction(0, end);
  }

  /** The mean fraction of the cluster's GPUs allocated over [start, end]. */
  public double meanGpuFraction(double start, double end) {
    return capacityGpu == 0 ? Double.NaN : StepSeries.mean(times, gpus, start, end) / capacityGpu;
  }
}
