package io.tyrl.arranger.testing.chaos;

import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.testing.TYJobBuilder;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A steady stream of small good TYJobs (a learner and one to three actors), one every interval,
 * each entered in the invariants' ledger once the API server accepted it. A create the API server
 * does not accept (it is stopped or frozen) is counted as refused and not retried under that name:
 * such a job was never submitted.
 */
public final class JobStream implements AutoCloseable {

  private final ApiClient client;
  private final String namespace;
  private final String prefix;
  private final Duration interval;
  private final ClusterInvariants invariants;
  private final Random random;
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          runnable -> {
            Thread thread = new Thread(runnable, "chaos-job-stream");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicInteger submitted = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private final AtomicReference<String> lastRefusal = new AtomicReference<>("");
  private volatile Map<String, String> nodeSelector = Map.of();

  public JobStream(
      ApiClient client,
      String namespace,
      String prefix,
      Duration interval,
      ClusterInvariants invariants,
      long seed) {
    this.client = client;
    this.namespace = namespace;
    this.prefix = prefix;
    this.interval = interval;
    this.invariants = invariants;
    this.random = new Random(seed);
  }

  /** Confines the jobs' pods to nodes with this label, e.g. a test's own nodes. */
  public JobStream nodeSelector(String key, String value) {
    nodeSelector = Map.of(key, value);
    return this;
  }

  public JobStream start() {
    executor.scheduleWithFixedDelay(this::submitOne, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
    return this;
  }

  /** Submits one job now (also usable without {@link #start()}). */
  public synchronized void submitOne() {
    String name = prefix + "-" + next.incrementAndGet();
    try {
      TYJobBuilder job =
          TYJobBuilder.named(name)
              .namespace(namespace)
              .leader("learner", random.nextBoolean() ? "1" : "2", "1Gi")
              .workers("actor", 1 + random.nextInt(3), "1", "512Mi");
      nodeSelector.forEach(job::nodeSelector);
      job.create(client);
      invariants.submitted(namespace, name, Instant.now());
      submitted.incrementAndGet();
    } catch (RuntimeException e) {
      refused.incrementAndGet();
      lastRefusal.set(name + ": " + e.getMessage());
    }
  }

  public int submitted() {
    return submitted.get();
  }

  public int refused() {
    return refused.get();
  }

  public String lastRefusal() {
    return lastRefusal.get();
  }

  /** Stops submitting; returns once no submission is in flight. */
  @Override
  public void close() {
    executor.shutdownNow();
    try {
      if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException(
            "a job submission was still in flight 30 s after stopping the stream");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
