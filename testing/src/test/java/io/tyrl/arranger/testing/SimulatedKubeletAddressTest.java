package io.tyrl.arranger.testing;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SimulatedKubeletAddressTest {

  private static final int CYCLE = 253 * 256 * 250;

  @Test
  void everyAddressIsAValidLoopbackAddressLongPastTheFirst64000Pods() throws Exception {
    for (int n : new int[] {0, 249, 250, 63_999, 64_000, 64_250, 1_000_000, CYCLE - 1, CYCLE}) {
      String address = PodAddressCheck.valid(SimulatedKubelet.podAddress(n));
      assertThat(InetAddress.getByName(address).isLoopbackAddress()).as(address).isTrue();
    }
    assertThat(SimulatedKubelet.podAddress(0)).isEqualTo("127.3.0.1");
    assertThat(SimulatedKubelet.podAddress(250)).isEqualTo("127.3.1.1");
    assertThat(SimulatedKubelet.podAddress(64_000)).isEqualTo("127.4.0.1");
    assertThat(SimulatedKubelet.podAddress(CYCLE - 1)).isEqualTo("127.255.255.250");
  }

  @Test
  void addressesRepeatOnlyAfterACycleOfSixteenMillion() {
    Set<String> seen = new HashSet<>();
    for (int n = 0; n < 200_000; n++) {
      assertThat(seen.add(SimulatedKubelet.podAddress(n))).isTrue();
    }
    assertThat(SimulatedKubelet.podAddress(CYCLE)).isEqualTo(SimulatedKubelet.podAddress(0));
  }

  /** Four octets of 0..255, as the API server's validation asks of a pod IP. */
  private static final class PodAddressCheck {
    static String valid(String address) {
      String[] octets = address.split("\\.");
      assertThat(octets).hasSize(4);
      for (String octet : octets) {
        assertThat(Integer.parseInt(octet)).as(address).isBetween(0, 255);
      }
      return address;
    }
  }
}
