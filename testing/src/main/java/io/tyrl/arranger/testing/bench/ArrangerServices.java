package io.tyrl.arranger.testing.bench;

import static io.tyrl.arranger.testing.bench.Progress.progress;

import io.tyrl.arranger.testing.ControlPlane;
import io.tyrl.arranger.testing.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Arranger's two services, each from its runnable jar as the build leaves it, connected to the
 * benchmark's API server; the pods-only and Arranger phases run while both are up.
 */
record ArrangerServices(ServiceProcess scheduler, ServiceProcess controller)
    implements AutoCloseable {

  /**
   * Starts scheduler-service and controller-service with the options' heap, JVM options and
   * properties, and waits until both are ready.
   */
  static ArrangerServices start(BenchCluster cluster, BenchmarkOptions options) {
    Path root = options.projectRoot();
    Path workDir = cluster.workDir();
    Path kubeconfig =
        cluster
            .controlPlane()
            .writeKubeconfig(workDir.resolve("arranger.kubeconfig"), ControlPlane.ADMIN);
    List<String> jvm = new ArrayList<>(List.of("-Xmx" + options.serviceHeap()));
    // e.g. -XX:StartFlightRecording=filename=/tmp/x.jfr,settings=profile to see where the time goes
    jvm.addAll(options.serviceJvmOptions());
    Map<String, String> common = Map.of("arranger.kubernetes.kubeconfig", kubeconfig.toString());
    Map<String, String> schedulerProperties = new LinkedHashMap<>(common);
    schedulerProperties.putAll(options.schedulerProperties());
    Map<String, String> controllerProperties = new LinkedHashMap<>(common);
    controllerProperties.putAll(options.controllerProperties());
    progress(
        "[arranger] starting scheduler-service (%s) and controller-service (%s), %s heap each",
        schedulerProperties, controllerProperties, options.serviceHeap());
    ServiceProcess scheduler =
        ServiceProcess.start(
            "scheduler", options.jar(root, "scheduler-service"), workDir, schedulerProperties, jvm);
    ArrangerServices services;
    try {
      services =
          new ArrangerServices(
              scheduler,
              ServiceProcess.start(
                  "controller",
                  options.jar(root, "controller-service"),
                  workDir,
                  controllerProperties,
                  jvm));
    } catch (RuntimeException e) {
      scheduler.close();
      throw e;
    }
    try {
      scheduler.awaitReady(Duration.ofSeconds(180));
      services.controller().awaitReady(Duration.ofSeconds(180));
    } catch (RuntimeException e) {
      services.close();
      throw e;
    }
    return services;
  }

  /** Both processes by name, for the CPU seconds of a run. */
  Map<String, Long> pids() {
    return Map.of("scheduler", scheduler.pid(), "controller", controller.pid());
  }

  /** Stops the controller, then the scheduler: the reverse of their start. */
  @Override
  public void close() {
    try {
      controller.close();
    } finally {
      scheduler.close();
    }
  }
}
