package io.tyrl.arranger.scheduler.framework;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link GpuDevices#fitsNow} and {@link GpuDevices#fitsLater} answer, without choosing, exactly
 * what {@link GpuDevices#choose} would: over random devices partly held, claimed and being
 * released, for shares and whole GPUs alike.
 */
class GpuDevicesFitTest {

  private static final long[] ASKED = {0, 100, 250, 400, 500, 750, 999, 1000, 2000, 3000, 8000};

  @Test
  void fittingAgreesWithChoosing() {
    Random random = new Random(7);
    int checked = 0;
    int fitting = 0;
    for (int round = 0; round < 2000; round++) {
      int count = 1 + random.nextInt(8);
      // Pods outside the snapshot's jobs hold whole devices from the first.
      long others = GpuDevices.WHOLE * random.nextInt(2);
      GpuDevices devices = new GpuDevices(count * GpuDevices.WHOLE, others, 0);
      for (int d = 0; d < count; d++) {
        int[] one = {d};
        switch (random.nextInt(7)) {
          case 0 -> devices.hold(one, GpuDevices.WHOLE);
          case 1 -> devices.hold(one, 250 * (1 + random.nextInt(3)));
          case 2 -> {
            devices.hold(one, 500);
            devices.release(one, 500);
          }
          case 3 -> devices.claim(one, 250 * (1 + random.nextInt(3)));
          case 4 -> {
            devices.hold(one, 250);
            devices.hold(one, 500);
            devices.unhold(one, 250 * (1 + random.nextInt(2)));
          }
          case 5 -> {
            devices.claim(one, GpuDevices.WHOLE);
            devices.unclaim(one, GpuDevices.WHOLE);
          }
          default -> {}
        }
      }
      int wholeFree = 0;
      for (int d = 0; d < count; d++) {
        wholeFree += devices.freeNow(d) == GpuDevices.WHOLE ? 1 : 0;
      }
      assertThat(devices.wholeFreeNow()).as("whole devices free").isEqualTo(wholeFree);
      for (long milli : ASKED) {
        boolean now = devices.choose(milli, false) != null;
        boolean later = devices.choose(milli, true) != null;
        assertThat(devices.fitsNow(milli)).as("now, %d of %d devices", milli, count).isEqualTo(now);
        assertThat(devices.fitsLater(milli))
            .as("later, %d of %d devices", milli, count)
            .isEqualTo(later);
        checked++;
        fitting += now ? 1 : 0;
      }
    }
    assertThat(fitting).as("some requests fit and some do not").isBetween(1, checked - 1);
  }
}
