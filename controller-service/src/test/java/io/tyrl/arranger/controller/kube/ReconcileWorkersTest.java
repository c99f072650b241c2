package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.tyrl.arranger.controller.kube.ControllerMetrics.ReconcileResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ReconcileWorkersTest {

  private ReconcileWorkers workers;

  @AfterEach
  void shutDown() {
    if (workers != null) {
      workers.shutDown();
    }
  }

  @Test
  void aFailingJobIsRetriedWithGrowingDelaysUntilItSucceeds() {
    List<Long> attempts = new CopyOnWriteArrayList<>();
    workers = new ReconcileWorkers(key -> {
      attempts.add(System.nanoTime());
      return attempts.size() < 4 ? ReconcileResult.ERROR : ReconcileResult.SUCCESS;
    }, 2, Duration.ofMillis(50), Duration.ofSeconds(1));
    workers.start();

    workers.enqueue("rl/train");

    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 4);
    long firstGap = attempts.get(1) - attempts.get(0);
    long thirdGap = attempts.get(3) - attempts.get(2);
    assertThat(TimeUnit.NANOSECONDS.toMillis(firstGap)).isGreaterThanOrEqualTo(40);
    assertThat(thirdGap).as("the backoff doubles").isGreaterThan(firstGap);
  }

  @Test
  void oneJobIsNeverReconciledByTwoWorkersAtOnceWhileOthersProceed() throws Exception {
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger otherJobDone = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    workers = new ReconcileWorkers(key -> {
      if (inFlight.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet() > 1) {
        overlaps.incrementAndGet();
      }
      try {
        if (key.equals("rl/slow")) {
          release.await(5, TimeUnit.SECONDS);
        } else {
          otherJobDone.incrementAndGet();
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } finally {
        inFlight.get(key).decrementAndGet();
      }
      return ReconcileResult.SUCCESS;
    }, 4, Duration.ofMillis(50), Duration.ofSeconds(1));
    workers.start();

    workers.enqueue("rl/slow");
    await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.containsKey("rl/slow"));
    for (int i = 0; i < 5; i++) {
      workers.enqueue("rl/slow");
    }
    workers.enqueue("rl/other");

    await().atMost(Duration.ofSeconds(5)).until(() -> otherJobDone.get() == 1);
    assertThat(inFlight.get("rl/slow").get()).as("the slow job is still in its first reconcile").isEqualTo(1);
    release.countDown();
    await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.get("rl/slow").get() == 0);
    assertThat(overlaps.get()).isZero();
  }

  @Test
  void aShutDownTermStopsTakingWork() {
    AtomicInteger reconciles = new AtomicInteger();
    workers = new ReconcileWorkers(key -> {
      reconciles.incrementAndGet();
      return ReconcileResult.SUCCESS;
    }, 1, Duration.ofMillis(50), Duration.ofSeconds(1));
    workers.shutDown();
    workers.start();

    workers.enqueue("rl/train");

    assertThat(workers.isShutDown()).isTrue();
    await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> reconciles.get() == 0);
  }
}
