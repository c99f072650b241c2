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
import java.util.function.IntSupplier;
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

  /** The command without {@code --server.port}, which each launch adds. */
  private final List<String> command;

  private final Path log;
  private final IntSupplier ports;
  private volatile Process process;
  private volatile int port;
  private volatile int launches;
  private volatile boolean frozen;

  private ServiceProcess(String name, List<String> command, Path log, IntSupplier ports) {
    this.name = name;
    this.command = command;
    this.log = log;
    this.ports = ports;
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
    return start(name, jar, workDir, properties, jvmOptions, FreePorts::onLoopback);
  }

  /** As {@link #start(String, Path, Path, Map, List)}, each port taken from {@code ports}. */
  static ServiceProcess start(
      String name,
      Path jar,
      Path workDir,
      Map<String, String> properties,
      List<String> jvmOptions,
      IntSupplier ports) {
    if (!Files.isRegularFile(jar)) {
      throw new IllegalStateException(
          name + ": no jar at " + jar + " (build it with ./mvnw package)");
    }
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(jvmOptions);
    command.add("-jar");
    command.add(jar.toString());
    properties.forEach((key, value) -> command.add("--" + key + "=" + value));
    try {
      Files.createDirectories(workDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + workDir + " for " + name, e);
    }
    ServiceProcess service =
        new ServiceProcess(name, List.copyOf(command), workDir.resolve(name + ".log"), ports);
    service.launch();
    return service;
  }

  private void launch() {
    int next = ports.getAsInt();
    List<String> withPort = new ArrayList<>(command);
    withPort.add("--server.port=" + next);
    try {
      Process started =
          new ProcessBuilder(withPort)
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
              .start();
      port = next;
      process = started;
      launches++;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot start " + name + " with " + command, e);
    }
  }

  /** True when the ended process's log says its web server's port was taken. */
  private boolean portWasTaken() {
    return portWasTaken(logTail(), port);
  }

  /** True when a service's log says it could not bind {@code port} (Spring Boot's wording). */
  static boolean portWasTaken(String log, int port) {
    return log.contains("Port " + port + " was already in use");
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

  /**
   * Waits until the service answers its readiness probe with 200. A service that ended because its
   * port was taken is started again on a new one, at most {@value FreePorts#LAUNCHES_WHEN_TAKEN}
   * launches in all; {@link #port()} then names the new port.
   */
  public ServiceProcess awaitReady(Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    while (Instant.now().isBefore(deadline)) {
      if (!process.isAlive()) {
        if (launches < FreePorts.LAUNCHES_WHEN_TAKEN && portWasTaken()) {
          pause(FreePorts.pauseAfterTaken(launches));
          launch();
          continue;
        }
        throw new IllegalStateException(
            name + " exited with code " + process.exitValue() + "\n" + logTail());
      }
      HttpResponse<String> response = get("/actuator/health/readiness");
      if (response != null && response.statusCode() == 200) {
        return this;
      }
      pause(Duration.ofMillis(250));
    }
    throw new IllegalStateException(
        name + " was not ready within " + timeout.toSeconds() + " s\n" + logTail());
  }

  private void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for " + name, e);
    }
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
