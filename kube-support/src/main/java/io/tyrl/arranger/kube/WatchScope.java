package io.tyrl.arranger.kube;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The namespaces whose TYJobs (and, for the controller, pods) a service watches and writes: {@code
 * arranger.watch.namespaces}, empty for all namespaces. The chart's namespaced mode sets it from
 * {@code watchNamespaces} and grants the matching Roles only in those namespaces.
 */
@ConfigurationProperties("arranger.watch")
public record WatchScope(List<String> namespaces) {

  private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?");

  public WatchScope {
    LinkedHashSet<String> cleaned = new LinkedHashSet<>();
    for (String namespace : namespaces == null ? List.<String>of() : namespaces) {
      String name = namespace == null ? "" : namespace.trim();
      if (name.isEmpty()) {
        continue;
      }
      if (!DNS_LABEL.matcher(name).matches()) {
        throw new IllegalArgumentException(
            "arranger.watch.namespaces: \""
                + name
                + "\" is not a namespace name (lower-case letters, digits and '-', at most 63); leave the list empty to watch all");
      }
      cleaned.add(name);
    }
    namespaces = List.copyOf(new ArrayList<>(cleaned));
  }

  public static WatchScope allNamespaces() {
    return new WatchScope(List.of());
  }

  public static WatchScope of(String... namespaces) {
    return new WatchScope(List.of(namespaces));
  }

  public boolean watchesAllNamespaces() {
    return namespaces.isEmpty();
  }

  public boolean includes(String namespace) {
    return watchesAllNamespaces() || namespaces.contains(namespace);
  }
}
