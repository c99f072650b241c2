package io.tyrl.arranger.kube.events;

import java.util.Objects;

/**
 * The object an Event is about, as its {@code involvedObject} names it. {@code namespace} is null
 * for a cluster-scoped object (a Queue); its Events then go to the {@code default} namespace, as
 * client-go's recorder does.
 */
public record InvolvedObject(
    String apiVersion, String kind, String namespace, String name, String uid) {

  public InvolvedObject {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(name, "name");
    namespace = namespace == null || namespace.isEmpty() ? null : namespace;
  }

  /** The namespace the object's Events are stored in. */
  public String eventNamespace() {
    return namespace == null ? "default" : namespace;
  }

  /**
   * Identifies the object for correlation: kind, namespace, name, UID and API version, as
   * client-go's keys do.
   */
  String key() {
    return String.join(
        "\u0000",
        String.valueOf(apiVersion),
        kind,
        String.valueOf(namespace),
        name,
        String.valueOf(uid));
  }

  @Override
  public String toString() {
    return kind + " " + (namespace == null ? "" : namespace + "/") + name;
  }
}
