package io.tyrl.arranger.kube.leader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import java.time.Duration;
import java.util.Date;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RenewalTrackingLockTest {

  private static final Duration WINDOW = Duration.ofSeconds(5);

  private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  private final FakeLock lease = new FakeLock("replica-a");
  private final RenewalTrackingLock lock = new RenewalTrackingLock(lease, nanos::get);

  @Test
  void noRenewalYetMeansNoWrite() {
    assertThat(lock.renewedWithin(WINDOW)).isFalse();
  }

  @Test
  void aRenewalCountsFromWhenItWasSentNotWhenItReturned() {
    lease.callTakes = Duration.ofSeconds(3);

    assertThat(lock.update(record("replica-a"))).isTrue();

    nanos.addAndGet(Duration.ofMillis(1999).toNanos());
    assertThat(lock.renewedWithin(WINDOW)).as("sent 4.999 s ago").isTrue();
    nanos.addAndGet(Duration.ofMillis(1).toNanos());
    assertThat(lock.renewedWithin(WINDOW)).as("sent 5 s ago").isFalse();
  }

  @Test
  void aFailedRenewalDoesNotExtendTheWindow() {
    lock.create(record("replica-a"));
    nanos.addAndGet(Duration.ofSeconds(4).toNanos());
    lease.accept = false;

    lock.update(record("replica-a"));
    nanos.addAndGet(Duration.ofSeconds(2).toNanos());

    assertThat(lock.renewedWithin(WINDOW)).isFalse();
  }

  @Test
  void givingTheLeaseUpClosesTheWindowAtOnce() {
    lock.update(record("replica-a"));

    lock.update(record(""));

    assertThat(lock.renewedWithin(WINDOW)).isFalse();
  }

  @Test
  void invalidateClosesTheWindow() {
    lock.update(record("replica-a"));

    lock.invalidate();

    assertThat(lock.renewedWithin(WINDOW)).isFalse();
  }

  @Test
  void theFenceWindowLeavesRoomForARequestInFlight() {
    LeaderElectionProperties lease =
        new LeaderElectionProperties(
            true,
            "l",
            "default",
            "a",
            Duration.ofSeconds(15),
            Duration.ofSeconds(10),
            Duration.ofSeconds(2),
            Duration.ofSeconds(5));

    assertThat(LeaderElection.fenceWindow(lease, Duration.ofSeconds(2)))
        .isEqualTo(Duration.ofSeconds(10));
    assertThat(LeaderElection.fenceWindow(lease, Duration.ofSeconds(10)))
        .isEqualTo(Duration.ofSeconds(5));
    assertThatThrownBy(() -> LeaderElection.fenceWindow(lease, Duration.ofSeconds(13)))
        .hasMessageContaining("arranger.kubernetes.request-timeout (PT13S)");
  }

  private static LeaderElectionRecord record(String holder) {
    return new LeaderElectionRecord(holder, 15, new Date(), new Date(), 0);
  }

  private final class FakeLock implements Lock {
    private final String identity;
    boolean accept = true;
    Duration callTakes = Duration.ZERO;

    FakeLock(String identity) {
      this.identity = identity;
    }

    @Override
    public LeaderElectionRecord get() {
      return null;
    }

    @Override
    public boolean create(LeaderElectionRecord record) {
      return update(record);
    }

    @Override
    public boolean update(LeaderElectionRecord record) {
      nanos.addAndGet(callTakes.toNanos());
      return accept;
    }

    @Override
    public String identity() {
      return identity;
    }

    @Override
    public String describe() {
      return "fake lease";
    }
  }
}
