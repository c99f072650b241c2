package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PodExpectationsTest {

  private static final Instant NOW = Instant.parse("2026-11-25T10:00:00Z");

  private static PodExpectations at(Instant now) {
    return new PodExpectations(Duration.ofSeconds(30), Clock.fixed(now, ZoneOffset.UTC));
  }

  @Test
  void aJobIsNotPlannedUntilTheCacheShowsEveryPodCreatedForIt() {
    PodExpectations expectations = at(NOW);
    expectations.created("rl/train", "train-learner");
    expectations.created("rl/train", "train-actor-0");

    assertThat(expectations.satisfied("rl/train", Set.of())).isFalse();
    assertThat(expectations.satisfied("rl/train", Set.of("train-learner"))).isFalse();
    assertThat(expectations.satisfied("rl/other", Set.of()))
        .as("other jobs expect nothing")
        .isTrue();
    assertThat(expectations.satisfied("rl/train", Set.of("train-learner", "train-actor-0")))
        .isTrue();
    assertThat(expectations.satisfied("rl/train", Set.of())).as("met once, then dropped").isTrue();
  }

  @Test
  void aPodTheCacheNeverShowsIsWaitedForOnlyUntilTheTimeToLive() {
    Instant[] now = {NOW};
    Clock clock =
        new Clock() {
          @Override
          public ZoneOffset getZone() {
            return ZoneOffset.UTC;
          }

          @Override
          public Clock withZone(java.time.ZoneId zone) {
            return this;
          }

          @Override
          public Instant instant() {
            return now[0];
          }
        };
    PodExpectations expectations = new PodExpectations(Duration.ofSeconds(30), clock);
    expectations.created("rl/train", "train-learner");

    now[0] = NOW.plusSeconds(30);
    assertThat(expectations.satisfied("rl/train", Set.of())).isFalse();
    now[0] = NOW.plusSeconds(31);
    assertThat(expectations.satisfied("rl/train", Set.of())).isTrue();
  }

  @Test
  void aJobThatIsGoneIsForgotten() {
    PodExpectations expectations = at(NOW);
    expectations.created("rl/train", "train-learner");

    expectations.forget("rl/train");

    assertThat(expectations.satisfied("rl/train", Set.of())).isTrue();
  }
}
