package io.tyrl.arranger.testing;

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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One Arranger service run from its jar as a separate process, against a control plane, under a
 * given identity, with its own HTTP port and log file; stopped by its PID.
 */
public final class ServiceProcess implements AutoCloseable {

  private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String name;
  private final Process process;
  private final int port;
  private final Path log;
  private volatile boolean frozen;

  private ServiceProcess(String name, Process process, int port, Path log) {
    this.name = name;
    this.process = process;
    this.port = port;
    this.log = log;
  }

  /**
   * @param properties Spring properties, passed as command-line arguments so that they win over the
   *     jar's application.yaml
   */
  public static ServiceProcess start(
      String name,
      Path jar,
      Path workDir,
      Map<String, String> properties,
      List<String> jvmOptions) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          name + ": no jar at " + jar + " (build it with ./mvnw package)");
    }
    int port = FreePorts.onLoopback();
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    command.add("--server.port=" + port);
    properties.forEach((key, value) -> command.add("--" + key + "=" + value));
    try {
      Files.createDirectories(workDir);
      Path log = workDir.resolve(name + ".log");
      Process process =
          new ProcessBuilder(command)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      return new ServiceProcess(name, process, port, log);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " from " + jar, e);
    }
  }

  public String name() {
    return name;
  }

  /** The service's port (server.port): the scheduler's view, and the actuator's unless moved. */
  public int port() {
    return port;
  }

  public long pid() {
    return process.pid();
  }

  public Path log() {
    return log;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /** The exit code once the process has ended, else null. */
  public Integer exitValue() {
    return process.isAlive() ? null : process.exitValue();
  }

  /** True while the service answers its readiness probe with 200. */
  public boolean isReady() {
    HttpResponse<String> response = get("/actuator/health/readiness");
    return response != null && response.statusCode() == 200;
  }

  /**
   * SIGKILL, as a crashed node or an OOM kill: the JVM gets no chance to give its lease up or
   * finish anything in flight. Returns once the process has exited.
   */
  public void kill() {
    process.destroyForcibly();
    try {
      if (!process.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        throw new IllegalStateException(
            name
                + " (pid "
                + pid()
                + ") still runs "
                + STOP_TIMEOUT.toSeconds()
                + " s after SIGKILL");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while killing " + name, e);
    }
  }

  /** SIGSTOP: the service freezes with its connections open and its lease unrenewed. */
  public void freeze() {
    Signals.freeze(pid());
    frozen = true;
  }

  /** SIGCONT after {@link #freeze()}. */
  public void thaw() {
    Signals.thaw(pid());
    frozen = false;
  }

  /** GET on the service's HTTP port: status code and body, or 0 when it does not answer. */
  public HttpResponse<String> get(String path) {
    try {
      return HTTP.send(
          HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
              .timeout(Duration.ofSeconds(5))
              .build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  /** Waits until the service answers its readiness probe with 200. */
  public ServiceProcess awaitReady(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        throw new IllegalStateException(
            name + " exited with code " + process.exitValue() + "\n" + logTail());
      }
      HttpResponse<String> response = get("/actuator/health/readiness");
      if (response != null && response.statusCode() == 200) {
        return this;
      }
      try {
        Thread.sleep(250);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for " + name, e);
      }
    }
    throw new IllegalStateException(
        name + " was not ready within " + timeout.toSeconds() + " s\n" + logTail());
  }

  public String logTail() {
    try (Stream<String> lines = Files.lines(log)) {
      List<String> all = lines.toList();
      return String.join("\n", all.subList(Math.max(0, all.size() - 40), all.size()));
    } catch (IOException | UncheckedIOException e) {
      return "(no log at " + log + ")";
    }
  }

  @Override
  public void close() {
    if (frozen && process.isAlive()) {
      // A stopped process would hold SIGTERM until resumed; resume it so it can shut down in order.
      thaw();
    }
    ProcessStopper.stop(process, STOP_TIMEOUT);
  }
}
