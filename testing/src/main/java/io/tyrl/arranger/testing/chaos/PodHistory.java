package io.tyrl.arranger.testing.chaos;

import io.tyrl.arranger.testing.chaos.ClusterSnapshot.PodState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Follows every pod through its watch events and finds pods created twice: a pod name (one slot of
 * one job: names are deterministic) that appears with a second UID for the same job while the first
 * had not finished — it was still live, or was deleted while still running or pending. The API
 * server refuses two live pods of one name, so a twin shows as a replacement: a pod removed and
 * created again under a controller that should have left it alone. Pods that had finished
 * (Succeeded, Failed) may be replaced; that is a restart, not a twin.
 *
 * <p>Events must come in the watch's order; the methods are synchronized because a pod informer and
 * a sampler may call them from different threads.
 */
public final class PodHistory {

  private record Seen(String uid, String owner, boolean finished, boolean gone) {}

  private final Map<String, Seen> byName = new HashMap<>();
  private final Set<String> duplicated = new LinkedHashSet<>();

  /**
   * A pod was added or updated.
   *
   * @return a violation message when this is a twin, else null
   */
  public synchronized String seen(PodState pod) {
    Seen before = byName.get(pod.key());
    String violation = null;
    if (before != null
        && !before.uid().equals(pod.uid())
        && sameOwner(before.owner(), pod.owner())
        && !before.finished()) {
      violation =
          "pod "
              + pod.key()
              + " created again (uid "
              + pod.uid()
              + ") while the one before (uid "
              + before.uid()
              + ") "
              + (before.gone() ? "was removed without having finished" : "still lived");
      if (!duplicated.add(pod.key())) {
        violation = null;
      }
    }
    boolean finished =
        pod.finished() || (before != null && before.uid().equals(pod.uid()) && before.finished());
    byName.put(pod.key(), new Seen(pod.uid(), pod.owner(), finished, false));
    return violation;
  }

  /** A pod was deleted (its last known state). */
  public synchronized void gone(PodState pod) {
    Seen before = byName.get(pod.key());
    if (before != null && before.uid().equals(pod.uid())) {
      byName.put(
          pod.key(),
          new Seen(before.uid(), before.owner(), before.finished() || pod.finished(), true));
    }
  }

  private static boolean sameOwner(String a, String b) {
    return a == null || b == null || a.equals(b);
  }

  /** Pod names ever created twice. */
  public synchronized int duplicatePods() {
    return duplicated.size();
  }

  public synchronized List<String> duplicates() {
    return new ArrayList<>(duplicated);
  }
}
