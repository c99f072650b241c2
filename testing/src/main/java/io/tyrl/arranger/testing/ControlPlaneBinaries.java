package io.tyrl.arranger.testing;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Finds the etcd and kube-apiserver binaries. A folder named by {@code KUBEBUILDER_ASSETS} (the
 * envtest convention) wins; otherwise {@code scripts/control-plane.sh} provisions and caches them,
 * which takes several minutes the first time.
 */
public record ControlPlaneBinaries(
    Path etcd, Path kubeApiServer, Path kubeScheduler, Path kubeControllerManager) {

  private static final String SCRIPT = "scripts/control-plane.sh";
  private static final long PROVISION_TIMEOUT_MINUTES = 30;

  public static ControlPlaneBinaries locate() {
    String assets = System.getenv("KUBEBUILDER_ASSETS");
    if (assets != null && !assets.isBlank()) {
      return inFolder(Path.of(assets), "KUBEBUILDER_ASSETS");
    }
    return inFolder(provision(), SCRIPT);
  }

  static ControlPlaneBinaries inFolder(Path folder, String source) {
    Path etcd = folder.resolve("etcd");
    Path apiServer = folder.resolve("kube-apiserver");
    for (Path binary : List.of(etcd, apiServer)) {
      if (!Files.isExecutable(binary)) {
        throw new IllegalStateException(
            source + " names " + folder + ", which has no executable " + binary.getFileName());
      }
    }
    return new ControlPlaneBinaries(
        etcd,
        apiServer,
        folder.resolve("kube-scheduler"),
        folder.resolve("kube-controller-manager"));
  }

  /**
   * Runs the provisioning script; its progress goes to this process's stderr, the folder comes last
   * on stdout.
   */
  private static Path provision() {
    Path script = ProjectRoot.find().resolve(SCRIPT);
    System.err.println(
        "[arranger-testing] provisioning the control plane with "
            + script
            + " (the first run builds kube-apiserver and takes several minutes)");
    ProcessBuilder builder =
        new ProcessBuilder("bash", script.toString(), "provision")
            .redirectError(ProcessBuilder.Redirect.INHERIT);
    try {
      Process process = builder.start();
      List<String> lines = new ArrayList<>();
      try (BufferedReader out =
          new BufferedReader(
              new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = out.readLine(); line != null; line = out.readLine()) {
          lines.add(line);
        }
      }
      if (!process.waitFor(PROVISION_TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
        process.destroyForcibly();
        throw new IllegalStateException(
            script + " did not finish within " + PROVISION_TIMEOUT_MINUTES + " minutes");
      }
      if (process.exitValue() != 0 || lines.isEmpty()) {
        throw new IllegalStateException(
            script + " failed with exit code " + process.exitValue() + "; see its output above");
      }
      return Path.of(lines.get(lines.size() - 1).trim());
    } catch (IOException e) {
      throw new IllegalStateException("cannot run " + script + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while provisioning the control plane", e);
    }
  }
}
