package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Map;
import java.util.Objects;

/**
 * The facts of one container of a pod template that validation needs.
 *
 * <p>Requests and limits are quantity text (resource name → quantity), not parsed quantities, so
 * that validation can name any it cannot use. The adapter passes only quantities the model has
 * read; one it could not read makes the whole spec unreadable.
 *
 * @param name the container's {@code name}; empty when absent
 * @param requests {@code resources.requests}, resource name → quantity text
 * @param limits {@code resources.limits}, resource name → quantity text
 */
public record ContainerView(String name, Map<String, String> requests, Map<String, String> limits) {

  public ContainerView {
    name = Objects.requireNonNullElse(name, "");
    requests = requests == null ? Map.of() : Map.copyOf(requests);
    limits = limits == null ? Map.of() : Map.copyOf(limits);
  }

  public static ContainerView named(String name) {
    return new ContainerView(name, Map.of(), Map.of());
  }
}
