package io.tyrl.arranger.testing.bench;

import com.google.gson.JsonObject;
import io.kubernetes.client.openapi.ApiClient;
import io.tyrl.arranger.crd.contract.PodLabels;
import io.tyrl.arranger.testing.SimulatedKubelet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The controller creates a job's workers only once its leader has an IP, which a kubelet reports.
 * No node agent runs here (it would write every pod's status); instead the benchmark reports each
 * leader Running with an IP as soon as it exists on its node, as {@link SimulatedKubelet#run} does
 * (one GET and one PATCH of pods/status per job, counted as the benchmark's writes, not
 * Arranger's).
 */
final class LeaderKubelet implements AutoCloseable {

  private final SimulatedKubelet kubelet;
  private final ExecutorService pool =
      Executors.newFixedThreadPool(
          4,
          runnable -> {
            Thread thread = new Thread(runnable, "bench-leader-kubelet");
            thread.setDaemon(true);
            return thread;
          });
  private final AtomicInteger started = new AtomicInteger();
  private final AtomicReference<RuntimeException> failure = new AtomicReference<>();

  LeaderKubelet(ApiClient admin) {
    this.kubelet = new SimulatedKubelet(admin);
  }

  /** For {@link BindingWatch}: a pod now exists with its node; a leader is reported Running. */
  void onBound(JsonObject pod) {
    JsonObject metadata = pod.getAsJsonObject("metadata");
    JsonObject labels = metadata.getAsJsonObject("labels");
    if (labels == null
        || !labels.has(PodLabels.ROLE)
        || !"leader".equals(labels.get(PodLabels.ROLE).getAsString())) {
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

  /** The leaders reported Running so far; throws once a report failed. */
  int started() {
    RuntimeException e = failure.get();
    if (e != null) {
      throw new IllegalStateException("could not report a leader Running: " + e.getMessage(), e);
    }
    return started.get();
  }

  @Override
  public void close() {
    pool.shutdownNow();
  }
}
