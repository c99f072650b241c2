package io.tyrl.arranger.kube.leader;

import io.kubernetes.client.extended.leaderelection.LeaderElectionRecord;
import io.kubernetes.client.extended.leaderelection.Lock;
import io.kubernetes.client.openapi.ApiException;
import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * A {@link Lock} that remembers when this replica last wrote the lease as its holder. The time
 * taken is the start of the successful call, never its end: other replicas count the lease's expiry
 * from when they see the renewal, which is no earlier than when the request was sent, so a fence
 * judged from the start time closes before the lease can be taken.
 */
final class RenewalTrackingLock implements Lock {

  private static final long NEVER = Long.MIN_VALUE;

  private final Lock delegate;
  private final LongSupplier nanoClock;
  private volatile long lastRenewalStart = NEVER;

  RenewalTrackingLock(Lock delegate, LongSupplier nanoClock) {
    this.delegate = delegate;
    this.nanoClock = nanoClock;
  }

  /** True while the last renewal by this replica started less than {@code window} ago. */
  boolean renewedWithin(Duration window) {
    long start = lastRenewalStart;
    return start != NEVER && nanoClock.getAsLong() - start < window.toNanos();
  }

  /**
   * Forgets the last renewal: the lease was given up or lost, and no later write may rely on it.
   */
  void invalidate() {
    lastRenewalStart = NEVER;
  }

  @Override
  public LeaderElectionRecord get() throws ApiException {
    return delegate.get();
  }

  @Override
  public boolean create(LeaderElectionRecord record) {
    long start = nanoClock.getAsLong();
    boolean created = delegate.create(record);
    track(created, record, start);
    return created;
  }

  @Override
  public boolean update(LeaderElectionRecord record) {
    long start = nanoClock.getAsLong();
    boolean updated = delegate.update(record);
    track(updated, record, start);
    return updated;
  }

  private void track(boolean written, LeaderElectionRecord record, long start) {
    if (!written) {
      return;
    }
    if (identity().equals(record.getHolderIdentity())) {
      lastRenewalStart = start;
    } else {
      // Written with another holder, or none: the lease was given up.
      invalidate();
    }
  }

  @Override
  public String identity() {
    return delegate.identity();
  }

  @Override
  public String describe() {
    return delegate.describe();
  }
}
