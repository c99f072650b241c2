package io.tyrl.arranger.testing.bench;

import io.tyrl.arranger.testing.ControlPlane;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A Kubernetes 1.20 component (kube-scheduler, kube-controller-manager) as a process against the
 * control plane, under the admin identity: client QPS and burst raised so that its own rate limiter
 * is not what is measured, leader election off, HTTPS off, and /healthz and /metrics on a plain
 * loopback port. Ended by its PID.
 */
final class ComponentProcess implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Process process;
  private final int port;
  private final Path log;

  private ComponentProcess(String name, Process process, int port, Path log) {
    this.name = name;
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /** kube-scheduler with its client's QPS and burst in a KubeSchedulerConfiguration file. */
  static ComponentProcess kubeScheduler(
      Path binary, ControlPlane controlPlane, Path workDir, int qps) {
    String name = "kube-scheduler";
    try {
      Path kubeconfig = prepare(name, binary, controlPlane, workDir);
      Path config = workDir.resolve(name + ".yaml");
      // With --config, kube-scheduler 1.20 takes its plain HTTP port (/healthz, /metrics) from the
      // file.
      int port = freeLoopbackPort();
      Files.writeString(
          config,
          """
          apiVersion: kubescheduler.config.k8s.io/v1beta1
          kind: KubeSchedulerConfiguration
          clientConnection:
            kubeconfig: "%s"
            qps: %d
            burst: %d
          leaderElection:
            leaderElect: false
          healthzBindAddress: "127.0.0.1:%d"
          metricsBindAddress: "127.0.0.1:%d"
          """
              .formatted(kubeconfig.toAbsolutePath(), qps, qps, port, port));
      return start(
          name,
          workDir,
          port,
          List.of(
              binary.toString(),
              "--config",
              config.toAbsolutePath().toString(),
              "--secure-port",
              "0",
              "--v",
              "1"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  /**
   * kube-controller-manager running only the Job controller, with its client's QPS and burst raised
   * as kube-scheduler's are.
   */
  static ComponentProcess kubeControllerManager(
      Path binary, ControlPlane controlPlane, Path workDir, int qps) {
    String name = "kube-controller-manager";
    try {
      Path kubeconfig = prepare(name, binary, controlPlane, workDir);
      int port = freeLoopbackPort();
      return start(
          name,
          workDir,
          port,
          List.of(
              binary.toString(),
              "--kubeconfig",
              kubeconfig.toAbsolutePath().toString(),
              "--controllers",
              "job",
              "--leader-elect=false",
              "--kube-api-qps",
              Integer.toString(qps),
              "--kube-api-burst",
              Integer.toString(qps),
              "--address",
              "127.0.0.1",
              "--port",
              Integer.toString(port),
              "--secure-port",
              "0",
              "--v",
              "1"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name, e);
    }
  }

  private static Path prepare(String name, Path binary, ControlPlane controlPlane, Path workDir)
      throws IOException {
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          "no " + name + " at " + binary + " (scripts/control-plane.sh builds it)");
    }
    Files.createDirectories(workDir);
    return controlPlane.writeKubeconfig(workDir.resolve(name + ".kubeconfig"), ControlPlane.ADMIN);
  }

  private static ComponentProcess start(String name, Path workDir, int port, List<String> command)
      throws IOException {
    Path log = workDir.resolve(name + ".log");
    Process process =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
    return new ComponentProcess(name, process, port, log);
  }

  private static int freeLoopbackPort() throws IOException {
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  long pid() {
    return process.pid();
  }

  Path log() {
    return log;
  }

  /** The body of a plain GET on its port, or null. */
  String get(String path) {
    try {
      HttpResponse<String> response =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                  .timeout(Duration.ofSeconds(5))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      return response.statusCode() == 200 ? response.body() : null;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  ComponentProcess awaitHealthy(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with code " + process.exitValue() + "; see " + log);
      }
      if ("ok".equals(get("/healthz"))) {
        return this;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted", e);
      }
    }
    throw new IllegalStateException(
        name + " was not healthy within " + timeout.toSeconds() + " s; see " + log);
  }

  @Override
  public void close() {
    ProcessHandle.of(process.pid())
        .ifPresent(
            handle -> {
              handle.destroy();
              try {
                if (!process.waitFor(15, TimeUnit.SECONDS)) {
                  handle.destroyForcibly();
                  process.waitFor(15, TimeUnit.SECONDS);
                }
              } catch (InterruptedException e) {
                handle.destroyForcibly();
                Thread.currentThread().interrupt();
              }
            });
  }
}
