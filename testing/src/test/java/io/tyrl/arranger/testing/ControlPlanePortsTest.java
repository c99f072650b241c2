package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A control plane whose port was taken between finding it free and binding it starts again. */
class ControlPlanePortsTest {

  @Test
  void aTakenPortIsToldApartFromOtherFailures() {
    RuntimeException taken =
        new IllegalStateException(
            "kube-apiserver exited with code 1\nError: failed to create listener: failed to listen"
                + " on 127.0.0.1:46845: listen tcp 127.0.0.1:46845: bind: address already in use");
    RuntimeException other =
        new IllegalStateException("kube-apiserver was not ready within 90 s (last /readyz answer)");

    assertThat(ControlPlane.portWasTaken(taken)).isTrue();
    assertThat(ControlPlane.portWasTaken(other)).isFalse();
    assertThat(ControlPlane.portWasTaken(new IllegalStateException())).isFalse();
  }
}
