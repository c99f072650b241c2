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
 * kube-scheduler 1.20 as a process against the control plane, under the admin identity: client QPS
 * and burst raised in a KubeSchedulerConfiguration file so that its own rate limiter is not what is
 * measured, leader election off, HTTPS off, and /healthz and /metrics on a plain loopback port.
 * Ended by its PID.
 */
final class KubeSchedulerProcess implements AutoCloseable {

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final Process process;
  private final int port;
  private final Path log;

  private KubeSchedulerProcess(Process process, int port, Path log) {
    this.process = process;
    this.port = port;
    this.log = log;
  }

  static KubeSchedulerProcess start(Path binary, ControlPlane controlPlane, Path workDir, int qps) {
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          "no kube-scheduler at " + binary + " (scripts/control-plane.sh builds it)");
    }
    try {
      Files.createDirectories(workDir);
      Path kubeconfig =
          controlPlane.writeKubeconfig(
              workDir.resolve("kube-scheduler.kubeconfig"), ControlPlane.ADMIN);
      Path config = workDir.resolve("kube-scheduler.yaml");
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
      Path log = workDir.resolve("kube-scheduler.log");
      Process process =
          new ProcessBuilder(
                  List.of(
                      binary.toString(),
                      "--config",
                      config.toAbsolutePath().toString(),
                      "--secure-port",
                      "0",
                      "--v",
                      "1"))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      return new KubeSchedulerProcess(process, port, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start kube-scheduler", e);
    }
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

  KubeSchedulerProcess awaitHealthy(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            "kube-scheduler exited with code " + process.exitValue() + "; see " + log);
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
        "kube-scheduler was not healthy within " + timeout.toSeconds() + " s; see " + log);
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
