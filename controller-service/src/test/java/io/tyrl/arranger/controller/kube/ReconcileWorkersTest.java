package io.tyrl.arranger.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
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

  private static final Duration BATCHED_RECHECK = Duration.ofMillis(300);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final ControllerMetrics metrics = new ControllerMetrics(registry);
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
    workers =
        new ReconcileWorkers(
            key -> {
              attempts.add(System.nanoTime());
              return attempts.size() < 4 ? ReconcileResult.ERROR : ReconcileResult.SUCCESS;
            },
            2,
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/train");

    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 4);
    long firstGap = attempts.get(1) - attempts.get(0);
    long thirdGap = attempts.get(3) - attempts.get(2);
    assertThat(TimeUnit.NANOSECONDS.toMillis(firstGap)).isGreaterThanOrEqualTo(40);
    assertThat(thirdGap).as("the backoff doubles").isGreaterThan(firstGap);
  }

  @Test
  void delayedEnqueuesOfOneJobWhileItWaitsAreReconciledOnce() {
    List<String> reconciled = new CopyOnWriteArrayList<>();
    workers =
        new ReconcileWorkers(
            key -> {
              reconciled.add(key);
              return ReconcileResult.SUCCESS;
            },
            2,
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    long start = System.nanoTime();
    for (int i = 0; i < 50; i++) {
      workers.enqueueAfter("rl/huge", Duration.ofMillis(200));
    }

    await().atMost(Duration.ofSeconds(5)).until(() -> reconciled.contains("rl/huge"));
    long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    // A job enqueued at once after the delayed ones is reconciled after any of them would be.
    workers.enqueue("rl/marker");
    await().atMost(Duration.ofSeconds(5)).until(() -> reconciled.contains("rl/marker"));
    assertThat(reconciled).filteredOn("rl/huge"::equals).hasSize(1);
    assertThat(waited).as("not before the delay").isGreaterThanOrEqualTo(190);
  }

  @Test
  void aJobWhoseReportsWereHeldBackIsLookedAtAgainAfterTheBatchPeriodWithoutAnEvent() {
    List<Long> attempts = new CopyOnWriteArrayList<>();
    workers =
        new ReconcileWorkers(
            key -> {
              attempts.add(System.nanoTime());
              return attempts.size() < 2 ? ReconcileResult.BATCHED : ReconcileResult.SUCCESS;
            },
            1,
            Duration.ofMillis(10),
            Duration.ofMillis(20),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/train");

    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == 2);
    assertThat(TimeUnit.NANOSECONDS.toMillis(attempts.get(1) - attempts.get(0)))
        .as("after the batch period, not the retry backoff")
        .isGreaterThanOrEqualTo(BATCHED_RECHECK.toMillis() - 10);
  }

  @Test
  void aJobFencedWhileTheLeaseIsLateToRenewIsRetriedNotDropped() {
    AtomicInteger attempts = new AtomicInteger();
    workers =
        new ReconcileWorkers(
            key ->
                attempts.incrementAndGet() < 3 ? ReconcileResult.FENCED : ReconcileResult.SUCCESS,
            1,
            Duration.ofMillis(10),
            Duration.ofMillis(100),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/train");

    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() == 3);
  }

  @Test
  void oneJobIsNeverReconciledByTwoWorkersAtOnceWhileOthersProceed() throws Exception {
    Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();
    AtomicInteger overlaps = new AtomicInteger();
    AtomicInteger otherJobDone = new AtomicInteger();
    CountDownLatch release = new CountDownLatch(1);
    workers =
        new ReconcileWorkers(
            key -> {
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
            },
            4,
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/slow");
    await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.containsKey("rl/slow"));
    for (int i = 0; i < 5; i++) {
      workers.enqueue("rl/slow");
    }
    workers.enqueue("rl/other");

    await().atMost(Duration.ofSeconds(5)).until(() -> otherJobDone.get() == 1);
    assertThat(inFlight.get("rl/slow").get())
        .as("the slow job is still in its first reconcile")
        .isEqualTo(1);
    release.countDown();
    await().atMost(Duration.ofSeconds(5)).until(() -> inFlight.get("rl/slow").get() == 0);
    assertThat(overlaps.get()).isZero();
  }

  @Test
  void aShutDownTermStopsTakingWork() {
    AtomicInteger reconciles = new AtomicInteger();
    workers =
        new ReconcileWorkers(
            key -> {
              reconciles.incrementAndGet();
              return ReconcileResult.SUCCESS;
            },
            1,
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            BATCHED_RECHECK,
            metrics);
    workers.shutDown();
    workers.start();

    workers.enqueue("rl/train");

    assertThat(workers.isShutDown()).isTrue();
    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(1))
        .until(() -> reconciles.get() == 0);
  }

  @Test
  void anErrorInOneJobsWorkIsContainedAndTheOnlyWorkerGoesOnWithTheOtherJobs() {
    List<String> reconciled = new CopyOnWriteArrayList<>();
    workers =
        new ReconcileWorkers(
            key -> {
              reconciled.add(key);
              switch (key) {
                case "rl/huge" -> throw new OutOfMemoryError("Java heap space");
                case "rl/deep" -> throw new StackOverflowError();
                case "rl/buggy" -> throw new IllegalStateException("a bug");
                default -> {
                  return ReconcileResult.SUCCESS;
                }
              }
            },
            1,
            Duration.ofMillis(50),
            Duration.ofSeconds(1),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/huge");
    workers.enqueue("rl/deep");
    workers.enqueue("rl/buggy");
    workers.enqueue("rl/good");

    await().atMost(Duration.ofSeconds(5)).until(() -> reconciled.contains("rl/good"));
    assertThat(crashes("OutOfMemoryError")).isGreaterThanOrEqualTo(1);
    assertThat(crashes("StackOverflowError")).isGreaterThanOrEqualTo(1);
    assertThat(crashes("IllegalStateException")).isGreaterThanOrEqualTo(1);
    workers.enqueue("rl/later");
    await("the one worker still takes work")
        .atMost(Duration.ofSeconds(5))
        .until(() -> reconciled.contains("rl/later"));
  }

  @Test
  void aJobThatKeepsCrashingIsRetriedWithBackoffABoundedNumberOfTimesThenWaitsForItsNextChange() {
    List<Long> attempts = new CopyOnWriteArrayList<>();
    workers =
        new ReconcileWorkers(
            key -> {
              attempts.add(System.nanoTime());
              throw new OutOfMemoryError("Java heap space");
            },
            2,
            Duration.ofMillis(20),
            Duration.ofMillis(200),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/huge");

    int bounded = 1 + ReconcileWorkers.MAX_RETRIES_AFTER_CRASH;
    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.size() == bounded);
    // A retry never comes before its backoff, but may come later on a busy machine: each gap is
    // held to at least the doubled delay, not to the one before it.
    assertThat(attempts.get(1) - attempts.get(0))
        .as("the first retry waits the initial delay")
        .isGreaterThanOrEqualTo(Duration.ofMillis(20).toNanos());
    assertThat(attempts.get(2) - attempts.get(1))
        .as("the backoff grows: the second retry waits twice the initial delay")
        .isGreaterThanOrEqualTo(Duration.ofMillis(40).toNanos());
    await("no retry past the bound")
        .during(Duration.ofMillis(600))
        .atMost(Duration.ofSeconds(2))
        .until(() -> attempts.size() == bounded);
    assertThat(crashes("OutOfMemoryError")).isEqualTo(bounded);

    workers.enqueue("rl/huge");

    await("a change of the job gives it one more try")
        .atMost(Duration.ofSeconds(2))
        .until(() -> attempts.size() == bounded + 1);
    await("and only one")
        .during(Duration.ofMillis(600))
        .atMost(Duration.ofSeconds(2))
        .until(() -> attempts.size() == bounded + 1);
  }

  @Test
  void aReconcileThatReturnsClearsTheJobsCrashes() {
    AtomicInteger attempts = new AtomicInteger();
    workers =
        new ReconcileWorkers(
            key -> {
              int attempt = attempts.incrementAndGet();
              // Crash, crash, then ERROR (a normal result), then crash for good.
              if (attempt == 3) {
                return ReconcileResult.ERROR;
              }
              throw new StackOverflowError();
            },
            1,
            Duration.ofMillis(10),
            Duration.ofMillis(40),
            BATCHED_RECHECK,
            metrics);
    workers.start();

    workers.enqueue("rl/deep");

    int expected = 2 + 1 + 1 + ReconcileWorkers.MAX_RETRIES_AFTER_CRASH;
    await().atMost(Duration.ofSeconds(5)).until(() -> attempts.get() == expected);
    await()
        .during(Duration.ofMillis(300))
        .atMost(Duration.ofSeconds(2))
        .until(() -> attempts.get() == expected);
  }

  private double crashes(String error) {
    var counter =
        registry.find("arranger.controller.reconcile.crashes").tag("error", error).counter();
    return counter == null ? 0 : counter.count();
  }
}
