package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A service whose port was taken between finding it free and binding it starts again. */
class ServiceProcessPortsTest {

  @TempDir Path workDir;

  @Test
  void aServiceWhosePortWasTakenIsStartedAgainOnANewPort() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServiceProcess service = start(portsStartingWith(taken.getLocalPort()))) {
      service.awaitReady(Duration.ofSeconds(30));

      assertThat(service.port()).isNotEqualTo(taken.getLocalPort());
      assertThat(service.isReady()).isTrue();
      assertThat(service.logTail())
          .contains("Port " + taken.getLocalPort() + " was already in use");
    }
  }

  @Test
  void aPortTakenOnEveryAttemptEndsTheStart() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ServiceProcess service = start(taken::getLocalPort)) {
      assertThatThrownBy(() -> service.awaitReady(Duration.ofSeconds(30)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("exited with code 1");
    }
  }

  @Test
  void aTakenPortIsToldApartFromOtherFailures() {
    String taken = "Web server failed to start. Port 44071 was already in use.";

    assertThat(ServiceProcess.portWasTaken(taken, 44071)).isTrue();
    assertThat(ServiceProcess.portWasTaken(taken, 44072)).isFalse();
    assertThat(ServiceProcess.portWasTaken("APPLICATION FAILED TO START: no kubeconfig", 44071))
        .isFalse();
  }

  private ServiceProcess start(IntSupplier ports) throws IOException {
    return ServiceProcess.start("stand-in", standInJar(), workDir, Map.of(), List.of(), ports);
  }

  private static IntSupplier portsStartingWith(int first) {
    int[] calls = {0};
    return () -> calls[0]++ == 0 ? first : FreePorts.onLoopback();
  }

  /** A jar whose manifest runs {@link PortClaimingService} from this module's test classes. */
  private Path standInJar() throws IOException {
    Path classes =
        Path.of(
            PortClaimingService.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .getPath());
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest
        .getMainAttributes()
        .put(Attributes.Name.MAIN_CLASS, PortClaimingService.class.getName());
    manifest.getMainAttributes().put(Attributes.Name.CLASS_PATH, classes.toUri().toString());
    Path jar = workDir.resolve("stand-in.jar");
    try (OutputStream out = Files.newOutputStream(jar);
        JarOutputStream unused = new JarOutputStream(out, manifest)) {
      return jar;
    }
  }
}
