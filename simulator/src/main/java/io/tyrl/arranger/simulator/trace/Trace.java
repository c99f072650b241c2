package io.tyrl.arranger.simulator.trace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A workload: job submissions in submit order (ties keep their given order), and the queues they
 * are submitted to: a tree whose leaves hold the jobs, or, for a trace that gives only the jobs,
 * one top-level queue per queue they name, of the weight they give.
 */
public record Trace(List<TraceJob> jobs, QueueTree queues) {

  /** The jobs' queues at the top level, with the weights the jobs give. */
  public Trace(List<TraceJob> jobs) {
    this(jobs, null);
  }

  public Trace {
    List<TraceJob> sorted = new ArrayList<>(jobs);
    sorted.sort(Comparator.comparingDouble(TraceJob::submitSeconds));
    jobs = List.copyOf(sorted);
    Set<String> names = new HashSet<>();
    Map<String, Integer> weights = new LinkedHashMap<>();
    for (TraceJob job : jobs) {
      if (!names.add(job.name())) {
        throw new IllegalArgumentException("two jobs are named " + job.name());
      }
      Integer known = weights.putIfAbsent(job.queue(), job.queueWeight());
      if (known != null && known != job.queueWeight()) {
        throw new IllegalArgumentException(
            "job "
                + job.name()
                + ": queue "
                + job.queue()
                + " has weight "
                + known
                + " in earlier jobs, not "
                + job.queueWeight());
      }
    }
    if (queues == null) {
      queues = QueueTree.flat(weights);
    } else {
      for (TraceJob job : jobs) {
        if (!queues.isLeaf(job.queue())) {
          throw new IllegalArgumentException(
              "job "
                  + job.name()
                  + ": queue "
                  + job.queue()
                  + (queues.contains(job.queue())
                      ? " has child queues (jobs live in leaf queues)"
                      : " is not in the queue tree"));
        }
        if (queues.queue(job.queue()).weight() != job.queueWeight()) {
          throw new IllegalArgumentException(
              "job "
                  + job.name()
                  + ": queue "
                  + job.queue()
                  + " has weight "
                  + queues.queue(job.queue()).weight()
                  + " in the queue tree, not "
                  + job.queueWeight());
        }
      }
    }
  }

  /** Queue name → weight, queues in order of first submission. */
  public Map<String, Integer> queueWeights() {
    Map<String, Integer> weights = new LinkedHashMap<>();
    jobs.forEach(job -> weights.putIfAbsent(job.queue(), job.queueWeight()));
    return weights;
  }

  /** Seconds from the trace's start to its last submission. */
  public double lastSubmitSeconds() {
    return jobs.isEmpty() ? 0 : jobs.get(jobs.size() - 1).submitSeconds();
  }
}
