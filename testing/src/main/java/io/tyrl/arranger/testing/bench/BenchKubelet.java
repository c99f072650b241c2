package io.tyrl.arranger.testing.bench;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.SimulatedKubelet;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The controller creates a job's workers only once its leader has an IP, which a kubelet reports.
 * No node agent runs here (it would write every pod's status); instead the benchmark reports pods
 * Running with an IP as soon as they exist on their node, as {@link SimulatedKubelet#run} does (one
 * GET and one PATCH of pods/status per pod, counted as the benchmark's writes, not Arranger's):
 * only the leaders for the throughput phases, every pod for the big job, whose finish line is every
 * pod Running.
 */
final class BenchKubelet implements AutoCloseable {

  private final SimulatedKubelet kubelet;
  private final boolean everyPod;
  private final ExecutorService pool;
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

  private BenchKubelet(ApiClient admin, boolean everyPod, int threads) {
    this.kubelet = new SimulatedKubelet(admin);
    this.everyPod = everyPod;
    this.pool =
        Executors.newFixedThreadPool(
            threads,
            runnable -> {
              Thread thread = new Thread(runnable, "bench-kubelet");
              thread.setDaemon(true);
              return thread;
            });
  }

  /** Reports only leaders Running: what the controller waits for before the workers. */
  static BenchKubelet leaders(ApiClient admin) {
    return new BenchKubelet(admin, false, 4);
  }

  /** Reports every pod Running, with as many threads as a few kubelets would. */
  static BenchKubelet everyPod(ApiClient admin) {
    return new BenchKubelet(admin, true, 8);
  }

  /**
   * For {@link BindingWatch}: a pod now exists with its node; it is reported Running if it is one
   * to run.
   */
  void onBound(JsonObject pod) {
    JsonObject metadata = pod.getAsJsonObject("metadata");
    JsonObject labels = metadata.getAsJsonObject("labels");
    boolean leader =
        labels != null
            && labels.has(PodLabels.ROLE)
            && PodLabels.LEADER.equals(labels.get(PodLabels.ROLE).getAsString());
    if (!leader && !everyPod) {
      return;
    }
    String namespace = metadata.get("namespace").getAsString();
    String name = metadata.get("name").getAsString();
    pool.submit(
        () -> {
          try {
            kubelet.run(namespace, name);
            started.incrementAndGet();
          } catch (RuntimeException e) {
            failure.compareAndSet(null, e);
          }
        });
  }

  /**
   * Waits until {@code count} pods have been reported Running; returns System.nanoTime() when the
   * last report was written, or throws after the timeout (or at the first failed report).
   */
  long awaitStarted(int count, Duration timeout, Runnable progress) {
    long deadline = System.nanoTime() + timeout.toNanos();
    long nextProgress = System.nanoTime() + Duration.ofSeconds(5).toNanos();
    while (started() < count) {
      long now = System.nanoTime();
      if (now >= deadline) {
        throw new IllegalStateException(
            "only "
                + started.get()
                + " of "
                + count
                + " pods Running after "
                + timeout.toSeconds()
                + " s");
      }
      if (now >= nextProgress) {
        progress.run();
        nextProgress = now + Duration.ofSeconds(5).toNanos();
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    return System.nanoTime();
  }

  /** The pods reported Running so far; throws once a report failed. */
  int started() {
    RuntimeException e = failure.get();
    if (e != null) {
      throw new IllegalStateException("could not report a pod Running: " + e.getMessage(), e);
    }
    return started.get();
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
