package io.tyrl.arranger.testing;

import io.kubernetes.client.openapi.models.V1Taint;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A simulated node: its capacity (also its allocatable), labels, taints and readiness. */
public record NodeSpec(
    String name,
    Map<String, String> capacity,
    Map<String, String> labels,
    List<V1Taint> taints,
    boolean ready) {

  public static final String GPU = "nvidia.com/gpu";

  public NodeSpec {
    capacity = Map.copyOf(capacity);
    labels = Map.copyOf(labels);
    taints = List.copyOf(taints);
  }

  public static Builder named(String name) {
    return new Builder(name);
  }

  public static final class Builder {
    private final String name;
    private final Map<String, String> capacity =
        new LinkedHashMap<>(Map.of("cpu", "8", "memory", "32Gi", "pods", "110"));
    private final Map<String, String> labels = new LinkedHashMap<>();
    private final List<V1Taint> taints = new ArrayList<>();
    private boolean ready = true;

    private Builder(String name) {
      this.name = name;
      labels.put("kubernetes.io/hostname", name);
    }

    public Builder cpu(String quantity) {
      return resource("cpu", quantity);
    }

    public Builder memory(String quantity) {
      return resource("memory", quantity);
    }

    public Builder pods(int pods) {
      return resource("pods", Integer.toString(pods));
    }

    public Builder gpus(int gpus) {
      return resource(GPU, Integer.toString(gpus));
    }

    public Builder resource(String resource, String quantity) {
      capacity.put(resource, quantity);
      return this;
    }

    public Builder label(String key, String value) {
      labels.put(key, value);
      return this;
    }

    public Builder taint(String key, String value, String effect) {
      taints.add(new V1Taint().key(key).value(value).effect(effect));
      return this;
    }

    public Builder notReady() {
      ready = false;
      return this;
    }

    public NodeSpec build() {
      return new NodeSpec(name, capacity, labels, taints, ready);
    }
  }
}
