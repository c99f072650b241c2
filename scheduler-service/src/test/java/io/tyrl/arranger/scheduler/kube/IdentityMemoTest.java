package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class IdentityMemoTest {

  private final IdentityMemo<List<String>, String> memo = new IdentityMemo<>();
  private final AtomicInteger derived = new AtomicInteger();

  private String derive(List<String> what) {
    derived.incrementAndGet();
    return String.join("+", what);
  }

  @Test
  void theSameObjectIsDerivedOnceAndAnEqualButOtherObjectAgain() {
    List<String> template = new java.util.ArrayList<>(List.of("cpu", "gpu"));
    assertThat(memo.get(template, this::derive)).isEqualTo("cpu+gpu");
    memo.sweep();
    assertThat(memo.get(template, this::derive)).isEqualTo("cpu+gpu");
    assertThat(derived).hasValue(1);

    assertThat(memo.get(new java.util.ArrayList<>(List.of("cpu", "gpu")), this::derive))
        .isEqualTo("cpu+gpu");
    assertThat(derived).hasValue(2);
  }

  @Test
  void whatACycleDidNotAskForIsDroppedAtItsSweep() {
    List<String> kept = List.of("a");
    List<String> gone = List.of("b");
    memo.get(kept, this::derive);
    memo.get(gone, this::derive);
    memo.sweep();
    memo.get(kept, this::derive);
    memo.sweep();

    assertThat(memo.size()).isEqualTo(1);
    memo.get(gone, this::derive);
    assertThat(derived).hasValue(3);
  }
}
