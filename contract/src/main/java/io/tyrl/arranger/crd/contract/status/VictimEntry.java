package io.tyrl.arranger.crd.contract.status;

import io.tyrl.arranger.crd.reasons.EvictionWording;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One entry of {@code status.victims}: pods of another job the scheduler chose to evict so that
 * this job fits. The scheduler writes the entries; the controller evicts the pods they name.
 *
 * @param podUids the UIDs the pods had when they were chosen, so that a later pod of the same name
 *     is never evicted or mistaken for a leaving one; empty when the writer recorded none (then the
 *     name alone identifies the pod)
 * @param wholeJob the victim's minimum could not be kept: all its pods go and it is rescheduled
 * @param reason why, in words ({@link EvictionWording})
 * @param cause {@code Preempted} or {@code Reclaimed}; empty when the writer recorded none
 */
public record VictimEntry(
    String namespace,
    String job,
    List<String> pods,
    List<String> podUids,
    boolean wholeJob,
    String reason,
    String cause) {

  private static final String NAMESPACE = "namespace";
  private static final String JOB = "job";
  private static final String PODS = "pods";
  private static final String POD_UIDS = "podUIDs";
  private static final String WHOLE_JOB = "wholeJob";
  private static final String REASON = "reason";
  private static final String CAUSE = "cause";

  public VictimEntry {
    namespace = Objects.requireNonNullElse(namespace, "");
    job = Objects.requireNonNullElse(job, "");
    pods = pods == null ? List.of() : List.copyOf(pods);
    podUids = podUids == null ? List.of() : List.copyOf(podUids);
    reason = Objects.requireNonNullElse(reason, "");
    cause = Objects.requireNonNullElse(cause, "");
  }

  /**
   * The reason the victim job is given: the recorded cause, or for an entry without one, what its
   * text says ({@link EvictionWording#causeOf}).
   */
  public String evictionCause() {
    return cause.isEmpty() ? EvictionWording.causeOf(reason) : cause;
  }

  /**
   * Whether a pod of this name and UID is one the scheduler chose, and not a later pod of the same
   * name.
   */
  public boolean names(String podName, String uid) {
    return pods.contains(podName) && (podUids.isEmpty() || podUids.contains(uid));
  }

  public Map<String, Object> encode() {
    Map<String, Object> json = new LinkedHashMap<>();
    json.put(NAMESPACE, namespace);
    json.put(JOB, job);
    json.put(PODS, pods);
    json.put(POD_UIDS, podUids);
    json.put(WHOLE_JOB, wholeJob);
    json.put(REASON, reason);
    json.put(CAUSE, cause);
    return json;
  }

  /**
   * As stored; a field that is absent or of the wrong type reads as empty (false for {@code
   * wholeJob}).
   */
  public static VictimEntry decode(Object entry) {
    Map<?, ?> json = PlainValues.map(entry);
    return new VictimEntry(
        PlainValues.text(json.get(NAMESPACE)).orElse(""),
        PlainValues.text(json.get(JOB)).orElse(""),
        PlainValues.texts(json.get(PODS)),
        PlainValues.texts(json.get(POD_UIDS)),
        Boolean.TRUE.equals(json.get(WHOLE_JOB)),
        PlainValues.text(json.get(REASON)).orElse(""),
        PlainValues.text(json.get(CAUSE)).orElse(""));
  }

  /**
   * Every entry of {@code status.victims}; an entry that is not an object reads as an empty entry.
   */
  public static List<VictimEntry> decodeAll(Object victims) {
    return PlainValues.maps(victims).stream().map(VictimEntry::decode).toList();
  }

  /**
   * {@code status.victims} as a merge patch writes it: the whole list, or {@code null} to clear it.
   */
  public static List<Object> encodeAll(List<VictimEntry> victims) {
    if (victims.isEmpty()) {
      return null;
    }
    List<Object> json = new ArrayList<>(victims.size());
    victims.forEach(victim -> json.add(victim.encode()));
    return json;
  }
}
