package io.tyrl.arranger.controller.lifecycle.observe;

import java.util.Map;
import java.util.Objects;

/**
 * The facts of one container of a pod template that validation needs.
 *
 * <p>Requests and limits are the raw strings of the TYJob as stored (resource name → quantity
 * text), not parsed quantities: the template is free-form in the CRD, so a bad quantity reaches the
 * controller and must become a message naming the field rather than a parse exception in the
 * adapter.
 *
 * @param name the container's {@code name}; empty when absent
 * @param requests {@code resources.requests}, resource name → raw quantity
 * @param limits {@code resources.limits}, resource name → raw quantity
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
