package io.tyrl.arranger.scheduler.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.kubernetes.client.openapi.models.V1ObjectMeta;
import io.tyrl.arranger.model.V1alpha1TYJob;
import io.tyrl.arranger.model.V1alpha1TYJobStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class AssumedStatusesTest {

  private static final String KEY = "rl/pong";
  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");
  private static final V1alpha1TYJobStatus PLACED =
      new V1alpha1TYJobStatus().allocations(Map.of("pong-learner", "n1"));

  private final AssumedStatuses assumed = new AssumedStatuses(Duration.ofSeconds(30));

  @Test
  void withoutAnAssumptionTheCachedJobIsSeen() {
    V1alpha1TYJob cached = job("5", null);

    assertThat(assumed.view(KEY, cached, T0)).isSameAs(cached);
  }

  @Test
  void aDecisionIsSeenFromTheMomentItIsMadeWhileItsWriteIsInFlight() {
    assumed.assume(KEY, "5", PLACED, T0);

    V1alpha1TYJob seen = assumed.view(KEY, job("5", null), T0);

    assertThat(seen.getStatus().getAllocations()).containsEntry("pong-learner", "n1");
    assertThat(seen.getMetadata().getResourceVersion()).isEqualTo("5");
    assertThat(assumed.inFlight(KEY)).isTrue();
  }

  @Test
  void aWrittenDecisionStandsWithTheWrittenVersionUntilTheInformerMovesOn() {
    assumed.assume(KEY, "5", PLACED, T0);
    assumed.written(KEY, "6", T0);

    V1alpha1TYJob lagging = assumed.view(KEY, job("5", null), T0.plusSeconds(2));
    assertThat(lagging.getStatus().getAllocations()).containsEntry("pong-learner", "n1");
    assertThat(lagging.getMetadata().getResourceVersion())
        .as("the next write is guarded by the written version")
        .isEqualTo("6");
    assertThat(assumed.inFlight(KEY)).isFalse();

    V1alpha1TYJob echoed = job("6", PLACED);
    assertThat(assumed.view(KEY, echoed, T0.plusSeconds(3))).isSameAs(echoed);
    assertThat(assumed.size()).as("confirmed by the echo, then dropped").isZero();
  }

  @Test
  void anyLaterVersionConfirmsTheWriteEvenIfItIsNotTheWrittenOne() {
    assumed.assume(KEY, "5", PLACED, T0);
    assumed.written(KEY, "6", T0);

    V1alpha1TYJob later = job("9", null);

    assertThat(assumed.view(KEY, later, T0.plusSeconds(1))).isSameAs(later);
    assertThat(assumed.size()).isZero();
  }

  @Test
  void aForgottenDecisionLeavesTheInformersView() {
    assumed.assume(KEY, "5", PLACED, T0);

    assumed.forget(KEY);

    V1alpha1TYJob cached = job("5", null);
    assertThat(assumed.view(KEY, cached, T0)).isSameAs(cached);
  }

  @Test
  void aWriteNeverEchoedIsForgottenAfterItsTimeToLive() {
    assumed.assume(KEY, "5", PLACED, T0);
    assumed.written(KEY, "6", T0);
    V1alpha1TYJob cached = job("5", null);

    assertThat(assumed.view(KEY, cached, T0.plusSeconds(30)).getStatus()).isEqualTo(PLACED);
    assertThat(assumed.view(KEY, cached, T0.plusSeconds(31))).isSameAs(cached);
  }

  @Test
  void aWriteThatNeverAnswersIsForgottenAfterTheTimeToLiveToo() {
    assumed.assume(KEY, "5", PLACED, T0);
    V1alpha1TYJob cached = job("5", null);

    assertThat(assumed.view(KEY, cached, T0.plusSeconds(30)).getStatus()).isEqualTo(PLACED);
    assertThat(assumed.view(KEY, cached, T0.plusSeconds(31))).isSameAs(cached);
    assertThat(assumed.inFlight(KEY)).isFalse();
  }

  @Test
  void aJobThatChangedUnderAWriteInFlightStaysAssumedUntilTheWriteAnswers() {
    assumed.assume(KEY, "5", PLACED, T0);

    V1alpha1TYJob seen = assumed.view(KEY, job("7", null), T0);

    assertThat(seen.getStatus()).isEqualTo(PLACED);
    assertThat(assumed.inFlight(KEY)).isTrue();
  }

  @Test
  void deletedJobsAreForgotten() {
    assumed.assume(KEY, "5", PLACED, T0);
    assumed.assume("rl/other", "3", PLACED, T0);

    assumed.retainOnly(Set.of("rl/other"));

    assertThat(assumed.size()).isEqualTo(1);
    assertThat(assumed.inFlight(KEY)).isFalse();
  }

  private static V1alpha1TYJob job(String resourceVersion, V1alpha1TYJobStatus status) {
    return new V1alpha1TYJob()
        .metadata(new V1ObjectMeta().namespace("rl").name("pong").resourceVersion(resourceVersion))
        .status(status);
  }
}
