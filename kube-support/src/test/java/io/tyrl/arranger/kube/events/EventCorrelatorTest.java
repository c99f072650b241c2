package io.tyrl.arranger.kube.events;

import static org.assertj.core.api.Assertions.assertThat;

import io.tyrl.arranger.crd.reasons.EventType;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The correlation rules as a table: a sequence of occurrences (seconds from the start, object,
 * type, reason, message) and what each must become — a create or a patch with a count and a
 * message, or a skip — with the Event it lands on named by a letter, so that "the same Event" and
 * "a new Event" are checked too.
 */
class EventCorrelatorTest {

  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");
  private static final EventRecorderProperties DEFAULTS = EventRecorderProperties.defaults();
  private static final EventRecorderProperties SMALL_SPAM_BUDGET =
      new EventRecorderProperties(
          1000,
          Duration.ofMinutes(10),
          10,
          3,
          Duration.ofMinutes(1),
          4096,
          1024,
          4,
          Duration.ofMillis(200),
          Duration.ofSeconds(2));

  /** One occurrence. */
  record Occurrence(long at, String object, EventType type, String reason, String message) {}

  /**
   * What it must become: "create", "patch" or "skip"; the count and message written; the Event, by
   * letter.
   */
  record Expected(String kind, int count, String message, String event) {}

  private static Occurrence at(long seconds, String message) {
    return new Occurrence(seconds, "pong", EventType.WARNING, "Unschedulable", message);
  }

  private static Occurrence at(
      long seconds, String object, EventType type, String reason, String message) {
    return new Occurrence(seconds, object, type, reason, message);
  }

  private static Expected create(String event, String message) {
    return new Expected("create", 1, message, event);
  }

  private static Expected patch(String event, int count, String message) {
    return new Expected("patch", count, message, event);
  }

  private static Expected skip(String event, int count) {
    return new Expected("skip", count, null, event);
  }

  static Stream<Arguments> rules() {
    List<Arguments> rows = new ArrayList<>();
    rows.add(
        Arguments.of(
            "the same reason and message within 10 minutes: one Event, counted",
            DEFAULTS,
            List.of(at(0, "0/4 nodes fit"), at(60, "0/4 nodes fit"), at(659, "0/4 nodes fit")),
            List.of(
                create("A", "0/4 nodes fit"),
                patch("A", 2, "0/4 nodes fit"),
                patch("A", 3, "0/4 nodes fit"))));
    rows.add(
        Arguments.of(
            "exactly 10 minutes after the last occurrence still counts",
            DEFAULTS,
            List.of(at(0, "m"), at(600, "m")),
            List.of(create("A", "m"), patch("A", 2, "m"))));
    rows.add(
        Arguments.of(
            "more than 10 minutes after the last occurrence: a new Event",
            DEFAULTS,
            List.of(at(0, "m"), at(601, "m"), at(700, "m")),
            List.of(create("A", "m"), create("B", "m"), patch("B", 2, "m"))));
    rows.add(
        Arguments.of(
            "another type, reason or object is another Event",
            DEFAULTS,
            List.of(
                at(0, "pong", EventType.WARNING, "Unschedulable", "m"),
                at(1, "pong", EventType.NORMAL, "Unschedulable", "m"),
                at(2, "pong", EventType.WARNING, "NotEnqueued", "m"),
                at(3, "ping", EventType.WARNING, "Unschedulable", "m"),
                at(4, "pong", EventType.WARNING, "Unschedulable", "m")),
            List.of(
                create("A", "m"),
                create("B", "m"),
                create("C", "m"),
                create("D", "m"),
                patch("A", 2, "m"))));
    rows.add(
        Arguments.of(
            "a message that changes back counts on its earlier Event",
            DEFAULTS,
            List.of(at(0, "first"), at(1, "second"), at(2, "first")),
            List.of(create("A", "first"), create("B", "second"), patch("A", 2, "first"))));
    // client-go: the 10th distinct message within the window is combined, and so is every new one
    // after it.
    List<Occurrence> distinct = new ArrayList<>();
    List<Expected> distinctExpected = new ArrayList<>();
    IntStream.rangeClosed(1, 9)
        .forEach(
            i -> {
              distinct.add(at(i, "m" + i));
              distinctExpected.add(create("E" + i, "m" + i));
            });
    distinct.add(at(10, "m10"));
    distinctExpected.add(create("X", EventCorrelator.COMBINED_PREFIX + "m10"));
    distinct.add(at(11, "m11"));
    distinctExpected.add(patch("X", 2, EventCorrelator.COMBINED_PREFIX + "m11"));
    distinct.add(at(12, "m12"));
    distinctExpected.add(patch("X", 3, EventCorrelator.COMBINED_PREFIX + "m12"));
    rows.add(
        Arguments.of(
            "ten different messages for one reason are combined into one Event",
            DEFAULTS,
            distinct,
            distinctExpected));
    List<Occurrence> spread = new ArrayList<>();
    List<Expected> spreadExpected = new ArrayList<>();
    IntStream.rangeClosed(1, 12)
        .forEach(
            i -> {
              spread.add(at(i * 601L, "m" + i));
              spreadExpected.add(create("S" + i, "m" + i));
            });
    rows.add(
        Arguments.of(
            "different messages more than 10 minutes apart are never combined",
            DEFAULTS,
            spread,
            spreadExpected));
    rows.add(
        Arguments.of(
            "an object past its burst is skipped, and the next write carries every occurrence",
            SMALL_SPAM_BUDGET,
            List.of(at(0, "m"), at(1, "m"), at(2, "m"), at(3, "m"), at(4, "m"), at(63, "m")),
            List.of(
                create("A", "m"),
                patch("A", 2, "m"),
                patch("A", 3, "m"),
                skip("A", 4),
                skip("A", 5),
                patch("A", 6, "m"))));
    rows.add(
        Arguments.of(
            "the spam budget is per object, whatever the reason",
            SMALL_SPAM_BUDGET,
            List.of(
                at(0, "pong", EventType.WARNING, "A", "m"),
                at(0, "pong", EventType.WARNING, "B", "m"),
                at(0, "pong", EventType.WARNING, "C", "m"),
                at(0, "pong", EventType.WARNING, "D", "m"),
                at(0, "ping", EventType.WARNING, "A", "m")),
            List.of(
                create("A", "m"),
                create("B", "m"),
                create("C", "m"),
                skip("D", 1),
                create("E", "m"))));
    return rows.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rules")
  void correlation(
      String rule,
      EventRecorderProperties settings,
      List<Occurrence> occurrences,
      List<Expected> expected) {
    AtomicInteger names = new AtomicInteger();
    EventCorrelator correlator =
        new EventCorrelator(settings, object -> object.name() + "." + names.incrementAndGet());
    Map<String, String> eventNames = new HashMap<>();
    for (int i = 0; i < occurrences.size(); i++) {
      Occurrence occurrence = occurrences.get(i);
      Expected expectation = expected.get(i);
      InvolvedObject object =
          new InvolvedObject(
              "arranger.tyrl.io/v1alpha1",
              "TYJob",
              "rl",
              occurrence.object(),
              "uid-" + occurrence.object());
      EventCorrelator.Outcome outcome =
          correlator.correlate(
              object,
              occurrence.type(),
              occurrence.reason(),
              occurrence.message(),
              T0.plusSeconds(occurrence.at()));
      String step = rule + ", occurrence " + (i + 1);
      RecordedEvent event;
      if (expectation.kind().equals("skip")) {
        assertThat(outcome).as(step).isInstanceOf(EventCorrelator.Outcome.Skip.class);
        event = ((EventCorrelator.Outcome.Skip) outcome).counted();
      } else {
        assertThat(outcome).as(step).isInstanceOf(EventCorrelator.Outcome.Write.class);
        event = ((EventCorrelator.Outcome.Write) outcome).event();
        assertThat(event.isUpdate())
            .as(step + ": a patch")
            .isEqualTo(expectation.kind().equals("patch"));
        assertThat(event.message()).as(step + ": message").isEqualTo(expectation.message());
      }
      assertThat(event.count()).as(step + ": count").isEqualTo(expectation.count());
      assertThat(event.lastTimestamp()).as(step).isEqualTo(T0.plusSeconds(occurrence.at()));
      String known = eventNames.putIfAbsent(expectation.event(), event.name());
      if (known != null) {
        assertThat(event.name()).as(step + ": the same Event as before").isEqualTo(known);
      } else {
        assertThat(eventNames.values().stream().filter(event.name()::equals).count())
            .as(step + ": a new Event")
            .isEqualTo(1);
      }
    }
  }
}
