package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;
import static io.tyrl.arranger.testing.bench.Progress.seconds;

import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.NodeSpec;
import io.tyrl.arranger.testing.SimulatedNodes;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cluster every phase runs on: the control plane, the benchmark's raw API client, the simulated
 * nodes, and the work folder; with what the phases do to it around their runs (create a namespace,
 * delete pods, read the API server's metrics).
 */
final class BenchCluster {

  /** Deletes at once: no kubelet runs to confirm a pod's end. */
  static final String GRACE_ZERO =
      "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\",\"gracePeriodSeconds\":0}";

  private final ControlPlane controlPlane;
  private final RawApi api;
  private final Path workDir;
  private final List<String> nodeNames = new ArrayList<>();

  BenchCluster(ControlPlane controlPlane, RawApi api, Path workDir) {
    this.controlPlane = controlPlane;
    this.api = api;
    this.workDir = workDir;
  }

  ControlPlane controlPlane() {
    return controlPlane;
  }

  RawApi api() {
    return api;
  }

  /** Where the processes' logs and the profiles go. */
  Path workDir() {
    return workDir;
  }

  /** The node for pod i when a phase presets nodes: round robin. */
  String nodeFor(int i) {
    return nodeNames.get(i % nodeNames.size());
  }

  /**
   * Registers n simulated nodes of 64 cpu, 256Gi, 8 GPUs and 500 pods, over the given number of
   * connections.
   */
  void registerNodes(int n, int connections) {
    for (int i = 0; i < n; i++) {
      nodeNames.add("bench-node-%05d".formatted(i));
    }
    List<SimulatedNodes> registrars = new ArrayList<>();
    for (int c = 0; c < connections; c++) {
      registrars.add(new SimulatedNodes(controlPlane.adminClient()));
    }
    progress(
        "registering %d nodes (64 cpu, 256Gi, 8 %s, 500 pods) with %d threads",
        n, NodeSpec.GPU, api.threads());
    long start = System.nanoTime();
    AtomicInteger done = new AtomicInteger();
    api.runAll(
        n,
        i -> {
          registrars
              .get(i % registrars.size())
              .register(
                  NodeSpec.named(nodeNames.get(i))
                      .cpu("64")
                      .memory("256Gi")
                      .gpus(8)
                      .pods(500)
                      .label("arranger.tyrl.io/bench", "e2e")
                      .build());
          int registered = done.incrementAndGet();
          if (registered % 1000 == 0 && registered < n) {
            progress("  %d / %d nodes", registered, n);
          }
        });
    double seconds = seconds(start, System.nanoTime());
    long count = api.count("/api/v1/nodes");
    progress(
        "registered %d nodes in %.1f s (%.0f nodes/s, 4 requests each)",
        count, seconds, n / seconds);
    if (count < n) {
      throw new IllegalStateException("only " + count + " of " + n + " nodes are registered");
    }
  }

  /** Creates the namespace unless it exists; returns its name. */
  String createNamespace(String name) {
    api.post(
        0,
        "/api/v1/namespaces",
        "{\"apiVersion\":\"v1\",\"kind\":\"Namespace\",\"metadata\":{\"name\":\"" + name + "\"}}",
        409);
    return name;
  }

  /**
   * Deletes pods by name at once (grace period 0: no kubelet runs to confirm) and waits until none
   * is left.
   */
  void deletePods(String namespace, List<String> names) {
    long start = System.nanoTime();
    api.runAll(
        names.size(),
        i ->
            api.delete(
                "/api/v1/namespaces/" + namespace + "/pods/" + names.get(i), GRACE_ZERO, 404));
    String collection = "/api/v1/namespaces/" + namespace + "/pods";
    if (api.count(collection) > 0) {
      api.delete(collection, GRACE_ZERO, 404);
    }
    awaitEmpty(collection);
    progress(
        "  deleted %d pods in %s in %.1f s",
        names.size(), namespace, seconds(start, System.nanoTime()));
  }

  void awaitEmpty(String collection) {
    long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
    while (api.count(collection) > 0) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(collection + " is still not empty after 10 minutes");
      }
      sleep(Duration.ofMillis(500));
    }
  }

  PromText apiServerMetrics() {
    return PromText.parse(api.get("/metrics"));
  }

  /**
   * Waits the settle seconds after the finish line and returns the writes made meanwhile: what a
   * scheduler or controller still writes once every pod has its node.
   */
  Map<String, Double> settle(
      int settleSeconds, Map<String, Double> writesUntilDone, Map<String, Double> before) {
    if (settleSeconds <= 0) {
      return Map.of();
    }
    sleep(Duration.ofSeconds(settleSeconds));
    Map<String, Double> all = PromText.diff(before, apiServerMetrics().apiServerWrites());
    return PromText.diff(writesUntilDone, all);
  }

  private static void sleep(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }
}
