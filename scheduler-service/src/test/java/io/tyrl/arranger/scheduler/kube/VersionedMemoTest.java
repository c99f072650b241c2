package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class VersionedMemoTest {

  private final VersionedMemo<String> memo = new VersionedMemo<>();
  private final AtomicInteger derived = new AtomicInteger();

  private String derive(String what) {
    derived.incrementAndGet();
    return what;
  }

  @Test
  void anUnchangedVersionIsNotDerivedAgainAndANewOneIs() {
    assertThat(memo.get("rl/a", "7", () -> derive("seven"))).isEqualTo("seven");
    memo.sweep();
    assertThat(memo.get("rl/a", "7", () -> derive("again"))).isEqualTo("seven");
    assertThat(memo.get("rl/a", "8", () -> derive("eight"))).isEqualTo("eight");
    assertThat(derived).hasValue(2);
  }

  @Test
  void whatACycleDidNotAskForIsDroppedAtItsSweep() {
    memo.get("rl/a", "1", () -> derive("a"));
    memo.get("rl/b", "1", () -> derive("b"));
    memo.sweep();
    memo.get("rl/a", "1", () -> derive("a"));
    memo.sweep();

    assertThat(memo.size()).isEqualTo(1);
    assertThat(memo.get("rl/b", "1", () -> derive("b again"))).isEqualTo("b again");
  }

  @Test
  void anObjectWithoutAVersionIsAlwaysDerived() {
    memo.get("rl/a", null, () -> derive("a"));
    memo.get("rl/a", null, () -> derive("a"));

    assertThat(derived).hasValue(2);
  }
}
