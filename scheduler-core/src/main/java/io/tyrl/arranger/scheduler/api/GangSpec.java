package io.tyrl.arranger.scheduler.api;

import java.time.Duration;
import java.util.Optional;

/**
 * A job's gang settings: mode, how long it may wait for its minimum (null = forever), and the gang
 * group it belongs to (null = none), as written in the job: {@code name} for a group of the job's
 * namespace, {@code ns/name} for another namespace's. {@link JobInfo#gangGroupKey()} qualifies it.
 */
public record GangSpec(GangMode mode, Duration waitTime, String group) {

  public static final GangSpec STRICT = new GangSpec(GangMode.STRICT, null, null);

  public GangSpec {
    mode = mode == null ? GangMode.STRICT : mode;
    if (waitTime != null && (waitTime.isNegative() || waitTime.isZero())) {
      throw new IllegalArgumentException("gang.waitTime must be positive, was " + waitTime);
    }
    group = group == null || group.isBlank() ? null : group;
  }

  public Optional<Duration> waitTimeIfSet() {
    return Optional.ofNullable(waitTime);
  }

  public Optional<String> groupIfSet() {
    return Optional.ofNullable(group);
  }
}
